"""The ``sudoku-csp`` command line: thin commands that parse, call the library and render.

Exit codes (also in ``sudoku-csp --help`` and README.md):

====  ==========================================================================
0     solved / unique (or, for files, every puzzle was processed)
1     internal error: a backend returned a wrong answer (a bug; please report)
2     usage error (unknown option, missing argument), from typer
3     multiple solutions
4     no solution (including clashing givens)
5     unknown: time limit reached (or propagation alone could not decide)
6     input error: bad puzzle text, file, geometry or solver spec
====  ==========================================================================

With a puzzle file or standard input, the exit code is 0 once every puzzle was processed,
unless the input held exactly one puzzle: then it is that puzzle's verdict, as above.
"""

from __future__ import annotations

import enum
import json
import os
import sys
from collections.abc import Iterator
from contextlib import nullcontext
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from sudoku_csp import __version__
from sudoku_csp.backends.base import SpecError
from sudoku_csp.backends.registry import get_backend, list_backends, parse_spec
from sudoku_csp.geometry import EMPTY, GeometryError
from sudoku_csp.native.state import State
from sudoku_csp.puzzle import ParseError, Puzzle, format_grid, format_line, parse, read_puzzles
from sudoku_csp.result import Result, Status
from sudoku_csp.verify import WrongSolutionError


class Exit(enum.IntEnum):
    """The documented exit codes."""

    OK = 0
    INTERNAL = 1
    USAGE = 2
    MULTIPLE = 3
    NONE = 4
    UNKNOWN = 5
    INPUT = 6


STATUS_EXIT = {
    Status.SOLVED: Exit.OK,
    Status.UNIQUE: Exit.OK,
    Status.MULTIPLE: Exit.MULTIPLE,
    Status.NONE: Exit.NONE,
    Status.UNKNOWN: Exit.UNKNOWN,
}

PROGRESS_AFTER = 300  # puzzles: smaller files finish before a bar would help

EXIT_HELP = ("Exit codes: 0 solved/unique (files: all processed), 1 internal error, 2 usage, "
             "3 multiple, 4 none, 5 unknown (time limit), 6 input error.")

app = typer.Typer(
    name="sudoku-csp",
    help="Solve, count and study Sudoku puzzles with three independent solvers.\n\n"
         + EXIT_HELP,
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


class InputError(Exception):
    """Bad input found by the CLI itself (a missing file, an inconsistent option)."""


# -- shared options ---------------------------------------------------------------------------
SourceArg = Annotated[str, typer.Argument(
    metavar="PUZZLE|FILE|-",
    help="A puzzle (one line, or a grid in quotes), a file of puzzles one per line, "
         "or - for standard input.")]
SizeOpt = Annotated[Optional[int], typer.Option(
    "--size", "-n", help="Grid size N (default: inferred from the number of cells).")]
BoxOpt = Annotated[Optional[str], typer.Option(
    "--box", help="Box shape ROWSxCOLS, e.g. 2x3 for 6x6 (default: as square as possible).")]
VariantOpt = Annotated[Optional[list[str]], typer.Option(
    "--variant", "-v",
    help="Extra rule, repeatable: diagonal, windoku, anti-knight, anti-king, jigsaw.")]
RegionsOpt = Annotated[Optional[str], typer.Option(
    "--regions", help="Jigsaw region map: N*N region symbols, or a file holding them.")]
SolverOpt = Annotated[str, typer.Option(
    "--solver", "-s", help="Backend spec, e.g. native, native:rules=singles,branch=first "
                            "(see `sudoku-csp solvers`).")]
RulesOpt = Annotated[Optional[str], typer.Option(
    "--rules", help="Native rules: none, singles, locked, pairs, full, or names joined by +.")]
BranchOpt = Annotated[Optional[str], typer.Option(
    "--branch", help="Native branching: mrv, degree, first.")]
TimeOpt = Annotated[Optional[float], typer.Option(
    "--time-limit", "-t", min=0.0, help="Seconds per puzzle; past it the verdict is unknown.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON Lines, one per puzzle.")]


def _version(value: bool) -> None:
    if value:
        out.print(f"sudoku-csp {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Show the version and exit.")] = False,
) -> None:
    """Solve, count and study Sudoku puzzles with three independent solvers."""


