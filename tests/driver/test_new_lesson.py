"""Adding a lesson by the recipe of docs/adding_a_lesson.md, in a temporary copy of the course.

The lesson in fixtures/new_lesson/ (99_add_one: one kernel, its starter, its reference, one planted
kernel) is put in place as the recipe says: its three folders, its planted kernel, and one line in
lessons/CMakeLists.txt; nothing else of the course changes. The copy is then built for the CPU
simulator, and the lesson must register its tests, pass with its reference, fail with its starter
for its reason, reject its planted kernel, and be listed by the driver.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from support import ROOT

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "new_lesson"
LESSON = "99_add_one"
TARGETS = ["lesson99_grader", "lesson99_demo", "lesson99_exercise_modules", "lesson99_solution_modules",
           "lesson99_planted_last_element_skipped_modules"]


def course_files() -> list[str]:
    """The course as a student or an author has it: git's tracked and untracked, not ignored, files."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True)
    return [n for n in listed.stdout.decode().split("\0") if n and (ROOT / n).is_file()]


def run(command: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    env = dict(os.environ, PATH=os.environ.get("PATH", "") + ":/usr/local/cuda/bin")
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@unittest.skipUnless(shutil.which("nvcc") or Path("/usr/local/cuda/bin/nvcc").exists(), "no CUDA toolkit")
@unittest.skipUnless(shutil.which("git") and (ROOT / ".git").exists(), "not a git checkout")
@unittest.skipUnless((ROOT / "solutions").is_dir(), "a student copy has no reference solutions")
class NewLesson(unittest.TestCase):
    def test_recipe_gives_a_working_lesson(self):
        with tempfile.TemporaryDirectory() as work:
            course = Path(work) / "course"
            for name in course_files():
                if name.startswith("tests/driver/fixtures/new_lesson/"):
                    continue
                (course / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / name, course / name)

            # The recipe: the lesson's folders and planted kernel, and one line in lessons/CMakeLists.txt.
            for folder in ("lessons", "exercises", "solutions", "tests/planted"):
                shutil.copytree(FIXTURE / folder / LESSON, course / folder / LESSON)
            with open(course / "lessons" / "CMakeLists.txt", "a") as cmake_lists:
                cmake_lists.write((FIXTURE / "lessons_line.cmake").read_text())

            configured = run(["cmake", "--preset", "sim"], course, 600)
            self.assertEqual(configured.returncode, 0, configured.stdout + configured.stderr)
            built = run(["cmake", "--build", "--preset", "sim", "--target", *TARGETS], course, 1500)
            self.assertEqual(built.returncode, 0, built.stdout[-4000:] + built.stderr[-4000:])

            tests = run(["ctest", "--preset", "sim", "-N", "-R", r"^lesson99\."], course, 120).stdout
            for name in ("lesson99.solution/", "lesson99.exercise/", "lesson99.starter_fails_as_expected",
                         "lesson99.planted.last_element_skipped"):
                self.assertIn(name, tests)

            # The reference passes, the starter fails for its reason, the planted kernel is rejected.
            ran = run(["ctest", "--preset", "sim", "-R", r"^lesson99\.", "-LE", "^exercise$", "--output-on-failure"],
                      course, 900)
            self.assertEqual(ran.returncode, 0, ran.stdout[-6000:])
            self.assertIn("100% tests passed, 0 tests failed out of 3", ran.stdout)

            status = run([str(course / "course"), "status"], course, 120)
            self.assertIn("99", status.stdout + status.stderr)
            hint = run([str(course / "course"), "hint", "99"], course, 120)
            self.assertEqual(hint.returncode, 0, hint.stdout + hint.stderr)
            self.assertIn("Each thread owns one element", hint.stdout)


if __name__ == "__main__":
    unittest.main()
