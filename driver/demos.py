"""A lesson's demo: ./course run (the student's kernels, or the reference, beside the baselines) and
./course trace (one warp's active lanes, instruction by instruction, on the CPU simulator)."""

from __future__ import annotations

import html
import os
import re

from . import building, common, environment, lessons
from .command import (
    HELP_FLAGS,
    STUDENTS,
    Command,
    CommandParser,
    Line,
    backend_options,
    has_solutions,
    lesson_first,
    no_solutions,
    solution_option,
    whole_number,
)


def demo_targets(lesson: lessons.Lesson, solution: bool) -> list[str]:
    """What a demo needs built: the program and the modules of the student's or the reference
    kernels it loads. The student's files must be there first: a missing one stops the command with
    a line that names it, before anything is built."""
    if not solution:
        lessons.require_student_files(lesson)
    return [f"{lesson.target}_demo", f"{lesson.target}_{'solution' if solution else 'exercise'}_modules"]


# The demos' options are declared once, in the course library's parser (parse_demo_options).
DEMO_PARSER = common.ROOT / "common" / "src" / "cli.cpp"


def demo_option_names() -> set[str]:
    """Every option a lesson's demo takes, read from its parser's add_option lines (CLI11 adds -h
    and --help)."""
    try:
        text = DEMO_PARSER.read_text()
    except OSError:
        return set()
    return set(re.findall(r'app\.add_(?:option|flag)\("(--[\w-]+)"', text)) | {"-h", "--help"}


def refuse_unknown_demo_options(demo_args: list[str], command: str) -> None:
    """Stops a command that passes options to a demo, before anything is built, at the first option
    the demo does not take."""
    known = demo_option_names()
    if not known:
        return  # the parser's source is not here (a damaged copy): the demo itself will check
    for arg in demo_args:
        name = arg.split("=", 1)[0]
        if re.fullmatch(r"--?[A-Za-z][\w-]*", name) and name not in known:
            common.fail(f"{name}: not an option of ./course {command} or of the demo (its options: "
                        f"{', '.join(sorted(known - {'-h'}))})", common.BAD_USAGE)


def modules_option(solution: bool) -> list[str]:
    """The demo's or grader's --modules for the reference kernels; nothing for the student's."""
    return [f"--modules={building.build_dir() / 'modules' / 'solution'}"] if solution else []


def run_demo(lesson: lessons.Lesson, *, solution: bool, on_simulator: bool, demo_args: list[str]) -> int:
    """./course run NN: builds the demo and runs it with the demo's own options; its exit code."""
    building.say_backend(f"lesson {lesson.number}", on_simulator)
    environment.ensure_environment(verbose=False)
    building.build(demo_targets(lesson, solution))
    demo = building.build_dir() / "lessons" / f"{lesson.target}_demo"
    return common.run([str(demo), *modules_option(solution), *demo_args]).returncode


def trace_svg(rows: list[list[str]], title: str) -> str:
    """One warp's trace as an SVG: a row per issued instruction, a column per lane; dark lanes
    executed it, light ones were on the path but predicated off, blank ones were not on the path."""
    cell, row_height, text_width, top = 9, 12, 430, 58
    legend = ("dark: the lane executed the instruction; light: on the path but its guard predicate was false; "
              "blank: not on the path (diverged or exited)")
    # Wide enough for the title and the legend too: a monospace character is 0.6 of its font size.
    width = int(max(text_width + 32 * cell + 20, 20 + 0.62 * 12 * len(title), 20 + 0.62 * 10 * len(legend)))
    height = top + row_height * len(rows) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="DejaVu Sans Mono, monospace" font-size="9">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="10" y="16" font-size="12" font-weight="bold">{html.escape(title)}</text>',
           f'<text x="10" y="32" font-size="10">{legend}</text>']
    for lane in range(0, 32, 4):
        out.append(f'<text x="{text_width + lane * cell}" y="{top - 6}" font-size="8">{lane}</text>')
    for i, (step, line, _op, active, executed, ptx) in enumerate(rows):
        y = top + i * row_height
        label = f"{step:>4} L{line:<5} {ptx[:64]}"
        out.append(f'<text x="10" y="{y + 9}">{html.escape(label)}</text>')
        active_mask, executed_mask = int(active, 16), int(executed, 16)
        for lane in range(32):
            bit = 1 << lane
            fill = "#1f4e99" if executed_mask & bit else "#c9d8f0" if active_mask & bit else None
            if fill:
                out.append(f'<rect x="{text_width + lane * cell}" y="{y + 1}" width="{cell - 1}" '
                           f'height="{row_height - 2}" fill="{fill}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def trace(lesson: lessons.Lesson, *, kernel: str, block: int, warp: int, reps: int, solution: bool,
          demo_args: list[str]) -> int:
    """./course trace NN --kernel K: runs the demo on the CPU simulator with warp `warp` of block
    `block` of the kernel's first launch traced, and draws the trace."""
    os.environ["COURSE_PRESET"] = "sim"
    os.environ.pop("COURSE_BUILD_DIR", None)
    demo = f"{lesson.target}_demo"
    environment.ensure_environment(verbose=False)
    building.build(demo_targets(lesson, solution))
    folder = building.build_dir() / "traces"
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{lesson.target}_{kernel}_block{block}_warp{warp}"
    table = folder / f"{stem}.tsv"
    table.unlink(missing_ok=True)
    env = dict(os.environ, CUDASIM_TRACE=f"block={block},warp={warp},out={table}")
    result = common.run([str(building.build_dir() / "lessons" / demo), *modules_option(solution), "--kernel", kernel,
                         "--reps", str(reps), *demo_args], env=env, capture_output=True, text=True)
    if result.returncode == common.BAD_USAGE:  # the demo's one line about an option it refuses
        refused = [line for line in result.stderr.splitlines() if line.strip()]
        common.fail(refused[-1] if refused else f"{demo} refused its options", common.BAD_USAGE)
    if result.returncode != 0 or not table.exists():
        print(result.stdout + result.stderr, end="")
        common.fail(f"no trace: the demo exited with code {result.returncode}" +
                    ("" if table.exists() else f", and block {block}, warp {warp} issued nothing"))
    lines = table.read_text().splitlines()
    header, rows = lines[0].lstrip("# "), [line.split("\t", 5) for line in lines[2:]]
    if not rows:
        common.fail(f"no trace: warp {warp} of block {block} does not exist in that launch ({header})")
    picture = folder / f"{stem}.svg"
    picture.write_text(trace_svg(rows, f"{header}: {len(rows)} instructions issued"))
    diverged = sum(1 for row in rows if row[4] not in ("ffffffff", "00000000") or row[3] != "ffffffff")
    common.say(f"{header}: {len(rows)} instructions issued, {diverged} with fewer than 32 lanes")
    common.say(f"picture: {common.shown(picture)}  (instructions: {common.shown(table)})")
    return 0


