"""The encodings study as a script: tdoku's benchmark table (MiniSat on the minimal, natural,
complete and augmented encodings), reproduced and extended, in plain text.

A thin front to :mod:`sudoku_csp.study` (the same as ``sudoku-csp study FILE``, which also
has ``--json``, ``--csv`` and ``--plot``). Per encoding: size, share solved by unit
propagation alone and by failed-literal probing, then per solver the mean decisions
("guesses") and conflicts to solve and prove uniqueness, and puzzles per second; beside them
the native presets.

Usage::

    python examples/encodings_study.py PUZZLES.txt [--limit 200] [--amo ladder] [--solver minisat22]

Expected shape: ``minimal`` and ``natural`` solve by propagation what naked singles solve,
``extended`` exactly what ``singles`` solves, ``augmented`` and ``tdoku`` what ``locked``
solves (the "same as" column); probing solves a superset of each.
"""

from __future__ import annotations

import argparse
import itertools

from sudoku_csp import read_puzzles
from sudoku_csp.encodings import cnf
from sudoku_csp.study import STUDY_SOLVERS, Row, run_study


def line(row: Row) -> str:
    def num(value: float | None, digits: int = 1) -> str:
        return "-" if value is None else f"{value:,.{digits}f}"

    return (f"{row.method:24} {row.solver or '-':11} {num(row.clauses, 0):>8} "
            f"{num(row.propagation_pct):>6} {num(row.probing_pct):>7} "
            f"{num(row.no_decision_pct):>7} {num(row.decisions_mean, 2):>9} "
            f"{num(row.conflicts_mean, 2):>8} {num(row.puzzles_per_s, 0):>7}  {row.same_as}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzles", help="a puzzle file (one puzzle per line)")
    parser.add_argument("--amo", action="append", choices=cnf.AMO_CHOICES,
                        help=f"at-most-one encoding, repeatable (default {cnf.DEFAULT_AMO})")
    parser.add_argument("--solver", action="append", help="PySAT solver, repeatable (default "
                                                          f"{' '.join(STUDY_SOLVERS)})")
    parser.add_argument("--limit", type=int, default=None,
                        help="study only the first LIMIT puzzles")
    args = parser.parse_args(argv)
    puzzles = list(itertools.islice(read_puzzles(args.puzzles), args.limit))
    study = run_study(puzzles, amos=args.amo or [cnf.DEFAULT_AMO],
                      solvers=args.solver or STUDY_SOLVERS)
    print(f"{len(puzzles)} puzzles from {args.puzzles}")
    print(f"{'method':24} {'solver':11} {'clauses':>8} {'UP %':>6} {'probe %':>7} "
          f"{'no dec%':>7} {'decisions':>9} {'conflicts':>8} {'puz/s':>7}  UP solves the same as")
    for row in study.rows:
        print(line(row))


if __name__ == "__main__":
    main()
