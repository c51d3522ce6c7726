#!/usr/bin/env bash
# Lesson 06: the measurements behind lessons/06_occupancy/README.md, on the GPU at hand.
#
#   lessons/06_occupancy/measure.sh [LOG_DIR] [REPEATS] [STEPS]
#     defaults: build/measure06, 20 repeats, steps "graders demo ncu repeats"
#
# graders: the lesson's solution, starter and planted graders (ctest -L lesson06), verbose
# demo:    ./course run 06 --solution --seed 1 --json LOG_DIR/occupancy.json (the plot's data)
# ncu:     achieved against theoretical occupancy for every scaled_add launch of the demo
# repeats: REPEATS runs of exercise 2's speed check, reference and starter: the verdicts must not change
# Counters are read with --clock-control none: the GPU's clocks are left as they are.
set -uo pipefail
cd "$(dirname "$0")/../.."
logs=${1:-build/measure06}
repeats=${2:-20}
steps=${3:-graders demo ncu repeats}
mkdir -p "$logs"
export COURSE_PRESET=gpu
bin=build/gpu/lessons
has() { [[ " $steps " == *" $1 "* ]]; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu --format=csv \
  >"$logs/gpu.txt" 2>&1
{ cmake --preset gpu && cmake --build --preset gpu; } >"$logs/build.log" 2>&1 || { tail -40 "$logs/build.log"; exit 1; }

if has graders; then
  ctest --preset gpu -L lesson06 --label-exclude '^exercise$' >"$logs/ctest_lesson06.log" 2>&1
  echo "ctest lesson06 exit code $?" >>"$logs/ctest_lesson06.log"
  "$bin/lesson06_grader" --modules=build/gpu/modules/solution --seed=1 -s >"$logs/grader_solution.log" 2>&1
  "$bin/lesson06_grader" --seed=1 >"$logs/grader_starter.log" 2>&1
fi

if has demo; then
  "$bin/lesson06_demo" --modules=build/gpu/modules/solution --seed 1 --json "$logs/occupancy.json" \
    >"$logs/demo.txt" 2>&1
fi

if has ncu; then
  metrics=sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,launch__block_size,launch__grid_size,launch__shared_mem_per_block_dynamic
  limits=launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed
  for block in 256 32; do
    timeout 120 ncu --clock-control none --kernel-name regex:'^scaled_add$' --metrics "$metrics,$limits" --csv \
      "$bin/lesson06_demo" --modules=build/gpu/modules/solution --kernel scaled_add --block $block --reps 1 --seed 1 \
      >"$logs/ncu_$block.csv" 2>"$logs/ncu_$block.err"
    echo "ncu block $block exit code $?" >>"$logs/ncu_$block.err"
  done
fi

if has repeats; then
  ratio() { grep -oE "runs [0-9.]+x over" | grep -oE "[0-9.]+" | head -1; }
  for build in solution starter; do
    modules=(); [ "$build" = solution ] && modules=(--modules=build/gpu/modules/solution)
    line=""
    for i in $(seq "$repeats"); do
      out=$("$bin/lesson06_grader" "${modules[@]}" --test-case='*faster*' 2>&1); rc=$?
      line+="$(echo "$out" | ratio)($([ $rc = 0 ] && echo pass || echo FAIL)) "
      echo "$out" >>"$logs/repeat_$build.log"
    done
    echo "$build: $line" >>"$logs/repeats.txt"
  done
fi

echo "== $(head -2 "$logs/gpu.txt" | tail -1)"
has graders && { grep -E "tests passed|tests failed|exit code" "$logs/ctest_lesson06.log";
  grep -E "MESSAGE|fast enough|too slow|wrong|bad conf" "$logs/grader_solution.log" -A1 | grep -vE "^--$|MESSAGE:$" | cut -c1-300; }
has demo && tail -40 "$logs/demo.txt"
has repeats && cat "$logs/repeats.txt"
exit 0
