"""The encodings study: what each CNF encoding of Sudoku lets unit propagation, failed-literal
probing and a CDCL solver do, beside the native solver's rule presets.

It reproduces the table of tdoku's benchmark (t-dillon/tdoku, ``benchmarks/``: MiniSat on its
minimal, natural, complete and augmented encodings; "%no_guess" and "guesses/puzzle") and goes
beyond it: clue-reduced formulas, any ``pysat.card`` at-most-one, any PySAT solver, probing,
and the native presets in the same columns, so that "which propagation equals which rule set"
can be read off.

Glossary
--------
- *method*: one row family: a named encoding with one at-most-one (``kind="cnf"``), the
  clue-reduced formula of an encoding (``"reduced"``), or a native rule preset (``"native"``;
  rule names joined by ``+`` work too).
- *propagation*: unit propagation alone under the givens (``Solver.propagate``), or the
  preset's rules to a fixpoint; a puzzle is *solved* by it when every cell gets its digit.
- *probing*: failed-literal probing to a fixpoint (:func:`~sudoku_csp.satsolver.probe`) over
  every variable of the formula, both signs; native presets are not probed.
- *search*: find a solution and prove that there is no other (tdoku's benchmark does the
  same: it asks for up to two), counting ``decisions``, ``conflicts`` and ``propagations``.

How it is measured: one loaded solver per (encoding, at-most-one) and the givens as
assumptions, never a formula per puzzle, except for clue-reduced formulas, which are per
puzzle by definition (a new solver for each). Search uses one solver per 21 puzzles, as tdoku's
benchmark does (it rebuilds MiniSat when more than 20 blocking-clause activators exist): a
solution is blocked by a clause guarded by the puzzle's selector, retired afterwards.

What "decisions" counts, per solver (tdoku's "guesses" are MiniSat decisions):

- MiniSat family (``minisat22``, ``glucose*``, ``maplesat``...): MiniSat counts one decision
  more per model found (the last pick, which finds every variable assigned; tdoku subtracts
  it), and PySAT's MiniSat numbers variables as DIMACS does, so variable 0 exists, occurs in
  no clause and is decided at least once per model found. :func:`decisions_of` subtracts both
  (two per model): a puzzle that propagation solves counts 0, as in tdoku's table. Variable 0
  may also be decided in a descent that ends in a conflict, so on hard puzzles the figure can
  exceed MiniSat's own count by the number of such descents (rare: by then it has the lowest
  activity of all).
- CaDiCaL: its own ``decisions`` counter, which counts neither assumptions nor a final pick.

>>> from sudoku_csp import datasets
>>> study = run_study(list(datasets.load("mixed9"))[:3], encodings=["extended"],
...                   solvers=["minisat22"], rules=["singles"], reduced=[])
>>> [row.method for row in study.rows]
['extended', 'native singles']
>>> study.propagated["extended"] == study.propagated["native singles"]
True
>>> study.rows[0].same_as
'native singles'
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from pysat.solvers import Solver

from sudoku_csp.batch.plot import check_plot_path
from sudoku_csp.constraints.base import refuse_constraints
from sudoku_csp.encodings import cnf
from sudoku_csp.errors import InputError
from sudoku_csp.extras import require_extra
from sudoku_csp.geometry import Geometry, Grid
from sudoku_csp.native.rules import rule_names
from sudoku_csp.native.search import Searcher
from sudoku_csp.native.state import State
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsolver import (
    Capabilities,
    Propagator,
    SolverSession,
    canonical_solver,
    capabilities,
    load,
    probe,
    propagating_solver,
    stats_delta,
)
from sudoku_csp.verify import check_solutions

__all__ = [
    "ALL_ENCODINGS", "STUDY_PRESETS", "STUDY_PROPAGATOR", "STUDY_RECYCLE", "STUDY_REDUCED",
    "STUDY_SOLVERS", "Method", "Row", "Study", "check_plot_path", "decisions_of", "methods",
    "plot_study", "run_study", "work",
]

Kind = Literal["cnf", "reduced", "native"]

STUDY_SOLVERS = ("minisat22", "cadical195")
"""Solvers the study searches with unless told otherwise: MiniSat to compare with tdoku's
table, CaDiCaL as a modern solver."""
ALL_ENCODINGS = tuple(encoding.value for encoding in cnf.Encoding)
"""Every named encoding: the study's rows unless told otherwise."""
STUDY_PRESETS = ("eliminate", "singles", "locked", "pairs", "full")
"""Native presets shown beside the encodings unless told otherwise (``eliminate`` alone is
naked singles: what unit propagation does on ``minimal`` and ``natural``)."""
STUDY_REDUCED = (cnf.DEFAULT_ENCODING.value,)
"""Encodings whose clue-reduced formulas are studied unless told otherwise."""
STUDY_PROPAGATOR = "minisat22"
"""The solver that runs propagation and probing (any solver gives the same fixpoint)."""
STUDY_RECYCLE = 21
"""Puzzles per search solver before it is rebuilt: tdoku's benchmark rebuilds MiniSat before
a puzzle once more than 20 blocking-clause activators exist, so each instance serves 21."""
MINISAT_FAMILY = ("minisat", "glucose", "maple", "mergesat", "minicard", "gluecard")
"""Name prefixes of PySAT solvers built on MiniSat's search loop (see :func:`decisions_of`)."""


