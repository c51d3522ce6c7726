"""A student's commands on their own exercises: grade, hint, status and reset."""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

from . import (
    batch,
    building,
    common,
    environment,
    lessons,
    sanitizer,
    shards,
    simulator_pass,
    slurm,
    state,
    thresholds,
    verdict,
)
from .command import (
    INSTRUCTORS,
    MAX_SEED,
    STUDENTS,
    Command,
    CommandParser,
    Line,
    backend_options,
    seed_option,
    thresholds_option,
    whole_number,
    without_arguments,
)


def grade_lesson(lesson: lessons.Lesson, *, seed: int | None = None,
                 thresholds_file: Path | None = None) -> verdict.Outcome:
    """Builds and runs lesson's exercise grader for the student; remembers the outcome in .course/."""
    results_file = state.state_dir() / "results" / f"{lesson.target}.json"
    if problems := lessons.student_file_problems(lesson):
        results_file.unlink(missing_ok=True)
        outcome = verdict.Outcome("error", reason="; ".join(problems), output="\n".join(problems) + "\n")
        return remember(lesson, outcome, thresholds_file)
    # The student's modules are built on their own: a stale one must not stand in for a file that
    # no longer compiles.
    shutil.rmtree(building.build_dir() / "modules" / "exercise" / lesson.folder, ignore_errors=True)
    # The course's own programs first: a failure there is not the student's (a build tree deleted
    # or broken meanwhile, a missing tool), and is reported as such.
    ok, log = building.build_quietly([f"{lesson.target}_grader"], f"building lesson {lesson.number}'s grader")
    theirs = False
    if ok:
        ok, more = building.build_quietly([f"{lesson.target}_exercise_modules"],
                                          f"compiling your lesson {lesson.number} kernels")
        log += more
        theirs = not ok and building.failed_in_student_code(more, lesson.folder)
    if not ok:
        results_file.unlink(missing_ok=True)
        errors = building.first_compile_errors(log).replace(f"{common.ROOT}/", "")
        if theirs:
            outcome = verdict.Outcome("compile error", reason=errors, output=log)
        else:
            outcome = verdict.Outcome("error", reason=f"the course's build failed, not your code: {errors}; run "
                                      "./course doctor, then grade again (a build tree deleted while it was used "
                                      "is configured again)", output=log)
    else:
        grader = building.build_dir() / "lessons" / f"{lesson.target}_grader"
        outcome = verdict.run_grader(grader, results_file, seed=seed, thresholds=thresholds_file)
        if outcome.verdict == "pass" and outcome.backend == "gpu" and simulator_pass.wanted(lesson):
            checked = simulator_pass.check(lesson, building.build_dir() / "modules" / "exercise", outcome.seed)
            outcome.apply_simulator_pass(checked.finding, checked.note, checked.error)
        if outcome.verdict == "pass" and outcome.backend == "gpu":
            checked = sanitizer.run(grader, verdict.read_results(results_file), modules=None, seed=outcome.seed)
            outcome.apply_sanitizer(checked.finding, checked.note)
    return remember(lesson, outcome, thresholds_file)


def remember(lesson: lessons.Lesson, outcome: verdict.Outcome, thresholds_file: Path | None) -> verdict.Outcome:
    """Keeps a grading's log and verdict in .course/; returns the outcome."""
    logs = state.state_dir() / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    (logs / f"{lesson.target}.log").write_text(outcome.output)
    progress = state.load_state()
    progress["lessons"][lesson.number] = {"verdict": outcome.verdict, "reason": outcome.reason,
                                          "when": common.now_text(), "seed": outcome.seed,
                                          "thresholds": str(thresholds_file) if thresholds_file else None}
    state.save_state(progress)
    return outcome


