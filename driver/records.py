"""A grading's rows on disk: records.jsonl in the reports' folder, one JSON line per student and
lesson, from which the reports are made (a whole grading, a resumed one, or parts merged)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path


class RecordLog:
    """The grading's rows, one JSON line per student and lesson, appended and flushed to disk as
    each is known (records.jsonl in the reports' folder), so that a crash, a kill or Ctrl-C keeps
    every finished row; the reports are made from it. A line cut short by a kill is ignored."""

    NAME = "records.jsonl"

    def __init__(self, out: Path):
        self.path = out / self.NAME
        self.lock = threading.Lock()

    def read(self) -> list[dict]:
        rows = []
        if self.path.exists():
            for line in self.path.read_text(errors="replace").splitlines():
                try:
                    row = json.loads(line)
                except ValueError:
                    continue
                if isinstance(row, dict):
                    rows.append(row)
        return rows

    def append(self, row: dict) -> None:
        line = json.dumps(row, sort_keys=True) + "\n"
        with self.lock, open(self.path, "a") as log:
            log.write(line)
            log.flush()
            os.fsync(log.fileno())
