"""The SAT backend: a CNF encoding from :mod:`sudoku_csp.encodings.cnf` solved by PySAT.

Spec: ``sat:solver=NAME,encoding=NAME,amo=NAME,mode=MODE,search=on|off,recycle=K``.

Modes (how a puzzle meets the formula):

- ``incremental`` (default): one solver per geometry is loaded with the empty-grid formula
  once and reused for every puzzle; the givens are *assumptions*. To count, each solution
  found is blocked by a clause guarded by the puzzle's *selector* literal (assumed while the
  puzzle is solved); afterwards a unit clause ``¬selector`` retires those clauses for good.
  Retired selectors are dead variables that every model still carries, so after ``recycle``
  of them the solver is rebuilt: nothing piles up over a long run.
- ``fresh``: a new solver per puzzle, givens as unit clauses (the textbook way, to compare).
- ``reduced``: a new solver per puzzle on the clue-reduced formula (Kwon & Jain).

``search=off`` runs unit propagation only (``Solver.propagate``): does this encoding's unit
propagation alone solve the puzzle? On ``extended`` it makes exactly the naked- and
hidden-single deductions (the native ``singles`` rules); ``augmented`` adds locked candidates.

A ``time_limit`` stops the solver inside a call — by ``interrupt()`` from a watchdog thread
(MiniSat-family solvers), or by slices of a conflict budget (CaDiCaL 1.5.3 and later) — and
gives ``UNKNOWN``. PySAT offers neither for Lingeling, CaDiCaL 1.0.3 and Kissat: with those
the limit is checked between calls only, so one long call can overrun it.

Every model is decoded and checked by :func:`~sudoku_csp.backends.base.make_result`.

A backend object is not thread-safe (use one per thread or process, as the batch runner does).
"""

from __future__ import annotations

import atexit
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from pysat.solvers import NoSuchSolverError, Solver, SolverNames

from sudoku_csp.backends.base import BackendBase, Option, SpecError, clash_result, make_result
from sudoku_csp.encodings import cnf
from sudoku_csp.geometry import Geometry, Grid
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Result, Status

DEFAULT_SOLVER = "cadical153"
DEFAULT_ENCODING = "extended"
DEFAULT_RECYCLE = 500
MODES = ("incremental", "fresh", "reduced")
# Loaded solvers kept per backend, least recently used dropped first. A file mixing many
# geometries (jigsaws) must not rebuild a solver for every puzzle, yet memory stays bounded:
# a 9×9 formula is 12k clauses, a 25×25 one about 750k.
MAX_SESSIONS = 32
MAX_LOADED_CLAUSES = 3_000_000
STAT_NAMES = ("decisions", "conflicts", "propagations", "restarts")

# PySAT's Kissat ignores assumptions and aborts the process if a clause is added after a
# solve, so it can only solve each formula once; nothing in its API says so, hence a list.
_ONE_SHOT = frozenset({"kissat404"})


# -- solvers and what they can do ----------------------------------------------------------
@cache
def solver_names() -> tuple[str, ...]:
    """Canonical names of the solvers this PySAT build has (aliases like ``g4`` also work;
    finding out takes about a millisecond, once)."""
    return tuple(n for n in vars(SolverNames) if not n.startswith("_") and _available(n))


@cache
def _available(name: str) -> bool:
    try:
        Solver(name=name).delete()
    except NoSuchSolverError:  # known to PySAT but not built in (e.g. needs pycryptosat)
        return False
    return True


def canonical_solver(name: str) -> str:
    """The canonical PySAT name of ``name`` (an alias such as ``g4`` or ``cd19`` works), or
    SpecError listing the solvers this PySAT build has.

    >>> canonical_solver("g4"), canonical_solver("Cadical195")
    ('glucose4', 'cadical195')
    """
    key = name.strip().lower()
    for canonical in solver_names():
        if key == canonical or key in getattr(SolverNames, canonical):
            return canonical
    raise SpecError(f"sat: solver={name!r} is not a PySAT solver available here; choose from "
                    f"{', '.join(solver_names())}")


