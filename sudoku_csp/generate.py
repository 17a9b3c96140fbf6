"""Unique puzzles: minimality of givens, and a seeded generator of unique (minimal) puzzles.

Both rest on one question, asked many times against one loaded formula: *under these
givens, is there a solution other than the known one?* A :class:`UniquenessSession` holds
one incremental PySAT solver with the empty-grid CNF of a geometry
(:mod:`sudoku_csp.encodings.cnf`). The known solution S is excluded once, by the clause
``¬sel ∨ ¬x(c1, S1) ∨ … ∨ ¬x(cK, SK)`` guarded by a selector ``sel``; each question is then
one ``solve(assumptions=givens + [sel])``: UNSAT means S is the only solution. A new S
retires the old selector (unit ``¬sel``), and the solver is rebuilt after ``recycle`` of them.

- :func:`minimality`: unique? and which givens are redundant (the puzzle stays unique
  without them)? One solver call per given.
- :func:`generate`: a random complete grid (:func:`random_grid`: a SAT solver with seeded
  random phases, digits relabelled at random), then cells cleared in random order, one
  *symmetry group* at a time, each clearing kept only while the puzzle stays unique. Every
  emitted puzzle is re-checked by a second, independent backend (``check``, native by
  default) before it is yielded.

Failures: bad arguments are :class:`~sudoku_csp.errors.InputError`; giving up after
``attempts`` grids is :class:`GenerationError` (the request may just be too strict); a
``check`` backend that disagrees with the SAT session is :class:`CheckDisagreesError`, a
:class:`~sudoku_csp.errors.BackendError` (one of the two is wrong: a bug).

Symmetries and their groups of cells live in :mod:`sudoku_csp.symmetry`: a symmetric puzzle
has, in each group, either every cell given or none.

Why one greedy pass gives a minimal puzzle: a given that was kept could not be cleared at
that moment (two solutions), and clearing more givens later only adds solutions; so in the
final puzzle no given can be cleared alone. With a symmetry this holds for groups, not
single cells: ``minimal=True`` then also requires every single given to be necessary, found
by a short local search per grid (:func:`_repair`) and new grids when it fails.

Measured (``examples/generate_benchmark.py``, clearing random 9×9 grids): the session
answers in about 60 µs a question, the ``sat`` backend with ``limit=2`` (a second solver
call, a Result, verification) in 150 µs, ``native`` with ``limit=2`` in 290 µs; hence the
session for the many questions, and ``native`` for the one independent final check.

>>> from sudoku_csp import make_geometry
>>> [p.to_line() for p in generate(make_geometry(4), count=2, seed=1)] == \\
...     [p.to_line() for p in generate(make_geometry(4), count=2, seed=1)]
True
"""

from __future__ import annotations

import atexit
import random
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from pysat.solvers import Solver

from sudoku_csp.backends import get_backend, make_backend
from sudoku_csp.backends.base import Backend
from sudoku_csp.encodings import cnf
from sudoku_csp.encodings.cnf import DEFAULT_AMO, DEFAULT_ENCODING
from sudoku_csp.errors import BackendError, InputError
from sudoku_csp.geometry import EMPTY, Geometry, Grid
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Status
from sudoku_csp.satsolver import DEFAULT_SOLVER, SolverSession, capabilities, solve_until
from sudoku_csp.symmetry import symmetry_groups
from sudoku_csp.variants import make_geometry
from sudoku_csp.verify import check_solutions

DEFAULT_CHECK = "native"
DEFAULT_RECYCLE = 1000
DEFAULT_ATTEMPTS = 200


class GenerationError(RuntimeError):
    """No puzzle met the request within the allowed attempts (or the geometry has no
    complete grid). Not a bug: the request may be too strict for the attempts allowed."""


class NoGridError(GenerationError, InputError):
    """The geometry asked for has no complete grid at all (a 4×4 anti-king, say): no puzzle
    can be made for it. An input error: the request, not the search, is at fault."""


class CheckDisagreesError(BackendError):
    """The second backend (``check``) does not find exactly the one solution the SAT session
    found: one of the two is wrong, a bug (the CLI reports an internal error)."""


