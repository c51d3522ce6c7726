"""Grading a class: ./course grade --submissions DIR. Each entry of DIR (a folder shaped like
exercises/, or an archive of one) is checked, laid over the starters, built on its own and graded
by the course's own graders; reports.py writes what came of it."""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import datetime
import fcntl
import json
import os
import queue
import re
import secrets
import shutil
import subprocess
import tarfile
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from . import building, common, environment, lessons, reports, sanitizer, shards, simulator_pass, thresholds, verdict
from .records import RecordLog
from .submission import Submission

ARCHIVES = (".tar.gz", ".tgz", ".tar", ".zip")


def archive_suffix(path: Path) -> str | None:
    """The archive type a file's name says (in any letter case), or None."""
    return next((suffix for suffix in ARCHIVES if path.name.lower().endswith(suffix)), None)


def submission_name(path: Path) -> str:
    suffix = archive_suffix(path) if path.is_file() else None
    return path.name[: -len(suffix)] if suffix else path.name


# The most a submitted file, and a whole archive unpacked, may hold: kernels are a few kilobytes.
MAX_SUBMITTED_FILE = 1 << 20
MAX_UNPACKED = 16 << 20


class Refused(Exception):
    """A submission, or one of its files, that is not graded: the message says why."""


def safe_member(name: str) -> bool:
    parts = Path(name).parts
    return bool(parts) and not Path(name).is_absolute() and ".." not in parts


def unpack(archive: Path, into: Path) -> None:
    """Extracts a .tar.gz/.tgz/.tar/.zip into `into` and nowhere else. Raises Refused for an
    absolute path, a '..', a link, a device or another special file, a file over
    MAX_SUBMITTED_FILE or an archive that unpacks to more than MAX_UNPACKED."""
    into.mkdir(parents=True)
    total = 0

    def write(name: str, size: int, read) -> None:
        nonlocal total
        if not safe_member(name):
            raise Refused(f"{archive.name}: the member '{name}' would land outside the submission's folder")
        if size > MAX_SUBMITTED_FILE:
            raise Refused(f"{archive.name}: '{name}' holds {size} bytes, more than the {MAX_SUBMITTED_FILE} allowed")
        total += size
        if total > MAX_UNPACKED:
            raise Refused(f"{archive.name}: unpacks to more than {MAX_UNPACKED} bytes")
        data = read()
        if len(data) > size:  # the header lied about the size
            raise Refused(f"{archive.name}: '{name}' is larger than the archive says")
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)

    if archive_suffix(archive) == ".zip":
        with zipfile.ZipFile(archive) as z:
            for info in z.infolist():
                if info.is_dir():
                    continue
                mode = info.external_attr >> 16
                if mode and (mode & 0o170000) not in (0, 0o100000):
                    raise Refused(f"{archive.name}: '{info.filename}' is a link or a special file")
                with z.open(info) as member:
                    write(info.filename, info.file_size, lambda: member.read(MAX_SUBMITTED_FILE + 1))
        return
    with tarfile.open(archive) as t:
        for member in t.getmembers():
            if member.isdir():
                continue
            if not member.isfile():
                raise Refused(f"{archive.name}: '{member.name}' is a link or a special file")
            source = t.extractfile(member)
            write(member.name, member.size,
                  lambda source=source: source.read(MAX_SUBMITTED_FILE + 1) if source else b"")


def exercises_root(folder: Path) -> Path:
    """The folder that holds the NN_name lesson folders: the top, or the one folder inside it
    (an archive of 'exercises/' or of 'alice/')."""
    current = folder
    for _ in range(3):
        if any(p.is_dir() and re.match(r"\d\d_", p.name) for p in current.iterdir()):
            return current
        subfolders = [p for p in current.iterdir() if p.is_dir() and not p.name.startswith((".", "__MACOSX"))]
        if (current / "exercises").is_dir():
            current = current / "exercises"
        elif len(subfolders) == 1:
            current = subfolders[0]
        else:
            break
    return current


