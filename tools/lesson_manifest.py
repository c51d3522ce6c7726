"""What the calibration scripts take from the lessons' manifests (lessons/NN_name/lesson.json).

    python3 tools/lesson_manifest.py numbers                 the lessons' numbers, in order
    python3 tools/lesson_manifest.py demo-arguments NN       the arguments a calibration runs NN's demo with
    python3 tools/lesson_manifest.py calibration-script NN   NN's own calibration script, if it has one
    python3 tools/lesson_manifest.py timing-model-runs [NN...]  one line per run: name, modules, demo, arguments

tools/timing_model_table.py imports timing_model_tables() from here.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

LESSONS = Path(__file__).resolve().parent.parent / "lessons"


def manifests() -> list[tuple[str, dict]]:
    paths = sorted(LESSONS.glob("[0-9][0-9]_*/lesson.json"))
    return [(path.parent.name, json.loads(path.read_text())) for path in paths]


def lesson(number: str) -> tuple[str, dict]:
    for folder, data in manifests():
        if folder[:2] == number:
            return folder, data
    raise SystemExit(f"lesson_manifest: no lesson {number}")


def timing_model_tables() -> list[tuple[bool, dict]]:
    """Every lesson's timing-model tables, each with whether the model's constants were fitted to it."""
    return [(bool(data["timing_model"].get("fitted")), table) for _, data in manifests()
            for table in data.get("timing_model", {}).get("tables", [])]


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else ""
    if command == "numbers" and len(argv) == 2:
        print(" ".join(folder[:2] for folder, _ in manifests()))
    elif command == "demo-arguments" and len(argv) == 3:
        print(lesson(argv[2])[1]["demo"].get("calibration_arguments", ""))
    elif command == "calibration-script" and len(argv) == 3:
        folder, data = lesson(argv[2])
        script = data["demo"].get("calibration_script")
        print(f"lessons/{folder}/{script}" if script else "")
    elif command == "timing-model-runs":
        chosen = set(argv[2:])
        for folder, data in manifests():
            if chosen and folder[:2] not in chosen:
                continue
            for run in data.get("timing_model", {}).get("runs", []):
                print(run["name"], run["modules"], f"lesson{folder[:2]}_demo", run["arguments"])
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
