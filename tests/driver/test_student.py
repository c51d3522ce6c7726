"""./course hint, status and reset, and how a grader's run becomes a verdict (no GPU, no build)."""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
import unittest
from pathlib import Path

from support import ROOT, build_dir, copy_driver, load_driver, mock_env, run_course


def make_course(root: Path, lessons: dict[str, str]) -> None:
    """A tiny course: the driver, lessons/NN_x/hints.md and one starter file per lesson."""
    copy_driver(root)
    for folder, text in lessons.items():
        (root / "lessons" / folder).mkdir(parents=True)
        (root / "lessons" / folder / "hints.md").write_text(
            "# Hints\n\n## Hint 1\n\nfirst\n\n## Hint 2\n\nsecond\n\n## Hint 3\n\nthird\n")
        (root / "exercises" / folder).mkdir(parents=True)
        (root / "exercises" / folder / "kernel.cu").write_text(text)


class Hints(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.env = {"COURSE_STATE_DIR": self.tmp.name}

    def tearDown(self):
        self.tmp.cleanup()

    def test_every_lesson_has_numbered_hints(self):
        driver = load_driver()
        for lesson in driver.lessons.all_lessons():
            path = ROOT / "lessons" / lesson.folder / "hints.md"
            if lesson.number == "03" or path.exists():
                with self.subTest(lesson=lesson.folder):
                    text = path.read_text()
                    numbers = [int(m[1]) for m in driver.lessons.HINT_HEADING.finditer(text)]
                    self.assertGreaterEqual(len(numbers), 3)
                    self.assertEqual(numbers, list(range(1, len(numbers) + 1)))
                    self.assertTrue(all(driver.lessons.read_hints(lesson)))

    def test_hints_come_one_at_a_time_and_are_remembered(self):
        first = run_course("hint", "03", env=self.env)
        self.assertEqual(first.returncode, 0, first.stdout)
        self.assertIn("Hint 1 of 3 for lesson 03", first.stdout)
        self.assertNotIn("Hint 2", first.stdout)
        self.assertIn("idle", first.stdout)  # hint 1 of lesson 03: where the idle threads are
        second = run_course("hint", "3", env=self.env)
        self.assertIn("Hint 2 of 3", second.stdout)
        self.assertIn("2 * stride * tid", second.stdout)
        third = run_course("hint", "03_neighbored_reduction", env=self.env)
        self.assertIn("Hint 3 of 3", third.stdout)
        self.assertIn("index + stride < count", third.stdout)
        again = run_course("hint", "03", env=self.env)
        self.assertIn("all 3 hints of lesson 03 are shown", again.stdout)
        state = json.loads((Path(self.tmp.name) / "state.json").read_text())
        self.assertEqual(state["hints"]["03"], 3)
        shown = run_course("hint", "03", "--all", env=self.env)
        self.assertEqual(shown.stdout.count("Hint "), 3)
        run_course("hint", "03", "--reset", env=self.env)
        self.assertIn("Hint 1 of 3", run_course("hint", "03", env=self.env).stdout)

    def test_unknown_lesson_and_bad_usage(self):
        result = run_course("hint", "99", env=self.env)
        self.assertEqual(result.returncode, 2)
        self.assertIn("no lesson '99'", result.stdout)
        self.assertEqual(run_course("hint", env=self.env).returncode, 2)


class Status(unittest.TestCase):
    def test_table_shows_each_check_and_the_ratio_against_its_threshold(self):
        with tempfile.TemporaryDirectory() as tmp:
            state = Path(tmp)
            (state / "results").mkdir()
            (state / "state.json").write_text(json.dumps({"lessons": {"03": {
                "verdict": "fail", "reason": "too slow: ...", "when": "2026-01-01T10:00:00", "seed": 11}}}))
            (state / "results" / "lesson03.json").write_text(json.dumps({"status": "finished", "seed": 11, "cases": [
                {"name": "exact sums", "verdict": "pass", "failures": [], "speed": []},
                {"name": "is faster", "verdict": "fail", "failures": ["too slow: k runs 1.02x"],
                 "speed": [{"check": "k", "ratio": 1.02, "threshold": 1.4, "threshold_source": "grader"}]},
                {"name": "bandwidth", "verdict": "pass", "failures": [],
                 "speed": [{"check": "bw", "ratio": 0.81, "threshold": 0.7, "threshold_source": "/x/t.json",
                            "kind": "figure"}]}]}))
            result = run_course("status", env={"COURSE_STATE_DIR": tmp})
        self.assertEqual(result.returncode, 0, result.stdout)
        lines = result.stdout.splitlines()
        self.assertTrue(lines[0].startswith("lesson"))
        self.assertTrue(any("exact sums" in line and "pass" in line for line in lines))
        self.assertTrue(any("is faster" in line and "FAIL" in line and "1.02x / 1.40x" in line for line in lines))
        self.assertTrue(any("bandwidth" in line and "0.81 / 0.70*" in line for line in lines))
        self.assertIn("threshold from a thresholds file", result.stdout)
        self.assertTrue(any("seed 11" in line for line in lines))
        self.assertTrue(any("lessons passed" in line for line in lines[-2:]))

    def test_no_seed_is_not_shown_as_none(self):
        # A compile error or a missing file has no seed: the line says when, not "seed None".
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "state.json").write_text(json.dumps({"lessons": {"03": {
                "verdict": "compile error", "reason": "x.cu(3): error", "when": "2026-01-01T10:00:00", "seed": None}}}))
            result = run_course("status", env={"COURSE_STATE_DIR": tmp})
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertIn("graded 2026-01-01T10:00:00", result.stdout)
        self.assertNotIn("None", result.stdout)

    def test_nothing_graded_yet(self):
        with tempfile.TemporaryDirectory() as tmp:
            result = run_course("status", env={"COURSE_STATE_DIR": tmp})
        self.assertIn("(not graded yet)", result.stdout)
        self.assertIn("[--------------------] 0/", result.stdout)


