#!/usr/bin/env python3
"""Measured against modelled: the lessons' demo results from a GPU and from the CPU simulator, side
by side, as the Markdown tables of docs/measurements/timing_model_calibration.md: the kernels the model's
constants were fitted to, and apart from them the kernels it was not fitted to (lesson manifests,
"timing_model": "fitted").

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

from lesson_manifest import timing_model_tables

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


def section(title: str, tables: list[dict], args: argparse.Namespace) -> list[str]:
    """One table of kernels with its ranking summary and error figures."""
    if not any(rows_of(args.gpu, table["files"]) for table in tables):
        return []  # none of these kernels was measured in this run
    out = ["", f"## {title}", "",
           "| lesson | kernel | measured ms | modelled ms | measured speedup | modelled speedup | error |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    summary = []
    errors = []
    for table in tables:
        lesson, files, only, baseline = table["label"], table["files"], table.get("kernels"), table["baseline"]
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
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gpu", type=Path)
    parser.add_argument("sim", type=Path)
    parser.add_argument("--device", default="the GPU")
    parser.add_argument("--command", default="tools/calibrate_timing_model.sh")
    args = parser.parse_args()

    out = [f"Measured on {args.device}; modelled by the CPU simulator's timing model "
           "(simulator/README.md, \"Timing model\"). Reproduce: `" + args.command + "`."]
    tables = timing_model_tables()
    out += section("Kernels the model's constants were fitted to", [t for fitted, t in tables if fitted], args)
    out += section("Kernels the model was not fitted to (validation)", [t for fitted, t in tables if not fitted],
                   args)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
