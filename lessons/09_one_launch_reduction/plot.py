#!/usr/bin/env python3
"""Lesson 09: the lesson's table and figure from the demo's JSON reports (one per n).

    python3 lessons/09_one_launch_reduction/plot.py DIR --svg one_launch.svg --markdown table.md

DIR holds n<k>.json files written by `lesson09_demo --json` (sweep.sh writes them). The figure has
two panels against n (log scale): time per call and GB/s, single calls (solid) and back to back
(dashed), for CUB, lesson 05's reference, reduce_once and each one-launch design. The table gives
each row's speed relative to CUB at every n (CUB's time over the row's), both ways of timing.
Plain Python: no plotting library, the SVG is written by hand."""

import argparse
import glob
import json
import math
import os
import sys

SHORT = {
    "cub::DeviceReduce::Sum": "CUB",
    "lesson 05 reference (two launches)": "lesson 05 (two launches)",
    "one launch: last block adds the partials": "last block",
    "  the same, up to 4 waves of blocks": "last block, 4 waves",
    "floor: one empty launch (no sum)": "empty launch",
    "  the same, blocks of 512 threads": "last block, 512 threads",
    "memset + one launch: atomicAdd per block": "memset + atomicAdd",
    "one cooperative launch: this_grid().sync()": "cooperative",
}
COLOURS = ["#222222", "#d62728", "#1f77b4", "#aaaaaa", "#2ca02c", "#9467bd", "#8c564b", "#ff7f0e", "#17becf",
           "#e377c2"]
NO_BYTES = {"empty launch"}  # the floor reads nothing: no bandwidth to draw


def short(name):
    if name.startswith("reduce_once"):
        return "reduce_once (reference)"
    return SHORT.get(name, name)


def load(folder):
    points = {}
    for path in glob.glob(os.path.join(folder, "n*.json")):
        with open(path) as f:
            report = json.load(f)
        n = report["n"]
        for row in report["results"]:
            name = row["kernel"]
            queued = name.endswith(" (back to back)")
            base = name[: -len(" (back to back)")] if queued else name
            points.setdefault(short(base), {})[(n, queued)] = row
    if not points:
        sys.exit(f"plot.py: no n*.json in {folder}")
    return points


def markdown(points, out):
    sizes = sorted({n for rows in points.values() for (n, _) in rows})
    names = [name for name in points if name != "CUB"]
    lines = []
    for queued, title in ((False, "single calls, L2 flushed (median of 21)"),
                          (True, "back to back (time per call, median of 21 queues)")):
        lines.append(f"**{title}**: CUB's time per call, and each row's speed relative to CUB "
                     "(CUB's time / the row's)\n")
        lines.append("| n | CUB us | " + " | ".join(names) + " |")
        lines.append("| --- | --- | " + " | ".join("---" for _ in names) + " |")
        for n in sizes:
            cub = points["CUB"].get((n, queued))
            if cub is None:
                continue
            cells = []
            for name in names:
                row = points[name].get((n, queued))
                cells.append(f"{cub['median_ms'] / row['median_ms']:.2f}x" if row else "")
            lines.append(f"| 2^{int(math.log2(n))} | {1000 * cub['median_ms']:.1f} | " + " | ".join(cells) + " |")
        lines.append("")
    text = "\n".join(lines)
    if out:
        with open(out, "w") as f:
            f.write(text + "\n")
    return text


