"""./course dev check: passes on the course, and names each missing or inconsistent piece of a lesson
in a copy where pieces were taken out."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import unittest
from pathlib import Path

from support import ROOT, copy_driver, run_course

# What dev check reads: the lessons, their manifests and files, the README's table.
PARTS = ("lessons", "exercises", "solutions", "tests/planted", "README.md")


def copy_course(root: Path) -> None:
    copy_driver(root)
    for part in PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, root / part, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.exists():
            shutil.copy2(source, root / part)


def edit_manifest(root: Path, folder: str, change) -> None:
    path = root / "lessons" / folder / "lesson.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))


class DevCheck(unittest.TestCase):
    def test_the_course_passes(self):
        result = run_course("dev", "check")
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertRegex(result.stdout, r"dev check: \d+ lessons, each with")

    def test_each_missing_piece_is_named(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            copy_course(root)
            (root / "lessons" / "03_neighbored_reduction" / "hints.md").unlink()
            readme = (root / "README.md").read_text()
            (root / "README.md").write_text(re.sub(r"^\| 07 \|.*\n", "", readme, flags=re.M))
            edit_manifest(root, "02_divergence", lambda data: data["build"].pop("student_sources"))
            edit_manifest(root, "01_warp_basics", lambda data: data.pop("title"))
            edit_manifest(root, "06_occupancy", lambda data: data["readme_row"].update(
                the_grader_checks="at least 3x faster than {gpu:choose_launch_config/typo}"))
            expected = [r"lesson 03: lessons/03_neighbored_reduction/hints\.md is missing",
                        r"lesson 03: lessons/03_neighbored_reduction/lesson\.json: hints names hints\.md, which "
                        r"lessons/03_neighbored_reduction/ lacks",
                        r"README\.md's lesson table differs from the lessons' manifests \(\./course dev readme",
                        r"lesson 02: lessons/02_divergence/lesson\.json has no build\.student_sources",
                        r"lesson 01: lessons/01_warp_basics/lesson\.json has no title",
                        r"lesson 06: lessons/06_occupancy/lesson\.json: readme_row\.the_grader_checks: "
                        r"\{gpu:choose_launch_config/typo\} names no gpu speed check of the manifest",
                        r"lesson 06: lessons/06_occupancy/lesson\.json: readme_row\.the_grader_checks: '3x' is a "
                        r"threshold written out"]
            if (ROOT / "solutions").is_dir():
                (root / "solutions" / "04_interleaved_reduction" / "helpers.cuh").write_text("// not the starter's\n")
                starter = root / "exercises" / "09_one_launch_reduction" / "reduce_once.cu"
                starter.write_text(starter.read_text().replace("reduce_once(", "reduce_twice("))
                planted = root / "tests" / "planted" / "05_global_reduction" / "no_tail.patch"
                planted.write_text(re.sub(r"^expect: .*\n", "", planted.read_text(), flags=re.M))
                for planted_file in (root / "tests" / "planted" / "09_one_launch_reduction").iterdir():
                    if planted_file.name not in ("missing_fence.patch", "cooperative_grid_too_large.patch"):
                        planted_file.unlink()
                expected += [r"lesson 04: solutions/04_interleaved_reduction/ holds .*helpers\.cuh.*the same files",
                             r"lesson 09: 09_one_launch_reduction/reduce_once\.cu: the starter declares extern \"C\" "
                             r"\['reduce_once_launch', 'reduce_twice'\], the reference \['reduce_once', "
                             r"'reduce_once_launch'\]",
                             r"lesson 09: lessons/09_one_launch_reduction/lesson\.json lists kernels \['reduce_once', "
                             r"'reduce_once_launch'\], but the starter declares extern \"C\" \['reduce_once_launch', "
                             r"'reduce_twice'\]",
                             r"lesson 05: tests/planted/05_global_reduction/no_tail\.patch has no 'expect:' line",
                             r"lesson 09: tests/planted/09_one_launch_reduction/ holds 2 planted kernels; a lesson "
                             r"needs at least 3"]
            result = run_course("dev", "check", course=root / "course")
        self.assertEqual(result.returncode, 1, result.stdout)
        for pattern in expected:
            self.assertRegex(result.stdout, pattern)
        self.assertIn(f"dev check: {len(expected)} problem(s) in", result.stdout)


class DevReadme(unittest.TestCase):
    def test_thresholds_come_from_the_speed_checks(self):
        # The table names lesson 03's threshold; changing the speed check changes the table.
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            copy_course(root)
            row = re.search(r"^\| 03 \|.*$", (root / "README.md").read_text(), re.M)[0]
            self.assertIn("at least 1.4x faster", row)

            def raise_threshold(data):
                check = next(c for c in data["speed_checks"]["checks"] if c["back_end"] == "gpu")
                check["threshold"] = 1.55
            edit_manifest(root, "03_neighbored_reduction", raise_threshold)
            stale = run_course("dev", "check", course=root / "course")
            self.assertEqual(stale.returncode, 1, stale.stdout)
            self.assertRegex(stale.stdout, r"README\.md's lesson table differs from the lessons' manifests")
            written = run_course("dev", "readme", course=root / "course")
            self.assertEqual(written.returncode, 0, written.stdout)
            row = re.search(r"^\| 03 \|.*$", (root / "README.md").read_text(), re.M)[0]
            self.assertIn("at least 1.55x faster", row)


if __name__ == "__main__":
    unittest.main()
