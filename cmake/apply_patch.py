"""Applies a planted kernel's patch to the reference it mutates, strictly: every hunk must match the
reference at the line it names, context included (no fuzz, no offset), so that a patch which no
longer fits the reference stops the configuration instead of planting something else.

    python3 apply_patch.py <name.patch> <reference file> <output file> [<patch> <reference> <output>]...

The patch is a unified diff of one file (`diff -u`, `git diff`), after header lines of its own
(tests/planted/README.md). The output is written only when its contents change, so that the
planted module is not rebuilt at every configuration. Several patches are applied by one run (a
Python start per patch would slow every configuration down). Exit code 1 with one message per
patch that does not apply.
"""

import re
import sys
from pathlib import Path

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def hunks(patch_lines: list[str]) -> list[tuple[int, list[str]]]:
    """The hunks as (first reference line, 0-based; body lines), after the ---/+++ headers."""
    start = next((i for i, line in enumerate(patch_lines) if line.startswith("--- ")), None)
    if start is None or start + 1 >= len(patch_lines) or not patch_lines[start + 1].startswith("+++ "):
        raise ValueError("no unified diff in it (no '--- a/<file>' and '+++ b/<file>' lines)")
    result: list[tuple[int, list[str]]] = []
    for line in patch_lines[start + 2:]:
        if match := HUNK.match(line):
            old_start = int(match.group(1))
            result.append((old_start - 1 if old_start > 0 else 0, []))
        elif result and line[:1] in (" ", "+", "-"):
            result[-1][1].append(line)
        elif result and line == "":
            result[-1][1].append(" ")  # an empty context line whose space an editor removed
        elif line.startswith("\\"):
            continue  # "\ No newline at end of file"
        else:
            raise ValueError(f"unexpected line in a hunk: {line!r}")
    if not result:
        raise ValueError("the diff has no hunk")
    return result


def apply(patch_lines: list[str], reference: list[str], where: str) -> list[str]:
    output: list[str] = []
    position = 0  # next reference line not yet copied
    for number, (start, body) in enumerate(hunks(patch_lines), 1):
        if start < position:
            raise ValueError(f"hunk {number} starts at line {start + 1}, inside the hunk before it")
        output.extend(reference[position:start])
        position = start
        for line in body:
            tag, text = line[0], line[1:]
            if tag == "+":
                output.append(text)
                continue
            found = reference[position] if position < len(reference) else None
            if found != text:
                shown = "the end of the file" if found is None else repr(found)
                raise ValueError(f"hunk {number} does not apply to {where}: line {position + 1} is {shown}, "
                                 f"the patch expects {text!r}")
            if tag == " ":
                output.append(text)
            position += 1
    output.extend(reference[position:])
    return output


def apply_one(patch: Path, reference: Path, target: Path) -> str | None:
    """Writes `target`, `patch` applied to `reference`; the reason when it does not apply."""
    try:
        result = apply(patch.read_text().splitlines(), reference.read_text().splitlines(), str(reference))
    except (OSError, ValueError) as error:
        return (f"{patch}: {error}. The file it applies to changed since the patch was made: make it again "
                f"(tests/planted/README.md)")
    text = "\n".join(result) + "\n"
    if not target.exists() or target.read_text() != text:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return None


def main(argv: list[str]) -> int:
    if len(argv) < 4 or (len(argv) - 1) % 3:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    paths = [Path(a) for a in argv[1:]]
    failures = [why for i in range(0, len(paths), 3) if (why := apply_one(*paths[i:i + 3]))]
    for why in failures:
        print(why, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
