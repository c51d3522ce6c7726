#!/usr/bin/env python3
"""The docs site's test (CTest: docs.site, label "docs"): builds the `docs` target of a configured
tree, then checks the site a student browses.

    check_site.py BUILD_DIR

Without a browser: every lesson (lessons/NN_name/README.md) has its page, titled by the README's
first heading, with previous/next links to its neighbours; the front page and the side tree list
the lessons in the order of their numbers, then "Using the course", then the library's API; every
local link (href), image (img src) and figure (object data) of the course's pages resolves, and
every figure and table of a lesson's README is on its page. In headless Chromium (Debian package
`chromium`): the front page and every lesson page load without an error and every image on them
renders; screenshots of the front page and the first lesson go to BUILD_DIR/docs/screenshots/.

Exit code 0: passed; 1: failed; 77 (skipped): no doxygen, or no chromium (the checks without a
browser ran first and passed). Standard library only.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import course_site  # noqa: E402  (the generator: where lessons and page labels come from)

ROOT = Path(__file__).resolve().parents[1]
SKIPPED = 77
ATTRIBUTE = re.compile(r"<(?P<tag>[a-zA-Z]+)\b[^>]*?\b(?P<attr>href|src|data)=\"(?P<url>[^\"]*)\"")
TAG = re.compile(r"<[^>]+>")
BROWSERS = ("chromium", "chromium-browser", "google-chrome")


class Failures(list):
    def check(self, condition: bool, message: str) -> bool:
        if not condition:
            self.append(message)
        return condition


def text_of(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(TAG.sub("", fragment))).strip()


def page_title(page: str) -> str:
    match = re.search(r'<div class="title">(.*?)</div>', page, re.DOTALL)
    return text_of(match[1]) if match else ""


def ids_of(path: Path, cache: dict[Path, set[str]]) -> set[str]:
    if path not in cache:
        cache[path] = set(re.findall(r'\b(?:id|name)="([^"]*)"', path.read_text(errors="replace")))
    return cache[path]


def local_urls(page: str) -> list[tuple[str, str]]:
    """(tag, url) of every href, src and data that stays on this machine."""
    found = []
    for match in ATTRIBUTE.finditer(page):
        url = html.unescape(match["url"])
        if url and not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", url):
            found.append((match["tag"].lower(), url))
    return found


def check_links(site: Path, name: str, failures: Failures, ids: dict, anchors: bool) -> None:
    """Every local link and image of a page resolves to a file; with `anchors`, a link to a place
    in a page also finds that place (Doxygen's own index pages are spared that check: version
    1.9.4 links a few section headings it never writes)."""
    path = site / name
    for tag, url in local_urls(path.read_text(errors="replace")):
        target_part, _, fragment = url.partition("#")
        target = (path.parent / target_part.split("?")[0]).resolve() if target_part else path
        if not failures.check(target.is_file(), f"{name}: <{tag}> points to {url}, which is not in the site"):
            continue
        if anchors and fragment and target.suffix == ".html":
            failures.check(fragment in ids_of(target, ids), f"{name}: <{tag}> points to {url}: no such place there")


def readme_figures(readme: Path) -> list[str]:
    return [Path(target).name for target in re.findall(r"!\[[^\]]*\]\(\s*([^)\s]+)", readme.read_text())
            if not re.match(r"^[a-z]+:", target)]


def readme_tables(readme: Path) -> int:
    return len(re.findall(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$", readme.read_text(), re.MULTILINE))


def nav_links(page: str) -> list[tuple[str, str, str]]:
    """(previous, up, next) file names of each previous/next bar of a lesson page."""
    bars = []
    for bar in re.findall(r'<div class="course-nav">(.*?)</div>', page, re.DOTALL):
        cells = []
        for cell in ("prev", "up", "next"):
            match = re.search(rf'<span class="course-nav-{cell}">.*?href="([^"#]*)', bar, re.DOTALL)
            cells.append(match[1] if match else "")
        bars.append(tuple(cells))
    return bars


def navtree_order(site: Path) -> list[tuple[str, str]]:
    """The side tree's first level, (title, page), as navtreedata.js lists it."""
    data = (site / "navtreedata.js").read_text()
    start = data.index("[", data.index("var NAVTREE"))
    # The file is JavaScript; the tree itself is written as JSON (strings, arrays and null).
    root = json.loads(data[start:data.index("];", start) + 1])
    return [(entry[0], entry[1] or "") for entry in root[0][2]]


