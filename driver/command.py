"""One command of ./course as one object: its name, its lines in the overview, its synopsis, its
arguments and what runs it. Each module that does the work defines its commands beside it
(demos.RUN, student.GRADE, ...); driver/cli.py lists them in order and derives the overview, the
usage lines, the parsers and the dispatch from that list.

A bad command line is answered as the course always has: one line on stderr (the command's synopsis,
or what is wrong with a value) and exit code 2; long options are never abbreviated.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NoReturn

from . import common

HELP_FLAGS = ("-h", "--help")
# The graders' seeds are 64-bit unsigned integers.
MAX_SEED = 2**64 - 1

# The overview's sections, in order.
STUDENTS = "Students"
INSTRUCTORS = "Instructors"
THE_COURSE = "The course itself"


class CommandParser(argparse.ArgumentParser):
    """The parser of one command. A bad command line stops with one line and exit code 2: "--seed
    needs a value" for an option without its value, else the command's synopsis (`bad_usage`)."""

    def __init__(self, *args, bad_usage: str = "", **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self.bad_usage = bad_usage

    def error(self, message: str) -> NoReturn:
        missing = re.fullmatch(r"argument (--[\w-]+): expected one argument", message)
        common.fail(f"{missing[1]} needs a value" if missing else self.bad_usage, common.BAD_USAGE)


@dataclass(frozen=True)
class Line:
    """One entry of the overview (./course help): a synopsis and what it does, under a section."""

    section: str
    synopsis: str
    summary: str


@dataclass(frozen=True)
class Command:
    name: str
    # "usage: ./course NAME ...": the first lines of --help, and the one line after a bad command
    # line (with `usage_note` after a colon, where given).
    usage: str
    description: str  # --help's paragraph
    run: Callable[[CommandParser, list[str]], int]
    arguments: Callable[[CommandParser], None] = lambda parser: None
    overview: tuple[Line, ...] = field(default_factory=tuple)
    usage_note: str = ""
    epilog: str | None = None
    add_help: bool = True

    def bad_usage(self) -> str:
        return f"{self.usage}: {self.usage_note}" if self.usage_note else self.usage


# ---------------------------------------------------------------------------------------------
# Values and options that several commands share


def whole_number(name: str, value: str | None, default: int | None, minimum: int = 0,
                 maximum: int | None = None) -> int | None:
    """An option's value as a whole number within bounds (`default` when not given); anything else
    stops the command."""
    if value is None:
        return default
    if not (value.isascii() and value.isdigit()) or int(value) < minimum or (maximum is not None and
                                                                            int(value) > maximum):
        bounds = f"from {minimum} to {maximum}" if maximum is not None else f">= {minimum}"
        common.fail(f"{name} must be a whole number {bounds}, not '{value}'", common.BAD_USAGE)
    return int(value)


def has_solutions() -> bool:
    return (common.ROOT / "solutions").is_dir()


def no_solutions(message: str = "this copy of the course has no solutions/") -> NoReturn:
    common.fail(message, common.BAD_USAGE)


def lesson_first(parser: CommandParser, args: list[str]) -> None:
    """run, trace, profile and sanitize take the lesson first: what follows may be the demo's.
    (--help anywhere is trace's, profile's and sanitize's own; run's only before the lesson.)"""
    if (not args or args[0].startswith("-")) and not any(a in HELP_FLAGS for a in args):
        parser.error("the lesson comes first")


def unexpected(parser: CommandParser, rest: list[str]) -> None:
    if rest:
        common.fail(f"{parser.bad_usage} (unexpected: {' '.join(rest)})", common.BAD_USAGE)


def without_arguments(name: str, description: str, action: Callable[[], int], overview: Line) -> Command:
    """A command that takes no arguments: its usage line says so, and it refuses any (--help answered)
    before `action`."""
    def run(parser: CommandParser, args: list[str]) -> int:
        parser.parse_args(args)
        return action()
    return Command(name=name, usage=f"usage: ./course {name} (takes no arguments)", description=description,
                   run=run, overview=(overview,))


def backend_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sim", action="store_true",
                        help="on the CPU simulator (build/sim; the default where there is no GPU)")
    parser.add_argument("--gpu", action="store_true", help="on the GPU, even where nvidia-smi sees none")


def solution_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--solution", action="store_true",
                        help=f"{what} the reference kernels instead of yours (not in a student's copy)")


def thresholds_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--thresholds", metavar="FILE",
                        help="speed thresholds per lesson, back end and check (or COURSE_THRESHOLDS; "
                             "lessonNN_grader --list-checks names the checks; docs/driver.md)")


def seed_option(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument("--seed", metavar="N", help=f"the seed of the graders' inputs, a whole number from 0 to "
                                                    f"2^64 - 1 ({default})")
