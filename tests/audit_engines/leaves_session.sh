#!/bin/sh
# A shell-script engine whose processes leave its session, as a daemon's do: each time it
# starts, a `sleep` that calls setsid (a session and group of its own, so ending the engine's
# group misses it), and one that does so from a subshell that exits at once (a double fork:
# its parent gone, it belongs to no one the audit started); then it plays the lowest free cell.
# $1: how long each `sleep` lasts, a number the test looks for among the processes left.
setsid sleep "$1" >/dev/null 2>&1 </dev/null &
(setsid sleep "$1" >/dev/null 2>&1 </dev/null &)
while read -r board; do
    before=${board%%.*}
    echo "${#before}"
done
