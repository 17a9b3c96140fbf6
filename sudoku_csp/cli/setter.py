"""Commands for setters: candidates, disambiguate; and the conflict report that count,
check, explain and show give a puzzle with no solution.

What a command runs is imported when it runs (see :mod:`sudoku_csp.cli.app`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from sudoku_csp.cli.app import app
from sudoku_csp.cli.exits import Exit, guarded
from sudoku_csp.cli.options import (
    BoxOpt,
    IgnoreOpt,
    JsonOpt,
    RegionsOpt,
    SizeOpt,
    SourceArg,
    SplitRegionsOpt,
    TreatLineOpt,
    VariantOpt,
    check_output_path,
    geometry_options,
)
from sudoku_csp.cli.output import emit, out

if TYPE_CHECKING:
    from sudoku_csp.puzzle import Puzzle
    from sudoku_csp.setter import Conflict, TrueCandidates

CONFLICT_SECONDS = 10.0
"""The time a conflict report takes at most unless the command's --time-limit says less."""

FEW = 8
"""Counts below this are "few" (yellow); the default cap, so red means "cap or more"."""

COUNT_COLOURS = (("1 solution", "green", "#1b7f3b"), ("few", "yellow", "#b07d00"),
                 ("many", "red", "#c0392b"))
"""How a true candidate is coloured by the solutions that hold it: (words, terminal style,
picture colour) for exactly one, fewer than the cap, and the cap or more."""

CapOpt = Annotated[int, typer.Option(
    "--cap", min=1, help="Count the solutions holding each candidate up to this many.")]
SetterTimeOpt = Annotated[float | None, typer.Option(
    "--time-limit", "-t", min=0.0,
    help="Seconds in all; past it the answer says what it left undecided.")]


# -- conflicts, for every command that meets a puzzle without a solution ---------------------
def conflict_of(puzzle: Puzzle, time_limit: float | None) -> Conflict | None:
    """The minimal conflict of a puzzle with no solution (None when it has one), in at most
    ``time_limit`` or :data:`CONFLICT_SECONDS`."""
    from sudoku_csp.setter import minimal_conflict

    seconds = CONFLICT_SECONDS if time_limit is None else min(time_limit, CONFLICT_SECONDS)
    return minimal_conflict(puzzle, time_limit=seconds)


def conflict_fields(puzzle: Puzzle, time_limit: float | None) -> dict[str, Any]:
    """The record fields of :meth:`~sudoku_csp.setter.Conflict.to_json` (empty when the
    puzzle has a solution)."""
    conflict = conflict_of(puzzle, time_limit)
    return conflict.to_json() if conflict is not None else {}


def print_conflict(puzzle: Puzzle, time_limit: float | None) -> None:
    """Print the conflict's one-line message (nothing when the puzzle has a solution)."""
    conflict = conflict_of(puzzle, time_limit)
    if conflict is not None:
        out.print(conflict.message(), markup=False)


class ConflictReports:
    """Conflicts of the puzzles of a batch that have no solution, read back from their
    record lines with the command's parse ``options``: for count, solve and check."""

    def __init__(self, options: dict[str, Any], time_limit: float | None) -> None:
        self.options = options
        self.time_limit = time_limit
        self._last: tuple[str, Conflict | None] | None = None  # a line's fields, then words

    def of(self, line: str) -> Conflict | None:
        from sudoku_csp.io import parse

        if self._last is None or self._last[0] != line:
            self._last = (line, conflict_of(parse(line, **self.options), self.time_limit))
        return self._last[1]

    def fields(self, line: str) -> dict[str, Any]:
        """:meth:`~sudoku_csp.setter.Conflict.to_json` of the puzzle written ``line``."""
        conflict = self.of(line)
        return conflict.to_json() if conflict is not None else {}

    def message(self, line: str) -> str:
        conflict = self.of(line)
        return conflict.message() if conflict is not None else ""


# -- candidates ---------------------------------------------------------------------------------
def _tier(count: int, cap: int) -> int:
    return 0 if count == 1 else 2 if count >= min(cap, FEW) else 1


