"""A graded class's reports: results.json, results.csv and summary.md (docs/driver.md, "Grading a
class")."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

from . import common, lessons, verdict
from .submission import Submission


def course_revision() -> str:
    if not shutil.which("git"):
        return "unknown"
    result = common.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else "unknown"


def outcome_record(submission: Submission, lesson: lessons.Lesson, outcome: verdict.Outcome, out: Path) -> dict:
    speed = verdict.deciding_check(outcome.speed)
    messages = [m for case in outcome.cases for m in case.get("failures", [])]
    if not messages and outcome.reason:
        messages = [outcome.reason]
    log = out / "logs" / submission.name / f"{lesson.target}.log"
    if outcome.verdict == "compile error":
        log = log.with_name(f"{lesson.target}_build.log")
    return {
        "student": submission.name,
        "lesson": lesson.number,
        "lesson_folder": lesson.folder,
        "submitted": lesson.number in submission.submitted,
        "files": submission.submitted.get(lesson.number, []),
        "starter_files_added": submission.filled.get(lesson.number, []),
        "verdict": outcome.verdict,
        "correctness": outcome.correctness,
        "check": speed.get("check"),
        "deciding_check": speed,
        "ratio": speed.get("ratio"),
        "threshold": speed.get("threshold"),
        "threshold_source": speed.get("threshold_source"),
        "speed_checks": outcome.speed,
        "reason": outcome.reason,
        "sanitizer": outcome.sanitizer,
        "simulator_pass": outcome.simulator,
        "messages": messages,
        "cases": [{"name": c.get("name"), "verdict": c.get("verdict")} for c in outcome.cases],
        "seed": outcome.seed,
        "threshold_overrides": outcome.overrides,
        "exit_code": outcome.exit_code,
        "log": str(log.relative_to(out)) if log.exists() else None,
        "device": outcome.device or None,
        "gpu": outcome.gpu or None,
    }


def not_graded_record(student: str, lesson: lessons.Lesson, reason: str) -> dict:
    """The row of a lesson no grader ran for (a part of the class that did not finish): an error."""
    return {"student": student, "lesson": lesson.number, "lesson_folder": lesson.folder, "submitted": None,
            "files": [], "starter_files_added": [], "verdict": "error", "correctness": "unknown", "check": None,
            "deciding_check": {}, "ratio": None, "threshold": None, "threshold_source": None, "speed_checks": [],
            "reason": reason, "sanitizer": None, "simulator_pass": None, "messages": [reason], "cases": [],
            "seed": None, "threshold_overrides": [], "exit_code": None, "log": None, "device": None, "gpu": None}


def applied_overrides(records: list[dict], backend: str) -> list[dict]:
    """Each entry of the thresholds file, for the lessons graded: in how many of the gradings that
    reached its check it replaced the grader's threshold."""
    table: dict[tuple, dict] = {}
    for record in records:
        for entry in record.get("threshold_overrides") or []:
            key = (record["lesson"], entry.get("backend"), entry.get("check"))
            row = table.setdefault(key, {"lesson": key[0], "backend": key[1], "check": key[2],
                                         "threshold": entry.get("threshold"),
                                         "default_threshold": entry.get("default_threshold"),
                                         "applied": 0, "graded": 0, "other_backend": key[1] != backend})
            row["graded"] += 1
            row["applied"] += bool(entry.get("applied"))
    return [table[key] for key in sorted(table)]


def write_reports(out: Path, meta: dict, records: list[dict], chosen: list[lessons.Lesson],
                  students: list[str]) -> None:
    (out / "results.json").write_text(json.dumps({**meta, "results": records}, indent=2) + "\n")
    # check ... unit: the check that decided; checks: every check the grader measured, each with its
    # figure, direction and threshold.
    columns = ["student", "lesson", "submitted", "verdict", "correctness", "check", "ratio", "direction", "threshold",
               "unit", "threshold_source", "checks", "seed", "reason", "sanitizer", "simulator_pass",
               "messages", "device", "gpu"]
    with open(out / "results.csv", "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        for record in records:
            row = dict(record)
            row["messages"] = " | ".join(record["messages"])
            row["checks"] = " | ".join(verdict.check_figures(check) for check in record.get("speed_checks") or []
                                       if check.get("ratio") is not None and check.get("threshold") is not None)
            row["ratio"] = "" if record["ratio"] is None else f"{record['ratio']:.3f}"
            decided = record.get("deciding_check") or {}
            row["direction"] = ("at most" if decided.get("at_most") else "at least") if decided else ""
            row["unit"] = verdict.unit(decided) if decided else ""
            writer.writerow(row)

    def cell(record: dict) -> str:
        text = record["verdict"]
        # A speed figure only where the results were right: a wrong result's speed means nothing.
        if record["ratio"] is not None and record.get("correctness") == "pass":
            text += f" ({verdict.check_figures(record.get('deciding_check') or record)})"
        return text

    by_key = {(r["student"], r["lesson"]): r for r in records}
    lines = ["# Grading summary", "",
             f"- course: {meta['course']}", f"- graded: {meta['started']} to {meta['finished']}",
             f"- seed: {meta['seed']} (`./course grade --submissions ... --seed {meta['seed']}` repeats the inputs)",
             f"- time limit per grader: {meta['timeout_s']} s",
             f"- thresholds: {meta['thresholds_file'] or 'none (each grader uses its own)'}",
             f"- device: {meta['device']}", "",
             "| student | " + " | ".join(f"{lesson.number} {lesson.title}" for lesson in chosen) + " |",
             "| --- | " + " | ".join("---" for _ in chosen) + " |"]
    for student in students:
        lines.append(f"| {student} | " + " | ".join(cell(by_key[(student, lesson.number)]) for lesson in chosen) + " |")
    totals: dict[str, int] = {}
    for record in records:
        totals[record["verdict"]] = totals.get(record["verdict"], 0) + 1
    lines += ["", "Verdicts: " + ", ".join(f"{v} {n}" for v, n in sorted(totals.items())), "",
              "## Not passed", ""]
    problems = [r for r in records if r["verdict"] not in ("pass", "not submitted")]
    for r in problems:
        reason = r["reason"].replace("|", "\\|").replace("\n", " ")
        lines.append(f"- **{r['student']}**, lesson {r['lesson']}: {r['verdict']} - {reason}"
                     + (f" (log: `{r['log']}`)" if r["log"] else ""))
    if not problems:
        lines.append("Nothing.")
    if any(r["verdict"] == "skipped" for r in records):
        lines += ["", "*skipped*: the graders found no GPU on this machine; those lessons were built but not graded."]
    if meta.get("thresholds_applied"):
        lines += ["", "## Threshold overrides", "", f"From `{meta['thresholds_file']}`:", ""]
        for entry in meta["thresholds_applied"]:
            default = entry["default_threshold"]
            lines.append(f"- lesson {entry['lesson']}, `{entry['check']}` ({entry['backend']}): {entry['threshold']}"
                         + (f" instead of {default}" if default is not None else "") + ": "
                         + (f"applied in {entry['applied']} of {entry['graded']} gradings" if entry["applied"] else
                            "not applied" + (" (graded on the other back end)" if entry["other_backend"] else "")))
    (out / "summary.md").write_text("\n".join(lines) + "\n")