@unittest.skipUnless(shutil.which("git"), "needs git")
class Reset(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name) / "course"
        self.root.mkdir()
        make_course(self.root, {"03_sums": "starter\n", "04_more": "other starter\n"})
        git = ["git", "-C", str(self.root), "-c", "user.name=t", "-c", "user.email=t@example.com"]
        subprocess.run([*git, "init", "-q"], check=True)
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "commit", "-qm", "start"], check=True)
        self.kernel = self.root / "exercises" / "03_sums" / "kernel.cu"

    def tearDown(self):
        self.tmp.cleanup()

    def reset(self, lesson: str) -> subprocess.CompletedProcess:
        return run_course("reset", lesson, course=self.root / "course", env={"COURSE_STATE_DIR": ""})

    def test_restores_the_starter_from_git_and_keeps_a_backup(self):
        self.kernel.write_text("my attempt\n")
        result = self.reset("03")
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertEqual(self.kernel.read_text(), "starter\n")
        backups = list((self.root / ".course" / "backups").rglob("kernel.cu"))
        self.assertEqual(len(backups), 1)
        self.assertEqual(backups[0].read_text(), "my attempt\n")
        self.assertIn("03_sums", backups[0].parent.name)
        self.assertIn("nothing changed", self.reset("03").stdout)
        self.assertEqual((self.root / "exercises" / "04_more" / "kernel.cu").read_text(), "other starter\n")

    def test_a_folder_in_the_files_place_is_kept_aside(self):
        self.kernel.unlink()
        self.kernel.mkdir()
        (self.kernel / "notes.txt").write_text("mine\n")
        result = self.reset("03")
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertNotIn("Traceback", result.stdout)
        self.assertEqual(self.kernel.read_text(), "starter\n")
        kept = list((self.root / ".course" / "backups").rglob("notes.txt"))
        self.assertEqual([k.read_text() for k in kept], ["mine\n"])

    def test_a_released_copys_starters_come_before_git(self):
        # A student who ran `git init` in a released copy has their own work in HEAD.
        (self.root / "starters" / "03_sums").mkdir(parents=True)
        (self.root / "starters" / "03_sums" / "kernel.cu").write_text("shipped starter\n")
        self.kernel.write_text("my attempt\n")
        self.assertEqual(self.reset("03").returncode, 0)
        self.assertEqual(self.kernel.read_text(), "shipped starter\n")

    def test_without_git_uses_the_starters_folder(self):
        shutil.rmtree(self.root / ".git")
        self.kernel.write_text("my attempt\n")
        self.assertNotEqual(self.reset("03").returncode, 0)  # no starter anywhere: refuses
        self.assertEqual(self.kernel.read_text(), "my attempt\n")
        (self.root / "starters" / "03_sums").mkdir(parents=True)
        (self.root / "starters" / "03_sums" / "kernel.cu").write_text("starter\n")
        self.assertEqual(self.reset("03").returncode, 0)
        self.assertEqual(self.kernel.read_text(), "starter\n")


