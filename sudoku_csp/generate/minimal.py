"""Minimality: is a puzzle unique, and which of its givens could go one at a time keeping it
so?"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sudoku_csp.deadline import Deadline, Expired, Limit
from sudoku_csp.errors import InputError
from sudoku_csp.generate.clearing import redundancy
from sudoku_csp.generate.session import UniquenessSession, session_for
from sudoku_csp.geometry import EMPTY, Geometry, Grid
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Status
from sudoku_csp.satsolver import DEFAULT_SOLVER
from sudoku_csp.variants import make_geometry  # noqa: F401 - the doctests use it


@dataclass(frozen=True)
class Minimality:
    """Whether a puzzle is unique, and which of its givens are redundant.

    ``status`` is UNIQUE, MULTIPLE, NONE, or UNKNOWN when the time limit came before the
    verdict. ``redundant`` lists the given cells whose removal leaves the puzzle unique
    (only computed for unique puzzles); ``undecided`` the given cells the time limit left
    unasked (then ``complete`` is False, and ``redundant`` holds those found so far);
    ``solution`` is the solution (unique puzzles) and ``other`` a second one (MULTIPLE).
    """

    status: Status
    redundant: tuple[int, ...] = ()
    solution: Grid | None = None
    other: Grid | None = None
    calls: int = 0
    seconds: float = 0.0
    undecided: tuple[int, ...] = ()
    complete: bool = True

    @property
    def unique(self) -> bool:
        return self.status is Status.UNIQUE

    @property
    def minimal(self) -> bool:
        """Unique, and every given proven necessary."""
        return self.unique and self.complete and not self.redundant

    def labels(self, geometry: Geometry, cells: tuple[int, ...] | None = None) -> list[str]:
        """The redundant givens (or ``cells``) as display labels (``A1``, ...)."""
        return [geometry.label(c) for c in (self.redundant if cells is None else cells)]


def minimality(puzzle: Puzzle, *, session: UniquenessSession | None = None,
               solver: str = DEFAULT_SOLVER, time_limit: Limit = None) -> Minimality:
    """Is ``puzzle`` unique, and which givens could be removed one at a time keeping it so?

    One loaded solver (``session``, else a shared one for the geometry): a solve for the
    solution, one for uniqueness, then one per given with that given's assumption dropped.
    ``time_limit`` (seconds, or the caller's :class:`~sudoku_csp.deadline.Deadline`) stops
    the questions, the solver inside a call included: the result then says what it settled
    (``complete`` False: the status UNKNOWN, or the givens left ``undecided``).
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
    >>> from sudoku_csp.deadline import Deadline
    >>> minimality(killer, time_limit=Deadline(0.0)).status   # long past: nothing settled
    <Status.UNKNOWN: 'unknown'>
    """
    start = time.perf_counter()
    deadline = Deadline.of(time_limit)
    g = puzzle.geometry
    if session is None:
        try:
            session = session_for(g, solver, deadline=deadline)
        except Expired:  # building the formula took the time: nothing settled
            return Minimality(Status.UNKNOWN, seconds=time.perf_counter() - start,
                              complete=False)
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
        with session.until(deadline):
            try:
                # The session checks every grid it returns against these givens and rules.
                solution = session.solve(givens, constraints)
                if solution is None:
                    return done(Status.NONE)
                other = session.other_solution(givens, solution, constraints)
            except Expired:
                return done(Status.UNKNOWN, complete=False)
            if other is not None:
                return done(Status.MULTIPLE, solution=solution, other=other)
            redundant: list[int] = []
            asked: set[int] = set()
            try:
                for cell, spare in redundancy(givens, solution, session, constraints):
                    asked.add(cell)
                    if spare:
                        redundant.append(cell)
            except Expired:
                left = tuple(c for c, d in enumerate(givens) if d != EMPTY and c not in asked)
                return done(Status.UNIQUE, redundant=tuple(redundant), solution=solution,
                            undecided=left, complete=False)
            return done(Status.UNIQUE, redundant=tuple(redundant), solution=solution)
    finally:
        session.release(constraints)
