"""The command line: one argparse parser per command (./course COMMAND --help prints its synopsis and
options), the checks of the values given, and the call of the module that does the work.

A bad command line is answered as the course always has: one line on stderr (the command's synopsis,
or what is wrong with a value) and exit code 2; long options are never abbreviated.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from . import (
    authoring,
    batch,
    building,
    common,
    demos,
    docs,
    lessons,
    nvidia_tools,
    release,
    selfcheck,
    student,
    thresholds,
    watch,
)

OVERVIEW = """\
The course's driver: build and run lessons, grade exercises, test the course itself.

Students:
    ./course run NN [--solution] [--sim|--gpu] [demo options]
                                                  build and run lesson NN's demo (on the CPU
                                                  simulator where there is no GPU)
    ./course trace NN --kernel K [--block B] [--warp W] [--block-size S] [--solution] [demo options]
                                                  draw the active lanes of every instruction of
                                                  warp W of block B (CPU simulator, SVG)
    ./course profile NN [--kernel K] [--solution]  Nsight Compute counters of lesson NN's kernels, the
                                                  baseline beside yours (needs a GPU and ncu)
    ./course sanitize NN [--tool T] [--kernel K] [--solution]
                                                  compute-sanitizer (memcheck, racecheck, synccheck,
                                                  initcheck) over lesson NN's demo; on the simulator,
                                                  the simulator's own checks
    ./course watch [NN] [--once] [--max-rounds N] regrade lesson NN each time you save an exercise
                                                  file (keys: h next hint, g grade now, n next
                                                  lesson, q quit)
    ./course grade [NN ...] [--seed N] [--sim|--gpu]
                                                  grade your exercises (all lessons by default; on
                                                  the CPU simulator where there is no GPU)
    ./course hint NN [--all | --reset]            the next hint for lesson NN (one more each time)
    ./course status                               each lesson's checks from their last grading
    ./course reset NN                             restore lesson NN's starter (yours is backed up)

Instructors:
    ./course grade --submissions DIR [--jobs N] [--out DIR [--resume]] [--seed N] [--timeout S] [--lessons NN,..]
                   [--memory-limit GIB] [--quiet] [--sim|--gpu]
                                                  grade every student's folder or archive in DIR
                                                  (on the CPU simulator where there is no GPU)
    ./course release DIR [--through NN] [--force] a student copy of the course, without solutions
    --thresholds FILE (or COURSE_THRESHOLDS)      speed thresholds per lesson, back end and check,
                                                  for grade and watch (lessonNN_grader --list-checks
                                                  names the checks; see docs/driver.md)

The course itself:
    ./course test                                  the course's own tests
    ./course doctor                                check the tools and libraries the course needs
    ./course docs [--with-solutions]               build the HTML reference (Doxygen); the reference
                                                  solutions only with --with-solutions (instructors)
    ./course dev check                             every lesson has all its pieces, its manifest
                                                  lesson.json is complete, the README's table agrees
    ./course dev readme                            write the README's lesson table from the manifests
    ./course dev new NN_name                       start a lesson from templates/lesson/

