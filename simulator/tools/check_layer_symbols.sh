#!/usr/bin/env bash
# The simulator's layer libraries, bottom up (cudasim_support, cudasim_ptx, cudasim_exec,
# cudasim_timing, cudasim): no library may need a symbol that only a library above it defines,
# which is a call reaching up a layer (tools/check_layers.py checks the includes; this checks what
# the compiled code calls, through any header).
#
#   tools/check_layer_symbols.sh LIB...   # the layers' static libraries, lowest first
#
# Exit 0 when every symbol a layer needs comes from itself, a layer below or outside the
# simulator; 1 naming each one that comes from above; 2 on bad usage.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: check_layer_symbols.sh LIB... (lowest layer first)" >&2; exit 2; }
libraries=("$@")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for i in "${!libraries[@]}"; do
  nm --defined-only "${libraries[$i]}" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u >"$scratch/defined_$i"
  nm --undefined-only "${libraries[$i]}" 2>/dev/null | awk '{ print $NF }' | sort -u >"$scratch/needed_$i"
done
found=0
for i in "${!libraries[@]}"; do
  : >"$scratch/below"
  for j in $(seq 0 "$i"); do cat "$scratch/defined_$j" >>"$scratch/below"; done
  sort -u -o "$scratch/below" "$scratch/below"
  : >"$scratch/above"
  for j in $(seq $((i + 1)) $((${#libraries[@]} - 1))); do cat "$scratch/defined_$j" >>"$scratch/above"; done
  sort -u -o "$scratch/above" "$scratch/above"
  comm -23 "$scratch/needed_$i" "$scratch/below" | comm -12 - "$scratch/above" >"$scratch/up_$i"
  while read -r symbol; do
    name=$(echo "$symbol" | c++filt 2>/dev/null || echo "$symbol")
    echo "$(basename "${libraries[$i]}") needs $name, which only a layer above it defines"
    found=1
  done <"$scratch/up_$i"
done
exit $found
