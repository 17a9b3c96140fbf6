"""The SAT backend: a CNF encoding from :mod:`sudoku_csp.encodings.cnf` solved by PySAT.

Spec: ``sat:solver=NAME,encoding=NAME,amo=NAME,mode=MODE,search=on|off,recycle=K,sums=S``.

A puzzle's typed constraints (:mod:`sudoku_csp.constraints`: killer cages, thermometers,
dots, ...) add their clauses to the geometry's formula, written with the encoding options
the kinds offer (:func:`~sudoku_csp.constraints.encoding_options`, each an option of this
backend: ``sums`` chooses how cage sums are encoded); incrementally they are guarded by the
puzzle's selector and retired with it.

Modes (how a puzzle meets the formula):

- ``incremental`` (default): one solver per geometry is loaded with the empty-grid formula
  once and reused for every puzzle. A puzzle of plain givens assumes them; one with
  constraints (or candidates handed over) adds its clauses and its givens guarded by the
  puzzle's *selector* literal, the one assumption. To count, unit propagation alone is
  asked first (:func:`~sudoku_csp.satsolver.settled`: a grid or a conflict decides), then
  each solution found is blocked by a clause guarded by the selector; afterwards a unit
  clause ``¬selector`` retires the puzzle's clauses for good.
  Every such puzzle numbers its auxiliaries in one region of variables that the next puzzle
  takes over (:meth:`~sudoku_csp.satsession.SolverSession.scratch`); retired selectors are
  dead variables every model carries, so the solver is rebuilt after ``recycle`` of them,
  or once they have cost about a rebuild (:data:`~sudoku_csp.satsession.WASTE_PER_CLAUSE`).
  With ``fresh_after=N`` a search past N conflicts goes on in a new solver, the solutions
  found blocked (``stats["finished_in"]`` says where it ended; the counts are both's).
- ``fresh``: a new solver per puzzle, givens as unit clauses (the textbook way, to compare).
- ``reduced``: a new solver per puzzle on the clue-reduced formula (Kwon & Jain).

``search=off`` runs unit propagation only (``Solver.propagate``): does it alone solve the
puzzle? On ``extended``: exactly the native ``singles`` rules; ``augmented`` adds locked candidates.

A ``time_limit`` (seconds, or the caller's :class:`~sudoku_csp.deadline.Deadline`) covers
building the puzzle's clauses as well as solving, stops the solver inside a call and gives
``UNKNOWN`` (:func:`~sudoku_csp.satsolver.solve_until`); Lingeling and Kissat cannot be
stopped inside a call, so one call can overrun it. Every model is decoded and checked by
:func:`~sudoku_csp.backends.base.make_result`. A backend object is not thread-safe (one per
thread or process, as the batch runner has).
"""

from __future__ import annotations

import atexit
import time
import weakref
from collections.abc import Hashable, Sequence
from functools import partial
from typing import Any

from pysat.solvers import pysolvers

from sudoku_csp.backends.base import BackendBase, Option, Tally, clash_result, make_result
from sudoku_csp.constraints import EncodingOption, definitions, encoding_options
from sudoku_csp.deadline import NEVER, Deadline, Expired, Limit
from sudoku_csp.encodings import cnf
from sudoku_csp.errors import InputError, SpecError
from sudoku_csp.geometry import Geometry, Grid
from sudoku_csp.interrupts import reraise_pysat
from sudoku_csp.modeling.variables import variables
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Result, Status, check_limit
from sudoku_csp.satsession import SolverSession
from sudoku_csp.satsolver import (
    Propagator,
    add_clauses,
    add_stats,
    canonical_solver,
    capabilities,
    enumerate_solutions,
    load,
    propagating_solvers,
    settled,
    solve_until,
    solver_names,
)

