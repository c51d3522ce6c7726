"""The simulator pass of a GPU grading: what only the CPU simulator can check, run on the very modules
the GPU graded. A GPU shows some bugs only now and then (lesson 09's partials read before a fence
orders them come out right almost every time), and the simulator follows them under the PTX memory
model instead. A lesson asks for the pass in its manifest: "simulator_pass" names the grader's test
cases to run and what they check."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from . import building, common, lessons, verdict

TIMEOUT_S = 300


@dataclass
class SimulatorPass:
    finding: str = ""  # the failure a case reported: the lesson fails with it
    note: str = ""  # what ran and how long it took, or why it could not run
    error: str = ""  # it could not run: the lesson gets no verdict from this grading


def wanted(lesson: lessons.Lesson) -> dict | None:
    """The lesson's manifest entry: {"test_cases": doctest filter, "checks": what they check}."""
    entry = lessons.manifest(lesson).get("simulator_pass")
    return entry if isinstance(entry, dict) and entry.get("test_cases") else None


def simulator_tree() -> Path:
    return common.ROOT / "build" / "sim"


@contextlib.contextmanager
def in_simulator_tree():
    """The driver's build functions, pointed at build/sim for the duration."""
    saved = {name: os.environ.get(name) for name in ("COURSE_PRESET", "COURSE_BUILD_DIR")}
    os.environ["COURSE_PRESET"] = "sim"
    os.environ.pop("COURSE_BUILD_DIR", None)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def prepare(lesson: lessons.Lesson) -> tuple[Path | None, str]:
    """Builds the simulator's grader of `lesson` (build/sim); returns it, or None and why not."""
    with in_simulator_tree():
        ok, log = building.build_quietly([f"{lesson.target}_grader"],
                                         f"building lesson {lesson.number}'s simulator grader")
    if not ok:
        return None, building.first_compile_errors(log)
    return simulator_tree() / "lessons" / f"{lesson.target}_grader", ""


def check(lesson: lessons.Lesson, modules: Path, seed: int | None) -> SimulatorPass:
    """The pass over `modules` (built for a GPU, with their PTX): the simulator's grader of the
    lesson is built where needed, then run."""
    grader, why = prepare(lesson)
    if grader is None:
        return SimulatorPass(error=f"the simulator's grader of lesson {lesson.number} did not build: {why}")
    return run(lesson, grader, modules, seed)


def run(lesson: lessons.Lesson, grader: Path, modules: Path, seed: int | None) -> SimulatorPass:
    """Runs the simulator's grader of `lesson` on `modules` (the compiled modules a GPU graded), only
    the test cases the manifest names; every one selected must run to its end and pass."""
    entry = wanted(lesson) or {}
    checks = entry.get("checks", "the simulator's checks")
    env = {k: v for k, v in os.environ.items() if not k.startswith("COURSE_")}
    env["COURSE_GRADER_TIMEOUT"] = str(TIMEOUT_S)
    started = time.monotonic()
    read_end, write_end = os.pipe()
    command = [str(grader), f"--results-fd={write_end}", f"--modules={modules}",
               f"--test-case={entry['test_cases']}"] + ([f"--seed={seed}"] if seed is not None else [])
    try:
        process = subprocess.Popen(command, cwd=common.ROOT, env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, pass_fds=(write_end,),
                                   start_new_session=True)
    except OSError as error:
        os.close(read_end)
        return SimulatorPass(error=f"the simulator's check of {checks} could not start: {error.strerror}")
    finally:
        os.close(write_end)
    channel: list[bytes] = []
    reader = threading.Thread(target=lambda: channel.append(verdict.read_all(read_end)), daemon=True)
    reader.start()
    try:
        output, _ = process.communicate(timeout=TIMEOUT_S + 30)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return SimulatorPass(error=f"the simulator's check of {checks} did not finish in {TIMEOUT_S} s")
    finally:
        reader.join(timeout=30)
    record = verdict.last_record(channel[0]) if channel else None
    seconds = time.monotonic() - started
    cases = (record or {}).get("cases") or []
    failures = [f for case in cases for f in case.get("failures", [])]
    if failures:
        return SimulatorPass(finding=failures[0], note=f"{checks} on the CPU simulator: {seconds:.1f} s")
    if not cases or record.get("status") != "finished" or any(c.get("verdict") != "pass" for c in cases):
        tail = output.decode(errors="replace").strip().splitlines()[-3:]
        return SimulatorPass(error=f"the simulator's check of {checks} did not run to its end: {' | '.join(tail)}")
    return SimulatorPass(note=f"{checks}: checked on the CPU simulator ({seconds:.1f} s)")
