"""What the commands print: grids, one line per record or verdict, the compare table, and a
progress bar. Nothing here computes a result; it only renders what the library returned.

What only some output needs (the batch records, rich's tables and progress bars) is imported
where it is used, so that a command starts without it (see :mod:`sudoku_csp.cli.app`).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from sudoku_csp.cli.console import LazyConsole, Styled
from sudoku_csp.cli.exits import err
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import EMPTY
from sudoku_csp.result import Result, Status

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.progress import Progress, ProgressColumn

    from sudoku_csp.batch import Record, RecordFormat, Summary
    from sudoku_csp.geometry import Geometry
    from sudoku_csp.native import State
    from sudoku_csp.puzzle import Puzzle

out = LazyConsole()
"""Standard output (results). Text is never read for emoji codes (``:name:``): a title or
message says what it says, and rich's table of codes is not loaded; rich itself is loaded
when something needs it (:mod:`sudoku_csp.cli.console`)."""

PROGRESS_AFTER = 300  # puzzles: smaller files finish before a bar would help
FLUSH_EVERY = 0.5  # seconds: the longest a written record line waits in the buffer


class _Lines:
    """Record lines to standard output through its buffer: ``typer.echo`` flushes every
    line, ten times the cost of a buffered write (docs/design.md: Design choices, measured).
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

STDOUT = "-"
"""The file name that means standard output, for every option that writes a file."""


def writes_stdout(path: str | os.PathLike | None) -> bool:
    """Whether an option's FILE is :data:`STDOUT` (``-``)."""
    return path is not None and os.fspath(path) == STDOUT


