"""PySAT solvers for the whole project: which exist here, what each can do, and a time limit
inside a call.

Every PySAT solver of the project is made here (:func:`load`, :func:`propagating_solver`,
:class:`Propagator`): the SAT backend (:mod:`sudoku_csp.backends.sat`), the reusable
sessions of :mod:`sudoku_csp.satsession` (the incremental mode's, the generator's and the
setter tools'), the generator's random grids (:mod:`sudoku_csp.generate`),
certificates (:mod:`sudoku_csp.certify`), the proofs of explanations
(:mod:`sudoku_csp.logic.prove`) and the encodings study (:mod:`sudoku_csp.study`), so a
solver's quirks are handled in one place:

- :func:`solver_names`, :func:`canonical_solver`: names and aliases this PySAT build has;
  :func:`capabilities`: what a solver supports, probed once per process.
- :func:`solve_until`: one call under assumptions with a :class:`~sudoku_csp.deadline.Deadline`
  — by ``interrupt()`` from the one watchdog thread (MiniSat family), or by slices of a
  conflict budget sized to end on time (CaDiCaL); Lingeling and Kissat offer neither, so
  one long call of theirs can overrun.
- :func:`enumerate_solutions`: solve, read, block, again, up to a limit.
- :func:`add_clauses`: many clauses into a solver without a Python call per clause where
  PySAT's C function can be reached (CaDiCaL, the MiniSat family).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import repeat
from typing import Any, Literal

from pysat.solvers import NoSuchSolverError, Solver, SolverNames, pysolvers

from sudoku_csp import interrupts
from sudoku_csp.deadline import NEVER, Deadline
from sudoku_csp.encodings import cnf
from sudoku_csp.errors import SpecError
from sudoku_csp.geometry import Grid
from sudoku_csp.interrupts import reraise_pysat, stoppable

DEFAULT_SOLVER = "cadical153"
"""The PySAT solver used unless told otherwise: fastest measured for many small solves under
assumptions (the generator's questions; the SAT backend's: ``backends.sat.SAT_SOLVER``)."""
STAT_NAMES = ("decisions", "conflicts", "propagations", "restarts")

# PySAT's Kissat ignores assumptions and aborts the process if a clause is added after a
# solve, so it can only solve each formula once; nothing in its API says so, hence a list.
_ONE_SHOT = frozenset({"kissat404"})


@cache
def solver_names() -> tuple[str, ...]:
    """Canonical names of the solvers this PySAT build has (aliases like ``g4`` also work;
    finding out takes about a millisecond, once)."""
    return tuple(n for n in vars(SolverNames) if not n.startswith("_") and _available(n))


def _new_solver(name: str, **options: Any) -> Solver:
    """A PySAT solver, built with Ctrl-C held back (:func:`~sudoku_csp.interrupts.
    deferred`): a solver whose construction an interrupt cut short complains from its
    ``__del__`` at exit ("Exception ignored ... no attribute 'minisat'") after the
    program has said "interrupted"."""
    with interrupts.deferred():
        return Solver(name=name, **options)


@cache
def _available(name: str) -> bool:
    try:
        _new_solver(name).delete()
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
    activities: bool = False


def _supports(solver: Solver, call: Callable[[Solver], object]) -> bool:
    try:
        call(solver)
    except NotImplementedError:
        return False
    return True


@cache
def capabilities(name: str) -> Capabilities:
    """Probe solver ``name`` once per process (each probe on its own throw-away solver)."""

    def probe(call: Callable[[Solver], object]) -> bool:
        with _new_solver(name, bootstrap_with=[[1, 2], [-1, 2]]) as s:
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
        # set_activities came with PySAT 1.9 (the MiniSat family)
        activities=hasattr(Solver, "set_activities")
        and probe(lambda s: s.set_activities({})),
    )


# -- the time limit -----------------------------------------------------------------------
SLICE_SECONDS = 0.1
"""How long one conflict-budget slice of a solver without ``interrupt()`` (CaDiCaL) is
sized to run under a time limit: the deadline is looked at between slices, so this is about
how far past it such a solver can run. Each slice is sized from the conflict rate of the one
before (a 25×25 formula makes about 5,000 conflicts a second, a 9×9 one 100,000): a fixed
budget that ends on time on one formula runs for seconds on another."""
SIGNAL_SLICE_SECONDS = 0.5
"""The same without a time limit, where slices only let a signal handler run between them."""
_FIRST_SLICE = 100    # conflicts in the first slice, before any rate is known
_MIN_SLICE = 10


def enumerate_solutions(solve: Callable[[], bool | None], model: Callable[[], Grid],
                        block: Callable[[Grid], None], limit: int | None,
                        add: Callable[[Grid], object],
                        outcome: Grid | Literal[False] | None = None
                        ) -> tuple[int, bool, bool, int]:
    """Solve, read the model, hand it to ``add``, block it, again: up to ``limit`` solutions
    (None: all). Nothing is kept here, so counting millions of solutions takes no memory.

    ``solve`` returns True, False, or None when the time limit interrupted it. Returns
    ``(found, complete, timed_out, calls)``; ``complete``: the last call proved that no
    further solution exists. ``outcome``: what :func:`settled` found, if not None: its
    grid (handed to ``add``) the one solution, or False none, without a call.

    >>> answers, seen = iter([True, True, False]), []
    >>> enumerate_solutions(lambda: next(answers), lambda: (0,), lambda grid: None, None,
    ...                     seen.append), seen
    ((2, True, False, 3), [(0,), (0,)])
    """
    if outcome is not None:
        if outcome is not False:
            add(outcome)
        return int(outcome is not False), True, False, 0
    found = calls = 0
    while True:
        calls += 1
        answer = solve()
        if answer is None:
            return found, False, True, calls
        if not answer:
            return found, True, False, calls
        grid = model()
        add(grid)
        found += 1
        if limit is not None and found >= limit:
            return found, False, False, calls
        block(grid)


SETTLE_FIRST = True
"""Whether :func:`settled` asks unit propagation at all (a switch, to measure it). The sat
backend's incremental mode, counting, asks it before searching: published killers 1.20 ->
1.14 ms at the median, the few givens' 2.24 -> 2.05, the published variants within 0.02
(docs/design.md, "Settled by propagation")."""


def settled(solver: Solver, caps: Capabilities, assumptions: list[int],
            numbering: cnf.Variables) -> Grid | Literal[False] | None:
    """What unit propagation alone makes of the clauses under ``assumptions``: False when
    it meets a conflict (they have no model), the grid when it places a digit in every
    cell (``numbering``'s :meth:`~sudoku_csp.modeling.variables.Variables.placed`: every
    model holds that grid, so there is at most one, and exactly one once the grid is
    checked against the rules), None when it leaves cells open, or when the solver cannot
    propagate alone (``caps``) or :data:`SETTLE_FIRST` is off. The solver keeps no phase
    from the call.

    >>> from sudoku_csp import parse
    >>> from sudoku_csp.modeling.variables import variables
    >>> v = variables(parse("." * 16).geometry)
    >>> with Solver(name="minisat22", bootstrap_with=cnf.build(v.geometry).clauses) as s:
    ...     [settled(s, capabilities("minisat22"), v.literals(parse(givens).givens), v)
    ...      for givens in ("3.1...4.2.......", "11" + "." * 14, "1" + "." * 15)]
    [(2, 3, 0, 1, 0, 1, 3, 2, 1, 0, 2, 3, 3, 2, 1, 0), False, None]
    """
    if not (SETTLE_FIRST and caps.propagate):
        return None
    ok, literals = solver.propagate(assumptions=assumptions)
    return numbering.placed(literals) if ok else False


def solve_until(solver: Solver, caps: Capabilities, assumptions: list[int],
                deadline: Deadline | float | None, conflicts: int | None = None) -> bool | None:
    """Solve once under ``assumptions``; None when ``deadline`` (a :class:`Deadline`, or a
    ``time.monotonic()`` value; None for no limit) passed first, or had passed already (the
    solver is then not called). ``caps`` says how the solver can be stopped: by
    ``interrupt()`` from the watchdog thread, or in conflict-budget slices sized to end on
    time (:data:`SLICE_SECONDS`).

    ``conflicts`` (a solver with ``caps.budget`` only): None as well once about that many
    conflicts were spent undecided (the caller tells the two apart by its deadline); no
    budget is left behind for the solver's later calls.

    Ctrl-C (or SIGTERM under :func:`~sudoku_csp.interrupts.handling`) raises
    ``KeyboardInterrupt``, never a result: the solver may then be unusable, so the caller
    must drop it (PySAT leaves a CaDiCaL that was jumped out of in a state where the next
    call aborts the process).

    >>> with Solver(name="glucose4", bootstrap_with=[[1, 2], [-1, 2]]) as s:
    ...     caps = capabilities("glucose4")
    ...     solve_until(s, caps, [-2], None), solve_until(s, caps, [1], Deadline.after(0))
    (False, None)
    """
    if deadline is None:
        deadline = NEVER
    elif not isinstance(deadline, Deadline):
        deadline = Deadline(deadline)
    try:
        if not deadline.limited and not interrupts.active():
            # Nothing to stop it but PySAT's own Ctrl-C handling: the plain call, which is
            # what most calls are (a library user solving 9×9 puzzles).
            if conflicts is None:
                return solver.solve(assumptions=assumptions)
            return _budgeted(solver, assumptions, conflicts)
        with stoppable(solver.interrupt if caps.interrupt else _no_stop):
            return _solve_until(solver, caps, assumptions, deadline, conflicts)
    except pysolvers.error as exc:
        reraise_pysat(exc)
        raise


def _no_stop() -> None:
    """A solver without ``interrupt()``: PySAT's own SIGINT handler stops it."""


