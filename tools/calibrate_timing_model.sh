#!/usr/bin/env bash
# The CPU simulator's timing model against a GPU: every lesson's demo kernels, measured on this
# machine's GPU (build/gpu) and modelled by the simulator (build/sim), side by side.
#
#   tools/calibrate_timing_model.sh [OUT_DIR]     (default build/timing-model)
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

# name, modules (the reference's or the starter's), demo, arguments (the same sizes on both sides:
# each demo's defaults, or 2^24 where the default would take the simulator too long)
runs=(
  "l01 solution lesson01_demo"
  "l02 solution lesson02_demo"
  "l03 solution lesson03_demo"
  "l04 solution lesson04_demo"
  "l05_copy solution lesson05_demo --kernel copy"
  "l05_cub solution lesson05_demo --kernel cub"
  "l05_reduce_sum solution lesson05_demo --kernel reduce_sum"
  "l05_starter exercise lesson05_demo --kernel reduce_sum"
  "l05_sweep solution lesson05_demo --kernel sweep --block 256"
  "l06 solution lesson06_demo --block 256"
  "l06_b32 solution lesson06_demo --block 32 --kernel scaled_add"
  "l06_starter exercise lesson06_demo --block 256 --kernel scaled_add"
  "l07 solution lesson07_demo"
  "l08 solution lesson08_demo --n 2^24 --block 256"
)
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
