#!/usr/bin/env python3
"""The simulator's sources are layers that depend one way only: ptx < exec < timing < runtime. A file
in one layer may include its own layer's headers and those of lower layers; support/ is below them
all. This check reads every `#include "<layer>/..."` under simulator/src and reports each one that
reaches up (or sideways into a folder that is not a layer).

    simulator/tools/check_layers.py [SRC_DIR]     # default: the src/ folder beside tools/

Exit 0 when every include goes down, 1 with one line per include that does not (file:line: the
include), 2 on bad usage.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

# From the bottom up; a layer may include itself and every layer before it.
LAYERS = ["support", "ptx", "exec", "timing", "runtime"]
SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".def", ".inc"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/[^"]*"')


def forbidden_includes(src: Path) -> list[str]:
    problems = []
    for path in sorted(src.rglob("*")):
        if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
            continue
        relative = path.relative_to(src)
        if len(relative.parts) < 2:
            continue  # files at the top of src/ belong to no layer
        layer = relative.parts[0]
        rank = LAYERS.index(layer) if layer in LAYERS else None
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = match.group(1)
            if target not in LAYERS:
                continue  # a header of the same folder or of another project, not a layer
            if rank is None:
                why = f"{layer}/ is not a layer ({' < '.join(LAYERS)})"
            elif LAYERS.index(target) > rank:
                why = f"{layer} may not include {target} (layers: {' < '.join(LAYERS)})"
            else:
                continue
            problems.append(f"{path.relative_to(src.parent)}:{number}: {line.strip()}: {why}")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        print(__doc__, file=sys.stderr)
        return 2
    src = Path(argv[1]) if len(argv) == 2 else Path(__file__).resolve().parent.parent / "src"
    if not src.is_dir():
        print(f"check_layers: {src} is not a folder", file=sys.stderr)
        return 2
    problems = forbidden_includes(src)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check_layers: {len(problems)} include(s) against the layer order", file=sys.stderr)
        return 1
    print(f"check_layers: every include under {src} follows {' < '.join(LAYERS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