def describe(outcome: verdict.Outcome) -> str:
    """One paragraph about a grading, for a student."""
    if outcome.verdict == "pass":
        ratios = ", ".join(f"{s['check']} {s['ratio']:.2f}{verdict.unit(s)} "
                           f"(threshold {s['threshold']:.2f}{verdict.unit(s)})" for s in outcome.speed)
        notes = "; ".join(note for note in (outcome.simulator, outcome.sanitizer) if note)
        checked = f" ({notes})" if notes else ""
        return "PASS" + (f": {ratios}" if ratios else "") + checked
    if outcome.verdict == "skipped":
        return (f"cannot grade here: {outcome.reason}. Your code compiled, but grading needs an NVIDIA GPU: "
                "this is not a pass (run it where there is a GPU).")
    if outcome.verdict == "compile error":
        return f"COMPILE ERROR: {outcome.reason}"
    label = {"fail": "FAIL", "fault": "FAULT", "timeout": "TIMEOUT", "error": "ERROR"}.get(outcome.verdict,
                                                                                         outcome.verdict.upper())
    return f"{label}: {outcome.reason}"


def grade(chosen: list[lessons.Lesson], *, seed: int | None, thresholds_file: Path | None,
          on_simulator: bool) -> int:
    """./course grade [NN ...]: grades the student's exercises, a line per lesson."""
    building.say_backend("grading", on_simulator)
    environment.ensure_environment(verbose=False)
    thresholds.check_thresholds(thresholds_file)
    failed = skipped = 0
    for lesson in chosen:
        outcome = grade_lesson(lesson, seed=seed, thresholds_file=thresholds_file)
        failed += outcome.verdict not in ("pass", "skipped")
        skipped += outcome.verdict == "skipped"
        text = describe(outcome)
        if outcome.verdict not in ("pass", "skipped"):
            seed_text = f"seed {outcome.seed}, " if outcome.seed is not None else ""
            text += f" ({seed_text}full log: {common.shown(state.state_dir() / 'logs' / f'{lesson.target}.log')})"
        print(f"lesson {lesson.number} {lesson.title}: {text}", flush=True)
        if outcome.overrides:
            print(f"  {thresholds.describe_overrides(outcome, thresholds_file)}", flush=True)
    print(state.progress_bar(), flush=True)
    if skipped and not failed:
        common.say(f"{skipped} of {len(chosen)} lessons could not be graded here (no GPU): not passed")
    return 1 if failed else common.SKIPPED if skipped else 0


def next_hint(lesson: lessons.Lesson) -> str:
    """Reveals one more hint (remembered in .course/state.json); the text to print."""
    hints = lessons.read_hints(lesson)
    if not hints:
        return f"lesson {lesson.number} has no hints (lessons/{lesson.folder}/hints.md)"
    progress = state.load_state()
    shown = min(int(progress["hints"].get(lesson.number, 0)), len(hints))
    if shown >= len(hints):
        return (f"all {len(hints)} hints of lesson {lesson.number} are shown; here is the last one again.\n\n"
                f"Hint {len(hints)} of {len(hints)}:\n{hints[-1]}\n\n"
                f"(./course hint {lesson.number} --all shows them all)")
    progress["hints"][lesson.number] = shown + 1
    state.save_state(progress)
    more = f"; ./course hint {lesson.number} shows the next" if shown + 1 < len(hints) else "; that was the last"
    return f"Hint {shown + 1} of {len(hints)} for lesson {lesson.number}{more}:\n\n{hints[shown]}"


def hint(lesson: lessons.Lesson, *, show_all: bool = False, forget: bool = False) -> int:
    """./course hint NN: the next hint; --all: those shown so far; --reset: hides them again."""
    if forget:
        progress = state.load_state()
        progress["hints"].pop(lesson.number, None)
        state.save_state(progress)
        print(f"lesson {lesson.number}: hints hidden again")
        return 0
    if show_all:
        hints = lessons.read_hints(lesson)
        shown = min(int(state.load_state()["hints"].get(lesson.number, 0)), len(hints))
        if not shown:
            print(f"no hints of lesson {lesson.number} shown yet; ./course hint {lesson.number} shows the first")
        for i in range(shown):
            print(f"Hint {i + 1} of {len(hints)}:\n{hints[i]}\n")
        return 0
    print(next_hint(lesson))
    return 0


def shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def status() -> int:
    """./course status: every check's last verdict and measured ratio against its threshold."""
    progress = state.load_state()
    rows: list[tuple[str, str, str, str]] = []
    for lesson in lessons.all_lessons():
        last = progress["lessons"].get(lesson.number)
        name = f"{lesson.number} {lesson.title}"
        if not last:
            rows.append((name, "(not graded yet)", "", ""))
            continue
        results = verdict.read_results(state.state_dir() / "results" / f"{lesson.target}.json")
        cases = (results or {}).get("cases") or []
        if last["verdict"] in ("compile error", "skipped", "error") or not cases:
            rows.append((name, f"{last['verdict']}: {shorten(last.get('reason', ''), 70)}", last["verdict"], ""))
        for case in cases:
            case_verdict = {"pass": "pass", "fail": "FAIL"}.get(case.get("verdict"), case.get("verdict", "?"))
            speed = "; ".join(f"{s['ratio']:.2f}{verdict.unit(s)} / {s['threshold']:.2f}{verdict.unit(s)}"
                              + ("*" if s.get("threshold_source") not in (None, "grader") else "")
                              for s in case.get("speed", []))
            rows.append((name, shorten(case.get("name", "?"), 64), case_verdict, speed))
            name = ""
        if last["verdict"] == "timeout" and cases:
            rows.append(("", shorten(last.get("reason", ""), 64), "TIMEOUT", ""))
        seed = f", seed {last['seed']}" if last.get("seed") is not None else ""
        rows.append(("", f"graded {last.get('when', '?')}{seed}", "", ""))
    header = ("lesson", "check", "verdict", "ratio / threshold")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip())
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    print(state.progress_bar(progress))
    if any(row[3].count("*") for row in rows):
        print("* threshold from a thresholds file (--thresholds / COURSE_THRESHOLDS)")
    return 0


