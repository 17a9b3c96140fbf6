"""The CP-SAT backend: the models of :mod:`sudoku_csp.encodings.cpsat` solved by OR-Tools.

Spec: ``cpsat:model=alldiff|boolean,workers=N,presolve=auto|on|off``.

How a puzzle is solved, and why:

- One template model per geometry (and thread) is built for the empty grid; each puzzle
  only narrows the domains of its givens in place, and a ``finally`` widens them again:
  the fastest or tied of narrowing in place, solution hints, assumptions, cloning the
  template and rebuilding, for both models, and it works with both (docs/design.md: Design
  choices, measured).
- ``limit=1`` is a plain solve (no callback). Any other limit enumerates with
  ``enumerate_all_solutions`` and ``keep_all_feasible_solutions_in_presolve`` (so that
  presolve drops no solution), through a callback that keeps only *distinct* grids (CP-SAT
  has reported the same solution twice: or-tools #4640, CPMpy #659) and calls
  ``stop_search`` once ``limit`` distinct grids are in.
- Enumeration always runs on ONE worker, whatever ``workers`` says: with ``num_workers=2``
  CP-SAT 9.15 returned OPTIMAL ("everything enumerated") after 168 of the 288 solutions of
  the empty 4×4, one of them twice.
- A puzzle with typed constraints (:mod:`sudoku_csp.constraints`) gets a copy of the
  template (:meth:`~sudoku_csp.modeling.cpsat_model.CpSatModel.copy`; CP-SAT cannot take a
  constraint out again), the constraints added through the model-neutral helpers of
  :class:`~sudoku_csp.modeling.cpsat_model.CpSatModel`, and presolve off under ``auto``.
- Killer cages: what made CP-SAT fast was the model, not its parameters: cage sums as
  digit-set selectors on the Boolean model (not a linear sum over one-hot literals), the
  45 rule's innies and band leftovers as extra cages and sums, presolve off, a template
  copy instead of a new model. Parameters tried and left as they were: the LP relaxation
  (``linearization_level`` 1 and 2), ``search_branching``, ``use_sat_inprocessing``,
  polarity, minimization; uniqueness by a second solve with the first grid excluded lost
  to enumeration (docs/design.md: Design choices, measured).
- Plain puzzles: no parameter tried moved either model; the floor is CP-SAT's fixed cost
  per solve (loading the Boolean model and propagating; presolve's AllDifferent
  propagation for alldiff), which keeps it well under the native and SAT backends on
  millisecond puzzles (docs/design.md: Design choices, measured).
- CP-SAT statuses pass through an explicit table; a status outside it (``MODEL_INVALID``)
  raises :class:`CpSatError`. A search cut by the time limit gives ``UNKNOWN``.
- The time limit (seconds, or the caller's :class:`~sudoku_csp.deadline.Deadline`) covers
  building the puzzle's model too: CP-SAT gets what is left as ``max_time_in_seconds``, and
  the watchdog calls ``stop_search`` at the deadline as well, since CP-SAT measures its own
  time from when it starts and may look at it late (presolving a large model). A deadline
  already passed returns ``UNKNOWN`` without solving.
- The limit covers importing OR-Tools too (0.2-1 s: it loads pandas): the first solve waits
  for it only until its deadline (:func:`~sudoku_csp.encodings.cpsat.cp_model_within`),
  and answers "unknown: time limit reached" if the import is still going on then; the
  import finishes in the background for the next solve. Importing this module does not
  import OR-Tools.
"""

from __future__ import annotations

import enum
import functools
import threading
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from sudoku_csp.backends.base import BackendBase, Option, Tally, clash_result, make_result
from sudoku_csp.constraints import EncodingOption, add_to_cpsat, encoding_options
from sudoku_csp.deadline import Deadline, Limit
from sudoku_csp.encodings.cpsat import BUILDERS, MODELS, cp_model_within
from sudoku_csp.errors import BackendError
from sudoku_csp.geometry import Geometry
from sudoku_csp.interrupts import stoppable
from sudoku_csp.modeling.cpsat_model import CpSatModel
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Result, check_limit

