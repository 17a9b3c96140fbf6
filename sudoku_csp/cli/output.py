"""What the commands print: grids, one line per record or verdict, the compare table, and a
progress bar. Nothing here computes a result; it only renders what the library returned.
"""

from __future__ import annotations

import csv
import json
import os
import sys
import time
from typing import Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from sudoku_csp.batch import Record, RecordFormat, Summary, csv_header, record_line
from sudoku_csp.cli.exits import err
from sudoku_csp.geometry import EMPTY
from sudoku_csp.io import format_cells, format_grid
from sudoku_csp.native import State
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Result, Status

out = Console(highlight=False, soft_wrap=True)
"""Standard output (results)."""

PROGRESS_AFTER = 300  # puzzles: smaller files finish before a bar would help
FLUSH_EVERY = 0.5  # seconds: the longest a written record line waits in the buffer


class _Lines:
    """Record lines to standard output through its buffer: ``typer.echo`` flushes every
    line, ten times the cost of a buffered write (README: Design choices, measured).
    Flushed at least every :data:`FLUSH_EVERY` seconds so that a reader of a pipe sees a
    long run progress, and at the end by :func:`~sudoku_csp.cli.exits.guarded`."""

    def __init__(self) -> None:
        self.flushed = time.monotonic()

    def __call__(self, text: str) -> None:
        stdout = sys.stdout
        stdout.write(text)
        now = time.monotonic()
        if now - self.flushed > FLUSH_EVERY:
            stdout.flush()
            self.flushed = now


emit = _Lines()
"""Write a record line (with its newline) to standard output."""


def styled_grid(puzzle: Puzzle, grid: tuple[int, ...]) -> Text:
    """The boxed grid with givens in bold and solved digits in colour."""
    plain = format_grid(puzzle.geometry, grid)
    text = Text()
    cells = iter(range(puzzle.geometry.ncells))
    for ch in plain:
        if ch in "|-+ \n":
            text.append(ch, style="dim" if ch in "|-+" else "")
            continue
        cell = next(cells)
        text.append(ch, style="bold" if puzzle.givens[cell] != EMPTY else "cyan")
    return text


def candidate_grid(state: State) -> str:
    """Each cell's candidate symbols (``-`` for none), aligned, with box borders."""
    symbols = state.geometry.symbols
    return format_cells(state.geometry, ["".join(symbols[d] for d in state.candidates(c)) or "-"
                                         for c in range(state.geometry.ncells)])


def print_single(puzzle: Puzzle, result: Result, *, counted_all: bool = False) -> None:
    """One puzzle's result: its grid, then status, time and solver on one line.
    ``counted_all``: every solution was asked for, so a complete count is exact."""
    if result.solution is not None:
        out.print(styled_grid(puzzle, result.solution))
        if result.status is Status.MULTIPLE:
            exact = counted_all and result.complete
            out.print(f"(one of {result.count}{'' if exact else '+'} solutions)")
    summary = f"{result.status.value} · {1000 * result.seconds:.2f} ms · {result.solver}"
    if result.message:
        summary += f" · {result.message}"
    out.print(summary)


def print_record(record: Record) -> None:
    """One tab-separated line per puzzle of a file: index, status, solution, time."""
    line = (f"{record.index}\t{record.status.value}\t{record.solution or record.puzzle}\t"
            f"{1000 * record.seconds:.2f} ms")
    if record.message:
        line += f"\t{record.message}"
    emit(line + "\n")  # plain: rich would expand the tabs


def print_records_header(fmt: RecordFormat) -> None:
    """What comes before the first record: the CSV header line (JSON Lines have none)."""
    if fmt == "csv":
        typer.echo(csv_header(), nl=False)


def print_record_as(record: Record, fmt: RecordFormat) -> None:
    """One record as a JSON line or a CSV row, exactly as ``--out`` writes it to a file."""
    emit(record_line(record, fmt))


def print_verdict(verdict: dict[str, Any]) -> None:
    """One tab-separated line per cross-checked puzzle (``sudoku-csp check``)."""
    each = " ".join(f"{spec}={v['status']}({1000 * v['seconds']:.1f}ms)"
                    for spec, v in verdict["specs"].items())
    line = (f"{verdict['index']}\t{verdict['status']}\t"
            f"{'agreed' if verdict['agreed'] else 'DISAGREEMENT'}\t{each}")
    if not verdict["agreed"]:
        line += "\t" + "; ".join(verdict.get("reasons", ()))
    emit(line + "\n")


