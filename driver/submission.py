"""One student's submission to a class's grading: where it came from, what it holds and how each
of its lessons came out (driver/batch.py grades it, driver/reports.py reports it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import verdict


@dataclass
class Submission:
    name: str
    source: Path
    exercises: Path | None = None  # the composed folder the build uses
    submitted: dict[str, list[str]] = field(default_factory=dict)  # lesson number -> files submitted
    filled: dict[str, list[str]] = field(default_factory=dict)  # lesson number -> starter files added
    problem: str = ""  # why it could not be prepared at all
    refused: dict[str, str] = field(default_factory=dict)  # lesson number -> why its files were refused
    outcomes: dict[str, verdict.Outcome] = field(default_factory=dict)
    recorded: set[str] = field(default_factory=set)  # lesson numbers whose row is on disk