@dataclass(frozen=True)
class Method:
    """One family of rows: an encoding with an at-most-one, a clue-reduced formula, or a
    native preset.

    >>> Method("cnf", "extended", "seqcounter").label, Method("native", "locked").label
    ('extended/seqcounter', 'native locked')
    """

    kind: Kind
    name: str
    amo: str | None = None

    @property
    def label(self) -> str:
        amo = "" if self.amo in (None, cnf.DEFAULT_AMO) else f"/{self.amo}"
        prefix = {"cnf": "", "reduced": "reduced ", "native": "native "}[self.kind]
        return f"{prefix}{self.name}{amo}"


@dataclass(frozen=True)
class Row:
    """One line of the study's table (``None``: not measured for this method). Sizes are
    per formula (means over the puzzles for clue-reduced ones); shares are percentages of
    the puzzles; decisions, conflicts and propagations are per puzzle, find and uniqueness
    proof together; ``same_as`` names the methods of the other side (native presets for an
    encoding, encodings for a preset) whose propagation solved exactly the same puzzles."""

    method: str
    kind: str
    encoding: str | None
    amo: str | None
    solver: str | None
    puzzles: int
    variables: float | None
    clauses: float | None
    literals: float | None
    propagation_pct: float
    same_as: str
    probing_pct: float | None
    probe_ms: float | None
    no_decision_pct: float | None
    decisions_mean: float | None
    decisions_median: float | None
    conflicts_mean: float | None
    conflicts_median: float | None
    propagations_mean: float | None
    propagations_median: float | None
    puzzles_per_s: float | None
    not_unique: int | None

    def as_dict(self) -> dict[str, Any]:
        """The row as JSON-ready values (floats rounded to 4 decimals)."""
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(self).items()}


@dataclass
class Study:
    """The study's result: its rows, and per method label the indices (into the puzzles
    given) of the puzzles propagation and probing solved."""

    rows: list[Row]
    propagated: dict[str, frozenset[int]] = field(default_factory=dict)
    probed: dict[str, frozenset[int]] = field(default_factory=dict)


def methods(encodings: Iterable[str], amos: Iterable[str], reduced: Iterable[str],
            rules: Iterable[str]) -> list[Method]:
    """The methods asked for, checked (InputError on an unknown name), in table order:
    each encoding with each at-most-one, then each clue-reduced encoding with each, then the
    native presets (or rule names joined by ``+``, such as ``eliminate`` alone: naked
    singles).

    >>> [m.label for m in methods(["minimal"], ["pairwise", "ladder"], ["extended"], ["full"])]
    ['minimal', 'minimal/ladder', 'reduced extended', 'reduced extended/ladder', 'native full']
    """
    amo_list = [cnf.amo_of(a) for a in amos]
    found = [Method("cnf", cnf.encoding_of(e).value, a) for e in encodings for a in amo_list]
    found += [Method("reduced", cnf.encoding_of(e).value, a) for e in reduced for a in amo_list]
    for preset in rules:
        rule_names(preset)  # a preset or '+'-joined rule names (InputError otherwise)
        found.append(Method("native", preset))
    return found


