"""Uniqueness tooling figures: certificates, uniqueness checks, and puzzle generation.

    python examples/generate_benchmark.py PUZZLES.txt [--certificates N] [--count 50]
        [--compare 2] [--no-sixteen] [--solver cadical195]

Printed, all on one core (this process only):

1. Certificates for the unique puzzles of PUZZLES.txt (the first ``--certificates``;
   puzzles with no or several solutions are counted and skipped): milliseconds to produce
   one (:func:`sudoku_csp.certify.certify`: witness, CNF, DRUP proof, three files) and to
   check it (:func:`sudoku_csp.certify.verify_certificate`), mean and worst, and the
   lemmas per proof. Target: produced and checked in under 1 s per 9×9 puzzle.
2. The uniqueness check inside the generator, three ways, on the same greedy clearing of
   ``--compare`` random 9×9 grids: the SAT session of :mod:`sudoku_csp.generate` (one
   loaded solver, givens as assumptions, the known solution excluded by a guarded clause),
   the ``sat`` backend with ``limit=2`` and the ``native`` backend with ``limit=2``.
3. Minimal unique 9×9 puzzles per second (``--count`` of them, each re-checked by the
   native backend, as :func:`sudoku_csp.generate.generate` always does). Target: ≥ 20/s.
4. One minimal unique 16×16 puzzle, in seconds. Target: under 5 s.

Timings are wall clock on a possibly busy shared machine: run twice before believing one.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from itertools import islice
from pathlib import Path

from sudoku_csp import EMPTY, Puzzle, Status, get_backend, make_geometry, read_puzzles
from sudoku_csp.certify import (
    DEFAULT_PROOF_SOLVER,
    NotUniqueError,
    certify,
    verify_certificate,
)
from sudoku_csp.generate import generate, minimality, random_grid, session_for


def certificates(path: str, limit: int | None, solver: str) -> None:
    made: list[float] = []
    checked: list[float] = []
    lemmas: list[int] = []
    skipped = 0
    with tempfile.TemporaryDirectory() as scratch:
        for i, puzzle in enumerate(islice(read_puzzles(path), limit)):
            folder = Path(scratch) / str(i)
            start = time.perf_counter()
            try:
                cert = certify(puzzle, folder, solver=solver)
            except NotUniqueError:
                skipped += 1
                continue
            made.append(time.perf_counter() - start)
            start = time.perf_counter()
            check = verify_certificate(folder)
            checked.append(time.perf_counter() - start)
            if not check.ok:
                raise SystemExit(f"certificate {i + 1} rejected: {check.reason}")
            lemmas.append(cert.lemmas)
    print(f"certificates ({solver}, {path}): {len(made)} made and checked, {skipped} "
          "puzzles skipped (not unique)")
    if made:
        total = [a + b for a, b in zip(made, checked, strict=True)]
        print(f"  produce {1000 * statistics.mean(made):7.1f} ms mean "
              f"{1000 * max(made):7.1f} ms worst")
        print(f"  check   {1000 * statistics.mean(checked):7.1f} ms mean "
              f"{1000 * max(checked):7.1f} ms worst")
        print(f"  both    {1000 * statistics.mean(total):7.1f} ms mean "
              f"{1000 * max(total):7.1f} ms worst (target < 1000 ms)")
        print(f"  lemmas per proof: {statistics.mean(lemmas):.0f} mean, {max(lemmas)} max")


def compare_checks(grids: int) -> None:
    """The same greedy clearing decided by three uniqueness checks; their answers must agree."""
    geometry = make_geometry(9)
    session = session_for(geometry)
    sat, native = get_backend("sat"), get_backend("native")
    seconds = {"session": 0.0, "sat limit=2": 0.0, "native limit=2": 0.0}
    calls = 0
    for k in range(grids):
        rng = random.Random(k)
        grid = random_grid(geometry, k)
        cells = list(range(geometry.ncells))
        rng.shuffle(cells)
        givens = list(grid)
        for cell in cells:
            givens[cell] = EMPTY
            puzzle = Puzzle(geometry, tuple(givens))
            calls += 1
            start = time.perf_counter()
            unique = not session.has_other(givens, grid)
            seconds["session"] += time.perf_counter() - start
            for name, backend in (("sat limit=2", sat), ("native limit=2", native)):
                start = time.perf_counter()
                status = backend.solve(puzzle, limit=2).status
                seconds[name] += time.perf_counter() - start
                if (status is Status.UNIQUE) != unique:
                    raise SystemExit(f"{name} disagrees with the session on {puzzle}")
            if not unique:
                givens[cell] = grid[cell]
    print(f"uniqueness checks while clearing {grids} random 9x9 grids ({calls} checks):")
    for name, total in seconds.items():
        print(f"  {name:15} {1e6 * total / calls:8.0f} us per check")


def nine_by_nine(count: int) -> None:
    list(generate(count=1, seed=10_000, minimal=True))  # load the solvers once
    start = time.perf_counter()
    puzzles = list(generate(count=count, seed=1, minimal=True))
    seconds = time.perf_counter() - start
    clues = statistics.mean(p.clue_count for p in puzzles)
    print(f"minimal unique 9x9: {count} in {seconds:.2f} s = {count / seconds:.1f} per second "
          f"(target >= 20), {clues:.1f} clues mean")
    sample = puzzles[: min(5, count)]
    assert all(minimality(p).minimal for p in sample), "a generated puzzle is not minimal"


def sixteen() -> None:
    start = time.perf_counter()
    puzzle = next(generate(make_geometry(16), seed=1, minimal=True))
    seconds = time.perf_counter() - start
    print(f"minimal unique 16x16: one in {seconds:.2f} s (target < 5 s), "
          f"{puzzle.clue_count} clues")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="puzzle file, one puzzle per line (for certificates)")
    parser.add_argument("--certificates", type=int, default=None,
                        help="certify only the first N puzzles of the file")
    parser.add_argument("--solver", default=DEFAULT_PROOF_SOLVER, help="proof-logging PySAT solver")
    parser.add_argument("--count", type=int, default=50, help="9x9 puzzles to generate")
    parser.add_argument("--compare", type=int, default=2,
                        help="grids on which to compare the uniqueness checks (0: skip)")
    parser.add_argument("--no-sixteen", action="store_true", help="skip the 16x16 puzzle")
    args = parser.parse_args(argv)
    certificates(args.file, args.certificates, args.solver)
    if args.compare:
        compare_checks(args.compare)
    if args.count:
        nine_by_nine(args.count)
    if not args.no_sixteen:
        sixteen()


if __name__ == "__main__":
    main()
