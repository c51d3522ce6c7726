"""A lesson's speed checks, as its manifest declares them, against what its grader registers.

    python3 tools/check_manifest_checks.py lessons/NN_name/lesson.json <grader>

Runs `<grader> --list-checks` and compares each row (back end, name, direction, threshold, unit,
what) with the manifest's speed_checks.checks. Exit 0 when they agree, 1 naming each difference.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROW = re.compile(r"^(gpu|sim)\s+(\S+)\s+(>=|<=) (-?[0-9.]+)(\S*)\s+(.*)$")


def listed_checks(grader: str) -> set[tuple]:
    result = subprocess.run([grader, "--list-checks"], capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise SystemExit(f"{grader} --list-checks failed (exit code {result.returncode}): {result.stderr.strip()}")
    rows = set()
    for line in result.stdout.splitlines():
        if match := ROW.match(line.strip()):
            back_end, name, direction, threshold, unit, what = match.groups()
            rows.add((back_end, name, direction, f"{float(threshold):.2f}", unit, what.strip()))
    return rows


def declared_checks(manifest: Path) -> set[tuple]:
    checks = json.loads(manifest.read_text())["speed_checks"]["checks"]
    return {(c["back_end"], c["name"], c["passes_when"], f"{float(c['threshold']):.2f}", c["unit"], c["what"])
            for c in checks}


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    manifest, grader = Path(argv[1]), argv[2]
    declared, listed = declared_checks(manifest), listed_checks(grader)
    for row in sorted(declared - listed):
        print(f"{manifest}: declares {' '.join(row[:5])} ({row[5]}), which the grader does not register")
    for row in sorted(listed - declared):
        print(f"{manifest}: lacks {' '.join(row[:5])} ({row[5]}), which the grader registers")
    if declared != listed:
        return 1
    print(f"{manifest}: the grader registers the {len(listed)} speed checks the manifest declares")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