def static_checks(build: Path, failures: Failures) -> list[course_site.Lesson]:
    site = build / "docs" / "html"
    lessons = course_site.lessons(ROOT)
    folders = sorted(p.parent.name for p in (ROOT / "lessons").glob("[0-9][0-9]_*/README.md"))
    failures.check([lesson.folder for lesson in lessons] == folders,
                   f"the lessons in order are {folders}, the site has {[lesson.folder for lesson in lessons]}")
    ids: dict[Path, set[str]] = {}
    pages = {lesson.folder: site / f"{lesson.label}.html" for lesson in lessons}
    for index, lesson in enumerate(lessons):
        page_path = pages[lesson.folder]
        if not failures.check(page_path.is_file(), f"lesson {lesson.folder}: no page {page_path.name} in the site"):
            continue
        page = page_path.read_text(errors="replace")
        heading = course_site.first_heading(lesson.readme)
        title = heading[1] if heading else ""
        failures.check(page_title(page) == text_of(title),
                       f"{page_path.name}: titled {page_title(page)!r}, the README's first heading is {title!r}")
        check_links(site, page_path.name, failures, ids, anchors=True)
        previous = pages[lessons[index - 1].folder].name if index > 0 else "index.html"
        following = pages[lessons[index + 1].folder].name if index + 1 < len(lessons) else "using.html"
        bars = nav_links(page)
        failures.check(len(bars) == 2, f"{page_path.name}: {len(bars)} previous/next bars, expected 2 (top, bottom)")
        for bar in bars:
            failures.check(bar == (previous, "index.html", following),
                           f"{page_path.name}: previous/up/next link to {bar}, expected "
                           f"{(previous, 'index.html', following)}")
        shown = {Path(url).name for tag, url in local_urls(page) if tag in ("img", "object")}
        for figure in readme_figures(lesson.readme):
            failures.check(figure in shown, f"{page_path.name}: the README's figure {figure} is not on the page")
        tables = readme_tables(lesson.readme)
        failures.check(page.count("<table class=\"markdownTable\"") >= tables,
                       f"{page_path.name}: {page.count('<table class=' + chr(34) + 'markdownTable')} tables, "
                       f"the README has {tables}")

    # The front page: the course's lessons, in order.
    front = (site / "index.html").read_text(errors="replace")
    linked = [Path(url).name for _, url in local_urls(front) if Path(url.split("#")[0]).name in
              {p.name for p in pages.values()}]
    in_order = list(dict.fromkeys(linked))
    failures.check(in_order == [p.name for p in pages.values()],
                   f"index.html: the lessons are linked in the order {in_order}")
    # The side tree: the front page, the lessons in order, "Using the course", the API last.
    tree = navtree_order(site)
    expected = (["index.html"] + [p.name for p in pages.values()] + ["using.html"])
    failures.check([page for _, page in tree[:len(expected)]] == expected and tree[-1][0] == "Library API"
                   and len(tree) == len(expected) + 1,
                   f"the side tree's first level is {tree}, expected {expected} then Library API")
    # Links and images of every other page (the course's pages with their anchors).
    course_pages = {"index.html", "using.html", "measurements.html"} | {
        f"{label}.html" for _, label, _ in course_site.GUIDES}
    for path in sorted(site.glob("*.html")):
        if path.name not in {p.name for p in pages.values()}:
            check_links(site, path.name, failures, ids, anchors=path.name in course_pages)
    return lessons


# ---------------------------------------------------------------------------------------------
# In a browser

PROBE_HEAD = """<script>
window.__courseErrors = [];
window.addEventListener("error", function (e) {
  var what = e.target && e.target !== window ? (e.target.src || e.target.href || e.target.data || e.target.tagName)
                                             : e.message + " (" + e.filename + ":" + e.lineno + ")";
  window.__courseErrors.push(String(what));
}, true);
</script>"""

