#!/usr/bin/env python3
"""The docs site as a course: what Doxygen needs, made from the course's folders at build time.

    course_site.py pages ROOT OUT      writes the generated pages: OUT/index.md (the front page),
                                       OUT/using.md ("Using the course"), OUT/measurements.md
    course_site.py filter ROOT FILE    Doxygen's input filter for markdown (FILTER_PATTERNS): gives
                                       a page its label, a lesson its previous/next links, and turns
                                       links to files the site does not carry into their paths

Lessons are the folders lessons/NN_name/ that hold a manifest (lesson.json) and a README.md, in the
order of NN; a lesson's title is its README's first heading. Nothing here names a lesson, so a new
folder is a new page, in its place. Standard library only.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

HEADING = re.compile(r"^#\s+(?P<title>.*?)\s*(?:\{#(?P<label>[\w-]+)\})?\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+).+?\1")
# [text](target) and ![alt](target), with an optional "title"; text may hold one level of [].
LINK = re.compile(r"(?P<bang>!?)\[(?P<text>(?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?(?P<target>[^)\s>]+)>?"
                  r"(?:\s+\"[^\"]*\")?\s*\)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")

# The pages under "Using the course", beside the measurements (every file of docs/measurements/).
GUIDES = (("docs/driver.md", "driver", "every command of `./course`, for students and instructors"),
          ("simulator/README.md", "simulator", "the CPU simulator: the course without an NVIDIA GPU, "
                                               "its checks, counters and timing model"),
          ("docs/adding_a_lesson.md", "adding_a_lesson", "for authors: a new lesson is three folders, its "
                                                         "planted kernels and one line of CMake"))
MEASUREMENTS = "docs/measurements"


@dataclass(frozen=True)
class Lesson:
    number: str
    folder: str
    readme: Path
    title: str
    label: str


def first_heading(path: Path) -> tuple[int, str, str | None] | None:
    """The first level-1 heading of a markdown file: (line index, title, explicit label). The title
    without code marks: Doxygen 1.9.4 would show the side tree a title's <tt> tags as text."""
    fenced = False
    for index, line in enumerate(path.read_text(encoding="utf-8").split("\n")):
        if FENCE.match(line):
            fenced = not fenced
        match = None if fenced else HEADING.match(line)
        if match:
            return index, match["title"].replace("`", ""), match["label"]
    return None


def lessons(root: Path) -> list[Lesson]:
    found = []
    # The lessons are the folders with a manifest (lessons/NN_name/lesson.json), as for CMake.
    for manifest in (root / "lessons").glob("[0-9][0-9]_*/lesson.json"):
        readme = manifest.parent / "README.md"
        if not readme.is_file():
            continue
        folder = readme.parent.name
        heading = first_heading(readme)
        number = folder[:2]
        title = heading[1] if heading else f"Lesson {number}"
        label = heading[2] if heading and heading[2] else f"lesson_{folder}"
        found.append(Lesson(number, folder, readme, title, label))
    return sorted(found, key=lambda lesson: (int(lesson.number), lesson.folder))


def default_label(root: Path, path: Path) -> str | None:
    """The label a page of the course gets where its heading names none; None: not a page of ours."""
    try:
        rel = path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None
    match = re.fullmatch(r"lessons/(\d\d_[^/]+)/README\.md", rel)
    if match:
        return f"lesson_{match[1]}"
    for guide, label, _ in GUIDES:
        if rel == guide:
            return label
    if rel.startswith(MEASUREMENTS + "/") and rel.count("/") == 2:
        # A recording (a .txt file) gets a generated page of its own; its label names its suffix.
        name = Path(rel)
        suffix = name.suffix.lstrip(".")
        return f"measurements_{name.stem}" + ("" if suffix == "md" else f"_{suffix}" if suffix else "")
    return None


def page_label(root: Path, path: Path) -> str | None:
    if path.suffix == ".md" and path.is_file():
        heading = first_heading(path)
        if heading and heading[2]:
            return heading[2]
    return default_label(root, path)


# ---------------------------------------------------------------------------------------------
# Links


