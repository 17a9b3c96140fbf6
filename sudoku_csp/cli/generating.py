"""The command that makes puzzles: generate (the library's request, rendered).

The generator's defaults and the explainer's tiers are imported here for the options' help;
the generator itself when it runs (see :mod:`sudoku_csp.cli.app`)."""

from __future__ import annotations

import itertools
from typing import Annotated

import typer

from sudoku_csp.cli.app import app
from sudoku_csp.cli.exits import Exit, guarded
from sudoku_csp.cli.options import GridRules, bundled, completes, listed
from sudoku_csp.cli.output import Bar, writes_stdout
from sudoku_csp.constraints import makers
from sudoku_csp.generate import DEFAULT_ATTEMPTS, DEFAULT_DIFFICULTY_ATTEMPTS
from sudoku_csp.generate.killer import (
    DEFAULT_KILLER_ATTEMPTS,
    DEFAULT_KILLER_CHECK,
    DEFAULT_MAX_CAGE,
    DEFAULT_MERGES,
    DEFAULT_MIN_CAGE,
)
from sudoku_csp.generate.kinds import (
    DEFAULT_NEGATIVE,
    DEFAULT_VARIANT_ATTEMPTS,
    DEFAULT_VARIANT_CHECK,
)
from sudoku_csp.logic import TIERS
from sudoku_csp.symmetry import SYMMETRIES

__all__ = ["generate"]

SymmetryOpt = Annotated[str, typer.Option(
    "--symmetry", autocompletion=completes(SYMMETRIES),
    help=f"Clues removed in symmetric groups: {listed(SYMMETRIES)}.")]

# generate --help groups its many options; the rest stay under "Options".
DIFFICULTY = "Difficulty"
CONSTRAINTS = "Typed constraints (--kind)"
SEARCH = "Search"


