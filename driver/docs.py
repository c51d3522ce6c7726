"""./course docs: the HTML reference (Doxygen), without the reference solutions and the hints
unless an instructor asks for the solutions."""

from __future__ import annotations

from . import building, common, environment
from .command import THE_COURSE, Command, CommandParser, Line, has_solutions, no_solutions


def docs(with_solutions: bool) -> int:
    """Builds the student's pages, or with `with_solutions` the instructors' (a separate tree of
    pages that shows the reference solutions)."""
    environment.ensure_environment(verbose=False)
    building.build(["docs_with_solutions" if with_solutions else "docs"])
    pages = building.build_dir() / "docs" / ("with-solutions" if with_solutions else "") / "html" / "index.html"
    common.say(f"documentation{' with the reference solutions' if with_solutions else ''}: {common.shown(pages)}")
    return 0


# ---------------------------------------------------------------------------------------------
# ./course docs


def docs_command(parser: CommandParser, args: list[str]) -> int:
    options = parser.parse_args(args)
    if options.with_solutions and not has_solutions():
        no_solutions()
    return docs(options.with_solutions)


DOCS = Command(
    name="docs",
    usage="usage: ./course docs [--with-solutions]",
    description="Builds the HTML reference (Doxygen), without the reference solutions and the hints.",
    arguments=lambda parser: parser.add_argument(
        "--with-solutions", action="store_true",
        help="the instructors' pages, with the reference solutions (not in a student's copy)"),
    run=docs_command,
    overview=(Line(THE_COURSE, "./course docs [--with-solutions]",
                   "build the HTML reference (Doxygen); the reference solutions only with --with-solutions "
                   "(instructors)"),),
)
