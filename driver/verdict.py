"""Running a grader and reading what it left (common/include/course/results.hpp): its results
channel, the verdict that follows from it, and how a check's figures read."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import signal
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path

from . import common

# The one place that defines the words a grader's failure messages start with.
FAILURES_HEADER = Path(__file__).resolve().parent.parent / "common" / "include" / "course" / "failures.hpp"


@functools.cache
def failure_words() -> dict[str, tuple[str, ...]]:
    """What a grader's failure messages start with, by kind (correctness, fault, speed, timeout,
    grader), read from the one place that defines them (function failure_words there)."""
    words: dict[str, tuple[str, ...]] = {}
    pattern = r'^inline constexpr Word \w+\{"([^"]+)", Kind::(\w+)\};'
    for text, kind in re.findall(pattern, FAILURES_HEADER.read_text(), re.M):
        words[kind] = words.get(kind, ()) + (text,)
    return words


# The CUDA error of a kernel that ran past the device's time limit.
KERNEL_TIMEOUT = "cudaErrorLaunchTimeout"


def faults() -> tuple[str, ...]:
    return failure_words()["fault"]


def correctness_failures() -> tuple[str, ...]:
    """The results are wrong or never came."""
    return failure_words()["correctness"] + faults()


def failure_prefixes() -> tuple[str, ...]:
    return correctness_failures() + failure_words()["speed"] + failure_words()["timeout"]


def grader_errors() -> tuple[str, ...]:
    """An exception of the grader's own: no verdict on the student."""
    return failure_words()["grader"]


@dataclass
class Outcome:
    """One grading of one lesson."""
    verdict: str  # pass | fail | fault | timeout | skipped | compile error | error | not submitted
    reason: str = ""  # the first failing message (or why it was skipped)
    correctness: str = "unknown"  # pass | fail | unknown (skipped, not built, did not finish)
    speed: list = field(default_factory=list)  # the speed checks: ratio, threshold, ...
    cases: list = field(default_factory=list)  # each test case: name, verdict, failures, ...
    exit_code: int | None = None
    seed: int | None = None
    output: str = ""
    overrides: list = field(default_factory=list)  # the thresholds file's entries for the lesson, applied or not
    backend: str | None = None  # where the grader ran: "gpu" or "sim"
    sanitizer: str = ""  # the GPU's compute-sanitizer pass: what ran and took how long, or why it did not
    simulator: str = ""  # the GPU's simulator pass (driver/simulator_pass.py): what it checked, or why it did not
    device: str = ""  # the device the grader named: the GPU's name, or the simulator's
    gpu: str | None = None  # the CUDA_VISIBLE_DEVICES value a class's grader ran with ("" for none set)

    def apply_sanitizer(self, finding: str, note: str) -> None:
        """The sanitizer pass's result: a finding fails a lesson that passed its grader."""
        self.sanitizer = note
        if finding:
            self.verdict = "fail"
            self.correctness = "fail"
            self.reason = f"unsafe: {finding}"

    def apply_simulator_pass(self, finding: str, note: str, error: str) -> None:
        """The simulator pass's result: a finding fails a lesson that passed its grader; a pass that
        could not run leaves it without a verdict (a pass needs the whole evidence)."""
        self.simulator = note or error
        if finding:
            self.verdict = "fail"
            self.correctness = "fail"
            self.reason = finding
        elif error:
            self.verdict = "error"
            self.reason = error

    @property
    def passed(self) -> bool:
        return self.verdict == "pass"


def read_results(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text())
        return data if isinstance(data, dict) else None
    except (OSError, ValueError):
        return None


def complete_pass(record: dict | None) -> bool:
    """The judge's evidence of a pass: it finished with exit code 0, every test case it has was
    selected, ran to its end and passed. Checked here again, whatever the record says of itself."""
    if not record or record.get("status") != "finished" or record.get("exit_code") != 0:
        return False
    cases = record.get("cases") or []
    registered = record.get("registered_cases")
    return (isinstance(registered, int) and registered > 0 and record.get("selected_cases") == registered
            and len(cases) == registered and all(c.get("verdict") == "pass" for c in cases)
            and record.get("complete_pass") is True)


