#!/usr/bin/env bash
# Measures what the lessons' READMEs and grader thresholds are based on, on the GPU at hand:
# the course's own tests, each lesson's demo, Nsight Compute counters, and the spread of the
# graders' measured speedups over repeated runs.
#
#   tools/calibrate.sh [REPEATS] [LOG_DIR]     (defaults: 20 repeats, logs in build/calibration)
#
# Prints a short table last. Reads counters with --clock-control none: the GPU's clocks are left
# as they are.
set -uo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-20}
logs=${2:-build/calibration}
mkdir -p "$logs"
export COURSE_PRESET=gpu
bin=build/gpu/lessons

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv | tee "$logs/gpu.txt"
./course test 2>&1 | tee "$logs/course_test.log" | tail -30
test_rc=${PIPESTATUS[0]}
cp build/gpu/Testing/Temporary/LastTest.log "$logs/ctest_last.log" 2>/dev/null
# Why each self-test's grader failed: its first verdict line.
awk '/^[0-9]+\/[0-9]+ Test: /{name=$3; shown=0} /(wrong result|not written|too slow|CUDA error|timeout):/{if(!shown && name ~ /planted|starter/){print name": "substr($0,1,200); shown=1}}' \
  "$logs/ctest_last.log"

for lesson in 03; do
  "$bin/lesson${lesson}_demo_solution" --seed 1 --reps 51 --json "$logs/lesson${lesson}_demo.json" \
    2>&1 | tee "$logs/lesson${lesson}_demo.txt"
done

# Nsight Compute: the modern names of the seeds' nvprof metrics, one launch of each kernel.
metrics=smsp__average_inst_executed_per_warp.ratio,smsp__sass_average_branch_targets_threads_uniform.pct,smsp__thread_inst_executed_per_inst_executed.ratio,dram__bytes_read.sum.per_second
for kernel in neighbored neighbored-less; do
  ncu --clock-control none --metrics "$metrics" -k regex:reduce_neighbored --launch-count 1 \
    "$bin/lesson03_demo_solution" --kernel "$kernel" --reps 1 --seed 1 >"$logs/ncu_03_$kernel.txt" 2>&1
  grep -E "reduce_neighbored|smsp__|dram__" "$logs/ncu_03_$kernel.txt" | sed 's/^ *//'
done

# Repeated grader runs: the verdicts must not change, and the ratio's spread shows the margin.
ratio() { grep -oE "runs [0-9.]+x over" | grep -oE "[0-9.]+" | head -1; }
summary="$logs/summary.txt"
printf "%-10s %-9s %6s  %s\n" lesson build runs "speedup ratios (verdict)" >"$summary"
for lesson in 03; do
  for build in solution exercise; do
    grader="$bin/lesson${lesson}_grader"; [ "$build" = solution ] && grader+=_solution
    ratios=""
    for i in $(seq "$repeats"); do
      out=$("$grader" --test-case='*faster*' 2>&1); rc=$?
      ratios+="$(echo "$out" | ratio)($([ $rc = 0 ] && echo pass || echo FAIL)) "
      echo "$out" >>"$logs/repeat_${lesson}_${build}.log"
    done
    printf "%-10s %-9s %6s  %s\n" "$lesson" "$build" "$repeats" "$ratios" >>"$summary"
  done
done
echo; echo "course test exit code: $test_rc"; cat "$summary"
