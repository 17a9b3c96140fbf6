"""The SAT backend's overhead: the library's ``make_backend("sat").solve(puzzle)`` against
the least a caller of PySAT must do on the same formula, interleaved in the same run.

    python examples/sat_overhead.py PUZZLES.txt [--max-puzzles N] [--block 25] [--rounds 3]

The raw loop (:func:`raw_sat`) holds one incremental solver (the backend's default, CaDiCaL)
loaded with the empty-grid CNF the backend builds, with the same phases
(:func:`~sudoku_csp.satsolver.load`), so both sides search alike and the difference is what
the library adds. Per puzzle it calls ``solve(assumptions=givens)`` and ``get_model()`` and
decodes the grid from the true cell-digit literals. The library also verifies each answer
(:mod:`sudoku_csp.verify`), checks clashes when nothing is found and times the call: that is
its overhead, and the figure is the library's speed in percent of raw.

Both sides run the same blocks of puzzles in turn (raw, library, library, raw, ...), so
noise from other processes falls on both; each round's ratio and the best one are printed.
Any puzzle file of one geometry works; 17-clue 9×9 puzzles make the overhead plainest.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable, Sequence

from sudoku_csp import read_puzzles
from sudoku_csp.backends.registry import make_backend
from sudoku_csp.encodings import cnf
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsolver import DEFAULT_SOLVER, load


def raw_sat(puzzles: Sequence[Puzzle]) -> Callable[[Puzzle], tuple[int, ...]]:
    """A function solving one puzzle of ``puzzles``' geometry with raw PySAT calls: one
    solver for every call, the givens as assumptions, the grid read from the model's true
    cell-digit literals (variable ``cell * N + digit + 1``)."""
    geometry = puzzles[0].geometry
    n, cells = geometry.size, geometry.ncells
    formula = cnf.build(geometry)  # the backend's default encoding and at-most-one
    solver = load(DEFAULT_SOLVER, formula.clauses, formula.x_vars)
    top = cells * n

    def run(puzzle: Puzzle) -> tuple[int, ...]:
        solver.solve(assumptions=[c * n + d + 1 for c, d in enumerate(puzzle.givens)
                                  if d >= 0])
        model = solver.get_model()
        grid = [0] * cells
        for lit in model[:top]:
            if lit > 0:
                grid[(lit - 1) // n] = (lit - 1) % n
        return tuple(grid)

    return run


def library_sat() -> Callable[[Puzzle], tuple[int, ...]]:
    """A function solving one puzzle through the library's default SAT backend."""
    backend = make_backend("sat")

    def run(puzzle: Puzzle) -> tuple[int, ...]:
        solution = backend.solve(puzzle).solution
        if solution is None:
            raise SystemExit(f"the sat backend found no solution for {puzzle.to_line()}")
        return solution

    return run


def interleaved(puzzles: Sequence[Puzzle], runners: Sequence[Callable[[Puzzle], object]],
                block: int) -> list[float]:
    """Seconds each runner took over all ``puzzles``, run block by block in turn (the order
    of the runners reversed every other block, so neither always goes first)."""
    totals = [0.0] * len(runners)
    order = list(range(len(runners)))
    clock = time.perf_counter
    for start in range(0, len(puzzles), block):
        chunk = puzzles[start:start + block]
        for i in order:
            run = runners[i]
            began = clock()
            for puzzle in chunk:
                run(puzzle)
            totals[i] += clock() - began
        order.reverse()
    return totals


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="puzzle file, one puzzle per line, one geometry")
    parser.add_argument("--max-puzzles", type=int, default=None, help="use the first N")
    parser.add_argument("--block", type=int, default=25, help="puzzles per block")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the file")
    args = parser.parse_args(argv)

    puzzles = list(itertools.islice(read_puzzles(args.file), args.max_puzzles))
    if len({p.geometry for p in puzzles}) != 1:
        raise SystemExit("give a file of puzzles of one geometry")
    raw, library = raw_sat(puzzles), library_sat()
    for puzzle in puzzles[:5]:  # both sides agree before anything is timed
        if raw(puzzle) != library(puzzle):
            raise SystemExit(f"raw and library grids differ on {puzzle.to_line()}")
    print(f"{len(puzzles)} puzzles from {args.file}, blocks of {args.block}, "
          f"{args.rounds} rounds")
    best = 0.0
    for round_ in range(1, args.rounds + 1):
        raw_s, lib_s = interleaved(puzzles, [raw, library], args.block)
        ratio = raw_s / lib_s
        best = max(best, ratio)
        print(f"round {round_}: raw {1000 * raw_s / len(puzzles):.4f} ms/puzzle, library "
              f"{1000 * lib_s / len(puzzles):.4f} ms/puzzle: library at {100 * ratio:.1f}% "
              "of raw speed")
    print(f"best round: library at {100 * best:.1f}% of raw speed")


if __name__ == "__main__":
    main()
