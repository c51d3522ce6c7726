"""One student cannot take down a class's grading, and an interrupted grading loses nothing: a class
of lesson 03 submissions graded on the CPU simulator, with a printf in every thread, a kernel that
allocates past the device heap, a kernel that never ends and a correct one. Every student gets a
verdict with its reason, the driver's memory stays small, and a grading killed part-way and resumed
gives the same reports as one that ran at once (for the class without the endless kernel)."""

from __future__ import annotations

import concurrent.futures
import csv
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

from support import COURSE, grading_work, load_driver, solved03
from test_student_path import simulator_tree

LESSON03 = "03_neighbored_reduction"
FILE03 = "reduce_neighbored_less.cu"
# What a grader of the whole class may run: the endless kernel's cost, three times a correct grading
# of lesson 03 on a loaded machine (5 s on two cores with two busy processes beside the class, each
# job's tree configured once).
TIMEOUT_S = 15
# The class without the endless kernel, graded beside it: a limit that no grading of it reaches.
RESUMED_TIMEOUT_S = 120
DRIVER_MEMORY_LIMIT = 500 << 20
RESUMED = ("ada_correct", "ben_printf_flood", "cat_heap_overflow")  # the class that is killed and resumed


def starter03() -> str:
    driver = load_driver()
    return driver.lessons.starter_files(driver.lessons.find_lesson("03"))[FILE03].decode()


def make_class(folder: Path) -> None:
    solved = solved03(starter03())
    first_line = "    const unsigned tid = threadIdx.x;\n"
    kernels = {
        # First in the class (students are graded in the order of their names): its time limit runs
        # out beside the other gradings, not after them.
        "abe_never_ends": starter03().replace("stride *= 2", "stride *= 1"),
        "ada_correct": solved,
        # A line from every thread of the first 128 blocks of every launch: past the 1 MB FIFO per
        # launch (up to 128 x 1024 lines of 30 bytes), and many MB over the grading. Not every block:
        # the calls past the FIFO cost time and print nothing, and the grading must stay well
        # inside its time limit on a loaded machine.
        "ben_printf_flood": "#include <cstdio>\n" + solved.replace(
            first_line, first_line + '    if (blockIdx.x < 128)\n'
                                     '        printf("block %u thread %u was here\\n", blockIdx.x, tid);\n'),
        # 16 MB from a heap of 8 MB: malloc returns NULL, and the kernel writes through it.
        "cat_heap_overflow": solved.replace(
            first_line, first_line + "    if (tid == 0) {\n"
                                     "        int* scratch = static_cast<int*>(malloc(std::size_t{16} << 20));\n"
                                     "        scratch[0] = 1;\n"
                                     "        free(scratch);\n"
                                     "    }\n"),
    }
    for student, text in kernels.items():
        (folder / student / LESSON03).mkdir(parents=True)
        (folder / student / LESSON03 / FILE03).write_text(text)


def start_grading(submissions: Path, out: Path, work: Path, *extra: str, timeout: int = TIMEOUT_S) -> subprocess.Popen:
    command = [sys.executable, str(COURSE), "grade", "--submissions", str(submissions), "--lessons", "03", "--sim",
               "--jobs", "2", "--seed", "20261126", "--timeout", str(timeout), "--out", str(out), "--work",
               str(work), *extra]
    env = {k: v for k, v in os.environ.items() if k not in ("COURSE_BUILD_DIR", "COURSE_PRESET")}
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            stdin=subprocess.DEVNULL)


def peak_memory(pid: int) -> int:
    """The process's peak resident memory so far (VmHWM), in bytes; 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def finish(process: subprocess.Popen, limit_s: float) -> tuple[str, int]:
    """Waits for the grading within `limit_s`; its output and the driver's peak memory."""
    peak = 0
    deadline = time.monotonic() + limit_s
    while process.poll() is None and time.monotonic() < deadline:
        peak = max(peak, peak_memory(process.pid))
        time.sleep(0.2)
    if process.poll() is None:
        process.kill()
        raise AssertionError(f"the grading did not finish within {limit_s} s")
    return process.stdout.read(), peak


def rows(out: Path) -> list[dict]:
    with open(out / "results.csv", newline="") as file:
        return list(csv.DictReader(file))