if TYPE_CHECKING:  # only for annotations: OR-Tools is imported within the caller's limit
    from ortools.sat.python import cp_model

TUNING: dict[str, Any] = {
    "symmetry_level": 0,  # symmetry detection costs more than it saves once givens are set
    "linearization_level": 0,  # an LP relaxation never helps a pure all-different problem
    "cp_model_probing_level": 0,  # probing and inprocessing: setup that these small,
    "use_sat_inprocessing": False,  # propagation-heavy problems do not repay
    # CP-SAT's own SIGINT handler turns Ctrl-C into an UNKNOWN status (a false verdict),
    # resets the signal to its default action, and can deadlock: sudoku_csp.interrupts
    # owns the signal and stops the search with stop_search().
    "catch_sigint_signal": False,
}
"""CP-SAT parameters set for every solve: the tuning measured faster on 9×9 puzzle files and
on 12×12 and 16×16 grids, for both models, with presolve on and off; and no signal
catching."""

AUTO_PRESOLVE = {("alldiff", False): True, ("alldiff", True): False,
                 ("boolean", False): False, ("boolean", True): False}
"""``presolve=auto``: per (model, whether the puzzle has typed constraints), what measured
faster: presolve on only for the integer model on plain puzzles, where it decides most
17-clue puzzles before search (docs/design.md: Design choices, measured)."""

MAX_TEMPLATES = 16
"""Templates kept per thread (jigsaw files bring a new geometry with every puzzle)."""


class CpSatError(BackendError):
    """CP-SAT answered something this backend cannot interpret (a bug, not a verdict)."""


class SearchEnd(enum.Enum):
    """How the CP-SAT search that returned a status ended."""

    FINISHED = "finished"  # OPTIMAL: a solution (plain solve) / every solution (enumeration)
    STOPPED = "stopped"  # FEASIBLE: solutions found, search cut (stop_search or a limit)
    NO_SOLUTION = "no solution"  # INFEASIBLE: proved that no (further) solution exists
    UNDECIDED = "undecided"  # UNKNOWN: cut by a limit before anything was decided


STATUS_TABLE: dict[str, SearchEnd] = {
    "OPTIMAL": SearchEnd.FINISHED,
    "FEASIBLE": SearchEnd.STOPPED,
    "INFEASIBLE": SearchEnd.NO_SOLUTION,
    "UNKNOWN": SearchEnd.UNDECIDED,
}
"""CP-SAT status (by its name: OR-Tools is not imported yet when this module is) ->
:class:`SearchEnd`. ``MODEL_INVALID`` is deliberately absent."""


def search_end(status: Any, model: cp_model.CpModel | None = None) -> SearchEnd:
    """How the search ended, by its CP-SAT status; :class:`CpSatError` for any other status.

    >>> from ortools.sat.python import cp_model
    >>> search_end(cp_model.INFEASIBLE)
    <SearchEnd.NO_SOLUTION: 'no solution'>
    """
    try:
        return STATUS_TABLE[getattr(status, "name", status)]
    except (KeyError, TypeError):
        detail = model.validate() if model is not None else ""
        raise CpSatError(f"CP-SAT returned {getattr(status, 'name', status)}"
                         + (f": {detail}" if detail else "")) from None


@functools.cache
def _collector_class(cp: Any) -> type:
    """The solution callback's class, made once OR-Tools (``cp``, its ``cp_model``) is
    imported: its base class is OR-Tools'."""

    class Collector(cp.CpSolverSolutionCallback):
        """Hands the distinct grids CP-SAT reports to a :class:`Tally` (which checks each
        at once, inside the time limit); stops the search at ``limit`` of them."""

        def __init__(self, template: CpSatModel, limit: int | None, tally: Tally) -> None:
            super().__init__()
            self._decode = template.decode
            self._limit = limit
            self.tally = tally
            self.reported = 0
            self.duplicates = 0
            self.stopped = False

        def on_solution_callback(self) -> None:
            self.reported += 1
            if self.stopped:  # reported after stop_search: the limit is already met
                return
            # One copy of the response decodes faster than a value() call per variable
            # (measured 180 vs 280 us per 9x9 solution); Response() has no snake_case alias.
            grid = self._decode(self.Response().solution)
            if self.tally.seen(grid):
                self.duplicates += 1
                return
            self.tally.add(grid)
            if self._limit is not None and self.tally.count >= self._limit:
                self.stopped = True
                self.stop_search()

    return Collector


