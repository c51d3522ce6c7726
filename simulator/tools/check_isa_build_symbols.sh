#!/usr/bin/env bash
# The fast paths' AVX2 build (exec/arithmetic/fast_paths.hpp) keeps AVX2 to itself: of the code it
# defines, only its entry point may use AVX2 registers and be called from other files. Any other
# global or weak function there (an inline function of a header that the compiler kept out of line)
# may be the copy the linker keeps for the whole program: compiled for AVX2, a CPU without AVX2
# would stop at it (illegal instruction). Data it shares (constants, typeinfo) is the same bytes in
# every build.
#
#   tools/check_isa_build_symbols.sh OBJECT...   # the object files of cudasim_fast_paths_avx2
#
# Exit 0 when no global or weak function but fast_paths_avx2::fast_path_of has an AVX instruction
# (VEX-encoded: a mnemonic that starts with v, or a ymm register) and that entry point is there; 1
# naming each function that does; 2 on bad usage.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: check_isa_build_symbols.sh OBJECT..." >&2; exit 2; }
entry=_ZN7cudasim15fast_paths_avx212fast_path_ofERKNS_3ptx5InstrE
shared=$(nm --defined-only "$@" | awk '$2 == "T" || $2 == "W" { print $3 }' | sort -u)
grep -qx "$entry" <<<"$shared" || { echo "the AVX2 build does not define $(c++filt "$entry")"; exit 1; }
found=0
for symbol in $(objdump -d --no-show-raw-insn "$@" | awk '
    /^[0-9a-f]+ <.*>:$/ { name = substr($2, 2, length($2) - 3) }
    (/:\tv[a-z]/ || /%ymm/) && name != "" { print name }' | sort -u); do
  if [ "$symbol" != "$entry" ] && grep -qx "$symbol" <<<"$shared"; then
    echo "the AVX2 build's $(c++filt "$symbol") uses AVX2 and other files may call it"
    found=1
  fi
done
exit $found