@dataclass(frozen=True)
class Capabilities:
    """What a PySAT solver supports, found by trying it on a two-clause formula."""

    available: bool
    assumptions: bool = False
    incremental: bool = False
    propagate: bool = False
    interrupt: bool = False
    budget: bool = False
    stats: bool = False
    phases: bool = False


def _supports(solver: Solver, call) -> bool:
    try:
        call(solver)
    except NotImplementedError:
        return False
    return True


@cache
def capabilities(name: str) -> Capabilities:
    """Probe solver ``name`` once per process (each probe on its own throw-away solver)."""

    def probe(call) -> bool:
        with Solver(name=name, bootstrap_with=[[1, 2], [-1, 2]]) as s:
            return _supports(s, call)

    if not _available(name):
        return Capabilities(False)
    one_shot = name in _ONE_SHOT

    def limited(s: Solver) -> None:
        s.conf_budget(100)
        s.solve_limited()

    def interrupt(s: Solver) -> None:
        s.interrupt()
        s.clear_interrupt()

    return Capabilities(
        available=True,
        assumptions=not one_shot,
        incremental=not one_shot,
        propagate=probe(lambda s: s.propagate(assumptions=[1])),
        interrupt=probe(interrupt),
        budget=not one_shot and probe(limited),  # slices are repeated calls
        stats=probe(lambda s: s.accum_stats()),
        phases=probe(lambda s: s.set_phases([1, -2])),
    )


