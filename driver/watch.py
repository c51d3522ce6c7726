"""./course watch: regrade a lesson each time the student saves an exercise file, show the first
failure and the progress, and move on when it passes (keys: h hint, g grade, n next, q quit)."""

from __future__ import annotations

import contextlib
import datetime
import os
import queue
import select
import sys
import threading
import time
from pathlib import Path

from . import building, common, environment, lessons, state, student, thresholds, verdict
from .command import (
    MAX_SEED,
    STUDENTS,
    Command,
    CommandParser,
    Line,
    backend_options,
    seed_option,
    thresholds_option,
    whole_number,
)


class KeyInput:
    """Single keys from a terminal, or commands one per line from a pipe or file (scripted use)."""

    def __init__(self, stream=None):
        self.stream = stream if stream is not None else sys.stdin
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.saved = None
        self.tty = False
        try:
            self.tty = self.stream.isatty()
        except (AttributeError, ValueError):
            pass
        if self.tty:
            import termios
            import tty
            self.fd = self.stream.fileno()
            self.saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        else:
            threading.Thread(target=self._read_lines, daemon=True).start()

    def _read_lines(self) -> None:
        try:
            for line in self.stream:
                self.lines.put(line.strip())
        except (OSError, ValueError):
            pass
        self.lines.put(None)  # end of input: keep watching, take no more commands

    def get(self, timeout: float) -> str | None:
        """The next key or command, or None after `timeout` seconds without one."""
        if self.tty:
            ready, _, _ = select.select([self.fd], [], [], timeout)
            return os.read(self.fd, 1).decode(errors="replace") if ready else None
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is None:
            self.lines.put(None)
            time.sleep(timeout)
            return None
        return line[:1].lower() if line else None

    def close(self) -> None:
        if self.saved is not None:
            import termios
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)


def snapshot(lesson: lessons.Lesson) -> dict[str, tuple[int, int]]:
    """Modification time and size of each file of the lesson's exercise folder."""
    folder = common.exercises_dir() / lesson.folder
    result = {}
    for path in folder.rglob("*"):
        with contextlib.suppress(OSError):
            if path.is_file() and not path.name.startswith((".", "#")) and not path.name.endswith("~"):
                info = path.stat()
                result[str(path.relative_to(folder))] = (info.st_mtime_ns, info.st_size)
    return result


def first_unpassed(after: lessons.Lesson | None = None) -> lessons.Lesson | None:
    done = state.passed_lessons()
    candidates = [lesson for lesson in lessons.all_lessons() if after is None or lesson.number > after.number]
    return next((lesson for lesson in candidates if lesson.number not in done), None)


class Watcher:
    """./course watch: regrade on save, show the first failure and the progress, move on when passed."""

    def __init__(self, lesson: lessons.Lesson, keys, *, out=None, poll: float = 0.5, max_rounds: int | None = None,
                 seed: int | None = None, thresholds_file: Path | None = None):
        self.lesson = lesson
        self.keys = keys
        self.out = out or sys.stdout
        self.poll = poll
        self.max_rounds = max_rounds
        self.seed = seed
        self.thresholds_file = thresholds_file
        self.rounds = 0
        self.last: verdict.Outcome | None = None

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def introduce(self) -> None:
        self.say(f"== lesson {self.lesson.number} {self.lesson.title} ==")
        self.say(f"watching exercises/{self.lesson.folder}/: save a file there to rebuild and regrade "
                 "(h: next hint, g: grade now, n: next lesson, q: quit)")

    def grade(self) -> verdict.Outcome:
        self.rounds += 1
        self.say(f"-- grading lesson {self.lesson.number} (round {self.rounds}, "
                 f"{datetime.datetime.now().strftime('%H:%M:%S')}) ...")
        outcome = student.grade_lesson(self.lesson, seed=self.seed, thresholds_file=self.thresholds_file)
        self.say(student.describe(outcome))
        if outcome.overrides:
            self.say(thresholds.describe_overrides(outcome, self.thresholds_file))
        if outcome.verdict not in ("pass", "skipped") and lessons.read_hints(self.lesson):
            self.say("(stuck? press h for a hint)")
        self.say(state.progress_bar())
        self.last = outcome
        return outcome

    def loop(self) -> int:
        self.introduce()
        seen = snapshot(self.lesson)
        pending = True
        while True:
            if pending:
                pending = False
                outcome = self.grade()
                if outcome.passed:
                    following = first_unpassed(after=self.lesson) or first_unpassed()
                    if following is None:
                        self.say("every lesson passes: well done!")
                        return 0
                    self.say(f"lesson {self.lesson.number} passes; moving on to lesson {following.number}")
                    self.lesson = following
                    self.introduce()
                    seen = snapshot(self.lesson)
                    pending = True
                if self.max_rounds is not None and self.rounds >= self.max_rounds:
                    return self.exit_code()
                if pending:
                    continue
            key = self.keys.get(self.poll)
            if key == "q":
                self.say("bye")
                return self.exit_code()
            if key == "h":
                self.say(student.next_hint(self.lesson))
            elif key == "g":
                pending = True
            elif key == "n":
                following = first_unpassed(after=self.lesson)
                if following:
                    self.lesson = following
                    self.introduce()
                    seen = snapshot(self.lesson)
                    pending = True
            now = snapshot(self.lesson)
            if now != seen:
                time.sleep(min(0.2, self.poll))  # let an editor finish writing
                now = snapshot(self.lesson)
                changed = sorted(set(now) ^ set(seen) | {k for k in now if k in seen and now[k] != seen[k]})
                seen = now
                self.say(f"saved: {', '.join(changed)}")
                pending = True

    def exit_code(self) -> int:
        if self.last is None:
            return 1
        return {"pass": 0, "skipped": common.SKIPPED}.get(self.last.verdict, 1)


