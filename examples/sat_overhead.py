"""The SAT backend's overhead: the library's ``make_backend("sat").solve(puzzle)`` against
the least a caller of PySAT must do on the same formula, interleaved in the same run.

    python examples/sat_overhead.py PUZZLES.txt [--max-puzzles N] [--block 25] [--rounds 3]

The raw loop (:func:`raw_sat`) holds one incremental solver (the backend's default, CaDiCaL)
loaded with the empty-grid CNF the backend builds, with the same phases
(:func:`~sudoku_csp.satsolver.load`), so both sides search alike and the difference is what
the library adds. Per puzzle it calls ``solve(assumptions=givens)`` and ``get_model()`` and
decodes the grid from the true cell-digit literals. The library also verifies each answer
(:mod:`sudoku_csp.verify`), checks clashes when nothing is found and times the call: that is
its overhead, and the figure is the library's speed in percent of raw. A third side, raw
followed by the same rule check (:func:`raw_checked`), shows how much of that overhead is
the check alone.

All sides run the same blocks of puzzles in turn (raw, library, library, raw, ...), so
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
from sudoku_csp.backends.sat import DEFAULT_RECYCLE
from sudoku_csp.encodings import cnf
from sudoku_csp.io import to_line
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsolver import DEFAULT_SOLVER, load
from sudoku_csp.verify import check_solutions


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


def raw_unique(puzzles: Sequence[Puzzle]) -> Callable[[Puzzle], bool]:
    """A function deciding uniqueness with raw PySAT calls, as the backend's incremental
    mode does: solve under the givens and a fresh selector, block the solution by a clause
    the selector switches on, solve again, retire the selector; a new solver after
    :data:`~sudoku_csp.backends.sat.DEFAULT_RECYCLE` selectors. True when unique."""
    geometry = puzzles[0].geometry
    n, cells = geometry.size, geometry.ncells
    formula = cnf.build(geometry)
    state = {"solver": load(DEFAULT_SOLVER, formula.clauses, formula.x_vars),
             "selector": formula.nv}

    def run(puzzle: Puzzle) -> bool:
        solver = state["solver"]
        state["selector"] += 1
        selector = state["selector"]
        givens = puzzle.givens
        assumptions = [c * n + d + 1 for c, d in enumerate(givens) if d >= 0] + [selector]
        if not solver.solve(assumptions=assumptions):
            return False
        model = solver.get_model()
        solver.add_clause([-lit for lit in model[:cells * n] if lit > 0
                           and givens[(lit - 1) // n] < 0] + [-selector])
        unique = not solver.solve(assumptions=assumptions)
        solver.add_clause([-selector])
        if selector - formula.nv >= DEFAULT_RECYCLE:
            solver.delete()
            state["solver"] = load(DEFAULT_SOLVER, formula.clauses, formula.x_vars)
            state["selector"] = formula.nv
        return unique

    return run


def raw_checked(puzzles: Sequence[Puzzle]) -> Callable[[Puzzle], tuple[int, ...]]:
    """:func:`raw_sat` (a solver of its own) followed by the check every answer of the
    library gets (:func:`~sudoku_csp.verify.check_solutions`): the part of the library's
    overhead that is its promise to verify."""
    solve = raw_sat(puzzles)

    def run(puzzle: Puzzle) -> tuple[int, ...]:
        grid = solve(puzzle)
        check_solutions(puzzle, (grid,), "raw")
        return grid

    return run


def library_sat() -> Callable[[Puzzle], tuple[int, ...]]:
    """A function solving one puzzle through the library's default SAT backend."""
    backend = make_backend("sat")

    def run(puzzle: Puzzle) -> tuple[int, ...]:
        solution = backend.solve(puzzle).solution
        if solution is None:
            raise SystemExit(f"the sat backend found no solution for {to_line(puzzle)}")
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
    checked = raw_checked(puzzles)
    for puzzle in puzzles[:5]:  # all sides agree before anything is timed
        if not raw(puzzle) == library(puzzle) == checked(puzzle):
            raise SystemExit(f"raw and library grids differ on {to_line(puzzle)}")
    print(f"{len(puzzles)} puzzles from {args.file}, blocks of {args.block}, "
          f"{args.rounds} rounds")
    best = 0.0
    for round_ in range(1, args.rounds + 1):
        raw_s, checked_s, lib_s = interleaved(puzzles, [raw, checked, library], args.block)
        ratio = raw_s / lib_s
        best = max(best, ratio)
        print(f"round {round_}: raw {1000 * raw_s / len(puzzles):.4f} ms/puzzle, raw + rule "
              f"check {1000 * checked_s / len(puzzles):.4f} ({100 * raw_s / checked_s:.1f}%), "
              f"library {1000 * lib_s / len(puzzles):.4f} ms/puzzle: library at "
              f"{100 * ratio:.1f}% of raw speed")
    print(f"best round: library at {100 * best:.1f}% of raw speed")


if __name__ == "__main__":
    main()
