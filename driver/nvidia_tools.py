"""NVIDIA's tools over a lesson's demo: ./course profile (Nsight Compute's counters of each kernel,
as a table) and ./course sanitize (compute-sanitizer, or the CPU simulator's own checks)."""

from __future__ import annotations

import contextlib
import csv
import os
import re

from . import building, common, demos, environment, lessons
from .command import (
    STUDENTS,
    Command,
    CommandParser,
    Line,
    backend_options,
    has_solutions,
    lesson_first,
    no_solutions,
    solution_option,
    unexpected,
)

# The modern names of the seeds' nvprof metrics, with the column each gets.
PROFILE_METRICS = (
    ("smsp__average_inst_executed_per_warp.ratio", "inst/warp"),
    ("smsp__sass_average_branch_targets_threads_uniform.pct", "branch eff %"),
    ("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", "gld eff %"),
    ("l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second", "gld GB/s"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "shared ld conflicts"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "shared st conflicts"),
    ("sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occ %"),
    ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM % of peak"),
)
SANITIZER_TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")
# What stands for each compute-sanitizer tool among the simulator's checks (it runs them all at once).
SIMULATOR_EQUIVALENT = {
    "memcheck": "the out-of-bounds and misaligned access checks",
    "racecheck": "the race check of shared and global memory",
    "synccheck": "the barrier and membermask checks",
    "initcheck": "the check of reads of memory nothing wrote",
}
# ncu's words for counters the user may not read (https://developer.nvidia.com/ERR_NVGPUCTRPERM).
COUNTERS_NOT_PERMITTED = "ERR_NVGPUCTRPERM"


def ncu_value(text: str) -> float | None:
    with contextlib.suppress(ValueError):
        return float(text.replace(",", ""))
    return None


def profile_table(csv_text: str) -> list[list[str]]:
    """ncu --csv --page raw: one row per profiled launch, one column per metric -> the table rows
    (kernel, then each metric in PROFILE_METRICS' order)."""
    lines = [line for line in csv_text.splitlines() if line.startswith('"')]
    rows = list(csv.reader(lines))
    if len(rows) < 2:
        return []
    header = rows[0]
    kernel_column = header.index("Kernel Name") if "Kernel Name" in header else None
    table = []
    for row in rows[1:]:
        first_metric = header.index(PROFILE_METRICS[0][0]) if PROFILE_METRICS[0][0] in header else None
        if (kernel_column is None or first_metric is None or len(row) != len(header)
                or ncu_value(row[first_metric]) is None):
            continue  # the units row
        cells = [row[kernel_column].split("(")[0].rsplit("::", 1)[-1]]  # the kernel's own name
        for metric, _ in PROFILE_METRICS:
            value = ncu_value(row[header.index(metric)]) if metric in header else None
            if value is not None and metric.endswith("per_second"):
                value /= 1e9  # ncu's raw page gives bytes per second
            cells.append("-" if value is None else f"{value:.1f}" if abs(value) < 1e6 else f"{value:.3g}")
        table.append(cells)
    return table