def rewrite_links(text: str, source_dir: Path, root: Path) -> str:
    """Links that leave the site become what the reader needs: a measurement file links to its
    page, the repository's README to the front page, and a source file or folder shows as its path
    in the repository (the student has it). Links to markdown pages of the site stay as they are:
    Doxygen resolves them; so do images, named by their file name alone. Code is left alone."""

    def replace(match: re.Match) -> str:
        target = match["target"]
        if SCHEME.match(target) or target.startswith(("#", "@", "\\")):
            return match[0]
        if match["bang"]:
            # Doxygen finds an image by its name in IMAGE_PATH (lessons/) and copies it beside the
            # pages; a path to another lesson's figure would be left as a link to nowhere.
            figure = (source_dir / unquote(target)).resolve()
            if "/" in target and figure.is_file() and (root / "lessons").resolve() in figure.parents:
                return f"![{match['text']}]({figure.name})"
            return match[0]
        path_part = unquote(target.split("#", 1)[0])
        if not path_part:
            return match[0]
        resolved = (source_dir / path_part).resolve()
        try:
            rel = resolved.relative_to(root.resolve()).as_posix()
        except ValueError:
            return match[0]
        if not resolved.exists():
            return match[0]  # a broken link stays broken, where the site's check finds it
        if rel == "README.md":
            return f"[{match['text']}](@ref index)"
        if resolved.suffix == ".md" and page_label(root, resolved):
            return match[0]
        if rel.startswith(MEASUREMENTS + "/") and resolved.is_file():
            return f"[{match['text']}](@ref {default_label(root, resolved)})"
        shown = rel + ("/" if resolved.is_dir() else "")
        words = match["text"].strip("`").rstrip("/")
        if words in (resolved.name, rel, shown.rstrip("/")):
            return f"`{shown}`"
        return f"{match['text']} (`{shown}`)"

    out, fenced = [], False
    for line in text.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
        if fenced or FENCE.match(line) or "](" not in line:
            out.append(line)
            continue
        # Rewrite only outside code spans.
        pieces, last = [], 0
        for span in CODE_SPAN.finditer(line):
            pieces.append(LINK.sub(replace, line[last:span.start()]))
            pieces.append(span[0])
            last = span.end()
        pieces.append(LINK.sub(replace, line[last:]))
        out.append("".join(pieces))
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# The filter: what Doxygen reads instead of a page's file


def ref(label: str, text: str) -> str:
    return f'@ref {label} "{text.replace(chr(34), chr(39))}"'


def lesson_nav(all_lessons: list[Lesson], index: int) -> str:
    """Previous, the list of lessons, next: one line of HTML, so that it takes one line of the page
    (Doxygen's warnings keep the file's line numbers)."""
    prev = (ref(all_lessons[index - 1].label, "\u2190 " + all_lessons[index - 1].title) if index > 0
            else ref("index", "\u2190 The course"))
    next_ = (ref(all_lessons[index + 1].label, all_lessons[index + 1].title + " \u2192")
             if index + 1 < len(all_lessons) else ref("using", "Using the course \u2192"))
    return (f'<div class="course-nav"><span class="course-nav-prev">{prev}</span>'
            f'<span class="course-nav-up">{ref("lessons", "All lessons")}</span>'
            f'<span class="course-nav-next">{next_}</span></div>')


def starts_paragraph(line: str) -> bool:
    return bool(line.strip()) and not re.match(r"^\s*([#|>*+\-!<]|```|~~~|\d+\.\s)", line)


