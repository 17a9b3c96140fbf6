"""The native reference backend: :mod:`sudoku_csp.native` behind the Backend protocol."""

from __future__ import annotations

import time

from sudoku_csp.backends.base import (
    BackendBase,
    Option,
    Tally,
    clash_result,
    decisive,
    make_result,
)
from sudoku_csp.constraints import EncodingOption, encoding_options
from sudoku_csp.deadline import Deadline, Limit
from sudoku_csp.errors import SpecError
from sudoku_csp.native.rules import DEFAULT_RULES, PRESETS, RULES
from sudoku_csp.native.search import (
    BRANCHING,
    DEFAULT_BRANCH,
    Searcher,
    SearchResult,
    propagate_puzzle,
)
from sudoku_csp.native.state import State
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Result, Status

CROSSCHECK_SECONDS = 8.0
"""The native solver's time limit in a cross-check of a puzzle with typed constraints when
none is given (see :meth:`NativeBackend.crosscheck_seconds`)."""


class NativeBackend(BackendBase):
    """Constraint propagation with named rules, then depth-first search.

    >>> from sudoku_csp import parse
    >>> four = parse("1..." "..1." ".1.." "...1")
    >>> NativeBackend(rules="singles").solve(four, limit=2).status
    <Status.MULTIPLE: 'multiple'>
    """

    name = "native"
    translation = "native"
    description = "reference solver: bitmask propagation rules + depth-first search"
    COMPARE = ("native", "native:rules=singles")  # with and without locked candidates
    OPTIONS = (
        Option("rules", DEFAULT_RULES, "a rule preset, or rule names joined by '+' ("
               + ", ".join(RULES) + ")", tuple(PRESETS), open_choices=True),
        Option("branch", DEFAULT_BRANCH, "cell to branch on: fewest candidates (mrv), the same "
               "with ties to the most open peers (degree), the first open cell, the most "
               "refuted branches per candidate (conflicts), degree and conflicts in turn "
               "under a node budget doubled at each restart (restarts), degree or a house "
               "digit's two places (houses), or the highest score per candidate, a score "
               "starting from the cells of the units and constraints on the cell and growing "
               "with its refuted branches (weighted)",
               tuple(BRANCHING)),
        Option("order", "numeric", "value order at a branch", ("numeric", "random")),
        Option("seed", 0, "seed of the random value order", kind=int),
        Option("search", "on", "off: propagate only, never guess (grading)", ("on", "off")),
        Option("nodes", 0, "the most search nodes; past them the answer is unknown (0: no "
               "bound): a portfolio's cheap first try, first:native:nodes=20,sat",
               kind=int, minimum=0),
    )

    reports_root = True

    @classmethod
    def kind_encoding_options(cls) -> dict[str, EncodingOption]:
        """The kinds' encoding options its links honour (the implied families)."""
        return encoding_options("native")

    def __init__(self, **options) -> None:
        super().__init__(**options)
        o = self.options
        try:
            self.searcher = Searcher(o["rules"], o["branch"], o["order"], o["seed"],
                                     self.given_kind_options(),
                                     nodes=o["nodes"] or None)
        except ValueError as exc:
            raise SpecError(f"native: {exc}") from None

    def crosscheck_seconds(self, puzzle: Puzzle) -> float | None:
        """:data:`CROSSCHECK_SECONDS` for a puzzle with typed constraints: the native
        propagation of some kinds (sums over long lines, quadruples) leaves searches that
        take minutes where SAT and CP-SAT answer in milliseconds."""
        return CROSSCHECK_SECONDS if puzzle.constraints else None

    def propagate(self, puzzle: Puzzle) -> State | None:
        """The candidate state after running this backend's rules (None: contradiction)."""
        return propagate_puzzle(puzzle, self.options["rules"])

    def solve(self, puzzle: Puzzle, *, limit: int | None = 1,
              time_limit: Limit = None) -> Result:
        return self.solve_from_root(puzzle, limit=limit, time_limit=time_limit)[0]

    def solve_from_root(self, puzzle: Puzzle, *, limit: int | None = 1,
                        time_limit: Limit = None) -> tuple[Result, list[int] | None]:
        """:meth:`solve`, with the candidates left by the propagation from the givens
        (one digit mask per cell, bit ``d`` for digit ``d``) when the search stopped there,
        undecided (a node budget of one): every solution of the puzzle lies within them,
        so another backend may start from them
        (:meth:`~sudoku_csp.backends.sat.SatBackend.solve`'s ``candidates``). None when the
        search went below the root (a guess changes the root's candidates in place), when
        it decided, or when the rules ran on the digit-plane engine, which keeps no
        per-cell candidates (a puzzle without typed constraints).

        >>> from sudoku_csp.constraints import Cage
        >>> from sudoku_csp.geometry import EMPTY
        >>> from sudoku_csp.variants import make_geometry
        >>> cage = Cage((0, 1), 3)  # A1 and A2 add up to 3: digits 1 and 2 (masks 0b11)
        >>> puzzle = Puzzle(make_geometry(4), (EMPTY,) * 16, constraints=(cage,))
        >>> result, root = NativeBackend(nodes=1).solve_from_root(puzzle)
        >>> result.status.value, [bin(mask) for mask in root[:4]]
        ('unknown', ['0b11', '0b11', '0b1100', '0b1100'])
        """
        start = time.perf_counter()
        deadline = Deadline.of(time_limit)
        tally = Tally(puzzle, self.spec, limit)
        if self.options["search"] == "off":
            out = self.searcher.propagate_only(self.searcher.state(puzzle))
            for grid in out.solutions:
                tally.add(grid)
        else:
            out = self.searcher.solve(puzzle, limit, deadline, sink=tally.add)
        seconds = time.perf_counter() - start
        if out.refuted:  # contradiction before any guess: name a clash if there is one
            clash = clash_result(puzzle, self.spec)
            if clash is not None:
                return Result(clash.status, (), {**out.stats.as_dict(), **clash.stats},
                              seconds, self.spec, clash.message, puzzle=puzzle), None
        result = self._result(puzzle, out, tally, limit, deadline, seconds)
        root = None
        if out.state is not None and out.stats.nodes <= 1 and not decisive(result, limit):
            root = out.state.cand[:]
        return result, root

    def _result(self, puzzle: Puzzle, out: SearchResult, tally: Tally, limit: int | None,
                deadline: Deadline, seconds: float) -> Result:
        # The node budget stopped the search short of the solutions asked: what it found
        # is a lower bound (MULTIPLE, "at least 3"), never an exact count.
        short = out.exhausted and not out.timed_out and (limit is None or tally.count < limit)
        budget = f"the node budget ran out ({self.options['nodes']} search nodes)"
        result = make_result(
            puzzle, tally, limit=limit, complete=out.complete,
            timed_out=out.timed_out, solver=self.spec, seconds=seconds,
            stats=out.stats.as_dict(), time_limit=deadline, budget=budget if short else "")
        if result.status is Status.UNKNOWN and not out.timed_out and not short:
            return Result(Status.UNKNOWN, (), result.stats, seconds, self.spec,
                          "propagation alone does not solve this puzzle", puzzle=puzzle)
        return result