def _budgeted(solver: Solver, assumptions: list[int], conflicts: int | None,
              expect_interrupt: bool = False) -> bool | None:
    """One ``solve_limited`` call under a budget of ``conflicts`` (None: none)."""
    if conflicts is None:
        return solver.solve_limited(assumptions=assumptions, expect_interrupt=expect_interrupt)
    solver.conf_budget(max(conflicts, 1))  # 0 would mean no budget at all
    try:
        return solver.solve_limited(assumptions=assumptions, expect_interrupt=expect_interrupt)
    finally:
        # The MiniSat family keeps a budget for every later limited call (CaDiCaL for the
        # next call only): switched off, or the session's next puzzle would stop at once.
        solver.conf_budget(-1)


def _solve_until(solver: Solver, caps: Capabilities, assumptions: list[int],
                 deadline: Deadline, conflicts: int | None) -> bool | None:
    if not deadline.limited:
        if caps.interrupt and interrupts.active():
            # Stoppable from the watcher thread (SIGTERM too), where plain solve() is not.
            answer = _budgeted(solver, assumptions, conflicts, expect_interrupt=True)
            solver.clear_interrupt()
            return answer
        if caps.budget and interrupts.active():
            # No interrupt() (CaDiCaL): in slices, so that Python's signal handler runs
            # between two of them and SIGTERM stops the search too, not only SIGINT.
            return _sliced(solver, assumptions, deadline, conflicts)
        if conflicts is not None:
            return _budgeted(solver, assumptions, conflicts)
        return solver.solve(assumptions=assumptions)
    if deadline.expired():
        return None
    if caps.interrupt:
        try:
            with deadline.watch(solver.interrupt):
                return _budgeted(solver, assumptions, conflicts, expect_interrupt=True)
        finally:
            solver.clear_interrupt()  # an interrupt may land just after the call returned
    if caps.budget:
        return _sliced(solver, assumptions, deadline, conflicts)
    return solver.solve(assumptions=assumptions)