def filtered(root: Path, path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    label = default_label(root, path)
    if label is None:
        return text  # not a page of the course (a generated page): as it is
    lines = text.split("\n")
    heading = first_heading(path)
    if heading is None:
        lines.insert(0, f"# {path.stem} {{#{label}}}")
        heading_line = 0
    else:
        heading_line, title, explicit = heading
        lines[heading_line] = f"# {title} {{#{explicit or label}}}"
    all_lessons = lessons(root)
    position = next((i for i, lesson in enumerate(all_lessons) if lesson.readme.resolve() == path.resolve()), None)
    if position is not None:
        nav = lesson_nav(all_lessons, position)
        after = heading_line + 1
        if after + 1 < len(lines) and lines[after] == "" and starts_paragraph(lines[after + 1]):
            lines[after] = nav  # in place of the blank line: the numbers of the lines below stay
        else:
            lines[after:after] = [nav, ""]
        lines += ["", nav, ""]
    return rewrite_links("\n".join(lines), path.parent, root)


# ---------------------------------------------------------------------------------------------
# The generated pages


def sections(markdown: str) -> dict[str, str]:
    """A markdown file's level-2 sections by title (fenced code never starts one)."""
    found, title, body, fenced = {}, None, [], False
    for line in markdown.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
        match = None if fenced else re.match(r"^##\s+(.*?)\s*$", line)
        if match:
            if title is not None:
                found[title] = "\n".join(body).strip("\n")
            title, body = match[1], []
        elif title is not None:
            body.append(line)
    if title is not None:
        found[title] = "\n".join(body).strip("\n")
    return found


def blocks(markdown: str) -> list[str]:
    """Paragraphs and fenced code blocks, in order."""
    found, current, fenced = [], [], False
    for line in markdown.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            current.append(line)
            if not fenced:
                found.append("\n".join(current))
                current = []
            continue
        if not fenced and not line.strip():
            if current:
                found.append("\n".join(current))
                current = []
            continue
        current.append(line)
    if current:
        found.append("\n".join(current))
    return found


def front_page(root: Path, all_lessons: list[Lesson]) -> str:
    readme = (root / "README.md").read_text(encoding="utf-8")
    heading = first_heading(root / "README.md")
    title = heading[1] if heading else "The course"
    intro = next((b for b in blocks(readme.split("\n## ", 1)[0]) if not b.startswith(("#", "|"))), "")
    quickstart = sections(readme).get("Quickstart")
    if quickstart is None:
        sys.exit("course_site.py: README.md has no '## Quickstart' section, where the front page "
                 "takes its first commands from")
    # The setting and its commands: up to the first code block.
    start = []
    for block in blocks(quickstart):
        start.append(block)
        if FENCE.match(block):
            break
    lesson_lines = "\n".join(f"- {ref(lesson.label, lesson.title)}" for lesson in all_lessons)
    guide_lines = "\n".join(f"- @ref {label} \u2014 {what}" for _, label, what in GUIDES)
    page = f"""# {title} {{#mainpage}}

{intro}

## The lessons {{#lessons}}

In order; each builds on the ones before it.

{lesson_lines}

## How to start {{#how_to_start}}

{(chr(10) * 2).join(start)}

Then, lesson by lesson: read the lesson here, write its kernels in the starter files of
`exercises/NN_name/` (the only files you change), and run `./course run NN` to time them beside
the baseline and `./course grade NN` for the verdict; `./course watch` does both each time you save.
`./course doctor` says what is missing and how to install it. Without an NVIDIA GPU every
command runs on the CPU simulator.

## Beyond the lessons {{#beyond_the_lessons}}

@ref using "Using the course":

{guide_lines}
- @ref measurements \u2014 the figures behind the lessons' thresholds and the
  simulator's timing model, with the commands that reproduce them

The library's API: the course library (`common/include/course/`) and the lessons' interface
headers, which the lessons' demos and graders are built on; its <a href="annotated.html">classes</a>
and <a href="files.html">files</a>.
"""
    return rewrite_links(page, root, root)


def using_page() -> str:
    lines = "\n".join(f"- @subpage {label} \u2014 {what}" for _, label, what in GUIDES)
    return f"""# Using the course {{#using}}

How to drive the course, how it runs without a GPU, and where its numbers come from.

{lines}
- @subpage measurements \u2014 the figures behind the lessons' thresholds and the simulator's timing
  model, each with the command that reproduces it
"""


def measurements_page(root: Path) -> str:
    """The measurements: each report (markdown) a subpage, each recording (a .txt file, say) a
    section with its text as recorded. One file: the generated pages lie in the build tree, whose
    folders Doxygen's EXCLUDE_PATTERNS leave out, so each is named in INPUT."""
    folder = root / MEASUREMENTS
    files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")) if folder.is_dir() else []
    reports = [f"- @subpage {page_label(root, p)}" for p in files if p.suffix == ".md"]
    recordings = []
    for path in (p for p in files if p.suffix != ".md"):
        text = path.read_text(encoding="utf-8", errors="replace").rstrip("\n")
        recordings.append(f"## {path.name} {{#{default_label(root, path)}}}\n\n"
                          f"`{MEASUREMENTS}/{path.name}`, as recorded:\n\n@verbatim\n{text}\n@endverbatim\n")
    return ("# Measurements {#measurements}\n\n"
            "What was measured on the GPUs the course is calibrated on, with the commands that reproduce "
            "it: the lessons' thresholds and the simulator's timing model come from here.\n\n"
            + "\n".join(reports) + "\n\n" + "\n".join(recordings))


def write_if_changed(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def write_pages(root: Path, out: Path) -> None:
    all_lessons = lessons(root)
    if not all_lessons:
        sys.exit(f"course_site.py: no lessons/NN_name/README.md under {root}")
    write_if_changed(out / "index.md", front_page(root, all_lessons))
    write_if_changed(out / "using.md", using_page())
    write_if_changed(out / "measurements.md", measurements_page(root))


def main(argv: list[str]) -> int:
    if len(argv) == 4 and argv[1] == "pages":
        write_pages(Path(argv[2]), Path(argv[3]))
        return 0
    if len(argv) == 4 and argv[1] == "filter":
        # Bytes: Doxygen may run the filter under a locale whose encoding is not UTF-8.
        sys.stdout.buffer.write(filtered(Path(argv[2]), Path(argv[3])).encode("utf-8"))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
