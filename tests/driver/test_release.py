"""./course release DIR: the students' copy has no solutions and nothing that gives them away, has
pristine starters, and (opt-in, slow: COURSE_SLOW_TESTS=1) configures and builds on its own."""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from support import ROOT, run_course

REVEALING = ("solutions/", "tests/planted/")


def digests(folder: Path) -> dict[str, str]:
    return {hashlib.sha256(p.read_bytes()).hexdigest(): str(p.relative_to(folder))
            for p in folder.rglob("*") if p.is_file()}


class Release(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.copy = Path(cls.tmp.name) / "student-course"
        cls.result = run_course("release", str(cls.copy))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_released(self):
        self.assertEqual(self.result.returncode, 0, self.result.stdout)
        for needed in ("course", "CMakeLists.txt", "CMakePresets.json", "cmake/Course.cmake", "common/CMakeLists.txt",
                       "lessons/CMakeLists.txt", "tests/CMakeLists.txt"):
            self.assertTrue((self.copy / needed).is_file(), needed)

    def test_nothing_reveals_a_solution(self):
        files = [str(p.relative_to(self.copy)) for p in self.copy.rglob("*") if p.is_file()]
        self.assertFalse([f for f in files if f.startswith(REVEALING)])
        if (ROOT / "solutions").is_dir():
            leaked = set(digests(ROOT / "solutions")) & set(digests(self.copy))
            self.assertFalse(leaked, "a released file is a copy of a solution")

    def test_exercises_are_the_starters_and_kept_for_reset(self):
        for lesson in (ROOT / "exercises").iterdir():
            for starter in (self.copy / "starters" / lesson.name).rglob("*"):
                if starter.is_file():
                    name = starter.relative_to(self.copy / "starters")
                    self.assertEqual(starter.read_bytes(), (self.copy / "exercises" / name).read_bytes())
        self.assertTrue(any((self.copy / "starters").rglob("*.cu")))

    def test_refuses_to_overwrite(self):
        again = run_course("release", str(self.copy))
        self.assertEqual(again.returncode, 2)
        self.assertIn("not empty", again.stdout)
        with tempfile.TemporaryDirectory() as other:
            (Path(other) / "precious.txt").write_text("keep me")
            refused = run_course("release", other, "--force")
            self.assertEqual(refused.returncode, 2)
            self.assertTrue((Path(other) / "precious.txt").exists())

    def test_force_replaces_an_earlier_release(self):
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "again"
            self.assertEqual(run_course("release", str(copy)).returncode, 0)
            (copy / "stale.txt").write_text("old")
            self.assertEqual(run_course("release", str(copy), "--force").returncode, 0)
            self.assertFalse((copy / "stale.txt").exists())


@unittest.skipUnless(os.environ.get("COURSE_SLOW_TESTS"), "slow (configures and builds a copy): COURSE_SLOW_TESTS=1")
class ReleaseBuilds(unittest.TestCase):
    def test_configures_and_builds_without_solutions(self):
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "student-course"
            target = os.environ.get("COURSE_RELEASE_TARGET", "lesson03_grader")
            result = run_course("release", str(copy), "--check-target", target, timeout=3000)
            self.assertEqual(result.returncode, 0, result.stdout[-4000:])
            self.assertIn("the released copy builds", result.stdout)
            cache = (copy / "build" / "ci" / "CMakeCache.txt").read_text()
            self.assertIn("COURSE_WITH_SOLUTIONS:BOOL=OFF", cache)
            listed = subprocess.run(["cmake", "--build", str(copy / "build" / "ci"), "--target", "help"],
                                    capture_output=True, text=True).stdout
            self.assertNotIn("_solution", listed)
            self.assertNotIn("planted", listed)


if __name__ == "__main__":
    unittest.main()