def watch(lesson: lessons.Lesson, *, poll: float, max_rounds: int | None, seed: int | None,
          thresholds_file: Path | None, on_simulator: bool) -> int:
    """./course watch [NN]: watches the lesson until the student quits."""
    building.say_backend("grading", on_simulator)
    environment.ensure_environment(verbose=False)
    thresholds.check_thresholds(thresholds_file)
    keys = KeyInput()
    try:
        return Watcher(lesson, keys, poll=poll, max_rounds=max_rounds, seed=seed,
                       thresholds_file=thresholds_file).loop()
    finally:
        keys.close()


# ---------------------------------------------------------------------------------------------
# ./course watch


def watch_arguments(parser: CommandParser) -> None:
    parser.add_argument("lesson", metavar="NN", nargs="?", help="the lesson to start with")
    parser.add_argument("--once", action="store_true", help="grade once and stop (--max-rounds 1)")
    parser.add_argument("--max-rounds", metavar="N", help="stop after N gradings")
    parser.add_argument("--poll", metavar="SECONDS", help="how often to look for saved files (default 0.5)")
    seed_option(parser, "random by default")
    thresholds_option(parser)
    backend_options(parser)


def watch_command(parser: CommandParser, args: list[str]) -> int:
    options = parser.parse_args(args)
    max_rounds = whole_number("--max-rounds", options.max_rounds, 1 if options.once else None, minimum=1)
    seed = whole_number("--seed", options.seed, None, maximum=MAX_SEED)
    thresholds_file = thresholds.read_thresholds(options.thresholds)
    on_simulator = building.choose_backend(options.sim, options.gpu)
    try:
        poll = float(options.poll) if options.poll else 0.5
    except ValueError:
        common.fail(f"--poll must be a number of seconds, not '{options.poll}'", common.BAD_USAGE)
    if options.lesson:
        lesson = lessons.find_lesson(options.lesson)
    else:
        lesson = first_unpassed() or (lessons.all_lessons() or [None])[0]
    if lesson is None:
        common.fail("there are no lessons")
    return watch(lesson, poll=poll, max_rounds=max_rounds, seed=seed, thresholds_file=thresholds_file,
                 on_simulator=on_simulator)


WATCH = Command(
    name="watch",
    usage="usage: ./course watch [NN] [--once] [--max-rounds N] [--poll SECONDS] [--seed N] [--thresholds FILE] "
          "[--sim | --gpu]",
    description="Regrades lesson NN (by default the first you have not passed) each time you save one of its "
                "exercise files, and moves on when it passes. Keys: h next hint, g grade now, n next lesson, q quit "
                "(one a line when the input is not a terminal).",
    arguments=watch_arguments,
    run=watch_command,
    overview=(Line(STUDENTS, "./course watch [NN] [--once] [--max-rounds N]",
                   "regrade lesson NN each time you save an exercise file (keys: h next hint, g grade now, n next "
                   "lesson, q quit)"),),
)