def prepare(submission: Submission, staging: Path) -> None:
    """The submission's files over a copy of the starters, so that every lesson builds: in
    staging/<name>, a folder of this grading's own."""
    folder = staging / submission.name
    if folder.exists():
        shutil.rmtree(folder)
    if submission.source.is_dir():
        root = exercises_root(submission.source)
    else:
        try:
            unpack(submission.source, folder / "unpacked")
        except Refused as error:
            submission.problem = f"refused: {error}"
            return
        except (OSError, tarfile.TarError, zipfile.BadZipFile, EOFError) as error:
            submission.problem = f"cannot unpack {submission.source.name}: {error}"
            return
        root = exercises_root(folder / "unpacked")
    if not any(p.is_dir() and re.match(r"\d\d_", p.name) for p in root.iterdir()):
        nested = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and archive_suffix(p))
        if nested:
            submission.problem = (f"refused: {', '.join(nested)}: an archive inside a submission is not unpacked; "
                                  "hand in its contents, or the archive itself at the top of the class folder")
            return
    # The starters as committed (never the working tree's exercises/, which may hold someone's
    # finished kernels), then the student's files over them.
    composed = folder / "exercises"
    shutil.copytree(common.ROOT / "exercises", composed, ignore=shutil.ignore_patterns(".*", "*~"))
    for lesson in lessons.all_lessons():
        starter = lessons.starter_files(lesson)
        if starter is not None:
            shutil.rmtree(composed / lesson.folder, ignore_errors=True)
            for name, content in starter.items():
                (composed / lesson.folder / name).parent.mkdir(parents=True, exist_ok=True)
                (composed / lesson.folder / name).write_bytes(content)
    for lesson in lessons.all_lessons():
        theirs = root / lesson.folder
        if not theirs.is_dir() and not theirs.is_symlink():
            continue
        starters = {str(p.relative_to(composed / lesson.folder)) for p in (composed / lesson.folder).rglob("*")
                    if p.is_file()}
        try:
            files = submitted_files(theirs, starters)
        except Refused as error:
            submission.refused[lesson.number] = f"refused: {error}"
            continue
        if not files:
            continue
        for name in files:
            target = composed / lesson.folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(theirs / name, target)
        submission.submitted[lesson.number] = files
        submission.filled[lesson.number] = sorted(starters - set(files))
    submission.exercises = composed


def submitted_files(folder: Path, allowed: set[str]) -> list[str]:
    """The files of one lesson folder of a submission, by name relative to it. Raises Refused for
    a link (the folder itself included), a special file, a file the exercise does not have or one
    over MAX_SUBMITTED_FILE: nothing but the exercise's own files reaches the build."""
    if folder.is_symlink():
        raise Refused(f"{folder.name}/ is a link")
    files = []
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.name.startswith(".") or path.is_dir() and not path.is_symlink():
            continue
        if path.is_symlink():
            raise Refused(f"{folder.name}/{name} is a link")
        if not path.is_file():
            raise Refused(f"{folder.name}/{name} is not a regular file")
        if name not in allowed:
            raise Refused(f"{folder.name}/{name} is not a file of the exercise "
                          f"(its files: {', '.join(sorted(allowed))})")
        if path.stat().st_size > MAX_SUBMITTED_FILE:
            raise Refused(f"{folder.name}/{name} is larger than {MAX_SUBMITTED_FILE} bytes")
        files.append(name)
    return files


def clock(seconds: float) -> str:
    """"4m05s", "37s": a duration for a progress line."""
    seconds = int(seconds)
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


@dataclasses.dataclass
class WorkTree:
    """One job's build tree and the exercises folder it is configured for: configured once, then each
    student's files are copied into that folder in turn (configuring anew for every student cost
    more than building the student's code). `held`: the tree's lock file, open while this grading
    holds the tree (take_trees)."""
    build: Path
    exercises: Path
    held: IO[str]
    configured: bool = False

    def take(self, composed: Path) -> None:
        """A submission's composed exercises in place of the last one's. Every file is written anew,
        so that the build sees each as changed whatever time the student's copy carries."""
        shutil.rmtree(self.exercises, ignore_errors=True)
        shutil.copytree(composed, self.exercises, copy_function=shutil.copyfile)


