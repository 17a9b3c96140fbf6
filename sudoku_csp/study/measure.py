"""The measurements of one method over a file of puzzles: unit propagation, probing and
search on loaded solvers (:mod:`sudoku_csp.study.table` names what they fill in)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from pysat.solvers import Solver

from sudoku_csp.backends.base import Tally as Solutions
from sudoku_csp.encodings import cnf
from sudoku_csp.geometry import Geometry, Grid
from sudoku_csp.native.search import Searcher
from sudoku_csp.native.state import State
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsession import SolverSession
from sudoku_csp.satsolver import (
    Capabilities,
    Propagator,
    capabilities,
    load,
    propagating_solver,
    solve_until,
    stats_delta,
)
from sudoku_csp.study.probing import probe
from sudoku_csp.study.table import Method, decisions_of
from sudoku_csp.verify import check_solutions

Progress = Callable[[int], object]


def _placed(literals: Iterable[int], x_vars: int) -> int:
    return sum(1 for lit in literals if 0 < lit <= x_vars)


class _Compact:
    """A clue-reduced formula renumbered ``1..k`` over the variables that occur in it, for
    search: the variables the givens fixed occur in no clause, yet a solver numbering by
    DIMACS would still decide each of them (hundreds of decisions per puzzle that say nothing
    about the formula). Cell variables keep their order and come first."""

    def __init__(self, clauses: Sequence[Sequence[int]], x_count: int) -> None:
        self.old = sorted({abs(lit) for clause in clauses for lit in clause})
        self.new = {v: i for i, v in enumerate(self.old, start=1)}
        self.clauses = [self.to(clause) for clause in clauses]
        self.x_vars = sum(v <= x_count for v in self.old)

    def to(self, literals: Iterable[int]) -> list[int]:
        return [self.new[lit] if lit > 0 else -self.new[-lit] for lit in literals]

    def back(self, literals: Iterable[int]) -> list[int]:
        return [self.old[lit - 1] if lit > 0 else -self.old[-lit - 1] for lit in literals]


@dataclass
class Tally:
    """Per-puzzle figures of one method (and one solver for the search figures)."""

    propagated: set[int] = field(default_factory=set)
    probed: set[int] = field(default_factory=set)
    probe_seconds: float = 0.0
    decisions: list[int] = field(default_factory=list)
    conflicts: list[int] = field(default_factory=list)
    propagations: list[int] = field(default_factory=list)
    search_seconds: float = 0.0
    not_unique: int = 0
    sizes: list[tuple[int, int, int]] = field(default_factory=list)
    complete: bool = True  # False: the time limit cut it (its figures are partial)
    undecided: str = ""  # why a puzzle was left undecided, the time limit aside
    propagation_read: bool = True  # False: no way to ask the method's propagation alone


def out_of_time(deadline: float | None) -> bool:
    """Whether ``deadline`` (a ``time.monotonic()`` value; None: no limit) has passed."""
    return deadline is not None and time.monotonic() >= deadline


def _propagation(tally: Tally, index: int, solver: Solver, assumptions: list[int],
                 every: Sequence[int], probing: bool, solved: Callable[[Sequence[int]], bool]
                 ) -> None:
    """Unit propagation, then (``probing``) failed-literal probing, of one puzzle."""
    ok, literals = solver.propagate(assumptions=assumptions)
    if ok and solved(literals):
        tally.propagated.add(index)
    if probing:
        start = time.perf_counter()
        found = probe(solver, assumptions, every)
        tally.probe_seconds += time.perf_counter() - start
        if found.consistent and solved(found.literals):
            tally.probed.add(index)


def _search(tally: Tally, solver: Solver, name: str, caps: Capabilities, puzzle: Puzzle,
            assumptions: list[int], read: Callable[[list[int]], Grid],
            exclusion: Callable[[Grid], list[int]], spec: str, deadline: float | None
            ) -> bool:
    """Find a solution, block it, look for another; the solver's counts into ``tally``.
    False (nothing counted) when ``deadline`` passed first. Each model is checked against
    the rules and told apart from the other (a backend's :class:`Solutions`), so "not
    unique" rests on two solutions, as a backend's verdict does."""
    before = solver.accum_stats() if caps.stats else None
    models = Solutions(puzzle, spec, 2)
    # Through solve_until: a search that runs long (a large empty grid) stops at its deadline,
    # Ctrl-C or SIGTERM, where a plain solve() would hold the signal until it returned.
    found = solve_until(solver, caps, assumptions, deadline)
    if found is None:
        return False
    if found:
        grid = read(solver.get_model())
        models.add(grid)
        solver.add_clause(exclusion(grid))
        again = solve_until(solver, caps, assumptions, deadline)
        if again is None:
            return False
        if again:
            models.add(read(solver.get_model()))
    stats = stats_delta(before, solver.accum_stats() if caps.stats else None)
    tally.not_unique += models.count != 1
    if stats:
        tally.decisions.append(decisions_of(name, stats, models.count))
        tally.conflicts.append(stats.get("conflicts", 0))
        tally.propagations.append(stats.get("propagations", 0))
    return True


def measure_cnf(method: Method, puzzles: Sequence[Puzzle], geometry: Geometry, propagator: str,
         probing: bool, solvers: Sequence[str], recycle: int, progress: Progress | None,
         deadline: float | None = None) -> tuple[Tally, dict[str, Tally]]:
    """One encoding: propagation and probing on one loaded solver, givens as assumptions;
    then, per search solver, one loaded solver per ``recycle`` puzzles. Past ``deadline``
    (looked at between puzzles and inside searches) the tally being filled is marked
    incomplete and the solvers not reached are left out."""
    formula = cnf.build(geometry, method.name, method.amo or cnf.DEFAULT_AMO)
    numbering, ncells = formula.vars, geometry.ncells
    tally = Tally(sizes=[(formula.nv, len(formula.clauses), formula.literals)])
    every = range(1, formula.nv + 1)

    def solved(literals: Sequence[int]) -> bool:
        return _placed(literals, formula.x_vars) == ncells

    shared = Propagator(propagator, formula)  # only ever propagates: no learnt units
    try:
        for index, puzzle in enumerate(puzzles):
            if out_of_time(deadline):
                tally.complete = False
                return tally, {}
            _propagation(tally, index, shared.solver, [*shared.units, *cnf.givens(puzzle)],
                         every, probing, solved)
            if progress:
                progress(1)
    finally:
        shared.close()
    searched: dict[str, Tally] = {}
    for name in solvers:
        if out_of_time(deadline):
            break
        found = searched[name] = Tally()
        caps = capabilities(name)
        session = SolverSession(name, formula, recycle)
        spec = f"sat:solver={name},encoding={method.name},amo={formula.amo}"
        try:
            for puzzle in puzzles:
                begin = time.perf_counter()
                loaded = session.get()  # (re)built first: selectors are numbered above it
                selector = session.selector()  # guards this puzzle's blocking clause

                def exclusion(grid: Grid, givens: Sequence[int] = puzzle.givens,
                              guard: int = -selector) -> list[int]:
                    return numbering.exclusion(grid, givens, guard)

                if not _search(found, loaded, name, caps, puzzle,
                               [*cnf.givens(puzzle), selector], numbering.read_model,
                               exclusion, spec, deadline):
                    found.complete = False
                    break
                session.retire(selector)
                found.search_seconds += time.perf_counter() - begin
                if progress:
                    progress(1)
        finally:
            session.close()
    return tally, searched


def measure_reduced(method: Method, puzzles: Sequence[Puzzle], geometry: Geometry, propagator: str,
             probing: bool, solvers: Sequence[str], progress: Progress | None,
             deadline: float | None = None) -> tuple[Tally, dict[str, Tally]]:
    """One clue-reduced encoding: per puzzle, its formula, then a new solver for
    propagation and probing and one per search solver (puzzles/s counts building it).
    Past ``deadline`` every tally is marked incomplete and the run ends."""
    amo = method.amo or cnf.DEFAULT_AMO
    numbering = cnf.build(geometry, method.name, amo).vars
    tally = Tally()
    searched = {name: Tally() for name in solvers}
    for index, puzzle in enumerate(puzzles):
        if out_of_time(deadline):
            tally.complete = False
            return tally, {}
        begin = time.perf_counter()
        clauses = cnf.clue_reduced(puzzle, method.name, amo).clauses
        built = time.perf_counter() - begin
        tally.sizes.append((len({abs(lit) for c in clauses for lit in c}), len(clauses),
                            sum(map(len, clauses))))
        givens = puzzle.givens

        def solved(literals: Sequence[int], givens: Sequence[int] = givens) -> bool:
            # the givens decide their cells and the digits they rule out (not in the formula)
            return min(numbering.decode(literals, givens)) >= 0

        solver, units = propagating_solver(propagator, clauses)
        try:
            # the variables the givens fixed occur in no clause: nothing to probe there
            every = sorted({abs(lit) for clause in clauses for lit in clause})
            _propagation(tally, index, solver, units, every, probing, solved)
        finally:
            solver.delete()
        if progress:
            progress(1)
        for name in solvers:
            begin = time.perf_counter()
            compact = _Compact(clauses, numbering.x_count)
            s = load(name, compact.clauses, compact.x_vars)

            def read(model: list[int], compact: _Compact = compact,
                     givens: Sequence[int] = givens) -> Grid:
                return numbering.decode(compact.back(model), givens)

            def exclusion(grid: Grid, compact: _Compact = compact,
                          givens: Sequence[int] = givens) -> list[int]:
                return compact.to(numbering.exclusion(grid, givens))

            try:
                finished = _search(searched[name], s, name, capabilities(name), puzzle, [],
                                   read, exclusion,
                                   f"sat:solver={name},encoding={method.name},mode=reduced",
                                   deadline)
            finally:
                s.delete()
            if not finished:
                # the puzzle's propagation was measured but not every search: the method's
                # propagation figures are whole only up to the puzzle before, so none is kept
                tally.complete = False
                return tally, {}
            searched[name].search_seconds += built + time.perf_counter() - begin
            if progress:
                progress(1)
    return tally, searched


def measure_native(method: Method, puzzles: Sequence[Puzzle], search: bool,
            progress: Progress | None, deadline: float | None = None) -> Tally:
    """Propagation alone, then (``search``) solving with uniqueness, with one preset; past
    ``deadline`` the tally is marked incomplete and returned as it stands."""
    tally = Tally()
    searcher = Searcher(method.name)
    for index, puzzle in enumerate(puzzles):
        if out_of_time(deadline):
            tally.complete = False
            return tally
        if searcher.propagate_only(State.from_puzzle(puzzle)).stats.solved_by_propagation:
            tally.propagated.add(index)
        if search:
            start = time.perf_counter()
            out = searcher.solve(puzzle, limit=2, deadline=deadline)  # the backend's engine
            if out.timed_out:
                tally.complete = False
                return tally
            tally.search_seconds += time.perf_counter() - start
            check_solutions(puzzle, out.solutions, f"native:rules={method.name}")
            stats = out.stats.as_dict()
            tally.not_unique += len(out.solutions) != 1
            tally.decisions.append(int(stats["decisions"]))  # type: ignore[call-overload]
            tally.conflicts.append(int(stats["conflicts"]))  # type: ignore[call-overload]
        if progress:
            progress(1 + search)
    return tally


def mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def median(values: Sequence[float]) -> float | None:
    return float(statistics.median(values)) if values else None
