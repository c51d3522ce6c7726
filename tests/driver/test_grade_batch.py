"""./course grade --submissions: a class of five made-up students, each graded in isolation.

    correct        the reference solution (made from solutions/ when it is there)
    wrong          a planted kernel with a wrong bound (from tests/planted/ when it is there)
    compile_error  does not compile (tests/driver/fixtures/submissions/)
    hang.tar.gz    never finishes, as a .tar.gz of its folder
    fault.zip      writes far out of bounds, as a .zip of an exercises/ folder

Building needs the CUDA toolkit; the build trees live under COURSE_TEST_WORK so that a second run
only recompiles the students' files. Without a GPU every lesson that builds is reported as
skipped (never as passed), and the compile error as a compile error.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import tarfile
import tempfile
import unittest
import zipfile
from pathlib import Path

from support import ROOT, build_dir, has_gpu, load_driver, run_course

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "submissions"
LESSON = "03_neighbored_reduction"
STUDENT_FILE = "reduce_neighbored_less.cu"


def make_class(folder: Path) -> list[str]:
    """The submissions folder; returns the students' names."""
    names = []
    solution = ROOT / "solutions" / LESSON / STUDENT_FILE
    if solution.exists():
        (folder / "correct" / LESSON).mkdir(parents=True)
        shutil.copy(solution, folder / "correct" / LESSON / STUDENT_FILE)
        names.append("correct")
    planted = ROOT / "tests" / "planted" / LESSON / "wrong_bound.cu"
    if planted.exists():
        (folder / "wrong" / LESSON).mkdir(parents=True)
        shutil.copy(planted, folder / "wrong" / LESSON / STUDENT_FILE)
        names.append("wrong")
    shutil.copytree(FIXTURES / "compile_error", folder / "compile_error")
    with tarfile.open(folder / "hang.tar.gz", "w:gz") as archive:
        archive.add(FIXTURES / "hang", arcname="hang")
    with zipfile.ZipFile(folder / "fault.zip", "w") as archive:
        source = FIXTURES / "fault" / LESSON / STUDENT_FILE
        archive.write(source, f"exercises/{LESSON}/{STUDENT_FILE}")
    return names + ["compile_error", "hang", "fault"]


class Preparing(unittest.TestCase):
    """Unpacking and composing a submission (no build)."""

    def test_archives_are_unpacked_safely_and_missing_files_come_from_the_starter(self):
        driver = load_driver()
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            archive = tmp / "eve.tar.gz"
            with tarfile.open(archive, "w:gz") as tar:
                for name, text in ((f"eve/{LESSON}/{STUDENT_FILE}", b"mine\n"), ("../escape.txt", b"x"),
                                   ("/abs.txt", b"x")):
                    info = tarfile.TarInfo(name)
                    info.size = len(text)
                    tar.addfile(info, io.BytesIO(text))
            submission = driver.Submission("eve", archive)
            driver.prepare(submission, tmp / "work")
            self.assertFalse(submission.problem)
            self.assertFalse((tmp / "escape.txt").exists())
            self.assertFalse(Path("/abs.txt").exists())
            composed = submission.exercises
            self.assertEqual((composed / LESSON / STUDENT_FILE).read_text(), "mine\n")
            self.assertEqual(submission.submitted, {"03": [STUDENT_FILE]})
            # every other lesson keeps its starter, so the build tree configures
            for lesson in driver.lessons():
                self.assertTrue((composed / lesson.folder).is_dir())

    def test_a_broken_archive_is_reported_not_fatal(self):
        driver = load_driver()
        with tempfile.TemporaryDirectory() as tmp:
            bad = Path(tmp) / "mallory.zip"
            bad.write_bytes(b"not a zip")
            submission = driver.Submission("mallory", bad)
            driver.prepare(submission, Path(tmp) / "work")
            self.assertIn("cannot unpack mallory.zip", submission.problem)


@unittest.skipUnless(build_dir(), "needs the configured build tree (COURSE_BUILD_DIR, set by CTest)")
class BatchRun(unittest.TestCase):
    def test_a_class(self):
        work = Path(os.environ.get("COURSE_TEST_WORK") or build_dir() / "driver-tests") / "grading"
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            students = make_class(tmp / "class")
            args = ["grade", "--submissions", str(tmp / "class"), "--out", str(tmp / "out"), "--work", str(work),
                    "--seed", "2024", "--timeout", "60", "--jobs", "1", "--lessons", "03"]
            if not has_gpu():
                args += ["--arch", "90"]  # one architecture is enough to prove it builds
            result = run_course(*args, timeout=1500)
            self.assertEqual(result.returncode, 0, result.stdout)
            report = json.loads((tmp / "out" / "results.json").read_text())
            rows = list(csv.DictReader(open(tmp / "out" / "results.csv")))
            summary = (tmp / "out" / "summary.md").read_text()

        self.assertEqual(report["seed"], 2024)
        self.assertIsNone(report["thresholds_file"])
        by_student = {r["student"]: r for r in report["results"]}
        self.assertEqual(sorted(by_student), sorted(students))
        self.assertEqual(len(rows), len(students))
        self.assertIn("| compile_error | compile error |", summary)

        broken = by_student["compile_error"]
        self.assertEqual((broken["verdict"], broken["correctness"]), ("compile error", "fail"))
        self.assertRegex(broken["reason"], rf"^{LESSON}/{STUDENT_FILE}\(\d+\): error")

        graded = [s for s in students if s != "compile_error"]
        if not has_gpu():
            for student in graded:
                with self.subTest(student=student):
                    self.assertEqual(by_student[student]["verdict"], "skipped")
                    self.assertEqual(by_student[student]["seed"], 2024)
            self.assertNotIn("| pass", summary)
            return
        expected = {"correct": "pass", "wrong": "fail", "hang": "timeout", "fault": "fault"}
        for student in graded:
            with self.subTest(student=student):
                record = by_student[student]
                self.assertEqual(record["verdict"], expected[student], record["reason"])
                self.assertEqual(record["seed"], 2024)
        if "correct" in by_student:
            self.assertEqual(by_student["correct"]["correctness"], "pass")
            self.assertGreaterEqual(by_student["correct"]["ratio"], by_student["correct"]["threshold"])
        if "wrong" in by_student:
            self.assertEqual(by_student["wrong"]["correctness"], "fail")
            self.assertTrue(by_student["wrong"]["reason"].startswith("wrong result:"))


if __name__ == "__main__":
    unittest.main()
