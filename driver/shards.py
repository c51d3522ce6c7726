"""A class graded in parts: `./course grade --submissions DIR --shard I/N` grades the I-th of N parts
into its own --out, on any machine (a scheduler's task, one GPU each), and `./course grade --merge
OUT SHARD_DIR...` makes the class's reports from the parts (docs/driver.md, "A class in parts")."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import TypeVar

from . import common, lessons, reports
from .records import RecordLog

T = TypeVar("T")

# What every part of one grading must share: the course, the inputs, the limits and the class.
SAME_IN_EVERY_PART = ("course", "seed", "lessons", "backend", "timeout_s", "thresholds_file", "class")


def parse_shard(text: str) -> tuple[int, int]:
    """"I/N" (1 <= I <= N <= 10000) as (I, N); stops with a usage error otherwise."""
    match = re.fullmatch(r"(\d{1,5})/(\d{1,5})", text or "")
    if not match or not 1 <= int(match[1]) <= int(match[2]) <= 10000:
        common.fail(f"--shard {text}: give I/N, the I-th of N parts of the class (1 <= I <= N <= 10000)",
                    common.BAD_USAGE)
    return int(match[1]), int(match[2])


def shard_text(shard: tuple[int, int]) -> str:
    return f"{shard[0]}/{shard[1]}"


def part(items: list[T], shard: tuple[int, int]) -> list[T]:
    """The I-th of N parts of the class's sorted list: every N-th entry from the I-th, so that the
    parts differ in size by one at most and the same class always splits the same way."""
    index, count = shard
    return items[index - 1::count]


def owner(student: str, class_names: list[str], count: int) -> int:
    """The number of the part (1..count) that grades `student`."""
    return class_names.index(student) % count + 1


def read_part(folder: Path) -> dict | None:
    """A part's grading.json, with its folder; None where there is none (a part that never started);
    stops where the folder holds a whole class's grading."""
    try:
        settings = json.loads((folder / "grading.json").read_text())
    except (OSError, ValueError):
        return None
    if not settings.get("shard"):
        common.fail(f"--merge: {folder} holds a whole class's grading, not a part of one (--shard I/N)",
                    common.BAD_USAGE)
    return dict(settings, folder=folder)


def merge(out_text: str, folders: list[str]) -> int:
    """./course grade --merge OUT SHARD_DIR...: the class's reports from its parts. Parts graded
    with another seed, course revision, lesson list, back end, time limit, thresholds file or class
    are refused; a student graded in two parts stops the merge; a student no part graded (a part that
    failed or was not run) gets a row per lesson with the verdict error and the reason. Merging again
    into the same OUT (once a part is done) writes its reports anew."""
    if not folders:
        common.fail("--merge OUT SHARD_DIR...: name the parts' folders", common.BAD_USAGE)
    read = [(f, read_part(Path(f).expanduser().resolve())) for f in folders]
    parts = [settings for _, settings in read if settings]
    if not parts:
        common.fail("--merge: none of " + ", ".join(folders) + " holds a part of a grading (grading.json)",
                    common.BAD_USAGE)
    for folder in [f for f, settings in read if settings is None]:
        common.say(f"--merge: {folder} holds no part of a grading (it never started): its students are errors")
    check_one_grading(parts)
    out = Path(out_text).expanduser().resolve()
    if (out / "grading.json").exists():
        common.fail(f"--merge: {out} holds a grading itself: choose another folder for the class's reports",
                    common.BAD_USAGE)
    out.mkdir(parents=True, exist_ok=True)

    first = parts[0]
    class_names: list[str] = first["class"]
    count = int(first["shard"].split("/")[1])
    chosen = [lessons.find_lesson(folder) for folder in first["lessons"]]
    rows = collect_rows(parts, out)
    missing = set()
    for student in class_names:
        for lesson in chosen:
            if (student, lesson.number) not in rows:
                number = owner(student, class_names, count)
                rows[(student, lesson.number)] = reports.not_graded_record(
                    student, lesson, f"not graded: part {number}/{count} did not grade it (the part failed, was "
                                     "stopped or ran out of time before it, or was not given to --merge)")
                missing.add(student)
    if missing:
        common.say(f"not graded in any part, reported as error: {', '.join(sorted(missing))}")
    ordered = [rows[(student, lesson.number)] for student in class_names for lesson in chosen]
    reports.write_reports(out, merged_meta(parts, ordered), ordered, chosen, class_names)
    common.say(f"merged {len(parts)} of {count} parts, {len(class_names)} students: {out / 'summary.md'}, "
               f"{out / 'results.csv'}, {out / 'results.json'}")
    return 0


