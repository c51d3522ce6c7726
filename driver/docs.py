"""./course docs: the HTML reference (Doxygen), without the reference solutions and the hints
unless an instructor asks for the solutions."""

from __future__ import annotations

from . import building, common, environment


def docs(with_solutions: bool) -> int:
    """Builds the student's pages, or with `with_solutions` the instructors' (a separate tree of
    pages that shows the reference solutions)."""
    environment.ensure_environment(verbose=False)
    building.build(["docs_with_solutions" if with_solutions else "docs"])
    pages = building.build_dir() / "docs" / ("with-solutions" if with_solutions else "") / "html" / "index.html"
    common.say(f"documentation{' with the reference solutions' if with_solutions else ''}: {common.shown(pages)}")
    return 0
