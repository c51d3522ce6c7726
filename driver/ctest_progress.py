"""ctest's output passed through, with a progress line every half minute: tests done of the total,
the time since the start, and the test that has been running longest. ctest's own lines say which
test starts ("Start 12: name") and which finished ("3/387 Test #12: name ... Passed 1.23 sec")."""

from __future__ import annotations

import re
import subprocess
import threading
import time
from pathlib import Path
from typing import IO

STARTED = re.compile(r"^\s*Start\s+(\d+): (.+?)\s*$")
FINISHED = re.compile(r"^\s*(\d+)/(\d+) Test\s+#(\d+): ")
EVERY_SECONDS = 30


class Progress:
    """What the suite has done so far, from ctest's lines."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.done = 0
        self.total = 0
        self.running: dict[str, tuple[str, float]] = {}  # test number -> (name, start time)
        self.lock = threading.Lock()

    def read(self, line: str) -> None:
        with self.lock:
            if started := STARTED.match(line):
                self.running[started[1]] = (started[2], time.monotonic())
            elif finished := FINISHED.match(line):
                self.done, self.total = int(finished[1]), int(finished[2])
                self.running.pop(finished[3], None)

    def line(self) -> str:
        """"course test: 120 of 387 tests done, 4 min 10 s; running longest: NAME (45 s)"."""
        with self.lock:
            now = time.monotonic()
            text = f"course test: {self.done} of {self.total or '?'} tests done, {duration(now - self.start)}"
            if self.running:
                name, since = min(self.running.values(), key=lambda entry: entry[1])
                text += f"; running longest: {name} ({duration(now - since)})"
            return text


def duration(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes} min {seconds} s" if minutes else f"{seconds} s"


def run_with_progress(command: list[str], cwd: Path, out: IO[str], every: float = EVERY_SECONDS) -> int:
    """Runs ctest `command`, copying its output to `out` line by line and adding a progress line
    every `every` seconds while it runs. Returns ctest's exit code."""
    progress = Progress()
    stopped = threading.Event()
    writing = threading.Lock()  # whole lines from both threads, never a line cut by another

    def report() -> None:
        while not stopped.wait(every):
            with writing:
                print(progress.line(), file=out, flush=True)

    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               bufsize=1)
    reporter = threading.Thread(target=report, daemon=True)
    reporter.start()
    try:
        assert process.stdout is not None
        for line in process.stdout:
            progress.read(line)
            with writing:
                out.write(line)
                out.flush()
        return process.wait()
    finally:
        stopped.set()
        reporter.join()
        if process.poll() is None:
            process.kill()