def _sliced(solver: Solver, assumptions: list[int], deadline: Deadline,
            conflicts: int | None = None) -> bool | None:
    """Solve in conflict-budget slices, looking at ``deadline`` between them; None when it
    passed first, or when the slices' budgets add up to ``conflicts``. Each slice is sized
    from the conflict rate of the last one to take :data:`SLICE_SECONDS`
    (:data:`SIGNAL_SLICE_SECONDS` without a limit), or what is left of the time when that
    is less."""
    budget = _FIRST_SLICE
    left = conflicts
    while True:
        if left is not None:
            if left <= 0:
                return None
            budget = min(budget, left)
            left -= budget
        solver.conf_budget(budget)
        began = time.monotonic()
        answer = solver.solve_limited(assumptions=assumptions)
        if answer is not None:
            return answer
        took = time.monotonic() - began
        remaining = deadline.remaining()
        if remaining == 0.0:
            return None
        target = SIGNAL_SLICE_SECONDS if remaining is None else min(SLICE_SECONDS, remaining)
        # Never more than doubled: one quick slice (all propagation, few conflicts) must
        # not size the next for a rate the search does not keep.
        budget = max(_MIN_SLICE, min(2 * budget, int(budget * target / max(took, 1e-6))))


_LOADED_BETWEEN_CHECKS = 1 << 16  # clauses loaded between two looks at a deadline

# PySAT's solver classes whose add_clause is one C call on a handle attribute and nothing
# else but the status a refused clause sets: (attribute, C function). A puzzle's model is
# thousands of clauses, and PySAT's append_formula calls add_clause, a Python method, for
# each (about a third of adding them). Not Lingeling, Kissat: no refusal to read.
_ADD_CLAUSE = {cls: (handle, getattr(pysolvers, f"{prefix}_add_cl", None))
               for cls, handle, prefix in (
                   ("Cadical103", "cadical", "cadical103"), ("Cadical153", "cadical", "cadical153"),
                   ("Cadical195", "cadical", "cadical195"), ("Cadical300", "cadical", "cadical300"),
                   ("Glucose3", "glucose", "glucose3"), ("Glucose4", "glucose", "glucose41"),
                   ("Glucose42", "glucose", "glucose421"), ("Maplesat", "maplesat", "maplesat"),
                   ("MapleChrono", "maplesat", "maplechrono"), ("MapleCM", "maplesat", "maplecm"),
                   ("Minisat22", "minisat", "minisat22"), ("MinisatEP", "minisat", "minisatep"),
                   ("MinisatGH", "minisat", "minisatgh"))}


