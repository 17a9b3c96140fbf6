"""Cross-check every backend on random puzzles read off the solutions of a puzzle file.

    python examples/crosscheck_fuzz.py PUZZLE_FILE [--count 2000] [--seed 1]
        [--solver SPEC ...] [--kinds 3] [--time-limit 10]

PUZZLE_FILE holds one puzzle per line in any form the tool reads (corpus lines such as
``fpuzzles_dev.jsonl`` too); each puzzle with a solution lends its geometry and that grid.
Then ``--count`` times: a grid (its digits relabelled at random, which every geometry's rule
allows, as all are "these cells differ"), one to ``--kinds`` constraint kinds drawn from the
registry, a few constraints of each that the grid satisfies (each kind's ``sample``), a
random share of the grid's cells given, and in about one puzzle in seven a given replaced by
a random digit (often no solution left). Every ``--solver`` (default: sat, cpsat, native,
auto) counts it, each backend one long-lived instance as in a long run (SAT's sessions keep
what the puzzles before left them), to two solutions, or to every solution when half the
cells or more are given, half the time.

Every decided answer (``unknown`` is no answer) must agree: status, and the count when every
solution was asked for; a backend that raises (a wrong solution the checker caught, among
others) disagrees with all. A disagreement prints the puzzle as a JSON line and makes the
exit code 1. At the end: the puzzles checked, the verdicts, each spec's median and largest
time and how many it left undecided. The tests cross-check a few puzzles read off two grids;
this is the long run, of as many puzzles as there is time for.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from uniqueness_benchmark import entries  # noqa: E402  (the puzzle-file reader, same folder)

from sudoku_csp import make_backend  # noqa: E402
from sudoku_csp.constraints import KINDS, forget_puzzles  # noqa: E402
from sudoku_csp.errors import InputError  # noqa: E402
from sudoku_csp.geometry import EMPTY, Geometry, Grid  # noqa: E402
from sudoku_csp.io.record import json_line  # noqa: E402
from sudoku_csp.puzzle import Puzzle  # noqa: E402

DEFAULT_SOLVERS = ("sat", "cpsat", "native", "auto")
SHARES = (0.0, 0.2, 0.35, 0.5, 0.6)  # of the cells given


def grids(path: str) -> list[tuple[Geometry, Grid]]:
    """Each puzzle's geometry and one of its solutions (SAT's); puzzles with none, or none
    found in 10 s, are left out."""
    found = []
    sat = make_backend("sat")
    for entry in entries(path, None):
        result = sat.solve(entry.puzzle, limit=1, time_limit=10)
        if result.solutions:
            found.append((entry.puzzle.geometry, result.solutions[0]))
    return found


def drawn_puzzle(geometry: Geometry, grid: Grid, rng: random.Random, most_kinds: int
                 ) -> tuple[Puzzle, bool] | None:
    """A random puzzle on ``grid`` (see the module docstring) and whether every solution is
    to be counted; None when the kinds drawn make no puzzle."""
    relabel = list(range(geometry.size))
    rng.shuffle(relabel)
    grid = tuple(relabel[d] for d in grid)
    constraints = []
    for kind in rng.sample(KINDS, rng.randint(1, min(most_kinds, len(KINDS)))):
        try:
            drawn = [c for c in kind.sample(geometry, grid, rng) if isinstance(c, kind)]
        except InputError:  # a kind with no place on this geometry
            continue
        constraints += drawn[:rng.randint(1, 12)]
    if not constraints:
        return None
    share = rng.choice(SHARES)
    givens = [d if rng.random() < share else EMPTY for d in grid]
    if rng.random() < 1 / 7:
        givens[rng.randrange(len(givens))] = rng.randrange(geometry.size)
    try:
        puzzle = Puzzle(geometry, tuple(givens), "", tuple(constraints))
    except InputError:  # e.g. two of a kind that a puzzle holds once: this draw skipped
        return None
    return puzzle, share >= 0.5 and rng.random() < 0.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--count", type=int, default=2000, help="random puzzles to check")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--solver", action="append", help="a backend spec (repeatable)")
    parser.add_argument("--kinds", type=int, default=3, help="most kinds in one puzzle")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per count")
    args = parser.parse_args()
    if args.kinds < 1 or args.count < 0:
        parser.error("--kinds needs 1 or more, --count 0 or more")
    specs = args.solver or list(DEFAULT_SOLVERS)
    bases = grids(args.file)
    if not bases:
        print(f"{args.file}: no puzzle with a solution to read constraints off", file=sys.stderr)
        return 1
    rng = random.Random(args.seed)
    backends = {spec: make_backend(spec) for spec in specs}
    times: dict[str, list[float]] = {spec: [] for spec in specs}
    undecided = dict.fromkeys(specs, 0)
    verdicts: dict[str, int] = {}
    checked = disagreed = 0
    started = time.perf_counter()
    try:
        for _ in range(args.count):
            drawn = drawn_puzzle(*rng.choice(bases), rng, args.kinds)
            if drawn is None:
                continue
            puzzle, every = drawn
            said, failed = {}, {}
            for spec in rng.sample(specs, len(specs)):
                forget_puzzles()
                start = time.perf_counter()
                try:
                    result = backends[spec].solve(puzzle, limit=None if every else 2,
                                                  time_limit=args.time_limit)
                except Exception as exc:  # noqa: BLE001 - a failure is reported with its puzzle
                    failed[spec] = f"{type(exc).__name__}: {exc}"
                    continue
                finally:
                    times[spec].append(time.perf_counter() - start)
                if result.status.value == "unknown":
                    undecided[spec] += 1
                else:
                    said[spec] = (result.status.value, result.count if every else None)
            checked += 1
            for answer in set(said.values()):
                verdicts[answer[0]] = verdicts.get(answer[0], 0) + 1
            if len(set(said.values())) > 1 or failed:
                disagreed += 1
                print(f"DISAGREE {said} {failed}\n  {json_line(puzzle)}", flush=True)
            if checked % 500 == 0:  # a long run says how far it is
                print(f"{checked} checked, {disagreed} disagreed", file=sys.stderr, flush=True)
    finally:
        for backend in backends.values():
            close = getattr(backend, "close", None)
            if close is not None:
                close()
    print(f"{checked} puzzles on {len(bases)} grids of {args.file} in "
          f"{time.perf_counter() - started:.0f} s; verdicts "
          + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items()))
          + f"; {disagreed} disagreed")
    for spec in specs:
        spent = times[spec]
        if spent:
            print(f"  {spec}: median {statistics.median(spent) * 1000:.1f} ms, largest "
                  f"{max(spent) * 1000:.0f} ms, {undecided[spec]} undecided")
    return 1 if disagreed else 0


if __name__ == "__main__":
    sys.exit(main())
