#!/usr/bin/env bash
# What the browser test needs: Debian's chromium (no browser download: these machines reach only
# package registries) and Playwright for Python in the project's virtual environment.
set -euo pipefail
BIN="${1:-.venv/bin}"
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "chromium is missing; install Debian's package: sudo apt-get install chromium" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
"$BIN/python" -m pip install --quiet -e ".[browser]"
