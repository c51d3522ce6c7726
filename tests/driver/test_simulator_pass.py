"""The simulator pass of a GPU grading (driver/simulator_pass.py): lesson 09's memory ordering, which a
GPU gets right almost every time without a fence, checked by the simulator's grader on modules built
elsewhere. Here the modules are the simulator tree's own planted and accepted kernels: a missing
fence is a finding that names both source lines, right kernels pass, and a pass that cannot run is
an error, never a pass."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from support import load_driver, simulator_tree

LESSON09 = "09_one_launch_reduction"


@unittest.skipUnless(simulator_tree(), "needs a built simulator tree (COURSE_BUILD_DIR, preset sim)")
class SimulatorPass(unittest.TestCase):
    def setUp(self):
        self.driver = load_driver()
        self.lesson = self.driver.lessons.find_lesson("09")
        self.grader = simulator_tree() / "lessons" / "lesson09_grader"

    def check(self, modules: Path):
        return self.driver.simulator_pass.run(self.lesson, self.grader, modules, seed=5)

    def planted(self, name: str) -> Path:
        return simulator_tree() / "modules" / "planted" / LESSON09 / name

    def test_the_lesson_asks_for_it(self):
        entry = self.driver.simulator_pass.wanted(self.lesson)
        self.assertEqual(entry["test_cases"], "*orders each block's partial before its ticket*")
        self.assertIsNone(self.driver.simulator_pass.wanted(self.driver.lessons.find_lesson("03")))

    def test_a_missing_fence_is_a_finding_with_both_lines(self):
        for name in ("missing_fence", "fence_after_ticket", "no_acquire"):
            with self.subTest(planted=name):
                checked = self.check(self.planted(name))
                self.assertRegex(checked.finding, r"^missing fence: global-memory ordering race at global address "
                                                  r"0x[0-9a-f]+ in kernel reduce_once: block \(\d+,0,0\) thread "
                                                  r"\(0,0,0\) writes at reduce_once\.cu:\d+ .*reads at "
                                                  r"reduce_once\.cu:\d+ ")
                self.assertEqual(checked.error, "")
                outcome = self.driver.verdict.Outcome("pass", backend="gpu")
                outcome.apply_simulator_pass(checked.finding, checked.note, checked.error)
                self.assertEqual((outcome.verdict, outcome.correctness), ("fail", "fail"))

    def test_right_orderings_pass(self):
        for modules in (simulator_tree() / "modules" / "solution", self.planted("accepted_fences"),
                        self.planted("accepted_volatile_reads")):
            with self.subTest(modules=modules.name):
                checked = self.check(modules)
                self.assertEqual((checked.finding, checked.error), ("", ""))
                self.assertRegex(checked.note, r"^the memory ordering of the partials and the ticket: checked on the "
                                               r"CPU simulator \(\d+\.\d s\)$")

    def test_a_pass_that_cannot_run_is_an_error(self):
        with tempfile.TemporaryDirectory() as empty:
            checked = self.driver.simulator_pass.run(self.lesson, Path(empty) / "lesson09_grader",
                                                     simulator_tree() / "modules" / "solution", seed=5)
        self.assertEqual(checked.finding, "")
        self.assertIn("could not start", checked.error)
        outcome = self.driver.verdict.Outcome("pass", backend="gpu")
        outcome.apply_simulator_pass(checked.finding, checked.note, checked.error)
        self.assertEqual(outcome.verdict, "error")


if __name__ == "__main__":
    unittest.main()
