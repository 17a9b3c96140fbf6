"""Commands of human-style solving: explain, hint, rate (:mod:`sudoku_csp.logic`).

The explainer is imported when a command runs (see :mod:`sudoku_csp.cli.app`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from sudoku_csp.cli.app import app
from sudoku_csp.cli.exits import Exit, err, guarded
from sudoku_csp.cli.options import (
    ONE_PUZZLE_HELP,
    BatchOptions,
    OnePuzzleArg,
    Printing,
    Reading,
    SourceArg,
    bundled,
    check_output_path,
)
from sudoku_csp.cli.output import emit, write_output, writes_stdout
from sudoku_csp.cli.solving import stream_records
from sudoku_csp.constraints.wording import counted

if TYPE_CHECKING:
    from sudoku_csp.batch import Record
    from sudoku_csp.deadline import Limit
    from sudoku_csp.logic import Explanation

NoUniquenessOpt = Annotated[bool, typer.Option(
    "--no-uniqueness", help="Never use unique rectangles or BUG+1 (they assume one solution; "
                            "even without this flag they are used only on puzzles checked "
                            "to be unique).")]
TechniquesOpt = Annotated[str | None, typer.Option(
    "--techniques", metavar="KEY,KEY,...",
    help="Use only these techniques (see `sudoku-csp explain --list`).")]
DEFAULT_EXPLAIN_SECONDS = 300.0
"""The bound explain, hint and rate put on one puzzle unless told otherwise: forcing chains
on a large grid can run for hours, and a command should end."""
ExplainTimeOpt = Annotated[float, typer.Option(
    "--time-limit", "-t", min=0.0,
    help="Seconds per puzzle, for everything it takes (the verdict, the steps, a conflict "
         "report, --prove); past it the explanation stops where it is (tier unknown, "
         "exit 5).")]


def _techniques(text: str | None) -> list[str] | None:
    if text is None:
        return None
    return [t.strip() for t in text.split(",") if t.strip()]


def _explain_exit(e: Explanation) -> Exit:
    if e.solved:
        return Exit.OK
    if e.not_unique:
        return Exit.MULTIPLE
    return Exit.NONE if e.no_solution else Exit.UNKNOWN


def _ended(e: Explanation, time_limit: Limit, as_json: bool, *,
           rated: bool = True) -> Exit:
    """How an explanation ended: its last line (or the JSON record with the verdict and
    ``stuck``), the conflict of a puzzle with no solution, the rating (explain's); the exit
    code."""
    from sudoku_csp.cli.conflicts import conflict_after_none

    conflict = conflict_after_none(e.puzzle, time_limit) if e.no_solution else None
    if as_json:
        typer.echo(json.dumps({"solved": e.solved, "verdict": e.verdict.value,
                               "stuck": e.stuck, "uniqueness": e.uniqueness,
                               **(e.rating.as_dict() if rated else {}),
                               **(conflict.to_json() if conflict else {})},
                              ensure_ascii=False))
    else:
        typer.echo(e.lines()[-1])
        if conflict is not None:
            typer.echo(conflict.message())
        if rated:
            typer.echo(_rating_line(e))
    return _explain_exit(e)


def _value(rating: float | None) -> str:
    return "-" if rating is None else f"{rating:.1f}"


def _rating_line(e: Explanation) -> str:
    r = e.rating
    search = ", needs search beyond these techniques" if r.needs_search else ""
    hardest = f" (hardest: step {r.hardest_step}, {r.hardest})" if r.hardest else ""
    return (f"rating ER={_value(r.er)} EP={_value(r.ep)} ED={_value(r.ed)}, "
            f"{r.tier}{search}{hardest}")


def _list_techniques() -> None:
    from sudoku_csp.logic import TECHNIQUES

    for t in TECHNIQUES.values():
        extra = " (chain length adds)" if t.chained else ""
        extra += " (assumes a unique solution)" if t.uniqueness else ""
        typer.echo(f"{t.key:<24}{t.rating:>5.1f}  {t.name}{extra}")


@app.command("explain")
@bundled
def explain_command(
    source: Annotated[str | None, typer.Argument(
        metavar="PUZZLE|FILE|-", help=ONE_PUZZLE_HELP,
        show_default=False)] = None,
    *,
    reading: Reading,
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON record per step, then one with the rating.")] = False,
    html: Annotated[Path | None, typer.Option(
        "--html", metavar="FILE|-", help="Also write the steps as pictures: one "
                                         "self-contained HTML page; - writes only the page, "
                                         "to standard output.")] = None,
    prove: Annotated[bool, typer.Option(
        "--prove", help="Prove every placement and elimination with a SAT solver "
                        "(assumptions on one incremental solver).")] = False,
    no_uniqueness: NoUniquenessOpt = False,
    techniques: TechniquesOpt = None,
    time_limit: ExplainTimeOpt = DEFAULT_EXPLAIN_SECONDS,
    list_all: Annotated[bool, typer.Option(
        "--list", help="List the techniques, in the order they are tried, and exit.")] = False,
) -> None:
    """Solve a puzzle as a person would, step by step; rate it.

    The puzzle's verdict comes first: one with several solutions, or none (with the parts
    that conflict), or whose verdict the time limit left undecided, says so and gets no
    step (and is not rated). Cells are named by row letter and column (E4: row E, column
    4). Exit codes: 0 solved by the techniques, 5 they could not finish it or the verdict
    was not decided in time, 3 several solutions, 4 no solution, 6 input error.
    """

    def action() -> Exit:
        from sudoku_csp.deadline import Deadline
        from sudoku_csp.io import first_puzzle
        from sudoku_csp.logic import explain

        deadline = Deadline.from_start(time_limit)  # every stage below shares it
        if list_all:
            _list_techniques()
            return Exit.OK
        if source is None:  # a usage error, as every command's missing argument is
            raise typer.BadParameter("give a puzzle, a file or - (or --list)",
                                     param_hint="'PUZZLE|FILE|-'")
        if html is not None:
            check_output_path(html, "--html")  # now, not after the explanation
        puzzle = first_puzzle(source, reading.options(constraints=True))
        e = explain(puzzle, uniqueness=not no_uniqueness, techniques=_techniques(techniques),
                    time_limit=deadline)
        proven = True
        if prove:
            from sudoku_csp.logic.prove import prove_steps

            proof = prove_steps(e, time_limit=deadline)
            proven = proof.complete
            facts = counted(proof.facts, "placement or elimination",
                            "placements and eliminations")
            err.print(f"proved: {facts} in {counted(proof.steps, 'step')}, each following "
                      "from the puzzle (SAT)" + ("" if proven else
                                                f"; {deadline.words()} reached before the "
                                                f"rest of the {len(e.steps)} were proved"),
                      markup=False)
        if html is not None:
            from sudoku_csp.logic.html import explanation_html

            write_output(html, explanation_html(e))
            if writes_stdout(html):  # the page alone: a stream another program reads
                return _explain_exit(e)
        g = puzzle.geometry
        for i, step in enumerate(e.steps, 1):
            typer.echo(json.dumps({"step": i, **step.as_dict(g)}, ensure_ascii=False)
                       if as_json else f"{i:>3}. {step.text}")
        ended = _ended(e, deadline, as_json)
        return ended if proven else Exit.UNKNOWN

    guarded(action)


@app.command()
@bundled
def hint(
    source: OnePuzzleArg,
    *,
    reading: Reading,
    as_json: Annotated[bool, typer.Option(
        "--json", help="The step as one JSON record; without a step, a record of the verdict "
                       "and why (stuck, and the conflict of a puzzle with no solution).")
                       ] = False,
    no_uniqueness: NoUniquenessOpt = False,
    techniques: TechniquesOpt = None,
    time_limit: ExplainTimeOpt = DEFAULT_EXPLAIN_SECONDS,
) -> None:
    """The next step only: the simplest technique that works.

    The puzzle's verdict comes first: one with several solutions, or none (with the parts
    that conflict), or whose verdict the time limit left undecided, says so and gets no
    step. Exit codes: 0 a step was found (or the grid is full), 5 none applies or the
    verdict was not decided in time, 3 several solutions, 4 no solution, 6 input error.
    """

    def action() -> Exit:
        from sudoku_csp.deadline import Deadline
        from sudoku_csp.io import first_puzzle
        from sudoku_csp.logic import explain

        deadline = Deadline.from_start(time_limit)
        puzzle = first_puzzle(source, reading.options(constraints=True))
        e = explain(puzzle, uniqueness=not no_uniqueness, techniques=_techniques(techniques),
                    max_steps=1, time_limit=deadline)
        if not e.steps:  # solved already, stuck, or not one solution: the verdict says
            return _ended(e, deadline, as_json, rated=False)
        step = e.steps[0]
        if as_json:
            typer.echo(json.dumps(step.as_dict(puzzle.geometry), ensure_ascii=False))
        else:
            typer.echo(step.text)
        return Exit.OK

    guarded(action)


def _print_rating(record: Record) -> None:
    """One tab-separated line per puzzle: index, ER/EP/ED, tier (the status when unrated),
    the technique of the hardest step and its number (``-`` when none), the puzzle, then
    the message when there is one (a puzzle with no solution: its conflict), as count's
    lines end."""
    s = record.stats
    ratings = "/".join(_value(s.get(key)) for key in ("er", "ep", "ed"))
    hardest = f"{s['hardest']}@{s['hardest_step']}" if s.get("hardest") else "-"
    line = (f"{record.index}\t{ratings}\t{s.get('tier', record.status)}\t{hardest}"
            f"\t{record.puzzle}")
    if record.message:
        line += f"\t{record.message}"
    emit(line + "\n")


@app.command()
@bundled
def rate(
    source: SourceArg,
    *,
    reading: Reading,
    no_uniqueness: NoUniquenessOpt = False,
    time_limit: ExplainTimeOpt = DEFAULT_EXPLAIN_SECONDS,
    printing: Printing,
    batch: BatchOptions,
) -> None:
    """Rate puzzles on Sudoku Explainer's scale (ER/EP/ED).

    One line per puzzle: index, ER/EP/ED, tier, the hardest step (its technique @ its
    number), the puzzle; a puzzle with no solution gets its conflicting parts, at the end of
    its line (in its record with --json).

    Runs through the batch runner like count (--jobs, --out, --resume). --time-limit is
    per puzzle, the verdict and the steps together (past it: tier unknown). A puzzle with
    several solutions or none is not rated: its tier says which; one whose verdict the time
    limit left undecided has tier unknown. Exit codes: one puzzle: 0 rated, 5 the
    techniques could not finish it (or the time limit), 3 several solutions, 4 no
    solution; files: 0.
    """

    def action() -> Exit:
        from sudoku_csp.cli.conflicts import ConflictReports
        from sudoku_csp.io import resolve_source
        from sudoku_csp.logic.backend import LogicBackend

        options = reading.options(constraints=True)
        src = resolve_source([source], options, count=err.is_terminal)
        backend = LogicBackend(uniqueness="off" if no_uniqueness else "on")
        return stream_records(src, options, backend, 2, time_limit, printing.format, batch,
                              label="rating", line=_print_rating,
                              conflicts=ConflictReports(time_limit))

    guarded(action)


__all__ = ["explain_command", "hint", "rate"]