@unittest.skipUnless(simulator_tree(), "needs the simulator's tree (preset sim), built")
class ClassOfTroubles(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.root = Path(cls.tmp.name)
        cls.submissions = cls.root / "class"
        make_class(cls.submissions)
        cls.whole = cls.root / "whole"
        # The class without the endless kernel is killed and resumed beside the whole class's
        # grading, in trees of the same work folder that it holds alone (an exception there is
        # raised again by the test).
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as beside:
            cls.resumed = beside.submit(cls.grade_kill_and_resume)
            process = start_grading(cls.submissions, cls.whole, grading_work())
            cls.output, cls.peak = finish(process, 600)
            cls.code = process.returncode

    @classmethod
    def grade_kill_and_resume(cls):
        """Grades RESUMED into cls.interrupted, killed after its first record, then resumed with
        another seed (refused) and with its own; the counts and outputs, for the test below."""
        submissions = cls.root / "class_of_three"
        for student in RESUMED:
            shutil.copytree(cls.submissions / student, submissions / student)
        cls.interrupted = cls.root / "interrupted"
        work = grading_work()
        process = start_grading(submissions, cls.interrupted, work, timeout=RESUMED_TIMEOUT_S)
        records = cls.interrupted / "records.jsonl"
        deadline = time.monotonic() + 300
        while process.poll() is None and time.monotonic() < deadline:
            if records.exists() and records.read_text().count("\n") >= 1:
                break
            time.sleep(0.1)
        process.send_signal(signal.SIGKILL)  # no chance to clean up
        process.wait()
        cls.kept = records.read_text().count("\n") if records.exists() else 0
        cls.results_after_kill = (cls.interrupted / "results.csv").exists()
        again = start_grading(submissions, cls.interrupted, work, "--resume", "--seed", "1", timeout=RESUMED_TIMEOUT_S)
        cls.other_seed_output, _ = finish(again, 60)
        cls.other_seed_code = again.returncode
        resumed = start_grading(submissions, cls.interrupted, work, "--resume", timeout=RESUMED_TIMEOUT_S)
        cls.resumed_output, _ = finish(resumed, 600)
        cls.resumed_code = resumed.returncode

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_student_gets_a_verdict_with_its_reason(self):
        self.assertEqual(self.code, 0, self.output)
        verdicts = {row["student"]: row for row in rows(self.whole)}
        self.assertEqual(verdicts["ada_correct"]["verdict"], "pass", verdicts["ada_correct"])
        self.assertIn(verdicts["ben_printf_flood"]["verdict"], ("pass", "fail"), verdicts["ben_printf_flood"])
        self.assertEqual(verdicts["cat_heap_overflow"]["verdict"], "fault")
        self.assertRegex(verdicts["cat_heap_overflow"]["reason"], r"cudaErrorIllegalAddress.*at address 0x0 ")
        self.assertEqual(verdicts["abe_never_ends"]["verdict"], "timeout")
        self.assertIn(f"still running after {TIMEOUT_S} s", verdicts["abe_never_ends"]["reason"])

    def test_the_flood_is_bounded(self):
        log = self.whole / "logs" / "ben_printf_flood" / "lesson03.log"
        self.assertLess(log.stat().st_size, 600 << 10)  # the first and the last 256 KB, and a note
        self.assertRegex(log.read_text(), r"\[\.\.\. \d+ bytes of output dropped here: the log keeps the first and the "
                                          r"last 256 KB \.\.\.\]")
        self.assertLess(self.peak, DRIVER_MEMORY_LIMIT, f"the driver's peak memory: {self.peak} bytes")

    def test_progress_lines(self):
        self.assertRegex(self.output, r"\[1/4\] \w+: 03: \w+ \(\d+s so far, about \d+")
        self.assertRegex(self.output, r"\[4/4\] \w+: 03: \w+ \(\d+(m\d\d)?s so far\)")

    def test_killed_and_resumed_gives_the_same_reports(self):
        self.resumed.result()
        self.assertGreaterEqual(self.kept, 1)
        self.assertLess(self.kept, len(RESUMED), "the grading finished before it could be killed")
        self.assertFalse(self.results_after_kill)
        self.assertEqual(self.other_seed_code, 2, self.other_seed_output)  # another seed is another grading
        self.assertIn("used --seed 20261126, not 1", self.other_seed_output)
        self.assertEqual(self.resumed_code, 0, self.resumed_output)
        self.assertIn(f"{self.kept} already graded", self.resumed_output)
        self.assertEqual(rows(self.interrupted), [row for row in rows(self.whole) if row["student"] in RESUMED])

if __name__ == "__main__":
    unittest.main()