Every command's --help lists its options. Everything that matters happens in CMake, CTest and the
C++ programs; the driver only chooses a build tree, builds what a command needs and runs it.
"""

COMMANDS = ("run", "trace", "profile", "sanitize", "watch", "grade", "hint", "status", "reset", "release", "test",
            "doctor", "docs", "dev", "help")

# Each command's synopsis: the first lines of `./course COMMAND --help` (exit code 0), and the one
# line after a bad command line (exit code 2).
USAGE = {
    "run": "usage: ./course run NN [--solution] [--sim | --gpu] [demo options]; ./course run 03 --help lists the "
           "demo options",
    "trace": "usage: ./course trace NN --kernel K [--block B] [--warp W] [--block-size S] [--solution] "
             "[demo options]: draws, for warp W of block B of kernel K's first launch in lesson NN's demo, the "
             "active lanes of every instruction (on the CPU simulator)",
    "profile": "usage: ./course profile NN [--kernel K] [--solution]",
    "sanitize": "usage: ./course sanitize NN [--tool memcheck|racecheck|synccheck|initcheck] [--kernel K] [--solution]",
    "watch": "usage: ./course watch [NN] [--once] [--max-rounds N] [--poll SECONDS] [--seed N] [--thresholds FILE] "
             "[--sim | --gpu]",
    "grade": "usage: ./course grade [NN ...] [--sim | --gpu] [--seed N] [--thresholds FILE]\n"
             "       ./course grade --submissions DIR [--jobs N] [--out DIR [--resume]] [--seed N] [--timeout S] "
             "[--lessons NN,NN] [--thresholds FILE] [--work DIR] [--arch CUDA_ARCHS] [--memory-limit GIB] [--quiet] "
             "[--sim | --gpu]",
    "hint": "usage: ./course hint NN [--all | --reset]",
    "status": "usage: ./course status (takes no arguments)",
    "reset": "usage: ./course reset NN",
    "release": "usage: ./course release DIR [--through NN] [--force] [--check | --check-target TARGET]",
    "test": "usage: ./course test (takes no arguments)",
    "doctor": "usage: ./course doctor (takes no arguments)",
    "docs": "usage: ./course docs [--with-solutions]",
    "dev": "usage: ./course dev check | ./course dev readme | ./course dev new NN_name",
    "help": "usage: ./course help",
}
HELP_FLAGS = ("-h", "--help")
# The commands whose first argument must be the lesson (what follows may be the demo's options).
LESSON_FIRST = ("run", "trace", "profile", "sanitize")
# The graders' seeds are 64-bit unsigned integers.
MAX_SEED = 2**64 - 1


class CommandParser(argparse.ArgumentParser):
    """The parser of one command. A bad command line stops with one line and exit code 2: "--seed
    needs a value" for an option without its value, else the command's synopsis (`bad_usage`)."""

    def __init__(self, *args, bad_usage: str = "", **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self.bad_usage = bad_usage

    def error(self, message: str) -> NoReturn:
        missing = re.fullmatch(r"argument (--[\w-]+): expected one argument", message)
        common.fail(f"{missing[1]} needs a value" if missing else self.bad_usage, common.BAD_USAGE)


# ---------------------------------------------------------------------------------------------
# Values


def whole_number(name: str, value: str | None, default: int | None, minimum: int = 0,
                 maximum: int | None = None) -> int | None:
    """An option's value as a whole number within bounds (`default` when not given); anything else
    stops the command."""
    if value is None:
        return default
    if not (value.isascii() and value.isdigit()) or int(value) < minimum or (maximum is not None and
                                                                            int(value) > maximum):
        bounds = f"from {minimum} to {maximum}" if maximum is not None else f">= {minimum}"
        common.fail(f"{name} must be a whole number {bounds}, not '{value}'", common.BAD_USAGE)
    return int(value)


def has_solutions() -> bool:
    return (common.ROOT / "solutions").is_dir()


def no_solutions(message: str = "this copy of the course has no solutions/") -> NoReturn:
    common.fail(message, common.BAD_USAGE)


def lesson_first(parser: CommandParser, args: list[str]) -> None:
    """run, trace, profile and sanitize take the lesson first: what follows may be the demo's.
    (--help anywhere is trace's, profile's and sanitize's own; run's only before the lesson.)"""
    if (not args or args[0].startswith("-")) and not any(a in HELP_FLAGS for a in args):
        parser.error("the lesson comes first")


# ---------------------------------------------------------------------------------------------
# The commands' parsers


def backend_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sim", action="store_true",
                        help="on the CPU simulator (build/sim; the default where there is no GPU)")
    parser.add_argument("--gpu", action="store_true", help="on the GPU, even where nvidia-smi sees none")


def solution_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--solution", action="store_true",
                        help=f"{what} the reference kernels instead of yours (not in a student's copy)")


def thresholds_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--thresholds", metavar="FILE",
                        help="speed thresholds per lesson, back end and check (or COURSE_THRESHOLDS; "
                             "lessonNN_grader --list-checks names the checks; docs/driver.md)")