def decisions_of(solver: str, stats: dict[str, int], models: int) -> int:
    """Decisions as tdoku counts guesses, from a solver's ``accum_stats()`` growth over
    calls that found ``models`` models (see the module docstring: two extra per model for
    PySAT's MiniSat family, none for CaDiCaL).

    >>> decisions_of("minisat22", {"decisions": 2}, 1)
    0
    >>> decisions_of("cadical195", {"decisions": 3}, 1)
    3
    """
    extra = 2 * models if solver.startswith(MINISAT_FAMILY) else 0
    return max(0, stats.get("decisions", 0) - extra)


# -- measuring ------------------------------------------------------------------------------
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
class _Tally:
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


def _propagation(tally: _Tally, index: int, solver: Solver, assumptions: list[int],
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


def _search(tally: _Tally, solver: Solver, name: str, caps: Capabilities, puzzle: Puzzle,
            assumptions: list[int], read: Callable[[list[int]], Grid],
            exclusion: Callable[[Grid], list[int]], spec: str) -> None:
    """Find a solution, block it, look for another; the solver's counts into ``tally``."""
    before = solver.accum_stats() if caps.stats else None
    models = 0
    if solver.solve(assumptions=assumptions):
        grid = read(solver.get_model())
        check_solutions(puzzle, [grid], spec)
        models = 1
        solver.add_clause(exclusion(grid))
        if solver.solve(assumptions=assumptions):
            models = 2
    stats = stats_delta(before, solver.accum_stats() if caps.stats else None)
    tally.not_unique += models != 1
    if stats:
        tally.decisions.append(decisions_of(name, stats, models))
        tally.conflicts.append(stats.get("conflicts", 0))
        tally.propagations.append(stats.get("propagations", 0))


def _cnf(method: Method, puzzles: Sequence[Puzzle], geometry: Geometry, propagator: str,
         probing: bool, solvers: Sequence[str], recycle: int, progress: Progress | None
         ) -> tuple[_Tally, dict[str, _Tally]]:
    """One encoding: propagation and probing on one loaded solver, givens as assumptions;
    then, per search solver, one loaded solver per ``recycle`` puzzles."""
    formula = cnf.build(geometry, method.name, method.amo or cnf.DEFAULT_AMO)
    numbering, ncells = formula.vars, geometry.ncells
    tally = _Tally(sizes=[(formula.nv, len(formula.clauses), formula.literals)])
    every = range(1, formula.nv + 1)

    def solved(literals: Sequence[int]) -> bool:
        return _placed(literals, formula.x_vars) == ncells

    shared = Propagator(propagator, formula)  # only ever propagates: no learnt units
    try:
        for index, puzzle in enumerate(puzzles):
            _propagation(tally, index, shared.solver, [*shared.units, *cnf.givens(puzzle)],
                         every, probing, solved)
            if progress:
                progress(1)
    finally:
        shared.close()
    searched = {}
    for name in solvers:
        found = searched[name] = _Tally()
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

                _search(found, loaded, name, caps, puzzle,
                        [*cnf.givens(puzzle), selector], numbering.read_model, exclusion, spec)
                session.retire(selector)
                found.search_seconds += time.perf_counter() - begin
                if progress:
                    progress(1)
        finally:
            session.close()
    return tally, searched


def _reduced(method: Method, puzzles: Sequence[Puzzle], geometry: Geometry, propagator: str,
             probing: bool, solvers: Sequence[str], progress: Progress | None
             ) -> tuple[_Tally, dict[str, _Tally]]:
    """One clue-reduced encoding: per puzzle, its formula, then a new solver for
    propagation and probing and one per search solver (puzzles/s counts building it)."""
    amo = method.amo or cnf.DEFAULT_AMO
    numbering = cnf.build(geometry, method.name, amo).vars
    tally = _Tally()
    searched = {name: _Tally() for name in solvers}
    for index, puzzle in enumerate(puzzles):
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
                _search(searched[name], s, name, capabilities(name), puzzle, [], read,
                        exclusion, f"sat:solver={name},encoding={method.name},mode=reduced")
            finally:
                s.delete()
            searched[name].search_seconds += built + time.perf_counter() - begin
            if progress:
                progress(1)
    return tally, searched


def _native(method: Method, puzzles: Sequence[Puzzle], search: bool,
            progress: Progress | None) -> _Tally:
    """Propagation alone, then (``search``) solving with uniqueness, with one preset."""
    tally = _Tally()
    searcher = Searcher(method.name)
    for index, puzzle in enumerate(puzzles):
        if searcher.propagate_only(State.from_puzzle(puzzle)).stats.solved_by_propagation:
            tally.propagated.add(index)
        if search:
            start = time.perf_counter()
            out = searcher.solve(puzzle, limit=2)  # the engine the native backend uses
            tally.search_seconds += time.perf_counter() - start
            check_solutions(puzzle, out.solutions, f"native:rules={method.name}")
            stats = out.stats.as_dict()
            tally.not_unique += len(out.solutions) != 1
            tally.decisions.append(int(stats["decisions"]))  # type: ignore[call-overload]
            tally.conflicts.append(int(stats["conflicts"]))  # type: ignore[call-overload]
        if progress:
            progress(1 + search)
    return tally


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _median(values: Sequence[float]) -> float | None:
    return float(statistics.median(values)) if values else None


def run_study(
    puzzles: Sequence[Puzzle],
    *,
    encodings: Iterable[str] = ALL_ENCODINGS,
    amos: Iterable[str] = (cnf.DEFAULT_AMO,),
    reduced: Iterable[str] = STUDY_REDUCED,
    rules: Iterable[str] = STUDY_PRESETS,
    solvers: Iterable[str] = STUDY_SOLVERS,
    probing: bool = True,
    propagator: str = STUDY_PROPAGATOR,
    recycle: int = STUDY_RECYCLE,
    progress: Progress | None = None,
) -> Study:
    """Run the study on ``puzzles`` (one geometry, no typed constraints): one row per
    (method, solver), or one per method when ``solvers`` is empty (no search).

    ``progress`` is called with a step count as work is done (for a progress bar); the total
    is :func:`work` of the same arguments.
    """
    puzzles = list(puzzles)
    if not puzzles:
        raise InputError("the study needs at least one puzzle")
    geometry = puzzles[0].geometry
    for puzzle in puzzles:
        refuse_constraints(puzzle, "study")
        if puzzle.geometry != geometry:
            raise InputError("the study needs puzzles of one geometry (one formula per "
                             f"encoding): {geometry.name} and {puzzle.geometry.name}")
    solver_list = [canonical_solver(s) for s in solvers]
    propagator = canonical_solver(propagator)
    if not capabilities(propagator).propagate:
        raise InputError(f"solver {propagator} cannot propagate alone in PySAT")
    chosen = methods(encodings, amos, reduced, rules)
    study = Study([])
    measured: dict[Method, tuple[_Tally, dict[str, _Tally]]] = {}
    for method in chosen:
        if method.kind == "native":
            tally = _native(method, puzzles, bool(solver_list), progress)
            measured[method] = (tally, {"native": tally} if solver_list else {})
        elif method.kind == "cnf":
            measured[method] = _cnf(method, puzzles, geometry, propagator, probing,
                                    solver_list, recycle, progress)
        else:
            measured[method] = _reduced(method, puzzles, geometry, propagator, probing,
                                        solver_list, progress)
        base = measured[method][0]
        study.propagated[method.label] = frozenset(base.propagated)
        if method.kind != "native" and probing:
            study.probed[method.label] = frozenset(base.probed)
    n = len(puzzles)
    for method in chosen:
        base, searched = measured[method]
        # an encoding is matched with presets, a preset with encodings: the comparison the
        # study is for (which propagation makes which deductions)
        same = [m.label for m in chosen if (m.kind == "native") != (method.kind == "native")
                and measured[m][0].propagated == base.propagated]
        sizes: list[float | None] = [statistics.fmean(column) for column in
                                     zip(*base.sizes, strict=True)] or [None, None, None]
        probed = method.kind != "native" and probing
        runs: list[tuple[str | None, _Tally | None]] = list(searched.items()) or [(None, None)]
        for solver, found in runs:
            decisions = found.decisions if found else []
            study.rows.append(Row(
                method=method.label, kind=method.kind,
                encoding=None if method.kind == "native" else method.name,
                amo=method.amo, solver=solver, puzzles=n,
                variables=sizes[0], clauses=sizes[1], literals=sizes[2],
                propagation_pct=100 * len(base.propagated) / n, same_as=", ".join(same),
                probing_pct=100 * len(base.probed) / n if probed else None,
                probe_ms=1000 * base.probe_seconds / n if probed else None,
                no_decision_pct=(100 * sum(d == 0 for d in decisions) / len(decisions)
                                 if decisions else None),
                decisions_mean=_mean(decisions), decisions_median=_median(decisions),
                conflicts_mean=_mean(found.conflicts) if found else None,
                conflicts_median=_median(found.conflicts) if found else None,
                propagations_mean=_mean(found.propagations) if found else None,
                propagations_median=_median(found.propagations) if found else None,
                puzzles_per_s=(n / found.search_seconds
                               if found and found.search_seconds > 0 else None),
                not_unique=found.not_unique if found else None,
            ))
    return study


def work(puzzles: int, *, encodings: Iterable[str], amos: Iterable[str],
         reduced: Iterable[str], rules: Iterable[str], solvers: Iterable[str]) -> int:
    """The number of progress steps :func:`run_study` reports for these arguments.

    >>> work(10, encodings=["minimal"], amos=["pairwise"], reduced=[], rules=["singles"],
    ...      solvers=["minisat22", "cadical195"])
    50
    """
    amo_count, solver_count = len(list(amos)), len(list(solvers))
    formulas = (len(list(encodings)) + len(list(reduced))) * amo_count
    native = len(list(rules)) * (1 + (solver_count > 0))
    return puzzles * (formulas * (1 + solver_count) + native)


# -- the plot -------------------------------------------------------------------------------
def plot_study(study: Study, path: str | os.PathLike, title: str | None = None) -> None:
    """Write two panels to ``path`` (PNG, SVG or PDF): per method, the share of puzzles
    solved without search (propagation; probing), and the mean decisions per puzzle of each
    solver (log scale). Needs matplotlib (extra ``plot``); uses no pyplot state."""
    check_plot_path(path, "study plot")
    figure_module = require_extra("matplotlib.figure", "plot", "the study's plot")
    labels = list(dict.fromkeys(row.method for row in study.rows))
    first = {label: next(r for r in study.rows if r.method == label) for label in labels}
    solvers = list(dict.fromkeys(r.solver for r in study.rows if r.decisions_mean is not None))
    fig = figure_module.Figure(figsize=(11, 0.45 * len(labels) + 1.6), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True)
    ys = list(range(len(labels)))
    height = 0.38
    left.barh([y - height / 2 for y in ys], [first[m].propagation_pct for m in labels],
              height, label="unit propagation / rules")
    left.barh([y + height / 2 for y in ys], [first[m].probing_pct or 0 for m in labels],
              height, label="failed-literal probing")
    left.set_xlim(0, 100)
    left.set_xlabel("% of puzzles solved without search")
    left.set_yticks(ys, labels)
    left.invert_yaxis()
    left.legend(loc="lower right", fontsize="small")
    step = 0.8 / max(1, len(solvers))
    for k, solver in enumerate(solvers):
        values = []
        for m in labels:
            row = next((r for r in study.rows if r.method == m and r.solver == solver), None)
            values.append(row.decisions_mean if row and row.decisions_mean else 0)
        right.barh([y - 0.4 + step * (k + 0.5) for y in ys], values, step, label=solver)
    right.set_xscale("symlog", linthresh=1)
    right.set_xlabel("mean decisions per puzzle (find + uniqueness proof)")
    if solvers:
        right.legend(loc="lower right", fontsize="small")
    if title:
        fig.suptitle(title)
    fig.savefig(os.fspath(path))
