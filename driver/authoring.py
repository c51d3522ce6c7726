"""./course dev: for the course's authors. check: every lesson has all its pieces, and the places
that list lessons agree with the lessons' manifests. readme: the README's lesson table written
from the manifests. new NN_name: a lesson started from the template.

A lesson is lessons/NN_name/ (lesson.json, README.md, hints.md, grader.cpp, demo.cpp), its exercise
and reference (exercises/ and solutions/, the same files, the same extern "C" names), its planted
kernels (tests/planted/NN_name/, each saying what it plants and what must reject it), and measured
figures that name the GPU and the command that reproduces them. Its manifest, lesson.json, is the
one list of what it is made of: CMake registers the lesson from it (cmake/CourseManifest.cmake),
the README's table and the driver read it, and the calibration tools take its arguments.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from . import common, lessons
from .command import THE_COURSE, Command, CommandParser, Line

LESSON_FILES = ("lesson.json", "README.md", "hints.md", "grader.cpp", "demo.cpp")
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


def check_lesson(lesson: lessons.Lesson) -> list[str]:
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
    problems += check_manifest(lesson, starters)
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

    text = (folder / "README.md").read_text(errors="replace") if (folder / "README.md").is_file() else ""
    if text and not GPU_NAME.search(text):
        problems.append(f"lessons/{lesson.folder}/README.md names no GPU its figures were measured on (H100)")
    if text and not REPRODUCING_COMMAND.search(text):
        problems.append(f"lessons/{lesson.folder}/README.md has no command that measures its figures again "
                        f"(build/gpu/..., tools/calibrate.sh, ./course run)")
    return problems


REQUIRED = (("title",), ("readme_row", "you_write"), ("readme_row", "the_grader_checks"),
            ("build", "lesson_sources"), ("build", "student_sources"), ("build", "starter_fails_with"),
            ("kernels",), ("hints",), ("speed_checks", "calibrated_on"), ("speed_checks", "checks"), ("demo",))
CHECK_FIELDS = ("back_end", "name", "passes_when", "threshold", "unit", "what")


def field(data: dict, path: tuple[str, ...]):
    for key in path:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def check_manifest(lesson: lessons.Lesson, starters: set[str]) -> list[str]:
    """lesson.json: complete, and in step with the files it names."""
    data = lessons.manifest(lesson)
    where = f"lessons/{lesson.folder}/{lessons.MANIFEST}"
    if not data:
        return [f"{where} is missing or is not a JSON object"]
    # A lesson whose student files are host code (06) has no kernels: the list may be empty.
    problems = [f"{where} has no {'.'.join(path)}" for path in REQUIRED
                if field(data, path) is None or (field(data, path) in ("", []) and path != ("kernels",))]
    folder = common.ROOT / "lessons" / lesson.folder
    for source in field(data, ("build", "lesson_sources")) or []:
        if not (folder / source).is_file():
            problems.append(f"{where}: build.lesson_sources names {source}, which lessons/{lesson.folder}/ lacks")
    named = set(field(data, ("build", "student_sources")) or [])
    if named and named != {f for f in starters if f.endswith((".cu", ".cpp"))}:
        problems.append(f"{where} lists build.student_sources {sorted(named)}, but exercises/{lesson.folder}/ "
                        f"holds {sorted(starters)}")
    exercise = common.ROOT / "exercises" / lesson.folder
    declared = set().union(set(), *(extern_names(exercise / name) for name in starters if (exercise / name).is_file()))
    kernels = set(field(data, ("kernels",)) or [])
    if kernels and kernels != declared:
        problems.append(f"{where} lists kernels {sorted(kernels)}, but the starter declares extern \"C\" "
                        f"{sorted(declared)}")
    hints = field(data, ("hints",))
    if hints and not (folder / hints).is_file():
        problems.append(f"{where}: hints names {hints}, which lessons/{lesson.folder}/ lacks")
    for number, check in enumerate(field(data, ("speed_checks", "checks")) or [], 1):
        missing = [name for name in CHECK_FIELDS if not isinstance(check, dict) or name not in check]
        if missing:
            problems.append(f"{where}: speed check {number} has no {', '.join(missing)}")
    summary = field(data, ("readme_row", "the_grader_checks"))
    if isinstance(summary, str):
        problems += [f"{where}: readme_row.the_grader_checks: {problem}" for problem in summary_problems(summary, data)]
    demo = field(data, ("demo",)) or {}
    script = demo.get("calibration_script") if isinstance(demo, dict) else None
    if script and not (folder / script).is_file():
        problems.append(f"{where}: demo.calibration_script names {script}, which lessons/{lesson.folder}/ lacks")
    elif isinstance(demo, dict) and not script and "calibration_arguments" not in demo:
        problems.append(f"{where}: demo has neither calibration_arguments nor calibration_script")
    return problems


# In readme_row.the_grader_checks, a threshold is named, never written: {gpu:NAME} (or {sim:NAME})
# stands for the speed check's threshold and unit, so the manifest's speed_checks are its one source.
THRESHOLD_FIELD = re.compile(r"\{(gpu|sim):([^{}]+)\}")
WRITTEN_THRESHOLD = re.compile(r"(?<![\w.^])\d+(\.\d+)?(x|%)(?!\w)")


def speed_check(data: dict, back_end: str, name: str) -> dict | None:
    checks = field(data, ("speed_checks", "checks")) or []
    return next((c for c in checks if isinstance(c, dict) and c.get("back_end") == back_end and c.get("name") == name),
                None)


def fill_thresholds(text: str, data: dict) -> str:
    """`text` with each {gpu:NAME} replaced by that check's threshold and unit ("1.4x", "75%")."""
    def threshold(match: re.Match) -> str:
        check = speed_check(data, match[1], match[2])
        if check is None:
            return match[0]
        return f"{float(check['threshold']):g}{check.get('unit', '')}"
    return THRESHOLD_FIELD.sub(threshold, text)