def seed_option(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument("--seed", metavar="N", help=f"the seed of the graders' inputs, a whole number from 0 to "
                                                    f"2^64 - 1 ({default})")


def add_parsers(commands) -> None:
    """Every command's parser, in the order of COMMANDS."""

    def add(name: str, description: str, **kwargs) -> CommandParser:
        usage = USAGE[name].removeprefix("usage: ")
        return commands.add_parser(name, usage=usage.split(": draws")[0], description=description,
                                   bad_usage=USAGE[name], **kwargs)

    run = add("run", "Builds lesson NN's demo and runs it: your kernels beside the lesson's baselines, with time, "
                     "bandwidth, speedup and correctness; on the CPU simulator where there is no GPU.",
              add_help=False,
              epilog="-h, --help before NN prints this help. Every other option after NN is the demo's own "
                     "(--n, --block, --reps, --seed, --kernel, --json FILE): ./course run NN --help lists them.")
    run.add_argument("lesson", metavar="NN", help="the lesson: 03, 3 or 03_neighbored_reduction")
    solution_option(run, "run")
    backend_options(run)

    trace = add("trace", "Draws, for warp W of block B of kernel K's first launch in lesson NN's demo, the active "
                         "lanes of every instruction (on the CPU simulator): build/sim/traces/*.svg, and the "
                         "instructions as a table beside it.",
                epilog="demo options: those of ./course run NN --help (--n, --seed, ...)")
    trace.add_argument("lesson", metavar="NN", help="the lesson")
    trace.add_argument("--kernel", metavar="K", help="the demo's kernel to trace (required)")
    trace.add_argument("--block", metavar="B", help="the block (default 0)")
    trace.add_argument("--warp", metavar="W", help="the warp within the block (default 0)")
    trace.add_argument("--block-size", metavar="S", help="threads per block (the demo's --block)")
    trace.add_argument("--reps", metavar="N", help="the demo's runs, 1 to 1000 (default 1; the first is traced)")
    solution_option(trace, "trace")

    profile = add("profile", "Nsight Compute's counters (instructions per warp, branch efficiency, global load "
                             "efficiency and throughput, shared-memory bank conflicts, achieved occupancy, DRAM "
                             "throughput) of one launch of each of lesson NN's kernels (needs a GPU and ncu).")
    profile.add_argument("lesson", metavar="NN", help="the lesson")
    profile.add_argument("--kernel", metavar="K", help="only this kernel of the demo")
    solution_option(profile, "profile")

    sanitize = add("sanitize", "compute-sanitizer over lesson NN's demo on a small input, the first reports with "
                               "kernel and source line; with --sim, the CPU simulator's own checks.")
    sanitize.add_argument("lesson", metavar="NN", help="the lesson")
    sanitize.add_argument("--tool", metavar="T", help="memcheck (the default), racecheck, synccheck or initcheck")
    sanitize.add_argument("--kernel", metavar="K", help="only this kernel of the demo")
    solution_option(sanitize, "check")
    backend_options(sanitize)

    watch_parser = add("watch", "Regrades lesson NN (by default the first you have not passed) each time you save "
                                "one of its exercise files, and moves on when it passes. Keys: h next hint, g grade "
                                "now, n next lesson, q quit (one a line when the input is not a terminal).")
    watch_parser.add_argument("lesson", metavar="NN", nargs="?", help="the lesson to start with")
    watch_parser.add_argument("--once", action="store_true", help="grade once and stop (--max-rounds 1)")
    watch_parser.add_argument("--max-rounds", metavar="N", help="stop after N gradings")
    watch_parser.add_argument("--poll", metavar="SECONDS", help="how often to look for saved files (default 0.5)")
    seed_option(watch_parser, "random by default")
    thresholds_option(watch_parser)
    backend_options(watch_parser)

    grade = add("grade", "Grades your exercises (all lessons by default), or with --submissions a class: every "
                         "student's folder or archive in DIR, with reports in --out.")
    grade.add_argument("lessons", metavar="NN", nargs="*", help="the lessons to grade (not with --submissions)")
    seed_option(grade, "random by default, and printed")
    thresholds_option(grade)
    backend_options(grade)
    class_options = grade.add_argument_group("grading a class")
    class_options.add_argument("--submissions", metavar="DIR", help="one folder shaped like exercises/, or a "
                                                                    ".tar.gz/.tgz/.tar/.zip of one, per student")
    class_options.add_argument("--jobs", metavar="N", help="build trees used side by side, 1 to 64 (default 1)")
    class_options.add_argument("--out", metavar="DIR", help="the reports (default build/grading-results/<time>/)")
    class_options.add_argument("--work", metavar="DIR", help="the build trees (default build/grading-<preset>/)")
    class_options.add_argument("--timeout", metavar="S", help="seconds a grader may run (default 600)")
    class_options.add_argument("--lessons", metavar="NN,NN", dest="lesson_list", help="only these lessons")
    class_options.add_argument("--arch", metavar="CUDA_ARCHS", help="CMAKE_CUDA_ARCHITECTURES of the students' "
                                                                    "builds")
    class_options.add_argument("--resume", action="store_true", help="continue the grading in --out that was "
                               "interrupted: same seed and options, what is done is kept")
    class_options.add_argument("--quiet", action="store_true", help="no line per student, no summary: only errors "
                               "and where the reports are")
    class_options.add_argument("--memory-limit", metavar="GIB", dest="memory_limit",
                               help="memory each grader may use, in GiB (default 16; 0: none): its address space "
                                    "on the CPU simulator, the data it writes with a GPU")

    hint = add("hint", "Shows the next hint for lesson NN, one more each time (remembered in .course/state.json).")
    hint.add_argument("lesson", metavar="NN", help="the lesson")
    hint.add_argument("--all", action="store_true", help="every hint shown so far")
    hint.add_argument("--reset", action="store_true", help="hide the hints again")

    add("status", "Each lesson's checks from their last grading: verdict, measured ratio and threshold.")

    reset = add("reset", "Puts lesson NN's starter back (from git's HEAD, or starters/ in a released copy); your "
                         "files are kept in .course/backups/.")
    reset.add_argument("lesson", metavar="NN", help="the lesson")

    release_parser = add("release", "Copies the course for students into DIR: without solutions/, the planted "
                                    "kernels and gaming attempts, with the starters also in starters/.")
    release_parser.add_argument("target", metavar="DIR", help="a new or empty folder")
    release_parser.add_argument("--through", metavar="NN", help="lessons 01..NN only (release a lesson once the "
                                                                "lessons before it are due: it carries their answers)")
    release_parser.add_argument("--force", action="store_true", help="replace an earlier release in DIR")
    release_parser.add_argument("--check", action="store_true", help="then configure and build the copy")
    release_parser.add_argument("--check-target", metavar="TARGET", help="then configure it and build TARGET")

    add("test", "The course's own tests: builds everything, runs CTest (the driver's tests, the solutions, "
                "the starters, the planted kernels), every lesson graded on the CPU simulator, and the docs.")
    add("doctor", "Checks the tools and libraries the course needs and prints the command that installs what is "
                  "missing.")
    docs_parser = add("docs", "Builds the HTML reference (Doxygen), without the reference solutions and the hints.")
    docs_parser.add_argument("--with-solutions", action="store_true",
                             help="the instructors' pages, with the reference solutions (not in a student's copy)")
    dev = add("dev", "For the course's authors. check: every lesson has its manifest (lesson.json, complete and "
                     "in step with its files), text, hints, grader, demo, exercise and reference (the same files "
                     "and names), planted kernels with their expectations, and figures that name the GPU and a "
                     "command; the README's table agrees with the manifests. readme: that table written from the "
                     "manifests. new NN_name: a lesson started from templates/lesson/, which builds and grades "
                     "as it is.")
    dev.add_argument("action", choices=["check", "readme", "new"], metavar="check|readme|new", help="what to do")
    dev.add_argument("lesson", metavar="NN_name", nargs="?", help="with new: the new lesson's folder name")
    add("help", "The commands and the lessons.", add_help=False)


def command_parsers() -> dict[str, CommandParser]:
    top = argparse.ArgumentParser(prog="./course", add_help=False, allow_abbrev=False)
    commands = top.add_subparsers(dest="command", parser_class=CommandParser)
    add_parsers(commands)
    return dict(commands.choices)


# ---------------------------------------------------------------------------------------------
# The commands


def run_command(parser: CommandParser, args: list[str]) -> int:
    if args[:1] and args[0] in HELP_FLAGS:  # after the lesson, --help is the demo's
        parser.print_help()
        return 0
    lesson_first(parser, args)
    options, demo_args = parser.parse_known_args(args)
    lesson = lessons.find_lesson(options.lesson)
    if options.solution and not has_solutions():
        no_solutions()
    demos.refuse_unknown_demo_options(demo_args, "run")
    on_simulator = building.choose_backend(options.sim, options.gpu)
    return demos.run_demo(lesson, solution=options.solution, on_simulator=on_simulator, demo_args=demo_args)


def trace_command(parser: CommandParser, args: list[str]) -> int:
    lesson_first(parser, args)
    options, demo_args = parser.parse_known_args(args)
    lesson = lessons.find_lesson(options.lesson)
    block = whole_number("--block", options.block, 0)
    warp = whole_number("--warp", options.warp, 0)
    reps = whole_number("--reps", options.reps, 1, minimum=1, maximum=1000)
    demos.refuse_unknown_demo_options(demo_args, "trace")
    if options.block_size is not None:
        demo_args += ["--block", options.block_size]
    if options.kernel is None:
        parser.error("--kernel is required")
    if options.solution and not has_solutions():
        no_solutions("this copy of the course has no solutions/: trace your own kernels or the lesson's baselines, "
                     "without --solution")
    return demos.trace(lesson, kernel=options.kernel, block=block, warp=warp, reps=reps, solution=options.solution,
                       demo_args=demo_args)


def unexpected(parser: CommandParser, rest: list[str]) -> None:
    if rest:
        common.fail(f"{parser.bad_usage} (unexpected: {' '.join(rest)})", common.BAD_USAGE)


def profile_command(parser: CommandParser, args: list[str]) -> int:
    lesson_first(parser, args)
    options, rest = parser.parse_known_args(args)
    lesson = lessons.find_lesson(options.lesson)
    unexpected(parser, rest)
    if options.solution and not has_solutions():
        no_solutions()
    return nvidia_tools.profile(lesson, kernel=options.kernel, solution=options.solution)


def sanitize_command(parser: CommandParser, args: list[str]) -> int:
    lesson_first(parser, args)
    options, rest = parser.parse_known_args(args)
    lesson = lessons.find_lesson(options.lesson)
    tool = options.tool or "memcheck"
    if tool not in nvidia_tools.SANITIZER_TOOLS:
        common.fail(f"--tool {tool}: not a compute-sanitizer tool; choose one of "
                    f"{', '.join(nvidia_tools.SANITIZER_TOOLS)}", common.BAD_USAGE)
    on_simulator = building.choose_backend(options.sim, options.gpu)
    unexpected(parser, rest)
    if options.solution and not has_solutions():
        no_solutions()
    if on_simulator and options.tool:
        common.say(f"--tool {tool}: the simulator has no separate tools; it runs all of its checks at once, "
                   f"{nvidia_tools.SIMULATOR_EQUIVALENT[tool]} among them")
    return nvidia_tools.sanitize(lesson, tool=tool, kernel=options.kernel, solution=options.solution,
                                 on_simulator=on_simulator)


def watch_command(parser: CommandParser, args: list[str]) -> int:
    options = parser.parse_args(args)
    max_rounds = whole_number("--max-rounds", options.max_rounds, 1 if options.once else None, minimum=1)
    seed = whole_number("--seed", options.seed, None, maximum=MAX_SEED)
    thresholds_file = thresholds.read_thresholds(options.thresholds)
    on_simulator = building.choose_backend(options.sim, options.gpu)
    try:
        poll = float(options.poll) if options.poll else 0.5
    except ValueError:
        common.fail(f"--poll must be a number of seconds, not '{options.poll}'", common.BAD_USAGE)
    if options.lesson:
        lesson = lessons.find_lesson(options.lesson)
    else:
        lesson = watch.first_unpassed() or (lessons.all_lessons() or [None])[0]
    if lesson is None:
        common.fail("there are no lessons")
    return watch.watch(lesson, poll=poll, max_rounds=max_rounds, seed=seed, thresholds_file=thresholds_file,
                       on_simulator=on_simulator)


CLASS_ONLY = ("jobs", "out", "work", "timeout", "lesson_list", "arch", "memory_limit")


def grade_command(parser: CommandParser, args: list[str]) -> int:
    one_student, a_class = USAGE["grade"].splitlines()
    grading_a_class = any(a == "--submissions" or a.startswith("--submissions=") for a in args)
    parser.bad_usage = "usage: " + a_class.strip() if grading_a_class else one_student
    options = parser.parse_intermixed_args(args)
    if not grading_a_class:
        if any(getattr(options, name) is not None for name in CLASS_ONLY) or options.resume or options.quiet:
            parser.error("an option of --submissions without it")
        thresholds_file = thresholds.read_thresholds(options.thresholds)
        seed = whole_number("--seed", options.seed, None, maximum=MAX_SEED)
        on_simulator = building.choose_backend(options.sim, options.gpu)
        chosen = [lessons.find_lesson(a) for a in options.lessons] if options.lessons else lessons.all_lessons()
        return student.grade(chosen, seed=seed, thresholds_file=thresholds_file, on_simulator=on_simulator)
    jobs = whole_number("--jobs", options.jobs, 1, minimum=1, maximum=64)
    seed = whole_number("--seed", options.seed, None, maximum=MAX_SEED)
    timeout = whole_number("--timeout", options.timeout, 600, minimum=1, maximum=24 * 3600)
    thresholds_file = thresholds.read_thresholds(options.thresholds)
    # The GPU where there is one, else the CPU simulator (technique checks instead of timings).
    on_simulator = building.choose_backend(options.sim, options.gpu)
    if options.lessons or not options.submissions:
        parser.error("lessons are chosen with --lessons")
    memory_gib = whole_number("--memory-limit", options.memory_limit, 16, minimum=0, maximum=4096)
    if options.resume and not options.out:
        parser.error("--resume continues the grading in --out DIR: name it")
    return batch.grade_class(options.submissions,
                             lesson_names=options.lesson_list.split(",") if options.lesson_list else None,
                             out_text=options.out, work_text=options.work, jobs=jobs, seed=seed, timeout=timeout,
                             thresholds_file=thresholds_file, arch=options.arch, on_simulator=on_simulator,
                             resume=options.resume, quiet=options.quiet,
                             memory_limit=memory_gib << 30 if memory_gib else None)


def hint_command(parser: CommandParser, args: list[str]) -> int:
    options = parser.parse_args(args)
    return student.hint(lessons.find_lesson(options.lesson), show_all=options.all, forget=options.reset)


def status_command(parser: CommandParser, args: list[str]) -> int:
    parser.parse_args(args)
    return student.status()


def reset_command(parser: CommandParser, args: list[str]) -> int:
    options = parser.parse_args(args)
    return student.reset(lessons.find_lesson(options.lesson))


def release_command(parser: CommandParser, args: list[str]) -> int:
    options = parser.parse_args(args)
    through = lessons.find_lesson(options.through) if options.through else None
    return release.release(Path(options.target).expanduser().resolve(), force=options.force, check=options.check,
                           check_target=options.check_target, through=through)


def test_command(parser: CommandParser, args: list[str]) -> int:
    parser.parse_args(args)
    return selfcheck.test()


def doctor_command(parser: CommandParser, args: list[str]) -> int:
    parser.parse_args(args)
    return selfcheck.doctor()


def docs_command(parser: CommandParser, args: list[str]) -> int:
    options = parser.parse_args(args)
    if options.with_solutions and not has_solutions():
        no_solutions()
    return docs.docs(options.with_solutions)


def dev_command(parser: CommandParser, args: list[str]) -> int:
    options = parser.parse_args(args)
    if options.action == "new":
        if not options.lesson:
            parser.error("dev new needs the new lesson's folder name: ./course dev new NN_name")
        return authoring.new_lesson(options.lesson)
    if options.lesson:
        parser.error(f"dev {options.action} takes no lesson")
    return authoring.check() if options.action == "check" else authoring.write_readme_table()


def help_command(parser: CommandParser, args: list[str]) -> int:
    print(OVERVIEW.strip())
    print("\nlessons: " + ", ".join(f"{lesson.number} ({lesson.title})" for lesson in lessons.all_lessons()))
    return 0


HANDLERS: dict[str, Callable[[CommandParser, list[str]], int]] = {
    "run": run_command, "trace": trace_command, "profile": profile_command, "sanitize": sanitize_command,
    "watch": watch_command, "grade": grade_command, "hint": hint_command, "status": status_command,
    "reset": reset_command, "release": release_command, "test": test_command, "doctor": doctor_command,
    "docs": docs_command, "dev": dev_command, "help": help_command,
}


def main(argv: list[str]) -> int:
    """./course ARGV: the command's exit code (a bad command line exits 2 from inside)."""
    if not argv or argv[0] in HELP_FLAGS:
        return help_command(command_parsers()["help"], argv[1:])
    command, args = argv[0], argv[1:]
    if command not in COMMANDS:
        common.fail(f"unknown command '{command}'; the commands are: {', '.join(COMMANDS)}", common.BAD_USAGE)
    return HANDLERS[command](command_parsers()[command], args)


def entry(argv: list[str]) -> int:
    """main() for the ./course script: Ctrl-C ends it quietly with 130, a closed pipe with 1."""
    try:
        return main(argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # ./course hint 03 | head
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
