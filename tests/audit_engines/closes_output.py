"""Closes its standard output and runs on (a minute): before answering anything, or, given an
argument, after answering its first board with the centre."""

import os
import sys
import time

if sys.argv[1:]:
    print(4, flush=True)
os.close(1)
time.sleep(60)
