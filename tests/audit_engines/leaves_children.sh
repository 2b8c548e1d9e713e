#!/bin/sh
# A shell-script engine that leaves processes behind: each time it starts it puts a `sleep` in
# the background, it never answers X........ (a `sleep` in the foreground: the audit's time-out
# ends it), it exits when asked ....X.... (a crash), and otherwise plays the lowest free cell.
# $1: how long each `sleep` lasts, a number the test looks for among the processes left. (The
# one in the background writes elsewhere: holding the answers' pipe open, it would turn the
# crash into a time-out.)
sleep "$1" >/dev/null 2>&1 &
while read -r board; do
    case $board in
    X........) sleep "$1" ;;
    ....X....) exit 3 ;;
    esac
    before=${board%%.*}
    echo "${#before}"
done
