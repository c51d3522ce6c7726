"""./course docs: the HTML reference never shows a reference solution or a page of hints; only the
instructors' build (--with-solutions, target docs_with_solutions) shows the solutions.

Builds the Doxygen targets of the configured tree (COURSE_BUILD_DIR) and searches every page's text
for the lines that only the solutions have.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import unittest
from functools import cache
from pathlib import Path

from support import ROOT, build_dir

TAG = re.compile(r"<[^>]+>")
SPACE = re.compile(r"\s+")


def normalized(text: str) -> str:
    return SPACE.sub(" ", text.replace("\xa0", " ")).strip()


def page_text(page: Path) -> str:
    """A page's text as a reader sees it: tags dropped, entities decoded, spaces collapsed."""
    return normalized(html.unescape(TAG.sub(" ", page.read_text(errors="replace"))))


def site_text(folder: Path) -> str:
    return "\n".join(page_text(page) for page in sorted(folder.rglob("*.html")))


@cache
def course_text() -> str:
    """Everything a student has anyway: the lessons, the starters, the course library."""
    parts = []
    for folder in ("lessons", "exercises", "common", "simulator", "docs", "README.md"):
        path = ROOT / folder
        files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
        parts += [normalized(p.read_text(errors="replace")) for p in files if p.suffix != ".svg"]
    return "\n".join(parts)


def solution_lines() -> dict[str, str]:
    """Lines (30 characters or more, whitespace collapsed) that only the reference solutions
    have, each with the file it comes from."""
    found = {}
    for source in sorted((ROOT / "solutions").rglob("*")):
        if not source.is_file():
            continue
        for line in source.read_text(errors="replace").splitlines():
            line = normalized(line)
            if len(line) >= 30 and line not in course_text():
                found[line] = str(source.relative_to(ROOT))
    return found


def hint_texts() -> list[str]:
    """The start of every hint of every lesson, without markdown's marks."""
    texts = []
    for hints in sorted((ROOT / "lessons").glob("*/hints.md")):
        for section in re.split(r"^##\s+Hint\s+\d+\s*$", hints.read_text(), flags=re.MULTILINE)[1:]:
            words = normalized(re.sub(r"[`*_\[\]]", "", section))
            if len(words) >= 40:
                texts.append(words[:40])
    return texts


def build_docs(target: str) -> subprocess.CompletedProcess:
    return subprocess.run(["cmake", "--build", str(build_dir()), "--target", target], capture_output=True,
                          text=True, errors="replace", timeout=1200)


@unittest.skipUnless(build_dir(), "needs the configured build tree (COURSE_BUILD_DIR, set by CTest)")
@unittest.skipUnless(shutil.which("doxygen"), "needs doxygen")
class StudentDocs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.built = build_docs("docs")
        cls.site = build_dir() / "docs" / "html"

    def test_builds_without_warnings(self):
        self.assertEqual(self.built.returncode, 0, self.built.stdout[-3000:] + self.built.stderr[-3000:])
        self.assertNotIn("warning:", self.built.stdout + self.built.stderr)
        self.assertTrue((self.site / "index.html").exists())

    def test_no_reference_solution(self):
        text = site_text(self.site)
        leaked = {line: source for line, source in solution_lines().items() if line in text}
        self.assertFalse(leaked, "lines of the reference solutions in the docs: " +
                         "; ".join(f"{source}: {line}" for line, source in list(leaked.items())[:5]))

    def test_no_page_of_hints(self):
        self.assertFalse([p.name for p in self.site.rglob("*.html") if "hints" in p.name.lower()])
        text = site_text(self.site)
        shown = [hint for hint in hint_texts() if hint in text]
        self.assertFalse(shown, f"hints in the docs: {shown[:3]}")
        self.assertTrue(hint_texts())


@unittest.skipUnless(build_dir(), "needs the configured build tree (COURSE_BUILD_DIR, set by CTest)")
@unittest.skipUnless(shutil.which("doxygen"), "needs doxygen")
@unittest.skipUnless((ROOT / "solutions").is_dir(), "a student copy has no solutions/")
class InstructorDocs(unittest.TestCase):
    def test_the_solutions_only_on_request(self):
        built = build_docs("docs_with_solutions")
        self.assertEqual(built.returncode, 0, built.stdout[-3000:] + built.stderr[-3000:])
        self.assertNotIn("warning:", built.stdout + built.stderr)
        text = site_text(build_dir() / "docs" / "with-solutions" / "html")
        lines = solution_lines()
        # The interface headers show the lessons' reference kernels there: the search finds them.
        for source in ("solutions/03_neighbored_reduction/reduce_neighbored_less.cu",
                       "solutions/04_interleaved_reduction/reduce_shared_interleaved.cu"):
            with self.subTest(source=source):
                self.assertTrue(any(line in text for line, s in lines.items() if s == source),
                                f"nothing of {source} in the instructors' docs")


if __name__ == "__main__":
    unittest.main()