# -- the uniqueness session ----------------------------------------------------------------------
class UniquenessSession:
    """One incremental SAT solver loaded with the CNF of ``geometry``; givens are
    assumptions, a known solution is excluded by a selector-guarded clause.

    Not thread-safe (one per thread or process).

    >>> g = make_geometry(4)
    >>> s = UniquenessSession(g)
    >>> sol = s.solve((2, EMPTY, 0) + (EMPTY,) * 13)
    >>> s.has_other((2, EMPTY, 0) + (EMPTY,) * 13, sol), s.has_other(sol, sol)
    (True, False)
    """

    def __init__(self, geometry: Geometry, *, solver: str = DEFAULT_SOLVER,
                 encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
                 recycle: int = DEFAULT_RECYCLE) -> None:
        if recycle < 1:
            raise InputError("recycle must be at least 1")
        self.geometry = geometry
        self.solver_name = solver
        self._session = SolverSession(solver, cnf.build(geometry, encoding, amo), recycle)
        self._vars = self._session.vars
        self._caps = capabilities(solver)
        self.calls = 0
        self._excluded: tuple[Grid, int] | None = None

    def close(self) -> None:
        """Free the solver (it is rebuilt on demand)."""
        self._session.close()
        self._excluded = None

    def _assumptions(self, givens: Sequence[int]) -> list[int]:
        if len(givens) != self.geometry.ncells:
            raise InputError(f"expected {self.geometry.ncells} givens, got {len(givens)}")
        return self._vars.literals(givens)

    def _solve(self, assumptions: list[int]) -> bool:
        self.calls += 1
        solver = self._session.get()
        try:
            return bool(solve_until(solver, self._caps, assumptions, None))
        except KeyboardInterrupt:
            self.close()  # the solver may be unusable after an interrupt
            raise

    def solve(self, givens: Sequence[int]) -> Grid | None:
        """A solution under ``givens`` (a grid, ``EMPTY`` for blanks), or None."""
        if not self._solve(self._assumptions(givens)):
            return None
        return self._vars.read_model(self._session.get().get_model())

    def _selector(self, solution: Sequence[int]) -> int:
        """The selector of the clause excluding ``solution`` (added on first use; the
        previous exclusion is retired, which rebuilds the solver every ``recycle``)."""
        solution = tuple(solution)
        if self._excluded is not None:
            if self._excluded[0] == solution:
                return self._excluded[1]
            self._session.retire(self._excluded[1])
            self._excluded = None
        solver = self._session.get()
        selector = self._session.selector()
        solver.add_clause(self._vars.exclusion(solution, guard=-selector))
        self._excluded = (solution, selector)
        return selector

    def other_solution(self, givens: Sequence[int], solution: Sequence[int]) -> Grid | None:
        """A solution under ``givens`` that differs from ``solution``, or None (then
        ``solution``, if it fits the givens, is the only one)."""
        if not self.has_other(givens, solution):
            return None
        return self._vars.read_model(self._session.get().get_model())

    def has_other(self, givens: Sequence[int], solution: Sequence[int]) -> bool:
        """Whether ``givens`` allow a solution other than ``solution`` (no model decoded)."""
        selector = self._selector(solution)
        return self._solve([*self._assumptions(givens), selector])


_SESSIONS: OrderedDict[tuple[Geometry, str, str], UniquenessSession] = OrderedDict()
MAX_SESSIONS = 4  # a 25×25 formula holds 750k clauses: keep few loaded


def session_for(geometry: Geometry, solver: str = DEFAULT_SOLVER,
                encoding: str = DEFAULT_ENCODING) -> UniquenessSession:
    """A :class:`UniquenessSession` shared within this process, one per arguments (the
    :data:`MAX_SESSIONS` most recently used are kept; older ones are closed)."""
    key = (geometry, solver, encoding)
    session = _SESSIONS.pop(key, None)
    if session is None:
        session = UniquenessSession(geometry, solver=solver, encoding=encoding)
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


# -- minimality -----------------------------------------------------------------------------------
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

    >>> from sudoku_csp import parse
    >>> minimality(parse("3.1...4.2.......")).minimal
    True
    >>> m = minimality(parse("3.1...4.2......1"))   # D4 added: now A3 or D4 may go
    >>> m.unique, m.labels(make_geometry(4))
    (True, ['A3', 'D4'])
    >>> minimality(parse("1..." "..1." ".1.." "...1")).status
    <Status.MULTIPLE: 'multiple'>
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
    solution = session.solve(givens)
    if solution is None:
        return done(Status.NONE)
    check_solutions(puzzle, [solution], f"sat:solver={session.solver_name}")
    other = session.other_solution(givens, solution)
    if other is not None:
        check_solutions(puzzle, [other], f"sat:solver={session.solver_name}")
        return done(Status.MULTIPLE, solution=solution, other=other)
    redundant = _redundant(givens, solution, session)
    return done(Status.UNIQUE, redundant=tuple(redundant), solution=solution)


