"""The course checking itself: ./course test (its whole suite, on the GPU's or the CI's tree and on
the CPU simulator) and ./course doctor (what this machine has of what the course needs)."""

from __future__ import annotations

import os
import shutil
import sys
import threading
from pathlib import Path
from xml.etree import ElementTree

from . import building, common, ctest_progress, docs, environment
from .command import THE_COURSE, Command, CommandParser, Line, no_arguments


def test() -> int:
    """./course test: builds everything and runs the course's own tests, then the docs."""
    environment.ensure_environment(verbose=False)
    building.build()
    # The student's own grading (label "exercise") is ./course grade; the course's suite checks
    # the solutions, the unmodified starters and the planted kernels. With a GPU the tests run side
    # by side, as many as its memory holds: the graders take turns on the GPU only for their timed
    # runs (common/include/course/gpu_sharing.hpp), and the CPU's cores build the simulator's tree
    # beside them. Without one the GPU graders are skipped, and the driver's tests run beside each
    # other where they do not share the build tree.
    gpu = environment.has_gpu()
    simulator_build = SimulatorBuild() if gpu else None
    jobs = environment.gpu_parallel_jobs() if gpu else max(os.cpu_count() or 1, 2)
    code = run_ctest(building.build_dir(), ["--preset", building.preset(), "--label-exclude", "^exercise$",
                                            "--parallel", str(jobs)])
    code = max(code, test_on_simulator(simulator_build))
    if code == 0 and shutil.which("doxygen"):
        code = docs.docs(with_solutions=False)
    elif not shutil.which("doxygen"):
        common.say("docs not checked: doxygen is missing (sudo apt-get install -y doxygen graphviz)")
    return code


SIMULATOR_TREE = common.ROOT / "build" / "sim"


def simulator_configure() -> list[str]:
    return ["cmake", "--preset", "sim", f"-DCOURSE_EXERCISES_DIR={common.exercises_dir()}"]


class SimulatorBuild:
    """The simulator's tree, configured and built in a thread of its own (its output to the tree's
    logs/ only), while the GPU's tree runs its tests."""

    def __init__(self) -> None:
        common.say(f"building {common.shown(SIMULATOR_TREE)} (preset 'sim') beside the GPU's tests "
                   f"(log: {common.shown(SIMULATOR_TREE / 'logs' / 'build.log')})")
        self.result: tuple[bool, str] = (False, "")
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        # At the lowest priority: the GPU's timed runs launch from the CPU, and a launch delayed by
        # a compiler would count in their times.
        nice = ["nice", "-n", "19"] if shutil.which("nice") else []
        self.result = building.build_tree_quietly(SIMULATOR_TREE, nice + simulator_configure(),
                                                  nice + ["cmake", "--build", "--preset", "sim"])

    def wait(self) -> None:
        """Returns once the tree is built; stops the command with the first errors if it failed."""
        self.thread.join()
        built, output = self.result
        if not built:
            print(building.first_compile_errors(output, count=8).replace(" | ", "\n"))
            common.fail(f"building {common.shown(SIMULATOR_TREE)} failed: the first errors are above "
                        f"(logs: {common.shown(SIMULATOR_TREE / 'logs')})")


def test_on_simulator(prebuilt: SimulatorBuild | None = None) -> int:
    """Every lesson built for the CPU simulator (preset "sim"): the simulator's own suite, and each
    lesson's solution grader, unmodified starter and planted kernels graded there. Needs no GPU.
    `prebuilt`: the tree's build, started earlier."""
    common.say("the CPU simulator's tests, and every lesson graded on the simulator (build/sim)")
    if prebuilt is not None:
        prebuilt.wait()
    else:
        building.build_tree(SIMULATOR_TREE, simulator_configure(), ["cmake", "--build", "--preset", "sim"],
                            "build/sim (preset 'sim')")
    # The driver's own tests ran in the first tree; the simulator runs CPU work, so two at a time.
    return run_ctest(SIMULATOR_TREE, ["--preset", "sim", "--label-exclude", "^(exercise|driver)$",
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


# ---------------------------------------------------------------------------------------------
# ./course test and ./course doctor


def test_command(parser: CommandParser, args: list[str]) -> int:
    no_arguments(parser, args)
    return test()


TEST = Command(
    name="test",
    usage="usage: ./course test (takes no arguments)",
    description="The course's own tests: builds everything, runs CTest (the driver's tests, the solutions, the "
                "starters, the planted kernels), every lesson graded on the CPU simulator, and the docs.",
    run=test_command,
    overview=(Line(THE_COURSE, "./course test", "the course's own tests"),),
)


def doctor_command(parser: CommandParser, args: list[str]) -> int:
    no_arguments(parser, args)
    return doctor()


DOCTOR = Command(
    name="doctor",
    usage="usage: ./course doctor (takes no arguments)",
    description="Checks the tools and libraries the course needs and prints the command that installs what is "
                "missing.",
    run=doctor_command,
    overview=(Line(THE_COURSE, "./course doctor", "check the tools and libraries the course needs"),),
)
