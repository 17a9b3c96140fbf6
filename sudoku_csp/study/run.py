"""Running the study: every method measured, then one row per (method, solver)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Sequence

from sudoku_csp.constraints.base import refuse_constraints
from sudoku_csp.encodings import cnf
from sudoku_csp.errors import InputError
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsolver import (
    canonical_solver,
    capabilities,
)
from sudoku_csp.study.measure import (
    Progress,
    Tally,
    mean,
    measure_cnf,
    measure_native,
    measure_reduced,
    median,
)
from sudoku_csp.study.table import (
    ALL_ENCODINGS,
    STUDY_PRESETS,
    STUDY_PROPAGATOR,
    STUDY_RECYCLE,
    STUDY_REDUCED,
    STUDY_SOLVERS,
    Method,
    Row,
    Study,
    methods,
)


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
    time_limit: float | None = None,
) -> Study:
    """Run the study on ``puzzles`` (one geometry, no typed constraints): one row per
    (method, solver), or one per method when ``solvers`` is empty (no search).

    ``time_limit``: seconds for the whole study (None: no limit), looked at between puzzles
    and inside every search. When it runs out the study stops there and keeps what it has:
    the rows measured on every puzzle; :attr:`Study.unfinished` names the others (their
    methods, or ``method / solver``), and ``same_as`` compares measured methods only.

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
    for name in solver_list:  # one solver per encoding, each puzzle's givens as assumptions
        if not capabilities(name).assumptions:
            raise InputError(f"solver {name} cannot take assumptions, which the study gives "
                             "each puzzle's givens as: choose another solver")
    propagator = canonical_solver(propagator)
    if not capabilities(propagator).propagate:
        raise InputError(f"solver {propagator} cannot propagate alone in PySAT")
    chosen = methods(encodings, amos, reduced, rules)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    study = Study([])
    measured: dict[Method, tuple[Tally, dict[str, Tally]]] = {}
    for method in chosen:
        if study.unfinished:  # the time limit ran out on an earlier method
            study.unfinished.append(method.label)
            continue
        if method.kind == "native":
            tally = measure_native(method, puzzles, bool(solver_list), progress, deadline)
            outcome = (tally, {"native": tally} if solver_list else {})
        elif method.kind == "cnf":
            outcome = measure_cnf(method, puzzles, geometry, propagator, probing, solver_list,
                                  recycle, progress, deadline)
        else:
            outcome = measure_reduced(method, puzzles, geometry, propagator, probing,
                                      solver_list, progress, deadline)
        base, searched = outcome
        if not base.complete:
            study.unfinished.append(method.label)
            continue
        # a native tally is its search's too: complete here; a solver the limit cut or never
        # reached is one unfinished row
        study.unfinished += [f"{method.label} / {s}" for s in solver_list
                             if method.kind != "native"
                             and not (s in searched and searched[s].complete)]
        measured[method] = (base, {s: t for s, t in searched.items() if t.complete})
        study.propagated[method.label] = frozenset(base.propagated)
        if method.kind != "native" and probing:
            study.probed[method.label] = frozenset(base.probed)
    n = len(puzzles)
    for method in chosen:
        if method not in measured:
            continue
        base, searched = measured[method]
        # an encoding is matched with presets, a preset with encodings: the comparison the
        # study is for (which propagation makes which deductions)
        same = [m.label for m in measured if (m.kind == "native") != (method.kind == "native")
                and measured[m][0].propagated == base.propagated]
        sizes: list[float | None] = [statistics.fmean(column) for column in
                                     zip(*base.sizes, strict=True)] or [None, None, None]
        probed = method.kind != "native" and probing
        runs: list[tuple[str | None, Tally | None]] = (
            list(searched.items()) if solver_list else [(None, None)])
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
                decisions_mean=mean(decisions), decisions_median=median(decisions),
                conflicts_mean=mean(found.conflicts) if found else None,
                conflicts_median=median(found.conflicts) if found else None,
                propagations_mean=mean(found.propagations) if found else None,
                propagations_median=median(found.propagations) if found else None,
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
