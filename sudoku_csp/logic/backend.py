"""The explainer behind the Backend protocol, so that the batch runner rates files.

It is deliberately not in the backend registry: it is not a solver (it stops, ``unknown``,
where its techniques end, and never guesses), so ``check`` and ``compare`` must not pick it
up as one of "all solvers". ``sudoku-csp rate`` passes it to the runner as a ready-made
backend.
"""

from __future__ import annotations

import time

from sudoku_csp.backends.base import BackendBase, Option, make_result
from sudoku_csp.deadline import Deadline, Limit
from sudoku_csp.logic.explain import explain
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Result, Status


class LogicBackend(BackendBase):
    """Solve by human-style techniques; the record's stats carry the rating.

    Solved by logic alone, the puzzle is unique (each step was forced) and the status says
    so; stuck, the status is ``unknown`` and ``stats["needs_search"]`` is true. A puzzle
    with several solutions or none is not explained: its status says which (the tier
    ``not unique`` or ``no solution``). A time limit covers the verdict and the steps (a
    technique still searching is cut short; a limit that ends the count of the verdict
    leaves no step made); reached, the status is ``unknown`` with the message every backend
    gives, and ``needs_search`` is ``None``. The one solution is checked against the rules
    like every backend's.

    >>> from sudoku_csp import parse
    >>> r = LogicBackend().solve(parse("3.1...4.2......."), limit=2)
    >>> r.status.value, r.stats["er"], r.stats["tier"]
    ('unique', 1.2, 'easy')
    """

    name = "logic"
    description = "human-style techniques and Sudoku Explainer-scale rating; never guesses"
    OPTIONS = (
        Option("uniqueness", "on", "allow unique rectangles and BUG+1 (only on puzzles "
               "checked to be unique)", ("on", "off")),
    )

    def solve(self, puzzle: Puzzle, *, limit: int | None = 1,
              time_limit: Limit = None) -> Result:
        start = time.perf_counter()
        deadline = Deadline.of(time_limit)
        e = explain(puzzle, uniqueness=self.options["uniqueness"] == "on",
                    time_limit=deadline)
        seconds = time.perf_counter() - start
        stats = {**e.rating.as_dict(), "steps": len(e.steps)}
        if e.solved:
            # Every step was forced, so the grid reached is the only solution.
            return make_result(puzzle, [e.grid], limit=limit, complete=True, timed_out=False,
                               solver=self.spec, seconds=seconds, stats=stats)
        if e.not_unique:  # decided before any step: the solutions that show it
            # The verdict's count stops at two: a lower bound when more were asked.
            short = limit is None or len(e.witnesses) < limit
            return make_result(puzzle, e.witnesses, limit=limit, complete=True,
                               timed_out=False, solver=self.spec, seconds=seconds,
                               stats=stats,
                               budget="the explainer stops at two solutions" if short else "")
        if e.no_solution:
            return Result(Status.NONE, (), stats, seconds, self.spec, e.stuck or "",
                          puzzle=puzzle)
        if e.timed_out:
            return make_result(puzzle, [], limit=limit, complete=False, timed_out=True,
                               solver=self.spec, seconds=seconds, stats=stats,
                               time_limit=deadline)
        return Result(Status.UNKNOWN, (), stats, seconds, self.spec, e.stuck or "",
                      complete=False, puzzle=puzzle)
