#!/usr/bin/env bash
# The CPU simulator's timing model against a GPU: every lesson's demo kernels, measured on this
# machine's GPU (build/gpu) and modelled by the simulator (build/sim), side by side.
#
#   tools/calibrate_timing_model.sh [OUT_DIR]     (default build/timing-model)
#   LESSONS="07 08 09" tools/calibrate_timing_model.sh    only these lessons' runs
#
# Writes OUT_DIR/gpu/*.json and OUT_DIR/sim/*.json (the demos' --json reports) and prints the table
# of docs/measurements/timing_model_calibration.md last. Needs a GPU; the simulator's runs use
# every core. Leaves the GPU's clocks alone.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/timing-model}
mkdir -p "$out/gpu" "$out/sim"
for preset in gpu sim; do
  cmake --preset "$preset" >"$out/$preset/configure.log" 2>&1
  cmake --build --preset "$preset" >"$out/$preset/build.log" 2>&1 || { tail -30 "$out/$preset/build.log"; exit 1; }
done

# name, modules (the reference's or the starter's), demo, arguments, from each lesson's manifest
# (lessons/NN_name/lesson.json, "timing_model_runs"): the same sizes on both sides, each demo's
# defaults, or 2^24 where the default would take the simulator too long.
# shellcheck disable=SC2086
mapfile -t runs < <(python3 tools/lesson_manifest.py timing-model-runs ${LESSONS:-})
for preset in gpu sim; do
  reps=21
  [[ $preset == sim ]] && reps=1  # modelled times do not vary
  for entry in "${runs[@]}"; do
    read -r name modules program args <<<"$entry"
    # shellcheck disable=SC2086
    "build/$preset/lessons/$program" --modules="build/$preset/modules/$modules" --seed 1 --reps "$reps" $args \
      --json "$out/$preset/$name.json" \
      >"$out/$preset/$name.txt" 2>&1 || { echo "$preset $name failed:"; tail -5 "$out/$preset/$name.txt"; exit 1; }
  done
done

gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
python3 tools/timing_model_table.py "$out/gpu" "$out/sim" --device "an $gpu_name (driver $driver, $(date +%F))" \
  --command "tools/calibrate_timing_model.sh" | tee "$out/table.md"
