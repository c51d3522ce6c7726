"""The course checking itself: ./course test (its whole suite, on the GPU's or the CI's tree and on
the CPU simulator) and ./course doctor (what this machine has of what the course needs)."""

from __future__ import annotations

import os
import shutil
import sys
import threading
from pathlib import Path
from typing import IO
from xml.etree import ElementTree

from . import building, common, ctest_progress, docs, environment
from .command import THE_COURSE, Line, without_arguments


def test() -> int:
    """./course test: builds everything and runs the course's own tests, then the docs."""
    environment.ensure_environment(verbose=False)
    # The student's own grading (label "exercise") is ./course grade; the course's suite checks
    # the solutions, the unmodified starters and the planted kernels. With a GPU the tests run side
    # by side, as many as its memory holds: the graders take turns on the GPU only for their timed
    # runs (common/include/course/gpu_sharing.hpp), and the simulator's tree is built and tested
    # beside the GPU's tree, from the start, at the lowest priority. Without one the GPU graders are
    # skipped; the simulator's tree is built beside the first tree's tests, at the lowest priority
    # (the driver's tests there leave a core idle for long stretches), and tested after them: on a
    # small machine both suites at once take longer than one after the other (the driver's tests
    # build trees of their own).
    gpu = environment.has_gpu()
    simulator = SimulatorBeside() if gpu else None
    building.build()
    if simulator is None:
        simulator = SimulatorBeside(with_tests=False)
    jobs = environment.gpu_parallel_jobs() if gpu else max(os.cpu_count() or 1, 2)
    code = run_ctest(building.build_dir(), ["--preset", building.preset(), "--label-exclude", "^exercise$",
                                            "--parallel", str(jobs)])
    code = max(code, simulator.wait())
    if code == 0 and shutil.which("doxygen"):
        code = docs.docs(with_solutions=False)
    elif not shutil.which("doxygen"):
        common.say("docs not checked: doxygen is missing (sudo apt-get install -y doxygen graphviz)")
    return code


SIMULATOR_TREE = common.ROOT / "build" / "sim"


def simulator_configure() -> list[str]:
    return ["cmake", "--preset", "sim", f"-DCOURSE_EXERCISES_DIR={common.exercises_dir()}"]


def simulator_ctest_arguments() -> list[str]:
    # The driver's own tests and the lint ran in the first tree. A simulator grader of lesson 05
    # holds up to 10 GB of memory: no more side by side than the machine's free memory holds.
    jobs = max(os.cpu_count() or 1, 1)
    try:
        with open("/proc/meminfo") as meminfo:
            available = next(int(line.split()[1]) for line in meminfo if line.startswith("MemAvailable:"))
        jobs = max(1, min(jobs, available // (10 << 20)))
    except (OSError, StopIteration, ValueError):
        pass
    return ["--preset", "sim", "--label-exclude", "^(exercise|driver|lint)$", "--parallel", str(jobs)]


class SimulatorBeside:
    """The simulator's tree (preset "sim": the simulator's own suite, and each lesson's solution
    grader, unmodified starter and planted kernels graded there) configured and built in a thread of
    its own at the lowest priority, beside the first tree's tests, its output to the tree's logs/.
    With a GPU (`with_tests`) its tests run there too, beside the GPU tree's (a grader's timed runs
    launch from the CPU, and a delayed launch would count in their times); without one, wait() runs
    them in the foreground once the tree is built."""

    def __init__(self, with_tests: bool = True) -> None:
        self.log = SIMULATOR_TREE / "logs" / "ctest.log"
        self.with_tests = with_tests
        doing = "building and testing" if with_tests else "building"
        common.say(f"{doing} {common.shown(SIMULATOR_TREE)} (preset 'sim') beside the first tree's tests "
                   f"(logs: {common.shown(SIMULATOR_TREE / 'logs')})")
        self.built: tuple[bool, str] = (False, "")
        self.code = 1
        self.nice = ["nice", "-n", "19"] if shutil.which("nice") else []
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        self.built = building.build_tree_quietly(SIMULATOR_TREE, self.nice + simulator_configure(),
                                                 self.nice + ["cmake", "--build", "--preset", "sim"])
        if not self.built[0] or not self.with_tests:
            return
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "w") as out:
            self.code = run_ctest(SIMULATOR_TREE, simulator_ctest_arguments(), out=out, prefix=self.nice)

    def wait(self) -> int:
        """Once the tree is built (and tested, with a GPU): the tests' summary, or the first build
        errors; ctest's code. Without a GPU the tests run here, in the foreground."""
        if self.thread.is_alive():
            common.say(f"waiting for {common.shown(SIMULATOR_TREE)} (logs: {common.shown(SIMULATOR_TREE / 'logs')})")
        self.thread.join()
        built, output = self.built
        if not built:
            print(building.first_compile_errors(output, count=8).replace(" | ", "\n"))
            common.fail(f"building {common.shown(SIMULATOR_TREE)} failed: the first errors are above "
                        f"(logs: {common.shown(SIMULATOR_TREE / 'logs')})")
        common.say("the CPU simulator's tests, and every lesson graded on the simulator (build/sim)")
        if not self.with_tests:
            return run_ctest(SIMULATOR_TREE, simulator_ctest_arguments())
        if not self.log.exists():
            common.say(f"the simulator's tests did not run (no {common.shown(self.log)})")
            return 1
        text = self.log.read_text(errors="replace")
        summary = text[text.find("Label Time Summary:"):] if "Label Time Summary:" in text else ""
        failed = [line for line in text.splitlines() if "***" in line or "(Failed)" in line]
        print("\n".join([*failed, *[line for line in text.splitlines() if "tests passed" in line], summary.rstrip()]))
        return self.code


def run_ctest(tree: Path, arguments: list[str], out: IO[str] | None = None, prefix: list[str] | None = None) -> int:
    """ctest with `arguments` (its own line per test and time per label, and a progress line every
    half minute), then the five slowest tests: where the suite's time goes. Output to `out` (default
    standard output); `prefix`: a command ctest runs under (nice). Returns ctest's exit code."""
    out = out or sys.stdout
    junit = tree / "logs" / "ctest.xml"
    junit.parent.mkdir(parents=True, exist_ok=True)
    junit.unlink(missing_ok=True)
    code = ctest_progress.run_with_progress([*(prefix or []), "ctest", *arguments, "--output-junit", str(junit)],
                                            common.ROOT, out)
    slowest = slowest_tests(junit)
    if slowest:
        text = f"the slowest tests of {common.shown(tree)}: " + ", ".join(
            f"{name} {seconds:.0f} s" for seconds, name in slowest)
        if out is sys.stdout:
            common.say(text)
        else:
            print(f"course: {text}", file=out, flush=True)
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


# ---------------------------------------------------------------------------------------------
# ./course test and ./course doctor


TEST = without_arguments(
    name="test",
    description="The course's own tests: builds everything, runs CTest (the driver's tests, the solutions, the "
                "starters, the planted kernels), every lesson graded on the CPU simulator, and the docs.",
    action=test,
    overview=Line(THE_COURSE, "./course test", "the course's own tests"),
)


DOCTOR = without_arguments(
    name="doctor",
    description="Checks the tools and libraries the course needs and prints the command that installs what is "
                "missing.",
    action=doctor,
    overview=Line(THE_COURSE, "./course doctor", "check the tools and libraries the course needs"),
)
