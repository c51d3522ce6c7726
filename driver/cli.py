"""The command line: the commands in the order ./course help lists them, each defined beside the
module that does its work (driver/command.py says what a command is). From this list come the
overview, each command's parser (./course COMMAND --help prints its synopsis and options) and the
dispatch.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap

from . import authoring, common, demos, docs, lessons, nvidia_tools, release, selfcheck, student, watch
from .command import HELP_FLAGS, INSTRUCTORS, STUDENTS, THE_COURSE, Command, CommandParser, Line


def help_command(parser: CommandParser, args: list[str]) -> int:
    print(overview())
    print("\nlessons: " + ", ".join(f"{lesson.number} ({lesson.title})" for lesson in lessons.all_lessons()))
    return 0


HELP = Command(name="help", usage="usage: ./course help", description="The commands and the lessons.",
               run=help_command, add_help=False)

REGISTRY: tuple[Command, ...] = (
    demos.RUN, demos.TRACE, nvidia_tools.PROFILE, nvidia_tools.SANITIZE, watch.WATCH, student.GRADE, student.HINT,
    student.STATUS, student.RESET, release.RELEASE, selfcheck.TEST, selfcheck.DOCTOR, docs.DOCS, authoring.DEV, HELP,
)
BY_NAME = {command.name: command for command in REGISTRY}
COMMANDS = tuple(BY_NAME)

INTRODUCTION = "The course's driver: build and run lessons, grade exercises, test the course itself."
CLOSING = ("Every command's --help lists its options. Everything that matters happens in CMake, CTest and the C++ "
           "programs; the driver only chooses a build tree, builds what a command needs and runs it.")
SYNOPSIS_WIDTH = 46  # the summaries start in the column after it
WIDTH = 100


def overview_line(line: Line) -> list[str]:
    """A synopsis and its summary, the summary in a column of its own (below a long synopsis)."""
    indent = " " * (4 + SYNOPSIS_WIDTH)
    summary = textwrap.wrap(line.summary, WIDTH - len(indent))
    synopsis = textwrap.wrap(line.synopsis, WIDTH - 4, initial_indent="    ", subsequent_indent="                   ")
    if len(synopsis) == 1 and len(synopsis[0]) < len(indent):
        first = synopsis[0].ljust(len(indent)) + summary[0]
        return [first] + [indent + rest for rest in summary[1:]]
    return synopsis + [indent + part for part in summary]


def overview() -> str:
    """./course help: every command's lines, by section, in the registry's order."""
    text = [INTRODUCTION]
    for section in (STUDENTS, INSTRUCTORS, THE_COURSE):
        text += ["", f"{section}:"]
        for command in REGISTRY:
            for line in command.overview:
                if line.section == section:
                    text += overview_line(line)
    text += ["", *textwrap.wrap(CLOSING, WIDTH)]
    return "\n".join(text)


def command_parsers() -> dict[str, CommandParser]:
    top = argparse.ArgumentParser(prog="./course", add_help=False, allow_abbrev=False)
    commands = top.add_subparsers(dest="command", parser_class=CommandParser)
    for command in REGISTRY:
        parser = commands.add_parser(command.name, usage=command.usage.removeprefix("usage: "),
                                     description=command.description, epilog=command.epilog,
                                     bad_usage=command.bad_usage(), add_help=command.add_help)
        command.arguments(parser)
    return dict(commands.choices)


def main(argv: list[str]) -> int:
    """./course ARGV: the command's exit code (a bad command line exits 2 from inside)."""
    if not argv or argv[0] in HELP_FLAGS:
        return HELP.run(command_parsers()["help"], argv[1:])
    name, args = argv[0], argv[1:]
    if name not in BY_NAME:
        common.fail(f"unknown command '{name}'; the commands are: {', '.join(COMMANDS)}", common.BAD_USAGE)
    return BY_NAME[name].run(command_parsers()[name], args)


def entry(argv: list[str]) -> int:
    """main() for the ./course script: Ctrl-C ends it quietly with 130, a closed pipe with 1."""
    try:
        return main(argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # ./course hint 03 | head
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
