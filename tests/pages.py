"""The documentation pages the tests hold to the code: README.md, then every page of docs/.

A check of what the documentation says (an exit-code table, a file's cage sizes, a command
and its output) reads them all through :func:`pages`, so that moving a section from one page
to another never leaves it unchecked.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def pages() -> list[Path]:
    """README.md, then docs/*.md in name order."""
    return [README, *sorted(DOCS.glob("*.md"))]


def name(page: Path) -> str:
    """A page's path from the repository's root, as links and messages give it."""
    return page.relative_to(ROOT).as_posix()


def text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def headings(page: Path) -> list[tuple[int, int, str]]:
    """(line index, level, title) of every heading of a page, fenced code left out."""
    found, fenced = [], False
    for i, line in enumerate(text(page).splitlines()):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.fullmatch(r"(#+) (.*)", line)):
            found.append((i, len(match[1]), match[2]))
    return found


def section(page: Path, heading: str) -> str:
    """The text under the heading ``heading`` (any level) up to the next heading of that
    level or higher; KeyError when the page has no such heading."""
    lines = text(page).splitlines()
    marks = headings(page)
    for k, (i, level, title) in enumerate(marks):
        if title == heading:
            end = next((j for j, other, _ in marks[k + 1:] if other <= level), len(lines))
            return "\n".join(lines[i + 1:end])
    raise KeyError(f"{name(page)} has no heading {heading!r}")
