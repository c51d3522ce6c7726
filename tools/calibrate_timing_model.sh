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
demos=(lesson01_demo_solution lesson02_demo_solution lesson03_demo_solution lesson04_demo_solution
       lesson05_demo_solution lesson05_demo lesson06_demo_solution lesson06_demo)
for preset in gpu sim; do
  cmake --preset "$preset" >"$out/$preset/configure.log" 2>&1
  cmake --build --preset "$preset" --target "${demos[@]}" >"$out/$preset/build.log" 2>&1 ||
    { tail -30 "$out/$preset/build.log"; exit 1; }
done

# name, program, arguments (the same sizes on both sides: each demo's defaults)
runs=(
  "l01 lesson01_demo_solution"
  "l02 lesson02_demo_solution"
  "l03 lesson03_demo_solution"
  "l04 lesson04_demo_solution"
  "l05_copy lesson05_demo_solution --kernel copy"
  "l05_cub lesson05_demo_solution --kernel cub"
  "l05_reduce_sum lesson05_demo_solution --kernel reduce_sum"
  "l05_starter lesson05_demo --kernel reduce_sum"
  "l05_sweep lesson05_demo_solution --kernel sweep --block 256"
  "l06 lesson06_demo_solution --block 256"
  "l06_b32 lesson06_demo_solution --block 32 --kernel scaled_add"
  "l06_starter lesson06_demo --block 256 --kernel scaled_add"
)
for preset in gpu sim; do
  reps=21
  [[ $preset == sim ]] && reps=1  # modelled times do not vary
  for entry in "${runs[@]}"; do
    read -r name program args <<<"$entry"
    # shellcheck disable=SC2086
    "build/$preset/lessons/$program" --seed 1 --reps "$reps" $args --json "$out/$preset/$name.json" \
      >"$out/$preset/$name.txt" 2>&1 || { echo "$preset $name failed:"; tail -5 "$out/$preset/$name.txt"; exit 1; }
  done
done

gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
python3 tools/timing_model_table.py "$out/gpu" "$out/sim" --device "an $gpu_name (driver $driver, $(date +%F))" \
  --command "tools/calibrate_timing_model.sh" | tee "$out/table.md"
