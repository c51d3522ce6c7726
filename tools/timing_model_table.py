#!/usr/bin/env python3
"""Measured against modelled: the lessons' demo results from a GPU and from the CPU simulator, side
by side, as the Markdown table of docs/measurements/timing_model_calibration.md.

    tools/timing_model_table.py GPU_DIR SIM_DIR [--device NAME] [--command TEXT]

Each folder holds the demos' --json files under the names tools/calibrate_timing_model.sh gives
them. Within a lesson every kernel's speedup is taken over that lesson's baseline (the kernel its
grader compares against), on each side; the table gives both, the modelled one's error, and
whether the two orders agree for every pair of kernels whose measured times differ by more than
5% (closer pairs count as ties).
"""
from __future__ import annotations

import argparse
import json
from itertools import combinations
from pathlib import Path

# (lesson, json file, kernels to take in order (None: every row), baseline kernel)
LESSONS = [
    ("01", ["l01.json"], None, "per-thread-atomic"),
    ("02 tiny", ["l02.json"], ["tiny-by-thread", "tiny-by-warp"], "tiny-by-thread"),
    ("02", ["l02.json"], ["index-divergent", "warp-parity", "index-uniform", "value-divergent", "value-uniform"],
     "index-divergent"),
    ("03", ["l03.json"], None, "neighbored"),
    ("04", ["l04.json"], None, "neighbored"),
    ("05", ["l05_copy.json", "l05_cub.json", "l05_reduce_sum.json", "l05_starter.json", "l05_sweep.json"], None,
     "device-to-device copy (reads + writes)"),
    ("06", ["l06.json", "l06_b32.json", "l06_starter.json"], None, "scaled_add, starving_config"),
    ("07", ["l07.json"], None, "shared-interleaved"),
    ("08", ["l08.json"], None, "shared-tree"),
]
TIE = 0.05


def rows_of(folder: Path, files: list[str]) -> dict[str, float]:
    """kernel -> milliseconds, in file order; the starter's reduce_sum and launch are renamed."""
    times: dict[str, float] = {}
    for name in files:
        path = folder / name
        if not path.exists():
            continue
        data = json.loads(path.read_text())
        for row in data.get("results") or data.get("rows") or []:
            kernel = row["kernel"]
            if "block" in row and "dynamic_shared_bytes" in row and "config" not in kernel:
                kernel = f"{kernel} block {row['block']} shared {row['dynamic_shared_bytes'] // 1024} KiB"
            if "starter" in name and ("reduce_sum" in kernel or "choose_launch_config" in kernel):
                kernel += " (starter)"
            elif "starter" in name:
                continue  # the rows both runs share
            times.setdefault(kernel, row["median_ms"])
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gpu", type=Path)
    parser.add_argument("sim", type=Path)
    parser.add_argument("--device", default="the GPU")
    parser.add_argument("--command", default="tools/calibrate_timing_model.sh")
    args = parser.parse_args()

    out = [f"Measured on {args.device}; modelled by the CPU simulator's timing model "
           "(simulator/README.md, \"Timing model\"). Reproduce: `" + args.command + "`.", "",
           "| lesson | kernel | measured ms | modelled ms | measured speedup | modelled speedup | error |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    summary = []
    errors = []
    for lesson, files, only, baseline in LESSONS:
        gpu, sim = rows_of(args.gpu, files), rows_of(args.sim, files)
        kernels = [k for k in (only or list(gpu)) if k in gpu and k in sim]
        if baseline not in kernels:
            continue
        discordant = ties = 0
        for a, b in combinations(kernels, 2):
            measured = gpu[a] / gpu[b]
            if abs(measured - 1) <= TIE:
                ties += 1
            elif (measured > 1) != (sim[a] / sim[b] > 1):
                discordant += 1
        for k in kernels:
            ms, mm = gpu[baseline] / gpu[k], sim[baseline] / sim[k]
            error = mm / ms - 1
            if k != baseline:
                errors.append(abs(error))
            out.append(f"| {lesson} | {k} | {gpu[k]:.3f} | {sim[k]:.3f} | {ms:.2f}x | {mm:.2f}x | "
                       f"{'' if k == baseline else f'{100 * error:+.0f}%'} |")
        pairs = len(kernels) * (len(kernels) - 1) // 2
        summary.append(f"| {lesson} | {len(kernels)} | {pairs - ties} | {ties} | {discordant} | "
                       f"{'yes' if discordant == 0 else 'NO'} |")
    out += ["", "Ranking: pairs of kernels whose measured times differ by more than 5%, and how many of them the "
            "model orders the other way.", "",
            "| lesson | kernels | ordered pairs | ties (within 5%) | ordered the other way | ranking matches |",
            "| --- | ---: | ---: | ---: | ---: | --- |", *summary, ""]
    if errors:
        within = sum(e <= 0.25 for e in errors)
        out.append(f"Modelled speedups within 25% of the measured ones: {within} of {len(errors)}; "
                   f"median error {100 * sorted(errors)[len(errors) // 2]:.0f}%, largest {100 * max(errors):.0f}%.")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
