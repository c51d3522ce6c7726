"""How the driver configures and builds a tree: one line per phase with the full logs under
<tree>/logs/, and a tree left half-configured or half-built (a first run stopped with Ctrl-C, or
`./course run 03 | head`) configured again the next time, saying why."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest
from pathlib import Path
from unittest import mock

from support import ROOT, load_driver


def cache_text(home: Path, generator: str = "Ninja", version: str | None = None) -> str:
    major, minor, patch = (version or load_driver().building.cmake_release()).split(".")
    return (f"# This is the CMakeCache file.\nCMAKE_HOME_DIRECTORY:INTERNAL={home}\n"
            f"CMAKE_CACHE_MAJOR_VERSION:INTERNAL={major}\nCMAKE_CACHE_MINOR_VERSION:INTERNAL={minor}\n"
            f"CMAKE_CACHE_PATCH_VERSION:INTERNAL={patch}\nCMAKE_GENERATOR:INTERNAL={generator}\n")


class StaleConfiguration(unittest.TestCase):
    """stale_configuration(): whether a tree must be configured (again) before it builds."""

    @classmethod
    def setUpClass(cls):
        cls.driver = load_driver()

    def test_each_reason(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp)
            self.assertEqual(self.driver.building.stale_configuration(tree), "not configured yet")
            (tree / "CMakeCache.txt").write_text(cache_text(ROOT))
            self.assertIn("did not finish (no build.ninja)", self.driver.building.stale_configuration(tree))
            (tree / "build.ninja").write_text("")
            self.assertIsNone(self.driver.building.stale_configuration(tree))
            (tree / "CMakeCache.txt").write_text(cache_text(Path("/elsewhere/course")))
            self.assertIn("another source folder (/elsewhere/course)", self.driver.building.stale_configuration(tree))
            (tree / "CMakeCache.txt").write_text(cache_text(ROOT, version="3.1.0"))
            self.assertIn("configured by another CMake (version 3.1.0, this one is",
                          self.driver.building.stale_configuration(tree))
            (tree / "CMakeCache.txt").write_text(cache_text(ROOT, "Unix Makefiles"))
            self.assertIn("no Makefile", self.driver.building.stale_configuration(tree))


@unittest.skipUnless(shutil.which("cmake") and shutil.which("nvcc"), "needs cmake and nvcc")
class Interrupted(unittest.TestCase):
    """A configure or a build killed part-way; the next driver command recovers on its own."""

    TARGET = "lesson03_exercise_modules"  # one student file through nvcc: a short build

    def build(self, tree: Path) -> tuple[int, str]:
        """The driver's build of TARGET in `tree`, as every command that builds runs it: (exit code, output)."""
        driver = load_driver()
        out = io.StringIO()
        with mock.patch.dict(os.environ, {"COURSE_BUILD_DIR": str(tree)}), contextlib.redirect_stdout(out):
            try:
                driver.building.build([self.TARGET])
                code = 0
            except SystemExit as stop:
                code = stop.code
        return code, out.getvalue()

    def interrupt(self, command: list[str], after: float) -> None:
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
        time.sleep(after)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
        process.wait()

    def test_killed_configure_then_killed_build(self):
        work = Path(os.environ.get("COURSE_TEST_WORK") or tempfile.gettempdir())
        work.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=work) as tmp:
            tree = Path(tmp) / "tree"
            # A configure killed early (in CMake's compiler checks): the next build configures the
            # tree again, in a line per phase.
            self.interrupt(["cmake", "-S", str(ROOT), "-B", str(tree), "-G", "Ninja"], 2.0)
            stale = load_driver().building.stale_configuration(tree)  # None if the configure had finished
            code, output = self.build(tree)
            self.assertEqual(code, 0, output)
            self.assertEqual((tree / "logs" / "configure.log").exists(), stale is not None, output)
            self.assertLessEqual(len(output.splitlines()), 4, output)  # a line per phase
            # The same tree half-configured, as Ctrl-C between CMake's configure and generate steps
            # leaves it (a configure killed later than the one above).
            for build_file in ("build.ninja", "Makefile"):
                (tree / build_file).unlink(missing_ok=True)
            code, output = self.build(tree)
            self.assertEqual(code, 0, output)
            self.assertRegex(output,
                             r"its last configure did not finish \(no (build.ninja|Makefile)\): configuring it again")
            # A build killed mid-way: the next one finishes it.
            module = next(tree.glob("modules/exercise/03_*/*.fatbin"))
            module.unlink()
            self.interrupt(["cmake", "--build", str(tree), "--target", self.TARGET], 1.0)
            code, output = self.build(tree)
            self.assertEqual(code, 0, output)
            self.assertTrue(module.exists())


if __name__ == "__main__":
    unittest.main()
