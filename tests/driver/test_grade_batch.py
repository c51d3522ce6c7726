"""./course grade --submissions: a class of made-up students, each graded in isolation.

    correct        the reference solution (made from solutions/ when it is there)
    wrong          a planted kernel with a wrong bound (tests/planted/, applied to the reference)
    compile_error  does not compile (tests/driver/fixtures/submissions/, patches of the starter)
    hang.tar.gz    never finishes, as a .tar.gz of its folder
    fault.zip      writes far out of bounds, as a .zip of an exercises/ folder
    cheater        the starter with an exit from a static initializer appended (a gaming attempt
                   that once passed): a module has no host code, so it is graded as the starter
    borrower       includes the reference solution by its absolute path: refused by the build
    stranger       an extra file beside the exercise's: refused before anything is built

Building needs the CUDA toolkit; the build trees live under COURSE_TEST_WORK, shared by every test
that grades a class (support.grading_work), so that a second grading only recompiles the students'
files. Without a GPU the class is graded on the CPU simulator.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile
from pathlib import Path

from support import (
    ROOT,
    build_dir,
    fixture_submission,
    grades_on_gpu,
    grading_work,
    has_gpu,
    load_driver,
    mock_env,
    run_course,
)

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
    planted = ROOT / "tests" / "planted" / LESSON / "wrong_bound.patch"
    if planted.exists() and solution.exists():
        # The planted kernel is a patch of the reference (tests/planted/README.md).
        subprocess.run([sys.executable, str(ROOT / "cmake" / "apply_patch.py"), str(planted), str(solution),
                        str(folder / "wrong" / LESSON / STUDENT_FILE)], check=True)
        names.append("wrong")
    fixture_submission("compile_error", folder / "compile_error")
    with tempfile.TemporaryDirectory() as made:
        with tarfile.open(folder / "hang.tar.gz", "w:gz") as archive:
            archive.add(fixture_submission("hang", Path(made) / "hang").parents[1], arcname="hang")
        with zipfile.ZipFile(folder / "fault.zip", "w") as archive:
            archive.write(fixture_submission("fault", Path(made) / "fault"), f"exercises/{LESSON}/{STUDENT_FILE}")
    starter = (ROOT / "exercises" / LESSON / STUDENT_FILE).read_text()
    for name, text in (("cheater", starter + CHEAT),
                       ("borrower", f'#include "{ROOT}/solutions/{LESSON}/{STUDENT_FILE}"\n'),
                       ("stranger", starter)):
        (folder / name / LESSON).mkdir(parents=True)
        (folder / name / LESSON / STUDENT_FILE).write_text(text)
    (folder / "stranger" / LESSON / "helpers.cuh").write_text("// not a file of the exercise\n")
    return names + ["compile_error", "hang", "fault", "cheater", "borrower", "stranger"]


def grade_class(test: unittest.TestCase, tmp: Path, work: Path, *, seed: int, timeout: int, limit: float,
                lessons: list[str] | None = None) -> dict:
    """./course grade --submissions tmp/class, two at a time (on the simulator without a GPU), into
    tmp/out, every lesson or those numbered in `lessons`; the results.json it wrote, once it exited 0."""
    args = ["grade", "--submissions", str(tmp / "class"), "--out", str(tmp / "out"), "--work", str(work),
            "--seed", str(seed), "--timeout", str(timeout), "--jobs", "2"]
    if lessons:
        args += ["--lessons", ",".join(lessons)]
    if not grades_on_gpu():
        args += ["--sim"]
    result = run_course(*args, timeout=limit)
    test.assertEqual(result.returncode, 0, result.stdout[-4000:])
    return json.loads((tmp / "out" / "results.json").read_text())


# The two lines that made a grader which linked student code report PASS.
CHEAT = "\n#include <cstdlib>\nnamespace { const int cheat = (std::_Exit(0), 0); }\n"


class Preparing(unittest.TestCase):
    """Unpacking and composing a submission (no build)."""

    def tar(self, path: Path, members: list[tuple[str, bytes]], link: str | None = None) -> Path:
        with tarfile.open(path, "w:gz") as tar:
            for name, text in members:
                info = tarfile.TarInfo(name)
                info.size = len(text)
                tar.addfile(info, io.BytesIO(text))
            if link:
                info = tarfile.TarInfo(link)
                info.type = tarfile.SYMTYPE
                info.linkname = "/etc/passwd"
                tar.addfile(info)
        return path

    def test_missing_files_come_from_the_starter(self):
        driver = load_driver()
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            archive = self.tar(tmp / "eve.tar.gz", [(f"eve/{LESSON}/{STUDENT_FILE}", b"mine\n")])
            submission = driver.submission.Submission("eve", archive)
            driver.batch.prepare(submission, tmp / "work")
            self.assertFalse(submission.problem)
            composed = submission.exercises
            self.assertEqual((composed / LESSON / STUDENT_FILE).read_text(), "mine\n")
            self.assertEqual(submission.submitted, {"03": [STUDENT_FILE]})
            # every other lesson keeps its starter, so the build tree configures
            for lesson in driver.lessons.all_lessons():
                self.assertTrue((composed / lesson.folder).is_dir())

    def test_archives_that_reach_outside_are_refused_and_write_nothing(self):
        driver = load_driver()
        good = (f"eve/{LESSON}/{STUDENT_FILE}", b"mine\n")
        cases = {
            "parent": ([good, ("../escape.txt", b"x")], None, "would land outside"),
            "absolute": ([good, ("/abs.txt", b"x")], None, "would land outside"),
            "link": ([good], f"eve/{LESSON}/link.cu", "is a link or a special file"),
            "huge": ([good, (f"eve/{LESSON}/big.cu", b"x" * (driver.batch.MAX_SUBMITTED_FILE + 1))], None,
                     "bytes, more than"),
        }
        for name, (members, link, reason) in cases.items():
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp:
                tmp = Path(tmp)
                submission = driver.submission.Submission(name, self.tar(tmp / f"{name}.tar.gz", members, link))
                driver.batch.prepare(submission, tmp / "work")
                self.assertIn("refused: ", submission.problem)
                self.assertIn(reason, submission.problem)
                self.assertFalse((tmp / "escape.txt").exists())
                self.assertFalse(Path("/abs.txt").exists())

    def test_links_and_unknown_files_in_a_folder_are_refused_per_lesson(self):
        driver = load_driver()
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            for name in ("linked", "extra", "linked_folder"):
                (tmp / name).mkdir()
            (tmp / "linked" / LESSON).mkdir()
            (tmp / "linked" / LESSON / STUDENT_FILE).symlink_to(ROOT / "solutions" / LESSON / STUDENT_FILE)
            (tmp / "extra" / LESSON).mkdir()
            (tmp / "extra" / LESSON / STUDENT_FILE).write_text("mine\n")
            (tmp / "extra" / LESSON / "notes.txt").write_text("x\n")
            (tmp / "linked_folder" / LESSON).symlink_to(ROOT / "solutions" / LESSON)
            for name, reason in (("linked", "is a link"), ("extra", "is not a file of the exercise"),
                                 ("linked_folder", f"{LESSON}/ is a link")):
                with self.subTest(name):
                    submission = driver.submission.Submission(name, tmp / name)
                    driver.batch.prepare(submission, tmp / "work")
                    self.assertIn(reason, submission.refused.get("03", ""))
                    self.assertNotIn("03", submission.submitted)

    def test_a_broken_archive_is_reported_not_fatal(self):
        driver = load_driver()
        with tempfile.TemporaryDirectory() as tmp:
            bad = Path(tmp) / "mallory.zip"
            bad.write_bytes(b"not a zip")
            submission = driver.submission.Submission("mallory", bad)
            driver.batch.prepare(submission, Path(tmp) / "work")
            self.assertIn("cannot unpack mallory.zip", submission.problem)


class TreesOfAWorkFolder(unittest.TestCase):
    """Gradings that share a --work folder take trees no other grading holds, and a tree given back
    is taken again (with what it was configured and built with)."""

    def test_each_grading_its_own_trees(self):
        driver = load_driver()
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            first = driver.batch.take_trees(work, 2)
            second = driver.batch.take_trees(work, 2)
            self.assertEqual([t.build.name for t in first], ["tree0", "tree1"])
            self.assertEqual([t.build.name for t in second], ["tree2", "tree3"])
            self.assertEqual(second[0].exercises, work / "tree2_exercises")
            first[1].held.close()
            again = driver.batch.take_trees(work, 2)
            self.assertEqual([t.build.name for t in again], ["tree1", "tree4"])
            for tree in first[:1] + second + again:
                tree.held.close()

    def test_a_tree_held_by_another_process(self):
        driver = load_driver()
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            holder = subprocess.Popen([sys.executable, "-c", "import fcntl, sys, time\n"
                                       "f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX)\n"
                                       "print('held', flush=True); time.sleep(60)", str(work / "tree0.lock")],
                                      stdout=subprocess.PIPE, text=True)
            try:
                self.assertEqual(holder.stdout.readline().strip(), "held")
                taken = driver.batch.take_trees(work, 1)
                self.assertEqual(taken[0].build.name, "tree1")
                taken[0].held.close()
            finally:
                holder.kill()
                holder.wait()
            taken = driver.batch.take_trees(work, 1)  # released when its holder ended
            self.assertEqual(taken[0].build.name, "tree0")
            taken[0].held.close()


@unittest.skipUnless(build_dir(), "needs the configured build tree (COURSE_BUILD_DIR, set by CTest)")
class BatchRun(unittest.TestCase):
    def test_a_class(self):
        work = grading_work()
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            students = make_class(tmp / "class")
            # Overrides that keep every verdict (the reference is well above them, the starter far
            # below), for both back ends: only the one graded on applies.
            thresholds = tmp / "thresholds.json"
            thresholds.write_text(json.dumps({"_comment": "a class on other GPUs", "03": {
                "gpu": {"reduce_neighbored_less": 1.3}, "sim": {"reduce_neighbored_less": 1.6}}}))
            args = ["grade", "--submissions", str(tmp / "class"), "--out", str(tmp / "out"), "--work", str(work),
                    "--seed", "2024", "--timeout", "45", "--jobs", "2", "--lessons", "03",
                    "--thresholds", str(thresholds)]
            env = {}
            if not grades_on_gpu():
                args += ["--sim"]
                # The simulator's instruction budget per launch stops the endless kernel in seconds
                # instead of the 45 s limit (lesson 03's kernels need under 10^8 warp instructions a
                # launch); a budget stop is a timeout too. test_batch_robust.py runs into the limit.
                env["CUDASIM_INSTRUCTION_LIMIT"] = str(2 * 10**8)
            result = run_course(*args, env=env, timeout=1500)
            self.assertEqual(result.returncode, 0, result.stdout)
            report = json.loads((tmp / "out" / "results.json").read_text())
            rows = list(csv.DictReader(open(tmp / "out" / "results.csv")))
            summary = (tmp / "out" / "summary.md").read_text()

        self.assertEqual(report["seed"], 2024)
        self.assertEqual(report["thresholds_file"], str(thresholds))
        backend, other = ("gpu", "sim") if grades_on_gpu() else ("sim", "gpu")
        applied = {entry["backend"]: entry for entry in report["thresholds_applied"]}
        self.assertGreaterEqual(applied[backend]["applied"], 1)
        self.assertEqual(applied[other]["applied"], 0)
        value = {"gpu": 1.3, "sim": 1.6}
        self.assertIn(f"- lesson 03, `reduce_neighbored_less` ({backend}): {value[backend]} instead of", summary)
        self.assertIn(f"- lesson 03, `reduce_neighbored_less` ({other}): {value[other]} instead of", summary)
        self.assertIn("not applied (graded on the other back end)", summary)
        by_student = {r["student"]: r for r in report["results"]}
        self.assertEqual(sorted(by_student), sorted(students))
        self.assertEqual(len(rows), len(students))
        self.assertIn("| compile_error | compile error |", summary)

        broken = by_student["compile_error"]
        self.assertEqual((broken["verdict"], broken["correctness"]), ("compile error", "fail"))
        self.assertRegex(broken["reason"], rf"^{LESSON}/{STUDENT_FILE}\(\d+\): error")

        borrower = by_student["borrower"]
        self.assertEqual(borrower["verdict"], "compile error")
        if (ROOT / "solutions").is_dir():
            self.assertRegex(borrower["reason"], rf"^refused: .* includes .*/solutions/{LESSON}/{STUDENT_FILE}")
        else:  # a student copy has no solutions/ to include
            self.assertIn(f"solutions/{LESSON}/{STUDENT_FILE}: No such file", borrower["reason"])
        stranger = by_student["stranger"]
        self.assertEqual(stranger["verdict"], "error")
        self.assertIn(f"refused: {LESSON}/helpers.cuh is not a file of the exercise", stranger["reason"])

        expected = {"correct": "pass", "wrong": "fail", "hang": "timeout", "fault": "fault", "cheater": "fail"}
        for student in [s for s in students if s in expected]:
            with self.subTest(student=student):
                record = by_student[student]
                self.assertEqual(record["verdict"], expected[student], record["reason"])
                self.assertEqual(record["seed"], 2024)
        self.assertTrue(by_student["cheater"]["reason"].startswith("too slow: reduce_neighbored_less"))
        self.assertIn(f"(from {thresholds}; the course's is", by_student["cheater"]["reason"])
        # A summary cell shows the check that decided, in its unit and direction.
        self.assertRegex(summary, r"\| fail \([a-z_/]+: [0-9.]+x \(at least [0-9.]+x\)\)")
        if "correct" in by_student:
            self.assertEqual(by_student["correct"]["correctness"], "pass")
            overridden = next(s for s in by_student["correct"]["speed_checks"]
                              if s["check"] == "reduce_neighbored_less")
            self.assertGreaterEqual(overridden["ratio"], overridden["threshold"])
            self.assertEqual(overridden["threshold"], value[backend])
            self.assertEqual(overridden["threshold_source"], str(thresholds))
        if "wrong" in by_student:
            self.assertEqual(by_student["wrong"]["correctness"], "fail")
            self.assertTrue(by_student["wrong"]["reason"].startswith("wrong result:"))


class SlurmOptions(unittest.TestCase):
    """--slurm's own options need it, its values are checked, and a machine without sbatch is told so
    after the scripts are written (no build needed)."""

    def test_options_values_and_a_machine_without_sbatch(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            (tmp / "class" / "ann").mkdir(parents=True)
            without = run_course("grade", "--submissions", str(tmp / "class"), "--partition", "gpu")
            self.assertEqual(without.returncode, 2, without.stdout)
            self.assertIn("usage: ./course grade --submissions DIR --slurm", without.stdout)
            bad = run_course("grade", "--submissions", str(tmp / "class"), "--slurm", "--time", "2 hours")
            self.assertEqual(bad.returncode, 2, bad.stdout)
            self.assertIn("--time 2 hours: not a value sbatch takes", bad.stdout)
            shard = run_course("grade", "--submissions", str(tmp / "class"), "--slurm", "--shard", "1/2")
            self.assertEqual(shard.returncode, 2, shard.stdout)
            self.assertIn("usage: ./course grade --submissions DIR --slurm", shard.stdout)
            if shutil.which("sbatch"):
                return
            result = run_course("grade", "--submissions", str(tmp / "class"), "--slurm", "--sim", "--out",
                                str(tmp / "out"))
            self.assertEqual(result.returncode, 1, result.stdout)
            self.assertIn("sbatch not found", result.stdout)
            self.assertIn("#SBATCH --array=1-1", (tmp / "out" / "slurm" / "grade.sbatch").read_text())


# nvidia-smi as a machine with two H100s and an H200 answers `--query-gpu=index,uuid,name`.
FAKE_SMI = """#!/bin/sh
echo "0, GPU-1111aaaa, NVIDIA H100 80GB HBM3"
echo "1, GPU-2222bbbb, NVIDIA H100 80GB HBM3"
echo "2, GPU-3333cccc, NVIDIA H200"
"""


class GpuOptions(unittest.TestCase):
    """--gpus: the GPUs a class is graded on, from nvidia-smi's list or CUDA_VISIBLE_DEVICES's (a
    Slurm task's), bad values refused with the machine's GPUs named (nvidia-smi played by a script:
    no GPU or build needed)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.bin = Path(self.tmp.name) / "bin"
        self.bin.mkdir()
        (self.bin / "nvidia-smi").write_text(FAKE_SMI)
        (self.bin / "nvidia-smi").chmod(0o755)
        self.path = f"{self.bin}:{os.environ.get('PATH', '')}"

    def tearDown(self):
        self.tmp.cleanup()

    def chosen(self, text: str | None, visible: str | None = None) -> list[tuple[str, str]]:
        driver = load_driver()
        with mock_env(PATH=self.path, CUDA_VISIBLE_DEVICES=visible):
            return driver.student.choose_gpus(text)

    def test_all_some_and_a_slurm_tasks_gpus(self):
        h100, h200 = "NVIDIA H100 80GB HBM3", "NVIDIA H200"
        self.assertEqual(self.chosen(None), [("0", h100), ("1", h100), ("2", h200)])
        self.assertEqual(self.chosen("all"), self.chosen(None))
        self.assertEqual(self.chosen("2,0"), [("2", h200), ("0", h100)])
        # A task that was given GPUs 2 and 1: --gpus counts those, and its graders get their values.
        self.assertEqual(self.chosen(None, visible="2,1"), [("2", h200), ("1", h100)])
        self.assertEqual(self.chosen("1", visible="2,1"), [("1", h100)])
        self.assertEqual(self.chosen(None, visible="GPU-3333"), [("GPU-3333", h200)])
        # CUDA stops at the first entry that names no GPU.
        self.assertEqual(self.chosen(None, visible="1,7,0"), [("1", h100)])

    def test_bad_values_name_the_machines_gpus(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "class" / "ann").mkdir(parents=True)
            for value, message in (("3", "GPU numbers from 0 to 2"), ("0,0", "GPU 0 is named twice"),
                                   ("one", "GPU numbers from 0 to 2"), ("", "GPU numbers from 0 to 2")):
                with self.subTest(value=value):
                    result = run_course("grade", "--submissions", str(Path(tmp) / "class"), "--gpu", "--gpus", value,
                                        env={"PATH": self.path})
                    self.assertEqual(result.returncode, 2, result.stdout)
                    self.assertIn(message, result.stdout)
                    if "from 0 to 2" in message:
                        self.assertIn("0 NVIDIA H100 80GB HBM3, 1 NVIDIA H100 80GB HBM3, 2 NVIDIA H200", result.stdout)
            on_simulator = run_course("grade", "--submissions", str(Path(tmp) / "class"), "--sim", "--gpus", "all")
            self.assertEqual(on_simulator.returncode, 2, on_simulator.stdout)
            self.assertIn("--gpus chooses GPUs to grade on, and this grading is on the CPU simulator",
                          on_simulator.stdout)
            student = run_course("grade", "03", "--gpus", "all")
            self.assertEqual(student.returncode, 2, student.stdout)
            self.assertIn("usage: ./course grade [NN ...]", student.stdout)


@unittest.skipUnless(build_dir(), "needs the configured build tree (COURSE_BUILD_DIR, set by CTest)")
@unittest.skipUnless((ROOT / "solutions").is_dir(), "needs the reference solutions (not in a student copy)")
class ClassInParts(unittest.TestCase):
    """--slurm --dry-run writes an array job of --shard parts and a merge job; run by hand as Slurm
    would run them (bash, SLURM_ARRAY_TASK_ID), they give the verdicts of the class graded at once
    with the same seed. --merge of a missing part leaves error rows; parts of different gradings are
    refused."""

    def test_parts_merge_into_the_whole_grading(self):
        work = grading_work()
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            made = make_class(tmp / "made")
            kept = [name for name in ("cheater", "correct", "stranger", "wrong") if name in made]
            for name in kept:
                shutil.move(str(tmp / "made" / name), str(tmp / "class" / name))
            backend = [] if grades_on_gpu() else ["--sim"]
            same = ["--submissions", str(tmp / "class"), "--seed", "77", "--timeout", "120", "--jobs", "2",
                    "--lessons", "03", *backend]
            written = run_course("grade", *same, "--slurm", "--dry-run", "--tasks", "2", "--partition", "gpu",
                                 "--time", "1:00:00", "--out", str(tmp / "slurm"))
            self.assertEqual(written.returncode, 0, written.stdout)
            self.assertIn("not submitted (--dry-run)", written.stdout)
            scripts = tmp / "slurm" / "slurm"
            grade_script = (scripts / "grade.sbatch").read_text()
            for line in ("#SBATCH --array=1-2", "#SBATCH --partition=gpu", "#SBATCH --time=1:00:00",
                         '--shard "$SLURM_ARRAY_TASK_ID/2"', "--seed 77"):
                self.assertIn(line, grade_script)
            merge_script = (scripts / "merge.sbatch").read_text()
            self.assertIn(f"--merge {tmp / 'slurm'} {tmp / 'slurm' / 'parts' / '1'}", merge_script)
            # What Slurm runs: the tasks of the array side by side (each in build trees of its own),
            # then the merge; the class graded at once runs beside them.
            tasks = [subprocess.Popen(["bash", str(scripts / "grade.sbatch")], stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL,
                                      env=dict(os.environ, SLURM_ARRAY_TASK_ID=task)) for task in ("1", "2")]
            whole = run_course("grade", *same, "--out", str(tmp / "whole"), "--work", str(work), timeout=900)
            self.assertEqual(whole.returncode, 0, whole.stdout[-4000:])
            for task in tasks:
                output, _ = task.communicate(timeout=900)
                self.assertEqual(task.returncode, 0, output[-6000:])
            ran = subprocess.run(["bash", str(scripts / "merge.sbatch")], capture_output=True, text=True, timeout=300)
            self.assertEqual(ran.returncode, 0, ran.stdout + ran.stderr)

            whole = json.loads((tmp / "whole" / "results.json").read_text())
            report = json.loads((tmp / "slurm" / "results.json").read_text())
            parts = tmp / "slurm" / "parts"
            part1 = {r["student"] for r in json.loads((parts / "1" / "results.json").read_text())["results"]}
            part2 = {r["student"] for r in json.loads((parts / "2" / "results.json").read_text())["results"]}
            self.assertEqual(sorted(part1 | part2), sorted(kept))
            self.assertFalse(part1 & part2)
            self.assertEqual(part1, set(sorted(kept)[0::2]))  # every second student in name order
            self.assertEqual(report["seed"], 77)
            self.assertEqual(sorted(p["shard"] for p in report["parts"]), ["1/2", "2/2"])
            # On the simulator the figures in the reasons are modelled, so the reasons are the same too.
            fields = ("student", "lesson", "verdict", "correctness") + (() if grades_on_gpu() else ("reason",))
            self.assertEqual([{k: r[k] for k in fields} for r in report["results"]],
                             [{k: r[k] for k in fields} for r in whole["results"]])
            summary = (tmp / "slurm" / "summary.md").read_text()
            for name in kept:
                self.assertIn(f"| {name} |", summary)

            # A part that never came back: its students are rows with the verdict error.
            alone = run_course("grade", "--merge", str(tmp / "alone"), str(parts / "2"))
            self.assertEqual(alone.returncode, 0, alone.stdout)
            rows = {r["student"]: r for r in json.loads((tmp / "alone" / "results.json").read_text())["results"]}
            self.assertEqual(sorted(rows), sorted(kept))
            for name in part1:
                self.assertEqual(rows[name]["verdict"], "error")
                self.assertTrue(rows[name]["reason"].startswith("not graded: part 1/2 did not grade it"),
                                rows[name]["reason"])
            self.assertIn("not graded in any part, reported as error: " + ", ".join(sorted(part1)), alone.stdout)

            # Parts of different gradings, and one part twice, are refused.
            shutil.copytree(parts / "1", tmp / "other_seed")
            settings = json.loads((tmp / "other_seed" / "grading.json").read_text())
            (tmp / "other_seed" / "grading.json").write_text(json.dumps(dict(settings, seed=78)))
            refused = run_course("grade", "--merge", str(tmp / "refused"), str(tmp / "other_seed"), str(parts / "2"))
            self.assertEqual(refused.returncode, 2, refused.stdout)
            self.assertIn("these are not parts of one grading: seed 78", refused.stdout)
            twice = run_course("grade", "--merge", str(tmp / "twice"), str(parts / "1"), str(parts / "1"))
            self.assertEqual(twice.returncode, 2, twice.stdout)
            self.assertIn("part 1/2 is given twice", twice.stdout)
            # A part that never started (a task that failed at once) leaves no grading: its students are errors.
            never = run_course("grade", "--merge", str(tmp / "never"), str(parts / "1"), str(tmp / "no_such_part"))
            self.assertEqual(never.returncode, 0, never.stdout)
            self.assertIn("no_such_part holds no part of a grading (it never started)", never.stdout)
            rows = {r["student"]: r for r in json.loads((tmp / "never" / "results.json").read_text())["results"]}
            self.assertEqual({n for n, r in rows.items() if r["verdict"] == "error" and
                              r["reason"].startswith("not graded: part 2/2")}, part2)
            whole_class = run_course("grade", "--merge", str(tmp / "wrong_kind"), str(tmp / "whole"))
            self.assertEqual(whole_class.returncode, 2, whole_class.stdout)
            self.assertIn("holds a whole class's grading, not a part of one", whole_class.stdout)


@unittest.skipUnless(build_dir(), "needs the configured build tree (COURSE_BUILD_DIR, set by CTest)")
class ClassFolder(unittest.TestCase):
    """Every entry of a class folder appears in the reports, graded or refused with the reason; with
    no GPU and neither --sim nor --gpu the class is graded on the simulator."""

    def test_every_entry_is_reported(self):
        work = grading_work()
        starter = (ROOT / "exercises" / LESSON / STUDENT_FILE).read_bytes()
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            folder = tmp / "class"
            folder.mkdir()
            (folder / "ivan.rar").write_bytes(b"Rar!")
            (folder / "judy.cu").write_bytes(starter)
            with tarfile.open(folder / "leo.TAR.GZ", "w:gz") as tar:
                info = tarfile.TarInfo(f"leo/{LESSON}/{STUDENT_FILE}")
                info.size = len(starter)
                tar.addfile(info, io.BytesIO(starter))
            (folder / "kim").mkdir()
            with zipfile.ZipFile(folder / "kim" / "kim.zip", "w") as archive:
                archive.writestr(f"{LESSON}/{STUDENT_FILE}", starter)
            (folder / "mallory").symlink_to(ROOT / "solutions")
            args = ["grade", "--submissions", str(folder), "--out", str(tmp / "out"), "--work", str(work),
                    "--seed", "5", "--timeout", "120", "--lessons", "03"]
            # Neither --sim nor --gpu, and no build tree chosen: the machine decides.
            result = run_course(*args, env={"COURSE_BUILD_DIR": "", "COURSE_PRESET": ""}, timeout=1500)
            self.assertEqual(result.returncode, 0, result.stdout[-4000:])
            if not has_gpu():
                self.assertIn("grading a class on the CPU simulator", result.stdout)
            report = {r["student"]: r for r in json.loads((tmp / "out" / "results.json").read_text())["results"]}
        self.assertEqual(sorted(report), ["ivan.rar", "judy.cu", "kim", "leo", "mallory"])
        self.assertIn("ivan.rar is neither a folder nor a .tar.gz", report["ivan.rar"]["reason"])
        self.assertIn("judy.cu is neither a folder nor a .tar.gz", report["judy.cu"]["reason"])
        self.assertIn("kim.zip: an archive inside a submission is not unpacked", report["kim"]["reason"])
        self.assertIn("mallory is a link", report["mallory"]["reason"])
        for name in ("ivan.rar", "judy.cu", "kim", "mallory"):
            self.assertEqual(report[name]["verdict"], "error", name)
        self.assertEqual(report["leo"]["verdict"], "fail", report["leo"]["reason"])
        self.assertTrue(report["leo"]["reason"].startswith("too slow: reduce_neighbored_less"))


@unittest.skipUnless(build_dir(), "needs the configured build tree (COURSE_BUILD_DIR, set by CTest)")
@unittest.skipUnless(os.environ.get("COURSE_SLOW_TESTS"), "slow (grades every gaming attempt as a student): "
                     "COURSE_SLOW_TESTS=1")
class GamingClass(unittest.TestCase):
    """Every kind of attempt of tests/gaming/ (each file name, in the first lesson that has it) as a
    student of one class: none may pass, each for its reason. (Every attempt of every lesson is
    graded on its own by CTest, label gaming, through the same verdict code.)"""

    def test_no_attempt_passes(self):
        sys.path.insert(0, str(ROOT / "tests" / "gaming"))
        from make_class import make_class

        work = grading_work()
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            expected = make_class(tmp / "class", each_kind_once=True)
            report = grade_class(self, tmp, work, seed=7, timeout=120, limit=3000)
        verdicts = {}
        for record in report["results"]:
            if record["verdict"] != "not submitted":
                verdicts[record["student"]] = f"{record['verdict']}: {record['reason']}"
        self.assertEqual(sorted(verdicts), sorted(expected))
        for student, seen in verdicts.items():
            with self.subTest(student=student):
                self.assertFalse(seen.startswith("pass"), seen)
                self.assertRegex(seen, expected[student])


if __name__ == "__main__":
    unittest.main()


@unittest.skipUnless((ROOT / "solutions").is_dir(), "needs the reference solutions (not in a student copy)")
class EveryLessonsChecks(unittest.TestCase):
    """A student who hands in every lesson's reference: the reports carry every speed or technique
    check each grader lists for the back end, each with its figure, direction, threshold and unit,
    in results.json and in results.csv's checks column. The lessons in three parts (every third
    lesson from the first, the second, the third), each a test that CTest runs beside the others."""

    def test_lessons_from_the_first(self):
        self.check_every_third_lesson(0)

    def test_lessons_from_the_second(self):
        self.check_every_third_lesson(1)

    def test_lessons_from_the_third(self):
        self.check_every_third_lesson(2)

    def check_every_third_lesson(self, first: int):
        work = grading_work()
        lessons = sorted(p.name for p in (ROOT / "solutions").iterdir() if p.is_dir())[first::3]
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            for lesson in lessons:
                shutil.copytree(ROOT / "solutions" / lesson, tmp / "class" / "reference" / lesson)
            report = grade_class(self, tmp, work, seed=11, timeout=300, limit=2400,
                                 lessons=[lesson[:2] for lesson in lessons])
            rows = {row["lesson"]: row for row in csv.DictReader(open(tmp / "out" / "results.csv"))}
        backend = "gpu" if grades_on_gpu() else "sim"
        records = {r["lesson"]: r for r in report["results"]}
        self.assertEqual(sorted(records), sorted(lesson[:2] for lesson in lessons))
        for number, record in sorted(records.items()):
            with self.subTest(lesson=number):
                self.assertEqual(record["verdict"], "pass", record["reason"])
                listed = listed_checks(number, backend)
                measured = {c["check"]: c for c in record["speed_checks"]}
                self.assertTrue(listed, f"lesson {number} lists no {backend} checks")
                for name in listed:
                    self.assertIn(name, measured, f"lesson {number}: {name} has no figure in results.json")
                    check = measured[name]
                    self.assertIsInstance(check.get("ratio"), (int, float), check)
                    self.assertIsInstance(check.get("threshold"), (int, float), check)
                    self.assertIn("unit", check)
                    self.assertIn("at_most", check)
                    self.assertIn(f"{name}: ", rows[number]["checks"])
                row = rows[number]
                self.assertTrue(row["check"] and row["ratio"] and row["threshold"], row)


def listed_checks(number: str, backend: str) -> list[str]:
    """The checks lessonNN_grader --list-checks names for one back end (a grader of any build tree
    lists those of both)."""
    folder = (build_dir() or ROOT / "build" / ("gpu" if grades_on_gpu() else "sim")) / "lessons"
    lesson = next(item for item in load_driver().lessons.all_lessons() if item.number == number)
    listing = subprocess.run([str(folder / f"{lesson.target}_grader"), "--list-checks"], capture_output=True,
                             text=True, check=True).stdout.splitlines()
    return [line.split()[1] for line in listing if line.split()[:1] == [backend]]
