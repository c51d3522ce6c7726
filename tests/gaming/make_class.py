#!/usr/bin/env python3
"""Turns the gaming attempts into a class for ./course grade --submissions: one student per
attempt, named <lesson number>_<attempt>, whose folder holds the attempt under the name of the
student file it replaces (a .patch applied to the reference or the starter, as CMake applies it)
and the reference's other files of that lesson (so that only the attempt can make the lesson
fail). Prints each student's name and the verdict it must not get beyond: every one must be
reported as fail, error or compile error, never pass.

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
sys.path.insert(0, str(ROOT / "cmake"))
from apply_patch import apply  # noqa: E402


def field(text: str, key: str) -> str | None:
    match = re.search(rf"^(?:// )?{key}:? ?(.*)$", text, re.MULTILINE)
    return match[1] if match else None


def attempt_source(attempt: Path, lesson: str) -> tuple[str, str]:
    """The student file an attempt replaces, and the attempt's text as a student would submit it."""
    text = attempt.read_text()
    if attempt.suffix != ".patch":
        return field(text, "replaces") or "", text.replace("@COURSE_ROOT@", str(ROOT))
    replaces = re.search(r"^\+\+\+ b/(\S+)", text, re.MULTILINE)[1]
    base = "exercises" if field(text, "applies to") == "starter" else "solutions"
    original = (ROOT / base / lesson / replaces).read_text().splitlines(keepends=True)
    return replaces, "".join(apply(text.splitlines(keepends=True), original, str(attempt)))


def make_class(folder: Path, each_kind_once: bool = False) -> dict[str, str]:
    """Writes the class into `folder`; returns each student's expected-verdict regex. With
    `each_kind_once`, an attempt (by its file's name) only in the first lesson that has it."""
    expected = {}
    seen = set()
    for attempt in sorted(HERE.glob("[0-9][0-9]_*/*.*")):
        if attempt.suffix not in (".cu", ".cpp", ".patch") or (each_kind_once and attempt.stem in seen):
            continue
        seen.add(attempt.stem)
        lesson = attempt.parent.name
        replaces, text = attempt_source(attempt, lesson)
        if not replaces:
            continue
        student = folder / f"{lesson[:2]}_{attempt.stem}" / lesson
        student.mkdir(parents=True)
        for reference in (ROOT / "solutions" / lesson).iterdir():
            if reference.is_file() and reference.name != replaces:
                shutil.copyfile(reference, student / reference.name)
        (student / replaces).write_text(text)
        expected[student.parent.name] = field(attempt.read_text(), "expect") or ""
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
