"""What every part of the driver uses: the course's folder, the exit codes, and how it speaks.

Other modules refer to these as `common.ROOT`, `common.say`, ... (never imported by name), so that
the driver's tests can point the whole driver at a made-up course by setting `common.ROOT`.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

# The course: the folder that holds ./course and this package.
ROOT = Path(__file__).resolve().parent.parent
BAD_USAGE = 2  # a bad command line or a bad value: one line, exit code 2
SKIPPED = 77  # CTest's "skipped": nothing could be graded here (no GPU)


def exercises_dir() -> Path:
    """The student's working copy of the exercises: exercises/, or the folder COURSE_EXERCISES_DIR
    names (the course's tests edit a copy there, never the student's files)."""
    chosen = os.environ.get("COURSE_EXERCISES_DIR")
    return Path(chosen).resolve() if chosen else ROOT / "exercises"


def say(message: str) -> None:
    print(f"course: {message}", flush=True)


def fail(message: str, code: int = 1) -> NoReturn:
    print(f"course: {message}", file=sys.stderr, flush=True)
    sys.exit(code)


def shown(path: Path) -> Path:
    """A path as messages show it: relative to the course where it lies inside it."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    """Runs a program in the course's folder."""
    return subprocess.run(command, cwd=ROOT, **kwargs)


def now_text() -> str:
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


@contextlib.contextmanager
def environment_set(**values: str | None) -> Iterator[None]:
    """Environment variables set (or, for None, removed) for the duration, then restored."""
    saved = {name: os.environ.get(name) for name in values}
    try:
        for name, value in values.items():
            os.environ.pop(name, None)
            if value is not None:
                os.environ[name] = value
        yield
    finally:
        for name, value in saved.items():
            os.environ.pop(name, None)
            if value is not None:
                os.environ[name] = value
