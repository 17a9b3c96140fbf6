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
7     the solvers disagreed (``check``, ``compare``)
8     an invalid certificate (``verify-certificate``)
9     unique but not minimal (``minimal``)
====  ==========================================================================

With a puzzle file or standard input, the exit code is 0 once every puzzle was processed,
unless the input held exactly one puzzle: then it is that puzzle's verdict, as above.
"""

from __future__ import annotations

import enum
import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from sudoku_csp import __version__
from sudoku_csp.backends.base import SpecError
from sudoku_csp.backends.registry import get_backend, list_backends, parse_spec
from sudoku_csp.batch import (
    MissingExtraError,
    Record,
    Summary,
    cactus_plot,
    group_by_puzzle,
    puzzle_texts,
    puzzle_verdict,
    read_puzzle_files,
    read_records,
    run_batch,
    run_to_file,
)
from sudoku_csp.crosscheck import ERROR
from sudoku_csp.geometry import EMPTY, GeometryError
from sudoku_csp.native.state import State
from sudoku_csp.puzzle import ParseError, Puzzle, format_grid, parse, read_puzzles
from sudoku_csp.result import Result, Status
from sudoku_csp.variants import make_geometry
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
    DISAGREEMENT = 7
    INVALID = 8
    NOT_MINIMAL = 9


STATUS_EXIT = {
    Status.SOLVED: Exit.OK,
    Status.UNIQUE: Exit.OK,
    Status.MULTIPLE: Exit.MULTIPLE,
    Status.NONE: Exit.NONE,
    Status.UNKNOWN: Exit.UNKNOWN,
}

PROGRESS_AFTER = 300  # puzzles: smaller files finish before a bar would help

EXIT_HELP = ("Exit codes: 0 solved/unique (files: all processed), 1 internal error, 2 usage, "
             "3 multiple, 4 none, 5 unknown (time limit), 6 input error, 7 solvers disagree, "
             "8 invalid certificate, 9 not minimal.")

DEFAULT_TRIO = ("native", "sat", "cpsat")
DEFAULT_COMPARE = ("native", "native:rules=singles", "sat:solver=cadical195,encoding=extended",
                   "sat:encoding=minimal", "cpsat:model=alldiff")
BUNDLED = ("mixed9.txt", "sixteen.txt")  # in sudoku_csp/data: compare's default puzzle sets

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
SizeOpt = Annotated[int | None, typer.Option(
    "--size", "-n", help="Grid size N (default: inferred from the number of cells).")]
BoxOpt = Annotated[str | None, typer.Option(
    "--box", help="Box shape ROWSxCOLS, e.g. 2x3 for 6x6 (default: as square as possible).")]
VariantOpt = Annotated[list[str] | None, typer.Option(
    "--variant", "-v",
    help="Extra rule, repeatable: diagonal, windoku, anti-knight, anti-king, jigsaw.")]
RegionsOpt = Annotated[str | None, typer.Option(
    "--regions", help="Jigsaw region map: N*N region symbols, or a file holding them.")]
SolverOpt = Annotated[str, typer.Option(
    "--solver", "-s", help="Backend spec, e.g. native, native:rules=singles,branch=first "
                            "(see `sudoku-csp solvers`).")]
RulesOpt = Annotated[str | None, typer.Option(
    "--rules", help="Native rules: none, singles, locked, pairs, full, or names joined by +.")]
BranchOpt = Annotated[str | None, typer.Option(
    "--branch", help="Native branching: mrv, degree, first.")]
TimeOpt = Annotated[float | None, typer.Option(
    "--time-limit", "-t", min=0.0, help="Seconds per puzzle; past it the verdict is unknown.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON Lines, one per puzzle.")]
JobsOpt = Annotated[int, typer.Option(
    "--jobs", "-j", min=1, help="Worker processes for files (each builds its solvers once).")]
SchedulerOpt = Annotated[str | None, typer.Option(
    "--scheduler", metavar="ADDRESS",
    help="Run on a Dask cluster (extra 'cluster'), e.g. tcp://host:8786.")]
OutOpt = Annotated[str | None, typer.Option(
    "--out", "-o", help="Also write every record to this .jsonl or .csv file as it finishes.")]
ResumeOpt = Annotated[bool, typer.Option(
    "--resume", help="Skip the (puzzle, solver) pairs already in the --out file.")]
SpecsOpt = Annotated[list[str] | None, typer.Option(
    "--solver", "-s", help="Backend spec, repeatable (see `sudoku-csp solvers`).")]


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


@dataclass(frozen=True)
class BatchOptions:
    """How file inputs are run: processes, a Dask cluster, an output file to resume."""

    jobs: int = 1
    scheduler: str | None = None
    out: str | None = None
    resume: bool = False


@dataclass(frozen=True)
class Source:
    """Resolved input: one puzzle given as text, or files (``-`` is standard input)."""

    single: Puzzle | None
    files: tuple
    total: int | None  # puzzle lines, counted only for a progress bar on a terminal


def _source(sources: list[str], options: dict) -> Source:
    if len(sources) == 1 and sources[0] != "-" and not os.path.isfile(sources[0]):
        text = sources[0]
        try:
            return Source(parse(text, **options), (), 1)
        except ParseError:
            if os.sep in text or text.endswith((".txt", ".sdk", ".csv")):
                raise InputError(f"no such file: {text}") from None
            raise
    files = []
    for name in sources:
        if name != "-" and not os.path.isfile(name):
            raise InputError(f"no such file: {name}")
        files.append(sys.stdin if name == "-" else name)
    total = None
    # Only a progress bar needs the total: counting reads every file once more.
    if err.is_terminal and all(f is not sys.stdin for f in files):
        total = sum(_count_lines(f) for f in files)
    return Source(None, tuple(files), total)


def _count_lines(path: str) -> int:
    with open(path, "rb") as handle:
        return sum(1 for line in handle if line.strip() and not line.lstrip().startswith(b"#"))


def _records(src: Source, options: dict, specs: list[str], limit: int | None,
             time_limit: float | None, opts: BatchOptions) -> Iterator[Record]:
    """Every (puzzle, spec) record, through the one batch runner (here, in processes, or on
    a Dask cluster), written to ``opts.out`` as they finish when asked."""
    puzzles = [src.single] if src.single else puzzle_texts(src.files, **options)
    run = {"limit": limit, "time_limit": time_limit, "jobs": opts.jobs,
           "scheduler": opts.scheduler}
    if opts.out:
        return run_to_file(puzzles, specs, opts.out, resume=opts.resume, **run)
    if opts.resume:
        raise InputError("--resume needs --out FILE (the records to resume from)")
    return run_batch(puzzles, specs, **run)


def _first_puzzle(source: str, options: dict) -> Puzzle:
    src = _source([source], options)
    if src.single is not None:
        return src.single
    puzzle = next(iter(read_puzzles(src.files[0], **options)), None)
    if puzzle is None:
        raise InputError("no puzzle in the input")
    return puzzle


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


def _print_record(record: Record) -> None:
    line = (f"{record.index}\t{record.status}\t{record.solution or record.puzzle}\t"
            f"{1000 * record.seconds:.2f} ms")
    if record.message:
        line += f"\t{record.message}"
    typer.echo(line)  # plain: rich would expand the tabs


class _Bar:
    """A progress bar on stderr for long inputs, refreshed by hand: an auto-refreshing bar
    runs a thread, and worker processes are only forked from a single-threaded process."""

    def __init__(self, total: int | None, what: str, always: bool = False) -> None:
        self.bar = None
        if total is not None and (always or total > PROGRESS_AFTER) and err.is_terminal:
            self.bar = Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(),
                                TimeElapsedColumn(), console=err, transient=True,
                                auto_refresh=False)
            self.task = self.bar.add_task(what, total=total)
            self.shown = 0.0

    def __enter__(self) -> _Bar:
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


def _run(sources: list[str], options: dict, spec: str, limit: int | None,
         time_limit: float | None, as_json: bool, opts: BatchOptions) -> Exit:
    src = _source(sources, options)
    if src.single is not None and not opts.out and not as_json:  # a grid to draw
        result = get_backend(spec).solve(src.single, limit=limit, time_limit=time_limit)
        _print_single(src.single, result)
        return STATUS_EXIT[result.status]
    seen: list[Record] = []  # the first two, to tell a one-puzzle input
    wrong = 0
    with _Bar(src.total, "solving") as bar:
        for record in _records(src, options, [spec], limit, time_limit, opts):
            if as_json:
                typer.echo(json.dumps(record.as_dict()))
            else:
                _print_record(record)
            bar.advance()
            wrong += record.status == ERROR
            if len(seen) < 2:
                seen.append(record)
    if wrong:  # the batch runner keeps going past a wrong answer; the exit code may not
        err.print(f"internal error: {wrong} wrong answers from {spec} (status 'error')",
                  markup=False)
        return Exit.INTERNAL
    if len(seen) == 1:
        return STATUS_EXIT[Status(seen[0].status)]
    return Exit.OK


def _guarded(action) -> None:
    """Run a command body; turn domain errors into one line on stderr and an exit code."""
    try:
        code = action()
    except ParseError as exc:
        err.print(f"error: {exc}", markup=False)
        raise typer.Exit(Exit.INPUT) from None
    except (GeometryError, SpecError, InputError, OSError, UnicodeDecodeError,
            MissingExtraError, ValueError) as exc:
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
    jobs: JobsOpt = 1,
    scheduler: SchedulerOpt = None,
    out_file: OutOpt = None,
    resume: ResumeOpt = False,
) -> None:
    """Solve puzzles: a boxed grid for one puzzle, one line per puzzle for files.

    Exit codes: 0 solved, 4 none, 5 unknown, 6 input error (files: 0 when all processed).
    """
    _guarded(lambda: _run([source], _geometry_options(size, box, variant, regions),
                          _solver_spec(solver, rules, branch), 1, time_limit, as_json,
                          BatchOptions(jobs, scheduler, out_file, resume)))


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
    jobs: JobsOpt = 1,
    scheduler: SchedulerOpt = None,
    out_file: OutOpt = None,
    resume: ResumeOpt = False,
) -> None:
    """Decide uniqueness: unique, multiple, none or unknown for each puzzle.

    Exit codes (one puzzle): 0 unique, 3 multiple, 4 none, 5 unknown, 6 input error.
    """
    _guarded(lambda: _run([source], _geometry_options(size, box, variant, regions),
                          _solver_spec(solver, rules, branch), limit or None, time_limit,
                          as_json, BatchOptions(jobs, scheduler, out_file, resume)))


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
        puzzle = _first_puzzle(source, _geometry_options(size, box, variant, regions))
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
    source: Annotated[str | None, typer.Argument(
        metavar="[PUZZLE|FILE|-]", help="The puzzle to encode (the first one of a file).")] = None,
    encoding: Annotated[str, typer.Option(
        "--encoding", "-e", help="minimal, natural, extended or augmented.")] = "extended",
    amo: Annotated[str, typer.Option(
        "--amo", help="At-most-one encoding from pysat.card: pairwise, seqcounter, ladder, "
                      "bitwise, totalizer, cardnetwrk, ...")] = "pairwise",
    reduce: Annotated[bool, typer.Option(
        "--reduce", help="Clue-reduced: drop clauses the givens satisfy and literals they "
                         "falsify, instead of adding the givens as unit clauses.")] = False,
    output: Annotated[str | None, typer.Option(
        "--output", "-o", help="Write to this file instead of standard output.")] = None,
    empty: Annotated[str | None, typer.Option(
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
        puzzle = _first_puzzle(source, _geometry_options(size, box, variant, regions))
        text = cnf.encode_puzzle_dimacs(puzzle, encoding, amo, reduce=reduce)
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text)
        else:
            sys.stdout.write(text)
        return Exit.OK

    _guarded(action)


def _specs(given: list[str] | None, default: tuple[str, ...]) -> list[str]:
    return list(given) if given else list(default)


@app.command()
def check(
    source: SourceArg,
    solver: SpecsOpt = None,
    limit: Annotated[int, typer.Option(
        "--limit", "-l", min=1, help="Solutions each solver looks for (2 decides "
                                     "uniqueness).")] = 2,
    size: SizeOpt = None,
    box: BoxOpt = None,
    variant: VariantOpt = None,
    regions: RegionsOpt = None,
    time_limit: TimeOpt = None,
    as_json: JsonOpt = False,
    jobs: JobsOpt = 1,
    scheduler: SchedulerOpt = None,
    out_file: OutOpt = None,
    resume: ResumeOpt = False,
) -> None:
    """Cross-check: run several solvers (default native, sat, cpsat) on each puzzle and
    print the verdict they agree on, or the disagreement.

    Exit codes: 0 every verdict agreed, 7 some solvers disagreed, 6 input error.
    """

    def action() -> Exit:
        specs = _specs(solver, DEFAULT_TRIO)
        options = _geometry_options(size, box, variant, regions)
        src = _source([source], options)
        counts: dict[str, int] = {}
        disagreements = 0
        records = _records(src, options, specs, limit, time_limit,
                           BatchOptions(jobs, scheduler, out_file, resume))
        with _Bar(src.total, "checking") as bar:
            for _, group in group_by_puzzle(records):
                verdict = puzzle_verdict(group, limit=limit)
                counts[verdict["status"]] = counts.get(verdict["status"], 0) + 1
                disagreements += not verdict["agreed"]
                if as_json:
                    typer.echo(json.dumps(verdict))
                else:
                    _print_verdict(verdict)
                bar.advance()
        if not as_json:
            total = sum(counts.values())
            tally = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
            agreement = ("all verdicts agreed" if not disagreements
                         else f"{disagreements} DISAGREEMENTS")
            out.print(f"{total} puzzles checked with {', '.join(specs)}: {tally}; {agreement}",
                      markup=False)
        return Exit.DISAGREEMENT if disagreements else Exit.OK

    _guarded(action)


def _print_verdict(verdict: dict) -> None:
    each = " ".join(f"{spec}={v['status']}({1000 * v['seconds']:.1f}ms)"
                    for spec, v in verdict["specs"].items())
    line = (f"{verdict['index']}\t{verdict['status']}\t"
            f"{'agreed' if verdict['agreed'] else 'DISAGREEMENT'}\t{each}")
    if not verdict["agreed"]:
        line += "\t" + "; ".join(verdict.get("reasons", ()))
    typer.echo(line)


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


@app.command()
def compare(
    files: Annotated[list[str] | None, typer.Argument(
        metavar="[FILE ...]", help="Puzzle files (default: the puzzle sets bundled with the "
                                   "package: 200 9x9 of mixed difficulty and 10 16x16).")] = None,
    solver: SpecsOpt = None,
    limit: Annotated[int, typer.Option(
        "--limit", "-l", min=1, help="Solutions each solver looks for (2 decides "
                                     "uniqueness, 1 only solves).")] = 2,
    size: SizeOpt = None,
    box: BoxOpt = None,
    variant: VariantOpt = None,
    regions: RegionsOpt = None,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", "-t", min=0.0, help="Seconds per puzzle and solver.")] = 10.0,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the table as JSON Lines, one per solver.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print the table as CSV.")] = False,
    plot: Annotated[str | None, typer.Option(
        "--plot", metavar="FILE.png|svg",
        help="Write a cactus plot: puzzles solved against time, one line per solver "
             "(extra 'plot').")] = None,
    jobs: JobsOpt = 1,
    scheduler: SchedulerOpt = None,
    out_file: OutOpt = None,
    resume: ResumeOpt = False,
) -> None:
    """Compare solver strategies on puzzle files: one table row per solver, and whether
    every verdict agreed.

    Default solvers: native, native:rules=singles, sat (cadical195, extended), sat
    (minimal), cpsat (alldiff). Exit codes: 0 all agreed, 7 some disagreed, 6 input error.
    """

    def action() -> Exit:
        specs = _specs(solver, DEFAULT_COMPARE)
        options = _geometry_options(size, box, variant, regions)
        with resources.as_file(resources.files("sudoku_csp") / "data") as data:
            sources = list(files) if files else [str(data / name) for name in BUNDLED]
            src = _source(sources, options)
            if src.single is not None:
                raise InputError(f"no such file: {sources[0]}")
            opts = BatchOptions(jobs, scheduler, out_file, resume)
            summary = Summary()
            total = src.total * len(specs) if src.total is not None else None
            with _Bar(total, "comparing") as bar:
                for record in _records(src, options, specs, limit, time_limit, opts):
                    summary.add(record)
                    bar.advance()
        if out_file and resume:  # the table covers the whole run, not only this part
            summary = Summary()
            for record in read_records(out_file):
                summary.add(record)
        if plot:
            cactus_plot(summary, plot, title=f"{', '.join(map(os.path.basename, sources))}")
        _print_summary(summary, sources, as_json, as_csv)
        return Exit.OK if summary.all_agreed else Exit.DISAGREEMENT

    _guarded(action)


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


def _print_summary(summary: Summary, sources: list[str], as_json: bool, as_csv: bool) -> None:
    rows = [row.as_dict() for row in summary.rows]
    if as_json:
        for row in rows:
            typer.echo(json.dumps(row))
        return
    if as_csv:
        import csv

        writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]) if rows else ["spec"])
        writer.writeheader()
        writer.writerows(rows)
        return
    verdict = ("all solvers agreed on every verdict" if summary.all_agreed
               else f"{len(summary.disagreements)} puzzles with DISAGREEMENTS")
    table = Table(title=f"{', '.join(map(os.path.basename, sources))}: {verdict}")
    for key, heading, _ in COMPARE_COLUMNS:
        table.add_column(heading, justify="left" if key == "spec" else "right", no_wrap=True)
    for row in rows:
        table.add_row(*(str(row[key]) if digits is None else _fmt(row[key], digits)
                        for key, _, digits in COMPARE_COLUMNS))
    table.caption = ("nodes: native search nodes, or sat/cpsat decisions; confl.: native "
                     "backtracks, or conflicts; prop.%: solved by propagation alone")
    # A pipe or a file gets the whole table, not one squeezed to 80 columns.
    wide = out if out.is_terminal else Console(highlight=False, width=200)
    wide.print(table)


@app.command()
def certify(
    source: SourceArg,
    directory: Annotated[str, typer.Argument(metavar="DIR", help="Where to write it.")],
    proof_solver: Annotated[str, typer.Option(
        "--proof-solver", help="PySAT solver that logs the DRUP proof: cadical195 (default), "
                               "cadical153, cadical103, cadical300, glucose3, glucose4, "
                               "glucose42, gluecard3, gluecard4, lingeling, maplechrono, "
                               "maplecm, ergo.")] = "cadical195",
    encoding: Annotated[str, typer.Option(
        "--encoding", "-e", help="CNF encoding of the certificate.")] = "extended",
    size: SizeOpt = None,
    box: BoxOpt = None,
    variant: VariantOpt = None,
    regions: RegionsOpt = None,
) -> None:
    """Write a uniqueness certificate: the solution, the CNF that excludes it, and a DRUP
    proof that this CNF is unsatisfiable.

    Exit codes: 0 written, 3 multiple solutions, 4 none, 6 input error.
    """
    from sudoku_csp import certify as certificates

    def action() -> Exit:
        puzzle = _first_puzzle(source, _geometry_options(size, box, variant, regions))
        try:
            made = certificates.certify(puzzle, directory, solver=proof_solver,
                                        encoding=encoding)
        except certificates.NotUniqueError as exc:
            out.print(f"not unique: {exc}", markup=False)
            return STATUS_EXIT[exc.status]
        out.print(f"unique: certificate in {directory} ({made.lemmas} proof lemmas, "
                  f"{1000 * made.seconds:.1f} ms, {proof_solver})", markup=False)
        return Exit.OK

    _guarded(action)


@app.command("verify-certificate")
def verify_certificate(
    directory: Annotated[str, typer.Argument(metavar="DIR", help="A certificate folder.")],
) -> None:
    """Check a certificate with this project's own RUP checker, trusting no solver: the
    formula is rebuilt from the puzzle and the witness, then every proof lemma is checked.

    Exit codes: 0 valid, 8 invalid, 6 unreadable.
    """
    from sudoku_csp.certify import verify_certificate as check_certificate

    def action() -> Exit:
        if not os.path.isdir(directory):
            raise InputError(f"no such certificate folder: {directory}")
        check = check_certificate(directory)
        if check.ok:
            out.print(f"valid: the puzzle has exactly one solution ({check.checked} lemmas "
                      f"checked in {1000 * check.seconds:.1f} ms)", markup=False)
            return Exit.OK
        out.print(f"INVALID: {check.reason}", markup=False)
        return Exit.INVALID

    _guarded(action)


@app.command()
def minimal(
    source: SourceArg,
    size: SizeOpt = None,
    box: BoxOpt = None,
    variant: VariantOpt = None,
    regions: RegionsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Is each puzzle unique, and is every given necessary? Lists the redundant givens
    (one incremental SAT solver per geometry, givens as assumptions).

    Exit codes (one puzzle): 0 unique and minimal, 3 multiple, 4 none, 9 unique but not
    minimal, 6 input error; files: 0 when all processed.
    """
    from sudoku_csp.generate import minimality

    def action() -> Exit:
        options = _geometry_options(size, box, variant, regions)
        src = _source([source], options)
        puzzles = [src.single] if src.single else read_puzzle_files(src.files, **options)
        code, count = Exit.OK, 0
        for count, puzzle in enumerate(puzzles, start=1):
            found = minimality(puzzle)
            labels = found.labels(puzzle.geometry)
            record = {"index": count, "puzzle": puzzle.to_line(),
                      "status": found.status.value, "minimal": found.minimal,
                      "redundant": labels, "seconds": round(found.seconds, 6)}
            if as_json:
                typer.echo(json.dumps(record))
            else:
                state = ("minimal" if found.minimal else
                         f"redundant: {' '.join(labels)}" if found.unique else "-")
                typer.echo(f"{count}\t{found.status.value}\t{state}\t{puzzle.to_line()}")
            code = (STATUS_EXIT[found.status] if not found.unique
                    else Exit.OK if found.minimal else Exit.NOT_MINIMAL)
        return code if count == 1 else Exit.OK

    _guarded(action)