def classify(code: int | None, output: str, record: dict | None, timed_out: bool, limit: float | None) -> Outcome:
    """Turns what a grader reported through its results channel, and how it ended, into a verdict
    and its first reason. Only the record decides a pass; the output is kept for the log and is
    never read for a verdict (a student's kernel can print anything)."""
    record = record or {}
    cases = record.get("cases") or []
    messages = [f for case in cases for f in case.get("failures", [])]
    speed = [dict(s, case=case.get("name", "")) for case in cases for s in case.get("speed", [])]
    seed = record.get("seed")
    timeout_words = failure_words()["timeout"]

    def first(prefixes: tuple[str, ...]) -> str | None:
        return next((m for m in messages if m.startswith(prefixes)), None)

    bad = first(correctness_failures())
    if not cases or record.get("status") == "skipped":
        correctness = "fail" if bad else "unknown"
    elif bad or any(c.get("verdict") != "pass" and not c.get("speed") for c in cases):
        correctness = "fail"
    else:
        correctness = "pass" if record.get("status") == "finished" else "unknown"

    overrides = [o for o in record.get("threshold_overrides") or [] if isinstance(o, dict)]
    outcome = Outcome("fail", correctness=correctness, speed=speed, cases=cases, exit_code=code, seed=seed,
                      output=output, overrides=overrides, backend=record.get("backend"),
                      device=str(record.get("device") or ""))
    if timed_out or code == 124:
        outcome.verdict = "timeout"
        watchdog = record.get("reason") if record.get("status") == "timeout" else None
        outcome.reason = (watchdog or first(timeout_words)
                          or f"{timeout_words[0]} the grader did not finish within {limit:.0f} s")
    elif code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        outcome.verdict = "fault"
        outcome.reason = f"the grader crashed ({name})" + (f": {bad}" if bad else "")
    elif code == common.SKIPPED and record.get("status") == "skipped":
        outcome.verdict = "skipped"
        outcome.reason = record.get("reason") or "no GPU"
    elif code == 0 and complete_pass(record):
        outcome.verdict = "pass"
    elif code == common.BAD_USAGE:
        outcome.verdict = "error"
        outcome.reason = record.get("reason") or (output.strip().splitlines() or ["exit code 2"])[-1]
    elif grader_error := first(grader_errors()):
        # The grader itself failed (an exception of its own): no verdict on the student's code.
        outcome.verdict = "error"
        outcome.correctness = "unknown"
        outcome.reason = grader_error
    elif code == 1 and cases:
        fault = first(faults())
        # A kernel stopped for running too long (a GPU's watchdog, the simulator's instruction
        # budget) is a hang, whichever limit came first: the same verdict as the grader's watchdog.
        outcome.verdict = "timeout" if fault and KERNEL_TIMEOUT in fault else "fault" if fault else "fail"
        # A fault is what the student needs to read, even where an earlier case only saw a wrong result.
        outcome.reason = fault or first(failure_prefixes()) or (messages[0] if messages else
                                                                "the grader reported a failure")
    elif not record:
        outcome.verdict = "error"
        outcome.reason = f"the grader exited with code {code} and reported nothing through its results channel"
    else:
        ran = sum(c.get("verdict") in ("pass", "fail") for c in cases)
        outcome.verdict = "error"
        outcome.reason = (f"the grader exited with code {code} after {ran} of "
                          f"{record.get('registered_cases', '?')} checks, status '{record.get('status')}'"
                          + (f": {messages[0]}" if messages else ""))
    return outcome


def last_record(data: bytes) -> dict | None:
    """The last complete JSON line a grader wrote into its results channel."""
    for line in reversed(data.decode("utf-8", errors="replace").splitlines()):
        with contextlib.suppress(ValueError):
            record = json.loads(line)
            if isinstance(record, dict):
                return record
    return None


class CappedOutput:
    """A program's output kept within a bound, whatever it prints: the first and the last `keep`
    bytes, and how many in between were dropped. A kernel that prints from every thread cannot
    fill the driver's memory."""

    def __init__(self, keep: int = 256 << 10):
        self.keep = keep
        self.head = bytearray()
        self.tail = bytearray()
        self.dropped = 0

    def add(self, chunk: bytes) -> None:
        room = self.keep - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if not chunk:
            return
        self.tail += chunk
        if len(self.tail) > self.keep:
            self.dropped += len(self.tail) - self.keep
            del self.tail[: len(self.tail) - self.keep]

    def text(self) -> str:
        middle = (f"\n[... {self.dropped} bytes of output dropped here: the log keeps the first and the last "
                  f"{self.keep >> 10} KB ...]\n").encode() if self.dropped else b""
        return (bytes(self.head) + middle + bytes(self.tail)).decode("utf-8", errors="replace")


def read_capped(stream, into: CappedOutput) -> None:
    while chunk := stream.read(65536):
        into.add(chunk)


def limit_memory(limit_bytes: int | None, on_gpu: bool):
    """A preexec_fn that caps the child's memory, None where there is no limit. On the simulator,
    whose device memory is host memory, the whole address space (RLIMIT_AS); with a GPU, the data
    the process writes (RLIMIT_DATA), since the CUDA driver reserves address space it never uses."""
    if not limit_bytes:
        return None

    def apply() -> None:
        import resource
        which = resource.RLIMIT_DATA if on_gpu else resource.RLIMIT_AS
        resource.setrlimit(which, (limit_bytes, limit_bytes))

    return apply