def coloured_grid(tc: TrueCandidates) -> Text:
    """The true candidates as a grid of text, each digit coloured by how many solutions
    hold it (:data:`COUNT_COLOURS`), givens in bold."""
    from sudoku_csp.io import format_cells

    g = tc.puzzle.geometry
    symbols = g.symbols
    texts = ["".join(symbols[d] for d in tc.candidates(c)) or "-" for c in range(g.ncells)]
    text, cell = Text(), 0
    for row in format_cells(g, texts).split("\n"):
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
                    k = tc.counts[cell][symbols.index(ch)]
                    text.append(ch, style=COUNT_COLOURS[_tier(k, tc.cap)][1])
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
    line = (f"{words}: {len(tc.open_cells())} cells open, {shown} true candidates "
            f"({len(tc.solutions)} solutions met, {tc.calls} solver calls, "
            f"{1000 * tc.seconds:.0f} ms)")
    if tc.differences():
        line += f"; the first two solutions differ in {len(tc.differences())} cells"
    return line


def candidates_svg(tc: TrueCandidates) -> str:
    """The true candidates as an SVG picture, each coloured by its count."""
    from sudoku_csp.render import grid_svg

    p = tc.puzzle
    tints = {(cell, d): COUNT_COLOURS[_tier(k, tc.cap)][2]
             for cell, row in enumerate(tc.counts) for d, k in enumerate(row) if k}
    return grid_svg(p.geometry, p.givens, candidates=tc.masks(), constraints=p.constraints,
                    tints=tints)


CANDIDATE_FORMATS = ("fpuzzles", "fpuzzles-url")
"""What ``candidates --to`` writes: the puzzle with its true candidates as pencil marks."""


