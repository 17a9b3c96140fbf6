"""Random complete grids, the seed of every generator: the same seed, the same grid."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sudoku_csp.backends import make_backend
from sudoku_csp.constraints import Constraint, cnf_clauses
from sudoku_csp.encodings import cnf
from sudoku_csp.errors import InputError
from sudoku_csp.generate.base import NoGridError
from sudoku_csp.geometry import EMPTY, Geometry, Grid
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsolver import capabilities, load, solve_until
from sudoku_csp.variants import make_geometry  # noqa: F401 - the doctests use it
from sudoku_csp.verify import check_solutions

GRID_SOLVER = "minisat22"  # fastest measured for one fresh solve of the empty grid


def random_grid(geometry: Geometry, seed: int, *, method: str = "sat",
                constraints: Sequence[Constraint] = ()) -> Grid:
    """A complete grid of ``geometry`` that keeps ``constraints`` (rules over the whole
    grid, such as non-consecutive), the same for the same seed.

    - ``sat`` (default): a fresh SAT solver on the empty grid (and the constraints'
      clauses) with a random phase for every cell-digit variable, then, without
      constraints, the digits relabelled by a random permutation (any relabelling of a
      solution is a solution, in every variant; not under constraints that compare
      values). A fresh solver keeps the result independent of what was solved before.
    - ``native``: the native solver with a seeded random value order at each branch. As
      random, but on tightly constrained variants it backtracks for long, where SAT does
      not (docs/design.md: Design choices, measured).

    :class:`NoGridError` when no grid keeps them (a 4×4 non-consecutive grid).

    >>> from sudoku_csp import is_solution
    >>> g = make_geometry(9, variants=["diagonal"])
    >>> grid = random_grid(g, 7)
    >>> is_solution(Puzzle.empty(g), grid), grid == random_grid(g, 7)
    (True, True)
    >>> from sudoku_csp.constraints import NonConsecutive
    >>> random_grid(make_geometry(4), 1, constraints=[NonConsecutive()])
    Traceback (most recent call last):
    sudoku_csp.generate.base.NoGridError: the 4x4 grid has no solution with nonconsecutive ...
    """
    blank = Puzzle(geometry, (EMPTY,) * geometry.ncells, "", tuple(constraints))
    kinds = sorted({c.kind for c in constraints})
    nothing = (f"the {geometry.name} grid has no solution"
               + (f" with {', '.join(kinds)} constraints" if kinds else "")
               + ", so no puzzle can be made for it")
    if method == "native":
        # A new backend per seed: the registry's cache is for long-lived configurations.
        result = make_backend(f"native:order=random,seed={seed}").solve(blank)
        if result.solution is None:
            raise NoGridError(f"{nothing} ({result.message or result.status})")
        return result.solution
    if method != "sat":
        raise InputError(f"unknown grid method {method!r}; choose sat or native")
    rng = random.Random(seed)
    formula = cnf.build(geometry)
    extra, _ = cnf_clauses(geometry, constraints, start=formula.nv + 1)
    with load(GRID_SOLVER, [*formula.clauses, *extra]) as solver:
        solver.set_phases([v if rng.random() < 0.5 else -v
                           for v in range(1, formula.x_vars + 1)])
        if not solve_until(solver, capabilities(GRID_SOLVER), [], None):
            raise NoGridError(nothing)
        grid = formula.vars.read_model(solver.get_model())
    if not constraints:
        relabel = list(range(geometry.size))
        rng.shuffle(relabel)
        grid = tuple(relabel[d] for d in grid)
    check_solutions(blank, [grid], f"sat:solver={GRID_SOLVER}")
    return grid
