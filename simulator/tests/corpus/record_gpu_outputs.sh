#!/usr/bin/env bash
# Rebuilds every corpus program with nvcc and the real CUDA runtime, runs it on the local GPU and
# writes its stdout to expected/<name>.txt: the outputs the simulator must reproduce. Review the
# diff before committing: where a GPU prints something other than the simulator, the simulator has
# a bug.
#
# Usage: record_gpu_outputs.sh [output-dir]          (default: ./expected; another folder is
#                                                     compared with expected/, file by file)
#        CUDA_ARCH=sm_90 record_gpu_outputs.sh        (default: native)
#        JOBS=16 record_gpu_outputs.sh                (parallel builds; default: 4)
# Exit status 1 if a program does not build or exits with a non-zero status (it is named).
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/expected}"
arch="${CUDA_ARCH:-native}"
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
mkdir -p "$out"

# The flags of the simulator's build of the same programs (C++20, the corpus's own header).
export arch build here
ls "$here"/*.cu | xargs -P "${JOBS:-4}" -I{} sh -c \
  'name=$(basename {} .cu); nvcc -std=c++20 -O3 -arch="$arch" -I"$here" {} -o "$build/$name" 2>"$build/$name.build.log" \
     || echo "$name does not build: $(head -3 "$build/$name.build.log")" >&2'

failed=0
for source in "$here"/*.cu; do
  name="$(basename "$source" .cu)"
  if [ ! -x "$build/$name" ]; then
    failed=1
    continue
  fi
  # Programs run one at a time: the GPU is not shared.
  if ! "$build/$name" >"$out/$name.txt" 2>"$build/$name.stderr"; then
    echo "$name exited with a failure: $(head -3 "$build/$name.stderr")" >&2
    failed=1
  fi
done
echo "recorded $(ls "$out"/*.txt | wc -l) outputs in $out" >&2
# Recorded elsewhere than expected/: how many are byte for byte what the simulator must print.
if [ "$(cd "$out" && pwd)" != "$here/expected" ]; then
  same=0
  total=0
  for recorded in "$out"/*.txt; do
    total=$((total + 1))
    if cmp -s "$recorded" "$here/expected/$(basename "$recorded")"; then
      same=$((same + 1))
    else
      echo "differs from expected/: $(basename "$recorded" .txt)" >&2
    fi
  done
  echo "identical to the committed expectations: $same of $total" >&2
fi
exit "$failed"
