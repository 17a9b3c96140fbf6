"""Commands for setters: candidates and disambiguate (the conflict report that they and
count, check, explain and show give a puzzle with no solution is
:mod:`sudoku_csp.cli.conflicts`'s).

This module is imported only for its own commands (see :mod:`sudoku_csp.cli.app`), so it
may load the setter tools, and their default, at once."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from sudoku_csp.cli.app import app
from sudoku_csp.cli.conflicts import conflict_fields, print_conflict
from sudoku_csp.cli.exits import Exit, guarded
from sudoku_csp.cli.options import (
    JsonOpt,
    OnePuzzleArg,
    Reading,
    bundled,
    check_output_path,
)
from sudoku_csp.cli.output import emit, mask_grid, out, write_output, writes_stdout
from sudoku_csp.constraints.fields import rc
from sudoku_csp.constraints.wording import counted
from sudoku_csp.setter.candidates import DEFAULT_CAP

if TYPE_CHECKING:
    from sudoku_csp.deadline import Deadline
    from sudoku_csp.puzzle import Puzzle
    from sudoku_csp.setter import Disambiguation, TrueCandidates

STYLES = {"one": "green", "few": "yellow", "many": "red", "undecided": "dim"}
"""How the terminal shows a candidate of each tier (:meth:`TrueCandidates.tier`), in the
colours of the picture (:data:`~sudoku_csp.setter.candidates.TINTS`)."""

CapOpt = Annotated[int, typer.Option(
    "--cap", min=1, help="Count the solutions holding each candidate up to this many.")]
DEFAULT_SETTER_SECONDS = 300.0
"""The bound candidates and disambiguate put on a run unless told otherwise: a large or
hard puzzle asks for many solver calls, and a command should end."""
SetterTimeOpt = Annotated[float, typer.Option(
    "--time-limit", "-t", min=0.0,
    help="Seconds in all, a conflict report included; past it the answer says what it "
         "left undecided (exit 5).")]


# -- candidates ---------------------------------------------------------------------------------
def coloured_grid(tc: TrueCandidates) -> Text:
    """The true candidates as a grid of text, each digit coloured by how many solutions
    hold it (:data:`STYLES`), givens in bold; digits the time limit left undecided
    are shown too, dim."""
    g = tc.puzzle.geometry
    symbols = g.symbols
    text, cell = Text(), 0
    for row in mask_grid(g, tc.masks(undecided=True)).split("\n"):
        if set(row) <= set("-+ "):  # a border between boxes
            text.append(row + "\n", style="dim")
            continue
        for token in row.split(" "):
            if token in ("", "|"):
                text.append(token + " ", style="dim")
                continue
            for ch in token:
                if tc.puzzle.givens[cell] != -1:
                    text.append(ch, style="bold")
                elif ch in symbols:
                    tier = tc.tier(cell, symbols.index(ch))
                    text.append(ch, style="" if tier is None else STYLES[tier])
                else:
                    text.append(ch)
            text.append(" ")
            cell += 1
        text.rstrip()
        text.append("\n")
    text.rstrip()
    return text


def _summary(tc: TrueCandidates) -> str:
    g = tc.puzzle.geometry
    shown = sum(len(tc.candidates(c)) for c in range(g.ncells))
    words = {"unique": "unique", "multiple": "several solutions", "none": "no solution",
             "unknown": "undecided (time limit)"}[tc.status]
    seen = "true candidates" if tc.complete else "candidates seen in a solution so far"
    line = (f"{words}: {counted(len(tc.open_cells()), 'cell')} open, {shown} {seen} "
            f"({counted(len(tc.solutions), 'solution')} met, "
            f"{counted(tc.calls, 'solver call')}, {1000 * tc.seconds:.0f} ms)")
    if tc.differences():
        line += f"; the first two solutions differ in {len(tc.differences())} cells"
    undecided = sum(bin(m).count("1") for m in tc.unknown)
    if not tc.complete:
        line += (f"; the time limit left {counted(undecided, 'candidate')} undecided (shown, "
                 "dim) and some counts unsettled (--json lists both)")
    return line


def _legend(tc: TrueCandidates) -> str:
    if tc.cap == 1:
        return "counts not taken (--cap 1)"
    few = "2" if tc.cap == 3 else f"2 to {tc.cap - 1}"
    words = ["green: 1 solution", f"yellow: {few}", f"red: {tc.cap} or more"]
    if tc.cap == 2:
        words.remove(f"yellow: {few}")
    return "colours: solutions holding the digit (" + ", ".join(words) + ")"


CANDIDATE_FORMATS = ("fpuzzles", "fpuzzles-url")
"""What ``candidates --to`` writes: the puzzle with its true candidates as pencil marks."""


@app.command()
@bundled
def candidates(
    source: OnePuzzleArg,
    *,
    cap: CapOpt = DEFAULT_CAP,
    reading: Reading,
    time_limit: SetterTimeOpt = DEFAULT_SETTER_SECONDS,
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON record: candidates and counts per cell (R1C1...).")] = False,
    svg: Annotated[str | None, typer.Option(
        "--svg", metavar="FILE|-", help="Also draw them, coloured by count (green one "
                                        "solution, yellow few, red many); - writes only the "
                                        "picture, to standard output.")] = None,
    to: Annotated[str | None, typer.Option(
        "--to", metavar="FORMAT",
        help="Print the puzzle with them as centre pencil marks instead: fpuzzles or "
             "fpuzzles-url.")] = None,
) -> None:
    """True candidates: the digits solutions put in each cell.

    Each candidate is counted in up to --cap solutions: green when one solution holds it,
    yellow when fewer than the cap do, red for the cap or more. A puzzle with no solution
    gets the parts that conflict instead. Exit codes: 0 unique, 3 several solutions,
    4 no solution, 5 undecided at the time limit, 6 input error.
    """
    if to is not None and to not in CANDIDATE_FORMATS:
        raise typer.BadParameter(f"{to!r}: choose from fpuzzles, fpuzzles-url",
                                 param_hint="'--to'")

    def action() -> Exit:
        from sudoku_csp.deadline import Deadline
        from sudoku_csp.io import first_puzzle
        from sudoku_csp.io.fpuzzles import fpuzzles_json, fpuzzles_url
        from sudoku_csp.setter import true_candidates

        deadline = Deadline.from_start(time_limit)  # the candidates, then any conflict
        if svg is not None:
            check_output_path(svg, "--svg")
        puzzle = first_puzzle(source, reading.options(constraints=True))
        tc = true_candidates(puzzle, cap=cap, time_limit=deadline)
        code = {"unique": Exit.OK, "multiple": Exit.MULTIPLE, "none": Exit.NONE,
                "unknown": Exit.UNKNOWN}[tc.status]
        if not tc.complete and tc.status != "none":
            code = Exit.UNKNOWN
        if to is not None:  # undecided digits kept: a pencil mark must not rule one out
            writer = fpuzzles_json if to == "fpuzzles" else fpuzzles_url
            emit(writer(puzzle, tc.masks(undecided=True)) + "\n")
            return code
        if svg is not None:
            write_output(svg, tc.svg())
            if writes_stdout(svg):  # the picture alone
                return code
        if as_json:
            _emit_record(tc.to_json(), puzzle, deadline, none=tc.status == "none")
            return code
        out.print(f"{puzzle.geometry.name}, {counted(puzzle.clue_count, 'given')}")
        if tc.status == "none":
            out.print("no solution", markup=False)
            print_conflict(puzzle, deadline)
            return code
        out.print(coloured_grid(tc))
        out.print(_summary(tc), markup=False)
        if tc.status == "multiple":
            out.print(_legend(tc), markup=False)
        return code

    guarded(action)


# -- disambiguate ---------------------------------------------------------------------------
@app.command()
@bundled
def disambiguate(
    source: OnePuzzleArg,
    *,
    keep: Annotated[str | None, typer.Option(
        "--keep", metavar="SOLUTION",
        help="The solution to keep (a full grid on one line): givens that keep it come "
             "first, and a set is built towards it.")] = None,
    reading: Reading,
    time_limit: SetterTimeOpt = DEFAULT_SETTER_SECONDS,
    as_json: JsonOpt = False,
) -> None:
    """Givens that make a puzzle of several solutions unique.

    Every given (R4C7=3) that alone makes the puzzle unique; with --keep, those that keep
    your solution first. When no single given does, a set of givens that does, each of them
    needed. The mirror of `minimal`, which finds the givens a unique puzzle can lose.
    Exit codes: 0 a fix was found (or the puzzle is already unique), 4 no solution,
    5 nothing found in the time limit, 6 input error.
    """

    def action() -> Exit:
        from sudoku_csp.deadline import Deadline
        from sudoku_csp.errors import InputError
        from sudoku_csp.io import first_puzzle, parse
        from sudoku_csp.setter import disambiguate as find

        deadline = Deadline.from_start(time_limit)
        options = reading.options(constraints=True)
        puzzle = first_puzzle(source, options)
        target = None
        if keep is not None:
            try:
                grid = parse(keep.strip(), geometry=puzzle.geometry, constraints=False).givens
            except InputError as exc:
                raise InputError(f"--keep: {exc}") from None
            if -1 in grid:
                raise InputError(f"--keep: expected a full grid of {puzzle.geometry.ncells} "
                                 "digits on one line, found blanks")
            target = grid
        d = find(puzzle, keep=target, time_limit=deadline)
        found = bool(d.singles or d.found_set)
        code = (Exit.NONE if d.status == "none" else Exit.OK if d.status == "unique" or found
                else Exit.UNKNOWN)
        if not d.complete and d.status != "none":
            code = Exit.UNKNOWN
        if as_json:
            _emit_record(d.to_json(), puzzle, deadline, none=d.status == "none")
            return code
        for line in disambiguation_lines(d):
            out.print(line, markup=False)
        if d.status == "none":
            print_conflict(puzzle, deadline)
        return code

    guarded(action)


def _emit_record(record: dict[str, Any], puzzle: Puzzle, deadline: Deadline, *,
                 none: bool) -> None:
    """A setter command's one JSON record, with the conflict of a puzzle that has ``none``
    (no solution), worked out within what is left of ``deadline``."""
    if none:
        record.update(conflict_fields(puzzle, deadline))
    emit(json.dumps(record, ensure_ascii=False) + "\n")


def disambiguation_lines(d: Disambiguation) -> list[str]:
    """What ``disambiguate`` prints for a :class:`~sudoku_csp.setter.Disambiguation`."""
    if d.status == "unique":
        return ["already unique: nothing to add"]
    if d.status == "none":
        return ["no solution: no given can help"]
    if d.status == "unknown":
        return ["undecided: the time limit passed before two solutions were told apart"]
    tc = d.candidates
    g = d.puzzle.geometry
    lines = [f"several solutions: {len(tc.open_cells())} cells have more than one true "
             f"candidate; the first two solutions found differ in "
             f"{', '.join(rc(g, c) for c in tc.differences())}"]
    settled = tc.complete
    if not settled:
        lines.append("the time limit passed before every candidate was settled: what "
                     "follows is what was proven by then")
    if d.singles:
        kept = len(d.keeping)
        lines.append((f"each of these {len(d.singles)} givens" if len(d.singles) > 1
                      else "this given") + " alone makes it unique"
                     + (f" ({kept} keep your solution, listed first)" if kept else ""))
        lines += [f"  {name}{' (keeps your solution)' if d.keeps(s) else ''}"
                  for s, name in zip(d.singles, d.named(d.singles), strict=True)]
    if d.found_set:
        needed = "each of them needed" if d.set_minimal else "some may be spare: time limit"
        towards = "none of them keeps your solution; " if d.singles else \
            "no single given makes it unique; "
        lines.append(f"{towards}these {len(d.found_set)} together do ({needed}"
                     f"{', keeping your solution' if d.keep else ''}): "
                     f"{', '.join(d.named(d.found_set))}")
    elif not settled:
        if not d.singles:
            lines.append("no single given proven yet")
    elif not d.singles or (d.keep is not None and not d.keeping):
        lines.append(("no single given makes it unique" if not d.singles else
                      "none of them keeps your solution") +
                     ", and the time limit passed before a set of givens was found")
    return lines
