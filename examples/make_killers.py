"""Make given-free killer puzzles over the solutions of the puzzles in a file.

    python examples/make_killers.py PUZZLE_FILE [--count N] [--seed S] [--min-cage K]
        [--max-cage K] [--merges K]

A thin caller of :func:`sudoku_csp.generate.killer.killer_cages` (the method is described
there; ``sudoku-csp generate --kind killer`` makes killers over random grids instead): for each
puzzle (up to ``--count``), its solution by SAT, then cages over it reshaped until the SAT
session finds no second solution, re-checked by CP-SAT. Prints each killer line with its
figures (cages, SAT questions, seconds) after a tab, and a summary line; a grid the search
gives up on is reported and skipped. Geometry options: ``--size``, ``--box``, ``--variant``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sudoku_csp import get_backend, read_puzzles  # noqa: E402
from sudoku_csp.cli.options import geometry_options  # noqa: E402
from sudoku_csp.generate import confirm, session_for  # noqa: E402
from sudoku_csp.generate.killer import (  # noqa: E402
    DEFAULT_KILLER_CHECK,
    DEFAULT_MAX_CAGE,
    DEFAULT_MERGES,
    DEFAULT_MIN_CAGE,
    killer_cages,
)
from sudoku_csp.geometry import EMPTY  # noqa: E402
from sudoku_csp.io import to_line
from sudoku_csp.puzzle import Puzzle  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--count", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-cage", type=int, default=DEFAULT_MIN_CAGE)
    ap.add_argument("--max-cage", type=int, default=DEFAULT_MAX_CAGE)
    ap.add_argument("--merges", type=int, default=DEFAULT_MERGES)
    ap.add_argument("--size", type=int)
    ap.add_argument("--box")
    ap.add_argument("--variant", action="append", default=[])
    args = ap.parse_args()
    options = geometry_options(args.size, args.box, args.variant, None, constraints=True)
    rng = random.Random(args.seed)
    checker = get_backend(DEFAULT_KILLER_CHECK)
    made = skipped = questions = 0
    start = time.perf_counter()
    for puzzle in read_puzzles(args.file, **options):
        if made >= args.count:
            break
        grid = get_backend("sat").solve(puzzle).solution
        if grid is None:
            continue
        g = puzzle.geometry
        session = session_for(g)
        before, t0 = session.calls, time.perf_counter()
        cages = killer_cages(g, grid, rng, session, min_cage=args.min_cage,
                             max_cage=min(args.max_cage, g.size), merges=args.merges)
        questions += session.calls - before
        if cages is None:
            skipped += 1
            print(f"# no unique killer found over the solution of {to_line(puzzle)}")
            continue
        killer = Puzzle(g, (EMPTY,) * g.ncells, "", tuple(cages))
        confirm(killer, grid, checker)
        made += 1
        print(f"{to_line(killer)}\t{len(cages)} cages, {session.calls - before} SAT "
              f"questions, {time.perf_counter() - t0:.2f} s")
    print(f"# {made} unique given-free killers ({skipped} grids given up), {questions} SAT "
          f"questions, {time.perf_counter() - start:.1f} s (seed {args.seed})")


if __name__ == "__main__":
    main()
