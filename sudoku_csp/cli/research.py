"""Commands for research and publishing: encode, certify, verify-certificate, minimal,
canon, study.

The tables of the options' help are imported here; what a command runs is imported when it
runs (see :mod:`sudoku_csp.cli.app`)."""

from __future__ import annotations

import itertools
import json
import os
import sys
from typing import Annotated

import typer

from sudoku_csp.certify import DEFAULT_PROOF_SOLVER, PROOF_SOLVERS
from sudoku_csp.cli.app import app
from sudoku_csp.cli.exits import STATUS_EXIT, Exit, err, guarded
from sudoku_csp.cli.options import (
    ONE_PUZZLE_HELP,
    JsonOpt,
    OnePuzzleArg,
    Reading,
    SourceArg,
    bundled,
    completes,
    listed,
    output_format,
)
from sudoku_csp.cli.output import (
    STDOUT,
    Bar,
    Column,
    columns_option,
    out,
    pick_columns,
    write_output,
)
from sudoku_csp.cli.study_tables import OPTIONS_COLUMNS, options_study, print_study
from sudoku_csp.constraints import encoding_options
from sudoku_csp.constraints.wording import counted
from sudoku_csp.encodings.cnf import AMO_CHOICES, DEFAULT_AMO, DEFAULT_ENCODING, Encoding
from sudoku_csp.errors import InputError

EncodingOpt = Annotated[str, typer.Option(
    "--encoding", "-e", autocompletion=completes(e.value for e in Encoding),
    help=f"CNF encoding: {listed(e.value for e in Encoding)}.")]
AmoOpt = Annotated[str, typer.Option(
    "--amo", autocompletion=completes(AMO_CHOICES),
    help=f"At-most-one encoding from pysat.card: {listed(AMO_CHOICES)}.")]
SUMS = encoding_options()["sums"]
"""The encoding option ``--sums`` sets (the kinds declare their options; cages this one)."""
SumsOpt = Annotated[str, typer.Option(
    "--sums", autocompletion=completes(SUMS.choices),
    help=f"Encoding of killer cage sums: {listed(SUMS.choices)}.")]
RESEARCH_SECONDS = 300.0
"""The bound encode and certify put on a run unless told otherwise (the empty 35x35 grid,
the largest, takes a few seconds to encode and about ten to certify: a run far beyond that
is stuck, not working)."""
ResearchTimeOpt = Annotated[float, typer.Option(
    "--time-limit", "-t", min=0.0,
    help="Seconds in all; past it nothing is written (unknown, exit 5).")]
ProofSolverOpt = Annotated[str, typer.Option(
    "--proof-solver", autocompletion=completes(PROOF_SOLVERS),
    help=f"PySAT solver that logs the DRUP proof: {listed(PROOF_SOLVERS)}.")]


@app.command()
@bundled
def encode(
    source: Annotated[str | None, typer.Argument(
        metavar="[PUZZLE|FILE|-]", help=ONE_PUZZLE_HELP)] = None,
    *,
    encoding: EncodingOpt = DEFAULT_ENCODING.value,
    amo: AmoOpt = DEFAULT_AMO,
    sums: SumsOpt = SUMS.default,
    reduce: Annotated[bool, typer.Option(
        "--reduce", help="Clue-reduced: drop clauses the givens satisfy and literals they "
                         "falsify, instead of adding the givens as unit clauses.")] = False,
    output: Annotated[str | None, typer.Option(
        "--output", "-o", metavar="FILE|-",
        help="Write to this file instead of standard output (-).")] = None,
    empty: Annotated[str | None, typer.Option(
        "--empty", metavar="DIR",
        help="Regenerate the reference files of DIR (e.g. encodings/): DIMACS of the empty "
             "grids and the CP-SAT models.")] = None,
    reading: Reading,
    time_limit: ResearchTimeOpt = RESEARCH_SECONDS,
) -> None:
    """Write a puzzle as DIMACS CNF, its typed constraints too.

    Givens as unit clauses, or clue-reduced; killer cages and other constraints add their
    clauses (--sums: the cage-sum encoding). Exit codes: 0 written, 5 the time limit came
    first (nothing written), 6 input error."""

    def action() -> Exit:
        from sudoku_csp.deadline import Deadline
        from sudoku_csp.encodings import cnf, cpsat, dimacs
        from sudoku_csp.encodings import reference as reference_files
        from sudoku_csp.io import first_puzzle

        if empty is not None:
            written = reference_files.write_reference_files(empty) + cpsat.export_models(empty)
            for path in written:
                err.print(f"wrote {path}", markup=False)
            return Exit.OK
        if source is None:
            raise InputError("give a puzzle to encode, or --empty DIR")
        cnf.encoding_of(encoding)  # before reading the puzzle: the option is wrong either way
        cnf.amo_of(amo)
        puzzle = first_puzzle(source, reading.options(constraints=True))
        text = dimacs.encode_puzzle_dimacs(puzzle, encoding, amo, reduce=reduce,
                                           options={SUMS.name: sums},
                                           time_limit=Deadline.from_start(time_limit))
        write_output(output or STDOUT, text)
        return Exit.OK

    guarded(action)