def _geometry_options(size: int | None, box: str | None, variants: list[str] | None,
                      regions: str | None) -> dict:
    options: dict = {"size": size, "variants": variants or ()}
    if box:
        rows, sep, cols = box.lower().partition("x")
        if not sep or not rows.strip().isdigit() or not cols.strip().isdigit():
            raise InputError(f"--box {box!r}: expected ROWSxCOLS such as 3x3 or 2x3")
        options["box"] = (int(rows), int(cols))
    if regions is not None:
        if os.path.isfile(regions):
            with open(regions, encoding="utf-8") as handle:
                regions = "".join(line for line in handle if not line.lstrip().startswith("#"))
        options["regions"] = regions
    return options


def _solver_spec(solver: str, rules: str | None, branch: str | None) -> str:
    extra = {k: v for k, v in (("rules", rules), ("branch", branch)) if v}
    if not extra:
        return solver
    name, options = parse_spec(solver)
    if name != "native":
        raise InputError(f"--rules and --branch apply to the native solver, not {name!r}")
    options.update(extra)
    return "native:" + ",".join(f"{k}={v}" for k, v in options.items())


def _puzzles(source: str, options: dict) -> tuple[Iterator[Puzzle], bool, int | None]:
    """(puzzles, is_single_text, total or None) for a puzzle text, a file, or ``-``."""
    if source == "-":
        return read_puzzles(sys.stdin, **options), False, None
    if os.path.isfile(source):
        with open(source, "rb") as handle:
            total = sum(1 for line in handle if line.strip() and not line.startswith(b"#"))
        return read_puzzles(source, **options), False, total
    try:
        return iter([parse(source, **options)]), True, 1
    except ParseError as exc:
        if os.sep in source or source.endswith((".txt", ".sdk", ".csv")):
            raise InputError(f"no such file: {source}") from None
        raise exc


def _record(index: int, puzzle: Puzzle, result: Result) -> dict:
    record = {
        "index": index,
        "puzzle": puzzle.to_line(),
        "status": result.status.value,
        "solution": format_line(puzzle.geometry, result.solution) if result.solution else None,
        "solutions": len(result.solutions),
        "seconds": round(result.seconds, 6),
        "solver": result.solver,
        "stats": result.stats,
    }
    if result.message:
        record["message"] = result.message
    if puzzle.metadata:
        record["metadata"] = puzzle.metadata
    return record


def _styled_grid(puzzle: Puzzle, grid: tuple[int, ...]) -> Text:
    """The boxed grid with givens in bold and solved digits in colour."""
    plain = format_grid(puzzle.geometry, grid)
    text = Text()
    cells = iter(range(puzzle.geometry.ncells))
    for ch in plain:
        if ch in "|-+ \n":
            text.append(ch, style="dim" if ch in "|-+" else "")
            continue
        cell = next(cells)
        given = puzzle.givens[cell] != EMPTY
        text.append(ch, style="bold" if given else "cyan")
    return text


def _print_single(puzzle: Puzzle, result: Result) -> None:
    if result.solution is not None:
        out.print(_styled_grid(puzzle, result.solution))
        if result.status is Status.MULTIPLE:
            out.print(f"(one of {len(result.solutions)}+ solutions)")
    summary = f"{result.status.value} · {1000 * result.seconds:.2f} ms · {result.solver}"
    if result.message:
        summary += f" · {result.message}"
    out.print(summary)


def _print_line(index: int, puzzle: Puzzle, result: Result) -> None:
    shown = format_line(puzzle.geometry, result.solution) if result.solution else puzzle.to_line()
    line = f"{index}\t{result.status.value}\t{shown}\t{1000 * result.seconds:.2f} ms"
    if result.message:
        line += f"\t{result.message}"
    typer.echo(line)  # plain: rich would expand the tabs


def _progress(total: int | None):
    if total is None or total <= PROGRESS_AFTER or not err.is_terminal:
        return nullcontext(None)
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=err, transient=True)


