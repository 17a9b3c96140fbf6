"""One SAT solver per geometry, asked again and again about puzzles: :class:`SolverSession`,
the loaded solver with its selectors, under the SAT backend's incremental mode and under
:class:`GeometrySession`, the core that the generator's uniqueness session
(:class:`sudoku_csp.generate.UniquenessSession`) and the setter tools' part session
(:class:`sudoku_csp.setter.PartSession`) share.

The geometry's formula is built and loaded once. A puzzle is put to it as assumptions, so
that nothing is ever reloaded for the next one: each given is its cell's literal, each typed
constraint its clauses behind a selector of its own (added the first time it is asked about,
auxiliaries above every variable in use), and a solution to look past an exclusion clause
behind another selector. A selector that is not assumed switches its clauses off; retired,
they are off for good. Every grid read back is checked against the puzzle by
:mod:`sudoku_csp.verify` before anyone sees it.

The solver underneath is a :class:`SolverSession`: with ``recycle`` it is
rebuilt after that many retirements (a long-lived session that retires as it goes, like the
generator's), which voids every selector handed out before; without, it is loaded once and
holds every selector for the session's life (the setter tools keep theirs).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from operator import sub
from typing import Any

from pysat.solvers import Solver

from sudoku_csp.constraints import CnfContext, Constraint, cnf_clauses
from sudoku_csp.constraints.translation import Clause, Definition, with_guard
from sudoku_csp.deadline import NEVER, Deadline
from sudoku_csp.encodings import cnf
from sudoku_csp.encodings.cnf import DEFAULT_AMO, DEFAULT_ENCODING
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Geometry, Grid
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsolver import (
    DEFAULT_SOLVER,
    STAT_NAMES,
    add_clauses,
    capabilities,
    load,
    solve_until,
)
from sudoku_csp.verify import check_solutions

__all__ = ["DEAD_PER_VARIABLE", "SELECTOR_BLOCK", "WASTE_PER_CLAUSE", "GeometrySession",
           "SolverSession"]


DEAD_PER_VARIABLE = 8
"""Variables a :class:`SolverSession` carries above its formula that its latest puzzle does
not use (retired selectors and auxiliaries, the rest of the scratch region) before it is
rebuilt, per variable of its formula: every solve and model read pays for each variable the
solver holds (100 killers three times: 11.7 ms a puzzle past 100,000, 5.1 past 8×, 5.5 and
6.0 past 2× and 1×; docs/design.md). One puzzle at a time: :data:`WASTE_PER_CLAUSE`."""

WASTE_PER_CLAUSE = 4
"""When a :class:`SolverSession` asked one puzzle at a time is rebuilt: once the variables
it held that a puzzle did not use, summed over the puzzles since it was built, pass this
many times its formula's clauses (a dead variable costs a 9×9 puzzle about 45 ns, a rebuild
about 100 ns a clause). 2 and 4 measured best, a tenth below :data:`DEAD_PER_VARIABLE`
alone; 0.5, 1 and 8 between (docs/design.md)."""


SELECTOR_BLOCK = 32
"""Selectors a :class:`SolverSession` takes at once (:meth:`SolverSession.selector`), so the
scratch region above them stays the highest variables in use and grows in place: moving it
writes a puzzle's clauses twice (five published puzzles did each round, 0.5-1.2 ms each,
when each selector came singly above the region; docs/design.md)."""


class SolverSession:
    """One reusable solver holding one formula, with its selectors: selector-guarded
    clauses are switched off for good by :meth:`retire`, and the solver is rebuilt after
    ``recycle`` of them so retired clauses never pile up (None: never rebuilt for that, the
    owner keeps its selectors for the solver's life). Shared by the incremental mode and by
    :class:`GeometrySession`.

    >>> from sudoku_csp.variants import make_geometry
    >>> session = SolverSession("glucose4", cnf.build(make_geometry(4)), recycle=1)
    >>> solver, sel = session.get(), session.selector()
    >>> grid = session.vars.read_model(solver.get_model()) if solver.solve() else None
    >>> solver.add_clause(session.vars.exclusion(grid, guard=-sel))
    >>> solver.solve(assumptions=[sel]), session.retire(sel), session.builds, session.solver
    (True, None, 1, None)
    """

    def __init__(self, name: str, formula: cnf.Formula, recycle: int | None, *,
                 one_at_a_time: bool = False) -> None:
        self.name = name
        self.formula = formula
        self.recycle = recycle
        self.one_at_a_time = one_at_a_time
        """Asked about one puzzle at a time, each retired before the next (the incremental
        mode): every variable above the formula that a puzzle does not use is dead, and
        their cost counts towards a rebuild (:data:`WASTE_PER_CLAUSE`). Otherwise only
        :data:`DEAD_PER_VARIABLE` holds: the sessions of :class:`GeometrySession`, whose
        constraints stay live behind their selectors, and the encodings study's."""
        self.vars = formula.vars
        self.solver: Solver | None = None
        self.next_var = 0
        self.retired = 0
        self.builds = 0
        # The scratch region (see scratch): its first variable, its size, and how many of
        # them the latest puzzle uses.
        self.scratch_start = self.scratch_size = self.scratch_used = 0
        self.spare = range(0)  # selectors taken as a block and not handed out yet
        self.waste = 0  # dead variables summed over the puzzles since the build
        self.defined: dict[Definition, tuple[int, ...]] = {}
        """The definitions the loaded solver holds, with their auxiliaries (:meth:`define`)."""
        self.switches: dict[Definition, int] = {}
        """Per definition held, the variable that switches its clauses on (:meth:`define`)."""
        self._stats = capabilities(name).stats
        self._counted: tuple[int, ...] = ()  # the solver's counts at the last reading
        self._count_names: tuple[str, ...] = ()  # the STAT_NAMES this solver keeps

    def get(self, deadline: Deadline = NEVER) -> Solver:
        """The loaded solver, (re)built with the formula when there is none (``deadline``:
        see :func:`load`)."""
        if self.solver is None:
            self.solver = load(self.name, self.formula.clauses, self.formula.x_vars,
                               deadline=deadline)
            self.next_var = self.formula.nv + 1
            self.scratch_size = self.scratch_used = self.waste = 0
            self.spare = range(0)
            self.retired = 0
            self.defined = {}
            self.switches = {}
            self.builds += 1
            if self._stats:
                reading = self.solver.accum_stats()
                self._count_names = tuple(k for k in STAT_NAMES if k in reading)
                self._counted = tuple(reading[k] for k in self._count_names)
        return self.solver

    def counts(self) -> dict[str, Any]:
        """The growth of the loaded solver's :data:`STAT_NAMES` counts since the previous
        call, or since it was built (empty when the solver keeps none). Only solving and
        propagating move them, never adding clauses, so one reading after each puzzle both
        ends its count and starts the next one's."""
        if self.solver is None or not self._count_names:
            return {}
        before = self._counted
        self._counted = tuple(map(self.solver.accum_stats().get, self._count_names))
        return dict(zip(self._count_names, map(sub, self._counted, before), strict=True))

    def selector(self) -> int:
        """A fresh selector variable: the next of a block of :data:`SELECTOR_BLOCK` taken
        above every variable in use when the last one is spent.

        >>> from sudoku_csp.variants import make_geometry
        >>> session = SolverSession("minisat22", cnf.build(make_geometry(4)), recycle=None)
        >>> _ = session.get()
        >>> session.selector(), session.selector(), session.next_var == 65 + SELECTOR_BLOCK
        (65, 66, True)
        """
        if not self.spare:
            self.spare = range(self.next_var, self.next_var + SELECTOR_BLOCK)
            self.next_var = self.spare.stop
        var, self.spare = self.spare[0], self.spare[1:]
        return var

    def reserve(self, top: int) -> None:
        """Variables up to ``top`` are taken (auxiliaries of guarded clauses added for one
        puzzle): later selectors come above them."""
        self.next_var = max(self.next_var, top + 1)

    def define(self, definitions: Iterable[Definition]) -> dict[Definition, tuple[int, ...]]:
        """Have the loaded solver hold ``definitions``: the clauses of those it lacks join
        it for every puzzle after (they constrain no grid:
        :class:`~sudoku_csp.constraints.translation.Definition`), each definition's behind
        a switch (:attr:`switches`; its first variable, its phase false) that the puzzles
        reading it turn on (:meth:`switched_on`): the others' digits set none of its
        auxiliaries (published between lines 1.6 -> 1.3 ms after the other files' lines:
        docs/design.md). Returns every definition held, for the puzzles' clauses to read
        (:func:`~sudoku_csp.constraints.cnf_clauses`, ``shared``). Their variables, above
        every variable in use, are live for the rebuild rules; a rebuild drops them, and
        they join again when asked for.

        >>> from sudoku_csp.constraints import Sandwich, definitions
        >>> from sudoku_csp.variants import make_geometry
        >>> g = make_geometry(4)
        >>> session = SolverSession("minisat22", cnf.build(g), recycle=None)
        >>> _ = session.get()
        >>> line = definitions(g, [Sandwich((0, 1, 2, 3), "right", 2)])
        >>> held = session.define(line)
        >>> [aux[:5] for aux in held.values()], session.switched_on(line, -99)
        ([(66, 67, 68, 69, 70)], [(65, -99)])
        """
        assert self.solver is not None
        ctx = CnfContext(self.vars, start=self.next_var)
        clauses: list[Sequence[int]] = []
        for definition in definitions:
            if definition not in self.defined:
                switch = self.switches[definition] = ctx.new_var()
                ctx.guard = -switch  # each clause written with it (CnfContext.fill)
                self.defined[definition], made = ctx.defined(definition)
                clauses += with_guard(made, -switch)
        if clauses:
            self.next_var = ctx.top + 1
            add_clauses(self.solver, clauses)
            if capabilities(self.name).phases:
                self.solver.set_phases([-v for v in self.switches.values()])
        return self.defined

    def switched_on(self, definitions: Iterable[Definition], guard: int) -> list[Clause]:
        """The clauses that turn on the switches of ``definitions`` (held:
        :meth:`define`, whose example shows them) while ``guard`` is false (a puzzle's
        ``-selector``)."""
        switches = self.switches
        return [(switches[d], guard) for d in definitions]

    def scratch(self, build: Callable[[int], tuple[list[Sequence[int]], int]]
                ) -> list[Sequence[int]]:
        """The clauses ``build(start)`` returns (with the highest variable they use), their
        auxiliaries numbered from ``start``, for one puzzle whose clauses all carry its
        selector, asked about alone (its selector the only one assumed). Every such puzzle
        numbers its auxiliaries in one region of variables, so that a long run holds no
        more than its largest puzzle's rather than every puzzle's (each solve and model read
        pays for every variable the solver holds). Sound because a variable of the region
        appears only in clauses of such puzzles, each carrying its puzzle's selector (the
        clauses learnt from them keep it: no clause holds a selector positively, so no
        resolution removes it): switched off for good once retired, and off at will while
        not assumed. A puzzle that needs more than the region grows it in place when the
        region holds the highest variables in use (selectors come in blocks below it:
        :data:`SELECTOR_BLOCK`); otherwise it gets a new one above every variable in use,
        its clauses written again there, the old one's variables set false (they are only
        in clauses of puzzles retired or never assumed again, a puzzle cut short or failed
        midway among them, so fixing them can at most switch those off), and only once the
        session has moved: nothing raised on the way leaves it numbering puzzles in them.

        >>> from sudoku_csp.variants import make_geometry
        >>> session = SolverSession("minisat22", cnf.build(make_geometry(4)), recycle=None)
        >>> _ = session.get(); sel = session.selector()
        >>> session.scratch(lambda start: ([(-sel, start, start + 1)], start + 1))
        [(-65, 97, 98)]
        >>> session.retire(sel); sel = session.selector()
        >>> session.scratch(lambda start: ([(-sel, -start)], start))   # the region again
        [(-66, -97)]
        >>> session.scratch(lambda start: ([(-sel, start + 2)], start + 2))   # grown in place
        [(-66, 99)]
        """
        old = range(self.scratch_start, self.scratch_start + self.scratch_size)
        if old:
            clauses, top = build(old.start)
            if top < old.stop:
                self.scratch_used = max(0, top + 1 - old.start)
                return clauses
            if self.next_var == old.stop:  # nothing above the region: it grows in place
                self.scratch_size = self.scratch_used = top + 1 - old.start
                self.next_var = top + 1
                return clauses
        clauses, top = build(self.next_var)
        self.scratch_start = self.next_var
        self.scratch_size = self.scratch_used = max(0, top + 1 - self.scratch_start)
        self.next_var += self.scratch_size
        if old:
            assert self.solver is not None
            add_clauses(self.solver, [(-v,) for v in old])
        return clauses

    def retire(self, selector: int) -> None:
        """Switch off ``selector``'s clauses for good; rebuild after ``recycle`` of them, or
        once the variables above the formula that the latest puzzle does not use pass
        :data:`DEAD_PER_VARIABLE` times the formula's, or (:attr:`one_at_a_time`) once
        those summed over the puzzles pass :data:`WASTE_PER_CLAUSE` times its clauses
        (never when ``recycle`` is None)."""
        assert self.solver is not None
        self.solver.add_clause([-selector])
        self.retired += 1
        nv = self.formula.nv
        # each definition's auxiliaries and its switch
        defined = sum(map(len, self.defined.values())) + len(self.switches)
        dead = self.next_var - 1 - nv - self.scratch_used - defined
        if self.one_at_a_time:
            self.waste += dead
        if self.recycle is not None and (
                self.retired >= self.recycle or dead > DEAD_PER_VARIABLE * nv
                or self.waste > WASTE_PER_CLAUSE * len(self.formula.clauses)):
            self.close()

    def renew(self) -> None:
        """Rebuild the loaded solver now, holding again the definitions it held (they depend
        on the grid alone): the clauses it learnt and the phases it saved on earlier
        puzzles go, so a puzzle it met is searched as a new one would be, and the next
        puzzle does not pay the loading (a benchmark's rounds). No solver loaded: nothing.
        For a session whose owner keeps no selector across it (the sat backend's): a
        rebuild voids them.

        >>> from sudoku_csp.constraints import Sandwich, definitions
        >>> from sudoku_csp.variants import make_geometry
        >>> g = make_geometry(4)
        >>> session = SolverSession("minisat22", cnf.build(g), recycle=None)
        >>> _ = session.get()
        >>> held = session.define(definitions(g, [Sandwich((0, 1, 2, 3), "right", 2)]))
        >>> session.renew()
        >>> session.builds, list(session.defined) == list(held)
        (2, True)
        """
        if self.solver is None:
            return
        held = list(self.defined)
        self.close()
        self.get()
        if held:
            self.define(held)

    def close(self) -> None:
        """Free the solver (:meth:`get` rebuilds it)."""
        if self.solver is not None:
            self.solver.delete()
            self.solver = None
        self.retired = 0


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
                                       options=self.options, guard=-selector, whole=False)
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
