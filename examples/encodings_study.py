"""How big is each CNF encoding of Sudoku, and how much does unit propagation alone solve?

For every named encoding (minimal, natural, extended, augmented) this prints the variables,
clauses and literals of the empty 9×9 and 16×16 grids, then runs unit propagation only
(``Solver.propagate`` with the givens as assumptions, no search) on each puzzle of a file and
prints the share it solves, beside the native solver's propagation-only presets for
comparison: ``singles`` (naked + hidden singles) and ``locked`` (+ locked candidates).

Usage::

    python examples/encodings_study.py PUZZLES.txt [--amo pairwise] [--limit 200]

Expected shape of the result: ``minimal`` and ``natural`` solve what naked singles solve,
``extended`` matches ``singles`` exactly, ``augmented`` matches ``locked``.
"""

from __future__ import annotations

import argparse
import itertools
import time

from sudoku_csp import Status, get_backend, make_geometry, read_puzzles
from sudoku_csp.encodings import cnf


def size_table(amo: str) -> list[str]:
    lines = [f"{'grid':6} {'encoding':10} {'variables':>10} {'clauses':>10} {'literals':>10}"
             f" {'build ms':>9}"]
    for size in (9, 16):
        geometry = make_geometry(size)
        for encoding in cnf.Encoding:
            start = time.perf_counter()
            formula = cnf.build(geometry, encoding, amo)
            ms = 1000 * (time.perf_counter() - start)
            lines.append(f"{geometry.name:6} {encoding.value:10} {formula.nv:>10,} "
                         f"{len(formula.clauses):>10,} {formula.literals:>10,} {ms:>9.1f}")
    return lines


def propagation_table(path: str, amo: str, limit: int | None, solver: str) -> list[str]:
    puzzles = list(itertools.islice(read_puzzles(path), limit))
    if not puzzles:
        return [f"{path}: no puzzles"]
    specs = [(f"cnf {e.value}", f"sat:search=off,encoding={e.value},amo={amo},solver={solver}")
             for e in cnf.Encoding]
    specs += [("native singles", "native:rules=singles,search=off"),
              ("native locked", "native:rules=locked,search=off")]
    lines = [f"{len(puzzles)} puzzles from {path}: share solved by propagation alone",
             f"{'method':16} {'solved':>8} {'no solution':>12} {'undecided':>10} {'ms/puzzle':>10}"]
    for label, spec in specs:
        backend = get_backend(spec)
        counts = {Status.UNIQUE: 0, Status.NONE: 0, Status.UNKNOWN: 0}
        start = time.perf_counter()
        for puzzle in puzzles:
            counts[backend.solve(puzzle, limit=2).status] += 1
        ms = 1000 * (time.perf_counter() - start) / len(puzzles)
        share = {s: 100 * k / len(puzzles) for s, k in counts.items()}
        lines.append(f"{label:16} {share[Status.UNIQUE]:7.1f}% {share[Status.NONE]:11.1f}% "
                     f"{share[Status.UNKNOWN]:9.1f}% {ms:10.3f}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzles", help="a puzzle file (one puzzle per line)")
    parser.add_argument("--amo", default=cnf.DEFAULT_AMO, choices=cnf.AMO_CHOICES,
                        help="at-most-one encoding (default %(default)s)")
    parser.add_argument("--limit", type=int, default=None,
                        help="study only the first LIMIT puzzles")
    parser.add_argument("--solver", default="glucose4",
                        help="PySAT solver that propagates (default %(default)s)")
    args = parser.parse_args(argv)
    print("\n".join(size_table(args.amo)))
    print()
    print("\n".join(propagation_table(args.puzzles, args.amo, args.limit, args.solver)))


if __name__ == "__main__":
    main()
