"""The uniqueness session: one incremental SAT solver per geometry that answers, again and
again, "under these givens (and constraints), is there a solution other than this one?"."""

from __future__ import annotations

import atexit
import contextlib
from collections import OrderedDict
from collections.abc import Iterator, Sequence

from sudoku_csp.constraints import Constraint
from sudoku_csp.deadline import NEVER, Deadline, Expired
from sudoku_csp.encodings import cnf
from sudoku_csp.encodings.cnf import DEFAULT_AMO, DEFAULT_ENCODING
from sudoku_csp.geometry import Geometry, Grid
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsession import GeometrySession
from sudoku_csp.satsolver import DEFAULT_SOLVER
from sudoku_csp.variants import make_geometry  # noqa: F401 - the doctests use it

DEFAULT_RECYCLE = 1000
"""Retired selectors (excluded solutions, dropped constraints) before the session's solver is
rebuilt."""


class UniquenessSession:
    """One incremental SAT solver loaded with the CNF of ``geometry``
    (:class:`~sudoku_csp.satsession.GeometrySession`): givens are assumptions, a known
    solution is excluded by a selector-guarded clause (one at a time: the previous one is
    retired when another is asked about), and typed constraints (``constraints=``) are
    clauses behind selectors of their own, kept until :meth:`release`. The solver is rebuilt
    after ``recycle`` retired selectors. Every grid it returns is checked against the givens
    and constraints it answers for.

    Not thread-safe (one per thread or process).

    >>> from sudoku_csp.geometry import EMPTY
    >>> g = make_geometry(4)
    >>> s = UniquenessSession(g)
    >>> sol = s.solve((2, EMPTY, 0) + (EMPTY,) * 13)
    >>> s.has_other((2, EMPTY, 0) + (EMPTY,) * 13, sol), s.has_other(sol, sol)
    (True, False)
    >>> from sudoku_csp.constraints import Cage
    >>> cages = [Cage((0, 1), 3), Cage((2, 3), 7), Cage((4, 5), 7), Cage((6, 7), 3)]
    >>> grid = s.solve((EMPTY,) * 16, cages)
    >>> s.has_other((EMPTY,) * 16, grid, cages)   # four cages leave other grids
    True
    >>> s.release(cages)   # their clauses are retired for good
    """

    def __init__(self, geometry: Geometry, *, solver: str = DEFAULT_SOLVER,
                 encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
                 recycle: int = DEFAULT_RECYCLE, options: cnf.Options = None,
                 deadline: Deadline = NEVER) -> None:
        # Building looks at the deadline (Expired): the empty 35x35 grid's takes seconds.
        self._sat = GeometrySession(geometry, solver=solver, encoding=encoding, amo=amo,
                                    options=options, recycle=recycle, deadline=deadline)
        self.geometry = geometry
        self.solver_name = solver
        self._excluded: tuple[Grid, int, int] | None = None  # solution, selector, build
        self.budget: int | None = None  # conflicts per has_other question (budgeted)

    @property
    def calls(self) -> int:
        """Solver calls made so far."""
        return self._sat.calls

    @property
    def deadline(self) -> Deadline:
        """When every question must be answered (:meth:`until`)."""
        return self._sat.deadline

    def close(self) -> None:
        """Free the solver (it is rebuilt on demand)."""
        self._sat.close()
        self._excluded = None

    def _solve(self, assumptions: list[int]) -> bool:
        self.deadline.check("asking the solver")  # before the call: a passed deadline
        answer = self._sat.ask(assumptions)
        if answer is None:  # stopped: never to be read as "no (other) solution"
            raise Expired(f"{self.deadline.words()} reached while asking the solver")
        return answer

    def _grid(self, givens: Sequence[int], constraints: Sequence[Constraint]) -> Grid:
        return self._sat.grid(Puzzle(self.geometry, tuple(givens),
                                     constraints=tuple(constraints)))

    def solve(self, givens: Sequence[int], constraints: Sequence[Constraint] = ()
              ) -> Grid | None:
        """A solution under ``givens`` (a grid, ``EMPTY`` for blanks) and ``constraints``,
        or None."""
        if not self._solve([*self._sat.literals(givens), *self._guard(constraints)]):
            return None
        return self._grid(givens, constraints)

    def _selector(self, solution: Sequence[int]) -> int:
        """The selector of the clause excluding ``solution`` (added on first use; the
        previous exclusion is retired, which rebuilds the solver every ``recycle``)."""
        solution = tuple(solution)
        self._sat.solver()  # a rebuilt solver holds no exclusion
        if self._excluded is not None:
            excluded, selector, build = self._excluded
            self._excluded = None
            if build == self._sat.builds:
                if excluded == solution:
                    self._excluded = (excluded, selector, build)
                    return selector
                self._sat.retire(selector)
        selector = self._sat.exclude(solution)
        self._excluded = (solution, selector, self._sat.builds)
        return selector

    def _guard(self, constraints: Sequence[Constraint]) -> list[int]:
        """The selectors of ``constraints``' clauses (added on first use)."""
        return [self._sat.guard(c) for c in constraints]

    def release(self, constraints: Sequence[Constraint]) -> None:
        """Retire the clauses of ``constraints`` for good (a constraint asked about again
        later gets them back under a new selector). Constraints never asked about are
        ignored."""
        self._sat.release(constraints)

    def other_solution(self, givens: Sequence[int], solution: Sequence[int],
                       constraints: Sequence[Constraint] = ()) -> Grid | None:
        """A solution under ``givens`` and ``constraints`` that differs from ``solution``,
        or None (then ``solution``, if it fits them, is the only one)."""
        if not self.has_other(givens, solution, constraints):
            return None
        return self._grid(givens, constraints)

    def has_other(self, givens: Sequence[int], solution: Sequence[int],
                  constraints: Sequence[Constraint] = ()) -> bool:
        """Whether ``givens`` and ``constraints`` allow a solution other than ``solution``
        (no model decoded). Under :meth:`budgeted`, a question the budget does not settle
        is answered True: every generator step then keeps what it asked about (a given, a
        piece), which only ever leaves a puzzle with more than it needs, never a puzzle
        with two solutions."""
        selector = self._selector(solution)
        guards = self._guard(constraints)  # after: retiring an exclusion may rebuild
        assumptions = [*self._sat.literals(givens), selector, *guards]
        if self.budget is None or not self._sat.caps.budget:
            return self._solve(assumptions)
        answer = self._sat.ask_within(assumptions, self.budget)
        return True if answer is None else bool(answer)

    def until(self, deadline: Deadline) -> contextlib.AbstractContextManager[None]:
        """Within the block, a question the solver has not answered by ``deadline`` raises
        :class:`~sudoku_csp.deadline.Expired` (the solver stopped inside the call), and so
        does every question asked once it has passed."""
        return self._sat.until(deadline)

    @contextlib.contextmanager
    def budgeted(self, conflicts: int) -> Iterator[None]:
        """Within the block, :meth:`has_other` gives each question at most ``conflicts``
        conflicts (a bound on work, so the same seed still gives the same puzzles)."""
        before, self.budget = self.budget, conflicts
        try:
            yield
        finally:
            self.budget = before


