"""The compare and study tables on terminals of 80, 100 and 120 columns: the columns that fit
are shown whole, the caption names the others, ``--columns`` chooses them, and ``--json`` and
``--csv`` keep every field. Run through a real pseudo-terminal (Linux ``pty``), where rich
measures the screen as a person's shell would."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cases import slow_if
from rich.console import Console
from test_terminal import MIXED9, on_terminal
from typer.testing import CliRunner

from sudoku_csp.cli import app
from sudoku_csp.cli import output as cli_output
from sudoku_csp.cli.exits import Exit
from sudoku_csp.cli.output import COMPARE_COLUMNS, COMPARE_NOTES, Column, print_table
from sudoku_csp.cli.research import _STUDY_COLUMNS

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux pty")

runner = CliRunner()
WIDTHS = (80, 100, 120)
SPECS = ["-s", "native", "-s", "native:rules=singles,branch=mrv", "-s", "native:search=off"]
STUDY = ["-l", "3", "-e", "minimal", "-e", "tdoku", "--rules", "singles", "--rules", "full"]
TIMED = {"probe_ms", "puzzles_per_s"}  # study fields that differ from run to run
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
TEXT_HEADINGS = {"solver", "method", "UP solves what … does"}  # cells that may wrap


def on_screen(args: list[str], *, columns: int, cwd: Path) -> tuple[int, str, str]:
    """(exit code, what the terminal showed, stderr) of ``sudoku-csp ARGS`` whose standard
    output is a ``columns``-wide terminal and whose stderr is a pipe (no progress bar)."""
    code, err, screen = on_terminal(args, columns=columns, cwd=cwd, terminal="stdout")
    return code, ANSI.sub("", screen).replace("\r\n", "\n"), err


def parse(screen: str) -> tuple[list[str], list[list[str]], str]:
    """(headings, rows of cells, caption) of a rendered table. A heading or a text cell over
    several lines is joined with spaces; a row's continuation line has no number in it."""
    lines = screen.splitlines()
    head = [[part.strip() for part in line.split("┃")[1:-1]]
            for line in lines if line.startswith("┃")]
    headings = [" ".join(filter(None, column)) for column in zip(*head, strict=True)]
    rows: list[list[list[str]]] = []
    numbers = [i for i, h in enumerate(headings) if h not in TEXT_HEADINGS]
    for line in lines:
        if not line.startswith("│"):
            continue
        cells = [part.strip() for part in line.split("│")[1:-1]]
        if rows and not any(cells[i] for i in numbers):
            for parts, cell in zip(rows[-1], cells, strict=True):
                parts.append(cell)
        else:
            rows.append([[cell] for cell in cells])
    end = next(i for i, line in enumerate(lines) if line.startswith("└"))
    caption = " ".join(line.strip() for line in lines[end + 1:] if line.strip())
    return headings, [[" ".join(filter(None, parts)) for parts in row] for row in rows], caption


def formatted(value: Any, digits: int | None) -> str:
    if isinstance(value, bool):  # a flag in words, never Python's True
        return "yes" if value else "no"
    return "-" if value is None else str(value) if digits is None else f"{value:,.{digits}f}"


def check_table(screen: str, width: int, columns: tuple[Column, ...], rows: list[dict],
                text: tuple[str, ...], fuzzy: frozenset[str] = frozenset()) -> list[str]:
    """Assert that ``screen`` shows a table that fits ``width``, its columns in the order of
    ``columns``, every cell whole and equal to the JSON value formatted (``fuzzy`` fields:
    only the same format), and a caption naming the hidden columns. The shown fields."""
    assert max(map(len, screen.splitlines())) <= width, screen
    headings, cells, caption = parse(screen)
    by_heading = {column[1]: column for column in columns}
    shown = [by_heading[h] for h in headings]
    assert shown == [column for column in columns if column in shown], headings
    assert {c[0] for c in columns if c[3] == 0} <= {c[0] for c in shown}  # the essentials
    assert len(cells) == len(rows)
    for row, line in zip(rows, cells, strict=True):
        for (key, _, digits, _), cell in zip(shown, line, strict=True):
            assert "…" not in cell, screen
            expected = formatted(row[key], digits)
            if key in text:
                assert cell.replace(" ", "") == expected.replace(" ", ""), (key, screen)
            elif key in fuzzy and row[key] is not None:
                decimals = rf"\.\d{{{digits}}}" if digits else ""
                assert re.fullmatch(rf"[\d,]+{decimals}", cell), (key, cell)
            else:
                assert cell == expected, (key, screen)
    hidden = [key for key, *_ in columns if key not in {c[0] for c in shown}]
    if hidden:
        assert (f"{len(hidden)} column{'s' if len(hidden) > 1 else ''} hidden to fit {width} "
                f"columns: {', '.join(hidden)} (--columns chooses, --json shows all)"
                ) in caption, caption
    else:
        assert "hidden" not in caption
    return [key for key, *_ in shown]


