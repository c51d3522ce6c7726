"""The student's progress in .course/state.json: the hints shown and each lesson's last grading."""

from __future__ import annotations

import json
import os
from pathlib import Path

from . import common, lessons


def state_dir() -> Path:
    """.course/, where a student's progress, graders' records, logs and backups are kept (or the
    folder COURSE_STATE_DIR names)."""
    return Path(os.environ["COURSE_STATE_DIR"]) if os.environ.get("COURSE_STATE_DIR") else common.ROOT / ".course"


def load_state() -> dict:
    """.course/state.json: the hints shown and each lesson's last grading. A file that is there
    but damaged stops the command (exit code 2) instead of being replaced: it holds the progress."""
    path = state_dir() / "state.json"
    if not path.exists():
        return {"hints": {}, "lessons": {}}
    try:
        state = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as error:
        state, problem = None, f"it is not readable JSON ({error})"
    else:
        problem = state_problem(state)
    if problem:
        common.fail(f"{common.shown(path)} is damaged: {problem}; it holds your progress (hints shown, lessons "
                    "graded): correct it, or move it away to start afresh", common.BAD_USAGE)
    state.setdefault("hints", {})
    state.setdefault("lessons", {})
    return state


def state_problem(state) -> str | None:
    """What is wrong with the shape of state.json's content, or None."""
    if not isinstance(state, dict):
        return f"it holds {type(state).__name__ if state is not None else 'null'}, not an object"
    hints = state.get("hints", {})
    if not isinstance(hints, dict):
        return "'hints' must map lesson numbers to the number of hints shown"
    for number, count in hints.items():
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            return f"'hints' / '{number}' must be a whole number >= 0, not {json.dumps(count)}"
    graded = state.get("lessons", {})
    if not isinstance(graded, dict):
        return "'lessons' must map lesson numbers to their last grading"
    for number, last in graded.items():
        if not isinstance(last, dict) or not isinstance(last.get("verdict"), str):
            return f"'lessons' / '{number}' must be an object with a 'verdict' text"
        for key in ("reason", "when", "thresholds"):
            if last.get(key) is not None and not isinstance(last[key], str):
                return f"'lessons' / '{number}' / '{key}' must be text, not {json.dumps(last[key])}"
        if last.get("seed") is not None and (not isinstance(last["seed"], int) or isinstance(last["seed"], bool)):
            return f"'lessons' / '{number}' / 'seed' must be a whole number, not {json.dumps(last['seed'])}"
    return None


def save_state(state: dict) -> None:
    folder = state_dir()
    folder.mkdir(parents=True, exist_ok=True)
    part = folder / "state.json.part"
    part.write_text(json.dumps(state, indent=2, sort_keys=True) + "\n")
    part.replace(folder / "state.json")


def passed_lessons(state: dict | None = None) -> set[str]:
    state = state or load_state()
    return {number for number, last in state["lessons"].items() if last.get("verdict") == "pass"}


def progress_bar(state: dict | None = None, width: int = 20) -> str:
    all_lessons = lessons.all_lessons()
    done = sum(lesson.number in passed_lessons(state) for lesson in all_lessons)
    filled = round(width * done / len(all_lessons)) if all_lessons else 0
    return f"[{'#' * filled}{'-' * (width - filled)}] {done}/{len(all_lessons)} lessons passed"