_SESSIONS: OrderedDict[tuple[Geometry, str, str], UniquenessSession] = OrderedDict()
MAX_SESSIONS = 4  # a 25×25 formula holds 750k clauses: keep few loaded


def session_for(geometry: Geometry, solver: str = DEFAULT_SOLVER,
                encoding: str = DEFAULT_ENCODING, *,
                deadline: Deadline = NEVER) -> UniquenessSession:
    """A :class:`UniquenessSession` shared within this process, one per arguments (the
    :data:`MAX_SESSIONS` most recently used are kept; older ones are closed). A new one's
    formula is built under ``deadline`` (:class:`~sudoku_csp.deadline.Expired`)."""
    key = (geometry, solver, encoding)
    session = _SESSIONS.pop(key, None)
    if session is None:
        session = UniquenessSession(geometry, solver=solver, encoding=encoding,
                                    deadline=deadline)
        while len(_SESSIONS) >= MAX_SESSIONS:
            _SESSIONS.popitem(last=False)[1].close()
    _SESSIONS[key] = session
    return session


@atexit.register
def _close_sessions() -> None:
    # Solvers left to the garbage collector at interpreter exit fail in PySAT's __del__
    # (its module globals are already gone), printing tracebacks: close them first.
    while _SESSIONS:
        _SESSIONS.popitem()[1].close()