def _run(source: str, options: dict, spec: str, limit: int | None,
         time_limit: float | None, as_json: bool) -> Exit:
    backend = get_backend(spec)
    puzzles, single, total = _puzzles(source, options)
    if single:
        puzzle = next(puzzles)
        result = backend.solve(puzzle, limit=limit, time_limit=time_limit)
        if as_json:
            typer.echo(json.dumps(_record(1, puzzle, result)))
        else:
            _print_single(puzzle, result)
        return STATUS_EXIT[result.status]
    last: Result | None = None
    count = 0
    with _progress(total) as bar:
        task = bar.add_task("solving", total=total) if bar else None
        for count, puzzle in enumerate(puzzles, start=1):
            last = backend.solve(puzzle, limit=limit, time_limit=time_limit)
            if as_json:
                typer.echo(json.dumps(_record(count, puzzle, last)))
            else:
                _print_line(count, puzzle, last)
            if bar:
                bar.advance(task)
    if count == 1 and last is not None:
        return STATUS_EXIT[last.status]
    return Exit.OK


def _guarded(action) -> None:
    """Run a command body; turn domain errors into one line on stderr and an exit code."""
    try:
        code = action()
    except ParseError as exc:
        err.print(f"error: {exc}", markup=False)
        raise typer.Exit(Exit.INPUT) from None
    except (GeometryError, SpecError, InputError, OSError, UnicodeDecodeError) as exc:
        err.print(f"error: {exc}", markup=False)
        raise typer.Exit(Exit.INPUT) from None
    except WrongSolutionError as exc:
        err.print(f"internal error: {exc}", markup=False)
        raise typer.Exit(Exit.INTERNAL) from None
    except KeyboardInterrupt:
        err.print("interrupted")
        raise typer.Exit(130) from None
    raise typer.Exit(int(code))


