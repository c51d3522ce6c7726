#!/usr/bin/env python3
"""Compares two runs of bench/approx_math.cu (one on a GPU, one on the simulator) operation by
operation: how many results are bit-identical, the largest distance between them in units in the
last place (for sin, cos and lg2 the largest absolute difference; a zero against a nonzero value, as
a subnormal flushed on one side only gives, and infinities and NaNs count apart), and each run's largest error against a
double-precision reference: absolute for sin, cos and lg2 (as the PTX ISA bounds them, sin and cos
in [-100 pi, 100 pi]), relative for the others.

    simulator/tools/compare_approx_math.py GPU_FILE SIMULATOR_FILE

Prints a Markdown table. Exit 0, or 2 on bad usage or files that do not hold the same inputs.
"""

from __future__ import annotations

import math
import struct
import sys
from array import array
from pathlib import Path


def read(path: Path) -> tuple[list[str], list[array], list[array], list[array]]:
    data = path.read_bytes()
    operations, inputs = struct.unpack_from("<II", data, 0)
    offset = 8
    names = []
    for _ in range(operations):
        names.append(data[offset:offset + 32].split(b"\0", 1)[0].decode())
        offset += 32
    blocks = []
    for _ in range(3):
        values = array("f")
        values.frombytes(data[offset:offset + 4 * operations * inputs])
        offset += 4 * operations * inputs
        blocks.append([values[op * inputs:(op + 1) * inputs] for op in range(operations)])
    return names, blocks[0], blocks[1], blocks[2]


def bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def ordered(x: float) -> int:
    """The float's position on the number line, in units in the last place."""
    b = bits(x)
    return -(b & 0x7FFFFFFF) if b >> 31 else b


def reference(name: str, a: float, b: float) -> float | None:
    try:
        if name.startswith("ex2"):
            return 2.0 ** a
        if name.startswith("lg2"):
            return math.log2(a)
        if name in ("sin.approx.f32", "__sinf"):
            return math.sin(a)
        if name.startswith("cos"):
            return math.cos(a)
        if name.startswith("rsqrt"):
            return 1 / math.sqrt(a)
        if name.startswith("rcp"):
            return 1 / a
        if name.startswith("tanh"):
            return math.tanh(a)
        if name in ("div.approx.f32", "__fdividef"):
            return a / b
        if name in ("__expf", "expf"):
            return math.exp(a)
        if name in ("__powf", "powf"):
            return math.pow(a, b)
        if name == "tanf":
            return math.tan(a)
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    return None


ABSOLUTE = ("sin.approx.f32", "cos.approx.f32", "__sinf", "lg2.approx.f32")
SMALLEST_NORMAL = 1.1754943508222875e-38


def in_range(name: str, a: float) -> bool:
    """Whether `a` lies where the PTX ISA bounds the operation's error: sin and cos in [-100 pi, 100 pi]."""
    return name not in ("sin.approx.f32", "cos.approx.f32", "__sinf") or abs(a) <= 100 * math.pi


def error(name: str, got: float, want: float | None) -> float | None:
    if want is None or not math.isfinite(want) or not math.isfinite(got) or abs(want) > 3e38:
        return None
    if name in ABSOLUTE:
        return abs(got - want)
    if abs(want) < SMALLEST_NORMAL:
        return None
    return abs(got - want) / abs(want)


def comparable(x: float, y: float) -> bool:
    """Both finite and of the same kind, zero or not: their distance in ulp means something."""
    return math.isfinite(x) and math.isfinite(y) and (x == 0) == (y == 0)


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    gpu_names, gpu_a, gpu_b, gpu_out = read(Path(argv[1]))
    sim_names, sim_a, sim_b, sim_out = read(Path(argv[2]))
    if gpu_names != sim_names or any(x.tobytes() != y.tobytes()
                                     for x, y in zip(gpu_a + gpu_b, sim_a + sim_b, strict=True)):
        print("compare_approx_math: the two files do not hold the same operations and inputs", file=sys.stderr)
        return 2
    print("| operation | bit-identical | largest difference | other differences | error | GPU's "
          "largest | simulator's largest |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for op, name in enumerate(gpu_names):
        same = 0
        farthest = 0
        apart = 0.0
        special = 0
        worst = {"gpu": 0.0, "sim": 0.0}
        for i, (g, s) in enumerate(zip(gpu_out[op], sim_out[op], strict=True)):
            if bits(g) == bits(s) or (math.isnan(g) and math.isnan(s)):
                same += 1
            elif comparable(g, s):
                if name in ABSOLUTE:
                    if in_range(name, gpu_a[op][i]):
                        apart = max(apart, abs(g - s))
                else:
                    farthest = max(farthest, abs(ordered(g) - ordered(s)))
            else:
                special += 1
            if not in_range(name, gpu_a[op][i]):
                continue
            want = reference(name, gpu_a[op][i], gpu_b[op][i])
            for run, got in (("gpu", g), ("sim", s)):
                e = error(name, got, want)
                if e is not None:
                    worst[run] = max(worst[run], e)
        count = len(gpu_out[op])
        kind = "absolute" if name in ABSOLUTE else "relative"
        difference = f"{apart:.1e} absolute" if name in ABSOLUTE else f"{farthest} ulp"
        print(f"| `{name}` | {100 * same / count:.2f}% | {difference} | {special} | {kind} | {worst['gpu']:.2e} | "
              f"{worst['sim']:.2e} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
