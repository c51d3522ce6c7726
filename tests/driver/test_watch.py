"""./course watch: a scripted session (file saves and keys) against made-up graders, and the real
lesson 03 grader once (no GPU here: it must say it cannot grade, never that the lesson passed)."""

from __future__ import annotations

import io
import json
import os
import queue
import stat
import tempfile
import threading
import time
import unittest
from pathlib import Path

from support import build_dir, has_gpu, load_driver, run_course

# A stand-in for a lesson's grader: its verdict follows the word in the student's file, and it
# reports through the results channel the driver gives it (--results-fd), as the real graders do
# (common/include/course/results.hpp).
FAKE_GRADER = r'''#!/usr/bin/env python3
import json, os, sys
text = open(os.environ["FAKE_EXERCISE"]).read()
channel = next(int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--results-fd="))
results = {"status": "finished", "seed": 42, "cases": []}
if "SKIP" in text:
    print("SKIPPED: no CUDA device is available; this grader needs an NVIDIA GPU")
    results.update(status="skipped", reason="no CUDA device is available")
    code = 77
elif "WRONG" in text:
    message = "wrong result: k, n = 513, block = 512 (input seed 7): block 1: expected 10, got 9"
    results["cases"] = [{"name": "sums", "verdict": "fail", "failures": [message], "speed": []}]
    print(message)
    code = 1
elif "FAST" in text:
    results["cases"] = [{"name": "speed", "verdict": "pass", "failures": [],
                         "speed": [{"check": "k", "ratio": 1.8, "threshold": 1.4, "threshold_source": "grader"}]}]
    code = 0
else:
    message = "too slow: k runs 1.01x over base, threshold 1.40x"
    results["cases"] = [{"name": "speed", "verdict": "fail", "failures": [message],
                         "speed": [{"check": "k", "ratio": 1.01, "threshold": 1.4, "threshold_source": "grader"}]}]
    print(message)
    code = 1
count = len(results["cases"])
results.update(exit_code=code, registered_cases=count, selected_cases=count,
               complete_pass=code == 0 and count > 0)
os.write(channel, (json.dumps(results) + "\n").encode())
sys.exit(code)
'''


class Output(io.TextIOBase):
    """What the watcher prints, readable from the test's thread."""

    def __init__(self):
        self.text = ""
        self.lock = threading.Lock()

    def write(self, s):
        with self.lock:
            self.text += s
        return len(s)

    def wait_for(self, needle: str, start: int = 0, timeout: float = 20) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                at = self.text.find(needle, start)
            if at >= 0:
                return at + len(needle)
            time.sleep(0.02)
        raise AssertionError(f"watch never printed {needle!r}; it printed:\n{self.text}")


class Keys:
    """Commands the test types."""

    def __init__(self):
        self.queue: queue.Queue[str] = queue.Queue()

    def get(self, timeout):
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self):
        pass