def check_one_grading(parts: list[dict]) -> None:
    """Stops unless the parts share every setting of SAME_IN_EVERY_PART and their count of parts, and
    no part is given twice."""
    first = parts[0]
    for other in parts[1:]:
        differ = [f"{key} {first.get(key)!r} in {first['folder']}, {other.get(key)!r} in {other['folder']}"
                  for key in SAME_IN_EVERY_PART if key != "class" and first.get(key) != other.get(key)]
        if first.get("class") != other.get("class"):
            differ.append(f"the class in {other['folder']} is not the class in {first['folder']}")
        if first["shard"].split("/")[1] != other["shard"].split("/")[1]:
            differ.append(f"{first['folder']} is part {first['shard']}, {other['folder']} part {other['shard']}")
        if differ:
            common.fail("--merge: these are not parts of one grading: " + "; ".join(differ), common.BAD_USAGE)
    seen: dict[str, Path] = {}
    for settings in parts:
        if settings["shard"] in seen:
            common.fail(f"--merge: part {settings['shard']} is given twice ({seen[settings['shard']]}, "
                        f"{settings['folder']})", common.BAD_USAGE)
        seen[settings["shard"]] = settings["folder"]


def collect_rows(parts: list[dict], out: Path) -> dict[tuple[str, str], dict]:
    """Every part's rows by (student, lesson), the latest of each, and its logs and results copied
    into `out`; stops where a student was graded in two parts."""
    rows: dict[tuple[str, str], dict] = {}
    graded_by: dict[str, Path] = {}
    twice = set()
    for settings in parts:
        for row in RecordLog(settings["folder"]).read():
            student = row.get("student")
            if graded_by.setdefault(student, settings["folder"]) != settings["folder"]:
                twice.add(f"{student} ({graded_by[student]}, {settings['folder']})")
                continue
            rows[(student, row.get("lesson"))] = row
        for kept in ("results", "logs"):
            if (settings["folder"] / kept).is_dir():
                shutil.copytree(settings["folder"] / kept, out / kept, dirs_exist_ok=True)
    if twice:
        common.fail("--merge: graded in two parts: " + ", ".join(sorted(twice)), common.BAD_USAGE)
    return rows


def merged_meta(parts: list[dict], rows: list[dict]) -> dict:
    """The header of the merged reports: the parts' shared settings, the earliest start and latest
    end, and each part's folder and device."""
    first = parts[0]
    headers = []
    for settings in parts:
        try:
            headers.append(json.loads((settings["folder"] / "results.json").read_text()))
        except (OSError, ValueError):
            headers.append({})
    devices = sorted({h.get("device") for h in headers if h.get("device")})
    finished = [h.get("finished") for h in headers if h.get("finished")]
    return {"course": first["course"], "started": min(s.get("started", "") for s in parts),
            "finished": max(finished) if finished else common.now_text(), "seed": first["seed"],
            "timeout_s": first["timeout_s"], "thresholds_file": first["thresholds_file"],
            "thresholds": next((h.get("thresholds") for h in headers if h.get("thresholds")), None),
            "thresholds_applied": reports.applied_overrides(rows, first["backend"]),
            "device": ", ".join(devices) or "none found (GPU graders skipped)", "lessons": first["lessons"],
            "submissions": first["submissions"],
            "parts": [{"shard": s["shard"], "folder": str(s["folder"]), "device": h.get("device")}
                      for s, h in zip(parts, headers, strict=True)]}
