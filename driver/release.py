"""./course release DIR [--through NN]: the students' copy of the course, without the solutions and
whatever gives them away, with pristine starters for ./course reset and the reference kernels later
lessons measure against, compiled to PTX. --through NN ships lessons 01..NN only, so that a lesson
is released once the lessons whose answers it carries are due."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

from . import common, environment, lessons
from .command import INSTRUCTORS, Command, CommandParser, Line

# Never shipped to students: the reference kernels, the planted wrong kernels and gaming attempts
# (most are one bug away from a solution), the lesson template of ./course dev new (it has a
# reference) and the calibration script that runs the solutions.
RELEASE_EXCLUDE = ("solutions/", "tests/planted/", "tests/gaming/", "templates/",
                   "tools/calibrate.sh")


def course_files() -> list[str]:
    """The course's files (the driver's package driver/ among them): git's tracked and
    untracked-but-not-ignored files, else a walk."""
    if shutil.which("git") and (common.ROOT / ".git").exists():
        listed = common.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True)
        if listed.returncode == 0:
            names = sorted({n for n in listed.stdout.decode().split("\0") if n})
            return [n for n in names if (common.ROOT / n).is_file()]
    skip = {".git", "build", ".course", ".deps", "__pycache__", ".pytest_cache", ".wt"}
    return sorted(str(p.relative_to(common.ROOT)) for p in common.ROOT.rglob("*")
                  if p.is_file() and not skip.intersection(p.relative_to(common.ROOT).parts))


# The README's walkthrough and the course's own tests use lesson 03: a release holds at least 01..03.
FIRST_RELEASABLE = "03"


def release(target: Path, *, force: bool, check: bool, check_target: str | None,
            through: lessons.Lesson | None = None) -> int:
    """Copies the course's files for students into `target` (a new or empty folder, or with
    `force` an earlier release), lessons up to `through` only when given; with `check` or
    `check_target`, configures and builds the copy."""
    root = common.ROOT
    if through is not None and through.number < FIRST_RELEASABLE:
        common.fail(f"release at least through {FIRST_RELEASABLE}: the README's walkthrough and the course's own "
                    f"tests use lesson {FIRST_RELEASABLE}", common.BAD_USAGE)
    shipped_lessons = [lesson for lesson in lessons.all_lessons()
                       if through is None or lesson.number <= through.number]
    held_back = {lesson.folder for lesson in lessons.all_lessons()} - {lesson.folder for lesson in shipped_lessons}
    if target == root or target in root.parents:
        common.fail("release into a new folder, not the course itself or a folder that holds it", common.BAD_USAGE)
    if target.exists() and not target.is_dir():
        common.fail(f"{target} exists and is not a folder; release into a new or empty folder", common.BAD_USAGE)
    if target.exists() and any(target.iterdir()):
        if not force:
            common.fail(f"{target} is not empty (--force replaces an earlier release)", common.BAD_USAGE)
        if not ((target / "course").is_file() and (target / "lessons").is_dir()):
            common.fail(f"{target} does not look like a copy of the course; not replacing it", common.BAD_USAGE)
        shutil.rmtree(target)
    files = [n for n in course_files() if not n.startswith(RELEASE_EXCLUDE) and not is_held_back(n, held_back)]
    leaks = answers_in(files)
    if leaks:
        common.fail("these files would show students the answer of a lesson they have not finished:\n  "
                    + "\n  ".join(leaks))
    solutions = [p for p in (root / "solutions").rglob("*") if p.is_file()] if (root / "solutions").is_dir() else []
    solution_digests = {hashlib.sha256(p.read_bytes()).hexdigest(): str(p.relative_to(root)) for p in solutions}
    for name in files:
        source = root / name
        digest = hashlib.sha256(source.read_bytes()).hexdigest()
        if digest in solution_digests:
            common.fail(f"{name} is a copy of {solution_digests[digest]}: it would reveal a solution; remove it first")
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, destination)
        if name == "README.md":
            destination.write_text(for_students(source.read_text(), held_back))
    # Pristine starters for ./course reset where the copy is not a git repository.
    copied = 0
    for lesson in shipped_lessons:
        starter = lessons.starter_files(lesson)
        if starter is None:
            # Neither git nor starters/: the exercises as they stand are the best starters there are.
            folder = root / "exercises" / lesson.folder
            common.say(f"no git history here: releasing exercises/{lesson.folder} as it stands")
            starter = {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
        for name, content in starter.items():
            path = target / "starters" / lesson.folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
            copied += 1
            (target / "exercises" / lesson.folder / name).parent.mkdir(parents=True, exist_ok=True)
            (target / "exercises" / lesson.folder / name).write_bytes(content)
    answered = ship_references(target, shipped_lessons)
    common.say(f"released lessons {shipped_lessons[0].number}..{shipped_lessons[-1].number}: {len(files)} files to "
               f"{target} (without {', '.join(RELEASE_EXCLUDE)}); {copied} starter files also in starters/ for "
               f"./course reset")
    for folder, users in answered.items():
        measured = f"lesson {users[0]} measures" if len(users) == 1 else f"lessons {', '.join(users)} measure"
        common.say(f"references/{folder}/ holds lesson {folder[:2]}'s answer, compiled ({measured} against it): "
                   f"release this copy once lesson {folder[:2]} is due")
    if check or check_target:
        common.say("checking that the copy configures and builds (cmake --preset ci; cmake --build --preset ci)")
        env = dict(os.environ)
        env.pop("COURSE_BUILD_DIR", None)
        if subprocess.run(["cmake", "--preset", "ci"], cwd=target, env=env).returncode != 0:
            common.fail("the released copy does not configure")
        command = ["cmake", "--build", "--preset", "ci"] + (["--target", check_target] if check_target else [])
        if subprocess.run(command, cwd=target, env=env).returncode != 0:
            common.fail("the released copy does not build")
        common.say("the released copy builds")
    return 0


INSTRUCTORS_ONLY = re.compile(r"^<!-- instructors -->\n.*?^<!-- /instructors -->\n", re.DOTALL | re.MULTILINE)


def for_students(readme: str, held_back: set[str] = frozenset()) -> str:
    """The course's README as a student copy shows it: without the parts marked for instructors
    (grading a class, releases, the reference solutions) and the table rows of lessons held back."""
    numbers = {folder[:2] for folder in held_back}
    rows = [line for line in INSTRUCTORS_ONLY.sub("", readme).splitlines(keepends=True)
            if not (line.startswith("| ") and line[2:4] in numbers and line[4:7] == " | ")]
    return "".join(rows)


def is_held_back(name: str, held_back: set[str]) -> bool:
    """Whether a course file belongs to a lesson this release does not ship (its lesson folder or
    its exercise)."""
    parts = name.split("/")
    return len(parts) > 1 and parts[0] in ("lessons", "exercises") and parts[1] in held_back


# A solution's answer: the lines (whitespace-normalised, long enough not to be boilerplate such as
# "}" or "#include <cstdint>") that its starter does not have. Code that holds half of an answer of
# ANSWER_LINES lines or more gives it away; shorter answers are what the lesson's text and hints teach.
ANSWER_LINE_CHARS = 16
ANSWER_LINES = 10
ANSWER_SHARE = 0.5
CODE_SUFFIXES = (".cu", ".cuh", ".cpp", ".hpp", ".h", ".py", ".sh")


def normalised(line: str) -> str:
    return " ".join(line.split())


def answer_lines(lesson: lessons.Lesson) -> list[tuple[str, set[str]]]:
    """Per solution file of `lesson`: its answer lines."""
    folder = common.ROOT / "solutions" / lesson.folder
    starter = lessons.starter_files(lesson) or {}
    found = []
    for solution in sorted(folder.rglob("*")) if folder.is_dir() else []:
        name = str(solution.relative_to(folder))
        given = {normalised(line) for line in starter.get(name, b"").decode(errors="replace").splitlines()}
        lines = {normalised(line) for line in solution.read_text(errors="replace").splitlines()}
        found.append((f"solutions/{lesson.folder}/{name}",
                      {line for line in lines - given
                       if len(line) >= ANSWER_LINE_CHARS and not line.startswith(("//", "/*", "*"))}))
    return found


def answers_in(files: list[str], root: Path = common.ROOT) -> list[str]:
    """The released code files that give away a lesson's answer: any but that lesson's own code and
    the code of later lessons (a release ships a lesson once the lessons before it are due)."""
    code = {name: {normalised(line) for line in (root / name).read_text(errors="replace").splitlines()}
            for name in files if name.endswith(CODE_SUFFIXES)}
    found = []
    for lesson in lessons.all_lessons():
        for solution, answer in answer_lines(lesson):
            if len(answer) < ANSWER_LINES:
                continue
            for name, lines in code.items():
                parts = name.split("/")
                if parts[0] == "lessons" and parts[1][:2] >= lesson.number:
                    continue
                share = len(answer & lines) / len(answer)
                if share >= ANSWER_SHARE:
                    found.append(f"{name}: {share:.0%} of the lines {solution} adds to its starter")
    return found


def ship_references(target: Path, shipped: list[lessons.Lesson]) -> dict[str, list[str]]:
    """Compiles, into target/references/NN_name/, the reference kernels of the lessons a shipped
    lesson's manifest names in build.uses_reference_of (its baselines must be the course's, never
    the student's), as PTX for the oldest supported GPU: it runs on any newer one, and on the
    simulator. Returns each such lesson folder with the lessons that use it."""
    root = common.ROOT
    if not (root / "solutions").is_dir():
        return {}
    nvcc = environment.find_nvcc()
    if nvcc is None:
        common.fail("nvcc is needed to compile the reference kernels a release ships (install the CUDA toolkit)")
    used: dict[str, list[str]] = {}
    for lesson in shipped:
        folder = str(lessons.manifest(lesson).get("build", {}).get("uses_reference_of") or "")
        if folder:
            used.setdefault(folder, []).append(lesson.number)
    for folder in sorted(used):
        for source in sorted((root / "solutions" / folder).glob("*.cu")):
            output = target / "references" / folder / f"{source.stem}.fatbin"
            output.parent.mkdir(parents=True, exist_ok=True)
            command = [nvcc, "-fatbin", "-std=c++20", "--no-compress", "-gencode=arch=compute_90,code=compute_90",
                       f"-I{root / 'lessons' / folder}", f"-I{root / 'common' / 'include'}", "-o", str(output),
                       str(source)]
            if common.run(command).returncode != 0:
                common.fail(f"compiling the reference {source.relative_to(root)} for the release failed")
    return dict(sorted(used.items()))


# ---------------------------------------------------------------------------------------------
# ./course release


def release_arguments(parser: CommandParser) -> None:
    parser.add_argument("target", metavar="DIR", help="a new or empty folder")
    parser.add_argument("--through", metavar="NN", help="lessons 01..NN only (release a lesson once the lessons "
                                                        "before it are due: it carries their answers)")
    parser.add_argument("--force", action="store_true", help="replace an earlier release in DIR")
    parser.add_argument("--check", action="store_true", help="then configure and build the copy")
    parser.add_argument("--check-target", metavar="TARGET", help="then configure it and build TARGET")


def release_command(parser: CommandParser, args: list[str]) -> int:
    options = parser.parse_args(args)
    through = lessons.find_lesson(options.through) if options.through else None
    return release(Path(options.target).expanduser().resolve(), force=options.force, check=options.check,
                   check_target=options.check_target, through=through)


RELEASE = Command(
    name="release",
    usage="usage: ./course release DIR [--through NN] [--force] [--check | --check-target TARGET]",
    description="Copies the course for students into DIR: without solutions/, the planted kernels and gaming "
                "attempts, with the starters also in starters/.",
    arguments=release_arguments,
    run=release_command,
    overview=(Line(INSTRUCTORS, "./course release DIR [--through NN] [--force]",
                   "a student copy of the course, without solutions"),),
)
