"""./course dev: for the course's authors. check: every lesson has all its pieces, and the places
that list lessons agree. new NN_name: a lesson started from the template.

A lesson is lessons/NN_name/ (README.md, hints.md, grader.cpp, demo.cpp), its exercise and reference
(exercises/ and solutions/, the same files, the same extern "C" names), its planted kernels
(tests/planted/NN_name/, each saying what it plants and what must reject it), one
course_add_lesson() in lessons/CMakeLists.txt naming its student files, a row of the README's
lesson table, and measured figures that name the GPU and the command that reproduces them.
"""

from __future__ import annotations

import re
from pathlib import Path

from . import common, lessons

LESSON_FILES = ("README.md", "hints.md", "grader.cpp", "demo.cpp")
MIN_PLANTED = 3
STUDENT_SUFFIXES = (".cu", ".cpp", ".cuh", ".hpp")
# What a lesson's README says its figures were measured on, and a line that measures them again.
GPU_NAME = re.compile(r"\bH100\b")
REPRODUCING_COMMAND = re.compile(r"build/gpu/|tools/calibrate\.sh|\./course (run|profile)|\.sh build/gpu")
# extern "C" kernels and __constant__ launch choices: the names the lesson's host code looks up.
EXTERN_NAME = re.compile(r'extern\s+"C"[^;{=(]*?\b(\w+)\s*(?:\(|=|;)')


def student_files(folder: Path) -> set[str]:
    if not folder.is_dir():
        return set()
    return {p.name for p in folder.iterdir() if p.is_file() and p.suffix in STUDENT_SUFFIXES}


def extern_names(path: Path) -> set[str]:
    text = re.sub(r"__launch_bounds__\s*\([^)]*\)", "", path.read_text(errors="replace"))
    return set(EXTERN_NAME.findall(text))


def header_lines(path: Path) -> str:
    """The header of a planted kernel: the lines before a patch's diff, or a file's opening comment."""
    text = path.read_text(errors="replace")
    return text.split("\n--- a/", 1)[0] if path.suffix == ".patch" else text


def registered_lessons() -> dict[str, str]:
    """lessons/CMakeLists.txt: each course_add_lesson()'s folder and its call's text."""
    text = (common.ROOT / "lessons" / "CMakeLists.txt").read_text()
    return {m[1]: m[2] for m in re.finditer(r"course_add_lesson\((\d\d_\w+)(.*?)\)\s*$", text, re.S | re.M)}


def check_lesson(lesson: lessons.Lesson, registered: dict[str, str], readme: str) -> list[str]:
    problems = []
    folder = common.ROOT / "lessons" / lesson.folder
    for name in LESSON_FILES:
        if not (folder / name).is_file():
            problems.append(f"lessons/{lesson.folder}/{name} is missing")
    if (folder / "hints.md").is_file() and not lessons.read_hints(lesson):
        problems.append(f"lessons/{lesson.folder}/hints.md has no '## Hint 1' section")

    exercise = common.ROOT / "exercises" / lesson.folder
    solution = common.ROOT / "solutions" / lesson.folder
    starters = student_files(exercise)
    if not starters:
        problems.append(f"exercises/{lesson.folder}/ has no student files")
    call = registered.get(lesson.folder)
    if call is None:
        problems.append(f"lessons/CMakeLists.txt has no course_add_lesson({lesson.folder} ...)")
    else:
        listed = re.search(r"STUDENT_SOURCES[ \t]*([^\n]*)", call)
        named = set(listed[1].split()) if listed else set()
        if named != {f for f in starters if f.endswith((".cu", ".cpp"))}:
            problems.append(f"course_add_lesson({lesson.folder}) lists STUDENT_SOURCES {sorted(named)}, but "
                            f"exercises/{lesson.folder}/ holds {sorted(starters)}")
    if (common.ROOT / "solutions").is_dir():  # a student's copy has no references
        references = student_files(solution)
        if references != starters:
            problems.append(f"solutions/{lesson.folder}/ holds {sorted(references)}, exercises/{lesson.folder}/ "
                            f"holds {sorted(starters)}: the same files, please")
        for name in sorted(starters & references):
            mine, theirs = extern_names(exercise / name), extern_names(solution / name)
            if mine != theirs:
                problems.append(f"{lesson.folder}/{name}: the starter declares extern \"C\" {sorted(mine)}, the "
                                f"reference {sorted(theirs)}")
        problems += check_planted(lesson)

    row = re.search(rf"^\| {lesson.number} \| \[[^\]]+\]\(lessons/{lesson.folder}/README\.md\)", readme, re.M)
    if not row:
        problems.append(f"README.md's lesson table has no row '| {lesson.number} | [...](lessons/{lesson.folder}/"
                        f"README.md)'")
    text = (folder / "README.md").read_text(errors="replace") if (folder / "README.md").is_file() else ""
    if text and not GPU_NAME.search(text):
        problems.append(f"lessons/{lesson.folder}/README.md names no GPU its figures were measured on (H100)")
    if text and not REPRODUCING_COMMAND.search(text):
        problems.append(f"lessons/{lesson.folder}/README.md has no command that measures its figures again "
                        f"(build/gpu/..., tools/calibrate.sh, ./course run)")
    return problems


