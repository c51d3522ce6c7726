#!/usr/bin/env bash
# Rebuilds every corpus program with nvcc and the real CUDA runtime, runs
# it on the local GPU and writes its stdout to expected/<name>.txt.
#
# Run this on a machine with an NVIDIA GPU to turn the expectations (which
# were written by reasoning about what a GPU must print) into recorded
# ones. Review the diff before committing: where a GPU legitimately prints
# something else, the simulator has a bug.
#
# Usage: record_gpu_outputs.sh [output-dir]    (default: ./expected)
#        CUDA_ARCH=sm_90 record_gpu_outputs.sh  (default: native)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/expected}"
arch="${CUDA_ARCH:-native}"
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT

mkdir -p "$out"
for source in "$here"/*.cu; do
  name="$(basename "$source" .cu)"
  echo "building $name" >&2
  nvcc -O3 -arch="$arch" -I"$here" "$source" -o "$build/$name"
  "$build/$name" > "$out/$name.txt"
done
echo "wrote $(ls "$here"/*.cu | wc -l) outputs to $out" >&2
