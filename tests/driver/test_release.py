"""./course release DIR: the students' copy has no solutions and nothing that gives them away, has
pristine starters, and (opt-in, slow: COURSE_SLOW_TESTS=1) configures and builds on its own, and
every command of its README works there."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

from support import ROOT, has_gpu, load_driver, run_course

REVEALING = ("solutions/", "tests/planted/")


def readme_commands(readme: str) -> list[str]:
    """The command lines of the README's ```sh blocks (synopses are in ```text blocks), without
    their comments."""
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```", readme, re.DOTALL | re.MULTILINE):
        for line in block.splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and not command.startswith("#"):
                commands.append(command)
    return commands


def needs_gpu(command: str) -> bool:
    return "--gpu" in command.split() or "--preset gpu" in command


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

    def test_the_copys_own_driver_works(self):
        # ./course is a thin script over the package driver/ beside it: the copy has both, and its
        # commands work on the copy (a student's copy is no git repository: reset uses starters/).
        self.assertTrue((self.copy / "driver" / "__init__.py").is_file())
        self.assertTrue((self.copy / "driver" / "cli.py").is_file())
        self.assertFalse(list(self.copy.rglob("__pycache__")))
        course = self.copy / "course"
        with tempfile.TemporaryDirectory() as state:
            env = {"COURSE_STATE_DIR": state}
            for args, expected in ((("help",), "03 (neighbored-pair reduction)"), (("status",), "(not graded yet)"),
                                   (("hint", "03"), "Hint 1 of"), (("grade", "--help"), "usage: ./course grade"),
                                   (("reset", "03"), "the exercise is already the starter")):
                with self.subTest(args=args):
                    result = run_course(*args, env=env, course=course)
                    self.assertEqual(result.returncode, 0, result.stdout)
                    self.assertIn(expected, result.stdout)
            bad = run_course("hint", env=env, course=course)
            self.assertEqual((bad.returncode, bad.stdout), (2, "course: usage: ./course hint NN [--all | --reset]\n"))
        self.assertFalse((self.copy / ".git").exists())  # reset above used starters/

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

    def test_the_readme_speaks_to_students(self):
        readme = (self.copy / "README.md").read_text()
        for instructor_only in ("--solution", "./course release", "--with-solutions", "--submissions", "solutions/",
                                "<!-- instructors -->"):
            with self.subTest(text=instructor_only):
                self.assertNotIn(instructor_only, readme)
        self.assertIn("## Working through a lesson (students)", readme)
        self.assertIn("./course grade", readme)

    def test_readme_commands_fit_the_copy(self):
        commands = readme_commands((self.copy / "README.md").read_text())
        self.assertTrue(any(c.startswith("./course trace") for c in commands), commands)
        driver = load_driver()
        for command in commands:
            with self.subTest(command=command):
                words = command.split()
                self.assertIn(words[0], ("./course", "cmake", "ctest"))
                if words[0] == "./course":
                    self.assertIn(words[1], driver.cli.COMMANDS)
                    # The copy has no solutions/: nothing in its README may need them.
                    self.assertNotIn("--solution", words)

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


class ReleaseThrough(unittest.TestCase):
    """--through NN: a lesson is released once the lessons whose answers it carries are due."""

    def test_later_lessons_and_their_references_stay_behind(self):
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "week-two"
            result = run_course("release", str(copy), "--through", "4")
            self.assertEqual(result.returncode, 0, result.stdout)
            self.assertIn("released lessons 01..04", result.stdout)
            for folder in ("lessons", "exercises", "starters"):
                shipped = sorted(p.name for p in (copy / folder).iterdir() if p.is_dir())
                self.assertEqual([name[:2] for name in shipped], ["01", "02", "03", "04"], folder)
            if (ROOT / "solutions").is_dir():
                self.assertEqual(sorted(p.name for p in (copy / "references").iterdir()), ["03_neighbored_reduction"])
                self.assertIn("references/03_neighbored_reduction/ holds lesson 03's answer, compiled (lesson 04 "
                              "measures against it): release this copy once lesson 03 is due", result.stdout)
            rows = re.findall(r"^\| (\d\d) \|", (copy / "README.md").read_text(), re.MULTILINE)
            self.assertEqual(rows, ["01", "02", "03", "04"])
            listed = run_course("help", course=copy / "course", env={"COURSE_STATE_DIR": tmp})
            self.assertIn("04 (interleaved reduction)", listed.stdout)
            self.assertNotIn("05 (", listed.stdout)

    def test_too_early_a_release_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            refused = run_course("release", str(Path(tmp) / "copy"), "--through", "02")
            self.assertEqual(refused.returncode, 2)
            self.assertIn("release at least through 03", refused.stdout)
            unknown = run_course("release", str(Path(tmp) / "copy"), "--through", "42")
            self.assertEqual(unknown.returncode, 2)
            self.assertIn("no lesson '42'", unknown.stdout)

    @unittest.skipUnless((ROOT / "solutions").is_dir(), "needs the reference solutions")
    def test_an_answer_outside_its_lessons_code_is_refused(self):
        driver = load_driver()
        answer = ROOT / "solutions" / "09_one_launch_reduction" / "reduce_once.cu"
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("common/src/helpers.cu", "lessons/05_global_reduction/sweep.cu",
                         "lessons/09_one_launch_reduction/designs.cu"):
                (Path(tmp) / name).parent.mkdir(parents=True, exist_ok=True)
                (Path(tmp) / name).write_text(answer.read_text())
            (Path(tmp) / "common/src/fine.cu").write_text((ROOT / "exercises/09_one_launch_reduction/reduce_once.cu")
                                                          .read_text())
            found = driver.release.answers_in(["common/src/helpers.cu", "common/src/fine.cu",
                                               "lessons/05_global_reduction/sweep.cu",
                                               "lessons/09_one_launch_reduction/designs.cu"], Path(tmp))
        self.assertEqual(sorted({line.split(":")[0] for line in found}),
                         ["common/src/helpers.cu", "lessons/05_global_reduction/sweep.cu"])
        self.assertIn("common/src/helpers.cu: 100% of the lines solutions/09_one_launch_reduction/reduce_once.cu adds "
                      "to its starter", found)


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


@unittest.skipUnless(os.environ.get("COURSE_SLOW_TESTS"), "slow (builds and tests a whole copy): COURSE_SLOW_TESTS=1")
class ReadmeCommands(unittest.TestCase):
    """Every command of the README's sh blocks, in order, in a fresh release copy: it works (exit
    code 0, or 1 where a starter fails its grader), or, for a GPU on a machine without one, says
    so in a clear message; never a traceback or a build tool's error."""

    def test_every_readme_command_works_in_a_release(self):
        work = Path(os.environ.get("COURSE_TEST_WORK") or tempfile.gettempdir())
        work.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=work) as tmp:
            copy = Path(tmp) / "student-course"
            released = run_course("release", str(copy), timeout=600)
            self.assertEqual(released.returncode, 0, released.stdout[-3000:])
            # The copy's own tests must not start this test again, nor use this tree.
            env = {k: v for k, v in os.environ.items() if not k.startswith("COURSE_")}
            for command in readme_commands((copy / "README.md").read_text()):
                with self.subTest(command=command):
                    if needs_gpu(command) and command.startswith(("cmake", "ctest")) and not has_gpu():
                        continue  # a GPU preset cannot configure without a GPU (native architectures)
                    started = time.monotonic()
                    result = subprocess.run(["bash", "-c", command], cwd=copy, env=env, capture_output=True,
                                            text=True, errors="replace", timeout=5400)
                    output = result.stdout + result.stderr
                    print(f"{command}: exit code {result.returncode}, {time.monotonic() - started:.0f} s", flush=True)
                    for broken in ("Traceback", "ninja: build stopped", "CMake Error", "warning:"):
                        self.assertNotIn(broken, output, f"{command}:\n{output[-4000:]}")
                    if needs_gpu(command) and not has_gpu():
                        self.assertNotEqual(result.returncode, 0)
                        self.assertRegex(output, r"(no CUDA device|NVIDIA GPU|no GPU)", output[-2000:])
                    elif command.startswith(("./course grade", "./course run")):
                        self.assertIn(result.returncode, (0, 1), output[-4000:])
                    else:
                        self.assertEqual(result.returncode, 0, output[-4000:])


if __name__ == "__main__":
    unittest.main()
