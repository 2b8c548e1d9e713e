#!/usr/bin/env bash
# What tests/test_export_avr.py needs: Debian's gcc-avr, avr-libc and simavr (no download beyond
# the package registry), installed with apt when one is missing and this runs as root. Otherwise
# it says what to install and the AVR tests skip, each saying which tool is missing.
set -euo pipefail
if command -v avr-gcc >/dev/null 2>&1 && command -v simavr >/dev/null 2>&1 \
  && echo '#include <avr/pgmspace.h>' | avr-gcc -mmcu=atmega328p -E - >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "gcc-avr, avr-libc or simavr is missing, so the AVR tests will skip: sudo apt-get install gcc-avr avr-libc simavr" >&2
  exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-avr avr-libc simavr >/dev/null