def take_trees(work: Path, count: int) -> list[WorkTree]:
    """`count` build trees of `work` that no other grading holds: the first free ones of tree0,
    tree1, ..., each held by an flock(2) on treeN.lock until the grading ends (the kernel releases it
    however the process ends). Gradings that share a --work folder, at once or one after another,
    so never build in one tree together, and a tree left by an earlier grading keeps its
    configuration and its build."""
    trees: list[WorkTree] = []
    index = 0
    while len(trees) < count:
        held = open(work / f"tree{index}.lock", "a")  # held open until the grading ends
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            held.close()
        else:
            trees.append(WorkTree(work / f"tree{index}", work / f"tree{index}_exercises", held))
        index += 1
    return trees


class BatchGrader:
    def __init__(self, *, out: Path, work: Path, jobs: int, seed: int, timeout: float, thresholds_file: Path | None,
                 only: list[str] | None, arch: str | None, on_simulator: bool = False, memory_limit: int | None = None,
                 simulator_graders: dict[str, tuple[Path | None, str]] | None = None,
                 records: RecordLog | None = None, total: int = 0, quiet: bool = False,
                 gpus: list[tuple[str, str]] | None = None):
        self.memory_limit = memory_limit
        self.simulator_graders = simulator_graders or {}  # lesson number -> (grader, why not built)
        self.on_simulator = on_simulator
        self.records = records
        self.total = total
        self.done = 0
        self.quiet = quiet
        self.started = time.monotonic()
        self.out = out
        self.jobs = jobs
        self.seed = seed
        self.timeout = timeout
        self.thresholds_file = thresholds_file
        self.only = only
        self.variables = building.preset_cache_variables(building.preset())
        if arch:
            self.variables["CMAKE_CUDA_ARCHITECTURES"] = arch
        # The interpreter the course's own tree found: each job's tree is spared the search.
        if (building.build_dir() / "CMakeCache.txt").exists():
            python = building.cache_entries(building.build_dir()).get("Python3_EXECUTABLE")
            if python:
                self.variables.setdefault("Python3_EXECUTABLE", python)
        self.trees: queue.Queue[WorkTree] = queue.Queue()
        self.taken = take_trees(work, jobs)
        for tree in self.taken:
            self.trees.put(tree)
        # The submissions laid over the starters: beside this grading's first tree, its own too.
        self.staging = self.taken[0].build.with_name(f"{self.taken[0].build.name}_submissions")
        # A grader's timings must have its GPU alone: one grader per GPU at a time, each GPU taken from
        # this queue by the job that grades next (CUDA_VISIBLE_DEVICES, so the grader sees that card
        # only). The simulator's times are modelled, so its graders run side by side, one per job.
        self.gpus: queue.Queue[tuple[str, str]] = queue.Queue()
        for gpu in ([] if on_simulator else gpus or [("", "")]):
            self.gpus.put(gpu)
        self.print_lock = threading.Lock()
        self.cores_per_job = max(1, (os.cpu_count() or 2) // jobs)

    def release_trees(self) -> None:
        """The trees back to the other gradings of the --work folder."""
        for tree in self.taken:
            tree.held.close()

    def say(self, text: str) -> None:
        if self.quiet:
            return
        with self.print_lock:
            print(f"course: {text}", flush=True)

    def finished(self, submission: Submission, chosen: list[lessons.Lesson], text: str) -> None:
        """One student done: the line, with done/total, the time so far and an estimate of the rest."""
        with self.print_lock:
            self.done += 1
            elapsed = time.monotonic() - self.started
            left = elapsed / self.done * (self.total - self.done)
            line = (f"[{self.done}/{self.total}] {submission.name}: {text} ({clock(elapsed)} so far"
                    + (f", about {clock(left)} left)" if self.done < self.total else ")"))
        self.say(line)

    def record(self, submission: Submission, lesson: lessons.Lesson) -> None:
        """The lesson's row, on disk at once: an interrupted grading loses nothing finished."""
        submission.recorded.add(lesson.number)
        outcome = submission.outcomes[lesson.number]
        if self.records is not None:
            self.records.append(reports.outcome_record(submission, lesson, outcome, self.out))
        outcome.output = ""  # in its log file now: a class of hundreds is not held in memory

    def configure(self, tree: WorkTree) -> tuple[bool, str]:
        command = ["cmake", "-S", str(common.ROOT), "-B", str(tree.build), "-G", "Ninja",
                   f"-DCOURSE_EXERCISES_DIR={tree.exercises}", "-DCOURSE_WITH_SOLUTIONS=OFF"]
        command += [f"-D{k}={v}" for k, v in self.variables.items()]
        try:
            result = common.run(command, capture_output=True, text=True, errors="replace", timeout=600)
        except subprocess.TimeoutExpired:
            return False, "configuring took longer than 600 s"
        return result.returncode == 0, result.stdout + result.stderr

    def build_lesson(self, tree: Path, lesson: lessons.Lesson) -> tuple[bool, str]:
        """Builds the submission's modules (and student program) of one lesson in `tree`: only
        the student's code; the grader that runs them is the course's own (build_dir())."""
        modules = tree / "modules" / "exercise" / lesson.folder
        shutil.rmtree(modules, ignore_errors=True)  # never grade the previous student's modules
        command = ["cmake", "--build", str(tree), "--target", f"{lesson.target}_exercise_modules",
                   "-j", str(self.cores_per_job)]
        try:
            result = common.run(command, capture_output=True, text=True, errors="replace", timeout=900)
        except subprocess.TimeoutExpired:
            return False, "the build took longer than 900 s"
        return result.returncode == 0 and modules.is_dir(), result.stdout + result.stderr

    def grade(self, submission: Submission, chosen: list[lessons.Lesson]) -> None:
        """Grades one submission's lessons; each lesson's row is on disk as soon as it is known."""
        summary = ""
        try:
            summary = self.grade_lessons(submission, chosen)
        finally:
            for lesson in chosen:
                if lesson.number in submission.outcomes and lesson.number not in submission.recorded:
                    self.record(submission, lesson)
            self.finished(submission, chosen, summary or ", ".join(
                f"{n}: {o.verdict}" for n, o in sorted(submission.outcomes.items())))

    def grade_lessons(self, submission: Submission, chosen: list[lessons.Lesson]) -> str:
        """Fills submission.outcomes; returns the progress line's text when it is not the verdicts."""
        logs = self.out / "logs" / submission.name
        logs.mkdir(parents=True, exist_ok=True)
        if not submission.problem:
            prepare(submission, self.staging)
        if submission.problem:
            for lesson in chosen:
                submission.outcomes[lesson.number] = verdict.Outcome("error", reason=submission.problem)
            return submission.problem
        todo = [lesson for lesson in chosen if lesson.number in submission.submitted]
        for lesson in chosen:
            if lesson.number in submission.refused:
                submission.outcomes[lesson.number] = verdict.Outcome("error", reason=submission.refused[lesson.number])
            elif lesson not in todo:
                submission.outcomes[lesson.number] = verdict.Outcome("not submitted",
                                                                     reason=f"no files in {lesson.folder}/")
        if not todo:
            if submission.refused:
                return "; ".join(f"lesson {number}: {why}" for number, why in sorted(submission.refused.items()))
            return (f"no lesson folders found (a lesson's files go in a folder named as in exercises/, e.g. "
                    f"{chosen[0].folder}/)")
        tree = self.trees.get()
        try:
            tree.take(submission.exercises)
            ok, log = True, ""
            if not tree.configured:
                ok, log = self.configure(tree)
                tree.configured = ok
                (logs / "configure.log").write_text(log)
            built: list[lessons.Lesson] = []
            for lesson in todo:
                if ok:
                    lesson_ok, lesson_log = self.build_lesson(tree.build, lesson)
                    (logs / f"{lesson.target}_build.log").write_text(lesson_log)
                else:
                    lesson_ok, lesson_log = False, log
                if lesson_ok:
                    built.append(lesson)
                else:
                    # Paths relative to the student's own folder: "03_x/file.cu(13): error: ..."
                    reason = building.first_compile_errors(lesson_log).replace(f"{tree.exercises}/", "")
                    submission.outcomes[lesson.number] = verdict.Outcome("compile error", reason=reason,
                                                                         correctness="fail", output=lesson_log)
            for lesson in built:
                grader = building.build_dir() / "lessons" / f"{lesson.target}_grader"
                results = self.out / "results" / submission.name / f"{lesson.target}.json"
                with self.one_gpu() as gpu:
                    outcome = verdict.run_grader(grader, results, modules=tree.build / "modules" / "exercise",
                                                 seed=self.seed, thresholds=self.thresholds_file, timeout=self.timeout,
                                                 memory_limit=self.memory_limit, on_gpu=not self.on_simulator, gpu=gpu,
                                                 simulator_threads=self.cores_per_job if self.on_simulator else None)
                outcome.gpu = gpu
                # The simulator's pass runs on the CPU: meanwhile the GPU grades another student.
                if outcome.verdict == "pass" and outcome.backend == "gpu" and simulator_pass.wanted(lesson):
                    passed = self.run_simulator_pass(lesson, tree.build / "modules" / "exercise")
                    outcome.apply_simulator_pass(passed.finding, passed.note, passed.error)
                if outcome.verdict == "pass" and outcome.backend == "gpu":
                    with self.one_gpu() as gpu:
                        checked = sanitizer.run(grader, verdict.read_results(results),
                                                modules=tree.build / "modules" / "exercise", seed=self.seed, gpu=gpu)
                    outcome.apply_sanitizer(checked.finding, checked.note)
                (logs / f"{lesson.target}.log").write_text(outcome.output)
                submission.outcomes[lesson.number] = outcome
                self.record(submission, lesson)
        finally:
            self.trees.put(tree)
        return ""


    @contextlib.contextmanager
    def one_gpu(self) -> Iterator[str | None]:
        """A GPU of the grading's, this job's alone until the block ends: its CUDA_VISIBLE_DEVICES
        value ("" where the grader may see whatever CUDA finds); None on the simulator."""
        if self.on_simulator:
            yield None
            return
        gpu = self.gpus.get()
        try:
            yield gpu[0]
        finally:
            self.gpus.put(gpu)

    def run_simulator_pass(self, lesson: lessons.Lesson, modules: Path) -> simulator_pass.SimulatorPass:
        sim_grader, why = self.simulator_graders.get(lesson.number, (None, "not built"))
        if sim_grader is None:
            return simulator_pass.SimulatorPass(
                error=f"the simulator's grader of lesson {lesson.number} did not build: {why}")
        return simulator_pass.run(lesson, sim_grader, modules, self.seed)


def find_submissions(folder: Path) -> list[Submission]:
    """One submission per entry of the class folder (hidden ones aside): a folder or a known
    archive is graded; anything else is a submission refused with the reason, so that every entry
    appears in the reports."""
    found = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith("."):
            continue
        submission = Submission(submission_name(path), path)
        if path.is_symlink():
            submission.problem = f"refused: {path.name} is a link"
        elif not path.is_dir() and not (path.is_file() and archive_suffix(path)):
            submission.problem = (f"refused: {path.name} is neither a folder nor a .tar.gz, .tgz, .tar or .zip "
                                  "archive")
        found.append(submission)
    names = [s.name for s in found]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        common.fail(f"two submissions have the same name: {', '.join(duplicates)} (a folder and an archive?)")
    return found


GRADING_FILE = "grading.json"  # what a grading was started with, for --resume


def grade_class(folder: str, *, lesson_names: list[str] | None, out_text: str | None, work_text: str | None, jobs: int,
                seed: int | None, timeout: int, thresholds_file: Path | None, arch: str | None,
                on_simulator: bool, resume: bool = False, quiet: bool = False, memory_limit: int | None = None,
                shard: tuple[int, int] | None = None, gpus: list[tuple[str, str]] | None = None) -> int:
    """./course grade --submissions DIR: grades every submission in DIR and writes the reports.
    Each row is on disk as soon as it is known (RecordLog); --resume continues an interrupted
    grading in the same --out with what it was started with, and grades only what is missing.
    `shard` (I, N): only the I-th of N parts of the class (driver/shards.py), for --merge."""
    source = Path(folder).expanduser().resolve()
    if not source.is_dir():
        common.fail(f"--submissions {folder}: not a folder", common.BAD_USAGE)
    chosen = ([lessons.find_lesson(n) for n in lesson_names if n] if lesson_names is not None else
              lessons.all_lessons())
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(out_text).expanduser().resolve() if out_text else common.ROOT / "build" / "grading-results" / stamp
    work = (Path(work_text).expanduser().resolve() if work_text else
            common.ROOT / "build" / f"grading-{building.preset()}")
    for option, where in (("--out", out), ("--work", work)):
        try:
            where.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            what = "exists and is not a folder" if where.exists() and not where.is_dir() else \
                f"cannot be made ({error.strerror})"
            common.fail(f"{option} {where}: {what}", common.BAD_USAGE)
    settings = {"course": reports.course_revision(), "submissions": str(source),
                "lessons": [lesson.folder for lesson in chosen], "backend": "sim" if on_simulator else "gpu",
                "timeout_s": timeout, "thresholds_file": str(thresholds_file) if thresholds_file else None}
    submissions = find_submissions(source)
    if not submissions:
        common.fail(f"no submissions in {source} (folders shaped like exercises/, or .tar.gz/.tgz/.tar/.zip archives)")
    if shard:
        settings["shard"] = shards.shard_text(shard)
        settings["class"] = [s.name for s in submissions]
        submissions = shards.part(submissions, shard)
    records = RecordLog(out)
    if resume:
        seed, started = resumed_settings(out, settings, seed)
    else:
        if (out / GRADING_FILE).exists() or records.path.exists():
            common.fail(f"--out {out} already holds a grading: --resume continues it, or choose another folder",
                        common.BAD_USAGE)
        seed = secrets.randbelow(2**32) if seed is None else seed
        started = common.now_text()
        (out / GRADING_FILE).write_text(json.dumps(dict(settings, seed=seed, started=started), indent=2) + "\n")
    environment.ensure_environment(verbose=False)
    done = {(row.get("student"), row.get("lesson")) for row in records.read()}
    todo = [(s, [lesson for lesson in chosen if (s.name, lesson.number) not in done]) for s in submissions]
    todo = [(s, left) for s, left in todo if left]
    building.say_backend("grading a class", on_simulator)
    numbers = ", ".join(lesson.number for lesson in chosen)
    resumed = f", {len(submissions) - len(todo)} already graded" if resume else ""
    part = f" (shard {shards.shard_text(shard)} of the class)" if shard else ""
    cards = "" if on_simulator or not gpus or not gpus[0][0] else (
        ", on GPU " + ", ".join(f"{value} ({name})" for value, name in gpus) if len(gpus) == 1 else
        f", on {len(gpus)} GPUs side by side (" + ", ".join(f"{value}: {name}" for value, name in gpus) + ")")
    common.say(f"grading {len(submissions)} submissions{part}{resumed}, lessons {numbers}, seed {seed}, "
               f"{jobs} build tree(s) in {work}{cards}")
    # The graders and the reference modules: built once, from the course's own tree; each
    # submission's tree builds only the student's code.
    building.build([f"{lesson.target}_grader" for lesson in chosen]
                   + [f"{lesson.target}_solution_modules" for lesson in chosen if (common.ROOT / "solutions").is_dir()])
    # The simulator passes' graders, built once before the class (the build switches the driver's
    # tree for its duration, which the class's grading threads must not see).
    simulator_graders = {lesson.number: simulator_pass.prepare(lesson) for lesson in chosen
                         if not on_simulator and simulator_pass.wanted(lesson)}
    thresholds.check_thresholds(thresholds_file)
    grader = BatchGrader(out=out, work=work, jobs=jobs, seed=seed, timeout=timeout, thresholds_file=thresholds_file,
                         only=[lesson.number for lesson in chosen], arch=arch, on_simulator=on_simulator,
                         memory_limit=memory_limit, simulator_graders=simulator_graders,
                         records=records, total=len(todo), quiet=quiet, gpus=gpus)
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            for future in [pool.submit(grader.grade, s, left) for s, left in todo]:
                future.result()
    finally:
        grader.release_trees()

    # The reports, from the rows on disk: the same whether the grading ran at once or was resumed.
    latest = {(row["student"], row["lesson"]): row for row in records.read()}
    rows = [latest[(s.name, lesson.number)] for s in submissions for lesson in chosen
            if (s.name, lesson.number) in latest]
    device = graded_on(rows) or "none found (GPU graders skipped)"
    meta = {"course": settings["course"], "started": started, "finished": common.now_text(), "seed": seed,
            "timeout_s": timeout, "thresholds_file": settings["thresholds_file"],
            "thresholds": json.loads(thresholds_file.read_text()) if thresholds_file else None,
            "thresholds_applied": reports.applied_overrides(rows, settings["backend"]),
            "device": device, "lessons": settings["lessons"], "submissions": str(source)}
    if shard:
        meta["shard"] = settings["shard"]
    reports.write_reports(out, meta, rows, chosen, [s.name for s in submissions])
    if not quiet:
        print((out / "summary.md").read_text())
    common.say(f"reports: {out / 'summary.md'}, {out / 'results.csv'}, {out / 'results.json'}")
    return 0


def graded_on(rows: list[dict]) -> str:
    """The devices the rows were graded on: "NVIDIA H100 80GB HBM3", or with several GPUs each
    card and its CUDA_VISIBLE_DEVICES value ("NVIDIA H100 80GB HBM3 (GPU 0), NVIDIA H100 80GB HBM3
    (GPU 1)"); "" where no grader named one."""
    cards = sorted({(row.get("device") or "", row.get("gpu") or "") for row in rows if row.get("device")})
    if len({gpu for _, gpu in cards}) <= 1:
        return ", ".join(sorted({name for name, _ in cards}))
    return ", ".join(f"{name} (GPU {gpu})" for name, gpu in cards)


def resumed_settings(out: Path, settings: dict, seed: int | None) -> tuple[int, str]:
    """The seed and start time of the grading in `out` that --resume continues; stops when there
    is none, or when this command differs from the one that started it."""
    try:
        earlier = json.loads((out / GRADING_FILE).read_text())
    except (OSError, ValueError):
        common.fail(f"--resume: {out} holds no grading to continue ({GRADING_FILE} is missing or damaged)",
                    common.BAD_USAGE)
    if seed is not None and seed != earlier.get("seed"):
        common.fail(f"--resume: the grading in {out} used --seed {earlier.get('seed')}, not {seed}", common.BAD_USAGE)
    differ = [f"{key} was {earlier.get(key)!r}, now {value!r}" for key, value in settings.items()
              if earlier.get(key) != value]
    if differ:
        common.fail(f"--resume: this is not the grading in {out}: " + "; ".join(differ), common.BAD_USAGE)
    return int(earlier["seed"]), str(earlier.get("started", ""))