class CpSatBackend(BackendBase):
    """OR-Tools CP-SAT on the integer AllDifferent model or the Boolean one-hot model.

    Default: ``model=alldiff``, one worker (CP-SAT's multi-worker default costs 2-3x on
    puzzles that solve in a millisecond), presolve chosen per model and puzzle (``auto``).

    >>> from sudoku_csp import parse
    >>> CpSatBackend(model="boolean").solve(parse("3.1...4.2......."), limit=2).status
    <Status.UNIQUE: 'unique'>
    """

    name = "cpsat"
    translation = "cpsat"
    description = "OR-Tools CP-SAT: integer AllDifferent or Boolean one-hot model"
    COMPARE = ("cpsat:model=alldiff",)
    OPTIONS = (
        Option("model", "alldiff", "alldiff: an integer per cell + AllDifferent per unit; "
               "boolean: one-hot cell/digit literals + exactly-one", MODELS),
        Option("workers", 1, "CP-SAT search workers, 0 for all cores (enumerating, i.e. "
               "limit other than 1, always uses 1: parallel enumeration misses solutions)",
               kind=int, minimum=0),
        Option("presolve", "auto", "CP-SAT presolve; auto: on for alldiff without typed "
               "constraints, else off", ("auto", "on", "off")),
    )

    @classmethod
    def kind_encoding_options(cls) -> dict[str, EncodingOption]:
        """The kinds' encoding options its model honours (the implied families)."""
        return encoding_options("cpsat")

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._build = BUILDERS[self.options["model"]]
        self._local = threading.local()

    def __reduce__(self) -> tuple[Any, ...]:
        # Templates are per thread and rebuilt on demand: pickle the options only.
        return (_make_backend, (self.options,))

    def template(self, geometry: Geometry) -> CpSatModel:
        """This thread's empty-grid model of ``geometry`` (built on first use)."""
        cache: OrderedDict[Geometry, CpSatModel] | None = getattr(self._local, "cache", None)
        if cache is None:
            cache = self._local.cache = OrderedDict()
        model = cache.get(geometry)
        if model is None:
            model = cache[geometry] = self._build(geometry)
            if len(cache) > MAX_TEMPLATES:
                cache.popitem(last=False)
        else:
            cache.move_to_end(geometry)
        return model

    def presolve(self, constrained: bool) -> bool:
        """Whether CP-SAT presolves: the ``presolve`` option, or for ``auto`` the table
        :data:`AUTO_PRESOLVE` (for a puzzle with typed constraints if ``constrained``)."""
        choice = self.options["presolve"]
        if choice == "auto":
            return AUTO_PRESOLVE[self.options["model"], constrained]
        return bool(choice == "on")

    def parameters(self, *, enumerate_all: bool, time_limit: float | None,
                   constrained: bool = False) -> dict[str, Any]:
        """The CP-SAT parameters of one solve (useful to reproduce a run outside)."""
        params = dict(TUNING)
        params["cp_model_presolve"] = self.presolve(constrained)
        params["num_workers"] = 1 if enumerate_all else self.options["workers"]
        if enumerate_all:
            params["enumerate_all_solutions"] = True
            params["keep_all_feasible_solutions_in_presolve"] = True
        if time_limit is not None:
            params["max_time_in_seconds"] = max(0.0, float(time_limit))
        return params

    def solve(self, puzzle: Puzzle, *, limit: int | None = 1,
              time_limit: Limit = None) -> Result:
        """Look for up to ``limit`` distinct solutions (``None``: all) within ``time_limit``."""
        check_limit(limit)
        start = time.perf_counter()
        deadline = Deadline.of(time_limit)
        clash = clash_result(puzzle, self.spec)
        if clash is not None:
            return clash
        loading = time.perf_counter()
        cp = cp_model_within(deadline)
        # Waiting for the import is the limit's, not the puzzle's: a result's seconds (what
        # compare adds up) leave it out, as they did when the import came first.
        start += time.perf_counter() - loading
        if cp is None:  # the limit passed while OR-Tools was still being imported
            return self._undecided(puzzle, limit, start, deadline)
        began = time.perf_counter()
        template = self.template(puzzle.geometry)
        if puzzle.constraints:
            # Constraints differ from puzzle to puzzle and cannot be taken out again: they
            # go into a copy of the template (cheaper than a new model: see copy()).
            template = template.copy()
            add_to_cpsat(template, puzzle.constraints, self.given_kind_options())
        enumerate_all = limit != 1
        if deadline.expired():  # building the model took what was left: nothing decided
            return self._undecided(puzzle, limit, start, deadline)
        tally = Tally(puzzle, self.spec, limit)
        solver = cp.CpSolver()
        for key, value in self.parameters(enumerate_all=enumerate_all,
                                          time_limit=deadline.remaining(),
                                          constrained=bool(puzzle.constraints)).items():
            setattr(solver.parameters, key, value)
        collector = _collector_class(cp)(template, limit, tally) if enumerate_all else None
        fixed = template.fix_givens(puzzle.givens)
        model_seconds = time.perf_counter() - began
        began = time.perf_counter()
        try:
            with stoppable(solver.stop_search), deadline.watch(solver.stop_search):
                status = solver.solve(template.model, collector)
        finally:
            template.release(fixed)
        # The callback checks each solution inside the solve: that is the check's time.
        solve_seconds = time.perf_counter() - began - tally.check_seconds
        end = search_end(status, template.model)
        response = solver.response_proto

        if collector is not None:
            reported, duplicates = collector.reported, collector.duplicates
            # OPTIMAL after enumeration: every solution was reported.
            complete = end in (SearchEnd.FINISHED, SearchEnd.NO_SOLUTION)
            stopped_by_us = collector.stopped
        else:
            if end in (SearchEnd.FINISHED, SearchEnd.STOPPED):
                tally.add(template.decode(response.solution))
            reported, duplicates = tally.count, 0
            # OPTIMAL after a plain solve: one solution, nothing said about others.
            complete = end is SearchEnd.NO_SOLUTION
            stopped_by_us = False
        timed_out = end in (SearchEnd.STOPPED, SearchEnd.UNDECIDED) and not stopped_by_us
        stats = {
            "decisions": response.num_branches,
            "conflicts": response.num_conflicts,
            "propagations": response.num_binary_propagations,
            "integer_propagations": response.num_integer_propagations,
            "wall_time": response.wall_time,
            "booleans": response.num_booleans,
            "cpsat_status": status.name,
            "workers": solver.parameters.num_workers,
            "presolve": "on" if solver.parameters.cp_model_presolve else "off",
            "solutions_reported": reported,
            "duplicates": duplicates,
        }
        return make_result(
            puzzle, tally, limit=limit, complete=complete, timed_out=timed_out,
            solver=self.spec, seconds=time.perf_counter() - start, stats=stats,
            time_limit=deadline,
            phases={"model_seconds": model_seconds, "solve_seconds": solve_seconds})

    def _undecided(self, puzzle: Puzzle, limit: int | None, start: float,
                   deadline: Deadline) -> Result:
        """The result of a solve the time limit cut before it searched: nothing decided."""
        return make_result(puzzle, Tally(puzzle, self.spec, limit), limit=limit,
                           complete=False, timed_out=True, solver=self.spec,
                           seconds=time.perf_counter() - start, stats={}, time_limit=deadline)

    def prepare(self, time_limit: Limit = None) -> bool:
        """Start importing OR-Tools, waiting at most ``time_limit`` (0: not at all; it goes on
        in a daemon thread): whether it is imported."""
        return cp_model_within(time_limit) is not None


def _make_backend(options: dict[str, Any]) -> CpSatBackend:
    return CpSatBackend(**options)
