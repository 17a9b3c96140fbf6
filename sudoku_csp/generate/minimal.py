"""Minimality: is a puzzle unique, and which of its givens could go one at a time keeping it
so?"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sudoku_csp.errors import InputError
from sudoku_csp.generate.clearing import redundant_givens
from sudoku_csp.generate.session import UniquenessSession, session_for
from sudoku_csp.geometry import Geometry, Grid
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Status
from sudoku_csp.satsolver import DEFAULT_SOLVER
from sudoku_csp.variants import make_geometry  # noqa: F401 - the doctests use it
from sudoku_csp.verify import check_solutions


@dataclass(frozen=True)
class Minimality:
    """Whether a puzzle is unique, and which of its givens are redundant.

    ``status`` is UNIQUE, MULTIPLE or NONE. ``redundant`` lists the given cells whose
    removal leaves the puzzle unique (only computed for unique puzzles); ``solution`` is
    the solution (unique puzzles) and ``other`` a second one (MULTIPLE).
    """

    status: Status
    redundant: tuple[int, ...] = ()
    solution: Grid | None = None
    other: Grid | None = None
    calls: int = 0
    seconds: float = 0.0

    @property
    def unique(self) -> bool:
        return self.status is Status.UNIQUE

    @property
    def minimal(self) -> bool:
        """Unique, and every given necessary."""
        return self.unique and not self.redundant

    def labels(self, geometry: Geometry) -> list[str]:
        """The redundant givens as display labels (``A1``, ...)."""
        return [geometry.label(c) for c in self.redundant]


def minimality(puzzle: Puzzle, *, session: UniquenessSession | None = None,
               solver: str = DEFAULT_SOLVER) -> Minimality:
    """Is ``puzzle`` unique, and which givens could be removed one at a time keeping it so?

    One loaded solver (``session``, else a shared one for the geometry): a solve for the
    solution, one for uniqueness, then one per given with that given's assumption dropped.
    The puzzle's typed constraints (killer cages, thermometers, ...) are in force in every
    question: a given the constraints imply is redundant. Their clauses join the session
    behind selectors and are retired before returning, so a file of constrained puzzles
    does not pile clauses up in the shared solver.

    >>> from sudoku_csp import parse
    >>> minimality(parse("3.1...4.2.......")).minimal
    True
    >>> m = minimality(parse("3.1...4.2......1"))   # D4 added: now A3 or D4 may go
    >>> m.unique, m.labels(make_geometry(4))
    (True, ['A3', 'D4'])
    >>> minimality(parse("1..." "..1." ".1.." "...1")).status
    <Status.MULTIPLE: 'multiple'>
    >>> killer = parse("AABCDDBBEFGHEFHH 5,6,4,5,3,7,2,8 3......2........")  # unique with no givens
    >>> killer_check = minimality(killer)
    >>> killer_check.unique, killer_check.labels(killer.geometry)
    (True, ['A1', 'B4'])
    """
    start = time.perf_counter()
    g = puzzle.geometry
    if session is None:
        session = session_for(g, solver)
    elif session.geometry != g:
        raise InputError(f"the session is for {session.geometry.name}, the puzzle "
                         f"{g.name}")
    calls = session.calls

    def done(status: Status, **info) -> Minimality:
        return Minimality(status, calls=session.calls - calls,
                          seconds=time.perf_counter() - start, **info)

    if puzzle.clashes():
        return done(Status.NONE)
    givens = list(puzzle.givens)
    constraints = puzzle.constraints
    try:
        solution = session.solve(givens, constraints)
        if solution is None:
            return done(Status.NONE)
        check_solutions(puzzle, [solution], f"sat:solver={session.solver_name}")
        other = session.other_solution(givens, solution, constraints)
        if other is not None:
            check_solutions(puzzle, [other], f"sat:solver={session.solver_name}")
            return done(Status.MULTIPLE, solution=solution, other=other)
        redundant = redundant_givens(givens, solution, session, constraints)
        return done(Status.UNIQUE, redundant=tuple(redundant), solution=solution)
    finally:
        session.release(constraints)