class _RateColumn(ProgressColumn):
    """Items per second, as rich measures it over the last moments of the run."""

    def render(self, task: Task) -> Text:
        return Text(f"{task.speed:,.0f}/s" if task.speed else "-/s", style="progress.data.speed")


class Bar:
    """A progress bar on stderr for long inputs, refreshed by hand: an auto-refreshing bar
    runs a thread, and worker processes are only forked from a single-threaded process.

    Results never go through it: standard output is left alone unless it is the same kind
    of thing as the bar's screen (a terminal), where rich prints the lines above the bar
    instead of through it. A pipe or a file gets every line (rich's default would send
    them to stderr, the screen)."""

    def __init__(self, total: int | None, what: str, always: bool = False) -> None:
        self.bar: Progress | None = None
        if total is not None and (always or total > PROGRESS_AFTER) and err.is_terminal:
            on_screen = sys.stdout.isatty()
            self.bar = Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(),
                                _RateColumn(),
                                TimeElapsedColumn(), TimeRemainingColumn(), console=err,
                                transient=True, auto_refresh=False,
                                redirect_stdout=on_screen, redirect_stderr=False)
            self.task = self.bar.add_task(what, total=total)
            self.shown = 0.0

    def __enter__(self) -> Bar:
        if self.bar:
            self.bar.start()
        return self

    def advance(self, steps: float = 1) -> None:
        if self.bar:
            self.bar.advance(self.task, steps)
            now = time.monotonic()
            if now - self.shown > 0.1:
                self.bar.refresh()
                self.shown = now

    def __exit__(self, *exc: object) -> None:
        if self.bar:
            self.bar.stop()


COMPARE_COLUMNS = (
    ("spec", "solver", None), ("puzzles", "puzzles", None), ("solved", "solved", None),
    ("unique", "unique", None), ("multiple", "multi", None), ("none", "none", None),
    ("unknown", "unknown", None), ("puzzles_per_s", "puz/s", 0),
    ("mean_ms", "mean ms", 2), ("median_ms", "median", 2), ("p95_ms", "p95", 2),
    ("max_ms", "max", 1), ("mean_nodes", "nodes", 1),
    ("mean_conflicts", "confl.", 1), ("propagation_pct", "prop.%", 0),
    ("agreed", "agreed", None),
)
"""The compare table: (SpecSummary field, heading, decimals or None for as-is)."""


Column = tuple[str, str, int | None]
"""A table column: (the row's field, its heading, decimals, or None to show it as it is)."""


def print_table(rows: list[dict[str, Any]], columns: tuple[Column, ...], *, title: str,
                caption: str, as_json: bool, as_csv: bool, left: tuple[str, ...] = (),
                wrap: tuple[str, ...] = (), width: int = 200) -> None:
    """Rows as a rich table (``columns``; fields in ``left`` left-aligned, the others right;
    only fields in ``wrap`` may wrap; ``-`` for a missing value), as JSON Lines (``as_json``,
    every field of each row) or as CSV (``as_csv``, the same fields with a header)."""
    if as_json:
        for row in rows:
            typer.echo(json.dumps(row))
        return
    if as_csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]) if rows
                                else [columns[0][0]])
        writer.writeheader()
        writer.writerows(rows)
        return
    table = Table(title=title)
    for key, heading, _ in columns:
        table.add_column(heading, justify="left" if key in left else "right",
                         no_wrap=key not in wrap)
    for row in rows:
        table.add_row(*("-" if row[key] is None else str(row[key]) if digits is None
                        else f"{row[key]:,.{digits}f}" for key, _, digits in columns))
    table.caption = caption
    # A pipe or a file gets the whole table, not one squeezed to 80 columns.
    wide = out if out.is_terminal else Console(highlight=False, width=width)
    wide.print(table)


def print_summary(summary: Summary, sources: list[str], as_json: bool, as_csv: bool) -> None:
    """The compare table: a rich table, JSON Lines (one per spec), or CSV."""
    verdict = ("all solvers agreed on every verdict" if summary.all_agreed
               else f"{len(summary.disagreements)} puzzles with DISAGREEMENTS")
    print_table([row.as_dict() for row in summary.rows], COMPARE_COLUMNS,
                title=f"{', '.join(map(os.path.basename, sources))}: {verdict}",
                caption="nodes: native search nodes, or sat/cpsat decisions; confl.: native "
                        "backtracks, or conflicts; prop.%: solved by propagation alone",
                as_json=as_json, as_csv=as_csv, left=("spec",))
