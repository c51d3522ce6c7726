"""The simulator pass of a GPU grading: what only the CPU simulator can check, run on the very modules
the GPU graded. A GPU shows some bugs only now and then (lesson 09's partials read before a fence
orders them come out right almost every time), and the simulator follows them under the PTX memory
model instead. A lesson asks for the pass in its manifest: "simulator_pass" names the grader's test
cases to run and what they check."""

from __future__ import annotations

import contextlib
import tempfile
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


def in_simulator_tree() -> contextlib.AbstractContextManager[None]:
    """The driver's build functions, pointed at build/sim for the duration."""
    return common.environment_set(COURSE_PRESET="sim", COURSE_BUILD_DIR=None)


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
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="course-simulator-pass-") as tmp:
        results = Path(tmp) / "results.json"
        try:
            outcome = verdict.run_grader(grader, results, modules=modules, seed=seed, timeout=TIMEOUT_S,
                                         test_cases=entry["test_cases"])
        except OSError as error:
            return SimulatorPass(error=f"the simulator's check of {checks} could not start: {error.strerror}")
        record = verdict.read_results(results)
    if outcome.verdict == "timeout":
        return SimulatorPass(error=f"the simulator's check of {checks} did not finish in {TIMEOUT_S} s")
    seconds = time.monotonic() - started
    cases = (record or {}).get("cases") or []
    failures = [f for case in cases for f in case.get("failures", [])]
    if failures:
        return SimulatorPass(finding=failures[0], note=f"{checks} on the CPU simulator: {seconds:.1f} s")
    if not cases or record.get("status") != "finished" or any(c.get("verdict") != "pass" for c in cases):
        tail = outcome.output.strip().splitlines()[-3:]
        return SimulatorPass(error=f"the simulator's check of {checks} did not run to its end: {' | '.join(tail)}")
    return SimulatorPass(note=f"{checks}: checked on the CPU simulator ({seconds:.1f} s)")
