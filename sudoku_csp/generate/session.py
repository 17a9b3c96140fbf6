"""The uniqueness session: one incremental SAT solver per geometry that answers, again and
again, "under these givens (and constraints), is there a solution other than this one?"."""

from __future__ import annotations

import atexit
import contextlib
from collections import OrderedDict
from collections.abc import Iterator, Sequence

from pysat.solvers import Solver

from sudoku_csp.constraints import Constraint, cnf_clauses
from sudoku_csp.deadline import NEVER, Deadline, Expired
from sudoku_csp.encodings import cnf
from sudoku_csp.encodings.cnf import DEFAULT_AMO, DEFAULT_ENCODING
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Geometry, Grid
from sudoku_csp.satsolver import DEFAULT_SOLVER, SolverSession, capabilities, solve_until
from sudoku_csp.variants import make_geometry  # noqa: F401 - the doctests use it

DEFAULT_RECYCLE = 1000
"""Retired selectors (excluded solutions, dropped constraints) before the session's solver is
rebuilt."""


class UniquenessSession:
    """One incremental SAT solver loaded with the CNF of ``geometry``; givens are
    assumptions, a known solution is excluded by a selector-guarded clause, and typed
    constraints (``constraints=``) are clauses behind selectors of their own.

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
        if recycle < 1:
            raise InputError("recycle must be at least 1")
        self.geometry = geometry
        self.solver_name = solver
        self.options = options
        # Building looks at the deadline (Expired): the empty 35x35 grid's takes seconds.
        formula = cnf.build(geometry, encoding, amo, deadline=deadline)
        self._session = SolverSession(solver, formula, recycle)
        self._vars = self._session.vars
        self._caps = capabilities(solver)
        self.calls = 0
        self._excluded: tuple[Grid, int] | None = None
        self._guards: dict[Constraint, int] = {}  # constraint -> the selector of its clauses
        self._build = 0  # the solver build the two above belong to
        self.budget: int | None = None  # conflicts per has_other question (budgeted)
        self.deadline: Deadline = NEVER  # when every question must be answered (until)

    def close(self) -> None:
        """Free the solver (it is rebuilt on demand)."""
        self._session.close()
        self._excluded = None
        self._guards.clear()

    def _solver(self) -> Solver:
        """The loaded solver. A rebuilt one (recycled, or closed after an interrupt) holds
        none of the old one's guarded clauses, so their selectors are forgotten."""
        solver = self._session.get(self.deadline)
        if self._session.builds != self._build:
            self._build = self._session.builds
            self._excluded = None
            self._guards.clear()
        return solver

    def _assumptions(self, givens: Sequence[int]) -> list[int]:
        if len(givens) != self.geometry.ncells:
            raise InputError(f"expected {self.geometry.ncells} givens, got {len(givens)}")
        return self._vars.literals(givens)

    def _solve(self, assumptions: list[int]) -> bool:
        self.deadline.check("asking the solver")  # before the call: a passed deadline
        self.calls += 1
        solver = self._solver()
        try:
            answer = solve_until(solver, self._caps, assumptions, self.deadline)
        except KeyboardInterrupt:
            self.close()  # the solver may be unusable after an interrupt
            raise
        if answer is None:  # stopped: never to be read as "no (other) solution"
            raise Expired(f"{self.deadline.words()} reached while asking the solver")
        return answer

    def solve(self, givens: Sequence[int], constraints: Sequence[Constraint] = ()
              ) -> Grid | None:
        """A solution under ``givens`` (a grid, ``EMPTY`` for blanks) and ``constraints``,
        or None."""
        if not self._solve([*self._assumptions(givens), *self._guard(constraints)]):
            return None
        return self._vars.read_model(self._solver().get_model())

    def _selector(self, solution: Sequence[int]) -> int:
        """The selector of the clause excluding ``solution`` (added on first use; the
        previous exclusion is retired, which rebuilds the solver every ``recycle``)."""
        solution = tuple(solution)
        self._solver()  # forgets the exclusion if the solver was rebuilt
        if self._excluded is not None:
            if self._excluded[0] == solution:
                return self._excluded[1]
            self._session.retire(self._excluded[1])
            self._excluded = None
        solver = self._solver()
        selector = self._session.selector()
        solver.add_clause(self._vars.exclusion(solution, guard=-selector))
        self._excluded = (solution, selector)
        return selector

    def _guard(self, constraints: Sequence[Constraint]) -> list[int]:
        """The selectors of ``constraints``' clauses. A constraint not seen since the last
        rebuild has its clauses added now (auxiliaries above every variable in use), so a
        puzzle that changes one cage adds only that cage's clauses, never a new formula."""
        if not constraints:
            return []
        solver = self._solver()
        selectors = []
        for constraint in constraints:
            selector = self._guards.get(constraint)
            if selector is None:
                selector = self._session.selector()
                clauses, top = cnf_clauses(self.geometry, [constraint],
                                           start=self._session.next_var,
                                           options=self.options)
                self._session.reserve(top)
                for clause in clauses:
                    clause.append(-selector)
                    solver.add_clause(clause)
                self._guards[constraint] = selector
            selectors.append(selector)
        return selectors

    def release(self, constraints: Sequence[Constraint]) -> None:
        """Retire the clauses of ``constraints`` for good (a constraint asked about again
        later gets them back under a new selector). Constraints never asked about are
        ignored."""
        for constraint in constraints:
            selector = self._guards.pop(constraint, None)
            if selector is None:
                continue
            self._session.retire(selector)
            if self._session.solver is None:  # recycled: every guard went with it
                self._guards.clear()
                self._excluded = None
                return

    def other_solution(self, givens: Sequence[int], solution: Sequence[int],
                       constraints: Sequence[Constraint] = ()) -> Grid | None:
        """A solution under ``givens`` and ``constraints`` that differs from ``solution``,
        or None (then ``solution``, if it fits them, is the only one)."""
        if not self.has_other(givens, solution, constraints):
            return None
        return self._vars.read_model(self._solver().get_model())

    def has_other(self, givens: Sequence[int], solution: Sequence[int],
                  constraints: Sequence[Constraint] = ()) -> bool:
        """Whether ``givens`` and ``constraints`` allow a solution other than ``solution``
        (no model decoded). Under :meth:`budgeted`, a question the budget does not settle
        is answered True: every generator step then keeps what it asked about (a given, a
        piece), which only ever leaves a puzzle with more than it needs, never a puzzle
        with two solutions."""
        selector = self._selector(solution)
        guards = self._guard(constraints)  # after: retiring an exclusion may rebuild
        assumptions = [*self._assumptions(givens), selector, *guards]
        if self.budget is None or not self._caps.budget:
            return self._solve(assumptions)
        self.calls += 1
        solver = self._solver()
        solver.conf_budget(self.budget)
        try:
            answer = solver.solve_limited(assumptions=assumptions)
        except KeyboardInterrupt:
            self.close()
            raise
        return True if answer is None else bool(answer)

    @contextlib.contextmanager
    def until(self, deadline: Deadline) -> Iterator[None]:
        """Within the block, a question the solver has not answered by ``deadline`` raises
        :class:`~sudoku_csp.deadline.Expired` (the solver stopped inside the call), and so
        does every question asked once it has passed."""
        before, self.deadline = self.deadline, deadline
        try:
            yield
        finally:
            self.deadline = before

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
