"""A thresholds file (--thresholds FILE or COURSE_THRESHOLDS): speed thresholds per lesson, back end
and check, read and checked against the graders' own lists before anything is graded, and which of
its entries applied."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from . import building, common, lessons, verdict


def read_thresholds(value: str | None) -> Path | None:
    """--thresholds FILE (or COURSE_THRESHOLDS): read here, so that a typo stops at once; its
    checks are compared with the graders' own lists by check_thresholds before anything is graded."""
    value = value or os.environ.get("COURSE_THRESHOLDS") or None
    if not value:
        return None
    path = Path(value).expanduser().resolve()
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError):
        common.fail(f"cannot read the thresholds file {value}", common.BAD_USAGE)
    except ValueError as error:
        common.fail(f"the thresholds file {value} is not valid JSON: {error}", common.BAD_USAGE)
    if not isinstance(data, dict):
        common.fail(f"the thresholds file {value} must hold an object: {{\"03\": {{\"gpu\": {{\"check\": 1.2}}}}}}",
                    common.BAD_USAGE)
    thresholds_lessons(path, data)
    return path


LESSON_KEY = re.compile(r"^(?:lesson)?(\d\d)(?:_\w*)?$")


def thresholds_lessons(path: Path, data: dict | None = None) -> list[lessons.Lesson]:
    """The lessons a thresholds file names (keys starting with '_' are comments); a key that names
    no lesson of the course stops here."""
    if data is None:
        data = json.loads(path.read_text())
    named = []
    numbers = {lesson.number: lesson for lesson in lessons.all_lessons()}
    for key in data:
        if key.startswith("_"):
            continue
        match = LESSON_KEY.match(key)
        if not match or match[1] not in numbers:
            common.fail(f"{path}: '{key}' does not name a lesson of the course ({', '.join(numbers)})",
                        common.BAD_USAGE)
        named.append(numbers[match[1]])
    return sorted(set(named))


def check_thresholds(path: Path | None, *, built: bool = False) -> None:
    """Every lesson the thresholds file names: its grader lists its checks (no device, no kernel
    run: --list-checks) and refuses a check it does not have on that back end, or a bad value.
    Stops with exit code 2 and the graders' reasons, before anything is graded."""
    if path is None:
        return
    named = thresholds_lessons(path)
    if not named:
        return
    graders = [f"{lesson.target}_grader" for lesson in named]
    if not built:
        ok, log = building.build_quietly(graders)
        if not ok:
            print(log[-3000:], end="")
            common.fail("building the graders failed (see above)")
    problems = []
    env = {k: v for k, v in os.environ.items() if not k.startswith("COURSE_")}
    for lesson in named:
        grader = building.build_dir() / "lessons" / f"{lesson.target}_grader"
        result = subprocess.run([str(grader), "--list-checks", f"--thresholds={path}"], env=env, capture_output=True,
                                text=True, errors="replace")
        if result.returncode != 0:
            lines = [line.removeprefix(f"{grader}: ") for line in result.stderr.splitlines() if line.strip()]
            problems += lines or [f"{grader.name} --list-checks exited with code {result.returncode}"]
    for problem in problems[:-1]:
        print(f"course: {problem}", file=sys.stderr, flush=True)
    if problems:
        common.fail(problems[-1], common.BAD_USAGE)


def describe_overrides(outcome: verdict.Outcome, path: Path | None) -> str:
    """Which of the thresholds file's entries for a lesson replaced a grader's threshold."""
    if not outcome.overrides:
        return ""
    parts = []
    for entry in outcome.overrides:
        default = entry.get("default_threshold")
        text = f"{entry.get('check')} ({entry.get('backend')}) {entry.get('threshold')}"
        text += f" instead of {default}" if default is not None else ""
        if entry.get("applied"):
            text += ": applied"
        elif outcome.backend and entry.get("backend") != outcome.backend:
            text += f": not applied (graded on the {'simulator' if outcome.backend == 'sim' else 'GPU'})"
        else:
            text += ": not applied (the check did not run)"
        parts.append(text)
    return f"thresholds from {path.name if path else 'the thresholds file'}: " + "; ".join(parts)
