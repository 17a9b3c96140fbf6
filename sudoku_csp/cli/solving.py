"""Commands that run solvers on puzzles: solve, count, show, check, compare, solvers.

What a command runs is imported when it runs: ``solve PUZZLE`` loads the native solver and
the readers, not the batch runner, the other backends or matplotlib (see
:mod:`sudoku_csp.cli.app`)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated

import typer

from sudoku_csp.backends.registry import DEFAULT_SPEC
from sudoku_csp.cli.app import app
from sudoku_csp.cli.exits import STATUS_EXIT, Exit, err, guarded
from sudoku_csp.cli.options import (
    BatchOptions,
    BranchOpt,
    OnePuzzleArg,
    Printing,
    Reading,
    RulesOpt,
    SolverOpt,
    SourceArg,
    SpecsOpt,
    TimeOpt,
    bundled,
    check_output_path,
    completes,
    listed,
    outcomes,
    output_format,
    solver_spec,
)
from sudoku_csp.cli.output import (
    COMPARE_COLUMNS,
    Bar,
    candidate_grid,
    columns_option,
    emit,
    out,
    pick_columns,
    print_record,
    print_record_as,
    print_records_header,
    print_single,
    print_summary,
    print_verdict,
    styled_grid,
    write_output,
    writes_stdout,
)
from sudoku_csp.io import WRITERS

if TYPE_CHECKING:
    from sudoku_csp.batch import Record, RecordFormat, Verdict
    from sudoku_csp.batch.runner import Spec
    from sudoku_csp.cli.conflicts import ConflictReports
    from sudoku_csp.io import Source

BUNDLED = ("mixed9", "sixteen")  # sudoku_csp.datasets names: compare's default puzzle sets


def _run(source: str, options: dict, spec: str, limit: int | None, time_limit: float | None,
         fmt: RecordFormat | None, opts: BatchOptions) -> Exit:
    """solve and count: a drawn grid for one puzzle, else one line per puzzle, or its record
    as JSON or CSV (``fmt``)."""
    from sudoku_csp.backends.registry import get_backend
    from sudoku_csp.cli.conflicts import ConflictReports, print_conflict
    from sudoku_csp.deadline import Deadline
    from sudoku_csp.io import resolve_source
    from sudoku_csp.result import Status

    src = resolve_source([source], options, count=err.is_terminal)
    if src.single is not None and not opts.out and fmt is None:  # a grid to draw
        # One deadline for the verdict and the conflict report after it.
        deadline = Deadline.from_start(time_limit)
        result = get_backend(spec).solve(src.single, limit=limit, time_limit=deadline)
        print_single(src.single, result, counted_all=limit is None)
        if result.status is Status.NONE:
            print_conflict(src.single, deadline)
        return STATUS_EXIT[result.status]
    return stream_records(src, options, spec, limit, time_limit, fmt, opts,
                          conflicts=ConflictReports(time_limit))


def stream_records(src: Source, options: dict, spec: Spec, limit: int | None,
                   time_limit: float | None, fmt: RecordFormat | None,
                   opts: BatchOptions, *, label: str = "solving",
                   line: Callable[[Record], None] = print_record,
                   conflicts: ConflictReports | None = None) -> Exit:
    """Run one spec over the input under a progress bar, printing each record as it comes:
    as JSON or CSV (``fmt``), else by ``line``. With ``conflicts``, a puzzle with no
    solution gets its conflicting parts: in its JSON record (``conflict``...), or after its
    line (CSV rows keep their columns). The exit code: internal error if the spec
    gave a wrong answer, the verdict's for a one-puzzle input, else OK (solve, count,
    rate)."""
    from sudoku_csp.crosscheck import ERROR, Verdict

    seen: list[Record] = []  # the first two, to tell a one-puzzle input
    wrong = 0
    found = outcomes(src, options, [spec], limit, time_limit, opts)  # --out checked: no line yet
    if fmt:
        print_records_header(fmt)
    with found as (run, done), Bar(src.total, label, done=done) as bar:
        for outcome in run:
            (record,) = outcome.records
            why = conflicts if conflicts and record.status is Verdict.NONE else None
            if fmt == "jsonl" and why:
                emit(json.dumps({**record.as_dict(),
                                 **why.fields(outcome.puzzle_as_read(), record.seconds)},
                                separators=(",", ":"), default=str) + "\n")
            elif fmt:
                print_record_as(record, fmt)
            elif why:  # the conflict in the line's last column, where a message goes
                said = "; ".join(filter(None, (record.message,
                                               why.message(outcome.puzzle_as_read(),
                                                           record.seconds))))
                line(replace(record, message=said))
            else:
                line(record)
            bar.advance()
            wrong += record.status is ERROR
            if len(seen) < 2:
                seen.append(record)
    if wrong:  # the batch runner keeps going past a wrong answer; the exit code may not
        name = spec if isinstance(spec, str) else spec.spec
        err.print(f"internal error: {wrong} wrong answers from {name} (status 'error')",
                  markup=False)
        return Exit.INTERNAL
    if len(seen) == 1:
        return _exit_of(seen[0].status)
    return Exit.OK


def _exit_of(verdict: Verdict) -> Exit:
    """The exit code of a one-puzzle input's verdict (never ``error`` or ``disagreement``:
    those are told apart before)."""
    status = verdict.status
    assert status is not None, verdict
    return STATUS_EXIT[status]


@app.command()
@bundled
def solve(
    source: SourceArg,
    *,
    reading: Reading,
    solver: SolverOpt = DEFAULT_SPEC,
    rules: RulesOpt = None,
    branch: BranchOpt = None,
    time_limit: TimeOpt = None,
    printing: Printing,
    batch: BatchOptions,
) -> None:
    """Solve puzzles: a grid for one, a line each for a file.

    Exit codes: 0 solved, 4 none, 5 unknown, 6 input error (files: 0 when all processed).
    """
    guarded(lambda: _run(source, reading.options(constraints=True),
                         solver_spec(solver, rules, branch), 1, time_limit, printing.format,
                         batch))


@app.command()
@bundled
def count(
    source: SourceArg,
    *,
    limit: Annotated[int, typer.Option(
        "--limit", "-l", min=0,
        help="Solutions to look for: 2 decides uniqueness; 0 counts them all.")] = 2,
    reading: Reading,
    solver: SolverOpt = DEFAULT_SPEC,
    rules: RulesOpt = None,
    branch: BranchOpt = None,
    time_limit: TimeOpt = None,
    printing: Printing,
    batch: BatchOptions,
) -> None:
    """Decide uniqueness: unique, multiple, none or unknown.

    Exit codes (one puzzle): 0 unique, 3 multiple, 4 none, 5 unknown, 6 input error.
    """
    guarded(lambda: _run(source, reading.options(constraints=True),
                         solver_spec(solver, rules, branch), limit or None, time_limit,
                         printing.format, batch))


@app.command()
@bundled
def show(
    source: OnePuzzleArg,
    *,
    candidates: Annotated[bool, typer.Option(
        "--candidates", "-c", help="Show the candidates left after propagation.")] = False,
    reading: Reading,
    rules: RulesOpt = None,
    svg: Annotated[str | None, typer.Option(
        "--svg", metavar="FILE|-", help="Also write the grid as an SVG picture, typed "
                                        "constraints drawn (with --candidates, the candidates "
                                        "left); - writes only the picture, to standard "
                                        "output.")] = None,
    to: Annotated[str | None, typer.Option(
        "--to", metavar="FORMAT", autocompletion=completes(WRITERS),
        help=f"Print the puzzle in another form instead: {listed(WRITERS)}.")] = None,
    conflict: Annotated[bool, typer.Option(
        "--conflict", help="For a puzzle with no solution, name the givens and constraints "
                           "that conflict, highlighted in the --svg picture.")] = False,
) -> None:
    """Show a puzzle: its grid, rules and (-c) candidates left.

    With --conflict, a puzzle that has no solution also gets a minimal set of its parts
    that cannot hold together (exit 4); one that has a solution exits 0.
    """

    if to is not None and to not in WRITERS:
        raise typer.BadParameter(f"{to!r}: choose from {listed(WRITERS)}", param_hint="'--to'")

    def action() -> Exit:
        from sudoku_csp.cli.conflicts import conflict_of
        from sudoku_csp.constraints import rule_lines
        from sudoku_csp.constraints.wording import counted
        from sudoku_csp.io import first_puzzle
        from sudoku_csp.native import DEFAULT_RULES, propagate_puzzle

        if svg is not None:
            check_output_path(svg, "--svg")
        puzzle = first_puzzle(source, reading.options(constraints=True))
        if to is not None:
            emit(WRITERS[to](puzzle) + "\n")
            return Exit.OK
        preset = rules or DEFAULT_RULES
        state = propagate_puzzle(puzzle, preset) if candidates else None
        why = conflict_of(puzzle, None) if conflict else None
        if why is not None and not why.proven:  # no answer in time: solvable or not
            broken = Exit.UNKNOWN
        elif why is not None or (candidates and state is None):
            broken = Exit.NONE
        else:
            broken = Exit.OK
        if svg is not None:
            from sudoku_csp.render import grid_svg

            picture = grid_svg(puzzle.geometry, puzzle.givens, state.grid() if state else None,
                               state.cand if state else None, constraints=puzzle.constraints,
                               highlights=why.highlights() if why is not None else None)
            write_output(svg, picture)
            if writes_stdout(svg):  # the picture alone: a stream another program reads
                return broken
        out.print(f"{puzzle.geometry.name}, {counted(puzzle.clue_count, 'given')}")
        for line in rule_lines(puzzle.geometry, puzzle.constraints):  # what the grid cannot show
            out.print(line, markup=False)
        out.print(styled_grid(puzzle, puzzle.givens))
        if conflict:
            out.print(why.message() if why else "the puzzle has a solution: no conflict",
                      markup=False)
            if not candidates:
                return broken
        if not candidates:
            return Exit.OK
        out.print()
        if state is None:
            clashes = puzzle.clashes()
            out.print("contradiction: " + (puzzle.describe_clash(clashes[0]) if clashes
                                           else "propagation empties a cell or a unit"))
            return Exit.NONE
        out.print(f"candidates after {preset} propagation:")
        out.print(candidate_grid(state), markup=False)
        return broken

    guarded(action)


@app.command()
@bundled
def check(
    source: SourceArg,
    *,
    solver: SpecsOpt = None,
    limit: Annotated[int, typer.Option(
        "--limit", "-l", min=1, help="Solutions each solver looks for (2 decides "
                                     "uniqueness).")] = 2,
    reading: Reading,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", "-t", min=0.0,
        help="Seconds per puzzle and solver (the solvers run one after another); past it "
             "that solver's verdict is unknown.")] = None,
    race: Annotated[bool, typer.Option(
        "--race", help="Run a puzzle's solvers at the same time, each in a process of its "
                       "own: every one still decides (a cross-check), in the time of the "
                       "slowest rather than their sum.")] = False,
    printing: Printing,
    batch: BatchOptions,
) -> None:
    """Cross-check puzzles on several solvers: do they agree?

    Every backend by default (native, sat and cpsat); a disagreement is printed with what
    contradicts what. A verdict is agreed when two solvers or more decided it and none
    contradicts it; one that a single solver decided (the others ran out of time) says
    "decided by one backend": nothing checked it.

    --json prints one verdict per puzzle, the specs nested, with how many decided; --csv the
    flat records, one row per puzzle and solver, as --out FILE.csv writes them.

    Exit codes: 0 every verdict agreed, 7 some solvers disagreed, 5 some verdict was decided
    by fewer than two solvers (not cross-checked), 6 input error; for an input of one
    puzzle, its agreed verdict's code (0 unique/solved, 3 multiple, 4 none), or 5 when
    fewer than two solvers decided it.
    """
    fmt = printing.format

    def action() -> Exit:
        from sudoku_csp.backends.registry import BACKENDS
        from sudoku_csp.batch import Verdict
        from sudoku_csp.cli.conflicts import ConflictReports
        from sudoku_csp.io import resolve_source

        specs = list(solver or BACKENDS)
        last = Verdict.UNKNOWN
        options = reading.options(constraints=True)
        src = resolve_source([source], options, count=err.is_terminal)
        counts: dict[Verdict, int] = {}
        disagreements = unchecked = 0
        found = outcomes(src, options, specs, limit, time_limit, batch, concurrent=race)
        if fmt == "csv":
            print_records_header(fmt)
        conflicts = ConflictReports(time_limit)
        with found as (run, done), Bar(src.total, "checking", done=done) as bar:
            for outcome in run:
                last = outcome.verdict
                counts[last] = counts.get(last, 0) + 1
                disagreements += last is Verdict.DISAGREEMENT
                unchecked += last is not Verdict.DISAGREEMENT and not outcome.agreed
                verdict = outcome.as_dict(limit)
                # The report gets what the slowest solver left of the puzzle's time.
                spent = max((r.seconds for r in outcome.records), default=0.0)
                if last is Verdict.NONE and fmt != "csv":
                    verdict.update(conflicts.fields(outcome.puzzle_as_read(), spent))
                if fmt == "jsonl":
                    emit(json.dumps(verdict) + "\n")
                elif fmt == "csv":
                    for record in outcome.records:
                        print_record_as(record, fmt)
                else:
                    print_verdict(verdict, conflicts.message(outcome.puzzle_as_read(), spent)
                                  if last is Verdict.NONE else "")
                bar.advance()
        if fmt is None:
            from sudoku_csp.constraints.wording import counted

            total = sum(counts.values())
            tally = ", ".join(f"{n} {verdict}" for verdict, n in
                              sorted(counts.items(), key=lambda item: item[0].value))
            short = []
            if disagreements:
                short.append(counted(disagreements, "DISAGREEMENT"))
            if unchecked:
                short.append(f"{unchecked} decided by fewer than two backends (not "
                             "cross-checked)")
            err.print(f"{counted(total, 'puzzle')} checked with {', '.join(specs)}: {tally}; "
                      f"{'; '.join(short) or 'all verdicts agreed'}", markup=False)
        if disagreements:
            return Exit.DISAGREEMENT
        if unchecked:  # a verdict nothing checked is not what a cross-check promises
            return Exit.UNKNOWN
        if sum(counts.values()) == 1:  # one puzzle: its verdict, as solve and count do
            return _exit_of(last)
        return Exit.OK

    guarded(action)


@app.command()
@bundled
def compare(
    files: Annotated[list[str] | None, typer.Argument(
        metavar="[FILE ...]", help="Puzzle files, or one puzzle given alone (default: the "
                                   "puzzle sets bundled with the package: 200 9x9 of mixed "
                                   "difficulty and 10 16x16).")] = None,
    *,
    solver: SpecsOpt = None,
    limit: Annotated[int, typer.Option(
        "--limit", "-l", min=1, help="Solutions each solver looks for (2 decides "
                                     "uniqueness, 1 only solves).")] = 2,
    reading: Reading,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", "-t", min=0.0, help="Seconds per puzzle and solver.")] = 10.0,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the table as JSON Lines, one per solver.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print the table as CSV.")] = False,
    columns: Annotated[str | None, columns_option(COMPARE_COLUMNS)] = None,
    plot: Annotated[str | None, typer.Option(
        "--plot", metavar="FILE.png|svg",
        help="Write a cactus plot: puzzles solved against time, one line per solver "
             "(extra 'plot').")] = None,
    batch: BatchOptions,
) -> None:
    """Compare solver strategies on files: a row per solver.

    The title says whether every verdict agreed (two solvers or more decided it, none
    contradicting), and how many puzzles fewer than two solvers decided.

    Default solvers: native, native:rules=singles, sat (cadical195, extended), sat
    (minimal), cpsat (alldiff). Exit codes: 0 no solver contradicted another, 7 some
    disagreed, 6 input error.
    """
    output_format(as_json, as_csv)  # not both

    def action() -> Exit:
        from sudoku_csp import datasets
        from sudoku_csp.backends.registry import compare_specs
        from sudoku_csp.batch import Summary, cactus_plot, iter_records
        from sudoku_csp.batch.plot import check_plot_path
        from sudoku_csp.io import resolve_source

        chosen = pick_columns(COMPARE_COLUMNS, columns)  # now, not after the whole run
        specs = list(solver or compare_specs())
        options = reading.options(constraints=True)
        if plot:
            check_plot_path(plot)  # now, not after the whole run
        sources = list(files) if files else [str(datasets.path(name)) for name in BUNDLED]
        src = resolve_source(sources, options, count=err.is_terminal)
        if src.single is not None:  # a puzzle given alone, named in the title by its kind
            sources = [f"the {src.single.geometry.name} puzzle given"]
        summary = Summary()
        with outcomes(src, options, specs, limit, time_limit, batch) as (run, done), \
                Bar(src.total, "comparing", done=done) as bar:
            for outcome in run:
                summary.update([outcome])
                bar.advance()
        if batch.out and batch.resume:  # the table covers the whole run, not only this part
            summary = Summary().update(iter_records(batch.out))
        if plot:
            cactus_plot(summary, plot, title=f"{', '.join(map(os.path.basename, sources))}")
        print_summary(summary, sources, as_json, as_csv, chosen)
        return Exit.DISAGREEMENT if summary.disagreements else Exit.OK

    guarded(action)


@app.command()
def solvers() -> None:
    """List every backend, its options and their values."""
    from rich.table import Table

    from sudoku_csp.backends.registry import list_backends

    table = Table(title="backends (spec: name:key=value,...)")
    table.add_column("backend", style="bold")
    table.add_column("what it is")
    table.add_column("options")
    for cls in list_backends(portfolios=True):
        options = "\n".join(o.describe() for o in cls.all_options()) or "-"
        table.add_row(cls.name, cls.description, options)
    out.print(table)