def write_output(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to the file ``path`` (UTF-8), or to standard output when it is ``-``:
    what every option that writes a file does with it (``show --svg``, ``explain --html``,
    ``encode -o``, ...; the records of ``--out`` have their own formats)."""
    if writes_stdout(path):
        emit(text)
    else:
        Path(path).write_text(text, encoding="utf-8")


def styled_grid(puzzle: Puzzle, grid: tuple[int, ...]) -> Styled:
    """The boxed grid with givens in bold and solved digits in colour."""
    from sudoku_csp.io import format_grid

    plain = format_grid(puzzle.geometry, grid)
    text = Styled()
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
    return mask_grid(state.geometry, state.cand)


def mask_grid(geometry: Geometry, masks: Sequence[int]) -> str:
    """A grid of each cell's digits in ``masks`` (bit ``d``: digit ``d``; ``-`` for none),
    aligned, with box borders: candidates after propagation, or true candidates."""
    from sudoku_csp.io import format_cells

    symbols = geometry.symbols
    return format_cells(geometry, ["".join(symbols[d] for d in range(geometry.size)
                                           if masks[c] >> d & 1) or "-"
                                   for c in range(geometry.ncells)])


def print_single(puzzle: Puzzle, result: Result, *, counted_all: bool = False) -> None:
    """One puzzle's result: its grid, then status, time and solver on one line.
    ``counted_all``: every solution was asked for, so a complete count is exact."""
    if result.solution is not None:
        out.print(styled_grid(puzzle, result.solution))
        if result.status is Status.MULTIPLE:
            exact = counted_all and result.complete
            out.print(f"(one of {result.count}{'' if exact else '+'} solutions)")
            if len(result.solutions) > 1:
                from sudoku_csp.constraints.fields import rc

                first, second = result.solutions[:2]
                differ = [rc(puzzle.geometry, c) for c, (a, b)
                          in enumerate(zip(first, second, strict=True)) if a != b]
                out.print(f"the first two differ in {len(differ)} cells: {', '.join(differ)} "
                          "(sudoku-csp disambiguate: givens that make it unique)", markup=False)
    winner = result.stats.get("winner")  # a portfolio's member that decided, named first
    solver = f"{winner} ({result.solver})" if winner else result.solver
    summary = f"{result.status.value} · {1000 * result.seconds:.2f} ms · {solver}"
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
        from sudoku_csp.batch.records import csv_header

        typer.echo(csv_header(), nl=False)


def print_record_as(record: Record, fmt: RecordFormat) -> None:
    """One record as a JSON line or a CSV row, exactly as ``--out`` writes it to a file."""
    from sudoku_csp.batch.records import record_line

    emit(record_line(record, fmt))


def print_verdict(verdict: dict[str, Any], said: str = "") -> None:
    """One tab-separated line per cross-checked puzzle (``sudoku-csp check``): index,
    verdict, how far it goes (agreed, DISAGREEMENT, decided by one backend), each spec's
    answer; the reasons of a disagreement, or ``said`` (a conflict report), end it."""
    from sudoku_csp.crosscheck import Verdict, agreement

    each = " ".join(f"{spec}={v['status']}({1000 * v['seconds']:.1f}ms)"
                    for spec, v in verdict["specs"].items())
    status = Verdict(verdict["status"])
    line = (f"{verdict['index']}\t{status}\t"
            f"{agreement(status, verdict['decided'])}\t{each}")
    if verdict.get("reasons"):
        line += "\t" + "; ".join(verdict["reasons"])
    if said:
        line += "\t" + said
    emit(line + "\n")


def _rate_column() -> ProgressColumn:
    """A column of items per second, as rich measures it over the last moments of the run."""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class _RateColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            return Text(f"{task.speed:,.0f}/s" if task.speed else "-/s",
                        style="progress.data.speed")

    return _RateColumn()


class Bar:
    """A progress bar on stderr for long inputs, refreshed by hand: an auto-refreshing bar
    runs a thread, and worker processes are only forked from a single-threaded process.

    Results never go through it: standard output is left alone unless it is the same kind
    of thing as the bar's screen (a terminal), where rich prints the lines above the bar
    instead of through it. A pipe or a file gets every line (rich's default would send
    them to stderr, the screen)."""

    def __init__(self, total: int | None, what: str, always: bool = False,
                 done: int = 0) -> None:
        """A bar of ``total`` steps (None: no bar) that starts at ``done`` (the puzzles a
        resumed run found done); shown on a terminal, for more than
        :data:`PROGRESS_AFTER` steps unless ``always``."""
        self.bar: Progress | None = None
        if total is not None and (always or total > PROGRESS_AFTER) and err.is_terminal:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            on_screen = sys.stdout.isatty()
            self.bar = Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(),
                                _rate_column(),
                                TimeElapsedColumn(), TimeRemainingColumn(), console=err.console,
                                transient=True, auto_refresh=False,
                                redirect_stdout=on_screen, redirect_stderr=False)
            self.task = self.bar.add_task(what, total=total, completed=done)
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


Column = tuple[str, str, int | None, int]
"""A table column: (the row's field, its heading, decimals or None to show the value as it
is, rank). Rank 0 is kept first when the terminal is too narrow for every column."""

COMPARE_COLUMNS: tuple[Column, ...] = (
    ("spec", "solver", None, 0), ("puzzles", "puzzles", None, 1),
    ("solved", "solved", None, 1), ("unique", "unique", None, 0),
    ("multiple", "multi", None, 3), ("none", "none", None, 3),
    ("unknown", "unknown", None, 3), ("puzzles_per_s", "puz/s", 0, 2),
    ("mean_ms", "mean ms", 2, 0), ("median_ms", "median", 2, 1), ("p95_ms", "p95", 2, 1),
    ("max_ms", "max", 1, 2), ("mean_nodes", "nodes", 1, 4),
    ("mean_conflicts", "confl.", 1, 4), ("propagation_pct", "prop.%", 0, 4),
    ("agreed", "agreed", None, 0),
)
"""The compare table: what a solver got right and how fast first, search effort last."""

COMPARE_NOTES = (
    (("mean_nodes",), "nodes: native search nodes, or sat/cpsat decisions"),
    (("mean_conflicts",), "confl.: native backtracks, or conflicts"),
    (("propagation_pct",), "prop.%: solved by propagation alone"),
)
"""The compare table's caption, a part per column it explains (shown with that column)."""

Note = tuple[tuple[str, ...], str]
"""A part of a table's caption: (the fields it explains, its text)."""

TEXT_FOLD = 12  # characters: a text column narrower than its longest word folds the word
FOLD_FOR = 1  # rank: columns this telling may fold a text column to fit the terminal


def columns_option(columns: tuple[Column, ...]) -> Any:
    """The ``--columns`` option of a command printing a table of ``columns`` (its help lists
    their names); :func:`pick_columns` reads its value."""
    return typer.Option(
        "--columns", metavar="NAME,...",
        help="The table's columns, in this order, even if wider than the terminal (default: "
             "the most telling that fit it): "
             f"{', '.join(key for key, *_ in columns)}. --json and --csv keep every field.")


def pick_columns(columns: tuple[Column, ...], names: str | None) -> tuple[Column, ...] | None:
    """The columns ``--columns`` names (comma-separated fields, in that order), or None when
    it was not given. Checked before a command runs, so a typo costs no run."""
    if names is None:
        return None
    by_field = {column[0]: column for column in columns}
    asked = [name.strip() for name in names.split(",") if name.strip()]
    unknown = [name for name in asked if name not in by_field]
    if unknown or not asked:
        what = f"unknown column '{unknown[0]}'" if unknown else "name at least one column"
        raise InputError(f"--columns: {what}; choose from {', '.join(by_field)}")
    return tuple(by_field[name] for name in dict.fromkeys(asked))


def _cell(value: Any, digits: int | None) -> str:
    """A table cell: ``-`` for a missing value, a flag in words (JSON and CSV keep it)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "-" if value is None else str(value) if digits is None else f"{value:,.{digits}f}"


def _span(heading: str, cells: list[str], text: bool) -> tuple[int, int]:
    """(narrowest, natural) width of a column. A heading wraps between its words and a text
    cell too (a word longer than :data:`TEXT_FOLD` folds); a number never wraps."""
    natural = max([len(heading), *map(len, cells)])
    word = max(map(len, heading.split()), default=1)
    if text:
        longest = max((len(w) for cell in cells for w in cell.split()), default=0)
        return min(natural, max(word, min(longest, TEXT_FOLD))), natural
    return max([word, *map(len, cells)]), natural


def _layout(columns: tuple[Column, ...], cells: list[list[str]], text: list[bool],
            width: int, fit: bool) -> dict[int, int]:
    """Which columns to show and how wide: {index: width}. With ``fit``, the best-ranked
    columns that fit ``width`` (the first-ranked one always): those of rank
    :data:`FOLD_FOR` or better at their narrowest, the others only where the text columns
    keep their natural width, since a folded name costs more than a minor column is worth.
    The room left widens text columns first, then headings."""
    spans = [_span(column[1], col, t)
             for column, col, t in zip(columns, cells, text, strict=True)]
    shown: list[int] = []
    for i in sorted(range(len(columns)), key=lambda i: columns[i][3]):
        squeeze = columns[i][3] <= FOLD_FOR
        need = sum(spans[j][0 if squeeze or not text[j] else 1] + 3 for j in [*shown, i]) + 1
        if not fit or not shown or need <= width:
            shown.append(i)
    widths = {i: spans[i][0] for i in shown}
    room = width - sum(widths.values()) - 3 * len(widths) - 1
    for i in sorted(shown, key=lambda i: (not text[i], columns[i][3], i)):
        more = max(0, min(room, spans[i][1] - widths[i]))
        widths[i] += more
        room -= more
    return dict(sorted(widths.items()))


def print_table(rows: list[dict[str, Any]], columns: tuple[Column, ...], *, title: str,
                notes: tuple[Note, ...], as_json: bool, as_csv: bool,
                left: tuple[str, ...] = (), chosen: tuple[Column, ...] | None = None,
                width: int = 200) -> None:
    """Rows as a rich table, as JSON Lines (``as_json``, every field of each row) or as CSV
    (``as_csv``, the same fields with a header).

    The table shows ``chosen`` (``--columns``) if given, else ``columns``: on a terminal
    those of the best rank that fit its width, and the caption names the others; a pipe or a
    file gets all of them, at least ``width`` wide. Numbers are never cut or wrapped:
    headings wrap between words, and text columns (fields in ``left``) wrap or fold. The
    caption joins the ``notes`` of the columns shown; ``-`` stands for a missing value."""
    if as_json:
        for row in rows:
            typer.echo(json.dumps(row))
        return
    if as_csv:
        import csv

        writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]) if rows
                                else [columns[0][0]])
        writer.writeheader()
        writer.writerows(rows)
        return
    from rich.console import Console
    from rich.table import Table

    candidates = columns if chosen is None else chosen
    cells = [[_cell(row[key], digits) for row in rows] for key, _, digits, _ in candidates]
    text = [key in left for key, *_ in candidates]
    fit = chosen is None and out.is_terminal
    screen = out.width if out.is_terminal else width
    shown = _layout(candidates, cells, text, screen, fit)
    table = Table(title=title)
    for i, w in shown.items():
        table.add_column(candidates[i][1], justify="left" if text[i] else "right", width=w,
                         overflow="fold" if text[i] else "ellipsis")
    for r in range(len(rows)):
        table.add_row(*(cells[i][r] for i in shown))
    fields = {candidates[i][0] for i in shown}
    lines = ["; ".join(words for keys, words in notes if fields.intersection(keys))]
    hidden = [key for i, (key, *_) in enumerate(candidates) if i not in shown]
    if hidden:
        lines.append(f"{len(hidden)} column{'s' if len(hidden) > 1 else ''} hidden to fit "
                     f"{screen} columns: {', '.join(hidden)} (--columns chooses, --json "
                     "shows all)")
    table.caption = "\n".join(line for line in lines if line) or None
    needed = sum(shown.values()) + 3 * len(shown) + 1
    if out.is_terminal and needed <= screen:
        out.print(table, soft_wrap=False)
    else:  # the whole table: wider than the screen, or a pipe, not squeezed to 80 columns
        Console(highlight=False, emoji=False, width=max(screen, needed), file=out.file,
                force_terminal=out.is_terminal).print(table, soft_wrap=False)


def print_summary(summary: Summary, sources: list[str], as_json: bool, as_csv: bool,
                  chosen: tuple[Column, ...] | None = None) -> None:
    """The compare table (``chosen``: the columns ``--columns`` named, in its order): a rich
    table, JSON Lines (one per spec), or CSV."""
    from sudoku_csp.constraints.wording import counted

    short = []
    if summary.disagreements:
        short.append(f"{counted(len(summary.disagreements), 'puzzle')} with DISAGREEMENTS")
    if summary.unchecked:
        short.append(f"{counted(len(summary.unchecked), 'puzzle')} decided by fewer than two "
                     "solvers (not cross-checked)")
    verdict = "; ".join(short) or "all solvers agreed on every verdict"
    print_table([row.as_dict() for row in summary.rows], COMPARE_COLUMNS,
                title=f"{', '.join(map(os.path.basename, sources))}: {verdict}",
                notes=COMPARE_NOTES, as_json=as_json, as_csv=as_csv, left=("spec",),
                chosen=chosen)
