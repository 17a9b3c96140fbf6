"""The conflict report: which givens and constraints of a puzzle with no solution cannot
hold together, as count, solve, check, explain, show and the setter commands print it and
put it in their JSON records (:func:`sudoku_csp.setter.minimal_conflict`).

Light to import: the setter tools load when a report is made, so that ``solve`` on a puzzle
with a solution loads nothing more."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sudoku_csp.cli.output import out

if TYPE_CHECKING:
    from sudoku_csp.deadline import Limit
    from sudoku_csp.puzzle import Puzzle
    from sudoku_csp.setter import Conflict

CONFLICT_SECONDS = 10.0
"""The time a conflict report takes at most, within what is left of the command's time."""


def conflict_of(puzzle: Puzzle, time_limit: Limit) -> Conflict | None:
    """The minimal conflict of a puzzle with no solution (None when it has one), within
    ``time_limit`` — the command's :class:`~sudoku_csp.deadline.Deadline`, which the
    verdict has already spent part of (or seconds) — and :data:`CONFLICT_SECONDS`."""
    from sudoku_csp.deadline import Deadline
    from sudoku_csp.setter import minimal_conflict

    return minimal_conflict(puzzle, time_limit=Deadline.of(time_limit).capped(CONFLICT_SECONDS))


def conflict_after_none(puzzle: Puzzle, time_limit: Limit) -> Conflict:
    """:func:`conflict_of` a puzzle that a solver said has no solution. The report asks a
    SAT solver of its own first whether the puzzle's parts hold together: when it finds
    they do, two solvers contradict each other and "no solution" is not said —
    :class:`~sudoku_csp.errors.BackendError` (an internal error, exit 1) instead."""
    from sudoku_csp.errors import BackendError
    from sudoku_csp.io import to_line

    conflict = conflict_of(puzzle, time_limit)
    if conflict is None:
        raise BackendError(f"a solver said {to_line(puzzle)} has no solution, but the "
                           "conflict report's SAT solver finds its rules and givens hold "
                           "together: one of the two is wrong")
    return conflict


def conflict_fields(puzzle: Puzzle, time_limit: Limit) -> dict[str, Any]:
    """The record fields of :meth:`~sudoku_csp.setter.Conflict.to_json` of a puzzle a
    solver said has no solution (:func:`conflict_after_none`)."""
    return conflict_after_none(puzzle, time_limit).to_json()


def print_conflict(puzzle: Puzzle, time_limit: Limit) -> None:
    """Print the one-line message of the conflict of a puzzle a solver said has no solution
    (:func:`conflict_after_none`)."""
    out.print(conflict_after_none(puzzle, time_limit).message(), markup=False)


class ConflictReports:
    """Conflicts of the puzzles of a batch that have no solution, for count, solve, check
    and rate: each worked out on the puzzle as read (:meth:`Outcome.puzzle_as_read
    <sudoku_csp.batch.Outcome.puzzle_as_read>`), with all its rules, not read again from
    its record line.

    ``time_limit`` is per puzzle: a report gets what the puzzle's verdict left of it
    (``spent``: the seconds its records took), never a budget of its own. Asked only of
    puzzles a solver said have no solution (:func:`conflict_after_none`)."""

    def __init__(self, time_limit: float | None) -> None:
        self.time_limit = time_limit
        self._last: tuple[Puzzle, Conflict] | None = None  # fields, then words

    def of(self, puzzle: Puzzle, spent: float = 0.0) -> Conflict:
        if self._last is None or self._last[0] is not puzzle:
            left = None if self.time_limit is None else max(0.0, self.time_limit - spent)
            self._last = (puzzle, conflict_after_none(puzzle, left))
        return self._last[1]

    def fields(self, puzzle: Puzzle, spent: float = 0.0) -> dict[str, Any]:
        """:meth:`~sudoku_csp.setter.Conflict.to_json` of ``puzzle``'s conflict."""
        return self.of(puzzle, spent).to_json()

    def message(self, puzzle: Puzzle, spent: float = 0.0) -> str:
        return self.of(puzzle, spent).message()
