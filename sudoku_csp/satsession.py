"""One SAT solver per geometry, asked again and again about puzzles: the core that the
generator's uniqueness session (:class:`sudoku_csp.generate.UniquenessSession`) and the setter
tools' part session (:class:`sudoku_csp.setter.PartSession`) share.

The geometry's formula is built and loaded once. A puzzle is put to it as assumptions, so
that nothing is ever reloaded for the next one: each given is its cell's literal, each typed
constraint its clauses behind a selector of its own (added the first time it is asked about,
auxiliaries above every variable in use), and a solution to look past an exclusion clause
behind another selector. A selector that is not assumed switches its clauses off; retired,
they are off for good. Every grid read back is checked against the puzzle by
:mod:`sudoku_csp.verify` before anyone sees it.

The solver underneath is a :class:`~sudoku_csp.satsolver.SolverSession`: with ``recycle`` it is
rebuilt after that many retirements (a long-lived session that retires as it goes, like the
generator's), which voids every selector handed out before; without, it is loaded once and
holds every selector for the session's life (the setter tools keep theirs).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence

from pysat.solvers import Solver

from sudoku_csp.constraints import Constraint, cnf_clauses
from sudoku_csp.deadline import NEVER, Deadline
from sudoku_csp.encodings import cnf
from sudoku_csp.encodings.cnf import DEFAULT_AMO, DEFAULT_ENCODING
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Geometry, Grid
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsolver import (
    DEFAULT_SOLVER,
    SolverSession,
    add_clauses,
    capabilities,
    solve_until,
)
from sudoku_csp.verify import check_solutions

__all__ = ["GeometrySession"]


class GeometrySession:
    """One incremental PySAT solver loaded with ``geometry``'s formula, answering questions
    under assumptions (:meth:`ask`): givens as literals (:meth:`literals`), typed constraints
    behind selectors (:meth:`guard`), solutions excluded behind selectors (:meth:`exclude`),
    the grid of a satisfiable answer read back verified (:meth:`grid`).

    ``recycle``: rebuild the solver after that many retired selectors (and on demand after
    :meth:`close`); a rebuild voids every selector handed out before (:attr:`builds` counts
    them, so an owner holding selectors can tell). None: loaded once, never rebuilt, and
    closed for good by :meth:`close`. InputError for a solver that cannot take assumptions
    incrementally (it would answer for another puzzle). Not thread-safe.

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.constraints import Cage
    >>> from sudoku_csp.geometry import EMPTY
    >>> s = GeometrySession(make_geometry(4))
    >>> blank, cage = (EMPTY,) * 16, Cage((0, 1), 3)
    >>> s.ask([*s.literals(blank), s.guard(cage)])
    True
    >>> grid = s.grid(Puzzle(s.geometry, blank, constraints=(cage,)))
    >>> grid[:2] in ((0, 1), (1, 0)), s.ask([*s.literals(grid), s.exclude(grid)]), s.calls
    (True, False, 2)
    >>> s.close()
    """

    def __init__(self, geometry: Geometry, *, solver: str = DEFAULT_SOLVER,
                 encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
                 options: cnf.Options = None, recycle: int | None = None,
                 deadline: Deadline = NEVER) -> None:
        """Build the formula (looking at ``deadline``: :class:`~sudoku_csp.deadline.Expired`
        when it passes first; the empty 35×35 grid's takes seconds); the solver is loaded
        on first use."""
        self.caps = capabilities(solver)
        if not (self.caps.assumptions and self.caps.incremental):
            raise InputError(f"the {solver} solver cannot take assumptions incrementally, "
                             "which one solver asked again and again needs")
        if recycle is not None and recycle < 1:
            raise InputError("recycle must be at least 1")
        self.geometry = geometry
        self.solver_name = solver
        self.options = options
        formula = cnf.build(geometry, encoding, amo, deadline=deadline)
        self._session = SolverSession(solver, formula, recycle)
        self.vars = formula.vars
        self.calls = 0
        """Solver calls made (:meth:`ask`, :meth:`ask_within`)."""
        self.deadline: Deadline = NEVER
        """When loading and every question must end (:meth:`until`)."""
        self._guards: dict[Constraint, int] = {}  # constraint -> the selector of its clauses
        self._build = 0  # the solver build the guards belong to

    # -- the solver -------------------------------------------------------------------------
    @property
    def builds(self) -> int:
        """How many times the solver has been loaded: a selector handed out under an
        earlier build is void."""
        return self._session.builds

    def solver(self) -> Solver:
        """The loaded solver (loaded under :attr:`deadline` when there is none; ValueError
        once a session without ``recycle`` is closed). A rebuilt one holds none of the old
        one's guarded clauses, so the constraints' selectors are forgotten."""
        if self._session.recycle is None and self._session.solver is None \
                and self._session.builds:
            raise ValueError("the session is closed")
        solver = self._session.get(self.deadline)
        if self._session.builds != self._build:
            self._build = self._session.builds
            self._guards.clear()
        return solver

    def close(self) -> None:
        """Free the solver (rebuilt on demand when the session recycles)."""
        self._session.close()
        self._guards.clear()

    @contextlib.contextmanager
    def until(self, deadline: Deadline) -> Iterator[None]:
        """Within the block, loading and questions end at ``deadline``."""
        before, self.deadline = self.deadline, deadline
        try:
            yield
        finally:
            self.deadline = before

    # -- assumptions --------------------------------------------------------------------------
    def literals(self, givens: Sequence[int]) -> list[int]:
        """The literal of every given (``EMPTY``: none), in cell order; InputError when
        ``givens`` is not one value per cell."""
        if len(givens) != self.geometry.ncells:
            raise InputError(f"expected {self.geometry.ncells} givens, got {len(givens)}")
        return self.vars.literals(givens)

    def literal(self, cell: int, digit: int) -> int:
        """The literal of "``cell`` holds ``digit``"."""
        return self.vars.x(cell, digit)

    def guard(self, constraint: Constraint) -> int:
        """The selector of ``constraint``'s clauses, which join the solver behind a new one
        the first time it is asked for since the solver was loaded (auxiliaries numbered
        above every variable in use), so a puzzle that changes one cage adds only that
        cage's clauses."""
        solver = self.solver()
        selector = self._guards.get(constraint)
        if selector is None:
            session = self._session
            selector = session.selector()
            clauses, top = cnf_clauses(self.geometry, [constraint], start=session.next_var,
                                       options=self.options, guard=-selector)
            session.reserve(top)
            add_clauses(solver, clauses)
            self._guards[constraint] = selector
        return selector

    def guard_clauses(self, clauses: Iterable[Sequence[int]]) -> int:
        """A new selector behind which ``clauses`` (over the formula's variables) join the
        solver."""
        solver = self.solver()
        selector = self._session.selector()
        add_clauses(solver, [[*clause, -selector] for clause in clauses])
        return selector

    def exclude(self, solution: Sequence[int]) -> int:
        """A new selector whose clause rules ``solution`` out."""
        return self.guard_clauses([self.vars.exclusion(solution)])

    def retire(self, selector: int) -> None:
        """Switch ``selector``'s clauses off for good (with ``recycle``: the solver is
        rebuilt after that many). With no solver loaded they are gone already."""
        if self._session.solver is not None:
            self._session.retire(selector)

    def release(self, constraints: Iterable[Constraint]) -> None:
        """Retire the clauses of ``constraints`` (one asked about again later gets them back
        under a new selector); those never asked about are passed over."""
        for constraint in constraints:
            selector = self._guards.pop(constraint, None)
            if selector is None:
                continue
            self._session.retire(selector)
            if self._session.solver is None:  # recycled: every guard went with it
                self._guards.clear()
                return

    # -- questions ------------------------------------------------------------------------------
    def ask(self, assumptions: list[int]) -> bool | None:
        """Whether the formula and the clauses of the assumed selectors hold with
        ``assumptions``; None when :attr:`deadline` passed first (the solver is then not
        called) or stopped the search. Ctrl-C closes the solver (it may be unusable) and
        goes on."""
        if self.deadline.expired():
            return None
        self.calls += 1
        solver = self.solver()
        try:
            return solve_until(solver, self.caps, assumptions, self.deadline)
        except KeyboardInterrupt:
            self.close()
            raise

    def ask_within(self, assumptions: list[int], conflicts: int) -> bool | None:
        """:meth:`ask` with at most ``conflicts`` conflicts (a bound on work, the same on
        every machine), for a solver with conflict budgets (:attr:`caps`); None when the
        budget ran out first. The deadline is not looked at."""
        self.calls += 1
        solver = self.solver()
        solver.conf_budget(conflicts)
        try:
            return solver.solve_limited(assumptions=assumptions)
        except KeyboardInterrupt:
            self.close()
            raise

    def grid(self, puzzle: Puzzle) -> Grid:
        """The grid of the last answer, which was satisfiable, checked as a solution of
        ``puzzle`` (:class:`~sudoku_csp.verify.WrongSolutionError` when it is not)."""
        grid = self.vars.read_model(self.solver().get_model())
        check_solutions(puzzle, [grid], f"sat:solver={self.solver_name}")
        return grid

    def core(self) -> list[int]:
        """The assumptions the last unsatisfiable answer rests on."""
        return list(self.solver().get_core() or [])