@app.command()
@bundled
def certify(
    source: OnePuzzleArg,
    directory: Annotated[str, typer.Argument(metavar="DIR", help="Where to write it.")],
    *,
    proof_solver: ProofSolverOpt = DEFAULT_PROOF_SOLVER,
    encoding: EncodingOpt = DEFAULT_ENCODING.value,
    sums: SumsOpt = SUMS.default,
    reading: Reading,
    time_limit: ResearchTimeOpt = RESEARCH_SECONDS,
) -> None:
    """Certify uniqueness: the solution, a CNF, a DRUP proof.

    The CNF excludes the solution (with the clauses of killer cages and other
    constraints); the proof shows it unsatisfiable.

    Exit codes: 0 written, 3 multiple solutions, 4 none, 5 the time limit came first
    (nothing written), 6 input error.
    """
    def action() -> Exit:
        from sudoku_csp import certify as certificates
        from sudoku_csp.deadline import Deadline
        from sudoku_csp.io import first_puzzle

        deadline = Deadline.from_start(time_limit)

        puzzle = first_puzzle(source, reading.options(constraints=True))
        try:
            made = certificates.certify(puzzle, directory, solver=proof_solver,
                                        encoding=encoding, options={SUMS.name: sums},
                                        time_limit=deadline)
        except certificates.NotUniqueError as exc:
            out.print(f"not unique: {exc}", markup=False)
            return STATUS_EXIT[exc.status]
        out.print(f"unique: certificate in {directory} ({made.lemmas} proof lemmas, "
                  f"{1000 * made.seconds:.1f} ms, {made.solver})", markup=False)
        return Exit.OK

    guarded(action)


@app.command("verify-certificate")
def verify_certificate(
    directory: Annotated[str, typer.Argument(metavar="DIR", help="A certificate folder.")],
) -> None:
    """Check a certificate by RUP, trusting no solver.

    The formula is rebuilt from the puzzle and the witness, then every proof lemma is
    checked.

    Exit codes: 0 valid, 8 invalid (read, and wrong), 6 unreadable (the folder or a file is
    missing, not a regular file directly inside it, or over its size limit).
    """
    def action() -> Exit:
        from sudoku_csp.certify import verify_certificate as check_certificate

        if not os.path.isdir(directory):
            raise InputError(f"no such certificate folder: {directory}")
        check = check_certificate(directory)
        if check.unreadable:
            raise InputError(check.reason)  # guarded: one line on stderr, exit 6
        if check.ok:
            out.print("valid: the puzzle has exactly one solution "
                      f"({counted(check.checked, 'lemma')} "
                      f"checked in {1000 * check.seconds:.1f} ms)", markup=False)
            return Exit.OK
        out.print(f"INVALID: {check.reason}", markup=False)
        return Exit.INVALID

    guarded(action)


MINIMAL_SECONDS = 300.0
"""The bound ``minimal`` puts on each puzzle unless told otherwise."""


