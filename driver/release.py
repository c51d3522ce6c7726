"""./course release DIR: the students' copy of the course, without the solutions and whatever gives
them away, with pristine starters for ./course reset and the reference kernels later lessons
measure against, compiled to PTX."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

from . import common, environment, lessons

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


def release(target: Path, *, force: bool, check: bool, check_target: str | None) -> int:
    """Copies the course's files for students into `target` (a new or empty folder, or with
    `force` an earlier release); with `check` or `check_target`, configures and builds the copy."""
    root = common.ROOT
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
    files = [n for n in course_files() if not n.startswith(RELEASE_EXCLUDE)]
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
            destination.write_text(for_students(source.read_text()))
    # Pristine starters for ./course reset where the copy is not a git repository.
    copied = 0
    for lesson in lessons.all_lessons():
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
    shipped = ship_references(target)
    common.say(f"released {len(files)} files to {target} (without {', '.join(RELEASE_EXCLUDE)}); "
               f"{copied} starter files also in starters/ for ./course reset; {shipped} reference module(s) that later "
               f"lessons measure against, compiled to PTX, in references/")
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


def for_students(readme: str) -> str:
    """The course's README as a student copy shows it: without the parts marked for instructors
    (grading a class, releases, the reference solutions)."""
    return INSTRUCTORS_ONLY.sub("", readme)


def ship_references(target: Path) -> int:
    """Compiles, into target/references/NN_name/, the reference kernels of the lessons a later
    lesson's manifest names in build.uses_reference_of (its baselines must be the course's, never
    the student's), as PTX for the oldest supported GPU: it runs on any newer one, and on the
    simulator."""
    root = common.ROOT
    if not (root / "solutions").is_dir():
        return 0
    nvcc = environment.find_nvcc()
    if nvcc is None:
        common.fail("nvcc is needed to compile the reference kernels a release ships (install the CUDA toolkit)")
    used = {str(lessons.manifest(lesson).get("build", {}).get("uses_reference_of") or "")
            for lesson in lessons.all_lessons()} - {""}
    count = 0
    for folder in sorted(used):
        for source in sorted((root / "solutions" / folder).glob("*.cu")):
            output = target / "references" / folder / f"{source.stem}.fatbin"
            output.parent.mkdir(parents=True, exist_ok=True)
            command = [nvcc, "-fatbin", "-std=c++20", "--no-compress", "-gencode=arch=compute_90,code=compute_90",
                       f"-I{root / 'lessons' / folder}", f"-I{root / 'common' / 'include'}", "-o", str(output),
                       str(source)]
            if common.run(command).returncode != 0:
                common.fail(f"compiling the reference {source.relative_to(root)} for the release failed")
            count += 1
    return count
