"""README.md and docs/ say what the tool does: every command they show with its output gives
that output, every link leads to a page and heading that exist, README starts with the two
set-up commands CI runs, and every page is reachable from README."""

from __future__ import annotations

import re
import shlex
from functools import cache
from pathlib import Path
from typing import NamedTuple

import pytest
from pages import README, ROOT, headings, name, pages, text
from typer.testing import CliRunner

from sudoku_csp.cli import Exit, app

# -- the commands shown with their output ---------------------------------------------------
SKIP = "..."  # a line of shown output that stands for any number of lines left out
TIME = re.compile(r"\d+(?:\.\d+)? ?ms\b")  # times vary from run to run; nothing else may


class Shown(NamedTuple):
    """A ``$ sudoku-csp ...`` line of a ```text block, with the output shown under it."""

    page: str
    line: int  # 1-based, in the page
    command: str
    output: list[str]
    variables: dict[str, str]  # NAME='...' lines before it in the same block


def shown_commands() -> list[Shown]:
    found = []
    for page in pages():
        lines = text(page).splitlines()
        i = 0
        while i < len(lines):
            if lines[i].strip() != "```text":
                i += 1
                continue
            end = lines.index(lines[i].replace("text", ""), i + 1)  # the closing fence
            block, variables = lines[i + 1:end], {}
            starts = [k for k, line in enumerate(block) if line.startswith("$ ")]
            for k, nxt in zip(starts, [*starts[1:], len(block)], strict=True):
                words = shlex.split(block[k][2:], comments=True)
                output = block[k + 1:nxt]
                if len(words) == 1 and re.fullmatch(r"[A-Z]+=.*", words[0]):
                    assert not output, f"{name(page)}:{i + 2 + k}: an assignment prints nothing"
                    key, _, value = words[0].partition("=")
                    variables[key] = value
                    continue
                found.append(Shown(name(page), i + 2 + k, block[k][2:], output,
                                   dict(variables)))
            i = end + 1
    return found


SHOWN = shown_commands()


def _is_slow(shown: Shown) -> bool:
    # Rated puzzles take about a second to make; every other command shown, a fraction.
    return "--difficulty" in shlex.split(shown.command, comments=True)


def _masked(lines: list[str]) -> list[str]:
    return [TIME.sub("<time>", line.rstrip()) for line in lines]


def _matches(shown: list[str], out: list[str], err: list[str] = ()) -> bool:
    """The shown lines are the actual output: standard output and standard error, each in
    its order, interleaved as a terminal may show them (which stream is written first is
    not fixed: one is buffered), where a line ``...`` may stand for any lines left out (none,
    or several) and nothing else is left out or changed."""
    shown, out, err = _masked(shown), _masked(list(out)), _masked(list(err))

    @cache
    def match(i: int, j: int, k: int) -> bool:  # shown[i:] is out[j:] and err[k:]
        if i == len(shown):
            return j == len(out) and k == len(err)
        if shown[i].strip() == SKIP:
            return (match(i + 1, j, k) or (j < len(out) and match(i, j + 1, k))
                    or (k < len(err) and match(i, j, k + 1)))
        return ((j < len(out) and out[j] == shown[i] and match(i + 1, j + 1, k))
                or (k < len(err) and err[k] == shown[i] and match(i + 1, j, k + 1)))

    return match(0, 0, 0)


def test_the_pages_show_commands_with_their_output():
    pages_with_examples = {shown.page for shown in SHOWN}
    assert {"README.md", "docs/formats.md", "docs/setters.md"} <= pages_with_examples
    assert all(shown.output for shown in SHOWN), "a command shown without its output"


@pytest.mark.parametrize("shown", [
    pytest.param(s, id=f"{s.page}:{s.line}", marks=[pytest.mark.slow] if _is_slow(s) else [])
    for s in SHOWN])
def test_a_command_shown_gives_the_output_shown(shown, monkeypatch):
    monkeypatch.chdir(ROOT)  # the pages name files from the repository's root
    words = shlex.split(shown.command, comments=True)
    assert words[0] == "sudoku-csp", shown
    args = [shown.variables.get(word[1:], word) if word.startswith("$") else word
            for word in words[1:]]
    assert not {"-o", "--out", "--html", "--svg"} & set(args), "a shown command writes no file"
    result = CliRunner().invoke(app, args)
    assert result.exit_code not in (Exit.INTERNAL, Exit.USAGE), result.output
    assert _matches(shown.output, result.stdout.splitlines(), result.stderr.splitlines()), (
        f"{shown.page}:{shown.line}: `{shown.command}` now prints:\n" + result.output)