@app.command()
def candidates(
    source: SourceArg,
    cap: CapOpt = FEW,
    size: SizeOpt = None,
    box: BoxOpt = None,
    variant: VariantOpt = None,
    regions: RegionsOpt = None,
    split_regions: SplitRegionsOpt = False,
    ignore: IgnoreOpt = None,
    treat_line: TreatLineOpt = None,
    time_limit: SetterTimeOpt = None,
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
    """True candidates: the digits some solution puts in each cell, and how many.

    Each candidate is counted in up to --cap solutions: green when one solution holds it,
    yellow when fewer than the cap do, red for the cap or more. A puzzle with no solution
    gets the parts that conflict instead. Exit codes: 0 unique, 3 several solutions,
    4 no solution, 5 undecided at the time limit, 6 input error.
    """
    if to is not None and to not in CANDIDATE_FORMATS:
        raise typer.BadParameter(f"{to!r}: choose from fpuzzles, fpuzzles-url",
                                 param_hint="'--to'")

    def action() -> Exit:
        from sudoku_csp.io import first_puzzle
        from sudoku_csp.io.fpuzzles import fpuzzles_json, fpuzzles_url
        from sudoku_csp.setter import true_candidates

        if svg is not None:
            check_output_path(svg, "--svg")
        puzzle = first_puzzle(source, geometry_options(size, box, variant, regions,
                                                       split_regions, ignore, treat_line,
                                                       constraints=True))
        tc = true_candidates(puzzle, cap=cap, time_limit=time_limit)
        code = {"unique": Exit.OK, "multiple": Exit.MULTIPLE, "none": Exit.NONE,
                "unknown": Exit.UNKNOWN}[tc.status]
        if not tc.complete and tc.status != "none":
            code = Exit.UNKNOWN
        if to is not None:
            writer = fpuzzles_json if to == "fpuzzles" else fpuzzles_url
            emit(writer(puzzle, tc.masks()) + "\n")
            return code
        if svg is not None:
            picture = candidates_svg(tc)
            if svg == "-":
                emit(picture)
                return code
            Path(svg).write_text(picture, encoding="utf-8")
        if as_json:
            record = tc.to_json()
            if tc.status == "none":
                record.update(conflict_fields(puzzle, time_limit))
            emit(json.dumps(record, ensure_ascii=False) + "\n")
            return code
        out.print(f"{puzzle.geometry.name}, {puzzle.clue_count} givens")
        if tc.status == "none":
            out.print("no solution", markup=False)
            print_conflict(puzzle, time_limit)
            return code
        out.print(coloured_grid(tc))
        out.print(_summary(tc), markup=False)
        if tc.status == "multiple":
            words = ", ".join(f"{style} {what}" for what, style, _ in COUNT_COLOURS)
            out.print(f"colours: solutions holding the digit ({words}: {tc.cap} or more)",
                      markup=False)
        return code

    guarded(action)


# -- disambiguate ---------------------------------------------------------------------------
@app.command()
def disambiguate(
    source: SourceArg,
    keep: Annotated[str | None, typer.Option(
        "--keep", metavar="SOLUTION",
        help="The solution to keep (a full grid on one line): givens that keep it come "
             "first, and a set is built towards it.")] = None,
    size: SizeOpt = None,
    box: BoxOpt = None,
    variant: VariantOpt = None,
    regions: RegionsOpt = None,
    split_regions: SplitRegionsOpt = False,
    ignore: IgnoreOpt = None,
    treat_line: TreatLineOpt = None,
    time_limit: SetterTimeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """What makes a puzzle with several solutions unique: givens to add.

    Every given (R4C7=3) that alone makes the puzzle unique; with --keep, those that keep
    your solution first. When no single given does, a set of givens that does, each of them
    needed. The mirror of `minimal`, which finds the givens a unique puzzle can lose.
    Exit codes: 0 a fix was found (or the puzzle is already unique), 4 no solution,
    5 nothing found in the time limit, 6 input error.
    """

    def action() -> Exit:
        from sudoku_csp.errors import InputError
        from sudoku_csp.io import first_puzzle, parse
        from sudoku_csp.setter import disambiguate as find

        options = geometry_options(size, box, variant, regions, split_regions, ignore,
                                   treat_line, constraints=True)
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
        d = find(puzzle, keep=target, time_limit=time_limit)
        found = bool(d.singles or d.found_set)
        code = (Exit.NONE if d.status == "none" else Exit.OK if d.status == "unique" or found
                else Exit.UNKNOWN)
        if as_json:
            record = d.to_json()
            if d.status == "none":
                record.update(conflict_fields(puzzle, time_limit))
            emit(json.dumps(record, ensure_ascii=False) + "\n")
            return code
        for line in disambiguation_lines(d):
            out.print(line, markup=False)
        if d.status == "none":
            print_conflict(puzzle, time_limit)
        return code

    guarded(action)


def disambiguation_lines(d: Any) -> list[str]:
    """What ``disambiguate`` prints for a :class:`~sudoku_csp.setter.Disambiguation`."""
    if d.status == "unique":
        return ["already unique: nothing to add"]
    if d.status == "none":
        return ["no solution: no given can help"]
    if d.status == "unknown":
        return ["undecided: the time limit passed before two solutions were told apart"]
    tc = d.candidates
    differ = d.named([(c, tc.solutions[0][c]) for c in tc.differences()])
    lines = [f"several solutions: {len(tc.open_cells())} cells have more than one true "
             f"candidate; the first two solutions found differ in "
             f"{', '.join(name.split('=')[0] for name in differ)}"]
    if d.singles:
        kept = [s for s in d.singles if d.keeps(s)]
        lines.append(f"each of these {len(d.singles)} givens alone makes it unique"
                     + (f" ({len(kept)} keep your solution, listed first)" if d.keep else ""))
        lines += [f"  {name}{' (keeps your solution)' if d.keeps(s) else ''}"
                  for s, name in zip(d.singles, d.named(d.singles), strict=True)]
    elif d.found_set:
        needed = "each of them needed" if d.set_minimal else "some may be spare: time limit"
        lines.append(f"no single given makes it unique; these {len(d.found_set)} together do "
                     f"({needed}): {', '.join(d.named(d.found_set))}")
    else:
        lines.append("no single given makes it unique, and the time limit passed before a "
                     "set was found")
    return lines