@app.command()
@bundled
def minimal(
    source: SourceArg,
    *,
    reading: Reading,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", "-t", min=0.0,
        help="Seconds per puzzle; past it the line says what was settled: the verdict "
             "unknown, or the givens left undecided (exit 5).")] = MINIMAL_SECONDS,
    as_json: JsonOpt = False,
) -> None:
    """Is each puzzle unique, and is every given necessary?

    Lists the redundant givens (one incremental SAT solver per geometry, givens as
    assumptions). Killer cages and
    other constraints (killer lines, JSON) are in force: a given they imply is redundant.

    Exit codes (one puzzle): 0 unique and minimal, 3 multiple, 4 none, 9 unique but not
    minimal, 5 unknown or givens left undecided at the time limit, 6 input error; files: 0
    when all processed.
    """
    def action() -> Exit:
        from sudoku_csp.deadline import Deadline
        from sudoku_csp.generate import minimality
        from sudoku_csp.io import read_puzzle_files, resolve_source, to_line

        first = Deadline.from_start(time_limit)  # the first puzzle's; then one per puzzle
        options = reading.options(constraints=True)
        src = resolve_source([source], options, count=False)
        puzzles = [src.single] if src.single else read_puzzle_files(src.files, **options)
        code, count = Exit.OK, 0
        for count, puzzle in enumerate(puzzles, start=1):
            found = minimality(puzzle, time_limit=first if count == 1 else time_limit)
            labels = found.labels(puzzle.geometry)
            undecided = found.labels(puzzle.geometry, found.undecided)
            if as_json:
                typer.echo(json.dumps({
                    "index": count, "puzzle": to_line(puzzle), "status": found.status.value,
                    "minimal": found.minimal, "redundant": labels,
                    **({} if found.complete else {"complete": False, "undecided": undecided}),
                    "seconds": round(found.seconds, 6)}))
            else:
                state = ("minimal" if found.minimal else
                         f"redundant: {' '.join(labels) or '-'}" if found.unique else "-")
                if undecided:
                    state += f"; time limit: undecided {' '.join(undecided)}"
                typer.echo(f"{count}\t{found.status.value}\t{state}\t{to_line(puzzle)}")
            code = (STATUS_EXIT[found.status] if not found.unique
                    else Exit.UNKNOWN if not found.complete and not found.redundant
                    else Exit.OK if found.minimal else Exit.NOT_MINIMAL)
        return code if count == 1 else Exit.OK

    guarded(action)


@app.command()
@bundled
def canon(
    source: SourceArg,
    *,
    dedupe: Annotated[bool, typer.Option(
        "--dedupe", help="Drop every puzzle equivalent to an earlier one (prints the kept "
                         "ones' canonical forms; how many were dropped goes to stderr).")
    ] = False,
    reading: Reading,
    as_json: JsonOpt = False,
) -> None:
    """Print each puzzle's minlex canonical form.

    Blanks as '.': the smallest grid its symmetries reach (transposition; band, stack,
    row-in-band and column-in-stack orders; digit relabelling). Equivalent puzzles, and only
    they, print the same line.

    --json: a record per puzzle (index, puzzle, canonical; with --dedupe, duplicate_of: the
    index of the first equivalent puzzle, null for a kept one). Standard grids up to 9x9;
    variants, jigsaws and typed constraints are refused, and so is a puzzle whose givens
    clash (no Sudoku), before any search.

    Exit codes: 0 every puzzle processed, 6 input error.
    """
    def action() -> Exit:
        from sudoku_csp.canon import canonical as canonical_form
        from sudoku_csp.io import read_puzzle_files, resolve_source, to_line

        options = reading.options()
        src = resolve_source([source], options, count=False)
        puzzles = [src.single] if src.single else read_puzzle_files(src.files, **options)
        first: dict[str, int] = {}  # canonical line -> index of its first puzzle
        total = dropped = 0
        for total, puzzle in enumerate(puzzles, start=1):
            clashes = puzzle.clashes()
            if clashes:  # no Sudoku; and '1'*81 has symmetries enough to search for minutes
                where = "" if src.single else f"puzzle {total}: "
                raise InputError(f"{where}{puzzle.describe_clash(clashes[0])}: a puzzle whose "
                                 "givens clash has no canonical form here")
            line = to_line(canonical_form(puzzle))
            earlier = first.setdefault(line, total) if dedupe else total
            dropped += earlier != total
            if as_json:
                record: dict[str, object] = {"index": total, "puzzle": to_line(puzzle),
                                             "canonical": line}
                if dedupe:
                    record["duplicate_of"] = earlier if earlier != total else None
                typer.echo(json.dumps(record))
            elif earlier == total:
                typer.echo(line)
        if dedupe:
            err.print(f"kept {total - dropped} of {counted(total, 'puzzle')}; {dropped} "
                      "dropped as equivalent to an earlier one", markup=False)
        return Exit.OK

    guarded(action)


# -- the encodings study (sudoku_csp.study) ---------------------------------------------------
_STUDY_COLUMNS: tuple[Column, ...] = (
    ("method", "method", None, 0), ("solver", "solver", None, 0), ("variables", "vars", 0, 2),
    ("clauses", "clauses", 0, 2), ("literals", "literals", 0, 5),
    ("propagation_pct", "UP %", 1, 1), ("same_as", "UP solves what … does", None, 5),
    ("probing_pct", "probe %", 1, 2), ("probe_ms", "probe ms", 2, 5),
    ("no_decision_pct", "no dec. %", 1, 3), ("decisions_mean", "dec.", 2, 1),
    ("decisions_median", "dec. med.", 1, 4), ("conflicts_mean", "confl.", 2, 3),
    ("conflicts_median", "confl. med.", 1, 4), ("propagations_mean", "props", 0, 5),
    ("puzzles_per_s", "puz/s", 0, 3),
)
"""The study's table: tdoku's columns (size, UP %, probing, decisions) first on a narrow
terminal, then what searching cost."""