@pytest.mark.parametrize(("shown", "out", "err", "ok"), [
    (["a", "b <time>", "c"], ["a", "b 3.2 ms", "c"], [], True),
    (["a", "...", "d"], ["a", "b", "c", "d"], [], True),
    (["a", "...", "b"], ["a", "b"], [], True),
    (["a", "c"], ["a", "b", "c"], [], False),  # a line left out without '...'
    (["a", "b"], ["a", "b", "c"], [], False),  # the end too
    (["a", "b"], ["a", "B"], [], False),
    (["1 s"], ["2 s"], [], False),  # only milliseconds are times
    (["a", "note", "b"], ["a", "b"], ["note"], True),  # the streams interleaved
    (["note", "a", "b"], ["a", "b"], ["note"], True),
    (["b", "a", "note"], ["a", "b"], ["note"], False),  # each in its order
    (["a", "b"], ["a", "b"], ["note"], False),  # a stream's line left out
])
def test_shown_output_matches_only_as_written(shown, out, err, ok):
    assert _matches(shown, out, err) is ok


# -- links --------------------------------------------------------------------------------------
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
GENERATED = {"docs/kinds.md"}  # written by `sudoku-csp kinds` from the registry


def _anchor(title: str) -> str:
    """GitHub's id for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    anchors: set[str] = set()
    count: dict[str, int] = {}
    for _, _, title in headings(page):
        slug = _anchor(title)
        anchors.add(f"{slug}-{count[slug]}" if slug in count else slug)  # GitHub's repeats
        count[slug] = count.get(slug, 0) + 1
    return anchors


def _links(page: Path) -> list[str]:
    body = re.sub(r"^\s*```.*?^\s*```", "", text(page), flags=re.S | re.M)  # code is no link
    return [target for target in LINK.findall(body) if not re.match(r"[a-z]+:", target)]


@pytest.mark.parametrize("page", [*pages(), ROOT / "CONTRIBUTING.md"], ids=name)
def test_every_link_leads_to_a_page_and_heading_that_exist(page):
    for link in _links(page):
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        assert target.is_relative_to(ROOT), (name(page), link)
        assert target.is_file(), f"{name(page)}: {link} leads nowhere"
        if anchor:
            assert target.suffix == ".md", (name(page), link)
            assert anchor in _anchors(target), f"{name(page)}: {link}: no such heading"


def test_every_page_is_reachable_from_the_readme():
    linked = {(README.parent / link.partition("#")[0]).resolve() for link in _links(README)}
    pages_of_docs = {page.resolve() for page in pages()[1:]}
    assert pages_of_docs <= linked, sorted(name(p) for p in pages_of_docs - linked)
    assert {(ROOT / generated).resolve() for generated in GENERATED} <= linked


# -- README's first lines -----------------------------------------------------------------------
def test_readme_starts_with_the_two_set_up_commands_and_ci_runs_the_second():
    lines = text(README).splitlines()
    assert lines[2] == "```sh" and lines[5] == "```", lines[:6]
    main_job, tests = lines[3], lines[4]
    assert main_job == ("python3 -m venv .venv && .venv/bin/pip install -q . && "
                        ".venv/bin/sudoku-csp compare")
    assert tests.endswith("&& .venv/bin/python -m pytest -q"), tests
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert tests in ci.splitlines(), "CI runs the test command README gives"


# -- pointers from the code ---------------------------------------------------------------------
POINTER = re.compile(r"\b(README|docs/\w+)(?:\.md)?(?:[:,] ([A-Z][\w ,'-]*?)\))?")


def test_every_page_and_heading_the_code_points_to_exists():
    # Figures live in docs/, not in docstrings: a comment names the page (and the heading)
    # that holds the measurement behind a choice, and moving it must not leave it pointing
    # nowhere.
    pointed = 0
    for path in sorted((ROOT / "sudoku_csp").rglob("*.py")):
        code = re.sub(r"\n\s*#\s*", " ", path.read_text(encoding="utf-8"))  # wrapped comments
        for page, heading in POINTER.findall(" ".join(code.split())):
            target = ROOT / f"{page}.md"
            where = f"{path.relative_to(ROOT)}: {page}.md"
            if page.startswith("docs/"):
                assert target.is_file(), f"{where}: no such page"
                pointed += 1
            if heading:
                assert heading in {title for _, _, title in headings(target)}, (
                    f"{where} has no heading {heading!r}")
    assert pointed >= 20
