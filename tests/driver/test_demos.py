"""./course run NN --sim: every lesson's demo, with its default sizes, finishes in seconds on the CPU
simulator and shows its progress as it goes, also through a pipe.

Builds the demos in build/sim (configuring it if needed, as ./course run does); the time limit counts
from the demo's first line, not the build.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import unittest

from support import COURSE, load_driver

# Seconds a demo may run with its defaults on the simulator: a few on an idle machine; room here for
# a CI machine shared with parallel builds.
LIMIT = 90


def run_piped(args: list[str], timeout: float) -> list[tuple[float, str]]:
    """Runs ./course with stdout a pipe; each line with the time it arrived, then ("", exit code)."""
    env = {k: v for k, v in os.environ.items() if k not in ("COURSE_BUILD_DIR", "COURSE_PRESET")}
    process = subprocess.Popen([sys.executable, str(COURSE), *args], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, env=env, stdin=subprocess.DEVNULL)
    lines: list[tuple[float, str]] = []
    timer = threading.Timer(timeout, process.kill)
    timer.start()
    try:
        for line in process.stdout:
            lines.append((time.monotonic(), line.rstrip("\n")))
        code = process.wait()
    finally:
        timer.cancel()
    lines.append((time.monotonic(), f"exit code {code}"))
    return lines


class SimulatorDefaults(unittest.TestCase):
    def test_every_demo_finishes_in_seconds_and_streams_its_progress(self):
        streamed = False
        for lesson in load_driver().lessons.all_lessons():
            with self.subTest(lesson=lesson.number):
                lines = run_piped(["run", lesson.number, "--sim", "--seed", "1"], timeout=1800)
                text = "\n".join(line for _, line in lines)
                self.assertNotIn("Traceback", text)
                self.assertIn(lines[-1][1], ("exit code 0", "exit code 1"), text[-3000:])  # 1: a starter's wrong result
                program = f"{lesson.target}_demo"
                first = next((t for t, line in lines if line.startswith(program)), None)
                self.assertIsNotNone(first, f"no line from {program}:\n{text[-3000:]}")
                seconds = lines[-1][0] - first
                self.assertLess(seconds, LIMIT, f"{program} ran {seconds:.0f} s with its defaults")
                progress = [t for t, line in lines if line.lstrip().startswith("modelling ")]
                self.assertTrue(progress, f"{program} said nothing while it ran:\n{text[-3000:]}")
                streamed = streamed or lines[-1][0] - progress[0] >= 1.0
        # Through a pipe, the lines come as they are printed, not all at the end.
        self.assertTrue(streamed, "every demo's lines arrived at its end")


if __name__ == "__main__":
    unittest.main()
