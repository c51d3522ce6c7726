"""./course grade --submissions DIR --slurm: a class graded by a Slurm cluster. Writes two batch
scripts, an array job whose task I grades part I of N of the class (`--shard I/N`, one GPU each) and
a merge job that runs after every task has ended, however it ended (`--dependency=afterany`), and
submits them with sbatch; `--dry-run` only writes them. The scripts are plain and commented, to be
edited for a cluster's accounts, modules and limits (docs/driver.md, "A class on a Slurm cluster")."""

from __future__ import annotations

import datetime
import re
import secrets
import shlex
import shutil
import subprocess
from pathlib import Path

from . import common

TASKS_DEFAULT = 8


def check_value(option: str, value: str | None, pattern: str, example: str) -> None:
    if value is not None and not re.fullmatch(pattern, value):
        common.fail(f"{option} {value}: not a value sbatch takes (for example {example})", common.BAD_USAGE)


def grade_script(*, course: Path, out: Path, count: int, grade_options: list[str], partition: str | None,
                 gres: str | None, time_limit: str | None) -> str:
    """The array job: task I grades part I/count into out/parts/I, in build trees of its own."""
    header = ["#!/bin/bash", "#SBATCH --job-name=course-grade", f"#SBATCH --array=1-{count}",
              f"#SBATCH --output={out}/slurm/grade-%a.out"]
    header += [f"#SBATCH --partition={partition}"] if partition else []
    header += [f"#SBATCH --gres={gres}"] if gres else []
    header += [f"#SBATCH --time={time_limit}"] if time_limit else []
    command = " ".join(shlex.quote(a) for a in [str(course), "grade", *grade_options])
    return "\n".join(header + [
        "# Add what your cluster needs here: #SBATCH --account=..., module load cuda, ...",
        "set -euo pipefail",
        f"part={shlex.quote(str(out))}/parts/$SLURM_ARRAY_TASK_ID",
        "# A task that runs again (requeued) continues its part instead of starting over.",
        "resume=",
        'if [ -f "$part/grading.json" ]; then resume=--resume; fi',
        f'{command} --shard "$SLURM_ARRAY_TASK_ID/{count}" --out "$part" \\',
        f'    --work {shlex.quote(str(out))}/work/"$SLURM_ARRAY_TASK_ID" --quiet $resume',
        ""])


def merge_script(*, course: Path, out: Path, count: int, partition: str | None) -> str:
    """The merge job: the class's reports in `out` from every part, once all tasks have ended."""
    header = ["#!/bin/bash", "#SBATCH --job-name=course-merge", f"#SBATCH --output={out}/slurm/merge.out"]
    header += [f"#SBATCH --partition={partition}"] if partition else []
    parts = " ".join(f"{shlex.quote(str(out))}/parts/{i}" for i in range(1, count + 1))
    return "\n".join(header + [
        "# Runs after every grading task has ended, whatever its end: a part that failed or ran out of",
        "# time leaves its students as rows with the verdict error and the reason.",
        "set -euo pipefail",
        f"{shlex.quote(str(course))} grade --merge {shlex.quote(str(out))} {parts}",
        ""])


def submit(*, submissions: str, out_text: str | None, seed: int | None, tasks: int | None, partition: str | None,
           gres: str | None, time_limit: str | None, dry_run: bool, on_simulator: bool,
           grade_options: list[str]) -> int:
    """Writes the scripts into OUT/slurm/, and unless `dry_run` submits them; prints the job ids and
    where the reports will be. `grade_options`: the class options every task passes on (lessons,
    time limit, thresholds, jobs, ...), without --submissions, --seed, --out and --shard."""
    check_value("--partition", partition, r"[A-Za-z0-9_.,-]+", "gpu")
    check_value("--gres", gres, r"[A-Za-z0-9_:.,-]+", "gpu:1")
    check_value("--time", time_limit, r"[0-9:-]+", "2:00:00")
    source = Path(submissions).expanduser().resolve()
    if not source.is_dir():
        common.fail(f"--submissions {submissions}: not a folder", common.BAD_USAGE)
    students = [p for p in source.iterdir() if not p.name.startswith(".")]
    count = min(tasks or TASKS_DEFAULT, max(len(students), 1))
    # Every part needs the same seed: drawn here when not given.
    seed = secrets.randbelow(2**32) if seed is None else seed
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(out_text).expanduser().resolve() if out_text else common.ROOT / "build" / "grading-results" / stamp
    if (out / "slurm").exists() or (out / "results.json").exists():
        common.fail(f"--out {out} holds a grading already: choose another folder", common.BAD_USAGE)
    (out / "slurm").mkdir(parents=True)
    (out / "parts").mkdir()
    gres = gres if gres is not None else (None if on_simulator else "gpu:1")
    options = ["--submissions", str(source), "--seed", str(seed), *grade_options,
               "--sim" if on_simulator else "--gpu"]
    course = common.ROOT / "course"
    grade_file = out / "slurm" / "grade.sbatch"
    merge_file = out / "slurm" / "merge.sbatch"
    grade_file.write_text(grade_script(course=course, out=out, count=count, grade_options=options,
                                       partition=partition, gres=gres, time_limit=time_limit))
    merge_file.write_text(merge_script(course=course, out=out, count=count, partition=partition))
    common.say(f"{count} grading tasks for {len(students)} submissions, seed {seed}: {grade_file}, {merge_file}")
    if dry_run:
        common.say(f"not submitted (--dry-run); to submit: sbatch --parsable {grade_file}, then sbatch "
                   f"--dependency=afterany:<its job id> {merge_file}")
        return 0
    sbatch = shutil.which("sbatch")
    if not sbatch:
        common.fail("sbatch not found: run this on a Slurm login node, or use --dry-run and submit the scripts "
                    "there")
    graded = run_sbatch([sbatch, "--parsable", str(grade_file)])
    merged = run_sbatch([sbatch, "--parsable", f"--dependency=afterany:{graded}", str(merge_file)])
    common.say(f"submitted: grading array job {graded} ({count} tasks), merge job {merged} after it; "
               f"`squeue -j {graded},{merged}` follows them; the class's reports will be {out / 'summary.md'}, "
               f"{out / 'results.csv'}, {out / 'results.json'}")
    return 0


def run_sbatch(command: list[str]) -> str:
    """sbatch --parsable: the job id ("1234" or "1234;cluster"); stops with sbatch's message."""
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        common.fail(f"{' '.join(command)} failed: {(result.stderr or result.stdout).strip()}")
    return result.stdout.strip().split(";")[0]
