#!/usr/bin/env bash
# Lesson 09: the demo at every n = 2^FIRST .. 2^LAST with the reference module, one JSON per n, then
# the table of the README (speedups over CUB, single calls and back to back) and the figure.
#
#   lessons/09_one_launch_reduction/sweep.sh build/gpu /tmp/l09 10 30
#   (on the H100 this takes about half a minute; each point is --seed 1 --reps 21)
set -euo pipefail
build=${1:-build/gpu}
out=${2:-/tmp/lesson09_sweep}
first=${3:-10}
last=${4:-30}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for ((k = first; k <= last; k++)); do
  "$build/lessons/lesson09_demo" --modules="$build/modules/solution" --n "2^$k" --seed 1 --reps 21 \
    --json "$out/n$k.json" > "$out/n$k.txt"
  echo "2^$k done"
done
python3 "$here/plot.py" "$out" --svg "$out/one_launch.svg" --markdown "$out/table.md"
