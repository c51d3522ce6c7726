#!/usr/bin/env bash
# Formats every C++ and CUDA file of the course with clang-format and the root's .clang-format, or,
# with --check, changes nothing and lists the files that differ from it (exit 1).
#
#   tools/format.sh [--check] [FILE...]      default: every source file below the course's root
#
# The style is checked with clang-format 14 (Debian 12's `clang-format`); other versions break a
# few lines differently, so --check refuses them unless COURSE_ANY_CLANG_FORMAT=1.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
check=false
if [ "${1:-}" = "--check" ]; then check=true; shift; fi

formatter="${CLANG_FORMAT:-$(command -v clang-format-14 || command -v clang-format || true)}"
if [ -z "$formatter" ]; then
  echo "format: clang-format not found (sudo apt-get install -y clang-format)" >&2
  exit 2
fi
version="$("$formatter" --version | sed -n 's/.*clang-format version \([0-9]*\).*/\1/p')"
if $check && [ "$version" != 14 ] && [ "${COURSE_ANY_CLANG_FORMAT:-0}" != 1 ]; then
  echo "format: $formatter is version ${version:-unknown}; the style is checked with version 14" >&2
  exit 77
fi

if [ $# -eq 0 ]; then
  mapfile -t files < <(cd "$root" && find common lessons solutions exercises simulator templates tests \
    -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' -o -name '*.h' \) | sort)
  cd "$root"
else
  files=("$@")
fi

if ! $check; then
  "$formatter" -i --style=file "${files[@]}"
  exit 0
fi
# One run over every file (a process per file spent most of its time starting): each place that
# differs is an error naming its file.
if said="$("$formatter" --style=file --dry-run --Werror "${files[@]}" 2>&1)"; then
  echo "format: ${#files[@]} files in the course style"
  exit 0
fi
mapfile -t differ < <(printf '%s\n' "$said" | sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
if [ ${#differ[@]} -eq 0 ]; then  # it stopped for another reason: say what
  printf '%s\n' "$said" >&2
  exit 1
fi
printf 'format: not in the course style: %s\n' "${differ[@]}" >&2
echo "format: tools/format.sh formats them" >&2
exit 1