def add_clauses(solver: Solver, clauses: Iterable[Sequence[int]]) -> None:
    """Add ``clauses`` (each a sequence of nonzero literals) to ``solver``, as PySAT's
    ``append_formula`` does, but for CaDiCaL and the MiniSat family (Glucose, Maple) with no
    Python call per clause: the C function is mapped over them. Others: ``append_formula``.

    >>> with Solver(name="cadical153") as s:
    ...     add_clauses(s, [(1, 2), [-1], (-2, 3)])
    ...     s.solve(), s.get_model()
    (True, [-1, 2, 3])
    """
    inner = solver.solver
    handle, add = _ADD_CLAUSE.get(type(inner).__name__, (None, None))
    target = getattr(inner, handle, None) if handle else None
    if add is None or target is None:
        solver.append_formula(clauses)
        return
    # min() runs the map to its end in C; a refused clause (False) marks the solver
    # unsatisfiable, as add_clause does.
    if not min(map(add, repeat(target), clauses), default=True):
        inner.status = False


def load(name: str, clauses: Sequence[Sequence[int]], x_vars: int = 0, *,
         with_proof: bool = False, deadline: Deadline = NEVER) -> Solver:
    """A new solver ``name`` holding ``clauses`` (every solver of the project is made here).
    With ``x_vars``, told to try digits first: with positive phases on the ``x_vars`` cell
    variables CaDiCaL decides about a third less often on hard 9×9 puzzles (top95: 17 → 12.5
    decisions per puzzle); MiniSat-family solvers barely change. ``with_proof``: the solver
    logs a DRUP proof (PySAT raises for a solver that cannot). Under a limited
    ``deadline`` the clauses go in by chunks, the deadline looked at between them
    (loading the empty 35×35 grid's 2.9 million takes seconds):
    :class:`~sudoku_csp.deadline.Expired` once it has passed, the solver freed."""
    solver = _new_solver(name, with_proof=with_proof)
    if not deadline.limited:
        add_clauses(solver, clauses)
    else:
        try:
            for start in range(0, len(clauses), _LOADED_BETWEEN_CHECKS):
                deadline.check("loading the formula")
                add_clauses(solver, clauses[start:start + _LOADED_BETWEEN_CHECKS])
        except BaseException:
            solver.delete()
            raise
    if x_vars and capabilities(name).phases:
        solver.set_phases(range(1, x_vars + 1))
    return solver


def propagating_solver(name: str, clauses: Sequence[Sequence[int]],
                       deadline: Deadline = NEVER) -> tuple[Solver, list[int]]:
    """A propagation-only solver of ``clauses`` but their units, returned for the caller to
    assume (``propagate`` leaves level-0 literals out); loaded as :func:`load` does."""
    units = [c[0] for c in clauses if len(c) == 1]  # a 1×1 grid's, odd geometries': rare
    kept = [c for c in clauses if len(c) != 1] if units else clauses  # copied only then
    return load(name, kept, deadline=deadline), units


class Propagator:
    """A solver that only ever propagates (a solved solver may hold learnt units, which
    ``propagate`` leaves out of what it reports); ``extra`` clauses (a puzzle's typed
    constraints) join the formula's, loaded under ``deadline`` (see :func:`load`)."""

    def __init__(self, name: str, formula: cnf.Formula,
                 extra: Sequence[Sequence[int]] = (), deadline: Deadline = NEVER) -> None:
        self.formula = formula
        self.solver, self.units = propagating_solver(
            name, [*formula.clauses, *extra] if extra else formula.clauses, deadline)

    def close(self) -> None:
        self.solver.delete()


def propagating_solvers() -> list[str]:
    """The solvers that can run unit propagation alone (``search=off``)."""
    return [n for n in solver_names() if capabilities(n).propagate]


def stats_delta(before: dict | None, after: dict | None) -> dict[str, Any]:
    """The growth of each :data:`STAT_NAMES` count between two ``accum_stats()`` readings
    (empty when the solver keeps none)."""
    if before is None or after is None:
        return {}
    return {k: after.get(k, 0) - before.get(k, 0) for k in STAT_NAMES if k in after}


def add_stats(totals: dict[str, int], solver: Solver, caps: Capabilities) -> None:
    """Add ``solver``'s :data:`STAT_NAMES` counts to ``totals`` (a solver about to go)."""
    if caps.stats:
        for k, v in solver.accum_stats().items():
            if k in STAT_NAMES:
                totals[k] = totals.get(k, 0) + v