MEMORY_SIGNS = ("std::bad_alloc", "cudaErrorMemoryAllocation", "out of memory")


def run_grader(grader: Path, results_file: Path, *, modules: Path | str | None = None, seed: int | None = None,
               thresholds: Path | None = None, timeout: float | None = None,
               memory_limit: int | None = None, on_gpu: bool = False, test_cases: str | None = None,
               gpu: str | None = None, simulator_threads: int | None = None) -> Outcome:
    """Runs one grader (killed with its children after `timeout` + 30 s; its own watchdog stops it
    at `timeout`), with at most `memory_limit` bytes of address space where one is given, and
    classifies what happened. The grader reports through a pipe that only it holds (--results-fd);
    the record is saved to `results_file` for ./course status. Its output is kept within a bound
    (CappedOutput). `test_cases` (a doctest filter) runs only those: the record then tells what ran,
    and no such run is a pass. `gpu`: the CUDA_VISIBLE_DEVICES it runs with (the GPU it sees).
    `simulator_threads`: the simulator's worker threads (CUDASIM_THREADS) where the caller has not
    chosen them, so that graders running side by side share the cores instead of each taking all."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COURSE_")}
    if gpu:
        env["CUDA_VISIBLE_DEVICES"] = gpu
    if simulator_threads:
        env.setdefault("CUDASIM_THREADS", str(simulator_threads))
    if timeout:
        env["COURSE_GRADER_TIMEOUT"] = str(int(timeout))
    results_file.parent.mkdir(parents=True, exist_ok=True)
    results_file.unlink(missing_ok=True)
    read_end, write_end = os.pipe()
    command = [str(grader), f"--results-fd={write_end}"]
    command += [f"--modules={modules}"] if modules else []
    command += [f"--seed={seed}"] if seed is not None else []
    command += [f"--thresholds={thresholds}"] if thresholds else []
    command += [f"--test-case={test_cases}"] if test_cases else []
    try:
        process = subprocess.Popen(command, cwd=common.ROOT, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
                                   pass_fds=(write_end,), preexec_fn=limit_memory(memory_limit, on_gpu))
    finally:
        os.close(write_end)
    channel: list[bytes] = []
    reader = threading.Thread(target=lambda: channel.append(read_all(read_end)), daemon=True)
    reader.start()
    output = CappedOutput()
    printer = threading.Thread(target=read_capped, args=(process.stdout, output), daemon=True)
    printer.start()
    timed_out = False
    try:
        process.wait(timeout=timeout + 30 if timeout else None)
    except subprocess.TimeoutExpired:
        timed_out = True
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    printer.join(timeout=30)
    reader.join(timeout=30)
    record = last_record(channel[0]) if channel else None
    if record is not None:
        results_file.write_text(json.dumps(record, indent=2) + "\n")
    text = output.text()
    outcome = classify(None if timed_out else process.returncode, text, record, timed_out, timeout)
    if memory_limit and outcome.verdict in ("error", "fault") and any(sign in text for sign in MEMORY_SIGNS):
        outcome.verdict = "error"
        outcome.reason = (f"the grader ran out of its {memory_limit / 2**30:.1f} GiB of memory (--memory-limit); "
                          f"{outcome.reason}")
    return outcome


def read_all(fd: int) -> bytes:
    """Everything written into a pipe until its last writer closes it."""
    chunks = []
    with os.fdopen(fd, "rb") as pipe:
        while chunk := pipe.read(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def unit(speed: dict) -> str:
    """What follows a check's figures: the grader's unit ("x", "%", " B"; the first word of a longer
    one), else 'x' after a speedup and nothing after another figure."""
    if "unit" in speed:
        return speed["unit"] if len(speed["unit"]) <= 2 else speed["unit"].split()[0]
    return "x" if speed.get("kind", "speedup") == "speedup" else ""


def deciding_check(speed: list[dict]) -> dict:
    """The speed check that decided a verdict: the first that failed, else the one nearest its
    threshold (the smallest margin, in its own direction); {} without any."""
    failed = [s for s in speed if s.get("passed") is False]
    if failed:
        return failed[0]

    def margin(s: dict) -> float:
        ratio, threshold = s.get("ratio") or 0.0, s.get("threshold") or 0.0
        if not threshold:
            return float("inf")
        return (threshold - ratio) / threshold if s.get("at_most") else (ratio - threshold) / threshold

    return min(speed, key=margin, default={})


def check_figures(speed: dict) -> str:
    """"reduce_sum: 99.20% (at least 75.00%)": a check's figure against its threshold, in its unit and
    direction."""
    u = unit(speed)
    direction = "at most" if speed.get("at_most") else "at least"
    name = f"{speed['check']}: " if speed.get("check") else ""
    return f"{name}{speed['ratio']:.2f}{u} ({direction} {speed['threshold']:.2f}{u})"
