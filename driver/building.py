"""Build trees: which preset and tree a command uses (the GPU's, the CPU simulator's, or one the
tests name), configuring a tree where it needs it, builds that print one line per phase or nothing,
and the compiler's first errors."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from . import common, environment


def preset() -> str:
    """The GPU build where there is a GPU, else the one that builds without."""
    return os.environ.get("COURSE_PRESET") or ("gpu" if environment.has_gpu() else "ci")


def build_dir() -> Path:
    """build/<preset>, or the tree COURSE_BUILD_DIR names (the course's tests use their own)."""
    if os.environ.get("COURSE_BUILD_DIR"):
        return Path(os.environ["COURSE_BUILD_DIR"])
    return common.ROOT / "build" / preset()


def choose_backend(sim: bool, gpu: bool) -> bool:
    """--sim or --gpu if given, else the GPU where there is one and the CPU simulator otherwise (a
    tree named by COURSE_PRESET or COURSE_BUILD_DIR is used as it is). The simulator has its own
    build tree, build/sim, so switching rebuilds nothing. Returns whether the work runs on the
    simulator."""
    if sim and gpu:
        common.fail("--sim and --gpu exclude each other", common.BAD_USAGE)
    chosen = os.environ.get("COURSE_PRESET") or os.environ.get("COURSE_BUILD_DIR")
    on_simulator = sim or (not gpu and not chosen and not environment.has_gpu())
    if not sim and not gpu and os.environ.get("COURSE_BUILD_DIR") and simulator_tree(build_dir()):
        return True  # a tree named by COURSE_BUILD_DIR that was configured for the simulator
    if on_simulator:
        os.environ["COURSE_PRESET"] = "sim"
        os.environ.pop("COURSE_BUILD_DIR", None)  # that tree is another preset's
    elif gpu and os.environ.get("COURSE_PRESET") == "sim":
        os.environ.pop("COURSE_PRESET")
    return on_simulator


def simulator_tree(tree: Path) -> bool:
    """Whether `tree` was configured for the CPU simulator (COURSE_SIMULATOR in its cache)."""
    try:
        return cache_entries(tree).get("COURSE_SIMULATOR", "").upper() in ("ON", "1", "TRUE", "YES")
    except OSError:
        return False


def say_backend(what: str, on_simulator: bool) -> None:
    """The first line of run, grade and watch: where the work runs."""
    where = common.shown(build_dir())
    if on_simulator:
        common.say(f"{what} on the CPU simulator ({where}): results are exact, times are modelled, and speed "
                   "checks are technique checks on the simulator's counters")
    else:
        common.say(f"{what} on the GPU ({where})")


def configure_command() -> list[str]:
    """Configures the command's tree for the student's exercises (common.exercises_dir())."""
    exercises = f"-DCOURSE_EXERCISES_DIR={common.exercises_dir()}"
    if os.environ.get("COURSE_BUILD_DIR"):
        return ["cmake", "-S", str(common.ROOT), "-B", str(build_dir()), exercises]
    return ["cmake", "--preset", preset(), exercises]


def build_command(targets: list[str] | None) -> list[str]:
    if os.environ.get("COURSE_BUILD_DIR"):
        command = ["cmake", "--build", str(build_dir())]
    else:
        command = ["cmake", "--build", "--preset", preset()]
    return command + (["--target", *targets] if targets else [])


def preset_cache_variables(name: str) -> dict[str, str]:
    """The cacheVariables of a configure preset, following 'inherits'."""
    presets = {p["name"]: p for p in json.loads((common.ROOT / "CMakePresets.json").read_text())["configurePresets"]}
    result: dict[str, str] = {}

    def visit(preset_name: str) -> None:
        entry = presets.get(preset_name, {})
        parents = entry.get("inherits", [])
        for parent in [parents] if isinstance(parents, str) else parents:
            visit(parent)
        result.update({k: str(v if not isinstance(v, dict) else v.get("value")) for k, v in
                       entry.get("cacheVariables", {}).items()})

    visit(name)
    return result


def cache_entries(tree: Path) -> dict[str, str]:
    """NAME -> value of a tree's CMakeCache.txt ("NAME:TYPE=value" lines)."""
    entries = {}
    for line in (tree / "CMakeCache.txt").read_text(errors="replace").splitlines():
        if "=" in line and ":" in line.split("=", 1)[0] and not line.startswith(("//", "#")):
            name_type, value = line.split("=", 1)
            entries[name_type.split(":", 1)[0]] = value
    return entries


NOT_CONFIGURED = "not configured yet"


def stale_configuration(tree: Path) -> str | None:
    """Why `tree` must be configured (again) before it builds, or None when it is ready: never
    configured, a configure stopped before it wrote the build files (an interrupted first run),
    or configured for another source folder or by another CMake."""
    if not (tree / "CMakeCache.txt").exists():
        return NOT_CONFIGURED
    entries = cache_entries(tree)
    home = entries.get("CMAKE_HOME_DIRECTORY")
    if home and Path(home).resolve() != common.ROOT.resolve():
        return f"it was configured for another source folder ({home})"
    cached = ".".join(entries.get(f"CMAKE_CACHE_{part}_VERSION", "") for part in ("MAJOR", "MINOR", "PATCH"))
    if cached != ".." and cmake_release() not in (None, cached):
        return f"it was configured by another CMake (version {cached}, this one is {cmake_release()})"
    build_file = "build.ninja" if "Ninja" in entries.get("CMAKE_GENERATOR", "") else "Makefile"
    if not (tree / build_file).exists():
        return f"its last configure did not finish (no {build_file})"
    exercises = entries.get("COURSE_EXERCISES_DIR")
    if exercises and Path(exercises).resolve() != common.exercises_dir().resolve():
        return f"{OTHER_EXERCISES} ({exercises})"
    return None


OTHER_EXERCISES = "it was configured for another exercises folder"


def forget_stale_configuration(tree: Path) -> str | None:
    """stale_configuration(tree); a tree configured before but stale loses its cache (its built
    files stay), so that the next configure starts clean. One configured for another exercises
    folder keeps it: configuring again with the right folder is enough."""
    reason = stale_configuration(tree)
    if reason not in (None, NOT_CONFIGURED) and not reason.startswith(OTHER_EXERCISES):
        (tree / "CMakeCache.txt").unlink(missing_ok=True)
        shutil.rmtree(tree / "CMakeFiles", ignore_errors=True)
    return reason


@functools.cache
def cmake_release() -> str | None:
    """"3.25.1": the version of the cmake on PATH (not its path: a wrapper script may start it)."""
    try:
        first = common.run(["cmake", "--version"], capture_output=True, text=True).stdout.split("\n", 1)[0]
    except OSError:
        return None
    match = re.search(r"(\d+)\.(\d+)\.(\d+)", first)
    return ".".join(match.groups()) if match else None


NINJA_STEP = re.compile(r"^\[(\d+)/(\d+)\] ")


PROGRESS_EVERY = 30.0  # seconds between progress lines where the output is not a terminal


def run_logged(command: list[str], log: Path, label: str | None = None) -> tuple[int, str]:
    """Runs `command` with its output in `log` only; with `label`, its progress: a live
    "label 57/283" count of ninja's steps on a terminal, else a line every PROGRESS_EVERY seconds
    (a log file or a CI console must not look stalled). Returns (exit code, the output)."""
    log.parent.mkdir(parents=True, exist_ok=True)
    live = label is not None and sys.stdout.isatty()
    shown = False
    latest = ""
    started = time.monotonic()
    finished = threading.Event()

    def tick() -> None:
        while label is not None and not live and not finished.wait(PROGRESS_EVERY):
            where = f" (step {latest})" if latest else ""
            print(f"course: {label}: {time.monotonic() - started:.0f} s{where}", flush=True)

    ticker = threading.Thread(target=tick, daemon=True)
    with open(log, "w") as out, subprocess.Popen(command, cwd=common.ROOT, stdout=subprocess.PIPE,
                                                 stderr=subprocess.STDOUT, text=True, errors="replace") as process:
        ticker.start()
        for line in process.stdout:
            out.write(line)
            if step := NINJA_STEP.match(line):
                latest = f"{step[1]}/{step[2]}"
                if live:
                    print(f"\rcourse: {label} {latest}", end="", flush=True)
                    shown = True
        code = process.wait()
    finished.set()
    if shown:
        print(flush=True)
    return code, log.read_text(errors="replace")


@contextlib.contextmanager
def tree_lock(tree: Path, quiet: bool = False) -> Iterator[None]:
    """The tree to this process alone while it configures and builds: two course commands that
    build in one tree at once (two terminals, tests side by side) take turns instead of running two
    CMakes or two ninjas on the same files. An flock(2), released by the kernel however the process
    ends; the wait is said unless `quiet`."""
    tree.mkdir(parents=True, exist_ok=True)
    with open(tree / ".course-build.lock", "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not quiet:
                common.say(f"waiting for another course command that builds in {common.shown(tree)}")
            fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def build_tree(tree: Path, configure: list[str], build_targets: list[str], description: str) -> None:
    """Configures `tree` where it needs it (saying why, when it was configured before) and builds,
    one line per phase; the full output goes to tree/logs/, and a failure shows the first errors."""
    with tree_lock(tree):
        _build_tree(tree, configure, build_targets, description)


def _build_tree(tree: Path, configure: list[str], build_targets: list[str], description: str) -> None:
    logs = tree / "logs"
    reason = forget_stale_configuration(tree)
    if reason is not None:
        if reason != NOT_CONFIGURED:
            common.say(f"{tree}: {reason}: configuring it again")
        common.say(f"configuring {description} (full log: {logs / 'configure.log'})")
        code, output = run_logged(configure, logs / "configure.log")
        if code != 0:
            print("\n".join(output.splitlines()[-30:]))
            common.fail(f"configuring failed (the last lines are above; full log: {logs / 'configure.log'})")
    code, output = run_logged(build_targets, logs / "build.log", f"building {description}")
    if code != 0:
        errors = first_compile_errors(output, count=8).split(" | ")
        print("\n".join(errors))
        common.fail(f"the build failed: the first errors are above (full log: {logs / 'build.log'})")
    steps = [NINJA_STEP.match(line) for line in output.splitlines()]
    done = [step for step in steps if step]
    if done and not sys.stdout.isatty():
        common.say(f"built {description}: {done[-1][2]} steps")


def build(targets: list[str] | None = None) -> None:
    """Builds `targets` (everything by default) in the command's tree, one line per phase."""
    build_tree(build_dir(), configure_command(), build_command(targets), f"{build_dir()} (preset '{preset()}')")


def build_quietly(targets: list[str], label: str | None = None) -> tuple[bool, str]:
    """Configures if needed and builds `targets`, printing nothing but, with `label`, the build's
    progress (run_logged); returns (success, what the tools printed). The output goes to the
    tree's logs/ as it comes, never only to memory."""
    return build_tree_quietly(build_dir(), configure_command(), build_command(targets), label)


def build_tree_quietly(tree: Path, configure: list[str], build_targets: list[str],
                       label: str | None = None) -> tuple[bool, str]:
    """build_quietly for any tree: its configure and build commands given."""
    with tree_lock(tree, quiet=True):
        return _build_tree_quietly(tree, configure, build_targets, label)


def _build_tree_quietly(tree: Path, configure: list[str], build_targets: list[str],
                        label: str | None) -> tuple[bool, str]:
    log = ""
    reason = forget_stale_configuration(tree)
    if reason is not None:
        if reason != NOT_CONFIGURED:
            log += f"{tree}: {reason}: configuring it again\n"
        code, output = run_logged(configure, tree / "logs" / "configure.log",
                                  f"configuring {common.shown(tree)}" if label else None)
        log += output
        if code != 0:
            return False, log
    code, output = run_logged(build_targets, tree / "logs" / "build.log", label)
    return code == 0, log + output


def failed_in_student_code(log: str, lesson_folder: str) -> bool:
    """Whether a failed build of a lesson's student modules failed on the student's files (a compile
    error in them, an include the course refuses, a file missing) rather than in the course's."""
    student_folder = f"{lesson_folder}/"
    return any(line.startswith(("refused: ", "course: missing file", "course: not a file"))
               or (student_folder in line and COMPILER_ERROR.search(line) and not line.startswith("CMake Error"))
               for line in log.splitlines())


COMPILER_ERROR = re.compile(r"(\berror\b|undefined reference|CMake Error)", re.IGNORECASE)


def first_compile_errors(log: str, count: int = 3) -> str:
    """The compiler's first error lines: what `./course` shows for a build that failed. An include
    the course refuses (cmake/compile_module.cmake) comes first."""
    refused = [line.strip() for line in log.splitlines() if line.startswith("refused: ")]
    if refused:
        return refused[0]
    lines = [line.strip() for line in log.splitlines()
             if COMPILER_ERROR.search(line) and not line.startswith(("ninja:", "FAILED:"))]
    if not lines:
        tail = [line.strip() for line in log.splitlines() if line.strip()]
        lines = tail[-count:]
    return " | ".join(lines[:count])
