#!/usr/bin/env python3
"""Grades one gaming attempt exactly as ./course grade does (the driver's run_grader: the verdict
comes from the grader's results channel alone) and checks that it is not a pass.

    judge.py GRADER --modules=DIR[:DIR] --expect REGEX

Exit 0 when the verdict is not "pass" and "<verdict>: <reason>" matches REGEX; 77 (CTest's skip)
when the grader could not grade here (a GPU build without a GPU); 1 otherwise, with what the
driver saw.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "driver"))
from support import load_driver  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grader", type=Path)
    parser.add_argument("--modules", required=True)
    parser.add_argument("--expect", required=True, help="regex on '<verdict>: <reason>'")
    args = parser.parse_args()
    driver = load_driver()
    with tempfile.TemporaryDirectory() as folder:
        outcome = driver.verdict.run_grader(args.grader, Path(folder) / "results.json", modules=args.modules, seed=1,
                                    timeout=600)
    seen = f"{outcome.verdict}: {outcome.reason}"
    print(f"verdict {seen}")
    if outcome.verdict == "skipped":
        return 77
    if outcome.verdict == "pass":
        print("FAILED: a gaming attempt passed\n--- grader output ---\n" + outcome.output)
        return 1
    if not re.search(args.expect, seen, re.DOTALL):
        print(f"FAILED: expected a verdict matching {args.expect!r}\n--- grader output ---\n" + outcome.output)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