# ---------------------------------------------------------------------------------------------
# ./course run and ./course trace


def run_arguments(parser: CommandParser) -> None:
    parser.add_argument("lesson", metavar="NN", help="the lesson: 03, 3 or 03_neighbored_reduction")
    solution_option(parser, "run")
    backend_options(parser)


def run_command(parser: CommandParser, args: list[str]) -> int:
    if args[:1] and args[0] in HELP_FLAGS:  # after the lesson, --help is the demo's
        parser.print_help()
        return 0
    lesson_first(parser, args)
    options, demo_args = parser.parse_known_args(args)
    lesson = lessons.find_lesson(options.lesson)
    if options.solution and not has_solutions():
        no_solutions()
    refuse_unknown_demo_options(demo_args, "run")
    on_simulator = building.choose_backend(options.sim, options.gpu)
    return run_demo(lesson, solution=options.solution, on_simulator=on_simulator, demo_args=demo_args)


RUN = Command(
    name="run",
    usage="usage: ./course run NN [--solution] [--sim | --gpu] [demo options]; ./course run 03 --help lists the "
          "demo options",
    description="Builds lesson NN's demo and runs it: your kernels beside the lesson's baselines, with time, "
                "bandwidth, speedup and correctness; on the CPU simulator where there is no GPU.",
    epilog="-h, --help before NN prints this help. Every other option after NN is the demo's own (--n, --block, "
           "--reps, --seed, --kernel, --json FILE): ./course run NN --help lists them.",
    add_help=False,
    arguments=run_arguments,
    run=run_command,
    overview=(Line(STUDENTS, "./course run NN [--solution] [--sim|--gpu] [demo options]",
                   "build and run lesson NN's demo (on the CPU simulator where there is no GPU)"),),
)


def trace_arguments(parser: CommandParser) -> None:
    parser.add_argument("lesson", metavar="NN", help="the lesson")
    parser.add_argument("--kernel", metavar="K", help="the demo's kernel to trace (required)")
    parser.add_argument("--block", metavar="B", help="the block (default 0)")
    parser.add_argument("--warp", metavar="W", help="the warp within the block (default 0)")
    parser.add_argument("--block-size", metavar="S", help="threads per block (the demo's --block)")
    parser.add_argument("--reps", metavar="N", help="the demo's runs, 1 to 1000 (default 1; the first is traced)")
    solution_option(parser, "trace")


def trace_command(parser: CommandParser, args: list[str]) -> int:
    lesson_first(parser, args)
    options, demo_args = parser.parse_known_args(args)
    lesson = lessons.find_lesson(options.lesson)
    block = whole_number("--block", options.block, 0)
    warp = whole_number("--warp", options.warp, 0)
    reps = whole_number("--reps", options.reps, 1, minimum=1, maximum=1000)
    refuse_unknown_demo_options(demo_args, "trace")
    if options.block_size is not None:
        demo_args += ["--block", options.block_size]
    if options.kernel is None:
        parser.error("--kernel is required")
    if options.solution and not has_solutions():
        no_solutions("this copy of the course has no solutions/: trace your own kernels or the lesson's baselines, "
                     "without --solution")
    return trace(lesson, kernel=options.kernel, block=block, warp=warp, reps=reps, solution=options.solution,
                 demo_args=demo_args)


TRACE = Command(
    name="trace",
    usage="usage: ./course trace NN --kernel K [--block B] [--warp W] [--block-size S] [--solution] [demo options]",
    usage_note="draws, for warp W of block B of kernel K's first launch in lesson NN's demo, the active lanes of "
               "every instruction (on the CPU simulator)",
    description="Draws, for warp W of block B of kernel K's first launch in lesson NN's demo, the active lanes of "
                "every instruction (on the CPU simulator): build/sim/traces/*.svg, and the instructions as a table "
                "beside it.",
    epilog="demo options: those of ./course run NN --help (--n, --seed, ...)",
    arguments=trace_arguments,
    run=trace_command,
    overview=(Line(STUDENTS, "./course trace NN --kernel K [--block B] [--warp W] [--block-size S] [--solution] "
                             "[demo options]",
                   "draw the active lanes of every instruction of warp W of block B (CPU simulator, SVG)"),),
)