# After the page loaded: every <img> and every <object>'s figure decoded as an image, with its size.
PROBE_TAIL = """<script>
window.addEventListener("load", function () {
  var urls = [];
  document.querySelectorAll("img").forEach(function (i) { urls.push(i.src); });
  document.querySelectorAll("object[data]").forEach(function (o) { urls.push(o.data); });
  Promise.all(urls.map(function (url) {
    return new Promise(function (done) {
      var image = new Image();
      image.onload = function () { done([url, image.naturalWidth]); };
      image.onerror = function () { done([url, 0]); };
      image.src = url;
    });
  })).then(function (sizes) {
    var out = document.createElement("pre");
    out.id = "course-site-probe";
    out.textContent = JSON.stringify({images: sizes, errors: window.__courseErrors});
    document.body.appendChild(out);
  });
});
</script>"""


def browser() -> str | None:
    return next((found for name in BROWSERS if (found := shutil.which(name))), None)


def run_browser(chromium: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--no-default-browser-check", "--disable-extensions", f"--user-data-dir={profile}",
                           *args], capture_output=True, text=True, errors="replace", timeout=180)


def probe(chromium: str, profile: Path, site: Path, name: str, work: Path, failures: Failures) -> None:
    """Loads a copy of the page with the probe scripts (placed beside it by <base>, so that every
    relative link means what it means in the site) and reads back what they found."""
    page = (site / name).read_text(errors="replace")
    base = f'<base href="{site.resolve().as_uri()}/">'
    page = re.sub(r"<head>", lambda m: m[0] + base + PROBE_HEAD, page, count=1)
    page = page.replace("</body>", PROBE_TAIL + "</body>", 1)
    copy = work / name
    copy.write_text(page)
    result = run_browser(chromium, profile, "--virtual-time-budget=10000", "--dump-dom", copy.as_uri())
    match = re.search(r'<pre id="course-site-probe">(.*?)</pre>', result.stdout, re.DOTALL)
    if not failures.check(match is not None, f"{name}: Chromium did not finish loading it "
                                             f"(exit {result.returncode}): {result.stderr[-500:]}"):
        return
    found = json.loads(html.unescape(match[1]))
    broken = [url for url, width in found["images"] if not width]
    failures.check(not broken, f"{name}: images that do not render in Chromium: {broken}")
    failures.check(not found["errors"], f"{name}: errors while loading in Chromium: {found['errors']}")
    print(f"  {name}: loads; {len(found['images'])} images render")


def browser_checks(build: Path, lessons: list[course_site.Lesson], chromium: str, failures: Failures) -> None:
    site = build / "docs" / "html"
    shots = build / "docs" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="course-site-") as scratch:
        work, profile = Path(scratch) / "pages", Path(scratch) / "profile"
        work.mkdir()
        for name in ["index.html"] + [f"{lesson.label}.html" for lesson in lessons]:
            probe(chromium, profile, site, name, work, failures)
        for name, shot in (("index.html", "front_page.png"), (f"{lessons[0].label}.html", f"{lessons[0].label}.png")):
            target = shots / shot
            target.unlink(missing_ok=True)
            result = run_browser(chromium, profile, "--hide-scrollbars", "--virtual-time-budget=5000",
                                 f"--screenshot={target}", "--window-size=1280,1600", (site / name).as_uri())
            if failures.check(target.is_file(), f"no screenshot of {name}: {result.stderr[-500:]}"):
                print(f"  screenshot of {name}: {target}")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    build = Path(argv[1]).resolve()
    if not shutil.which("doxygen"):
        print("skipped: doxygen is missing (sudo apt-get install -y doxygen graphviz)")
        return SKIPPED
    cmake = os.environ.get("CMAKE_COMMAND", "cmake")  # CTest passes the CMake that configured the tree
    built = subprocess.run([cmake, "--build", str(build), "--target", "docs"], capture_output=True, text=True,
                           errors="replace")
    output = built.stdout + built.stderr
    if built.returncode != 0 or "warning:" in output:
        print(f"building the docs failed or warned:\n{output[-4000:]}")
        return 1
    failures = Failures()
    lessons = static_checks(build, failures)
    print(f"{len(lessons)} lesson pages: titles, previous/next links, figures, tables and links checked")
    chromium = browser()
    if chromium and not failures:
        browser_checks(build, lessons, chromium, failures)
    for failure in failures:
        print(f"FAIL: {failure}")
    if failures:
        return 1
    if not chromium:
        print("skipped: the site's links are whole, but no browser loaded it: chromium is missing "
              "(sudo apt-get install -y chromium)")
        return SKIPPED
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