# -- the generator --------------------------------------------------------------------------------
GRID_SOLVER = "minisat22"  # fastest measured for one fresh solve of the empty grid


def random_grid(geometry: Geometry, seed: int, *, method: str = "sat") -> Grid:
    """A complete grid of ``geometry``, the same for the same seed.

    - ``sat`` (default): a fresh SAT solver on the empty grid with a random phase for
      every cell-digit variable, then the digits relabelled by a random permutation (any
      relabelling of a solution is a solution, in every variant). A fresh solver keeps the
      result independent of what was solved before.
    - ``native``: the native solver with a seeded random value order at each branch. As
      random, but on tightly constrained variants it backtracks for long: 2 s for a
      diagonal + anti-knight 9×9, against 0.1-0.2 s by SAT.

    >>> from sudoku_csp import is_solution
    >>> g = make_geometry(9, variants=["diagonal"])
    >>> grid = random_grid(g, 7)
    >>> is_solution(Puzzle.empty(g), grid), grid == random_grid(g, 7)
    (True, True)
    """
    if method == "native":
        # A new backend per seed: the registry's cache is for long-lived configurations.
        result = make_backend(f"native:order=random,seed={seed}").solve(
            Puzzle.empty(geometry))
        if result.solution is None:
            raise NoGridError(f"the {geometry.name} grid has no solution, so no puzzle "
                              "can be made for it "
                                  f"({result.message or result.status})")
        return result.solution
    if method != "sat":
        raise InputError(f"unknown grid method {method!r}; choose sat or native")
    rng = random.Random(seed)
    formula = cnf.build(geometry)
    with Solver(name=GRID_SOLVER, bootstrap_with=formula.clauses) as solver:
        solver.set_phases([v if rng.random() < 0.5 else -v
                           for v in range(1, formula.x_vars + 1)])
        if not solve_until(solver, capabilities(GRID_SOLVER), [], None):
            raise NoGridError(f"the {geometry.name} grid has no solution, so no puzzle can be "
                              "made for it")
        grid = formula.vars.read_model(solver.get_model())
    relabel = list(range(geometry.size))
    rng.shuffle(relabel)
    grid = tuple(relabel[d] for d in grid)
    check_solutions(Puzzle.empty(geometry), [grid], f"sat:solver={GRID_SOLVER}")
    return grid


def generate(geometry: Geometry | None = None, *, count: int = 1, seed: int = 0,
             symmetry: str = "none", minimal: bool = False,
             check: str | Backend = DEFAULT_CHECK,
             solver: str = DEFAULT_SOLVER, attempts: int = DEFAULT_ATTEMPTS
             ) -> Iterator[Puzzle]:
    """``count`` unique puzzles of ``geometry`` (default 9×9), yielded one at a time.

    - ``seed``: same seed (and same version) → same puzzles; puzzle ``i`` depends only on
      the seed and ``i``, so a longer run starts with the puzzles of a shorter one.
    - ``symmetry``: a name from :data:`sudoku_csp.symmetry.SYMMETRIES`; GeometryError
      (raised here, before any puzzle) if it does not map the geometry onto itself.
    - ``minimal``: every given necessary. Without a symmetry every generated puzzle is
      minimal anyway (see the module notes). With one, ``minimal=False`` gives puzzles
      where no *group* can be cleared; ``minimal=True`` searches for a symmetric puzzle
      whose every single given is necessary, over at most ``attempts`` grids
      (GenerationError after that; rot90 on 9×9 takes about 1.4 s a puzzle).
    - ``check``: the backend (or its spec) that confirms uniqueness (``limit=2``) and the
      solution before a puzzle is yielded; ``solver``: the PySAT solver of the session.

    Each puzzle's ``metadata`` records its seed, index, clue count and options.

    >>> from sudoku_csp.symmetry import is_symmetric
    >>> p = next(generate(seed=3, symmetry="rot180"))
    >>> p.clue_count < 40, is_symmetric(p, "rot180")
    (True, True)
    """
    geometry = geometry if geometry is not None else make_geometry(9)
    if count < 0:
        raise InputError("count must be at least 0")
    if attempts < 1:
        raise InputError("attempts must be at least 1")
    groups = symmetry_groups(geometry, symmetry)
    # A bad spec fails here, not after the first puzzle.
    checker = get_backend(check) if isinstance(check, str) else check
    session = session_for(geometry, solver)

    def puzzles() -> Iterator[Puzzle]:
        master = random.Random(seed)
        for index in range(count):
            rng = random.Random(master.getrandbits(64))
            givens, grid = _one(geometry, groups, rng, session,
                                minimal and symmetry != "none", attempts)
            clues = sum(d != EMPTY for d in givens)
            note = (f"generated seed={seed} #{index + 1}: {clues} clues"
                    + (f", {symmetry}" if symmetry != "none" else "")
                    + (", minimal" if minimal or symmetry == "none" else ""))
            puzzle = Puzzle(geometry, givens, note)
            _confirm(puzzle, grid, checker)
            yield puzzle

    return puzzles()