def profile(lesson: lessons.Lesson, *, kernel: str | None, solution: bool) -> int:
    """./course profile NN: Nsight Compute's counters of one launch of each of the demo's kernels."""
    kernel_option = [f"--kernel={kernel}"] if kernel else []
    ncu = environment.find_tool("ncu")
    if ncu is None:
        common.fail("ncu (Nsight Compute) is not installed: it comes with the CUDA toolkit (its bin/ folder), or "
                    "from https://developer.nvidia.com/nsight-compute")
    if not environment.has_gpu():
        common.fail("profiling needs an NVIDIA GPU (nvidia-smi sees none); without one, ./course run NN --sim "
                    "prints the simulator's counters and ./course trace NN draws a warp's lanes")
    environment.ensure_environment(verbose=False)
    building.build(demos.demo_targets(lesson, solution))
    demo = building.build_dir() / "lessons" / f"{lesson.target}_demo"
    # One launch of each kernel (its first), the GPU's clocks left as they are.
    command = [ncu, "--clock-control", "none", "--kernel-id", ":::1", "--csv", "--page", "raw",
               "--metrics", ",".join(metric for metric, _ in PROFILE_METRICS), str(demo),
               *demos.modules_option(solution), "--reps", "1", "--seed", "1", "--n", "2^24", *kernel_option]
    common.say(f"profiling lesson {lesson.number}'s {'reference' if solution else 'kernels'} with Nsight Compute "
               f"(one launch of each kernel, 2^24 elements)")
    result = common.run(command, capture_output=True, text=True, errors="replace")
    if COUNTERS_NOT_PERMITTED in result.stdout + result.stderr:
        common.fail("the GPU's performance counters are not open to this user (ERR_NVGPUCTRPERM): run as root, or "
                    "ask an administrator to load the NVIDIA driver with NVreg_RestrictProfilingToAdminUsers=0 "
                    "(https://developer.nvidia.com/ERR_NVGPUCTRPERM)")
    table = profile_table(result.stdout)
    refusal = next((line for line in (result.stdout + result.stderr).splitlines()
                    if line.startswith(f"{lesson.target}_demo: ")), None)
    if not table and result.returncode == common.BAD_USAGE and refusal:
        common.fail(refusal, common.BAD_USAGE)  # the demo refused an option (an unknown --kernel)
    if not table:
        print((result.stdout + result.stderr)[-3000:], end="")
        common.fail(f"ncu found no kernel to profile (exit code {result.returncode})" +
                    (f": is '{kernel}' one of the demo's kernels?" if kernel else ""))
    headers = ["kernel"] + [title for _, title in PROFILE_METRICS]
    widths = [max(len(headers[i]), *(len(row[i]) for row in table)) for i in range(len(headers))]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    for row in table:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))))
    if result.returncode != 0:
        # The counters are what the kernels did; the demo also checks their sums.
        common.say(f"the demo exited with code {result.returncode}: a kernel gave a wrong result or failed "
                   f"(./course run {lesson.number} shows which)")
        return 1
    return 0


def sanitize(lesson: lessons.Lesson, *, tool: str, kernel: str | None, solution: bool, on_simulator: bool) -> int:
    """./course sanitize NN: compute-sanitizer's tool over the demo on a small input, or on the CPU
    simulator its own checks; the first reports with kernel and source line."""
    kernel_option = [f"--kernel={kernel}"] if kernel else []
    # A small input and one run: the tools slow kernels down a hundredfold and more.
    demo_args = [*demos.modules_option(solution), "--n", "2^16", "--reps", "1", "--seed", "1", *kernel_option]
    if on_simulator:
        building.say_backend(f"lesson {lesson.number}: the simulator's checks (out-of-bounds and misaligned "
                             "accesses, races in shared and global memory, reads of memory nothing wrote, barriers "
                             "not every thread reaches, membermasks, runaway kernels) instead of compute-sanitizer",
                             True)
        environment.ensure_environment(verbose=False)
        building.build(demos.demo_targets(lesson, solution))
        command = [str(building.build_dir() / "lessons" / f"{lesson.target}_demo"), *demo_args]
        # Every check is always on there; the race check and the initcheck too, whatever the environment says.
        result = common.run(command, capture_output=True, text=True, errors="replace",
                            env={**os.environ, "CUDASIM_RACECHECK": "1", "CUDASIM_INITCHECK": "1"})
        errors = [line for line in (result.stdout + result.stderr).splitlines() if line.startswith("cudasim: ")]
        for line in errors[:10]:
            print(line)
        common.say("no error found" if not errors and result.returncode == 0 else
                   f"{len(errors)} error(s) found" if errors else f"the demo exited with code {result.returncode}")
        return 1 if errors or result.returncode else 0
    sanitizer = environment.find_tool("compute-sanitizer")
    if sanitizer is None:
        common.fail("compute-sanitizer is not installed: it comes with the CUDA toolkit (its bin/ folder)")
    if not environment.has_gpu():
        common.fail("compute-sanitizer needs an NVIDIA GPU (nvidia-smi sees none); ./course sanitize NN --sim runs "
                    "the simulator's own checks")
    environment.ensure_environment(verbose=False)
    building.build(demos.demo_targets(lesson, solution))
    command = [sanitizer, "--tool", tool, "--error-exitcode", "1", "--show-backtrace", "no",
               str(building.build_dir() / "lessons" / f"{lesson.target}_demo"), *demo_args]
    common.say(f"compute-sanitizer --tool {tool} over lesson {lesson.number}'s demo (2^16 elements, one run each)")
    result = common.run(command, capture_output=True, text=True, errors="replace")
    reports = [line for line in (result.stdout + result.stderr).splitlines() if line.startswith("=========")]
    shown = [line for line in reports if "ERROR SUMMARY" not in line][:12]
    for line in shown:
        print(line)
    summary = next((line for line in reports if "ERROR SUMMARY" in line or "RACECHECK SUMMARY" in line), None)
    common.say(summary.removeprefix("========= ").strip() if summary else
               f"compute-sanitizer exited with code {result.returncode}")
    if any("Target application returned an error" in line for line in reports):
        common.say(f"the demo itself failed: a kernel gave a wrong result (./course run {lesson.number} shows which)")
    if tool == "racecheck" and not any(re.search(r"Race reported between|Potential (RAW|WAR|WAW) hazard", line)
                                       for line in reports):
        common.say("racecheck looks at shared memory only: a race in global memory (lesson 03's kernels work "
                   f"there) shows as a wrong sum instead; ./course sanitize {lesson.number} --sim runs the "
                   "simulator's checks")
    return 0 if result.returncode == 0 else 1


