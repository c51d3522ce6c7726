#!/usr/bin/env bash
# Lists the CUDA runtime symbols an object file or static executable
# needs and whether libcudasim provides them.
#
# Usage: check_runtime_symbols.sh <libcudasim.a> <file.o>...
# Exit status 1 if any needed symbol is missing (it would also be an
# unresolved symbol when linking: the simulator does not support it).
set -euo pipefail

library="$1"
shift
provided="$(nm --defined-only "$library" 2>/dev/null | awk '{print $3}' | sort -u)"
missing=0
for symbol in $(nm --undefined-only "$@" | awk '{print $2}' | grep -E '^(__)?cuda' | sort -u); do
  if grep -qx "$symbol" <<<"$provided"; then
    echo "supported    $symbol"
  else
    echo "UNSUPPORTED  $symbol"
    missing=1
  fi
done
exit "$missing"