@pytest.fixture(scope="module")
def compared(tmp_path_factory) -> tuple[Path, list[dict]]:
    """A folder with five puzzles and the records of one compare run on them, and its rows:
    the tables come from those records (``--resume``), so their numbers match the JSON."""
    folder = tmp_path_factory.mktemp("tables")
    (folder / "five.txt").write_text("\n".join(MIXED9[:5]) + "\n")
    result = subprocess.run([sys.executable, "-m", "sudoku_csp", "compare", "five.txt", *SPECS,
                             "--out", "r.jsonl", "--json"], cwd=folder, capture_output=True,
                            text=True, check=True)
    return folder, [json.loads(line) for line in result.stdout.splitlines()]


COMPARE = ["compare", "five.txt", *SPECS, "--out", "r.jsonl", "--resume"]


@pytest.mark.parametrize("width", slow_if(WIDTHS, lambda width: width == 100))
def test_compare_fits_the_terminal(compared, width):
    folder, rows = compared
    code, screen, err = on_screen(COMPARE, columns=width, cwd=folder)
    assert code == Exit.OK, err
    shown = check_table(screen, width, COMPARE_COLUMNS, rows, ("spec",))
    assert len(shown) < len(COMPARE_COLUMNS)  # not all fit even at 120
    assert ("nodes: native search nodes" in parse(screen)[2]) == ("mean_nodes" in shown)


