"""The sanitizer pass of a GPU grading: a lesson that passed its grader is run again under
compute-sanitizer's tools (memcheck, synccheck, initcheck, racecheck), on its correctness cases at
their small sizes, within 30 s, so that an out-of-bounds access, a barrier some threads never reach or a race that
happens to give the right sums on the GPU still fails. The simulator checks the same things while it
grades, so this pass is for GPUs only."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from . import common, environment, verdict

TOOLS = ("memcheck", "synccheck", "initcheck", "racecheck")  # racecheck, the slowest, last
FINDING = 86  # the tools' exit code when they report something: no grader exits with it
BUDGET_S = 30.0  # seconds the tools may take together over one lesson


@dataclass
class SanitizerPass:
    finding: str = ""  # the first report, when a tool found something: the lesson fails with it
    note: str = ""  # what ran and how long it took, or why it did not run


def correctness_cases(record: dict | None) -> list[str]:
    """The grader's test cases that measured no speed: those the tools run."""
    return [case["name"] for case in (record or {}).get("cases") or [] if not case.get("speed") and case.get("name")]


def case_filter(names: list[str]) -> str:
    """doctest's --test-case value for exactly these names (a comma separates filters, so a comma in
    a name is matched by the one-character wildcard)."""
    return ",".join(name.replace(",", "?") for name in names)


def first_report(output: str, tool: str) -> str:
    """The tool's first report, as one line: what it found, and where (kernel, file:line)."""
    lines = [re.sub(r"^=+\s*", "", line).strip() for line in output.splitlines() if line.startswith("=========")]
    lines = [line for line in lines if line and not line.startswith(("COMPUTE-SANITIZER", "ERROR SUMMARY",
                                                                      "RACECHECK SUMMARY", "Program hit"))]
    return f"compute-sanitizer --tool {tool}: " + ("; ".join(lines[:3]) if lines else "reported an error")


def run(grader: Path, record: dict | None, *, modules: Path | str | None, seed: int | None,
        gpu: str | None = None) -> SanitizerPass:
    """Runs each tool over the grader's correctness cases; stops at the first finding. `gpu`: the
    CUDA_VISIBLE_DEVICES it runs with."""
    sanitizer = environment.find_tool("compute-sanitizer")
    if sanitizer is None:
        return SanitizerPass(note="not checked by compute-sanitizer: it is not installed (it comes with the CUDA "
                                  "toolkit, in its bin/ folder)")
    cases = correctness_cases(record)
    if not cases:
        return SanitizerPass(note="no correctness case for compute-sanitizer to run")
    env = {k: v for k, v in os.environ.items() if not k.startswith("COURSE_")}
    env["COURSE_SANITIZE"] = "1"
    if gpu:
        env["CUDA_VISIBLE_DEVICES"] = gpu
    command = [str(grader), f"--test-case={case_filter(cases)}"]
    command += [f"--modules={modules}"] if modules else []
    command += [f"--seed={seed}"] if seed is not None else []
    spent = []
    deadline = time.monotonic() + BUDGET_S
    for tool in TOOLS:
        started = time.monotonic()
        if started >= deadline:
            spent.append(f"{tool} not run (the {BUDGET_S:.0f} s budget was spent)")
            continue
        output = verdict.CappedOutput()
        # A CUDA call the grader expects to fail (a parameter probed past the last) is no finding.
        process = subprocess.Popen([sanitizer, "--tool", tool, "--error-exitcode", str(FINDING), "--show-backtrace",
                                    "no", "--report-api-errors", "no", "--print-limit", "10", *command],
                                   cwd=common.ROOT, env=env,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        reader = threading.Thread(target=verdict.read_capped, args=(process.stdout, output), daemon=True)
        reader.start()
        try:
            code = process.wait(timeout=deadline - started)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            spent.append(f"{tool} stopped after {time.monotonic() - started:.0f} s, at the end of the budget")
            continue
        finally:
            reader.join(timeout=30)
        seconds = time.monotonic() - started
        if code == FINDING:
            return SanitizerPass(finding=first_report(output.text(), tool),
                                 note=f"compute-sanitizer --tool {tool}: {seconds:.1f} s")
        spent.append(f"{tool} {seconds:.1f} s")
    return SanitizerPass(note="compute-sanitizer found nothing (" + ", ".join(spent) + ")")