def reset(lesson: lessons.Lesson) -> int:
    """./course reset NN: the starter back in exercises/NN_name/, the student's files kept in
    .course/backups/."""
    starter = lessons.starter_files(lesson)
    if starter is None:
        common.fail(f"cannot find lesson {lesson.number}'s starter: neither git's HEAD nor "
                    f"starters/{lesson.folder} has it")
    target = common.exercises_dir() / lesson.folder
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    backup = state.state_dir() / "backups" / f"{stamp}_{lesson.folder}"
    restored = 0
    for name, content in starter.items():
        path = target / name
        if path.is_file() and path.read_bytes() == content:
            continue
        if path.exists() or path.is_symlink():
            # Whatever stands in the file's place (the student's version, a folder, a link) is kept.
            (backup / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.move(path, backup / name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        restored += 1
        print(f"restored {common.shown(path)}")
    if not restored:
        print(f"lesson {lesson.number}: the exercise is already the starter; nothing changed")
        return 0
    if backup.exists():
        print(f"your version is kept in {common.shown(backup)}")
    progress = state.load_state()
    progress["lessons"].pop(lesson.number, None)
    state.save_state(progress)
    return 0


# ---------------------------------------------------------------------------------------------
# ./course grade (a student's lessons, or with --submissions a class), hint, status and reset

GRADE_USAGE = ("usage: ./course grade [NN ...] [--sim | --gpu] [--seed N] [--thresholds FILE]",
               "usage: ./course grade --submissions DIR [--jobs N] [--out DIR [--resume]] [--seed N] [--timeout S] "
               "[--lessons NN,NN] [--thresholds FILE] [--work DIR] [--arch CUDA_ARCHS] [--memory-limit GIB] "
               "[--shard I/N] [--quiet] [--sim | --gpu [--gpus all|N,N]]",
               "usage: ./course grade --merge OUT SHARD_DIR...",
               "usage: ./course grade --submissions DIR --slurm [--partition P] [--gres G] [--tasks N] [--time T] "
               "[--dry-run] [the class options above]")
CLASS_ONLY = ("jobs", "out", "work", "timeout", "lesson_list", "arch", "memory_limit", "shard", "gpus")
SLURM_ONLY = ("partition", "gres", "tasks", "time")


def grade_arguments(parser: CommandParser) -> None:
    parser.add_argument("lessons", metavar="NN", nargs="*", help="the lessons to grade (not with --submissions)")
    seed_option(parser, "random by default, and printed")
    thresholds_option(parser)
    backend_options(parser)
    class_options = parser.add_argument_group("grading a class")
    class_options.add_argument("--submissions", metavar="DIR", help="one folder shaped like exercises/, or a "
                                                                    ".tar.gz/.tgz/.tar/.zip of one, per student")
    class_options.add_argument("--jobs", metavar="N", help="build trees used side by side, 1 to 64 (default 1)")
    class_options.add_argument("--out", metavar="DIR", help="the reports (default build/grading-results/<time>/)")
    class_options.add_argument("--work", metavar="DIR",
                               help="the build trees (default build/grading-<preset>/); gradings at once may share it")
    class_options.add_argument("--timeout", metavar="S", help="seconds a grader may run (default 600)")
    class_options.add_argument("--lessons", metavar="NN,NN", dest="lesson_list", help="only these lessons")
    class_options.add_argument("--arch", metavar="CUDA_ARCHS", help="CMAKE_CUDA_ARCHITECTURES of the students' "
                                                                    "builds")
    class_options.add_argument("--resume", action="store_true", help="continue the grading in --out that was "
                               "interrupted: same seed and options, what is done is kept")
    class_options.add_argument("--quiet", action="store_true", help="no line per student, no summary: only errors "
                               "and where the reports are")
    class_options.add_argument("--gpus", metavar="all|N,N", help="the GPUs that grade, one grader on each at a time "
                               "(default all: every GPU nvidia-smi lists, or CUDA_VISIBLE_DEVICES names; N counts "
                               "those from 0)")
    class_options.add_argument("--shard", metavar="I/N", help="grade only the I-th of N parts of the class "
                               "(every N-th student, in name order, from the I-th); ./course grade --merge makes "
                               "the class's reports from the parts' --out folders")
    slurm_options = parser.add_argument_group("grading a class on a Slurm cluster")
    slurm_options.add_argument("--slurm", action="store_true", help="write and submit an array job of --tasks "
                               "parts (--shard) and a merge job after it (docs/driver.md)")
    slurm_options.add_argument("--partition", metavar="P", help="the partition the jobs run in")
    slurm_options.add_argument("--gres", metavar="G", help="each task's generic resources (default gpu:1; none "
                                                           "with --sim)")
    slurm_options.add_argument("--tasks", metavar="N", help=f"parts of the class, one task each (default "
                                                            f"{slurm.TASKS_DEFAULT}, at most one per submission)")
    slurm_options.add_argument("--time", metavar="T", help="each task's time limit, as sbatch takes it (2:00:00)")
    slurm_options.add_argument("--dry-run", action="store_true", dest="dry_run",
                               help="only write the scripts, into --out's slurm/")
    class_options.add_argument("--memory-limit", metavar="GIB", dest="memory_limit",
                               help="memory each grader may use, in GiB (default 16; 0: none): its address space "
                                    "on the CPU simulator, the data it writes with a GPU")


def grade_command(parser: CommandParser, args: list[str]) -> int:
    if "--merge" in args:  # ./course grade --merge OUT SHARD_DIR...: nothing else
        parser.bad_usage = GRADE_USAGE[2]
        where = args.index("--merge")
        rest = args[where + 1:]
        if where != 0 or len(rest) < 2 or any(a.startswith("-") for a in rest):
            parser.error("--merge takes the merged reports' folder, then each part's --out folder")
        return shards.merge(rest[0], rest[1:])
    grading_a_class = any(a == "--submissions" or a.startswith("--submissions=") for a in args)
    on_slurm = any(a.split("=")[0] in ("--slurm", "--partition", "--gres", "--tasks", "--time", "--dry-run")
                   for a in args)
    parser.bad_usage = GRADE_USAGE[3] if on_slurm else GRADE_USAGE[1] if grading_a_class else GRADE_USAGE[0]
    options = parser.parse_intermixed_args(args)
    if not grading_a_class:
        if (any(getattr(options, name) is not None for name in CLASS_ONLY + SLURM_ONLY) or options.resume
                or options.quiet or options.slurm or options.dry_run):
            parser.error("an option of --submissions without it")
        thresholds_file = thresholds.read_thresholds(options.thresholds)
        seed = whole_number("--seed", options.seed, None, maximum=MAX_SEED)
        on_simulator = building.choose_backend(options.sim, options.gpu)
        chosen = [lessons.find_lesson(a) for a in options.lessons] if options.lessons else lessons.all_lessons()
        return grade(chosen, seed=seed, thresholds_file=thresholds_file, on_simulator=on_simulator)
    seed = whole_number("--seed", options.seed, None, maximum=MAX_SEED)
    timeout = whole_number("--timeout", options.timeout, 600, minimum=1, maximum=24 * 3600)
    thresholds_file = thresholds.read_thresholds(options.thresholds)
    # The GPU where there is one, else the CPU simulator (technique checks instead of timings).
    on_simulator = building.choose_backend(options.sim, options.gpu)
    if on_simulator and options.gpus is not None:
        common.fail("--gpus chooses GPUs to grade on, and this grading is on the CPU simulator", common.BAD_USAGE)
    gpus = [] if on_simulator or options.slurm else choose_gpus(options.gpus)
    # A build tree more than there are GPUs: the next student builds while every GPU grades.
    jobs = whole_number("--jobs", options.jobs, len(gpus) + 1 if len(gpus) > 1 else 1, minimum=1, maximum=64)
    if options.lessons or not options.submissions:
        parser.error("lessons are chosen with --lessons")
    memory_gib = whole_number("--memory-limit", options.memory_limit, 16, minimum=0, maximum=4096)
    if options.resume and not options.out:
        parser.error("--resume continues the grading in --out DIR: name it")
    if not options.slurm and (options.dry_run or any(getattr(options, n) is not None for n in SLURM_ONLY)):
        parser.error("an option of --slurm without it")
    if options.slurm:
        if options.shard or options.resume or options.work:
            parser.error("--slurm makes the parts itself (--shard), their build trees and their resumption")
        # The options every task passes on; paths absolute, for the cluster's nodes.
        passed = [*(["--lessons", options.lesson_list] if options.lesson_list else []),
                  *(["--gpus", options.gpus] if options.gpus else []),
                  "--timeout", str(timeout), "--jobs", str(jobs), "--memory-limit", str(memory_gib),
                  *(["--thresholds", str(thresholds_file.resolve())] if thresholds_file else []),
                  *(["--arch", options.arch] if options.arch else [])]
        return slurm.submit(submissions=options.submissions, out_text=options.out, seed=seed,
                            tasks=whole_number("--tasks", options.tasks, None, minimum=1, maximum=10000),
                            partition=options.partition, gres=options.gres, time_limit=options.time,
                            dry_run=options.dry_run, on_simulator=on_simulator, grade_options=passed)
    return batch.grade_class(options.submissions,
                             lesson_names=options.lesson_list.split(",") if options.lesson_list else None,
                             out_text=options.out, work_text=options.work, jobs=jobs, seed=seed, timeout=timeout,
                             thresholds_file=thresholds_file, arch=options.arch, on_simulator=on_simulator,
                             resume=options.resume, quiet=options.quiet,
                             memory_limit=memory_gib << 30 if memory_gib else None,
                             shard=shards.parse_shard(options.shard) if options.shard else None, gpus=gpus)


def choose_gpus(text: str | None) -> list[tuple[str, str]]:
    """--gpus all|N,N: the GPUs that grade, as environment.visible_gpus() gives them. A machine
    where nvidia-smi lists none grades on whatever CUDA finds (--gpu): one grader at a time."""
    visible = environment.visible_gpus()
    if text is None or text == "all":
        return visible or [("", "the GPU CUDA finds")]
    if not visible:
        common.fail(f"--gpus {text}: nvidia-smi lists no GPU on this machine", common.BAD_USAGE)
    chosen = []
    for part in text.split(","):
        if not part.strip().isdigit() or int(part) >= len(visible):
            common.fail(f"--gpus {text}: give all, or GPU numbers from 0 to {len(visible) - 1} separated by commas "
                        f"(this machine's GPUs: " + ", ".join(f"{i} {name}" for i, (_, name) in enumerate(visible))
                        + ")", common.BAD_USAGE)
        if visible[int(part)] in chosen:
            common.fail(f"--gpus {text}: GPU {int(part)} is named twice", common.BAD_USAGE)
        chosen.append(visible[int(part)])
    return chosen


GRADE = Command(
    name="grade",
    usage="\n".join((GRADE_USAGE[0], *(u.replace("usage:", "      ") for u in GRADE_USAGE[1:]))),
    description="Grades your exercises (all lessons by default), or with --submissions a class: every student's "
                "folder or archive in DIR, with reports in --out.",
    arguments=grade_arguments,
    run=grade_command,
    overview=(Line(STUDENTS, "./course grade [NN ...] [--seed N] [--sim|--gpu]",
                   "grade your exercises (all lessons by default; on the CPU simulator where there is no GPU)"),
              Line(INSTRUCTORS, "./course grade --submissions DIR [--jobs N] [--out DIR [--resume]] [--seed N] "
                                "[--timeout S] [--lessons NN,..] [--memory-limit GIB] [--quiet] [--sim|--gpu]",
                   "grade every student's folder or archive in DIR (on the CPU simulator where there is no GPU)"),
              Line(INSTRUCTORS, "./course grade --submissions DIR --shard I/N --out PART; "
                                "./course grade --merge OUT PART...",
                   "grade a class in parts (one per machine or scheduler task), then its reports from the parts"),
              Line(INSTRUCTORS, "./course grade --submissions DIR --slurm [--partition P] [--gres G] [--tasks N] "
                                "[--time T] [--dry-run]",
                   "grade a class on a Slurm cluster: an array job of parts, and a merge job after it"),
              Line(INSTRUCTORS, "--thresholds FILE (or COURSE_THRESHOLDS)",
                   "speed thresholds per lesson, back end and check, for grade and watch (lessonNN_grader "
                   "--list-checks names the checks; see docs/driver.md)")),
)


def hint_arguments(parser: CommandParser) -> None:
    parser.add_argument("lesson", metavar="NN", help="the lesson")
    parser.add_argument("--all", action="store_true", help="every hint shown so far")
    parser.add_argument("--reset", action="store_true", help="hide the hints again")


def hint_command(parser: CommandParser, args: list[str]) -> int:
    options = parser.parse_args(args)
    return hint(lessons.find_lesson(options.lesson), show_all=options.all, forget=options.reset)


HINT = Command(
    name="hint",
    usage="usage: ./course hint NN [--all | --reset]",
    description="Shows the next hint for lesson NN, one more each time (remembered in .course/state.json).",
    arguments=hint_arguments,
    run=hint_command,
    overview=(Line(STUDENTS, "./course hint NN [--all | --reset]",
                   "the next hint for lesson NN (one more each time)"),),
)


STATUS = without_arguments(
    name="status",
    description="Each lesson's checks from their last grading: verdict, measured ratio and threshold.",
    action=status,
    overview=Line(STUDENTS, "./course status", "each lesson's checks from their last grading"),
)


def reset_command(parser: CommandParser, args: list[str]) -> int:
    options = parser.parse_args(args)
    return reset(lessons.find_lesson(options.lesson))


RESET = Command(
    name="reset",
    usage="usage: ./course reset NN",
    description="Puts lesson NN's starter back (from git's HEAD, or starters/ in a released copy); your files are "
                "kept in .course/backups/.",
    arguments=lambda parser: parser.add_argument("lesson", metavar="NN", help="the lesson"),
    run=reset_command,
    overview=(Line(STUDENTS, "./course reset NN", "restore lesson NN's starter (yours is backed up)"),),
)