@pytest.fixture(scope="module")
def studied(compared) -> list[dict]:
    """The rows of ``study --json`` on three of the five puzzles."""
    folder, _ = compared
    result = subprocess.run([sys.executable, "-m", "sudoku_csp", "study", "five.txt", *STUDY,
                             "--json"], cwd=folder, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.parametrize("width", slow_if(WIDTHS, lambda width: width != 80))
def test_study_fits_the_terminal(compared, studied, width):
    folder, _ = compared
    code, screen, err = on_screen(["study", "five.txt", *STUDY], columns=width, cwd=folder)
    assert code == Exit.OK, err
    shown = check_table(screen, width, _STUDY_COLUMNS, studied,
                        ("method", "solver", "same_as"), fuzzy=frozenset(TIMED))
    assert {"variables", "propagation_pct", "decisions_mean"} <= set(shown)


@pytest.mark.parametrize("width", WIDTHS)
def test_study_cells_equal_the_json(monkeypatch, width):
    """Every shown study cell, the timed ones too: one study, printed both ways."""
    from sudoku_csp import study as studies

    found: list[Any] = []
    real = studies.run_study

    def once(*args: Any, **kwargs: Any) -> Any:
        if not found:
            found.append(real(*args, **kwargs))
        return found[0]

    monkeypatch.setattr(studies, "run_study", once)
    path = str(Path(cli_output.__file__).parents[1] / "data" / "mixed9.txt")
    result = runner.invoke(app, ["study", path, *STUDY, "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    screen = io.StringIO()
    monkeypatch.setattr(cli_output, "out", Console(width=width, file=screen,
                                                   force_terminal=True, highlight=False))
    assert runner.invoke(app, ["study", path, *STUDY]).exit_code == 0
    check_table(ANSI.sub("", screen.getvalue()), width, _STUDY_COLUMNS, rows,
                ("method", "solver", "same_as"))


def test_columns_chooses_and_orders(compared):
    folder, rows = compared
    code, screen, _ = on_screen([*COMPARE, "--columns", "agreed, spec,mean_ms,spec"],
                                columns=80, cwd=folder)
    assert code == Exit.OK
    headings, cells, caption = parse(screen)
    assert headings == ["agreed", "solver", "mean ms"] and "hidden" not in caption
    assert cells[1] == ["yes", rows[1]["spec"], f"{rows[1]['mean_ms']:,.2f}"]


def test_columns_wider_than_the_terminal_are_all_whole(compared):
    folder, rows = compared
    every = ",".join(key for key, *_ in COMPARE_COLUMNS)
    code, screen, _ = on_screen([*COMPARE, "--columns", every], columns=80, cwd=folder)
    assert code == Exit.OK
    headings, cells, caption = parse(screen)
    assert headings == [heading for _, heading, *_ in COMPARE_COLUMNS]
    assert cells[0] == [formatted(rows[0][key], digits) for key, _, digits, _ in COMPARE_COLUMNS]
    assert "hidden" not in caption


@pytest.mark.parametrize("command", [["compare", "-s", "native"], ["study"]])
def test_unknown_column_is_an_input_error_before_the_run(tmp_path, command):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(MIXED9[0] + "\n")
    extra = ["--out", str(tmp_path / "r.jsonl")] if command[0] == "compare" else []
    result = runner.invoke(app, [command[0], str(puzzles), *command[1:], *extra,
                                 "--columns", "spec,nodes"])
    assert result.exit_code == Exit.INPUT, result.output
    (line,) = result.stderr.strip().splitlines()
    columns = COMPARE_COLUMNS if command[0] == "compare" else _STUDY_COLUMNS
    assert line.startswith("error: --columns: unknown column '")
    assert line.endswith("choose from " + ", ".join(key for key, *_ in columns))
    assert not (tmp_path / "r.jsonl").exists()  # nothing ran
    result = runner.invoke(app, [command[0], str(puzzles), *command[1:], "--columns", " , "])
    assert result.exit_code == Exit.INPUT and "name at least one column" in result.stderr


def test_json_csv_and_a_pipe_keep_every_column(compared):
    folder, rows = compared
    base = ["compare", str(folder / "five.txt"), *SPECS, "--out", str(folder / "r.jsonl"),
            "--resume"]
    result = runner.invoke(app, [*base, "--columns", "spec", "--json"])
    assert [json.loads(line) for line in result.stdout.splitlines()] == rows
    result = runner.invoke(app, [*base, "--columns", "spec", "--csv"])
    assert [list(row) for row in csv.DictReader(io.StringIO(result.stdout))] == [
        list(row) for row in rows]
    headings, _, caption = parse(runner.invoke(app, base).stdout)  # a pipe: the whole table
    assert headings == [heading for _, heading, *_ in COMPARE_COLUMNS]
    assert "hidden" not in caption and "nodes: native search nodes" in caption


@pytest.mark.parametrize("width", [30, 50, 64])
def test_a_narrow_terminal_drops_columns_not_digits(monkeypatch, width):
    row = {key: 1234567.891 if digits else 12345678 for key, _, digits, _ in COMPARE_COLUMNS}
    rows = [{**row, "spec": "sat:solver=cadical195,encoding=extended", "agreed": False}]
    screen = io.StringIO()
    monkeypatch.setattr(cli_output, "out", Console(width=width, file=screen,
                                                   force_terminal=True, highlight=False))
    print_table(rows, COMPARE_COLUMNS, title="t", notes=COMPARE_NOTES, as_json=False,
                as_csv=False, left=("spec",))
    text = ANSI.sub("", screen.getvalue())
    assert max(map(len, text.splitlines())) <= width, text
    headings, cells, _ = parse(text)
    assert headings[0] == "solver" and 1 < len(headings) < len(COMPARE_COLUMNS)
    assert all("…" not in cell for cell in cells[0])
    assert all(cell in ("12345678", "1,234,568", "1,234,567.9", "1,234,567.89", "no")
               for cell in cells[0][1:]), cells