@app.command()
def solve(
    source: SourceArg,
    size: SizeOpt = None,
    box: BoxOpt = None,
    variant: VariantOpt = None,
    regions: RegionsOpt = None,
    solver: SolverOpt = "native",
    rules: RulesOpt = None,
    branch: BranchOpt = None,
    time_limit: TimeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Solve puzzles: a boxed grid for one puzzle, one line per puzzle for files.

    Exit codes: 0 solved, 4 none, 5 unknown, 6 input error (files: 0 when all processed).
    """
    _guarded(lambda: _run(source, _geometry_options(size, box, variant, regions),
                          _solver_spec(solver, rules, branch), 1, time_limit, as_json))


@app.command()
def count(
    source: SourceArg,
    limit: Annotated[int, typer.Option(
        "--limit", "-l", min=0,
        help="Solutions to look for: 2 decides uniqueness; 0 counts them all.")] = 2,
    size: SizeOpt = None,
    box: BoxOpt = None,
    variant: VariantOpt = None,
    regions: RegionsOpt = None,
    solver: SolverOpt = "native",
    rules: RulesOpt = None,
    branch: BranchOpt = None,
    time_limit: TimeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Decide uniqueness: unique, multiple, none or unknown for each puzzle.

    Exit codes (one puzzle): 0 unique, 3 multiple, 4 none, 5 unknown, 6 input error.
    """
    _guarded(lambda: _run(source, _geometry_options(size, box, variant, regions),
                          _solver_spec(solver, rules, branch), limit or None, time_limit,
                          as_json))


def _candidate_grid(state: State) -> str:
    """A text grid of candidate symbols per cell, columns aligned, box borders drawn."""
    g = state.geometry
    n = g.size
    texts = ["".join(g.symbols[d] for d in state.candidates(c)) or "-" for c in range(g.ncells)]
    width = max(len(t) for t in texts)
    box_rows, box_cols = g.box or (n, n)
    lines = []
    for r in range(n):
        if r and r % box_rows == 0:
            lines.append("-+-".join("-" * ((width + 1) * box_cols - 1)
                                    for _ in range(n // box_cols)))
        row = [texts[r * n + c].ljust(width) for c in range(n)]
        lines.append(" | ".join(" ".join(row[c:c + box_cols]) for c in range(0, n, box_cols)))
    return "\n".join(lines)


@app.command()
def show(
    source: SourceArg,
    candidates: Annotated[bool, typer.Option(
        "--candidates", "-c", help="Show the candidates left after propagation.")] = False,
    size: SizeOpt = None,
    box: BoxOpt = None,
    variant: VariantOpt = None,
    regions: RegionsOpt = None,
    rules: RulesOpt = None,
) -> None:
    """Show a puzzle as a grid and, with --candidates, what propagation leaves."""

    def action() -> Exit:
        puzzles, _, _ = _puzzles(source, _geometry_options(size, box, variant, regions))
        puzzle = next(puzzles, None)
        if puzzle is None:
            raise InputError("no puzzle in the input")
        out.print(f"{puzzle.geometry.name}, {puzzle.clue_count} givens")
        out.print(_styled_grid(puzzle, puzzle.givens))
        if not candidates:
            return Exit.OK
        spec = _solver_spec("native", rules or "locked", None)
        state = get_backend(spec).propagate(puzzle)
        out.print()
        if state is None:
            clashes = puzzle.clashes()
            out.print("contradiction: " + (puzzle.describe_clash(clashes[0]) if clashes
                                           else "propagation empties a cell or a unit"))
            return Exit.NONE
        out.print(f"candidates after {spec.partition('rules=')[2] or 'locked'} propagation:")
        out.print(_candidate_grid(state), markup=False)
        return Exit.OK

    _guarded(action)


@app.command()
def encode(
    source: Annotated[Optional[str], typer.Argument(
        metavar="[PUZZLE|FILE|-]", help="The puzzle to encode (the first one of a file).")] = None,
    encoding: Annotated[str, typer.Option(
        "--encoding", "-e", help="minimal, natural, extended or augmented.")] = "extended",
    amo: Annotated[str, typer.Option(
        "--amo", help="At-most-one encoding from pysat.card: pairwise, seqcounter, ladder, "
                      "bitwise, totalizer, cardnetwrk, ...")] = "pairwise",
    reduce: Annotated[bool, typer.Option(
        "--reduce", help="Clue-reduced: drop clauses the givens satisfy and literals they "
                         "falsify, instead of adding the givens as unit clauses.")] = False,
    output: Annotated[Optional[str], typer.Option(
        "--output", "-o", help="Write to this file instead of standard output.")] = None,
    empty: Annotated[Optional[str], typer.Option(
        "--empty", metavar="DIR",
        help="Regenerate the reference files of DIR (e.g. encodings/): DIMACS of the empty "
             "grids and the CP-SAT models.")] = None,
    size: SizeOpt = None,
    box: BoxOpt = None,
    variant: VariantOpt = None,
    regions: RegionsOpt = None,
) -> None:
    """Write a puzzle as DIMACS CNF (givens as unit clauses, or clue-reduced)."""

    def action() -> Exit:
        from sudoku_csp.encodings import cnf, cpsat

        if empty is not None:
            written = cnf.write_reference_files(empty) + cpsat.export_models(empty)
            for path in written:
                err.print(f"wrote {path}", markup=False)
            return Exit.OK
        if source is None:
            raise InputError("give a puzzle to encode, or --empty DIR")
        try:
            cnf.encoding_of(encoding)
            cnf.amo_of(amo)
        except ValueError as exc:
            raise InputError(str(exc)) from None
        puzzles, _, _ = _puzzles(source, _geometry_options(size, box, variant, regions))
        puzzle = next(puzzles, None)
        if puzzle is None:
            raise InputError("no puzzle in the input")
        text = cnf.encode_puzzle_dimacs(puzzle, encoding, amo, reduce=reduce)
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text)
        else:
            sys.stdout.write(text)
        return Exit.OK

    _guarded(action)


@app.command()
def solvers() -> None:
    """List every backend, its options and their allowed values."""
    table = Table(title="backends (spec: name:key=value,...)")
    table.add_column("backend", style="bold")
    table.add_column("what it is")
    table.add_column("options")
    for cls in list_backends():
        options = "\n".join(o.describe() for o in cls.OPTIONS) or "-"
        table.add_row(cls.name, cls.description, options)
    out.print(table)


def main() -> None:
    """Console-script entry point."""
    app()
