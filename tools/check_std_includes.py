#!/usr/bin/env python3
"""Include what you use, for the standard library: every C++ file of the course names the standard
headers whose names it uses, instead of getting them through another header by accident (a newer
standard library stops including <cstdint> from <string>, and the build breaks).

    tools/check_std_includes.py BUILD_DIR     # a tree configured with CMAKE_EXPORT_COMPILE_COMMANDS

Runs include-what-you-use (Debian package iwyu) on every host C++ file of the tree's
compile_commands.json that lives in the course's sources (each file of a unity build on its own),
and on the course's headers they include; reports only missing standard headers (the course's own
headers are left to review). Exit 0 when nothing is missing, 1 with one line per missing header,
2 on bad usage, 77 without include-what-you-use (a skipped test).
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

SOURCE_ROOT = Path(__file__).resolve().parent.parent
CHECKED_FOLDERS = ("common", "simulator", "lessons", "tests")

# The C++ standard library's headers; a C header IWYU proposes (<stdint.h>) is read as its C++
# name (<cstdint>), the spelling the course uses.
STD_HEADERS = set(
    """algorithm any array atomic barrier bit bitset cassert cctype cerrno cfenv cfloat charconv
    chrono cinttypes climits clocale cmath codecvt compare complex concepts condition_variable
    coroutine csetjmp csignal cstdarg cstddef cstdint cstdio cstdlib cstring ctime cuchar cwchar
    cwctype deque exception execution filesystem format forward_list fstream functional future
    initializer_list iomanip ios iosfwd iostream istream iterator latch limits list locale map
    memory memory_resource mutex new numbers numeric optional ostream queue random ranges ratio
    regex scoped_allocator semaphore set shared_mutex source_location span sstream stack
    stdexcept stop_token streambuf string string_view syncstream system_error thread tuple
    type_traits typeindex typeinfo unordered_map unordered_set utility valarray variant vector
    version""".split()
)
# Names IWYU attributes to a header although the code does not spell them: allocators, traits,
# comparators and hashes that come with the containers; what a braced list, a range-for or a
# defaulted comparison uses; operators.
IMPLICIT_NAMES = {"allocator", "allocator_traits", "char_traits", "__alloc_traits", "less", "equal_to", "hash",
                  "add_const", "remove_reference", "initializer_list", "begin", "end", "strong_ordering",
                  "weak_ordering", "partial_ordering"}

ADD_BLOCK = re.compile(r"^(?P<file>\S+) should add these lines:$")
INCLUDE_LINE = re.compile(r"^#include <(?P<header>[^>]+)>\s*(?://\s*for (?P<names>.*))?$")


def std_name(header: str) -> str | None:
    """<cstdint> for <cstdint> or <stdint.h>; None for anything not in the standard library."""
    if header in STD_HEADERS:
        return header
    if header.endswith(".h") and "/" not in header and "c" + header[:-2] in STD_HEADERS:
        return "c" + header[:-2]
    return None


def implicit(name: str) -> bool:
    """True for a name the code uses without spelling it (see IMPLICIT_NAMES)."""
    plain = re.sub(r"<.*", "", name).split("::")[-1]
    return plain in IMPLICIT_NAMES or plain.startswith(("operator", "__")) or plain.endswith("...")


def iwyu_command(entry: dict, source: Path) -> list[str] | None:
    """The include-what-you-use command for `source` with one compile_commands.json entry's flags; None
    for an entry that is not C++."""
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    if not args or Path(args[0]).name.startswith("nvcc"):
        return None
    kept, skip = [], False
    for arg in args[1:]:
        if skip:
            skip = False
        elif arg == "-o":
            skip = True
        elif arg in ("-c", "-Werror") or arg.startswith("-O") or arg.startswith("-m"):
            continue
        elif arg != entry["file"]:
            kept.append(arg)
    project_headers = f"{SOURCE_ROOT}/*"
    return (["include-what-you-use", *kept, "-Wno-unknown-warning-option",
             "-Xiwyu", "--no_fwd_decls", "-Xiwyu", "--cxx17ns", "-Xiwyu", f"--check_also={project_headers}",
             str(source)])


UNITY_INCLUDE = re.compile(r'^#include "(?P<file>[^"]+)"$')


def sources_of(entry: dict) -> list[Path]:
    """The files one compile_commands.json entry compiles: its file, or for a unity source (CMake's
    UNITY_BUILD, Unity/unity_N_cxx.cxx) each file it includes, each then checked with its flags."""
    source = Path(entry["file"]).resolve()
    if source.parent.name != "Unity" or source.suffix != ".cxx":
        return [source]
    included = (UNITY_INCLUDE.match(line) for line in source.read_text().splitlines())
    return [Path(match["file"]).resolve() for match in included if match]


def missing_std_headers(output: str) -> dict[str, set[tuple[str, str]]]:
    """{file: {(header, names)}} of IWYU's "should add these lines" blocks, standard headers only."""
    found: dict[str, set[tuple[str, str]]] = {}
    current = None
    for line in output.splitlines():
        block = ADD_BLOCK.match(line)
        if block:
            current = block["file"]
            continue
        if current is None:
            continue
        if not line.strip():
            current = None
            continue
        include = INCLUDE_LINE.match(line.strip())
        if not include:
            continue
        header = std_name(include["header"])
        names = [n.strip() for n in (include["names"] or "").split(",") if n.strip()]
        names = [n for n in names if not implicit(n)]
        if header and names and Path(current).resolve().is_relative_to(SOURCE_ROOT):
            found.setdefault(current, set()).add((header, ", ".join(names)))
    return found


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: tools/check_std_includes.py BUILD_DIR", file=sys.stderr)
        return 2
    database = Path(sys.argv[1]) / "compile_commands.json"
    if not database.is_file():
        print(f"{database} not found: configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON", file=sys.stderr)
        return 2
    if shutil.which("include-what-you-use") is None:
        print("include-what-you-use not found: sudo apt-get install iwyu", file=sys.stderr)
        return 77
    commands = []
    checked: set[Path] = set()  # a file built into several targets (a student program's variants) is checked once
    for entry in json.loads(database.read_text()):
        for source in sources_of(entry):
            relative = source.relative_to(SOURCE_ROOT) if source.is_relative_to(SOURCE_ROOT) else None
            command = iwyu_command(entry, source)
            if relative and relative.parts[0] in CHECKED_FOLDERS and source.suffix == ".cpp" and command and \
                    source not in checked:
                checked.add(source)
                commands.append((entry["directory"], command))

    def run(job):
        directory, command = job
        return subprocess.run(command, cwd=directory, capture_output=True, text=True).stderr

    missing: dict[str, set[tuple[str, str]]] = {}
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for output in pool.map(run, commands):
            for file, headers in missing_std_headers(output).items():
                missing.setdefault(file, set()).update(headers)

    for file in sorted(missing):
        relative = Path(file).resolve().relative_to(SOURCE_ROOT)
        for header, names in sorted(missing[file]):
            print(f"{relative}: add #include <{header}> (for {names})")
    count = sum(len(h) for h in missing.values())
    print(f"{len(commands)} files checked: "
          + (f"{count} standard headers missing" if count else "every standard header included"))
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main())