class ScriptedSession(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        root = Path(self.tmp.name)
        self.driver = load_driver()
        self.driver.common.ROOT = root
        for folder in ("03_sums", "04_more"):
            (root / "lessons" / folder).mkdir(parents=True)
            (root / "exercises" / folder).mkdir(parents=True)
        (root / "lessons" / "03_sums" / "hints.md").write_text("## Hint 1\n\nlook at the idle threads\n\n"
                                                               "## Hint 2\n\nuse 2 * stride * tid\n")
        self.kernel03 = root / "exercises" / "03_sums" / "kernel.cu"
        self.kernel03.write_text("starter\n")
        (root / "exercises" / "04_more" / "kernel.cu").write_text("SKIP\n")
        graders = root / "build" / "lessons"
        graders.mkdir(parents=True)
        for number in ("03", "04"):
            grader = graders / f"lesson{number}_grader"
            grader.write_text(FAKE_GRADER)
            grader.chmod(grader.stat().st_mode | stat.S_IEXEC)
        os.environ["COURSE_STATE_DIR"] = str(root / "state")
        self.driver.building.build_dir = lambda: root / "build"

        def build_quietly(targets, label=None):
            # The exercise file decides: "BROKEN" does not compile; the fake grader reads the rest.
            if targets[0].endswith("_grader"):
                return True, ""
            folder = "03_sums" if "lesson03" in targets[0] else "04_more"
            kernel = root / "exercises" / folder / "kernel.cu"
            os.environ["FAKE_EXERCISE"] = str(kernel)
            if "BROKEN" in kernel.read_text():
                return False, f"{kernel}(3): error: expected a \";\"\nninja: build stopped\n"
            return True, ""

        self.driver.building.build_quietly = build_quietly

    def tearDown(self):
        os.environ.pop("COURSE_STATE_DIR", None)
        os.environ.pop("FAKE_EXERCISE", None)
        self.tmp.cleanup()

    def save(self, text: str) -> None:
        # A new mtime even on file systems with coarse timestamps.
        self.kernel03.write_text(text)
        later = time.time() + 2
        os.utime(self.kernel03, (later, later))

    def test_regrades_on_save_shows_hints_moves_on_and_quits(self):
        out, keys = Output(), Keys()
        first = self.driver.watch.first_unpassed()
        self.assertEqual(first.number, "03")
        watcher = self.driver.watch.Watcher(first, keys, out=out, poll=0.05)
        result = {}
        thread = threading.Thread(target=lambda: result.setdefault("code", watcher.loop()), daemon=True)
        thread.start()

        at = out.wait_for("too slow: k runs 1.01x over base, threshold 1.40x")
        at = out.wait_for("[----------] 0/2 lessons passed".replace("----------", "-" * 20), at)
        keys.queue.put("h")
        at = out.wait_for("Hint 1 of 2", at)
        at = out.wait_for("look at the idle threads", at)

        self.save("BROKEN\n")
        at = out.wait_for("saved: kernel.cu", at)
        at = out.wait_for('COMPILE ERROR: ', at)
        at = out.wait_for('error: expected a ";"', at)

        self.save("WRONG\n")
        at = out.wait_for("FAIL: wrong result: k, n = 513, block = 512", at)

        self.save("FAST\n")
        at = out.wait_for("PASS: k 1.80x (threshold 1.40x)", at)
        at = out.wait_for("1/2 lessons passed", at)
        at = out.wait_for("moving on to lesson 04", at)
        at = out.wait_for("cannot grade here: no CUDA device is available", at)
        at = out.wait_for("not a pass", at)
        keys.queue.put("q")
        thread.join(timeout=20)
        self.assertFalse(thread.is_alive())
        self.assertEqual(result["code"], 77)  # the last grading could not run: not a pass
        state = json.loads((Path(os.environ["COURSE_STATE_DIR"]) / "state.json").read_text())
        self.assertEqual(state["lessons"]["03"]["verdict"], "pass")
        self.assertEqual(state["lessons"]["04"]["verdict"], "skipped")
        self.assertEqual(state["hints"]["03"], 1)
        self.assertEqual(out.text.count("-- grading lesson"), 5)  # start, 3 saves, the next lesson

    def test_max_rounds_stops_a_scripted_run(self):
        out = Output()
        watcher = self.driver.watch.Watcher(self.driver.lessons.find_lesson("03"), Keys(), out=out, poll=0.05,
                                            max_rounds=1)
        code = watcher.loop()
        self.assertEqual(code, 1)
        self.assertIn("too slow", out.text)


@unittest.skipUnless(build_dir(), "needs the configured build tree (COURSE_BUILD_DIR, set by CTest)")
class RealGrader(unittest.TestCase):
    """The real lesson 03 grader through ./course watch, with commands on stdin (no terminal)."""

    def test_once(self):
        with tempfile.TemporaryDirectory() as state:
            result = run_course("watch", "03", "--once", env={"COURSE_STATE_DIR": state}, timeout=600)
        if has_gpu():
            self.assertIn(result.returncode, (0, 1), result.stdout)
            self.assertRegex(result.stdout, r"PASS|FAIL: (too slow|wrong result|not written)")
        else:
            self.assertEqual(result.returncode, 77, result.stdout)
            self.assertIn("cannot grade here", result.stdout)
            self.assertNotIn("PASS", result.stdout)
        self.assertIn("lessons passed", result.stdout)

    def test_keys_from_stdin(self):
        with tempfile.TemporaryDirectory() as state:
            result = run_course("watch", "03", "--poll", "0.1", env={"COURSE_STATE_DIR": state},
                                stdin="h\nq\n", timeout=600)
        self.assertIn("Hint 1 of 3 for lesson 03", result.stdout)
        self.assertIn("bye", result.stdout)


if __name__ == "__main__":
    unittest.main()
