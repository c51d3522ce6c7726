"""The lessons: lessons/NN_name/ folders, their manifests (lesson.json), their hints, and their
exercises' starter files."""

from __future__ import annotations

import functools
import json
import re
import shutil
from dataclasses import dataclass

from . import common


@dataclass(frozen=True, order=True)
class Lesson:
    folder: str  # e.g. "03_neighbored_reduction"

    @property
    def number(self) -> str:
        return self.folder[:2]

    @property
    def target(self) -> str:
        return f"lesson{self.number}"

    @property
    def title(self) -> str:
        return str(manifest(self).get("title") or self.folder[3:].replace("_", " "))


MANIFEST = "lesson.json"


@functools.cache
def manifest(lesson: Lesson) -> dict:
    """lessons/NN_name/lesson.json (docs/adding_a_lesson.md lists its fields); {} if it is missing
    or unreadable, which ./course dev check reports."""
    try:
        data = json.loads((common.ROOT / "lessons" / lesson.folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def all_lessons() -> list[Lesson]:
    return sorted(Lesson(p.name) for p in (common.ROOT / "lessons").glob("[0-9][0-9]_*") if p.is_dir())


def find_lesson(name: str) -> Lesson:
    """The lesson `name` names ("03", "3" or "03_neighbored_reduction"); a bad name stops the command."""
    for lesson in all_lessons():
        if name in (lesson.number, lesson.folder, lesson.number.lstrip("0")):
            return lesson
    names = ", ".join(lesson.number for lesson in all_lessons())
    common.fail(f"no lesson '{name}'; the lessons are: {names}", common.BAD_USAGE)


# Hints: lessons/NN_name/hints.md, sections "## Hint 1", "## Hint 2", ...
HINT_HEADING = re.compile(r"^##\s+Hint\s+(\d+)\s*$", re.MULTILINE)


def read_hints(lesson: Lesson) -> list[str]:
    path = common.ROOT / "lessons" / lesson.folder / "hints.md"
    if not path.exists():
        return []
    text = path.read_text()
    marks = list(HINT_HEADING.finditer(text))
    hints = []
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        hints.append(text[mark.end():end].strip())
    return hints


def student_sources(lesson: Lesson) -> list[str]:
    """The files a student edits in exercises/NN_name/ (the manifest's build.student_sources)."""
    return [str(name) for name in manifest(lesson).get("build", {}).get("student_sources", [])]


def student_file_problems(lesson: Lesson) -> list[str]:
    """What keeps the student's exercise of `lesson` from being built: a file of the lesson that is
    missing or is not a file. Empty when every file is there."""
    problems = []
    for name in student_sources(lesson):
        path = common.exercises_dir() / lesson.folder / name
        shown = common.shown(path)
        if path.is_dir():
            problems.append(f"not a file: {shown} is a folder; the lesson needs your source file there "
                            f"(./course reset {lesson.number} puts the starter back, keeping the folder)")
        elif not path.is_file():
            problems.append(f"missing file: {shown} (./course reset {lesson.number} puts the starter back)")
    return problems


def require_student_files(lesson: Lesson) -> None:
    """Stops the command, before any build, where a file of the student's exercise is missing or
    not a file."""
    problems = student_file_problems(lesson)
    if problems:
        common.fail("; ".join(problems))


def starter_files(lesson: Lesson) -> dict[str, bytes] | None:
    """The starter of lesson's exercise as shipped: from starters/ in a released copy, else from
    git's HEAD (the same source the course's own tests are built from, cmake/Course.cmake)."""
    pristine = common.ROOT / "starters" / lesson.folder
    if pristine.is_dir():
        return {str(p.relative_to(pristine)): p.read_bytes() for p in sorted(pristine.rglob("*")) if p.is_file()}
    committed = committed_files(f"exercises/{lesson.folder}")
    return dict(committed) if committed else None


@functools.cache
def committed_files(folder: str) -> tuple[tuple[str, bytes], ...]:
    """The files below `folder` in git's HEAD, by name relative to it; none without git or the folder.
    Read once per process: a class's grading lays every lesson's starter under each student's files."""
    if not shutil.which("git"):
        return ()
    listed = common.run(["git", "ls-tree", "-r", "--name-only", "HEAD", "--", folder], capture_output=True, text=True)
    names = [n for n in listed.stdout.splitlines() if n] if listed.returncode == 0 else []
    files = []
    for name in names:
        shown = common.run(["git", "show", f"HEAD:./{name}"], capture_output=True)
        if shown.returncode != 0:
            return ()
        files.append((name.removeprefix(folder + "/"), shown.stdout))
    return tuple(files)
