"""The course checking itself: ./course test (its whole suite, on the GPU's or the CI's tree and on
the CPU simulator) and ./course doctor (what this machine has of what the course needs)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from xml.etree import ElementTree

from . import building, common, ctest_progress, docs, environment


def test() -> int:
    """./course test: builds everything and runs the course's own tests, then the docs."""
    environment.ensure_environment(verbose=False)
    building.build()
    # The student's own grading (label "exercise") is ./course grade; the course's suite checks
    # the solutions, the unmodified starters and the planted kernels. GPU timings must not
    # overlap, so with a GPU the tests run one at a time; without one its graders are skipped, and
    # the driver's tests run beside each other where they do not share the build tree.
    parallel = [] if environment.has_gpu() else ["--parallel", "2"]
    code = run_ctest(building.build_dir(), ["--preset", building.preset(), "--label-exclude", "^exercise$", *parallel])
    code = max(code, test_on_simulator())
    if code == 0 and shutil.which("doxygen"):
        code = docs.docs(with_solutions=False)
    elif not shutil.which("doxygen"):
        common.say("docs not checked: doxygen is missing (sudo apt-get install -y doxygen graphviz)")
    return code


def test_on_simulator() -> int:
    """Every lesson built for the CPU simulator (preset "sim"): the simulator's own suite, and each
    lesson's solution grader, unmodified starter and planted kernels graded there. Needs no GPU."""
    common.say("the CPU simulator's tests, and every lesson graded on the simulator (build/sim)")
    building.build_tree(common.ROOT / "build" / "sim",
                        ["cmake", "--preset", "sim", f"-DCOURSE_EXERCISES_DIR={common.exercises_dir()}"],
                        ["cmake", "--build", "--preset", "sim"], "build/sim (preset 'sim')")
    # The driver's own tests ran in the first tree; the simulator runs CPU work, so two at a time.
    return run_ctest(common.ROOT / "build" / "sim", ["--preset", "sim", "--label-exclude", "^(exercise|driver)$",
                                                    "--parallel", str(max(os.cpu_count() or 1, 1))])


def run_ctest(tree: Path, arguments: list[str]) -> int:
    """ctest with `arguments` (its own line per test and time per label, and a progress line every
    half minute), then the five slowest tests: where the suite's time goes. Returns ctest's exit
    code."""
    junit = tree / "logs" / "ctest.xml"
    junit.parent.mkdir(parents=True, exist_ok=True)
    junit.unlink(missing_ok=True)
    code = ctest_progress.run_with_progress(["ctest", *arguments, "--output-junit", str(junit)], common.ROOT,
                                            sys.stdout)
    slowest = slowest_tests(junit)
    if slowest:
        common.say(f"the slowest tests of {common.shown(tree)}: " +
                   ", ".join(f"{name} {seconds:.0f} s" for seconds, name in slowest))
    return code


def slowest_tests(junit: Path, count: int = 5) -> list[tuple[float, str]]:
    """The `count` slowest tests of a ctest JUnit report, slowest first; none where it is missing."""
    try:
        cases = ElementTree.parse(junit).getroot().iter("testcase")
    except (OSError, ElementTree.ParseError):
        return []
    timed = [(float(case.get("time") or 0), case.get("name") or "?") for case in cases]
    return sorted(timed, reverse=True)[:count]


def doctor() -> int:
    """./course doctor: a line per thing the course needs, and where builds go."""
    print("checking what the course needs:")
    environment.ensure_environment(verbose=True)
    if environment.has_gpu() or os.environ.get("COURSE_PRESET") or os.environ.get("COURSE_BUILD_DIR"):
        print(f"everything needed is here; builds go to {common.shown(building.build_dir())}")
    else:
        print("everything needed is here; no GPU, so run, grade and watch build for the CPU simulator in build/sim, "
              f"and ./course test builds {common.shown(building.build_dir())} (its GPU graders report skipped) and "
              "build/sim")
    return 0
