#!/usr/bin/env bash
# Measures what the lessons' READMEs and grader thresholds are based on, on the GPU at hand:
# the course's own tests, each lesson's demo, Nsight Compute counters, and the spread of the
# graders' measured speedups over repeated runs.
#
#   tools/calibrate.sh [REPEATS] [LOG_DIR]     (defaults: 20 repeats, logs in build/calibration)
#
# COURSE_LESSONS="01 02" limits the demos, counters and repeats to those lessons; with
# COURSE_CALIBRATE_BUDGET=S (seconds) the repeated runs stop once the script has run that long.
#
# Prints a short table last. Reads counters with --clock-control none: the GPU's clocks are left
# as they are.
set -uo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-20}
logs=${2:-build/calibration}
lessons=${COURSE_LESSONS:-"01 02 03"}
budget=${COURSE_CALIBRATE_BUDGET:-0}
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

for lesson in $lessons; do
  "$bin/lesson${lesson}_demo_solution" --seed 1 --reps 51 --json "$logs/lesson${lesson}_demo.json" \
    2>&1 | tee "$logs/lesson${lesson}_demo.txt"
done

# Nsight Compute: the modern names of the seeds' nvprof metrics, one launch of each kernel.
profile() {  # lesson, kernel-name regex, demo --kernel, metrics
  ncu --clock-control none --metrics "$4" -k "regex:$2" --launch-count 1 \
    "$bin/lesson$1_demo_solution" --kernel "$3" --reps 1 --seed 1 >"$logs/ncu_$1_$3.txt" 2>&1
  echo "lesson $1, $3:"
  grep -E "smsp__|dram__|l1tex__" "$logs/ncu_$1_$3.txt" | sed 's/^ */  /'
}
branch=smsp__sass_average_branch_targets_threads_uniform.pct,smsp__thread_inst_executed_per_inst_executed.ratio
for lesson in $lessons; do
  case $lesson in
  01)
    # Requests count warp-level instructions: one per warp in all three kernels. What differs is
    # how many lanes each request carries to the same address (see the lesson's README).
    atomics=l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,smsp__inst_executed.sum
    profile 01 "count_per_thread" per-thread-atomic "$atomics"
    profile 01 "count_compiler_aggregated" compiler-aggregated "$atomics"
    profile 01 "count_per_warp" per-warp-ballot "$atomics" ;;
  02)
    for k in tiny-by-thread:tiny_by_thread tiny-by-warp:tiny_by_warp index-divergent:index_parity_divergent \
             warp-parity:warp_parity index-uniform:index_parity_uniform value-divergent:value_parity_divergent \
             value-uniform:value_parity_uniform; do
      profile 02 "${k#*:}" "${k%%:*}" "$branch,smsp__average_inst_executed_per_warp.ratio"
    done ;;
  03)
    for k in neighbored neighbored-less; do
      profile 03 "reduce_neighbored" "$k" "smsp__average_inst_executed_per_warp.ratio,$branch,dram__bytes_read.sum.per_second"
    done ;;
  esac
done

# Repeated grader runs: the verdicts must not change, and the ratio's spread shows the margin.
# A grader may time several kernels: their ratios are joined with "/".
ratio() { grep -oE "runs [0-9.]+x over" | grep -oE "[0-9.]+" | paste -sd/; }
summary="$logs/summary.txt"
printf "%-10s %-9s %6s  %s\n" lesson build runs "speedup ratios (verdict)" >"$summary"
for lesson in $lessons; do
  for build in solution exercise; do
    grader="$bin/lesson${lesson}_grader"; [ "$build" = solution ] && grader+=_solution
    ratios=""
    for i in $(seq "$repeats"); do
      if [ "$budget" -gt 0 ] && [ "$SECONDS" -ge "$budget" ]; then ratios+="(budget spent after $((i - 1)) runs)"; break; fi
      out=$("$grader" --test-case='*faster*' 2>&1); rc=$?
      ratios+="$(echo "$out" | ratio)($([ $rc = 0 ] && echo pass || echo FAIL)) "
      echo "$out" >>"$logs/repeat_${lesson}_${build}.log"
    done
    printf "%-10s %-9s %6s  %s\n" "$lesson" "$build" "$repeats" "$ratios" >>"$summary"
  done
done
echo; echo "course test exit code: $test_rc"; cat "$summary"
