"""Commands for research and publishing: encode, certify, verify-certificate, minimal,
generate."""

from __future__ import annotations

import itertools
import json
import os
import sys
from typing import Annotated

import typer

from sudoku_csp.batch import read_puzzle_files
from sudoku_csp.certify import DEFAULT_PROOF_SOLVER
from sudoku_csp.cli.app import app
from sudoku_csp.cli.exits import STATUS_EXIT, Exit, err, guarded
from sudoku_csp.cli.options import (
    AmoOpt,
    BoxOpt,
    EncodingOpt,
    JsonOpt,
    ProofSolverOpt,
    RegionsOpt,
    SizeOpt,
    SourceArg,
    SplitRegionsOpt,
    SymmetryOpt,
    VariantOpt,
    first_puzzle,
    geometry_options,
    resolve_source,
)
from sudoku_csp.cli.output import Bar, out
from sudoku_csp.encodings.cnf import DEFAULT_AMO, DEFAULT_ENCODING
from sudoku_csp.errors import InputError
from sudoku_csp.variants import make_geometry


@app.command()
def encode(
    source: Annotated[str | None, typer.Argument(
        metavar="[PUZZLE|FILE|-]", help="The puzzle to encode (the first one of a file).")] = None,
    encoding: EncodingOpt = DEFAULT_ENCODING.value,
    amo: AmoOpt = DEFAULT_AMO,
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
    split_regions: SplitRegionsOpt = False,
) -> None:
    """Write a puzzle as DIMACS CNF (givens as unit clauses, or clue-reduced)."""

    def action() -> Exit:
        from sudoku_csp.encodings import cnf, cpsat, dimacs
        from sudoku_csp.encodings import reference as reference_files

        if empty is not None:
            written = reference_files.write_reference_files(empty) + cpsat.export_models(empty)
            for path in written:
                err.print(f"wrote {path}", markup=False)
            return Exit.OK
        if source is None:
            raise InputError("give a puzzle to encode, or --empty DIR")
        cnf.encoding_of(encoding)  # before reading the puzzle: the option is wrong either way
        cnf.amo_of(amo)
        puzzle = first_puzzle(source, geometry_options(size, box, variant, regions,
                                                       split_regions))
        text = dimacs.encode_puzzle_dimacs(puzzle, encoding, amo, reduce=reduce)
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text)
        else:
            sys.stdout.write(text)
        return Exit.OK

    guarded(action)


@app.command()
def certify(
    source: SourceArg,
    directory: Annotated[str, typer.Argument(metavar="DIR", help="Where to write it.")],
    proof_solver: ProofSolverOpt = DEFAULT_PROOF_SOLVER,
    encoding: EncodingOpt = DEFAULT_ENCODING.value,
    size: SizeOpt = None,
    box: BoxOpt = None,
    variant: VariantOpt = None,
    regions: RegionsOpt = None,
    split_regions: SplitRegionsOpt = False,
) -> None:
    """Write a uniqueness certificate: the solution, the CNF that excludes it, and a DRUP
    proof that this CNF is unsatisfiable.

    Exit codes: 0 written, 3 multiple solutions, 4 none, 6 input error.
    """
    from sudoku_csp import certify as certificates

    def action() -> Exit:
        puzzle = first_puzzle(source, geometry_options(size, box, variant, regions,
                                                       split_regions))
        try:
            made = certificates.certify(puzzle, directory, solver=proof_solver,
                                        encoding=encoding)
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
    """Check a certificate with this project's own RUP checker, trusting no solver: the
    formula is rebuilt from the puzzle and the witness, then every proof lemma is checked.

    Exit codes: 0 valid, 8 invalid (read, and wrong), 6 unreadable (the folder or a file is
    missing, not a regular file directly inside it, or over its size limit).
    """
    from sudoku_csp.certify import verify_certificate as check_certificate

    def action() -> Exit:
        if not os.path.isdir(directory):
            raise InputError(f"no such certificate folder: {directory}")
        check = check_certificate(directory)
        if check.unreadable:
            raise InputError(check.reason)  # guarded: one line on stderr, exit 6
        if check.ok:
            out.print(f"valid: the puzzle has exactly one solution ({check.checked} lemmas "
                      f"checked in {1000 * check.seconds:.1f} ms)", markup=False)
            return Exit.OK
        out.print(f"INVALID: {check.reason}", markup=False)
        return Exit.INVALID

    guarded(action)


@app.command()
def minimal(
    source: SourceArg,
    size: SizeOpt = None,
    box: BoxOpt = None,
    variant: VariantOpt = None,
    regions: RegionsOpt = None,
    split_regions: SplitRegionsOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Is each puzzle unique, and is every given necessary? Lists the redundant givens
    (one incremental SAT solver per geometry, givens as assumptions).

    Exit codes (one puzzle): 0 unique and minimal, 3 multiple, 4 none, 9 unique but not
    minimal, 6 input error; files: 0 when all processed.
    """
    from sudoku_csp.generate import minimality

    def action() -> Exit:
        options = geometry_options(size, box, variant, regions, split_regions)
        src = resolve_source([source], options, count=False)
        puzzles = [src.single] if src.single else read_puzzle_files(src.files, **options)
        code, count = Exit.OK, 0
        for count, puzzle in enumerate(puzzles, start=1):
            found = minimality(puzzle)
            labels = found.labels(puzzle.geometry)
            if as_json:
                typer.echo(json.dumps({
                    "index": count, "puzzle": puzzle.to_line(), "status": found.status.value,
                    "minimal": found.minimal, "redundant": labels,
                    "seconds": round(found.seconds, 6)}))
            else:
                state = ("minimal" if found.minimal else
                         f"redundant: {' '.join(labels)}" if found.unique else "-")
                typer.echo(f"{count}\t{found.status.value}\t{state}\t{puzzle.to_line()}")
            code = (STATUS_EXIT[found.status] if not found.unique
                    else Exit.OK if found.minimal else Exit.NOT_MINIMAL)
        return code if count == 1 else Exit.OK

    guarded(action)


@app.command()
def generate(
    count: Annotated[int, typer.Option("--count", "-c", min=1, help="How many.")] = 1,
    size: Annotated[int, typer.Option("--size", "-n", help="Grid size N.")] = 9,
    box: BoxOpt = None,
    variant: VariantOpt = None,
    regions: RegionsOpt = None,
    split_regions: SplitRegionsOpt = False,
    symmetry: SymmetryOpt = "none",
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
        options = geometry_options(size, box, variant, regions, split_regions)
        geometry = make_geometry(options["size"], options.get("box"), options["variants"],
                                 options.get("regions"),
                                 contiguous=options.get("contiguous", True))
        puzzles = make_puzzles(geometry, count=count, seed=seed, symmetry=symmetry,
                               minimal=minimal)
        # The first puzzle before the file: a request that cannot be met leaves no file.
        first = next(puzzles, None)
        puzzles = itertools.chain([] if first is None else [first], puzzles)
        handle = open(output, "w", encoding="utf-8") if output else None
        try:
            if handle:
                handle.write(f"# sudoku-csp generate --count {count} --size {size}"
                             + (f" --box {box}" if box else "")
                             + "".join(f" --variant {v}" for v in variant or ())
                             + f" --symmetry {symmetry}"
                             + (" --minimal" if minimal else "") + f" --seed {seed}\n")
            with Bar(count if count > 1 else None, "generating", always=True) as bar:
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

    guarded(action)