def check_planted(lesson: lessons.Lesson) -> list[str]:
    folder = common.ROOT / "tests" / "planted" / lesson.folder
    planted = sorted(p for p in folder.glob("*") if p.suffix in (".patch", ".cu", ".cpp")) if folder.is_dir() else []
    problems = []
    if len(planted) < MIN_PLANTED:
        problems.append(f"tests/planted/{lesson.folder}/ holds {len(planted)} planted kernels; a lesson needs at "
                        f"least {MIN_PLANTED}")
    for path in planted:
        header = header_lines(path)
        where = f"tests/planted/{lesson.folder}/{path.name}"
        if not re.search(r"^(// )?plants: \S", header, re.M):
            problems.append(f"{where} has no 'plants:' line (the mistake it plants)")
        if not re.search(r"^(// )?(expect|passes): \S", header, re.M):
            problems.append(f"{where} has no 'expect:' line (the message that must reject it)")
    return problems


def check() -> int:
    """Prints each problem on a line of its own; exit code 1 when there is any."""
    all_lessons = lessons.all_lessons()
    registered = registered_lessons()
    readme = (common.ROOT / "README.md").read_text()
    problems = []
    for folder in sorted(set(registered) - {lesson.folder for lesson in all_lessons}):
        problems.append(f"lessons/CMakeLists.txt adds lesson {folder}, which has no lessons/{folder}/")
    for lesson in all_lessons:
        problems += [f"lesson {lesson.number}: {p}" for p in check_lesson(lesson, registered, readme)]
    for problem in problems:
        print(f"course: dev check: {problem}")
    if problems:
        print(f"course: dev check: {len(problems)} problem(s) in {len(all_lessons)} lessons")
        return 1
    print(f"course: dev check: {len(all_lessons)} lessons, each with its text, hints, grader, demo, exercise and "
          f"reference, planted kernels, build entry, README row and measured figures")
    return 0


# ./course dev new NN_name: a lesson started from templates/lesson/ (99_add_one, which the course's
# tests build in a copy of the course): its folders, its planted kernel, its course_add_lesson()
# entry and its row in the README's table, with the number and the folder name put in.
TEMPLATE = "99_add_one"
LESSON_NAME = re.compile(r"^(\d\d)_[a-z][a-z0-9_]*$")
TEMPLATE_PARTS = ("lessons", "exercises", "solutions", "tests/planted")


def instantiate(text: str, folder: str) -> str:
    number = folder[:2]
    text = text.replace(TEMPLATE, folder).replace("lesson99", f"lesson{number}")
    return re.sub(r"(?<![\w.])99(?![\w.])", number, text)


def new_lesson(folder: str) -> int:
    if not LESSON_NAME.match(folder):
        common.fail(f"'{folder}' is not a lesson folder name: two digits, an underscore and a lower-case name "
                    f"(07_unrolling)", common.BAD_USAGE)
    template = common.ROOT / "templates" / "lesson"
    if not template.is_dir():
        common.fail("templates/lesson/ is missing (a student's copy of the course has no lesson template)")
    taken = [lesson.folder for lesson in lessons.all_lessons() if lesson.number == folder[:2]]
    if taken or (common.ROOT / "lessons" / folder).exists():
        common.fail(f"lesson {folder[:2]} exists already ({(taken or [folder])[0]})", common.BAD_USAGE)
    made = []
    for part in TEMPLATE_PARTS:
        source = template / part / TEMPLATE
        if (common.ROOT / part / folder).exists():
            common.fail(f"{part}/{folder} exists already", common.BAD_USAGE)
        for path in sorted(p for p in source.rglob("*") if p.is_file()):
            target = common.ROOT / part / folder / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(instantiate(path.read_text(), folder))
            made.append(target.relative_to(common.ROOT))
    with open(common.ROOT / "lessons" / "CMakeLists.txt", "a") as cmake_lists:
        cmake_lists.write(instantiate((template / "lessons_line.cmake").read_text(), folder))
    add_readme_row(folder)
    for path in made:
        print(f"course: dev new: {path}")
    print(f"course: dev new: lessons/CMakeLists.txt: course_add_lesson({folder} ...)")
    print(f"course: dev new: README.md: a row for lesson {folder[:2]}")
    print(f"course: dev new: lesson {folder} builds and grades as it is (./course grade {folder[:2]} --sim); "
          f"docs/adding_a_lesson.md says what to make of each file, ./course dev check what is still missing")
    return 0


def add_readme_row(folder: str) -> None:
    """A row in the README's lesson table, after the last lesson's."""
    path = common.ROOT / "README.md"
    lines = path.read_text().splitlines(keepends=True)
    rows = [i for i, line in enumerate(lines) if re.match(r"^\| \d\d \| \[", line)]
    title = folder[3:].replace("_", " ")
    row = (f"| {folder[:2]} | [{title}](lessons/{folder}/README.md) | (what the student writes) "
           "| (what the grader checks) |\n")
    at = rows[-1] + 1 if rows else len(lines)
    path.write_text("".join(lines[:at] + [row] + lines[at:]))