def _one(geometry: Geometry, groups: list[tuple[int, ...]], rng: random.Random,
         session: UniquenessSession, single_minimal: bool, attempts: int
         ) -> tuple[Grid, Grid]:
    """The givens and solution of one unique puzzle (cleared greedily, group by group)."""
    for _ in range(attempts):
        grid = random_grid(geometry, rng.getrandbits(31))
        order = list(groups)
        rng.shuffle(order)
        givens = list(grid)
        _clear(givens, grid, order, session)
        if single_minimal and not _repair(givens, grid, groups, rng, session):
            continue
        return tuple(givens), grid
    raise GenerationError(f"no {'minimal ' if single_minimal else ''}unique puzzle found in "
                          f"{attempts} attempts; try another symmetry, minimal=False (then "
                          "no symmetry group can be cleared, though single givens may), "
                          "or more attempts")


def _clear(givens: list[int], grid: Grid, order: Sequence[tuple[int, ...]],
           session: UniquenessSession) -> None:
    """Clear each given group of ``order`` in turn, keeping it cleared while unique."""
    for group in order:
        if givens[group[0]] == EMPTY:
            continue
        for cell in group:
            givens[cell] = EMPTY
        if session.has_other(givens, grid):
            for cell in group:  # needed: put the group back
                givens[cell] = grid[cell]


def _redundant(givens: list[int], grid: Grid, session: UniquenessSession) -> list[int]:
    """The given cells that can be cleared alone, the puzzle staying unique."""
    found = []
    for cell, digit in enumerate(givens):
        if digit == EMPTY:
            continue
        givens[cell] = EMPTY
        if not session.has_other(givens, grid):
            found.append(cell)
        givens[cell] = digit
    return found


REPAIR_STEPS = 30
"""Local-search moves per grid when a symmetric puzzle must also be minimal."""


def _repair(givens: list[int], grid: Grid, groups: list[tuple[int, ...]], rng: random.Random,
            session: UniquenessSession) -> bool:
    """Make a symmetric unique puzzle minimal in single givens, in place; False on failure.

    A cleared-by-groups puzzle is often not minimal (2% of 9×9 rot180 ones are, 0% of
    rot90 ones). Each move clears the group of a redundant given, restores uniqueness by
    adding back random cleared groups, clears groups greedily again, and is kept when it
    leaves no more redundant givens than before. Measured on 9×9 (30 moves): a minimal
    puzzle per 60 ms (rot180), 45 ms (diagonal), 90 ms (mirror), 1.4 s (rot90), against
    100 ms to never by drawing new grids alone.
    """
    group_of = {cell: group for group in groups for cell in group}
    redundant = _redundant(givens, grid, session)
    for _ in range(REPAIR_STEPS):
        if not redundant:
            return True
        cleared = group_of[rng.choice(redundant)]
        trial = list(givens)
        for cell in cleared:
            trial[cell] = EMPTY
        absent = [g for g in groups if trial[g[0]] == EMPTY and g != cleared]
        rng.shuffle(absent)
        unique = False
        for group in absent:
            for cell in group:
                trial[cell] = grid[cell]
            if not session.has_other(trial, grid):
                unique = True
                break
        if not unique:
            continue
        order = [g for g in groups if trial[g[0]] != EMPTY]
        rng.shuffle(order)
        _clear(trial, grid, order, session)
        again = _redundant(trial, grid, session)
        if len(again) <= len(redundant):
            givens[:], redundant = trial, again
    return not redundant


def _confirm(puzzle: Puzzle, grid: Grid, checker: Backend) -> None:
    """The second opinion: ``checker`` (an independent backend) must find exactly one
    solution, ``grid``; :class:`CheckDisagreesError` otherwise."""
    result = checker.solve(puzzle, limit=2)
    if result.status is not Status.UNIQUE or result.solution != grid:
        raise CheckDisagreesError(f"{checker.spec} finds {result.status} for a puzzle the SAT "
                              f"session found unique: {puzzle.to_line()}")