def summary_problems(summary: str, data: dict) -> list[str]:
    """A {gpu:NAME} that names no speed check, and a threshold written as a figure."""
    problems = [f"{{{m[1]}:{m[2]}}} names no {m[1]} speed check of the manifest"
                for m in THRESHOLD_FIELD.finditer(summary) if speed_check(data, m[1], m[2]) is None]
    problems += [f"'{m[0]}' is a threshold written out: name its speed check instead, {{gpu:NAME}}"
                 for m in WRITTEN_THRESHOLD.finditer(THRESHOLD_FIELD.sub("", summary))]
    return problems


# The README's lesson table: written from the manifests by ./course dev readme, checked by dev check.
TABLE_HEADER = ("| # | lesson | you write | the grader checks |\n"
                "| --- | --- | --- | --- |\n")


def lesson_table(all_lessons: list[lessons.Lesson]) -> str:
    rows = []
    for lesson in all_lessons:
        data = lessons.manifest(lesson)
        row = data.get("readme_row") or {}
        rows.append(f"| {lesson.number} | [{lesson.title}](lessons/{lesson.folder}/README.md) | "
                    f"{row.get('you_write', '')} | {fill_thresholds(row.get('the_grader_checks', ''), data)} |\n")
    return TABLE_HEADER + "".join(rows)


def readme_table_span(text: str) -> tuple[int, int] | None:
    """Where the README's lesson table is: from its header line to the last row."""
    start = text.find(TABLE_HEADER.splitlines()[0] + "\n")
    if start < 0:
        return None
    end = start
    for line in text[start:].splitlines(keepends=True):
        if not line.startswith("|"):
            break
        end += len(line)
    return start, end