# -- the time limit -----------------------------------------------------------------------
class _Watchdog:
    """One daemon thread that interrupts each armed solver at its deadline.

    Starting a ``threading.Timer`` per call costs about 0.7 ms — more than solving a 9×9
    puzzle — so one thread serves every call of every backend: it sleeps until the earliest
    armed deadline and is woken only when a newly armed deadline is earlier still.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._armed: dict[int, tuple[Solver, float]] = {}
        self._tokens = 0
        self._wake_at: float | None = None
        self._thread: threading.Thread | None = None

    def arm(self, solver: Solver, deadline: float) -> int:
        """Interrupt ``solver`` at ``deadline`` (a ``time.monotonic()`` value) unless the
        returned token is disarmed first."""
        with self._cond:
            self._tokens += 1
            self._armed[self._tokens] = (solver, deadline)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="sat-watchdog",
                                                daemon=True)
                self._thread.start()
            if self._wake_at is None or deadline < self._wake_at:
                self._cond.notify()
            return self._tokens

    def disarm(self, token: int) -> None:
        """After this returns, ``token``'s solver will not be interrupted."""
        with self._cond:
            self._armed.pop(token, None)

    def _run(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                for token, (solver, deadline) in list(self._armed.items()):
                    if deadline <= now:
                        solver.interrupt()
                        del self._armed[token]
                self._wake_at = min((d for _, d in self._armed.values()), default=None)
                self._cond.wait(None if self._wake_at is None else self._wake_at - now)


_WATCHDOG = _Watchdog()
_FIRST_SLICE = 1000   # conflicts in the first budget slice (CaDiCaL: about 10 ms)
_MAX_SLICE = 64000


def _enumerate(solve: Callable[[], bool | None], model: Callable[[], Grid],
               block: Callable[[Grid], None], limit: int | None):
    """Solve, read the model, block it, again: up to ``limit`` solutions (None: all).

    ``solve`` returns True, False, or None when the time limit interrupted it. Returns
    ``(found, complete, timed_out, calls)``; ``complete``: the last call proved that no
    further solution exists.
    """
    found: list[Grid] = []
    calls = 0
    while True:
        calls += 1
        answer = solve()
        if answer is None:
            return found, False, True, calls
        if not answer:
            return found, True, False, calls
        found.append(model())
        if limit is not None and len(found) >= limit:
            return found, False, False, calls
        block(found[-1])


def _run(solver: Solver, caps: Capabilities, assumptions: list[int],
         deadline: float | None) -> bool | None:
    """Solve once under ``assumptions``; None when ``deadline`` (monotonic) passed first."""
    if deadline is None:
        return solver.solve(assumptions=assumptions)
    if time.monotonic() >= deadline:
        return None
    if caps.interrupt:
        token = _WATCHDOG.arm(solver, deadline)
        try:
            return solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            _WATCHDOG.disarm(token)
            solver.clear_interrupt()  # an interrupt may land just after the call returned
    if caps.budget:
        budget = _FIRST_SLICE
        while True:
            solver.conf_budget(budget)
            answer = solver.solve_limited(assumptions=assumptions)
            if answer is not None:
                return answer
            if time.monotonic() >= deadline:
                return None
            budget = min(2 * budget, _MAX_SLICE)
    return solver.solve(assumptions=assumptions)


# -- per-geometry tables ------------------------------------------------------------------
class _Decoder:
    """Models -> grids for one geometry, without a Python loop over all N³ variables."""

    def __init__(self, geometry: Geometry) -> None:
        n = geometry.size
        self.geometry = geometry
        self.top = geometry.ncells * n
        self.cell_of = [-1] + [(v - 1) // n for v in range(1, self.top + 1)]
        self.digit_of = [-1] + [(v - 1) % n for v in range(1, self.top + 1)]
        self.cells = list(range(geometry.ncells))

    def model(self, model: Sequence[int]) -> Grid:
        """The grid of a full model as ``get_model()`` returns it (literal of variable v at
        index v-1); falls back to :func:`cnf.decode` (which raises on a bad model)."""
        true = [v for v in model[:self.top] if v > 0]
        if list(map(self.cell_of.__getitem__, true)) == self.cells:
            return tuple(map(self.digit_of.__getitem__, true))
        return cnf.decode(model, self.geometry)


def _load(name: str, clauses: Sequence[Sequence[int]], x_vars: int) -> Solver:
    """A solver holding ``clauses``, told to try digits first: with positive phases on the
    ``x_vars`` cell variables CaDiCaL decides about a third less often on hard 9×9 puzzles
    (top95: 17 → 12.5 decisions per puzzle); MiniSat-family solvers barely change."""
    solver = Solver(name=name, bootstrap_with=clauses)
    if capabilities(name).phases:
        solver.set_phases(range(1, x_vars + 1))
    return solver


@lru_cache(maxsize=32)
def decoder(geometry: Geometry) -> _Decoder:
    """The (cached) model decoder of ``geometry``."""
    return _Decoder(geometry)


class SolverSession:
    """One reusable solver holding one formula, with its selectors: selector-guarded
    clauses are switched off for good by :meth:`retire`, and the solver is rebuilt after
    ``recycle`` of them so retired clauses never pile up. Shared by the incremental mode
    and by :class:`sudoku_csp.generate.UniquenessSession`."""

    def __init__(self, name: str, formula: cnf.Formula, recycle: int) -> None:
        self.name = name
        self.formula = formula
        self.recycle = recycle
        self.decoder = decoder(formula.geometry)
        self.solver: Solver | None = None
        self.next_var = 0
        self.retired = 0
        self.builds = 0

    def get(self) -> Solver:
        if self.solver is None:
            self.solver = _load(self.name, self.formula.clauses, self.formula.x_vars)
            self.next_var = self.formula.nv + 1
            self.retired = 0
            self.builds += 1
        return self.solver

    def selector(self) -> int:
        var, self.next_var = self.next_var, self.next_var + 1
        return var

    def retire(self, selector: int) -> None:
        """Switch off ``selector``'s clauses for good; rebuild after ``recycle`` of them."""
        assert self.solver is not None
        self.solver.add_clause([-selector])
        self.retired += 1
        if self.retired >= self.recycle:
            self.close()

    def close(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None
        self.retired = 0


class _Propagator:
    """A solver that only ever propagates (a solved solver may hold learnt units, which
    ``propagate`` leaves out of what it reports)."""

    def __init__(self, name: str, formula: cnf.Formula) -> None:
        self.formula = formula
        # Unit clauses (only a 1×1 grid or odd geometries have any) would be fixed at level 0
        # and so missing from propagate's answer: they are passed as assumptions instead.
        self.units = [c[0] for c in formula.clauses if len(c) == 1]
        self.solver = Solver(name=name,
                             bootstrap_with=[c for c in formula.clauses if len(c) != 1])

    def close(self) -> None:
        self.solver.delete()


# -- the backend --------------------------------------------------------------------------
class SatBackend(BackendBase):
    """A CNF encoding solved by a PySAT solver (incremental by default).

    >>> from sudoku_csp import Puzzle
    >>> b = SatBackend(solver="g4", encoding="minimal")
    >>> b.spec, b.solve(Puzzle.parse("3.1...4.2......."), limit=2).status
    ('sat:solver=glucose4,encoding=minimal', <Status.UNIQUE: 'unique'>)
    """

    name = "sat"
    description = (f"CNF encoding + PySAT solver; bare 'sat' = {DEFAULT_SOLVER}, "
                   f"{DEFAULT_ENCODING} encoding, pairwise AMO, incremental (fastest measured)")
    OPTIONS = (
        Option("solver", DEFAULT_SOLVER, "any PySAT solver (aliases such as g4 accepted)",
               solver_names(), open_choices=True),
        Option("encoding", DEFAULT_ENCODING, "CNF encoding", tuple(e.value for e in cnf.Encoding)),
        Option("amo", cnf.DEFAULT_AMO, "at-most-one encoding (pysat.card.EncType)",
               cnf.AMO_CHOICES),
        Option("mode", "incremental", "incremental: one solver per geometry, givens as "
               "assumptions; fresh: new solver per puzzle, givens as units; reduced: new "
               "solver per puzzle on the clue-reduced formula", MODES),
        Option("search", "on", "off: unit propagation only, never guess (grading)",
               ("on", "off")),
        Option("recycle", DEFAULT_RECYCLE, "incremental: rebuild the solver after this many "
               "retired counting selectors", kind=int),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        o = self.options
        o["solver"] = canonical_solver(str(o["solver"]))
        try:
            self.encoding = cnf.encoding_of(o["encoding"])
            self.amo = cnf.amo_of(o["amo"])
        except ValueError as exc:
            raise SpecError(f"sat: {exc}") from None
        if o["mode"] not in MODES:
            raise SpecError(f"sat: mode={o['mode']!r} is not allowed; choose from "
                            f"{', '.join(MODES)}")
        if o["search"] not in ("on", "off"):
            raise SpecError(f"sat: search={o['search']!r} is not allowed; choose on or off")
        if not isinstance(o["recycle"], int) or o["recycle"] < 1:
            raise SpecError(f"sat: recycle={o['recycle']!r} must be a positive integer")
        self.caps = capabilities(o["solver"])
        if o["search"] == "off" and not self.caps.propagate:
            raise SpecError(f"sat: solver {o['solver']} cannot propagate alone in PySAT; "
                            f"for search=off choose from {', '.join(_propagating())}")
        if o["search"] == "on" and o["mode"] == "incremental" and not self.caps.incremental:
            raise SpecError(f"sat: solver {o['solver']} cannot solve incrementally in PySAT; "
                            "use mode=fresh or mode=reduced")
        self._sessions: dict[Geometry, SolverSession | _Propagator] = {}
        _LIVE.add(self)

    # -- public -----------------------------------------------------------------------------
    def formula(self, geometry: Geometry) -> cnf.Formula:
        """The formula this backend solves for ``geometry`` (before any givens)."""
        return cnf.build(geometry, self.encoding, self.amo)

    def close(self) -> None:
        """Free every loaded solver (they are rebuilt on demand)."""
        for session in self._sessions.values():
            session.close()
        self._sessions.clear()

    def session_info(self, geometry: Geometry) -> dict[str, int]:
        """The incremental solver state kept for ``geometry`` (for tests and research):
        ``selectors`` retired since the last rebuild, the solver's own counts of
        ``variables`` and ``clauses`` (0 when no solver is loaded), and ``builds`` so far.
        """
        s = self._sessions.get(geometry)
        if not isinstance(s, SolverSession):
            return {"selectors": 0, "variables": 0, "clauses": 0, "builds": 0}
        loaded = s.solver is not None
        return {"selectors": s.retired,
                "variables": s.solver.nof_vars() if loaded else 0,
                "clauses": s.solver.nof_clauses() if loaded else 0,
                "builds": s.builds}

    def solve(self, puzzle: Puzzle, *, limit: int | None = 1,
              time_limit: float | None = None) -> Result:
        start = time.perf_counter()
        if limit is not None and limit < 1:
            raise ValueError("limit must be at least 1 (or None to count every solution)")
        if self.options["search"] == "off":
            result = self._propagate_only(puzzle, start)
        else:
            deadline = time.monotonic() + time_limit if time_limit is not None else None
            mode = self.options["mode"]
            if mode == "incremental":
                found, complete, timed_out, stats = self._incremental(puzzle, limit, deadline)
            else:
                found, complete, timed_out, stats = self._fresh(puzzle, limit, deadline,
                                                                reduced=mode == "reduced")
            result = make_result(puzzle, found, limit=limit, complete=complete,
                                 timed_out=timed_out, solver=self.spec,
                                 seconds=time.perf_counter() - start, stats=stats,
                                 time_limit=time_limit)
        # Clashing givens make the formula unsatisfiable at once, so they are looked for
        # only when no solution came back: the common case skips a pass over every unit.
        if not result.solutions:
            clash = clash_result(puzzle, self.spec)
            if clash is not None:
                return clash
        return result

    # -- modes ------------------------------------------------------------------------------
    def _session(self, geometry: Geometry, kind: type) -> Any:
        session = self._sessions.pop(geometry, None)  # re-inserted last: LRU order
        if session is None:
            formula = self.formula(geometry)
            if kind is SolverSession:
                session = SolverSession(self.options["solver"], formula, self.options["recycle"])
            else:
                session = _Propagator(self.options["solver"], formula)
            loaded = len(formula.clauses)
            for other in self._sessions.values():
                loaded += len(other.formula.clauses)
            while self._sessions and (len(self._sessions) >= MAX_SESSIONS
                                      or loaded > MAX_LOADED_CLAUSES):
                oldest = self._sessions.pop(next(iter(self._sessions)))
                loaded -= len(oldest.formula.clauses)
                oldest.close()
        self._sessions[geometry] = session
        return session

    def _incremental(self, puzzle: Puzzle, limit: int | None, deadline: float | None):
        session: SolverSession = self._session(puzzle.geometry, SolverSession)
        solver = session.get()
        caps, decoder = self.caps, session.decoder
        before = solver.accum_stats() if caps.stats else None
        assumptions = cnf.givens(puzzle)
        selector = 0

        def block(grid: Grid) -> None:
            nonlocal selector
            if not selector:
                selector = session.selector()
                assumptions.append(selector)
            solver.add_clause(self._blocking(puzzle, grid, -selector))

        found, complete, timed_out, calls = _enumerate(
            lambda: _run(solver, caps, assumptions, deadline),
            lambda: decoder.model(solver.get_model()), block, limit)
        stats = _stats_delta(before, solver.accum_stats() if caps.stats else None)
        stats["solver_calls"] = calls
        if selector:
            session.retire(selector)
        return found, complete, timed_out, stats

    def _fresh(self, puzzle: Puzzle, limit: int | None, deadline: float | None,
               reduced: bool):
        geometry = puzzle.geometry
        if reduced:
            base = cnf.clue_reduced(puzzle, self.encoding, self.amo).clauses

            def decode(model: Sequence[int]) -> Grid:
                return cnf.decode(model, geometry, puzzle.givens)
        else:
            base = [*self.formula(geometry).clauses, *([lit] for lit in cnf.givens(puzzle))]
            decode = decoder(geometry).model
        caps = self.caps
        blocks: list[list[int]] = []
        totals: dict[str, int] = {}
        name, x_vars = self.options["solver"], geometry.ncells * geometry.size
        solver = _load(name, base, x_vars)

        def block(grid: Grid) -> None:
            nonlocal solver
            clause = self._blocking(puzzle, grid, 0)
            if caps.incremental:
                solver.add_clause(clause)
            else:  # a one-shot solver: start again with every blocking clause so far
                blocks.append(clause)
                _add_stats(totals, solver, caps)
                solver.delete()
                solver = _load(name, [*base, *blocks], x_vars)

        try:
            found, complete, timed_out, calls = _enumerate(
                lambda: _run(solver, caps, [], deadline),
                lambda: decode(solver.get_model()), block, limit)
            _add_stats(totals, solver, caps)
        finally:
            solver.delete()
        totals["solver_calls"] = calls
        return found, complete, timed_out, totals

    def _propagate_only(self, puzzle: Puzzle, start: float) -> Result:
        prop: _Propagator = self._session(puzzle.geometry, _Propagator)
        assumptions = list(dict.fromkeys([*prop.units, *cnf.givens(puzzle)]))
        ok, literals = prop.solver.propagate(assumptions=assumptions)
        grid = cnf.decode(literals, puzzle.geometry) if ok else ()
        placed = sum(d >= 0 for d in grid)
        solved = ok and placed == puzzle.geometry.ncells
        stats = {"solved_by_propagation": solved, "placed": placed,
                 "assigned": len(literals) if ok else 0}
        result = make_result(puzzle, [grid] if solved else [], limit=None,
                             complete=not ok or solved, timed_out=False, solver=self.spec,
                             seconds=time.perf_counter() - start, stats=stats)
        if result.status is Status.UNKNOWN:
            return Result(Status.UNKNOWN, (), stats, result.seconds, self.spec,
                          "propagation alone does not solve this puzzle")
        return result

    # -- helpers ----------------------------------------------------------------------------
    @staticmethod
    def _blocking(puzzle: Puzzle, grid: Grid, guard: int) -> list[int]:
        """``guard ∨`` "not this solution", over the cells that are not givens."""
        n = puzzle.geometry.size
        pairs = enumerate(zip(grid, puzzle.givens, strict=True))
        clause = [-(c * n + d + 1) for c, (d, given) in pairs if given < 0]
        if guard:
            clause.append(guard)
        return clause


_LIVE: weakref.WeakSet[SatBackend] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    # Backends cached by get_backend live until exit; PySAT solvers deleted during module
    # teardown raise "Exception ignored in __del__", so they are freed while PySAT still works.
    for backend in list(_LIVE):
        backend.close()


def _propagating() -> list[str]:
    return [n for n in solver_names() if capabilities(n).propagate]


def _stats_delta(before: dict | None, after: dict | None) -> dict[str, Any]:
    if before is None or after is None:
        return {}
    return {k: after.get(k, 0) - before.get(k, 0) for k in STAT_NAMES if k in after}


def _add_stats(totals: dict[str, int], solver: Solver, caps: Capabilities) -> None:
    if caps.stats:
        for k, v in solver.accum_stats().items():
            if k in STAT_NAMES:
                totals[k] = totals.get(k, 0) + v
