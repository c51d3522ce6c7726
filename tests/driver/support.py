"""Helpers for the driver's tests: load the driver's package (driver/) afresh, run ./course as a
program."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import itertools
import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COURSE = ROOT / "course"
PACKAGE = ROOT / "driver"
_copies = itertools.count()


def load_driver():
    """A fresh copy of the driver's package with every module imported, under a name of its own:
    tests replace its functions (`driver.building.build = ...`, `driver.common.ROOT = ...`) without
    touching another test's copy. The modules call each other through their module (`building.build`),
    so a function replaced in its module is replaced for all of them."""
    name = f"course_driver_{next(_copies)}"
    spec = importlib.util.spec_from_file_location(name, PACKAGE / "__init__.py",
                                                  submodule_search_locations=[str(PACKAGE)])
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package  # relative imports and dataclasses look the package up here
    spec.loader.exec_module(package)
    for module in pkgutil.iter_modules([str(PACKAGE)]):
        importlib.import_module(f"{name}.{module.name}")
    return package


@functools.cache
def _driver():
    """A copy of the driver for the helpers here that use it, loaded on first use."""
    return load_driver()


FIXTURES = Path(__file__).resolve().parent / "fixtures" / "submissions"


def fixture_submission(name: str, student: Path) -> Path:
    """The made-up submission `name` (fixtures/submissions/<name>.patch: lesson 03's starter as
    shipped, changed where the patch says) written as a class entry, student/03_neighbored_reduction/
    reduce_neighbored_less.cu; returns that file."""
    spec = importlib.util.spec_from_file_location("apply_patch", ROOT / "cmake" / "apply_patch.py")
    patching = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(patching)
    driver = load_driver()
    starter = driver.lessons.starter_files(driver.lessons.find_lesson("03"))["reduce_neighbored_less.cu"]
    patch = FIXTURES / f"{name}.patch"
    text = patching.apply(patch.read_text().splitlines(), starter.decode().splitlines(), str(patch))
    target = student / "03_neighbored_reduction" / "reduce_neighbored_less.cu"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(text) + "\n")
    return target


def copy_driver(root: Path) -> None:
    """./course and its package, in a made-up course at `root`."""
    shutil.copy2(COURSE, root / "course")
    shutil.copytree(PACKAGE, root / "driver", ignore=shutil.ignore_patterns("__pycache__"))


def run_course(*args: str, env: dict | None = None, stdin: str | None = None, timeout: float = 120,
               course: Path = COURSE) -> subprocess.CompletedProcess:
    """Runs ./course with `args`; stdout and stderr together in .stdout."""
    full_env = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, str(course), *args], env=full_env, input=stdin, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout,
                          stdin=None if stdin is not None else subprocess.DEVNULL)


def has_gpu() -> bool:
    try:
        result = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
    except OSError:
        return False
    return result.returncode == 0 and "GPU" in result.stdout


def build_dir() -> Path | None:
    """The configured build tree CTest runs in (COURSE_BUILD_DIR), if any."""
    value = os.environ.get("COURSE_BUILD_DIR")
    return Path(value) if value and (Path(value) / "CMakeCache.txt").exists() else None


def grading_work() -> Path:
    """The --work folder of every test that grades a class: one for them all, so that a grading takes
    the build trees an earlier one configured (each holds the trees it takes alone, however many
    grade at once: driver/batch.py take_trees), and a second run only recompiles the students' files."""
    return Path(os.environ.get("COURSE_TEST_WORK") or build_dir() / "driver-tests") / "grading-trees"


def simulator_tree() -> Path | None:
    """The build tree CTest runs in, where it is a simulator tree (preset sim)."""
    tree = build_dir()
    if tree is None or "COURSE_SIMULATOR:BOOL=ON" not in (tree / "CMakeCache.txt").read_text(errors="replace"):
        return None
    return tree


def grades_on_gpu() -> bool:
    """Whether a test that grades (./course grade) grades on the GPU: where the machine has one and
    the test does not run in the simulator's tree, where CTest runs the grading tests beside the
    simulator's own, on a GPU machine too."""
    return has_gpu() and simulator_tree() is None


# Lesson 03 as students change it: the starter's two lines that its hint 2 asks to change, and a
# student's fix of them in six (the pairs handed out to threads 0, 1, 2, ... through a named index
# and partner).
STARTER03_LINES = ("        if (tid % (2 * stride) == 0 && tid + stride < count)\n"
                   "            block_data[tid] += block_data[tid + stride];\n")
SOLVED03_LINES = ("        const unsigned index = 2 * stride * tid;\n"
                  "        const unsigned partner = index + stride;\n"
                  "        if (partner < count) {\n"
                  "            const int right = block_data[partner];\n"
                  "            block_data[index] += right;\n"
                  "        }\n")


def solved03(starter: str) -> str:
    """A correct lesson 03 kernel made from its starter's text, as a student following the hints writes it."""
    if STARTER03_LINES not in starter:
        raise AssertionError("lesson 03's starter changed: update STARTER03_LINES in tests/driver/support.py")
    return starter.replace(STARTER03_LINES, SOLVED03_LINES)


def mock_env(**values):
    """Sets (or, for None, removes) environment variables for the duration."""
    return _driver().common.environment_set(**values)
