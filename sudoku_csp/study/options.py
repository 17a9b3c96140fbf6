"""The study of the kinds' encoding options: what each switch of a typed constraint's
translation does to each backend, on puzzles with typed constraints.

The kinds offer encoding options (:func:`~sudoku_csp.constraints.encoding_options`): each
family of implied constraints of killer cages (``hidden``, ``leftovers``, ``required``:
:mod:`sudoku_csp.constraints.implied`) can be switched off, and sums along lines written by
runs of cells (``line_sums=groups``). Each is an option of the backends that honour it, so a
row of this study is a backend spec (``sat:hidden=off``), measured through the backend itself
on every puzzle (deciding uniqueness, as ``count`` does): the same translation every command
solves with, not a copy of it. By default (:func:`option_specs`) each backend comes first as
it stands, then with each option the puzzles' kinds offer switched, then with every family
of implied constraints off together; each row's ``effect`` compares it with its backend's
first row. Each spec runs every puzzle twice, on two backends made from it, and the second is
measured:
what is built on first use and kept for the process (a cage shape's digit sets, a puzzle's
native links) is there for every row alike, and the counters are a new backend's.

>>> from sudoku_csp import parse
>>> killers = [parse("AABCDDBBEFGHEFHH 5,6,4,5,3,7,2,8")]
>>> option_specs(killers, ["native"])
['native', 'native:hidden=off', 'native:leftovers=off', 'native:required=off', \
'native:hidden=off,leftovers=off,required=off']
>>> study = run_options_study(killers, specs=["native", "native:hidden=off"])
>>> [(row.method, row.not_unique) for row in study.rows]
[('native', 0), ('native:hidden=off', 0)]
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache, partial

from sudoku_csp.backends.base import Backend
from sudoku_csp.backends.registry import backend_class, make_backend, parse_spec
from sudoku_csp.constraints.registry import kinds_among
from sudoku_csp.encodings import cnf
from sudoku_csp.errors import InputError, SpecError
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Status
from sudoku_csp.study.measure import Progress, Tally, mean, median, out_of_time
from sudoku_csp.study.table import Row, Study

STUDY_BACKENDS = ("sat", "native", "cpsat")
"""The backends the options study measures unless told otherwise."""


def option_specs(puzzles: Sequence[Puzzle], backends: Iterable[str] = STUDY_BACKENDS
                 ) -> list[str]:
    """The specs the options study measures on ``puzzles``: for each backend, its bare name;
    then, for each encoding option that a kind of the puzzles' constraints offers and the
    backend honours (:meth:`~sudoku_csp.backends.base.BackendBase.kind_encoding_options`),
    the option switched: ``off`` for a family of implied constraints, the other value of an
    option of two (``line_sums=groups``); options of more values (``sums``) are studied by
    naming their specs; then every family off together when there are several."""
    offered = {option.name: option for kind in
               kinds_among(c for puzzle in puzzles for c in puzzle.constraints)
               for option in kind.encoding_options}
    specs = []
    for name in backends:
        honoured = backend_class(name).kind_encoding_options()
        switches: list[str] = []
        others: list[str] = []
        for option in offered.values():
            if option.name not in honoured or len(option.choices) != 2:
                continue
            other = next(c for c in option.choices if c != option.default)
            (switches if other == "off" else others).append(f"{option.name}={other}")
        specs += [name, *(f"{name}:{s}" for s in [*switches, *others])]
        if len(switches) > 1:
            specs.append(f"{name}:{','.join(switches)}")
    return specs


def _propagator(spec: str) -> Backend | None:
    """A backend of ``spec`` with its search off (unit propagation, or the native rules,
    alone), or None for a backend that has no such option (cpsat) or a spec that cannot take
    it (a sat solver PySAT cannot propagate with alone): that row's propagation is not read.

    >>> _propagator("native:rules=singles").spec, _propagator("cpsat")
    ('native:rules=singles,search=off', None)
    """
    name, options = parse_spec(spec)
    if "search" not in {o.name for o in backend_class(name).OPTIONS}:
        return None
    try:
        return make_backend(f"{name}:" + ",".join(f"{k}={v}" for k, v in
                                                  {**options, "search": "off"}.items()))
    except SpecError:
        return None


def _left(deadline: float | None) -> float | None:
    """The seconds left before ``deadline`` (None: no limit)."""
    return None if deadline is None else max(0.0, deadline - time.monotonic())


def measure_spec(spec: str, puzzles: Sequence[Puzzle], progress: Progress | None = None,
                 deadline: float | None = None) -> Tally:
    """Decide each puzzle's uniqueness with a backend of ``spec`` (a new one, so no row
    inherits another's learnt state, after a first has run them all): its time, its
    counters (decisions, conflicts, propagations where the backend keeps them), whether
    propagation alone solves it (the same spec with ``search=off``; the native solver says
    so of its own search), and, for the sat backend, the size of the puzzle's formula (the
    geometry's and the constraints' clauses, before the givens). Past ``deadline`` (a
    ``time.monotonic()`` value) the tally is marked incomplete and returned as it stands."""
    # What is made on first use and kept for the process (a cage shape's digit sets, a
    # geometry's formula, a puzzle's native links for these options) would favour some rows
    # over others: a first backend runs every puzzle untimed, then a new one is measured.
    warm = make_backend(spec)
    for puzzle in puzzles:
        if out_of_time(deadline):
            break
        warm.solve(puzzle, limit=2, time_limit=_left(deadline))
    backend = make_backend(spec)
    propagator = cache(partial(_propagator, spec))  # made on first need, once
    tally = Tally(propagation_read=False)
    for index, puzzle in enumerate(puzzles):
        if out_of_time(deadline):
            tally.complete = False
            return tally
        result = backend.solve(puzzle, limit=2, time_limit=_left(deadline))
        if result.status is Status.UNKNOWN:
            if out_of_time(deadline):  # the time limit cut it
                tally.complete = False
            else:  # the spec cannot decide it (a node budget, search=off): not the time's
                tally.undecided = result.message or "unknown"
            return tally
        tally.search_seconds += result.seconds
        tally.not_unique += result.status is not Status.UNIQUE
        stats = result.stats
        for counter, name in ((tally.decisions, "decisions"), (tally.conflicts, "conflicts"),
                              (tally.propagations, "propagations")):
            if name in stats:
                counter.append(int(stats[name]))
        # The native solver's search says it; another backend asks its search=off twin,
        # within what is left of the study's time like every other call.
        twin = None if "solved_by_propagation" in stats else propagator()
        if twin is not None:
            stats = twin.solve(puzzle, limit=2, time_limit=_left(deadline)).stats
        if "solved_by_propagation" in stats:
            tally.propagation_read = True
            if stats["solved_by_propagation"]:
                tally.propagated.add(index)
        formula = getattr(backend, "formula", None)
        if formula is not None and hasattr(backend, "given_kind_options"):
            base = formula(puzzle.geometry)
            extra, top = cnf.constraint_clauses(puzzle, base.nv + 1,
                                                backend.given_kind_options())
            tally.sizes.append((max(base.nv, top), len(base.clauses) + len(extra),
                                base.literals + sum(map(len, extra))))
        if progress:
            progress(1)
    return tally


def _effect(row: Row, first: Row) -> str:
    """What ``row`` changes against ``first`` (its backend's first row): time per puzzle,
    conflicts and clauses, each as a ratio."""
    if row is first:
        return "(the backend's first row)"
    parts = []
    for name, ours, theirs in (
            ("time", 1 / row.puzzles_per_s if row.puzzles_per_s else None,
             1 / first.puzzles_per_s if first.puzzles_per_s else None),
            ("conflicts", row.conflicts_mean, first.conflicts_mean),
            ("clauses", row.clauses, first.clauses)):
        if ours is not None and theirs:
            parts.append(f"{name} x{ours / theirs:.2f}")
    return ", ".join(parts) or "-"


def run_options_study(puzzles: Sequence[Puzzle], *, specs: Iterable[str] | None = None,
                      progress: Progress | None = None, time_limit: float | None = None
                      ) -> Study:
    """Measure each spec (:func:`option_specs` of ``puzzles`` by default) on ``puzzles``
    (:func:`measure_spec`): one :class:`~sudoku_csp.study.table.Row` each, named by its
    spec, whose ``effect`` compares it with the first row of the same backend.

    ``time_limit``: seconds for the whole study (None: no limit); when it runs out the rows
    not measured on every puzzle are left out and named in :attr:`Study.unfinished`. A spec
    that leaves a puzzle undecided for a reason of its own (a node budget, ``search=off``)
    is left out too, with that reason in :attr:`Study.undecided`.
    ``progress`` is called with a step count (one per puzzle and spec)."""
    puzzles = list(puzzles)
    if not puzzles:
        raise InputError("the study needs at least one puzzle")
    chosen = list(option_specs(puzzles) if specs is None else specs)
    for spec in chosen:
        make_backend(spec)  # every spec checked before any work (SpecError)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    study = Study([])
    n = len(puzzles)
    firsts: dict[str, Row] = {}
    for spec in chosen:
        if study.unfinished or out_of_time(deadline):
            study.unfinished.append(spec)
            continue
        found = measure_spec(spec, puzzles, progress, deadline)
        if found.undecided:  # the others are measured all the same
            study.undecided[spec] = found.undecided
            continue
        if not found.complete:
            study.unfinished.append(spec)
            continue
        sizes: list[float | None] = [statistics.fmean(column) for column
                                     in zip(*found.sizes, strict=True)] or [None, None, None]
        row = Row(
            method=spec, kind="spec", encoding=None, amo=None, solver=None, puzzles=n,
            variables=sizes[0], clauses=sizes[1], literals=sizes[2],
            propagation_pct=(100 * len(found.propagated) / n if found.propagation_read
                             else None), same_as="", probing_pct=None,
            probe_ms=None,
            no_decision_pct=(100 * sum(d == 0 for d in found.decisions) / len(found.decisions)
                             if found.decisions else None),
            decisions_mean=mean(found.decisions), decisions_median=median(found.decisions),
            conflicts_mean=mean(found.conflicts), conflicts_median=median(found.conflicts),
            propagations_mean=mean(found.propagations),
            propagations_median=median(found.propagations),
            puzzles_per_s=n / found.search_seconds if found.search_seconds > 0 else None,
            not_unique=found.not_unique)
        first = firsts.setdefault(parse_spec(spec)[0], row)
        study.rows.append(replace(row, effect=_effect(row, first)))
        study.propagated[spec] = frozenset(found.propagated)
    return study
