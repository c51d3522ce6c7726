"""Adding a lesson by the recipe of docs/adding_a_lesson.md, in a temporary copy of the course.

`./course dev new 42_throwaway` and nothing else: the lesson of templates/lesson/ (one kernel, its
starter, its reference, one planted kernel) is put in place as the recipe says, its three folders,
its manifest (lesson.json) and its planted kernel, and the README's table is written again. The copy
is then built for the CPU simulator, and the lesson must register its tests, pass with its
reference, fail with its starter for its reason, reject its planted kernel, and be listed by the
driver; `./course dev check` names what it still lacks (more planted kernels, measured figures).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from support import ROOT

LESSON = "42_throwaway"
TARGETS = ["lesson42_grader", "lesson42_demo", "lesson42_exercise_modules", "lesson42_starter_modules",
           "lesson42_solution_modules", "lesson42_planted_last_element_skipped_modules"]


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
                (course / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / name, course / name)

            made = run([str(course / "course"), "dev", "new", LESSON], course, 120)
            self.assertEqual(made.returncode, 0, made.stdout + made.stderr)
            self.assertIn(f"| 42 | [throwaway](lessons/{LESSON}/README.md) |", (course / "README.md").read_text())
            again = run([str(course / "course"), "dev", "new", "42_other"], course, 120)
            self.assertEqual(again.returncode, 2)
            self.assertIn(f"lesson 42 exists already ({LESSON})", again.stderr)
            checked = run([str(course / "course"), "dev", "check"], course, 120)
            self.assertEqual(checked.returncode, 1, checked.stdout)
            self.assertIn(f"lesson 42: tests/planted/{LESSON}/ holds 1 planted kernels", checked.stdout)
            self.assertIn(f"lesson 42: lessons/{LESSON}/README.md names no GPU", checked.stdout)

            configured = run(["cmake", "--preset", "sim"], course, 600)
            self.assertEqual(configured.returncode, 0, configured.stdout + configured.stderr)
            built = run(["cmake", "--build", "--preset", "sim", "--target", *TARGETS], course, 1500)
            self.assertEqual(built.returncode, 0, built.stdout[-4000:] + built.stderr[-4000:])

            tests = run(["ctest", "--preset", "sim", "-N", "-R", r"^lesson42\."], course, 120).stdout
            for name in ("lesson42.solution/", "lesson42.exercise/", "lesson42.starter_fails_as_expected",
                         "lesson42.planted.last_element_skipped"):
                self.assertIn(name, tests)

            # The reference passes, the starter fails for its reason, the planted kernel is rejected.
            ran = run(["ctest", "--preset", "sim", "-R", r"^lesson42\.", "-LE", "^exercise$", "--output-on-failure"],
                      course, 900)
            self.assertEqual(ran.returncode, 0, ran.stdout[-6000:])
            # CTest 3.x says "100% tests passed, 0 tests failed out of 3", CTest 4 "100% tests passed out of 3".
            self.assertRegex(ran.stdout, r"100% tests passed(, 0 tests failed)? out of 3\n")

            status = run([str(course / "course"), "status"], course, 120)
            self.assertIn("42", status.stdout + status.stderr)
            hint = run([str(course / "course"), "hint", "42"], course, 120)
            self.assertEqual(hint.returncode, 0, hint.stdout + hint.stderr)
            self.assertIn("Each thread owns one element", hint.stdout)


if __name__ == "__main__":
    unittest.main()
