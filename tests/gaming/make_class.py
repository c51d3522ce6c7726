#!/usr/bin/env python3
"""Turns the gaming attempts into a class for ./course grade --submissions: one student per
attempt, named <lesson number>_<attempt>, whose folder holds the attempt under the name of the
student file it replaces and the reference's other files of that lesson (so that only the
attempt can make the lesson fail). Prints each student's name and the verdict it must not get
beyond: every one must be reported as fail, error or compile error, never pass.

    tests/gaming/make_class.py CLASS_DIR        (then: ./course grade --submissions CLASS_DIR)

@COURSE_ROOT@ in an attempt becomes the course's folder, as in the tests.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def field(text: str, key: str) -> str | None:
    match = re.search(rf"^// {key}:? ?(.*)$", text, re.MULTILINE)
    return match[1] if match else None


def make_class(folder: Path) -> dict[str, str]:
    """Writes the class into `folder`; returns each student's expected-verdict regex."""
    expected = {}
    for attempt in sorted(HERE.glob("[0-9][0-9]_*/*.c*")):
        lesson = attempt.parent.name
        text = attempt.read_text().replace("@COURSE_ROOT@", str(ROOT))
        replaces = field(text, "replaces")
        if replaces is None:
            continue
        student = folder / f"{lesson[:2]}_{attempt.stem}" / lesson
        student.mkdir(parents=True)
        for reference in (ROOT / "solutions" / lesson).iterdir():
            if reference.is_file() and reference.name != replaces:
                shutil.copyfile(reference, student / reference.name)
        (student / replaces).write_text(text)
        expected[student.parent.name] = field(text, "expect") or ""
    return expected


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-3].strip(), file=sys.stderr)
        return 2
    folder = Path(sys.argv[1])
    if folder.exists() and any(folder.iterdir()):
        print(f"{folder} is not empty", file=sys.stderr)
        return 2
    for student, expect in make_class(folder).items():
        print(f"{student}: {expect}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
