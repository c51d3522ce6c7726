#!/usr/bin/env python3
"""Lesson 06: draws bandwidth against occupancy as an SVG from the demo's JSON report.

    ./course run 06 --solution --seed 1 --json occupancy.json
    python3 lessons/06_occupancy/plot_bandwidth.py occupancy.json lessons/06_occupancy/bandwidth_vs_occupancy.svg

Only the standard library: the SVG is written by hand.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

WIDTH, HEIGHT = 780, 460
LEFT, RIGHT, TOP, BOTTOM = 70, 230, 50, 60
SERIES = {
    "scaled_add": ("#1f77b4", "circle", "scaled_add: 4-byte loads, 12 B per trip"),
    "scaled_add_wide": ("#d62728", "square", "scaled_add_wide: 16-byte loads, 192 B per trip"),
}


def marker(shape: str, x: float, y: float, color: str) -> str:
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="{color}" fill-opacity="0.75"/>'
    return f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" fill="{color}" fill-opacity="0.75"/>'


def main(source: str, target: str) -> int:
    report = json.loads(Path(source).read_text())
    rows = [r for r in report["rows"] if r["kernel"] in SERIES]
    peak = report["peak_dram_gbps"]
    y_max = max(peak, max(r["gbps"] for r in rows)) * 1.08
    y_step = 500 if y_max > 2000 else 250
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(occupancy: float) -> float:
        return LEFT + occupancy * plot_w

    def py(gbps: float) -> float:
        return TOP + plot_h - gbps / y_max * plot_h

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{LEFT}" y="22" font-size="15" font-weight="bold">Bandwidth against theoretical occupancy</text>',
        f'<text x="{LEFT}" y="38" fill="#555">{report["device"]}, z = 3x + y over {report["n"]} ints, '
        "one full wave of blocks, grid-stride loop</text>",
    ]
    # Grid lines and axes.
    for tick in range(0, 101, 25):
        x = px(tick / 100)
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + plot_h}" stroke="#e5e5e5"/>')
        out.append(f'<text x="{x:.1f}" y="{TOP + plot_h + 18}" text-anchor="middle">{tick}%</text>')
    gbps = 0
    while gbps <= y_max:
        y = py(gbps)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="#e5e5e5"/>')
        out.append(f'<text x="{LEFT - 8}" y="{y + 4:.1f}" text-anchor="end">{gbps}</text>')
        gbps += y_step
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#333"/>')
    out.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 18}" text-anchor="middle">'
        "theoretical occupancy (resident warps / 64)</text>"
    )
    out.append(
        f'<text transform="translate(18 {TOP + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle">'
        "GB/s (x, y read + z written)</text>"
    )
    # The DRAM peak from clock x bus width.
    y = py(peak)
    out.append(
        f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="#555" stroke-dasharray="6 4"/>'
    )
    out.append(f'<text x="{LEFT + 6}" y="{y - 6:.1f}" fill="#555">DRAM peak {peak:.0f} GB/s</text>')
    # Little's law for scaled_add with the idle latency: every resident thread moves 12 bytes per
    # round trip, so bandwidth = SMs x warps x 32 x 12 B / latency, until the DRAM peak.
    latency = report.get("dram_latency_ns", 0)
    sms = report.get("multiprocessors", 0)
    if latency > 0 and sms > 0:
        points = []
        for step in range(0, 101):
            occupancy = step / 100
            predicted = min(peak, sms * occupancy * 64 * 32 * 12 / latency)
            points.append(f"{px(occupancy):.1f},{py(predicted):.1f}")
        out.append(
            f'<polyline points="{" ".join(points)}" fill="none" stroke="#1f77b4" stroke-width="1.2" '
            'stroke-dasharray="2 3"/>'
        )
    # The points: one per (block size, shared memory) configuration.
    for kernel, (color, shape, _) in SERIES.items():
        for r in (r for r in rows if r["kernel"] == kernel):
            out.append(marker(shape, px(r["occupancy"]), py(r["gbps"]), color))
    # Legend.
    lx, ly = LEFT + plot_w + 14, TOP + 10
    for i, (color, shape, label) in enumerate(SERIES.values()):
        y = ly + i * 46
        out.append(marker(shape, lx + 5, y, color))
        words = label.split(": ")
        out.append(f'<text x="{lx + 16}" y="{y + 4}">{words[0]}</text>')
        out.append(f'<text x="{lx + 16}" y="{y + 20}" fill="#555" font-size="11">{words[1]}</text>')
    notes = ["each point: one block size and", "dynamic shared memory (demo table)"]
    if latency > 0 and sms > 0:
        notes += ["", "dotted: Little's law for scaled_add", f"with the idle latency, {latency:.0f} ns:",
                  "SMs x warps x 32 x 12 B / latency"]
    for i, note in enumerate(notes):
        out.append(f'<text x="{lx}" y="{ly + 110 + 15 * i}" fill="#555" font-size="11">{note}</text>')
    out.append("</svg>")
    Path(target).write_text("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