# ---------------------------------------------------------------------------------------------
# ./course profile and ./course sanitize


def profile_arguments(parser: CommandParser) -> None:
    parser.add_argument("lesson", metavar="NN", help="the lesson")
    parser.add_argument("--kernel", metavar="K", help="only this kernel of the demo")
    solution_option(parser, "profile")


def profile_command(parser: CommandParser, args: list[str]) -> int:
    lesson_first(parser, args)
    options, rest = parser.parse_known_args(args)
    lesson = lessons.find_lesson(options.lesson)
    unexpected(parser, rest)
    if options.solution and not has_solutions():
        no_solutions()
    return profile(lesson, kernel=options.kernel, solution=options.solution)


PROFILE = Command(
    name="profile",
    usage="usage: ./course profile NN [--kernel K] [--solution]",
    description="Nsight Compute's counters (instructions per warp, branch efficiency, global load efficiency and "
                "throughput, shared-memory bank conflicts, achieved occupancy, DRAM throughput) of one launch of "
                "each of lesson NN's kernels (needs a GPU and ncu).",
    arguments=profile_arguments,
    run=profile_command,
    overview=(Line(STUDENTS, "./course profile NN [--kernel K] [--solution]",
                   "Nsight Compute counters of lesson NN's kernels, the baseline beside yours (needs a GPU and "
                   "ncu)"),),
)


def sanitize_arguments(parser: CommandParser) -> None:
    parser.add_argument("lesson", metavar="NN", help="the lesson")
    parser.add_argument("--tool", metavar="T", help="memcheck (the default), racecheck, synccheck or initcheck")
    parser.add_argument("--kernel", metavar="K", help="only this kernel of the demo")
    solution_option(parser, "check")
    backend_options(parser)


def sanitize_command(parser: CommandParser, args: list[str]) -> int:
    lesson_first(parser, args)
    options, rest = parser.parse_known_args(args)
    lesson = lessons.find_lesson(options.lesson)
    tool = options.tool or "memcheck"
    if tool not in SANITIZER_TOOLS:
        common.fail(f"--tool {tool}: not a compute-sanitizer tool; choose one of {', '.join(SANITIZER_TOOLS)}",
                    common.BAD_USAGE)
    on_simulator = building.choose_backend(options.sim, options.gpu)
    unexpected(parser, rest)
    if options.solution and not has_solutions():
        no_solutions()
    if on_simulator and options.tool:
        common.say(f"--tool {tool}: the simulator has no separate tools; it runs all of its checks at once, "
                   f"{SIMULATOR_EQUIVALENT[tool]} among them")
    return sanitize(lesson, tool=tool, kernel=options.kernel, solution=options.solution, on_simulator=on_simulator)


SANITIZE = Command(
    name="sanitize",
    usage="usage: ./course sanitize NN [--tool memcheck|racecheck|synccheck|initcheck] [--kernel K] [--solution]",
    description="compute-sanitizer over lesson NN's demo on a small input, the first reports with kernel and "
                "source line; with --sim, the CPU simulator's own checks.",
    arguments=sanitize_arguments,
    run=sanitize_command,
    overview=(Line(STUDENTS, "./course sanitize NN [--tool T] [--kernel K] [--solution]",
                   "compute-sanitizer (memcheck, racecheck, synccheck, initcheck) over lesson NN's demo; on the "
                   "simulator, the simulator's own checks"),),
)