SAT_SOLVER = "minisat22"
"""The PySAT solver of bare ``sat`` (and so of ``auto``'s SAT member): deciding uniqueness
in incremental mode on the dev corpus, the killers and the few-givens kinds it took the
least CPU per puzzle at the median and in the tail of every file, at about the conflicts of
CaDiCaL 1.5.3 (docs/design.md: "The SAT backend's solver"). The generator and the setter
tools keep :data:`~sudoku_csp.satsolver.DEFAULT_SOLVER`."""
DEFAULT_RECYCLE = 500
DEFAULT_FRESH_AFTER = 0
"""Conflicts a puzzle may spend in the incremental solver before its search goes on in a
fresh one; 0: never. Off: the fresh solver starts without the learnt clauses, and only on
little killers does a conflict cost less there (docs/design.md: "Incremental, then
fresh")."""
MODES = ("incremental", "fresh", "reduced")
# Loaded solvers kept per backend, least recently used dropped first. A file mixing many
# geometries (jigsaws) must not rebuild a solver for every puzzle, yet memory stays bounded:
# a 9×9 formula is 12k clauses, a 25×25 one about 750k.
MAX_SESSIONS = 32
MAX_LOADED_CLAUSES = 3_000_000


# -- the backend --------------------------------------------------------------------------
class SatBackend(BackendBase):
    """A CNF encoding solved by a PySAT solver (incremental by default).

    >>> b = SatBackend(solver="g4", encoding="minimal")
    >>> from sudoku_csp import parse
    >>> b.spec, b.solve(parse("3.1...4.2......."), limit=2).status
    ('sat:solver=glucose4,encoding=minimal', <Status.UNIQUE: 'unique'>)
    """

    name = "sat"
    translation = "cnf"
    description = (f"CNF encoding + PySAT solver; bare 'sat' = {SAT_SOLVER}, "
                   f"{cnf.DEFAULT_ENCODING} encoding, {cnf.DEFAULT_AMO} AMO, incremental "
                   "(fastest measured)")
    COMPARE = ("sat:solver=cadical195,encoding=extended", "sat:encoding=minimal")  # rich, lean
    takes_candidates = True
    OPTIONS = (
        Option("solver", SAT_SOLVER, "any PySAT solver (aliases such as g4 accepted)",
               solver_names(), open_choices=True),
        Option("encoding", cnf.DEFAULT_ENCODING.value, "CNF encoding",
               tuple(e.value for e in cnf.Encoding)),
        Option("amo", cnf.DEFAULT_AMO, "at-most-one encoding (pysat.card.EncType)",
               cnf.AMO_CHOICES),
        Option("mode", "incremental", "incremental: one solver per geometry, givens "
               "assumed (behind a selector with constraints); fresh: new solver per "
               "puzzle, givens as units; reduced: new solver per puzzle on the "
               "clue-reduced formula", MODES),
        Option("search", "on", "off: unit propagation only, never guess (grading)",
               ("on", "off")),
        Option("recycle", DEFAULT_RECYCLE, "incremental: rebuild the solver after this many "
               "retired counting selectors", kind=int, minimum=1),
        Option("fresh_after", DEFAULT_FRESH_AFTER, "incremental: a puzzle still undecided "
               "after this many conflicts goes on in a fresh solver (givens as units, "
               "solutions found blocked; 0: never)", kind=int, minimum=0),
        Option("order", "fresh", "incremental: fresh: each puzzle's search starts with "
               "every variable's activity at zero, as in a new solver (the MiniSat family); "
               "kept: from the activities the puzzles before left", ("fresh", "kept")),
    )

    @classmethod
    def kind_encoding_options(cls) -> dict[str, EncodingOption]:
        """Every kind's encoding option (the CNF translation honours them all)."""
        return encoding_options()

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        o = self.options
        # The base checked every value against its Option; what remains needs PySAT.
        o["solver"] = canonical_solver(str(o["solver"]))
        self.encoding = cnf.encoding_of(o["encoding"])
        self.amo = cnf.amo_of(o["amo"])
        self.caps = capabilities(o["solver"])
        self.kind_options = self.given_kind_options()
        for name, value in self.kind_options.items():
            check = self.kind_encoding_options()[name].check
            try:  # now, not at the first killer: pysat.pb's encoder is an extra
                if check is not None:
                    check(value)
            except InputError as exc:
                raise SpecError(f"sat: {name}={value}: {exc}") from None
        if o["search"] == "off" and not self.caps.propagate:
            raise SpecError(f"sat: solver {o['solver']} cannot propagate alone in PySAT; "
                            f"for search=off choose from {', '.join(propagating_solvers())}")
        if o["search"] == "on" and o["mode"] == "incremental" and not self.caps.incremental:
            raise SpecError(f"sat: solver {o['solver']} cannot solve incrementally in PySAT; "
                            "use mode=fresh or mode=reduced")
        # Keyed by geometry and the definitions' families its puzzles read (_incremental).
        self._sessions: dict[tuple[Geometry, tuple[Hashable, ...]], SolverSession | Propagator] = {}
        _LIVE.add(self)

    # -- public -----------------------------------------------------------------------------
    def formula(self, geometry: Geometry, deadline: Deadline = NEVER) -> cnf.Formula:
        """The formula this backend solves for ``geometry`` (before any givens; building it
        looks at ``deadline``: see :func:`~sudoku_csp.encodings.cnf.build`)."""
        return cnf.build(geometry, self.encoding, self.amo, deadline=deadline)

    def close(self) -> None:
        """Free every loaded solver (they are rebuilt on demand)."""
        for session in self._sessions.values():
            session.close()
        self._sessions.clear()

    def renew(self) -> None:
        """Renew each incremental session now (:meth:`~sudoku_csp.satsession.SolverSession.
        renew`); propagation-only solvers learn nothing."""
        for session in self._sessions.values():
            if isinstance(session, SolverSession):
                session.renew()

    def session_info(self, geometry: Geometry, families: tuple[Hashable, ...] = ()
                     ) -> dict[str, int]:
        """The incremental solver state kept for ``geometry`` and the puzzles whose clauses
        read definitions of ``families`` (none by default; for tests and research):
        ``selectors`` retired since the last rebuild, the solver's own counts of
        ``variables`` and ``clauses`` (0 when no solver is loaded), and ``builds`` so far.
        """
        s = self._sessions.get((geometry, families))
        if not isinstance(s, SolverSession):
            return {"selectors": 0, "variables": 0, "clauses": 0, "builds": 0}
        solver = s.solver
        return {"selectors": s.retired,
                "variables": solver.nof_vars() if solver is not None else 0,
                "clauses": solver.nof_clauses() if solver is not None else 0,
                "builds": s.builds}

    def solve(self, puzzle: Puzzle, *, limit: int | None = 1, time_limit: Limit = None,
              candidates: Sequence[int] | None = None) -> Result:
        """Look for up to ``limit`` solutions of ``puzzle`` (the :class:`Backend` protocol).

        ``candidates``: one digit mask per cell (bit ``d``: digit ``d`` may stand there)
        that every solution of the puzzle keeps to, such as another solver's propagation
        left them (:meth:`~sudoku_csp.backends.native.NativeBackend.solve_from_root`).
        The search starts from them: each digit ruled out becomes a unit clause (behind the
        puzzle's selector when incremental; ``stats["known"]`` counts them), so SAT does
        not find again what the other solver found. Only *consequences of the puzzle's
        rules* may be passed: a digit wrongly ruled out can hide a solution. The
        ``reduced`` mode and ``search=off`` ignore them.
        """
        start = time.perf_counter()
        deadline = Deadline.of(time_limit)
        check_limit(limit)
        if candidates is not None and len(candidates) != puzzle.geometry.ncells:
            raise ValueError(f"expected {puzzle.geometry.ncells} candidate masks, "
                             f"got {len(candidates)}")
        try:
            return self._solve(puzzle, limit, deadline, start, candidates)
        except KeyboardInterrupt:
            # A solver stopped by Ctrl-C may be unusable (PySAT jumps out of it): drop them
            # all, so that a notebook can go on solving after an interrupted cell.
            self.close()
            raise

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline,
               start: float, candidates: Sequence[int] | None) -> Result:
        if self.options["search"] == "off":
            result = self._propagate_only(puzzle, start, deadline)
        else:
            mode = self.options["mode"]
            tally = Tally(puzzle, self.spec, limit)
            phases: dict[str, float] = {}
            try:
                if mode == "incremental":
                    complete, timed_out, stats = self._incremental(puzzle, limit, deadline,
                                                                   tally, phases, candidates)
                else:
                    complete, timed_out, stats = self._fresh(puzzle, limit, deadline, tally,
                                                             mode == "reduced", candidates)
            except Expired:  # loading the formula took what was left: nothing decided
                complete, timed_out, stats = False, True, {}
            result = make_result(puzzle, tally, limit=limit, complete=complete,
                                 timed_out=timed_out, solver=self.spec,
                                 seconds=time.perf_counter() - start, stats=stats,
                                 time_limit=deadline, phases=phases)
        # Clashing givens make the formula unsatisfiable at once, so they are looked for
        # only when no solution came back: the common case skips a pass over every unit.
        if not result.solutions:
            clash = clash_result(puzzle, self.spec)
            if clash is not None:
                return clash
        return result

    # -- modes ------------------------------------------------------------------------------
    def _session(self, geometry: Geometry, kind: type, deadline: Deadline = NEVER,
                 families: tuple[Hashable, ...] = ()) -> Any:
        key = (geometry, families)
        session = self._sessions.pop(key, None)  # re-inserted last: LRU order
        if session is None:
            formula = self.formula(geometry, deadline)
            if kind is SolverSession:
                session = SolverSession(self.options["solver"], formula, self.options["recycle"],
                                        one_at_a_time=True)
            else:
                session = Propagator(self.options["solver"], formula, deadline=deadline)
            loaded = len(formula.clauses) + sum(len(other.formula.clauses)
                                                for other in self._sessions.values())
            while self._sessions and (len(self._sessions) >= MAX_SESSIONS
                                      or loaded > MAX_LOADED_CLAUSES):
                oldest = self._sessions.pop(next(iter(self._sessions)))
                loaded -= len(oldest.formula.clauses)
                oldest.close()
        self._sessions[key] = session
        return session

    def _incremental(self, puzzle: Puzzle, limit: int | None, deadline: Deadline,
                     tally: Tally, phases: dict[str, float],
                     candidates: Sequence[int] | None):
        began = time.perf_counter()
        # What the grid alone defines (a sandwich's lines) a session holds for all puzzles,
        # a session per family of definitions (one for all is slower, switches or not).
        defined = definitions(puzzle.geometry, puzzle.constraints, self.kind_options) \
            if puzzle.constraints else []
        families = tuple(sorted({d.key for d in defined}, key=repr))
        session: SolverSession = self._session(puzzle.geometry, SolverSession, deadline,
                                               families)
        solver = session.get(deadline)
        caps, numbering = self.caps, session.vars
        read = numbering.read_model
        givens = numbering.literals(puzzle.givens)
        known = numbering.ruled_out(candidates, puzzle.givens) if candidates else []
        selector = 0
        if puzzle.constraints or known:
            # The puzzle's own clauses join the loaded formula guarded by a selector, like
            # blocking clauses, and are retired with it; its givens too, so that the selector
            # is the one assumption: a clause learnt from givens taken as assumptions carries
            # one literal per given it rests on (givens behind the selector: little killers
            # of few givens 17 % quicker, the rest within noise: docs/design.md).
            selector = session.selector()
            add_clauses(solver, [(literal, -selector) for literal in givens])
            givens = []
        if puzzle.constraints:
            shared = session.define(defined)
            add_clauses(solver, session.switched_on(defined, -selector))
            clauses = session.scratch(partial(cnf.constraint_clauses, puzzle,
                                              options=self.kind_options, guard=-selector,
                                              shared=shared))
            add_clauses(solver, clauses)
        if known:
            add_clauses(solver, [(literal, -selector) for literal in known])
        assumptions = [selector] if selector else givens
        if self.options["order"] == "fresh" and caps.activities:
            # The puzzles before bumped the variables their own conflicts met: a search that
            # starts from their order branches first where another puzzle was hard (the dev
            # corpus three times over: 16,400 conflicts, 10,700 from zero; docs/design.md).
            solver.set_activities({})
        model_seconds = time.perf_counter() - began
        # Counting, unit propagation alone may settle it: no search, no second call.
        outcome = settled(solver, caps, assumptions, numbering) \
            if limit != 1 and not deadline.expired() else None
        solving = [time.perf_counter() - began - model_seconds]
        # Past this many conflicts the search goes on in a fresh solver (None: never).
        budget: int | None = (self.options["fresh_after"] or None) \
            if caps.budget and caps.stats else None
        spent = solver.accum_stats()["conflicts"] if budget is not None else 0
        found: list[Grid] = []  # blocked so far: the fresh solver blocks them too
        switch = False

        def solve() -> bool | None:
            nonlocal switch
            start = time.perf_counter()
            try:
                if budget is None:
                    return solve_until(solver, caps, assumptions, deadline)
                left = budget - (solver.accum_stats()["conflicts"] - spent)
                answer = solve_until(solver, caps, assumptions, deadline, max(left, 0))
                switch = answer is None and not deadline.expired()
                return answer
            finally:
                solving[0] += time.perf_counter() - start

        def block(grid: Grid) -> None:
            nonlocal selector
            if not selector:
                selector = session.selector()
                assumptions.append(selector)
            solver.add_clause(numbering.exclusion(grid, puzzle.givens, -selector))
            if budget is not None:
                found.append(grid)

        try:
            _, complete, timed_out, calls = enumerate_solutions(
                solve, lambda: read(solver.get_model()), block, limit, tally.add, outcome)
        except Exception:
            session.counts()  # a failed puzzle's counts are not the next puzzle's
            raise
        stats = {**session.counts(), "solver_calls": calls}
        if outcome is not None:
            stats["settled_by_propagation"] = True
        if known:
            stats["known"] = len(known)
        if selector:
            session.retire(selector)
        phases.update(model_seconds=model_seconds, solve_seconds=solving[0])
        if budget is not None:
            stats["finished_in"] = "incremental"
            if switch:
                complete, timed_out = self._go_on_fresh(
                    puzzle, None if limit is None else limit - tally.count, deadline, tally,
                    candidates, found, stats, phases)
        return complete, timed_out, stats

    def _go_on_fresh(self, puzzle: Puzzle, limit: int | None, deadline: Deadline,
                     tally: Tally, candidates: Sequence[int] | None, found: list[Grid],
                     stats: dict[str, Any], phases: dict[str, float]) -> tuple[bool, bool]:
        """The search of a puzzle that passed ``fresh_after`` conflicts in the incremental
        solver, on in a fresh one with the solutions ``found`` there blocked, up to
        ``limit`` more; its counts are added to ``stats``, its time (the fresh solver's
        loading too) to ``phases["solve_seconds"]``."""
        start = time.perf_counter()
        stats["finished_in"] = "fresh"
        try:
            complete, timed_out, more = self._fresh(puzzle, limit, deadline, tally, False,
                                                    candidates, found)
        except Expired:  # loading the formula took what was left
            complete, timed_out, more = False, True, {}
        for key, value in more.items():
            if key != "known":
                stats[key] = stats.get(key, 0) + value
        phases["solve_seconds"] += time.perf_counter() - start
        return complete, timed_out

    def _fresh(self, puzzle: Puzzle, limit: int | None, deadline: Deadline,
               tally: Tally, reduced: bool, candidates: Sequence[int] | None,
               found: Sequence[Grid] = ()):
        geometry = puzzle.geometry
        numbering = variables(geometry)
        options = self.kind_options
        known: list[int] = []
        if reduced:
            base = cnf.clue_reduced(puzzle, self.encoding, self.amo, options,
                                   deadline=deadline).clauses

            def decode(model: Sequence[int]) -> Grid:
                return numbering.decode(model, puzzle.givens)
        else:
            formula = self.formula(geometry, deadline)
            base = [*formula.clauses, *([lit] for lit in numbering.literals(puzzle.givens))]
            if puzzle.constraints:
                base += cnf.constraint_clauses(puzzle, formula.nv + 1, options)[0]
            if candidates:
                known = numbering.ruled_out(candidates, puzzle.givens)
                base += ([literal] for literal in known)
            base += (numbering.exclusion(grid, puzzle.givens) for grid in found)
            decode = numbering.read_model
        caps = self.caps
        blocks: list[list[int]] = []
        totals: dict[str, int] = {}
        name, x_vars = self.options["solver"], numbering.x_count
        solver = load(name, base, x_vars, deadline=deadline)

        def block(grid: Grid) -> None:
            nonlocal solver
            clause = numbering.exclusion(grid, puzzle.givens)
            if caps.incremental:
                solver.add_clause(clause)
            else:  # a one-shot solver: start again with every blocking clause so far
                blocks.append(clause)
                add_stats(totals, solver, caps)
                solver.delete()
                solver = load(name, [*base, *blocks], x_vars)

        try:
            _, complete, timed_out, calls = enumerate_solutions(
                lambda: solve_until(solver, caps, [], deadline),
                lambda: decode(solver.get_model()), block, limit, tally.add)
            add_stats(totals, solver, caps)
        finally:
            solver.delete()
        totals["solver_calls"] = calls
        if known:
            totals["known"] = len(known)
        return complete, timed_out, totals

    def _propagate_only(self, puzzle: Puzzle, start: float, deadline: Deadline) -> Result:
        # The deadline is looked at while the formula is built, between chunks of its
        # loading and before propagating (one propagation is not stopped): past it, unknown.
        prop: Propagator | None = None
        try:
            if puzzle.constraints:  # the puzzle's own clauses: a propagator for it only
                formula = self.formula(puzzle.geometry, deadline)
                extra = cnf.constraint_clauses(puzzle, formula.nv + 1, self.kind_options)[0]
                deadline.check("building the formula")
                prop = Propagator(self.options["solver"], formula, extra, deadline)
            else:
                prop = self._session(puzzle.geometry, Propagator, deadline)
            deadline.check("loading the formula")
            numbering = prop.formula.vars
            assumptions = list(dict.fromkeys([*prop.units,
                                              *numbering.literals(puzzle.givens)]))
            ok, literals = prop.solver.propagate(assumptions=assumptions)
        except Expired:
            return make_result(puzzle, [], limit=None, complete=False, timed_out=True,
                               solver=self.spec, seconds=time.perf_counter() - start,
                               stats={}, time_limit=deadline)
        except pysolvers.error as exc:
            reraise_pysat(exc)
            raise
        finally:
            if puzzle.constraints and prop is not None:
                prop.close()
        grid = numbering.decode(literals) if ok else ()
        placed = sum(d >= 0 for d in grid)
        solved = ok and placed == puzzle.geometry.ncells
        stats = {"solved_by_propagation": solved, "placed": placed,
                 "assigned": len(literals) if ok else 0}
        result = make_result(puzzle, [grid] if solved else [], limit=None,
                             complete=not ok or solved, timed_out=False, solver=self.spec,
                             seconds=time.perf_counter() - start, stats=stats)
        if result.status is Status.UNKNOWN:
            return Result(Status.UNKNOWN, (), stats, result.seconds, self.spec,
                          "propagation alone does not solve this puzzle", puzzle=puzzle)
        return result


_LIVE: weakref.WeakSet[SatBackend] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    # Backends cached by get_backend live until exit; PySAT solvers deleted during module
    # teardown raise "Exception ignored in __del__", so they are freed while PySAT still works.
    for backend in list(_LIVE):
        backend.close()


