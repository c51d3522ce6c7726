#!/usr/bin/env bash
# Measures what the lessons' READMEs and grader thresholds are based on, on the GPU at hand:
# the course's own tests, each lesson's demo, Nsight Compute counters, and the spread of the
# graders' measured speed verdicts over repeated runs.
#
#   tools/calibrate.sh [REPEATS] [LOG_DIR]     (defaults: 20 repeats, logs in build/calibration)
#
# Environment (all optional):
#   LESSONS="03 05"        the lessons whose demos, counters and speed checks are measured (default:
#                         every lesson with a manifest, lessons/NN_name/lesson.json)
#   STEPS="test demo ncu repeat"   which parts to run
#   STARTER_REPEATS=N     repeated runs of the unmodified starters' graders (default: REPEATS)
#   PLANTED_REPEATS=N     repeated runs of the planted kernels that must fail a speed check (default 0)
#   TARGETS="t1 t2 ..."   without the test step: build only these targets instead of the whole course
#
# Prints a short table last. Reads counters with --clock-control none: the GPU's clocks are left
# as they are.
set -uo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-20}
logs=${2:-build/calibration}
lessons=${LESSONS:-$(python3 tools/lesson_manifest.py numbers)}
steps=${STEPS:-test demo ncu repeat}
starter_repeats=${STARTER_REPEATS:-$repeats}
planted_repeats=${PLANTED_REPEATS:-0}
mkdir -p "$logs"
export COURSE_PRESET=gpu
bin=build/gpu/lessons
reference=--modules=build/gpu/modules/solution   # the demos and graders load the reference kernels
planted=build/gpu/modules/planted
wants() { [[ " $steps " == *" $1 "* ]]; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv | tee "$logs/gpu.txt"
test_rc=skipped
if wants test; then
  ./course test 2>&1 | tee "$logs/course_test.log" | tail -30
  test_rc=${PIPESTATUS[0]}
  cp build/gpu/Testing/Temporary/LastTest.log "$logs/ctest_last.log" 2>/dev/null
  # Why each self-test's grader failed: its first verdict line.
  awk '/^[0-9]+\/[0-9]+ Test: /{name=$3; shown=0} /(wrong result|not written|wrong occupancy|bad configuration|too slow|CUDA error|timeout):/{if(!shown && name ~ /planted|starter/){print name": "substr($0,1,240); shown=1}}' \
    "$logs/ctest_last.log" | tee "$logs/selftest_verdicts.txt"
else
  # TARGETS="..." builds only those (a lesson's grader, demo and modules), not the whole course.
  cmake --preset gpu >/dev/null && cmake --build --preset gpu ${TARGETS:+--target $TARGETS} >"$logs/build.log" 2>&1 \
    || { tail -30 "$logs/build.log"; exit 1; }
fi

if wants demo; then
  for lesson in $lessons; do
    # A lesson's manifest names its own calibration script (lesson 09: every n from 2^10 to 2^30,
    # one JSON each, the README's two tables and its figure) or the demo's arguments.
    script=$(python3 tools/lesson_manifest.py calibration-script "$lesson")
    if [ -n "$script" ]; then
      "$script" build/gpu "$logs/lesson${lesson}_sweep" 10 30 2>&1 | tee "$logs/lesson${lesson}_demo.txt"
      continue
    fi
    read -r -a args <<<"$(python3 tools/lesson_manifest.py demo-arguments "$lesson")"
    "$bin/lesson${lesson}_demo" "$reference" "${args[@]}" --json "$logs/lesson${lesson}_demo.json" \
      2>&1 | tee "$logs/lesson${lesson}_demo.txt"
  done
fi

# Nsight Compute: the modern names of the seeds' nvprof metrics.
if wants ncu; then
  for lesson in $lessons; do
    case $lesson in
      01)
        # Requests count warp-level instructions: one per warp in all three kernels. What differs is
        # how many lanes each request carries to the same address (see the lesson's README).
        metrics=l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,smsp__inst_executed.sum
        for k in per-thread-atomic:count_per_thread compiler-aggregated:count_compiler_aggregated per-warp-ballot:count_per_warp; do
          ncu --clock-control none --metrics "$metrics" -k "regex:${k#*:}" --launch-count 1 \
            "$bin/lesson01_demo" "$reference" --kernel "${k%%:*}" --reps 1 --seed 1 >"$logs/ncu_01_${k%%:*}.txt" 2>&1
          echo "lesson 01, ${k%%:*}:"; grep -E "l1tex__|smsp__" "$logs/ncu_01_${k%%:*}.txt" | sed 's/^ */  /'
        done ;;
      02)
        metrics=smsp__sass_average_branch_targets_threads_uniform.pct,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__average_inst_executed_per_warp.ratio
        for k in tiny-by-thread:tiny_by_thread tiny-by-warp:tiny_by_warp index-divergent:index_parity_divergent \
                 warp-parity:warp_parity index-uniform:index_parity_uniform value-divergent:value_parity_divergent \
                 value-uniform:value_parity_uniform; do
          ncu --clock-control none --metrics "$metrics" -k "regex:${k#*:}" --launch-count 1 \
            "$bin/lesson02_demo" "$reference" --kernel "${k%%:*}" --reps 1 --seed 1 >"$logs/ncu_02_${k%%:*}.txt" 2>&1
          echo "lesson 02, ${k%%:*}:"; grep -E "smsp__" "$logs/ncu_02_${k%%:*}.txt" | sed 's/^ */  /'
        done ;;
      03)
        metrics=smsp__average_inst_executed_per_warp.ratio,smsp__sass_average_branch_targets_threads_uniform.pct,smsp__thread_inst_executed_per_inst_executed.ratio,dram__bytes_read.sum.per_second
        for kernel in neighbored neighbored-less; do
          ncu --clock-control none --metrics "$metrics" -k regex:reduce_neighbored --launch-count 1 \
            "$bin/lesson03_demo" "$reference" --kernel "$kernel" --reps 1 --seed 1 >"$logs/ncu_03_$kernel.txt" 2>&1
          grep -E "reduce_neighbored|smsp__|dram__" "$logs/ncu_03_$kernel.txt" | sed 's/^ *//'
        done ;;
      04)
        # One launch of each of the six kernels: the demo's first warm-up round, after its
        # first-launch row. Bank conflicts (shared memory) and sectors per request (coalescing).
        metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio,smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct,smsp__average_inst_executed_per_warp.ratio
        ncu --clock-control none --metrics "$metrics" -k regex:reduce_ --launch-skip 1 --launch-count 6 \
          "$bin/lesson04_demo" "$reference" --reps 1 --seed 1 >"$logs/ncu_04.txt" 2>&1
        grep -E "reduce_|l1tex__|smsp__" "$logs/ncu_04.txt" | sed 's/^ *//' ;;
      05)
        metrics=dram__bytes_read.sum.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_inst_executed_per_warp.ratio
        for build in solution exercise; do
          ncu --clock-control none --metrics "$metrics" -k regex:phase_one --launch-count 1 \
            "$bin/lesson05_demo" --modules=build/gpu/modules/$build --kernel reduce_sum --reps 1 --seed 1 \
            >"$logs/ncu_05_$build.txt" 2>&1
          grep -E "phase_one|dram__|sm__|smsp__" "$logs/ncu_05_$build.txt" | sed 's/^ *//'
        done ;;
      07)
        # One launch of each of the seven kernels (the demo's first warm-up round, after its
        # first-launch row): instructions per warp and in all (per element: / 2^24), warps, and the
        # throughput of global loads and of DRAM, for each rung of the unrolling ladder.
        metrics=smsp__average_inst_executed_per_warp.ratio,smsp__inst_executed.sum,smsp__warps_launched.sum,l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second,dram__bytes_read.sum.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed
        ncu --clock-control none --metrics "$metrics" -k regex:reduce_ --launch-skip 1 --launch-count 7 \
          "$bin/lesson07_demo" "$reference" --reps 1 --seed 1 >"$logs/ncu_07.txt" 2>&1
        grep -E "reduce_|smsp__|l1tex__|dram__" "$logs/ncu_07.txt" | sed 's/^ *//' ;;
      08)
        # One launch of each of the nine kernels of the ladder (the demo's warm-up round): sectors
        # per request tell 16-byte loads from 4-byte ones, shared-memory instructions the block stages.
        metrics=l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__average_inst_executed_per_warp.ratio,dram__bytes_read.sum.per_second
        ncu --clock-control none --metrics "$metrics" -k "regex:ladder_sum|shuffle_sum|reduce_shared" --launch-count 9 \
          "$bin/lesson08_demo" "$reference" --n 2^24 --reps 1 --seed 1 >"$logs/ncu_08.txt" 2>&1
        grep -E "ladder_sum|shuffle_sum|reduce_shared|l1tex__|smsp__|dram__" "$logs/ncu_08.txt" | sed 's/^ *//' ;;
      09)
        # At 2^28: the share of the DRAM bandwidth that reduce_once (one wave of 1056 blocks) and
        # CUB's first kernel (5280 blocks) reach, their grids and registers.
        metrics=gpu__time_duration.sum,dram__bytes_read.sum.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size
        for k in reduce_once:reduce_once cub:DeviceReduce designs:last_block; do
          ncu --clock-control none --metrics "$metrics" -k "regex:${k#*:}" --launch-count 2 \
            "$bin/lesson09_demo" "$reference" --kernel "${k%%:*}" --n 2^28 --reps 1 --seed 1 >"$logs/ncu_09_${k%%:*}.txt" 2>&1
          echo "lesson 09, ${k%%:*}:"; grep -E "Reduce|reduce_once|last_block|gpu__|dram__|sm__|launch__" "$logs/ncu_09_${k%%:*}.txt" | sed 's/^ */  /'
        done ;;
    esac
  done