@app.command()
@bundled
def generate(
    *,
    count: Annotated[int, typer.Option("--count", "-c", min=1, help="How many.")] = 1,
    size: Annotated[int, typer.Option("--size", "-n", help="Grid size N.",
                                      rich_help_panel=GridRules.PANEL)] = 9,
    grid: GridRules,
    symmetry: SymmetryOpt = "none",
    minimal: Annotated[bool, typer.Option(
        "--minimal", help="Every given necessary (removing any one makes it ambiguous).")
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="Same seed, same puzzles.")] = 0,
    difficulty: Annotated[str | None, typer.Option(
        "--difficulty", metavar="TIER", autocompletion=completes(name for name, _ in TIERS),
        help="Only puzzles the explainer rates in this tier (ER as `rate` reports it): "
             + ", ".join(f"{name} (ER ≤ {top})" if top < float("inf") else
                         f"{name} (above; logic must finish it unless --allow-search)"
                         for name, top in TIERS) + ".",
        rich_help_panel=DIFFICULTY)] = None,
    min_rating: Annotated[float | None, typer.Option(
        "--min-rating", metavar="ER", help="Only puzzles rated at least ER (with "
                                           "--difficulty: both hold).",
        rich_help_panel=DIFFICULTY)] = None,
    max_rating: Annotated[float | None, typer.Option(
        "--max-rating", metavar="ER", help="Only puzzles rated at most ER (with "
                                           "--difficulty: both hold).",
        rich_help_panel=DIFFICULTY)] = None,
    allow_search: Annotated[bool, typer.Option(
        "--allow-search", help="Also accept puzzles the techniques cannot finish (they count "
                               "as harder than every rating: no --max-rating).",
        rich_help_panel=DIFFICULTY)] = False,
    kind: Annotated[list[str] | None, typer.Option(
        "--kind", "-k", metavar="KIND", autocompletion=completes([*makers(), "killer"]),
        help="Puzzles with typed constraints read off a random grid (givens cleared, then "
             "constraints dropped, while SAT finds one solution; each re-checked by "
             f"{DEFAULT_VARIANT_CHECK}; printed as JSON lines), repeatable to combine; KIND is "
             f"any constraint kind, by its name or f-puzzles key (see `sudoku-csp kinds`): "
             f"{', '.join(makers())}. Or killer alone (given-free cages, "
             f"reshaped until unique; each re-checked by {DEFAULT_KILLER_CHECK}; printed as "
             "killer lines).",
        rich_help_panel=CONSTRAINTS)] = None,
    killer: Annotated[bool, typer.Option(
        "--killer", help="The same as --kind killer.",
        rich_help_panel=CONSTRAINTS)] = False,
    negative: Annotated[bool | None, typer.Option(
        "--negative/--no-negative",
        help="--kind kropki or xv: every dot (mark) the grid implies is given, so neighbours "
             f"without one are neither (default {'on' if DEFAULT_NEGATIVE else 'off'}); off, "
             "dots are dropped while the puzzle stays unique.",
        rich_help_panel=CONSTRAINTS)] = None,
    max_givens: Annotated[int | None, typer.Option(
        "--max-givens", metavar="K", min=0,
        help="--kind (not killer): only puzzles with at most K givens (0: given-free); "
             "grids that leave more are drawn again.",
        rich_help_panel=CONSTRAINTS)] = None,
    min_cage: Annotated[int | None, typer.Option(
        "--min-cage", metavar="K", help=f"--kind killer: the fewest cells of a cage (default "
                                        f"{DEFAULT_MIN_CAGE}; 1 allows single-cell cages)."
    ,
        rich_help_panel=CONSTRAINTS)] = None,
    max_cage: Annotated[int | None, typer.Option(
        "--max-cage", metavar="K", help=f"--kind killer: the most cells of a cage (default "
                                        f"{DEFAULT_MAX_CAGE}, at most the grid size).",
        rich_help_panel=CONSTRAINTS)
    ] = None,
    merges: Annotated[int | None, typer.Option(
        "--merges", metavar="K", help=f"--kind killer: neighbouring cages merged, of K tries, "
                                      "where the puzzle stays unique: fewer, larger cages, "
                                      f"much harder (default {DEFAULT_MERGES}).",
        rich_help_panel=CONSTRAINTS)] = None,
    attempts: Annotated[int | None, typer.Option(
        "--attempts", min=1, help=f"Grids tried per puzzle before giving up (exit 6): "
                                  f"default {DEFAULT_ATTEMPTS}, {DEFAULT_DIFFICULTY_ATTEMPTS} "
                                  "with a difficulty, each searched locally, "
                                  f"{DEFAULT_KILLER_ATTEMPTS} with --kind killer, "
                                  f"{DEFAULT_VARIANT_ATTEMPTS} with other kinds.",
        rich_help_panel=SEARCH)] = None,
    output: Annotated[str | None, typer.Option(
        "--out", "-o", metavar="FILE|-", help="Write the puzzles to this file (one per line) "
                                              "instead of standard output (-).")] = None,
) -> None:
    """Generate unique puzzles: minimal, rated or constrained.

    Each re-checked by a second backend, minimal and symmetric when asked, of a chosen
    difficulty when asked, reproducibly from a seed; with --kind, puzzles of typed
    constraints (thermometers, kropki, XV, arrows, lines, outside clues, dots, ...; killer:
    given-free killers).

    Each line is the puzzle, a tab, and how it was made; with a difficulty, its ER and tier.
    Without --minimal a puzzle of a difficulty may keep givens that make it easier.
    """
    def action() -> Exit:
        from sudoku_csp.generate import Request, make
        from sudoku_csp.io import to_line

        options = grid.options()
        request = Request(
            count=count, size=options["size"], box=options.get("box"),
            variants=tuple(options["variants"]), regions=options.get("regions"),
            contiguous=options.get("contiguous", True), seed=seed, attempts=attempts,
            symmetry=symmetry, minimal=minimal, difficulty=difficulty, min_rating=min_rating,
            max_rating=max_rating, allow_search=allow_search,
            kinds=(*(kind or ()), *(["killer"] if killer else [])), negative=negative,
            max_givens=max_givens, min_cage=min_cage, max_cage=max_cage, merges=merges)
        puzzles = make(request)
        # The first puzzle before the file: a request that cannot be met leaves no file.
        first = next(puzzles, None)
        puzzles = itertools.chain([] if first is None else [first], puzzles)
        handle = (open(output, "w", encoding="utf-8")
                  if output is not None and not writes_stdout(output) else None)
        try:
            if handle:
                handle.write(f"# sudoku-csp generate {' '.join(request.words())}\n")
            with Bar(count if count > 1 else None, "generating", always=True) as bar:
                for puzzle in puzzles:
                    line = f"{to_line(puzzle)}\t{puzzle.metadata}"
                    if handle:
                        handle.write(line + "\n")
                        handle.flush()
                    else:
                        typer.echo(line)
                    bar.advance()
        finally:
            if handle:
                handle.close()
        return Exit.OK

    guarded(action)
