"""./course grade --slurm on a real Slurm cluster: a one-node cluster started on this machine
(tests/slurm/cluster.sh: munge, slurmctld, slurmd), a class of four lesson 03 submissions graded
through the array job and the merge job the driver submits, on the CPU simulator, and the merged
reports compared with the same class graded here at once with the same seed, verdict for verdict.

It needs root and Debian's slurmctld, slurmd, slurm-client and munge, and runs where
COURSE_SLURM_TEST=1 says it may start daemons (.ci/run sets it); elsewhere it reports skipped.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

from support import COURSE, ROOT, build_dir, fixture_submission, grading_work, run_course, simulator_tree

LESSON = "03_neighbored_reduction"
STUDENT_FILE = "reduce_neighbored_less.cu"
SEED = "4242"
CLUSTER = ROOT / "tests" / "slurm" / "cluster.sh"


def make_class(folder: Path) -> None:
    """Four students, one to each verdict and a task of the three with two of them: the reference,
    the starter, a wrong bound, a compile error."""
    solution = ROOT / "solutions" / LESSON / STUDENT_FILE
    starter = ROOT / "exercises" / LESSON / STUDENT_FILE
    for name, source in (("reference", solution), ("starter", starter)):
        (folder / name / LESSON).mkdir(parents=True)
        shutil.copy(source, folder / name / LESSON / STUDENT_FILE)
    (folder / "wrong" / LESSON).mkdir(parents=True)
    subprocess.run([sys.executable, str(ROOT / "cmake" / "apply_patch.py"),
                    str(ROOT / "tests" / "planted" / LESSON / "wrong_bound.patch"), str(solution),
                    str(folder / "wrong" / LESSON / STUDENT_FILE)], check=True)
    fixture_submission("compile_error", folder / "compile_error")


def verdicts(report: Path) -> dict:
    return {(r["student"], r["lesson"]): (r["verdict"], r["correctness"], r["reason"].split(" (")[0])
            for r in json.loads(report.read_text())["results"]}


@unittest.skipUnless(os.environ.get("COURSE_SLURM_TEST") == "1", "starts a Slurm cluster on this machine: "
                     "COURSE_SLURM_TEST=1 (as root, with slurmctld slurmd slurm-client munge installed)")
@unittest.skipUnless(simulator_tree(), "needs a configured simulator tree (COURSE_BUILD_DIR, preset sim)")
@unittest.skipUnless((ROOT / "solutions").is_dir(), "needs the reference solutions (not in a student copy)")
class SlurmCluster(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.root = Path(cls.tmp.name)
        cls.root.chmod(0o755)  # the cluster's munged runs as the munge user
        cls.cluster = cls.root / "cluster"
        started = subprocess.run(["bash", str(CLUSTER), "start", str(cls.cluster)], capture_output=True, text=True)
        if started.returncode != 0:
            cls.tmp.cleanup()
            raise RuntimeError(f"the one-node cluster did not start: {started.stderr}")
        cls.env = {"SLURM_CONF": str(cls.cluster / "slurm.conf"), "COURSE_BUILD_DIR": str(build_dir()),
                   "COURSE_PRESET": ""}

    @classmethod
    def tearDownClass(cls):
        subprocess.run(["bash", str(CLUSTER), "stop", str(cls.cluster)], capture_output=True)
        cls.tmp.cleanup()

    def slurm(self, *command: str) -> str:
        env = dict(os.environ, **self.env)
        return subprocess.run(list(command), capture_output=True, text=True, env=env).stdout

    def test_the_merged_reports_equal_a_grading_at_once(self):
        make_class(self.root / "class")
        out = self.root / "slurm-grading"
        submitted = run_course("grade", "--submissions", str(self.root / "class"), "--sim", "--lessons", "03",
                               "--seed", SEED, "--slurm", "--tasks", "3", "--out", str(out), env=self.env)
        self.assertEqual(submitted.returncode, 0, submitted.stdout)
        print(submitted.stdout)
        jobs = re.search(r"grading array job (\d+) \(3 tasks\), merge job (\d+) after it", submitted.stdout)
        self.assertIsNotNone(jobs, submitted.stdout)
        ids = f"{jobs[1]},{jobs[2]}"
        # The same class graded here at once, beside the cluster's jobs.
        here = self.root / "at-once"
        at_once = subprocess.Popen(
            [sys.executable, str(COURSE), "grade", "--submissions", str(self.root / "class"), "--sim", "--lessons",
             "03", "--seed", SEED, "--out", str(here), "--work", str(grading_work()), "--quiet"],
            env=dict(os.environ, **self.env), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            stdin=subprocess.DEVNULL)
        print(self.slurm("squeue", "-j", ids))
        deadline = time.monotonic() + 900
        while self.slurm("squeue", "-h", "-j", ids).strip() and time.monotonic() < deadline:
            time.sleep(2)
        print(self.slurm("sacct", "--completion", "-o", "JobID,JobName,State,ExitCode,Start,End"))
        for script in ("grade.sbatch", "merge.sbatch"):
            print(f"--- {script}\n" + (out / "slurm" / script).read_text())
        self.assertFalse(self.slurm("squeue", "-h", "-j", ids).strip(), "the jobs did not end in 900 s")
        merge_log = (out / "slurm" / "merge.out").read_text()
        self.assertTrue((out / "results.json").exists(), merge_log)
        print((out / "summary.md").read_text())
        merged = json.loads((out / "results.json").read_text())
        self.assertEqual([p["shard"] for p in merged["parts"]], ["1/3", "2/3", "3/3"])

        output, _ = at_once.communicate(timeout=900)
        self.assertEqual(at_once.returncode, 0, output)
        expected = verdicts(here / "results.json")
        self.assertEqual(verdicts(out / "results.json"), expected)
        self.assertEqual(sorted({student for student, _ in expected}),
                         ["compile_error", "reference", "starter", "wrong"])
        shown = {student: verdict for (student, _), (verdict, _, _) in expected.items()}
        self.assertEqual(shown, {"reference": "pass", "starter": "fail", "wrong": "fail",
                                 "compile_error": "compile error"})


if __name__ == "__main__":
    unittest.main()