def svg(points, out, device):
    width, height, margin = 1100, 470, 70
    panel = (width - 3 * margin) / 2
    sizes = sorted({n for rows in points.values() for (n, _) in rows})
    lo_n, hi_n = math.log2(sizes[0]), math.log2(sizes[-1])
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>']

    def panel_of(index, title, values, log_y, unit):
        x0 = margin + index * (panel + margin)
        y0, y1 = 40, height - 110
        finite = [v for v in values if v > 0]
        lo, hi = min(finite), max(finite)
        if log_y:
            lo, hi = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
        else:
            lo, hi = 0, hi * 1.05

        def fx(n):
            return x0 + (math.log2(n) - lo_n) / (hi_n - lo_n) * panel

        def fy(v):
            t = (math.log10(v) - lo) / (hi - lo) if log_y else (v - lo) / (hi - lo)
            return y1 - t * (y1 - y0)

        parts.append(f'<text x="{x0 + panel / 2}" y="24" text-anchor="middle" font-size="14">{title}</text>')
        parts.append(f'<rect x="{x0}" y="{y0}" width="{panel}" height="{y1 - y0}" fill="none" stroke="#888"/>')
        for k in range(int(lo_n), int(hi_n) + 1, 2):
            x = fx(2 ** k)
            parts.append(f'<line x1="{x}" y1="{y0}" x2="{x}" y2="{y1}" stroke="#eee"/>')
            parts.append(f'<text x="{x}" y="{y1 + 16}" text-anchor="middle">2^{k}</text>')
        ticks = [10 ** e for e in range(int(lo), int(hi) + 1)] if log_y else [hi * i / 5 for i in range(6)]
        for v in ticks:
            y = fy(v)
            parts.append(f'<line x1="{x0}" y1="{y}" x2="{x0 + panel}" y2="{y}" stroke="#eee"/>')
            label = f"{v:g}" if log_y else f"{v:.0f}"
            parts.append(f'<text x="{x0 - 6}" y="{y + 4}" text-anchor="end">{label}</text>')
        parts.append(f'<text x="{x0 + panel / 2}" y="{y1 + 34}" text-anchor="middle">n (ints)</text>')
        parts.append(f'<text x="{x0 - 50}" y="{(y0 + y1) / 2}" text-anchor="middle" '
                     f'transform="rotate(-90 {x0 - 50} {(y0 + y1) / 2})">{unit}</text>')
        return fx, fy

    all_us = [1000 * r["median_ms"] for rows in points.values() for r in rows.values()]
    all_gbs = [r["gigabytes_per_second"] for name, rows in points.items() if name not in NO_BYTES
               for r in rows.values()]
    fx_t, fy_t = panel_of(0, "time per call", all_us, True, "microseconds")
    fx_b, fy_b = panel_of(1, "bandwidth", all_gbs, False, "GB/s (input read once)")
    for index, (name, rows) in enumerate(points.items()):
        colour = COLOURS[index % len(COLOURS)]
        for queued in (False, True):
            series = sorted((n, r) for (n, q), r in rows.items() if q == queued)
            dash = ' stroke-dasharray="5,4"' if queued else ""
            panels = [(fx_t, fy_t, lambda r: 1000 * r["median_ms"])]
            if name not in NO_BYTES:
                panels.append((fx_b, fy_b, lambda r: r["gigabytes_per_second"]))
            for fx, fy, value in panels:
                path = " ".join(f"{fx(n):.1f},{fy(value(r)):.1f}" for n, r in series)
                parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.6"{dash}/>')
        lx = margin + (index % 5) * 200
        ly = height - 56 + (index // 5) * 18
        parts.append(f'<line x1="{lx}" y1="{ly - 4}" x2="{lx + 24}" y2="{ly - 4}" stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<text x="{lx + 30}" y="{ly}">{name}</text>')
    parts.append(f'<text x="{width - margin}" y="{height - 8}" text-anchor="end" fill="#555">solid: single calls, '
                 f'L2 flushed; dashed: back to back. {device}</text>')
    parts.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(parts) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--svg")
    parser.add_argument("--markdown")
    args = parser.parse_args()
    points = load(args.folder)
    device = ""
    first = sorted(glob.glob(os.path.join(args.folder, "n*.json")))[0]
    with open(first) as f:
        info = json.load(f).get("device", {})
    device = info.get("name", "") if isinstance(info, dict) else ""
    print(markdown(points, args.markdown))
    if args.svg:
        svg(points, args.svg, device)
        print(f"figure written to {args.svg}")


if __name__ == "__main__":
    main()