class Symmetry(str, enum.Enum):
    none = "none"
    rot180 = "rot180"
    rot90 = "rot90"
    mirror = "mirror"
    diagonal = "diagonal"


@app.command()
def generate(
    count: Annotated[int, typer.Option("--count", "-c", min=1, help="How many.")] = 1,
    size: Annotated[int, typer.Option("--size", "-n", help="Grid size N.")] = 9,
    box: BoxOpt = None,
    variant: VariantOpt = None,
    regions: RegionsOpt = None,
    symmetry: Annotated[Symmetry, typer.Option(
        "--symmetry", help="Clues removed in symmetric groups.")] = Symmetry.none,
    minimal: Annotated[bool, typer.Option(
        "--minimal", help="Every given necessary (removing any one makes it ambiguous).")
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="Same seed, same puzzles.")] = 0,
    output: Annotated[str | None, typer.Option(
        "--out", "-o", help="Write the puzzles to this file (one per line) instead of "
                            "standard output.")] = None,
) -> None:
    """Generate unique puzzles (each re-checked by a second backend), minimal and
    symmetric when asked, reproducibly from a seed."""
    from sudoku_csp.generate import generate as make_puzzles

    def action() -> Exit:
        options = _geometry_options(size, box, variant, regions)
        geometry = make_geometry(options["size"], options.get("box"), options["variants"],
                                 options.get("regions"))
        puzzles = make_puzzles(geometry, count=count, seed=seed, symmetry=symmetry.value,
                               minimal=minimal)
        handle = open(output, "w", encoding="utf-8") if output else None
        try:
            if handle:
                handle.write(f"# sudoku-csp generate --count {count} --size {size}"
                             + (f" --box {box}" if box else "")
                             + "".join(f" --variant {v}" for v in variant or ())
                             + f" --symmetry {symmetry.value}"
                             + (" --minimal" if minimal else "") + f" --seed {seed}\n")
            with _Bar(count if count > 1 else None, "generating", always=True) as bar:
                for puzzle in puzzles:
                    line = f"{puzzle.to_line()}\t{puzzle.metadata}"
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
