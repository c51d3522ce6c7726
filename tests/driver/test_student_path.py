"""A student's edits never break the course: lesson 03 solved in more lines than the starter has,
then made endless, then its file deleted, then replaced by a folder, graded and run as a student
does (./course grade, ./course run) in a simulator build tree, with lesson 07 still building and
grading beside it; and lesson 06 solved with a helper the compiler warns about. The student's
exercises are a copy (COURSE_EXERCISES_DIR), never the course's own exercises/."""

from __future__ import annotations

import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from support import ROOT, load_driver, run_course, simulator_tree, solved03

LESSON03 = "03_neighbored_reduction"
FILE03 = "reduce_neighbored_less.cu"


@unittest.skipUnless(simulator_tree(), "needs a configured simulator tree (COURSE_BUILD_DIR, preset sim)")
class StudentPath(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        work = Path(self.tmp.name)
        self.exercises = work / "exercises"
        driver = load_driver()
        for lesson in driver.lessons.all_lessons():
            for name, content in (driver.lessons.starter_files(lesson) or {}).items():
                (self.exercises / lesson.folder / name).parent.mkdir(parents=True, exist_ok=True)
                (self.exercises / lesson.folder / name).write_bytes(content)
        self.env = {"COURSE_EXERCISES_DIR": str(self.exercises), "COURSE_STATE_DIR": str(work / "state"),
                    "COURSE_BUILD_DIR": str(simulator_tree()), "COURSE_PRESET": ""}
        self.file03 = self.exercises / LESSON03 / FILE03

    def tearDown(self):
        self.tmp.cleanup()

    def starter(self) -> str:
        driver = load_driver()
        return driver.lessons.starter_files(driver.lessons.find_lesson("03"))[FILE03].decode()

    def grade(self, *lessons: str) -> tuple[int, str]:
        result = run_course("grade", *lessons, env=self.env, timeout=900)
        return result.returncode, result.stdout

    def test_a_longer_solution_a_deleted_file_and_a_folder(self):
        starter = self.file03.read_text()
        self.file03.write_text(solved03(starter))
        self.assertEqual(len(self.file03.read_text().splitlines()), len(starter.splitlines()) + 4)

        code, output = self.grade("03")
        self.assertEqual(code, 0, output)
        self.assertRegex(output, r"lesson 03 [^\n]*: PASS")

        # A kernel that never ends: the demo's watchdog stops it, as the grader's stops it (while the
        # file is still a file, so that only its module is built again).
        self.file03.write_text(self.starter().replace("stride *= 2", "stride *= 1"))
        hung = run_course("run", "03", "--n", "2^12", env={**self.env, "COURSE_DEMO_TIMEOUT": "3"})
        self.assertEqual(hung.returncode, 124, hung.stdout)
        self.assertIn("timeout: no kernel finished for 3 s; a kernel that never finishes", hung.stdout)

        os.remove(self.file03)
        code, output = self.grade("03")
        self.assertEqual(code, 1, output)
        self.assertIn(f"ERROR: missing file: {self.file03} (./course reset 03 puts the starter back)", output)
        self.assertNotIn("CMake Error", output)
        run = run_course("run", "03", env=self.env)
        self.assertEqual(run.returncode, 1, run.stdout)
        self.assertIn(f"missing file: {self.file03}", run.stdout)

        self.file03.mkdir()
        code, output = self.grade("03")
        self.assertEqual(code, 1, output)
        self.assertIn(f"ERROR: not a file: {self.file03} is a folder", output)

        # Meanwhile another command of the course configures the tree for the course's own exercises
        # (a GPU grading's simulator pass, say): the next build configures it again for the
        # student's, with the folder in place of lesson 03's file.
        configured = subprocess.run(["cmake", f"-DCOURSE_EXERCISES_DIR={ROOT / 'exercises'}",
                                     str(simulator_tree())], capture_output=True, text=True, timeout=600)
        self.assertEqual(configured.returncode, 0, configured.stdout + configured.stderr)

        # Another lesson builds and is graded as its starter deserves: too slow, no build error.
        code, output = self.grade("07")
        self.assertRegex(output, r"lesson 07 [^\n]*: FAIL: too slow: reduce_unrolled")
        self.assertNotIn("COMPILE ERROR", output)

        # reset moves the folder aside and puts the starter back.
        reset = run_course("reset", "03", env=self.env)
        self.assertEqual(reset.returncode, 0, reset.stdout)
        self.assertNotIn("Traceback", reset.stdout)
        self.assertTrue(self.file03.is_file())
        kept = list((Path(self.env["COURSE_STATE_DIR"]) / "backups").glob(f"*_{LESSON03}/{FILE03}"))
        self.assertEqual(len(kept), 1)
        self.assertTrue(kept[0].is_dir())

    @unittest.skipUnless((ROOT / "solutions").is_dir(), "a student copy has no solutions/")
    def test_a_warning_in_a_host_file_does_not_stop_the_build(self):
        # Lesson 06 solved, with a helper left behind that nothing calls: the compiler warns (the
        # simulator's preset treats the course's own warnings as errors), and the grade is PASS.
        lesson = self.exercises / "06_occupancy"
        for name in ("launch_config.cpp", "occupancy_calculator.cpp"):
            (lesson / name).write_text((ROOT / "solutions" / "06_occupancy" / name).read_text())
        calculator = lesson / "occupancy_calculator.cpp"
        helper = "namespace {\nint left_behind(int threads)\n{\n    return threads / 32;\n}\n}  // namespace\n"
        opening = "namespace lesson06 {\n"
        calculator.write_text(calculator.read_text().replace(opening, opening + helper, 1))
        self.assertIn("left_behind", calculator.read_text())
        code, output = self.grade("06")
        self.assertEqual(code, 0, output)
        self.assertRegex(output, r"lesson 06 [^\n]*: PASS")
        self.assertNotIn("COMPILE ERROR", output)


if __name__ == "__main__":
    unittest.main()