STUDY_SECONDS_PER_PUZZLE = 60.0
"""The bound ``study`` puts on a run unless told otherwise: this many seconds per puzzle
studied, for the whole run (docs/study.md's 1,000 17-clue puzzles take 2 minutes of their
16 hours; one empty 16x16 grid, whose CaDiCaL search on ``minimal`` runs for minutes, gets
one minute)."""

_STUDY_NOTES = (
    (("propagation_pct", "same_as"), "UP: unit propagation alone (native: the preset's rules)"),
    (("probing_pct", "probe_ms"), "probe: failed-literal probing"),
    (("decisions_mean", "decisions_median", "conflicts_mean", "conflicts_median",
      "propagations_mean"), "dec./confl./props: per puzzle, finding the solution and proving "
                            "it unique (MiniSat: tdoku's guesses)"),
    (("no_decision_pct",), "no dec.: puzzles solved with no decision"),
    (("puzzles_per_s",), "puz/s: that search, clue-reduced rows with building the formula"),
)
"""The study table's caption, a part per column it explains (shown with that column)."""


@app.command()
@bundled
def study(
    files: Annotated[list[str], typer.Argument(
        metavar="FILE ...", help="Puzzle files (one geometry; - is standard input).")],
    *,
    encoding: Annotated[list[str] | None, typer.Option(
        "--encoding", "-e", help="Encoding to study, repeatable (default: every one).")] = None,
    amo: Annotated[list[str] | None, typer.Option(
        "--amo", help=f"At-most-one encoding, repeatable (default {DEFAULT_AMO}).")] = None,
    reduced: Annotated[list[str] | None, typer.Option(
        "--reduced", help="Encoding whose clue-reduced formulas to study (a new one per "
                          "puzzle), repeatable (default: the default encoding).")] = None,
    no_reduced: Annotated[bool, typer.Option(
        "--no-reduced", help="No clue-reduced rows.")] = False,
    rules: Annotated[list[str] | None, typer.Option(
        "--rules", help="Native preset (or rules joined by '+') shown beside them, "
                        "repeatable (default: eliminate, singles, locked, pairs, full).")
    ] = None,
    no_native: Annotated[bool, typer.Option("--no-native", help="No native rows.")] = False,
    solver: Annotated[list[str] | None, typer.Option(
        "--solver", "-s", help="PySAT solver that searches, repeatable (default: minisat22, "
                               "to compare with tdoku's table, and cadical195).")] = None,
    no_search: Annotated[bool, typer.Option(
        "--no-search", help="Propagation and probing only (no decisions columns).")] = False,
    no_probing: Annotated[bool, typer.Option(
        "--no-probing", help="Skip failed-literal probing.")] = False,
    limit: Annotated[int | None, typer.Option(
        "--limit", "-l", min=1, help="Study only the first N puzzles.")] = None,
    shuffle: Annotated[int | None, typer.Option(
        "--shuffle", metavar="SEED", help="Study the puzzles in a random order (before "
        "--limit: a random sample). Solvers keep what they learn from one puzzle for the "
        "next, so order matters; tdoku's benchmark shuffles when a solver is slow.")] = None,
    spec: Annotated[list[str] | None, typer.Option(
        "--spec", metavar="SPEC", help="Study the kinds' encoding options: a backend spec "
        "to measure, repeatable (the default on puzzles with typed constraints: each backend, "
        "then with each family of implied constraints off, all off, and line_sums=groups "
        "where the puzzles' kinds offer it).")] = None,
    reading: Reading,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the table as JSON Lines, one per row.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print the table as CSV.")] = False,
    columns: Annotated[str | None, columns_option(  # both tables' fields, each once
        tuple({c[0]: c for c in _STUDY_COLUMNS + OPTIONS_COLUMNS}.values()))] = None,
    plot: Annotated[str | None, typer.Option(
        "--plot", metavar="FILE.png|svg|pdf",
        help="Also write a plot: share solved without search, and decisions per puzzle, per "
             "encoding (extra 'plot').")] = None,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", "-t", min=0.0, metavar="SECONDS",
        help=f"Seconds for the whole study (default {STUDY_SECONDS_PER_PUZZLE:g} per "
             "puzzle); past it the study stops, prints the rows measured on every puzzle, "
             "names the others and exits 5.")] = None,
) -> None:
    """Encodings study: propagation and search per encoding.

    tdoku's benchmark table, and more: per CNF encoding and at-most-one, its size, the share
    of puzzles unit propagation alone solves, and failed-literal probing; then, per PySAT
    solver, decisions, conflicts and propagations to solve and prove uniqueness, and puzzles
    per second; beside them the native presets.

    On puzzles with typed constraints (or with --spec), the kinds' encoding options instead:
    a row per backend spec (sat:hidden=off), measured deciding uniqueness, with its size,
    propagation share, counters, time and its effect against its backend's first row.

    Exit codes: 0 done, 5 time limit reached, or a --spec that cannot decide a puzzle (a
    node budget, search=off; the rows measured are printed), 6 input error (also: --plot
    without matplotlib).
    """
    from collections.abc import Sequence

    output_format(as_json, as_csv)  # not both

    def seconds(puzzles: int) -> float:
        return STUDY_SECONDS_PER_PUZZLE * max(1, puzzles) if time_limit is None else time_limit

    def action() -> Exit:
        from sudoku_csp import study as studies
        from sudoku_csp.batch.plot import check_plot_path
        from sudoku_csp.io import read_puzzle_files

        options = reading.options(constraints=True)
        sources = [sys.stdin if name == "-" else name for name in files]
        for name in files:
            if name != "-" and not os.path.isfile(name):
                raise InputError(f"no such puzzle file: {name}")
        stream = read_puzzle_files(sources, **options)
        if shuffle is not None:
            import random

            every = list(stream)
            random.Random(shuffle).shuffle(every)
            stream = iter(every)
        puzzles = list(itertools.islice(stream, limit))
        if spec or any(puzzle.constraints for puzzle in puzzles):
            encodings_only = [flag for flag, given in (
                ("--encoding", encoding), ("--amo", amo), ("--reduced", reduced),
                ("--no-reduced", no_reduced), ("--rules", rules), ("--no-native", no_native),
                ("--solver", solver), ("--no-search", no_search), ("--no-probing", no_probing),
                ("--plot", plot)) if given]
            if encodings_only:
                raise InputError(f"{encodings_only[0]} is an option of the encodings study, "
                                 "of puzzles without typed constraints; the kinds' options "
                                 "are studied by backend spec (--spec)")
            return options_study(puzzles, spec, files, seconds(len(puzzles)), as_json,
                                 as_csv, columns)
        chosen = pick_columns(_STUDY_COLUMNS, columns)
        if plot:
            check_plot_path(plot, "study plot")
        asked: dict[str, Sequence[str]] = {
            "encodings": encoding or studies.ALL_ENCODINGS,
            "amos": amo or (DEFAULT_AMO,),
            "reduced": () if no_reduced else (reduced or studies.STUDY_REDUCED),
            "rules": () if no_native else (rules or studies.STUDY_PRESETS),
            "solvers": () if no_search else (solver or studies.STUDY_SOLVERS),
        }
        studies.methods(asked["encodings"], asked["amos"], asked["reduced"], asked["rules"])
        side = puzzles[0].size if puzzles else 0
        if asked["solvers"] and side > studies.SEARCH_IN_REACH:
            err.print(f"note: searching {side}x{side} grids can take hours a puzzle: "
                      "--no-search studies propagation alone; --time-limit bounds the run, "
                      "Ctrl-C stops it", markup=False)
        limit_seconds = seconds(len(puzzles))
        with Bar(studies.work(len(puzzles), **asked), "studying", always=True) as bar:
            found = studies.run_study(
                puzzles, encodings=asked["encodings"], amos=asked["amos"],
                reduced=asked["reduced"], rules=asked["rules"], solvers=asked["solvers"],
                probing=not no_probing, progress=bar.advance, time_limit=limit_seconds)
        if found.unfinished:
            err.print(f"time limit reached ({limit_seconds:g} s): not measured: "
                      f"{', '.join(found.unfinished)}"
                      + ("" if found.rows else "; no row was measured on every puzzle"),
                      markup=False)
        if plot and found.rows:
            studies.plot_study(found, plot, title=", ".join(map(os.path.basename, files)))
        if found.rows:
            print_study(found, files, as_json, as_csv, _STUDY_COLUMNS, _STUDY_NOTES, chosen)
        return Exit.UNKNOWN if found.unfinished else Exit.OK

    guarded(action)