class Verdicts(unittest.TestCase):
    """classify(): how the grader ended + the record from its results channel -> verdict, first
    reason, correctness. Only a complete record is a pass; the grader's output never decides."""

    @classmethod
    def setUpClass(cls):
        cls.driver = load_driver()

    def results(self, *cases, status="finished", exit_code=1):
        return {"status": status, "seed": 5, "exit_code": exit_code, "registered_cases": len(cases),
                "selected_cases": len(cases), "complete_pass": False, "cases": list(cases)}

    def passing(self):
        record = self.results(
            {"name": "sums", "verdict": "pass", "failures": [], "speed": []},
            {"name": "speed", "verdict": "pass", "failures": [],
             "speed": [{"check": "k", "ratio": 1.8, "threshold": 1.4}]}, exit_code=0)
        record["complete_pass"] = True
        return record

    def test_pass(self):
        outcome = self.driver.verdict.classify(0, "", self.passing(), False, None)
        self.assertEqual((outcome.verdict, outcome.correctness, outcome.seed), ("pass", "pass", 5))
        self.assertEqual(outcome.speed[0]["ratio"], 1.8)

    def test_a_pass_needs_the_whole_record(self):
        missing_case = self.passing()
        missing_case["registered_cases"] = 3
        filtered = self.passing()
        filtered["selected_cases"] = 1
        unfinished = self.passing()
        unfinished["cases"][1]["verdict"] = "unfinished"
        still_running = self.passing()
        still_running["status"] = "running"
        for name, record in (("a check that never ran", missing_case), ("checks filtered out", filtered),
                             ("an unfinished check", unfinished), ("no final status", still_running),
                             ("no record at all", None)):
            with self.subTest(name):
                # Exit code 0 and a passing grader's last lines on stdout, as an early exit would leave.
                passing_tail = "[doctest] Status: SUCCESS!\nlesson 03: PASS\n"
                outcome = self.driver.verdict.classify(0, passing_tail, record, False, None)
                self.assertEqual(outcome.verdict, "error")
                self.assertFalse(outcome.passed)

    def test_too_slow_is_correct_but_fails(self):
        outcome = self.driver.verdict.classify(1, "", self.results(
            {"name": "sums", "verdict": "pass", "failures": [], "speed": []},
            {"name": "speed", "verdict": "fail", "failures": ["too slow: k runs 1.01x"],
             "speed": [{"check": "k", "ratio": 1.01, "threshold": 1.4}]}), False, None)
        self.assertEqual((outcome.verdict, outcome.correctness), ("fail", "pass"))
        self.assertEqual(outcome.reason, "too slow: k runs 1.01x")

    def test_wrong_result_names_the_case(self):
        message = "wrong result: k, n = 33, block = 32 (input seed 9): block 1: expected 5, got 4"
        outcome = self.driver.verdict.classify(1, "", self.results(
            {"name": "sums", "verdict": "fail", "failures": ["something else", message], "speed": []}), False, None)
        self.assertEqual((outcome.verdict, outcome.correctness, outcome.reason), ("fail", "fail", message))

    def test_every_lessons_correctness_words_count_as_wrong(self):
        for message in ("wrong occupancy: theoretical_occupancy, ...",
                        "bad configuration: choose_launch_config(n = 1) gave ..."):
            with self.subTest(message=message):
                outcome = self.driver.verdict.classify(1, "", self.results(
                    {"name": "c", "verdict": "fail", "failures": [message], "speed": []}), False, None)
                self.assertEqual((outcome.verdict, outcome.correctness, outcome.reason), ("fail", "fail", message))

    def test_output_is_never_a_verdict(self):
        # A kernel's printf can print any failure or success line; without a record it is an error.
        outcome = self.driver.verdict.classify(1, "wrong result: fake\ntoo slow: fake\n", None, False, None)
        self.assertEqual(outcome.verdict, "error")
        self.assertIn("reported nothing", outcome.reason)

    def test_cuda_error_and_crash_are_faults(self):
        outcome = self.driver.verdict.classify(1, "", self.results(
            {"name": "sums", "verdict": "fail", "failures": ["CUDA error cudaErrorIllegalAddress ..."],
             "speed": []}), False, None)
        self.assertEqual((outcome.verdict, outcome.correctness), ("fault", "fail"))
        crashed = self.driver.verdict.classify(-11, "", self.results(status="running"), False, None)
        self.assertEqual(crashed.verdict, "fault")
        self.assertIn("SIGSEGV", crashed.reason)
        self.assertEqual(crashed.seed, 5)

    def test_a_fault_is_the_reason_even_after_a_wrong_result(self):
        # An out-of-bounds write gives wrong sums in one case and faults in the next: the verdict and
        # its reason are the fault, with what the simulator or the GPU said of it.
        fault = ("CUDA error cudaErrorIllegalAddress (an illegal memory access was encountered) in `...`: kernel k "
                 "wrote 4 bytes at 0x10 (address is 4 bytes past the end of the 2048-byte allocation at 0x0)")
        outcome = self.driver.verdict.classify(1, "", self.results(
            {"name": "sums", "verdict": "fail", "failures": ["wrong result: n = 513: block 1 holds 7"], "speed": []},
            {"name": "more sums", "verdict": "fail", "failures": [fault], "speed": []}), False, None)
        self.assertEqual(outcome.verdict, "fault")
        self.assertEqual(outcome.reason, fault)

    def test_the_deciding_check_in_its_unit_and_direction(self):
        speed = [{"check": "k", "ratio": 2.0, "threshold": 1.5, "passed": True, "unit": "x", "at_most": False},
                 {"check": "k/bank_conflicts", "ratio": 0.09, "threshold": 0.1, "passed": True, "unit": "",
                  "at_most": True},
                 {"check": "k/copy", "ratio": 99.2, "threshold": 90.0, "passed": True, "unit": "%"}]
        nearest = self.driver.verdict.deciding_check(speed)
        self.assertEqual(nearest["check"], "k/bank_conflicts")  # 10% under its ceiling; the others 33% and 10.2% over
        self.assertEqual(self.driver.verdict.check_figures(nearest), "k/bank_conflicts: 0.09 (at most 0.10)")
        speed[2]["passed"] = False
        self.assertEqual(self.driver.verdict.check_figures(self.driver.verdict.deciding_check(speed)),
                         "k/copy: 99.20% (at least 90.00%)")
        self.assertEqual(self.driver.verdict.deciding_check([]), {})

    def test_a_graders_own_exception_is_an_error_not_a_wrong_result(self):
        message = "grader error: profile: the work launched no kernel"
        outcome = self.driver.verdict.classify(1, "", self.results(
            {"name": "sums", "verdict": "pass", "failures": [], "speed": []},
            {"name": "speed", "verdict": "fail", "failures": [message], "speed": []}), False, None)
        self.assertEqual((outcome.verdict, outcome.correctness, outcome.reason), ("error", "unknown", message))
        self.assertFalse(outcome.passed)

    def test_timeouts(self):
        record = self.results({"name": "sums", "verdict": "unfinished", "failures": [], "speed": []},
                              status="timeout", exit_code=124)
        record["reason"] = "timeout: still running after 60 s; ..."
        watchdog = self.driver.verdict.classify(124, "", record, False, 60)
        self.assertEqual((watchdog.verdict, watchdog.correctness), ("timeout", "fail"))
        self.assertTrue(watchdog.reason.startswith("timeout: still running after 60 s"))
        killed = self.driver.verdict.classify(None, "", None, True, 60)
        self.assertEqual(killed.verdict, "timeout")
        self.assertIn("60 s", killed.reason)
        # A kernel the simulator's instruction budget stopped is a hang too, not a crash.
        budget = ("CUDA error cudaErrorLaunchTimeout (the launch timed out and was terminated) ...: kernel k "
                  "exceeded the instruction budget of 5000000000 warp instructions")
        stopped = self.driver.verdict.classify(1, "", self.results(
            {"name": "sums", "verdict": "fail", "failures": [budget], "speed": []}), False, 60)
        self.assertEqual((stopped.verdict, stopped.correctness, stopped.reason), ("timeout", "fail", budget))

    def test_skipped_is_not_a_pass(self):
        record = {"status": "skipped", "reason": "no CUDA device is available", "exit_code": 77, "cases": []}
        outcome = self.driver.verdict.classify(77, "", record, False, None)
        self.assertEqual((outcome.verdict, outcome.correctness), ("skipped", "unknown"))
        self.assertFalse(outcome.passed)
        self.assertEqual(outcome.reason, "no CUDA device is available")
        self.assertIn("cannot grade here", self.driver.student.describe(outcome))
        self.assertIn("not a pass", self.driver.student.describe(outcome))
        # Exit code 77 without the grader's own record of a skip is not a skip either.
        self.assertEqual(self.driver.verdict.classify(77, "SKIPPED: no GPU\n", None, False, None).verdict, "error")

    def test_a_bad_thresholds_file_stops_at_once(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json") as bad:
            bad.write("{not json")
            bad.flush()
            result = run_course("grade", "03", "--thresholds", bad.name)
        self.assertEqual(result.returncode, 2)
        self.assertIn("not valid JSON", result.stdout)
        self.assertEqual(run_course("grade", "03", "--thresholds", "/nonexistent.json").returncode, 2)


if __name__ == "__main__":
    unittest.main()


class RunBackend(unittest.TestCase):
    """./course run chooses the GPU or the CPU simulator, and says which in its first line."""

    def test_sim_and_gpu_exclude_each_other(self):
        result = run_course("run", "03", "--sim", "--gpu")
        self.assertEqual(result.returncode, 2)
        self.assertIn("--sim and --gpu exclude each other", result.stdout)

    def test_first_line_names_the_simulator_when_asked(self):
        driver = load_driver()
        calls = []
        driver.environment.ensure_environment = lambda verbose: None
        driver.building.build = lambda targets=None: calls.append(("build", targets))
        def fake_run(command, **kwargs):
            calls.append(("run", command))
            return subprocess.CompletedProcess(command, 0)
        driver.common.run = fake_run
        said = []
        driver.common.say = said.append
        saved = {name: os.environ.pop(name, None) for name in ("COURSE_PRESET", "COURSE_BUILD_DIR")}
        try:
            self.assertEqual(driver.cli.main(["run", "03", "--sim", "--n", "64"]), 0)
            self.assertEqual(os.environ.get("COURSE_PRESET"), "sim")
        finally:
            for name, value in saved.items():
                os.environ.pop(name, None)
                if value is not None:
                    os.environ[name] = value
        self.assertTrue(said[0].startswith("lesson 03 on the CPU simulator (build/sim)"), said)
        self.assertEqual(calls[0], ("build", ["lesson03_demo", "lesson03_exercise_modules"]))
        self.assertEqual(calls[1][1][0], str(driver.common.ROOT / "build" / "sim" / "lessons" / "lesson03_demo"))
        self.assertEqual(calls[1][1][1:], ["--n", "64"])

    def test_grade_uses_the_simulator_without_a_gpu_and_says_so_first(self):
        driver = load_driver()
        driver.environment.ensure_environment = lambda verbose: None
        driver.environment.has_gpu = lambda: False
        graded = []

        def grade_lesson(lesson, **kwargs):
            graded.append((lesson.number, os.environ.get("COURSE_PRESET"), driver.building.build_dir()))
            return driver.verdict.Outcome("pass")

        driver.student.grade_lesson = grade_lesson
        said = []
        driver.common.say = said.append
        saved = {name: os.environ.pop(name, None) for name in ("COURSE_PRESET", "COURSE_BUILD_DIR")}
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(driver.cli.main(["grade", "03"]), 0)
            self.assertTrue(said[0].startswith("grading on the CPU simulator (build/sim)"), said)
            self.assertEqual(graded, [("03", "sim", driver.common.ROOT / "build" / "sim")])
            # --gpu insists on the GPU build even here (its graders then report skipped)
            os.environ.pop("COURSE_PRESET", None)
            said.clear()
            with contextlib.redirect_stdout(io.StringIO()):
                driver.cli.main(["grade", "03", "--gpu"])
            self.assertTrue(said[0].startswith("grading on the GPU (build/ci)"), said)
        finally:
            for name, value in saved.items():
                os.environ.pop(name, None)
                if value is not None:
                    os.environ[name] = value


class ProfileAndSanitize(unittest.TestCase):
    """./course profile and ./course sanitize: bad values exit 2 with one line; a missing tool or GPU
    is said, with what to do, before anything is built."""

    def one_line(self, result, code: int, text: str) -> None:
        self.assertEqual(result.returncode, code, result.stdout)
        lines = result.stdout.strip().splitlines()
        self.assertEqual(len(lines), 1, result.stdout)
        self.assertIn(text, lines[0])

    def test_bad_values(self):
        self.one_line(run_course("profile", "99"), 2, "no lesson '99'")
        self.one_line(run_course("sanitize", "99"), 2, "no lesson '99'")
        self.one_line(run_course("profile"), 2, "usage: ./course profile NN")
        self.one_line(run_course("profile", "03", "--frob"), 2, "unexpected: --frob")
        self.one_line(run_course("sanitize", "03", "--tool", "bogus"), 2,
                      "--tool bogus: not a compute-sanitizer tool; choose one of memcheck, racecheck")

    def test_missing_tools_are_named(self):
        # No NVIDIA tool on PATH and no toolkit where CUDA_PATH points.
        env = {"PATH": "/usr/bin:/bin", "CUDA_PATH": "/nonexistent"}
        if shutil.which("ncu", path="/usr/bin:/bin") is None:
            self.one_line(run_course("profile", "03", env=env), 1, "ncu (Nsight Compute) is not installed")
        if shutil.which("compute-sanitizer", path="/usr/bin:/bin") is None:
            self.one_line(run_course("sanitize", "03", "--gpu", env=env), 1, "compute-sanitizer is not installed")

    @unittest.skipIf(load_driver().environment.has_gpu(), "this machine has a GPU")
    def test_no_gpu_is_said(self):
        with tempfile.TemporaryDirectory() as tools:
            # Stand-ins for the tools, found on PATH; nvidia-smi is not there.
            for name in ("ncu", "compute-sanitizer"):
                (Path(tools) / name).write_text("#!/bin/sh\nexit 0\n")
                (Path(tools) / name).chmod(0o755)
            env = {"PATH": f"{tools}:/usr/bin:/bin"}
            self.one_line(run_course("profile", "03", env=env), 1, "profiling needs an NVIDIA GPU")
            self.one_line(run_course("sanitize", "03", "--gpu", env=env), 1, "compute-sanitizer needs an NVIDIA GPU")

    def test_profile_table_from_ncu_csv(self):
        driver = load_driver()
        metrics = [metric for metric, _ in driver.nvidia_tools.PROFILE_METRICS]
        header = ",".join(f'"{h}"' for h in ["ID", "Kernel Name", *metrics])
        units = ",".join(f'"{u}"' for u in ["", "", "inst", "%", "%", "byte/second", "", "", "%", "%"])
        kernel = "lesson03::<unnamed>::reduce_neighbored(int *, int *, unsigned long)"
        row = ",".join(f'"{v}"' for v in ["0", kernel, "311.9", "63.2", "50.0", "1,234,000,000,000", "0", "0", "88.5",
                                          "12.5"])
        table = driver.nvidia_tools.profile_table("==PROF== Connected\n" + "\n".join([header, units, row]))
        self.assertEqual(table, [["reduce_neighbored", "311.9", "63.2", "50.0", "1234.0", "0.0", "0.0", "88.5",
                                  "12.5"]])


class TraceDrawing(unittest.TestCase):
    """./course trace: a warp's trace as an SVG (the simulator writes the table, tested in CTest)."""

    def test_executed_and_predicated_off_lanes_are_drawn_differently(self):
        driver = load_driver()
        rows = [["0", "26", "ld", "ffffffff", "ffffffff", "ld.param.u64 %rd8, [p];"],
                ["1", "68", "ld", "00010001", "00010001", "ld.global.u32 %r11, [%rd5];"],
                ["2", "44", "bra", "ffffffff", "00000000", "@%p1 bra $L__BB0_5;"]]
        svg = driver.demos.trace_svg(rows, "kernel k, block 0, warp 1")
        self.assertEqual(svg.count('fill="#1f4e99"'), 32 + 2)  # executed: all of row 0, lanes 0 and 16
        self.assertEqual(svg.count('fill="#c9d8f0"'), 32)      # on the path, guard false: row 2
        self.assertIn("L68", svg)
        self.assertIn("@%p1 bra $L__BB0_5;", svg)

    def test_a_long_title_fits(self):
        title = "reduce_neighbored (lessons/03_neighbored_reduction), block 0 of 4096, warp 1 of 16, n = 2^20: 153"
        svg = load_driver().demos.trace_svg([["0", "26", "ld", "ffffffff", "ffffffff", "ld.param.u64 %rd8, [p];"]],
                                            title)
        width = int(svg.split('width="', 1)[1].split('"', 1)[0])
        self.assertGreaterEqual(width, 10 + 0.6 * 12 * len(title))  # a bold monospace character: 0.6 em


def one_line(test: unittest.TestCase, result: subprocess.CompletedProcess, code: int, text: str) -> None:
    """The command ended with `code` and said one line containing `text` (no traceback)."""
    test.assertEqual(result.returncode, code, result.stdout)
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    test.assertEqual(len(lines), 1, result.stdout)
    test.assertIn(text, lines[0])


class BadInput(unittest.TestCase):
    """Each bad input gets one line and exit code 2, never a traceback (no build needed)."""

    def test_every_command_has_help(self):
        driver = load_driver()
        for command in [c for c in driver.cli.COMMANDS if c != "help"]:  # help --help: the whole overview
            for flag in ("--help", "-h"):
                with self.subTest(command=command, flag=flag):
                    result = run_course(command, flag)
                    self.assertEqual(result.returncode, 0, result.stdout)
                    self.assertTrue(result.stdout.startswith("usage: ./course"), result.stdout)
                    self.assertNotIn("Traceback", result.stdout)
        # After a lesson, run hands --help to the demo (its options); the others still answer.
        for args in (("trace", "03", "--kernel", "k", "--help"), ("profile", "03", "--help"),
                     ("grade", "03", "--help"), ("release", "somewhere", "--help")):
            with self.subTest(args=args):
                result = run_course(*args)
                self.assertEqual(result.returncode, 0, result.stdout)
                self.assertIn(f"usage: ./course {args[0]}", result.stdout)

    def test_help_lists_the_options(self):
        result = run_course("grade", "--help")
        self.assertEqual(result.returncode, 0, result.stdout)
        for option in ("--seed N", "--thresholds FILE", "--sim", "--submissions DIR", "--jobs N", "--timeout S"):
            self.assertIn(option, result.stdout)
        self.assertIn("demo options", run_course("trace", "--help").stdout)

    def test_a_bad_command_line_is_one_line(self):
        # One line and exit code 2, never argparse's usage-and-error pair; no abbreviated long options.
        for args, text in ((("hint", "03", "--al"), "usage: ./course hint NN [--all | --reset]"),
                           (("grade", "03", "--jobs", "2"), "usage: ./course grade [NN ...]"),
                           (("grade", "--submissions", ".", "03"), "usage: ./course grade --submissions DIR"),
                           (("status", "now"), "usage: ./course status (takes no arguments)"),
                           (("release",), "usage: ./course release DIR"),
                           (("run", "--n", "64"), "usage: ./course run NN"),
                           # refused before anything is built: the demo's options are its parser's
                           (("run", "03", "--nn", "64"), "--nn: not an option of ./course run or of the demo"),
                           (("trace", "03", "--kernel", "k", "--bogus=1"), "--bogus: not an option"),
                           (("trace", "03", "--kernel"), "--kernel needs a value"),
                           (("watch", "--thresholds"), "--thresholds needs a value"),
                           (("docs", "--with-solution"), "usage: ./course docs [--with-solutions]"),
                           (("frobnicate",), "unknown command 'frobnicate'; the commands are: run, trace")):
            with self.subTest(args=args):
                one_line(self, run_course(*args), 2, text)

    def test_release_into_a_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            target = Path(tmp) / "afile"
            target.write_text("keep me")
            one_line(self, run_course("release", str(target)), 2, "exists and is not a folder")
            self.assertEqual(target.read_text(), "keep me")

    def test_batch_out_or_work_that_is_a_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            (tmp / "class").mkdir()
            (tmp / "afile").write_text("keep me")
            for option in ("--out", "--work"):
                with self.subTest(option=option):
                    result = run_course("grade", "--submissions", str(tmp / "class"), option, str(tmp / "afile"))
                    one_line(self, result, 2, f"{option} {tmp / 'afile'}: exists and is not a folder")
            self.assertEqual((tmp / "afile").read_text(), "keep me")

    def test_seeds_beyond_64_bits(self):
        one_line(self, run_course("grade", "03", "--seed", "99999999999999999999"), 2,
                 "--seed must be a whole number from 0 to 18446744073709551615")
        one_line(self, run_course("watch", "03", "--seed", "-1"), 2, "--seed must be a whole number")
        one_line(self, run_course("grade", "--submissions", ".", "--seed", "18446744073709551616"), 2,
                 "--seed must be a whole number from 0")

    def test_trace_reps_zero(self):
        one_line(self, run_course("trace", "03", "--kernel", "neighbored", "--reps", "0"), 2,
                 "--reps must be a whole number from 1 to 1000, not '0'")

    def test_a_damaged_state_file_stops_and_is_kept(self):
        cases = {
            "not JSON": "{not json",
            "a list": "[1, 2]",
            "hints of the wrong type": json.dumps({"hints": ["03"], "lessons": {}}),
            "a hint count that is text": json.dumps({"hints": {"03": "two"}}),
            "a lesson that is not an object": json.dumps({"lessons": {"03": "pass"}}),
            "a seed that is text": json.dumps({"lessons": {"03": {"verdict": "pass", "seed": "x"}}}),
        }
        for name, text in cases.items():
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp:
                (Path(tmp) / "state.json").write_text(text)
                env = {"COURSE_STATE_DIR": tmp}
                for args in (("status",), ("hint", "03"), ("hint", "03", "--reset")):
                    result = run_course(*args, env=env)
                    one_line(self, result, 2, "state.json is damaged")
                    self.assertIn("it holds your progress", result.stdout)
                self.assertEqual((Path(tmp) / "state.json").read_text(), text)

    def test_docs_with_a_build_tree_outside_the_course(self):
        driver = load_driver()
        driver.environment.ensure_environment = lambda verbose: None
        built = []
        driver.building.build = lambda targets=None: built.append(targets)
        said = []
        driver.common.say = said.append
        with tempfile.TemporaryDirectory() as tmp, mock_env(COURSE_BUILD_DIR=tmp):
            self.assertEqual(driver.cli.main(["docs"]), 0)
            self.assertEqual(said, [f"documentation: {tmp}/docs/html/index.html"])
            said.clear()
            if (driver.common.ROOT / "solutions").is_dir():
                self.assertEqual(driver.cli.main(["docs", "--with-solutions"]), 0)
                self.assertEqual(said, [f"documentation with the reference solutions: "
                                        f"{tmp}/docs/with-solutions/html/index.html"])
        self.assertEqual(built[0], ["docs"])

    def test_doctor_without_a_gpu_describes_the_simulator(self):
        driver = load_driver()
        driver.environment.has_gpu = lambda: False
        rows, _ = driver.environment.check_environment()
        gpu = next(detail for what, _, detail in rows if what == "NVIDIA GPU")
        self.assertIn("CPU simulator", gpu)
        self.assertNotIn("cannot run", gpu)
        output = io.StringIO()
        driver.environment.ensure_environment = lambda verbose: None
        with mock_env(COURSE_PRESET=None, COURSE_BUILD_DIR=None), contextlib.redirect_stdout(output):
            self.assertEqual(driver.cli.main(["doctor"]), 0)
        self.assertIn("build/sim", output.getvalue())

    def test_a_build_that_fails_outside_the_students_files_is_the_courses(self):
        # The course's grader does not build (a build tree deleted while it was used, a missing
        # tool): an error of the course's, never a compile error of the student's.
        driver = load_driver()
        driver.building.build_quietly = lambda targets, label=None: (
            False, "CMake Error in lessons/CMakeLists.txt:\n  No such file or directory\n")
        with tempfile.TemporaryDirectory() as tmp, mock_env(COURSE_STATE_DIR=tmp):
            driver.building.build_dir = lambda: Path(tmp)  # grading clears the tree's modules first
            outcome = driver.student.grade_lesson(driver.lessons.find_lesson("03"))
        self.assertEqual(outcome.verdict, "error")
        self.assertIn("the course's build failed, not your code", outcome.reason)

    def test_a_speed_figure_only_beside_right_results(self):
        driver = load_driver()
        lesson = driver.lessons.find_lesson("03")
        check = {"check": "reduce_neighbored_less", "ratio": 1.9, "threshold": 1.4, "kind": "speedup"}
        record = {"student": "ann", "lesson": "03", "verdict": "fail", "correctness": "fail", "ratio": 1.9,
                  "threshold": 1.4, "deciding_check": check, "speed_checks": [check], "messages": ["wrong result: x"],
                  "reason": "wrong result: x", "seed": 1, "check": "reduce_neighbored_less", "log": None,
                  "submitted": True, "threshold_source": "grader", "sanitizer": ""}
        meta = {"course": "x", "started": "a", "finished": "b", "seed": 1, "timeout_s": 60, "thresholds_file": None,
                "device": "d"}
        with tempfile.TemporaryDirectory() as tmp:
            driver.reports.write_reports(Path(tmp), meta, [record, dict(record, student="bob", correctness="pass")],
                                         [lesson], ["ann", "bob"])
            summary = (Path(tmp) / "summary.md").read_text()
        self.assertIn("| ann | fail |", summary)
        self.assertIn("| bob | fail (reduce_neighbored_less: 1.90x", summary)

    def test_the_slowest_tests_from_ctests_report(self):
        driver = load_driver()
        with tempfile.TemporaryDirectory() as tmp:
            report = Path(tmp) / "ctest.xml"
            report.write_text('<testsuite><testcase name="a" time="3.5"/><testcase name="b" time="10.25"/>'
                              '<testcase name="c"/></testsuite>')
            self.assertEqual(driver.selfcheck.slowest_tests(report, 2), [(10.25, "b"), (3.5, "a")])
            self.assertEqual(driver.selfcheck.slowest_tests(Path(tmp) / "missing.xml"), [])

    @staticmethod
    def timed_stand_ins(driver, events: list[str], first_tree: str) -> None:
        """./course test's builds and CTest runs replaced by stand-ins that take a while and write
        down when each starts and ends (the simulator's tree's ctest prints a passing summary)."""
        driver.environment.ensure_environment = lambda verbose: None
        driver.docs.docs = lambda with_solutions: 0

        def build_tree_quietly(tree, configure, build_targets, label=None):
            events.append(f"simulator build starts: {' '.join(build_targets)}")
            time.sleep(0.3)
            events.append("simulator build ends")
            return True, ""

        def run_ctest(tree, arguments, out=None, prefix=None):
            events.append(f"ctest {tree.name} starts: {' '.join([*(prefix or []), *arguments])}")
            time.sleep(0.6 if tree.name != "sim" else 0)
            if out is not None:
                print("100% tests passed, 0 tests failed out of 3", file=out)
            events.append(f"ctest {tree.name} ends")
            return 0

        driver.building.build_tree_quietly = build_tree_quietly
        driver.selfcheck.run_ctest = run_ctest
        driver.building.build_dir = lambda: Path("build") / first_tree
        driver.building.preset = lambda: first_tree

    def test_with_a_gpu_the_simulators_tree_builds_and_tests_beside_the_gpu_tests(self):
        driver = load_driver()
        events = []
        self.timed_stand_ins(driver, events, "gpu")
        driver.environment.has_gpu = lambda: True
        driver.environment.gpu_parallel_jobs = lambda: 6

        def build():
            events.append("gpu tree build starts")
            time.sleep(0.3)
            events.append("gpu tree built")

        driver.building.build = build
        with tempfile.TemporaryDirectory() as tmp:
            driver.selfcheck.SIMULATOR_TREE = Path(tmp) / "sim"
            said = io.StringIO()
            with contextlib.redirect_stdout(said):
                self.assertEqual(driver.selfcheck.test(), 0)
        # The simulator's tree builds beside the GPU's from the start; the GPU's tests follow its build.
        simulator_build = "simulator build starts: nice -n 19 cmake --build --preset sim"
        gpu_tests = "ctest gpu starts: --preset gpu --label-exclude ^exercise$ --parallel 6"
        self.assertLess(events.index(simulator_build), events.index("gpu tree built"), events)
        self.assertLess(events.index("gpu tree built"), events.index(gpu_tests), events)
        # The simulator's tests run beside the GPU's, at the lowest priority, once its tree is built.
        sim_start = next(e for e in events if e.startswith("ctest sim starts"))
        self.assertTrue(sim_start.startswith("ctest sim starts: nice -n 19 --preset sim"), sim_start)
        self.assertLess(events.index("simulator build ends"), events.index(sim_start), events)
        self.assertLess(events.index(sim_start), events.index("ctest gpu ends"), events)
        self.assertIn("100% tests passed, 0 tests failed out of 3", said.getvalue())

    def test_without_a_gpu_the_simulators_tree_builds_beside_the_first_trees_tests(self):
        driver = load_driver()
        events = []
        self.timed_stand_ins(driver, events, "ci")
        driver.environment.has_gpu = lambda: False
        driver.building.build = lambda: events.append("first tree built")
        with tempfile.TemporaryDirectory() as tmp:
            driver.selfcheck.SIMULATOR_TREE = Path(tmp) / "sim"
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(driver.selfcheck.test(), 0)
        jobs = max(os.cpu_count() or 1, 2)
        first_tests = f"ctest ci starts: --preset ci --label-exclude ^exercise$ --parallel {jobs}"
        simulator_build = "simulator build starts: nice -n 19 cmake --build --preset sim"
        # The simulator's tree builds once the first is built, at the lowest priority, beside its tests...
        self.assertLess(events.index("first tree built"), events.index(simulator_build), events)
        self.assertLess(events.index(simulator_build), events.index("ctest ci ends"), events)
        self.assertLess(events.index(first_tests), events.index("simulator build ends"), events)
        # ... and its tests run after both, in the foreground.
        sim_tests = "ctest sim starts: " + " ".join(driver.selfcheck.simulator_ctest_arguments())
        self.assertGreater(events.index(sim_tests), events.index("ctest ci ends"), events)
        self.assertGreater(events.index(sim_tests), events.index("simulator build ends"), events)

    def test_a_progress_line_while_ctest_runs(self):
        # A stand-in for ctest: two tests start, one finishes, the other runs on for a while.
        driver = load_driver()
        script = ("import time\n"
                  "print('      Start  7: unit:quick', flush=True)\n"
                  "print('      Start  9: lesson05.solution/slow', flush=True)\n"
                  "print('1/2 Test  #7: unit:quick .......   Passed    0.01 sec', flush=True)\n"
                  "time.sleep(1.5)\n"
                  "print('2/2 Test  #9: lesson05.solution/slow ...   Passed    1.50 sec', flush=True)\n")
        out = io.StringIO()
        code = driver.ctest_progress.run_with_progress([shutil.which("python3") or "python3", "-c", script],
                                                       ROOT, out, every=0.5)
        self.assertEqual(code, 0)
        lines = out.getvalue().splitlines()
        self.assertIn("2/2 Test  #9: lesson05.solution/slow ...   Passed    1.50 sec", lines)
        progress = [line for line in lines if line.startswith("course test: ")]
        self.assertTrue(progress, out.getvalue())
        self.assertRegex(progress[0], r"^course test: 1 of 2 tests done, \d+ s; running longest: "
                                      r"lesson05\.solution/slow \(\d+ s\)$")

    def test_two_builds_in_one_tree_take_turns(self):
        # Two commands that build in one tree at once (threads here, processes in use): the second
        # configure-and-build starts when the first has ended, and a build that waits says so.
        driver = load_driver()
        spans, lock = [], threading.Lock()

        def run_logged(command, log, label=None):
            started = time.monotonic()
            time.sleep(0.3)
            with lock:
                spans.append((started, time.monotonic()))
            return 0, ""

        driver.building.run_logged = run_logged
        driver.building.forget_stale_configuration = lambda tree: None
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp) / "tree"
            build = driver.building.build_tree_quietly
            threads = [threading.Thread(target=build, args=(tree, ["configure"], ["build"])) for _ in range(2)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            (first_start, first_end), (second_start, _) = sorted(spans)
            self.assertGreaterEqual(second_start, first_end, spans)
            # A build while another course command holds the tree waits, and says why.
            with open(tree / ".course-build.lock", "a") as held:
                fcntl.flock(held, fcntl.LOCK_EX)
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    waiting = threading.Thread(target=driver.building.build_tree,
                                               args=(tree, ["configure"], ["build"], "the tree"))
                    waiting.start()
                    time.sleep(0.5)
                    self.assertTrue(waiting.is_alive())
                    fcntl.flock(held, fcntl.LOCK_UN)
                    waiting.join()
            self.assertIn(f"waiting for another course command that builds in {tree}", out.getvalue())

    def test_the_readme_names_where_grading_logs_are(self):
        driver = load_driver()
        readme = (ROOT / "README.md").read_text()
        self.assertNotIn("build/<preset>/grades", readme)
        self.assertIn(".course/logs/lessonNN.log", readme)
        # and that is where grade_lesson writes them
        driver.building.build_quietly = lambda targets, label=None: (
            (True, "") if targets[0].endswith("_grader")
            else (False, "exercises/03_neighbored_reduction/kernel.cu(3): error: expected a ';'\n"))
        with tempfile.TemporaryDirectory() as tmp, mock_env(COURSE_STATE_DIR=tmp):
            driver.building.build_dir = lambda: Path(tmp)  # grading clears the tree's modules first
            outcome = driver.student.grade_lesson(driver.lessons.find_lesson("03"))
            self.assertEqual(outcome.verdict, "compile error")
            self.assertIn("expected a ';'", (Path(tmp) / "logs" / "lesson03.log").read_text())


def thresholds_file(folder: str, content) -> str:
    path = Path(folder) / "thresholds.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


@unittest.skipUnless(build_dir(), "needs the configured build tree (COURSE_BUILD_DIR, set by CTest)")
class ThresholdOverrides(unittest.TestCase):
    """A thresholds file is checked against the graders' own check lists before anything is graded:
    one line and exit code 2 for a check a grader does not have on that back end, or a bad value."""

    def refused(self, content, text: str, *command: str) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = thresholds_file(tmp, content)
            for args in (command or (("grade", "03"), ("watch", "03", "--once"))):
                result = run_course(*args, "--thresholds", path, timeout=1200,
                                    env={"COURSE_STATE_DIR": tmp})
                with self.subTest(args=args, text=text):
                    self.assertEqual(result.returncode, 2, result.stdout)
                    lines = [line for line in result.stdout.splitlines() if line.startswith("course: ")]
                    self.assertIn(text, lines[-1])
                    self.assertNotIn("Traceback", result.stdout)
                    self.assertNotIn("lesson 03 neighbored-pair reduction:", result.stdout)  # nothing was graded
                    self.assertFalse((Path(tmp) / "state.json").exists())

    def test_an_unknown_check(self):
        self.refused({"03": {"gpu": {"reduce_neighbored_lss": 1.2}}},
                     "lesson 03 has no gpu check 'reduce_neighbored_lss'; its gpu checks: reduce_neighbored_less")

    def test_a_check_of_another_lesson_or_no_lesson(self):
        self.refused({"04": {"sim": {"reduce_neighbored_less": 1.2}}}, "lesson 04 has no sim check "
                     "'reduce_neighbored_less'; its sim checks: reduce_interleaved/reduce_neighbored, ")
        self.refused({"98": {"gpu": {"k": 1.2}}}, "'98' does not name a lesson of the course")

    def test_the_wrong_back_end(self):
        self.refused({"04": {"gpu": {"reduce_shared_interleaved/bank_conflicts": 0.2}}},
                     "lesson 04 has no gpu check 'reduce_shared_interleaved/bank_conflicts' (it is a sim check)")
        self.refused({"03": {"reduce_neighbored_less": 1.2}},
                     "'reduce_neighbored_less' is not a back end; name \"gpu\" or \"sim\" first")
        self.refused({"04": {"*": 1.3}}, "'*' is not a back end")
        self.refused({"04": {"sim": {"*": 1.3}}}, "'*' is not accepted")

    def test_bad_values(self):
        for value in ("fast", 0, -1.5, None, [1.2]):
            self.refused({"03": {"gpu": {"reduce_neighbored_less": value}}}, "must be a positive number",
                         ("grade", "03"))
        self.refused("{not json", "is not valid JSON", ("grade", "03"))
        self.refused("[1]", "must hold an object", ("grade", "03"))

    def test_batch_grading_checks_the_file_before_grading(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "class" / "ann" / "03_neighbored_reduction").mkdir(parents=True)
            self.refused({"03": {"sim": {"reduce_neighbored": 1.2}}}, "lesson 03 has no sim check 'reduce_neighbored'",
                         ("grade", "--submissions", str(Path(tmp) / "class"), "--out", str(Path(tmp) / "out"),
                          "--gpu"))
            self.assertFalse((Path(tmp) / "out" / "results.json").exists())

    def test_every_grader_lists_its_checks_without_a_device(self):
        driver = load_driver()
        for lesson in driver.lessons.all_lessons():
            grader = build_dir() / "lessons" / f"{lesson.target}_grader"
            if not grader.exists():
                continue
            with self.subTest(lesson=lesson.number):
                result = subprocess.run([str(grader), "--list-checks"], capture_output=True, text=True)
                self.assertEqual(result.returncode, 0, result.stderr)
                rows = [line.split() for line in result.stdout.splitlines()[2:]]
                self.assertTrue(any(row[0] == "gpu" for row in rows), result.stdout)
                self.assertTrue(any(row[0] == "sim" for row in rows), result.stdout)
                for row in rows:
                    self.assertIn(row[2], (">=", "<="), row)
                names = [(row[0], row[1]) for row in rows]
                self.assertEqual(len(names), len(set(names)), "a check name twice on one back end")

    def test_a_file_that_fits(self):
        # Entries for both back ends of lesson 03: accepted by its grader's list (nothing graded here).
        driver = load_driver()
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(thresholds_file(tmp, {"_comment": "x", "lesson03": {
                "gpu": {"reduce_neighbored_less": 1.25}, "sim": {"reduce_neighbored_less": 1.6}}}))
            with mock_env(COURSE_BUILD_DIR=str(build_dir())):
                driver.thresholds.check_thresholds(path)  # does not exit


class OverridesReport(unittest.TestCase):
    """Which overrides applied, as ./course grade prints it and a class's reports list it."""

    def test_grade_says_which_applied(self):
        driver = load_driver()
        record = {"status": "finished", "exit_code": 1, "backend": "sim", "cases": [
            {"name": "speed", "verdict": "fail", "failures": ["too slow: k ..."],
             "speed": [{"check": "k", "ratio": 1.1, "threshold": 1.6, "threshold_source": "/t/th.json",
                        "backend": "sim"}]}],
            "threshold_overrides": [
                {"check": "k", "backend": "sim", "threshold": 1.6, "default_threshold": 1.5, "applied": True},
                {"check": "k", "backend": "gpu", "threshold": 1.2, "default_threshold": 1.4, "applied": False}]}
        outcome = driver.verdict.classify(1, "", record, False, None)
        text = driver.thresholds.describe_overrides(outcome, Path("/t/th.json"))
        self.assertEqual(text, "thresholds from th.json: k (sim) 1.6 instead of 1.5: applied; "
                               "k (gpu) 1.2 instead of 1.4: not applied (graded on the simulator)")

    def test_the_class_reports_list_them(self):
        driver = load_driver()
        records = [{"student": s, "lesson": "03", "verdict": "pass", "ratio": 2.0, "threshold": 1.6,
                    "reason": "", "messages": [], "log": None,
                    "threshold_overrides": [
                        {"check": "k", "backend": "sim", "threshold": 1.6, "default_threshold": 1.5,
                         "applied": applied},
                        {"check": "k", "backend": "gpu", "threshold": 1.2, "default_threshold": 1.4,
                         "applied": False}]} for s, applied in (("ann", True), ("bob", False))]
        applied = driver.reports.applied_overrides(records, "sim")
        self.assertEqual([(a["backend"], a["applied"], a["graded"]) for a in applied], [("gpu", 0, 2), ("sim", 1, 2)])
        meta = {"course": "x", "started": "a", "finished": "b", "seed": 1, "timeout_s": 60,
                "thresholds_file": "/t/th.json", "device": "d", "thresholds_applied": applied}
        with tempfile.TemporaryDirectory() as tmp:
            driver.reports.write_reports(Path(tmp), meta, records, [driver.lessons.find_lesson("03")], ["ann", "bob"])
            summary = (Path(tmp) / "summary.md").read_text()
        self.assertIn("## Threshold overrides", summary)
        self.assertIn("- lesson 03, `k` (sim): 1.6 instead of 1.5: applied in 1 of 2 gradings", summary)
        self.assertIn("- lesson 03, `k` (gpu): 1.2 instead of 1.4: not applied (graded on the other back end)",
                      summary)