fi

# Repeated grader runs: the verdicts must not change, and the spread of the measured figures shows
# the margin. Each run prints its speed figures (ratios, or % of copy bandwidth) and its verdict.
figures() {
  grep -oE "runs [0-9.]+x over [a-z_]+|= [0-9.]+% of the device-to-device|at [0-9.]+% of CUB" |
    sed -E 's/runs ([0-9.]+)x over ([a-z_]+)/\1x/; s/= ([0-9.]+)% of the device-to-device/\1%copy/; s/at ([0-9.]+)% of CUB/\1%cub/' |
    paste -sd/ -
}
summary="$logs/summary.txt"
if wants repeat; then
  printf "%-7s %-32s %5s  %s\n" lesson build runs "speed figures (verdict) per run" >"$summary"
  repeat_grader() {  # lesson, label, modules option (empty: the starter's), count, test-case filter
    local lesson=$1 label=$2 modules=$3 count=$4 filter=$5 line="" out rc
    [ "$count" -gt 0 ] || return 0
    for i in $(seq "$count"); do
      out=$("$bin/lesson${lesson}_grader" ${modules:+"$modules"} --test-case="$filter" 2>&1); rc=$?
      line+="$(echo "$out" | figures)($([ $rc = 0 ] && echo pass || echo FAIL)) "
      echo "$out" >>"$logs/repeat_${lesson}_${label}.log"
      echo "$line" >"$logs/repeat_${lesson}_${label}.partial"  # what a cut-short run still shows
    done
    printf "%-7s %-32s %5s  %s\n" "$lesson" "$label" "$count" "$line" >>"$summary"
  }
  for lesson in $lessons; do
    case $lesson in
      05) filter='*nearly as fast*' ;;
      08) filter='*nearly as fast*,*shared-memory tree*' ;;
      *) filter='*faster*' ;;
    esac
    repeat_grader "$lesson" solution "$reference" "$repeats" "$filter"
    repeat_grader "$lesson" starter "" "$starter_repeats" "$filter"
    if [ "$lesson" = 04 ]; then
      for name in packed_not_interleaved shared_bank_conflicts; do
        repeat_grader 04 "$name" "--modules=$planted/04_interleaved_reduction/$name:build/gpu/modules/solution" \
          "$planted_repeats" "$filter"
      done
    fi
    if [ "$lesson" = 08 ]; then
      for name in shared_tree_int4 scalar_loads; do
        repeat_grader 08 "$name" "--modules=$planted/08_warp_shuffles/$name:build/gpu/modules/solution" \
          "$planted_repeats" "$filter"
      done
    fi
  done
fi
echo; echo "course test exit code: $test_rc"; cat "$summary" 2>/dev/null