def write_readme_table() -> int:
    """./course dev readme: the README's lesson table, written from the manifests."""
    path = common.ROOT / "README.md"
    text = path.read_text()
    span = readme_table_span(text)
    if span is None:
        common.fail(f"README.md has no lesson table (a line '{TABLE_HEADER.splitlines()[0]}')")
    table = lesson_table(lessons.all_lessons())
    if text[span[0]:span[1]] != table:
        path.write_text(text[:span[0]] + table + text[span[1]:])
        print("course: dev readme: README.md's lesson table written from the lessons' manifests")
    else:
        print("course: dev readme: README.md's lesson table is in step with the lessons' manifests")
    return 0


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
    readme = (common.ROOT / "README.md").read_text()
    problems = []
    for lesson in all_lessons:
        problems += [f"lesson {lesson.number}: {p}" for p in check_lesson(lesson)]
    span = readme_table_span(readme)
    if span is None or readme[span[0]:span[1]] != lesson_table(all_lessons):
        problems.append("README.md's lesson table differs from the lessons' manifests (./course dev readme "
                        "writes it)")
    for problem in problems:
        print(f"course: dev check: {problem}")
    if problems:
        print(f"course: dev check: {len(problems)} problem(s) in {len(all_lessons)} lessons")
        return 1
    print(f"course: dev check: {len(all_lessons)} lessons, each with its manifest, text, hints, grader, demo, "
          f"exercise and reference, planted kernels and measured figures; the README's table in step")
    return 0


# ./course dev new NN_name: a lesson started from templates/lesson/ (99_add_one, which the course's
# tests build in a copy of the course): its folders, its manifest and its planted kernel, with the
# number and the folder name put in, and the README's table written again.
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
            text = instantiate(path.read_text(), folder)
            if path.name == lessons.MANIFEST:
                data = json.loads(text)
                data["title"] = folder[3:].replace("_", " ")
                text = json.dumps(data, indent=2) + "\n"
            target.write_text(text)
            made.append(target.relative_to(common.ROOT))
    lessons.manifest.cache_clear()
    write_readme_table()
    for path in made:
        print(f"course: dev new: {path}")
    print(f"course: dev new: lesson {folder} builds and grades as it is (./course grade {folder[:2]} --sim); "
          f"docs/adding_a_lesson.md says what to make of each file, ./course dev check what is still missing")
    return 0


# ---------------------------------------------------------------------------------------------
# ./course dev


def dev_arguments(parser: CommandParser) -> None:
    parser.add_argument("action", choices=["check", "readme", "new"], metavar="check|readme|new", help="what to do")
    parser.add_argument("lesson", metavar="NN_name", nargs="?", help="with new: the new lesson's folder name")


def dev_command(parser: CommandParser, args: list[str]) -> int:
    options = parser.parse_args(args)
    if options.action == "new":
        if not options.lesson:
            parser.error("dev new needs the new lesson's folder name: ./course dev new NN_name")
        return new_lesson(options.lesson)
    if options.lesson:
        parser.error(f"dev {options.action} takes no lesson")
    return check() if options.action == "check" else write_readme_table()


DEV = Command(
    name="dev",
    usage="usage: ./course dev check | ./course dev readme | ./course dev new NN_name",
    description="For the course's authors. check: every lesson has its manifest (lesson.json, complete and in "
                "step with its files), text, hints, grader, demo, exercise and reference (the same files and "
                "names), planted kernels with their expectations, and figures that name the GPU and a command; the "
                "README's table agrees with the manifests. readme: that table written from the manifests. new "
                "NN_name: a lesson started from templates/lesson/, which builds and grades as it is.",
    arguments=dev_arguments,
    run=dev_command,
    overview=(Line(THE_COURSE, "./course dev check", "every lesson has all its pieces, its manifest lesson.json is "
                                                     "complete, the README's table agrees"),
              Line(THE_COURSE, "./course dev readme", "write the README's lesson table from the manifests"),
              Line(THE_COURSE, "./course dev new NN_name", "start a lesson from templates/lesson/")),
)
