"""The conflict report: which givens and constraints of a puzzle with no solution cannot
hold together, as count, solve, check, explain, show and the setter commands print it and
put it in their JSON records (:func:`sudoku_csp.setter.minimal_conflict`).

Light to import: the setter tools load when a report is made, so that ``solve`` on a puzzle
with a solution loads nothing more."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sudoku_csp.cli.output import out

if TYPE_CHECKING:
    from sudoku_csp.puzzle import Puzzle
    from sudoku_csp.setter import Conflict

CONFLICT_SECONDS = 10.0
"""The time a conflict report takes at most unless the command's --time-limit says less."""


def conflict_of(puzzle: Puzzle, time_limit: float | None) -> Conflict | None:
    """The minimal conflict of a puzzle with no solution (None when it has one), in at most
    ``time_limit`` or :data:`CONFLICT_SECONDS`."""
    from sudoku_csp.setter import minimal_conflict

    seconds = CONFLICT_SECONDS if time_limit is None else min(time_limit, CONFLICT_SECONDS)
    return minimal_conflict(puzzle, time_limit=seconds)


def conflict_fields(puzzle: Puzzle, time_limit: float | None) -> dict[str, Any]:
    """The record fields of :meth:`~sudoku_csp.setter.Conflict.to_json` (empty when the
    puzzle has a solution)."""
    conflict = conflict_of(puzzle, time_limit)
    return conflict.to_json() if conflict is not None else {}


def print_conflict(puzzle: Puzzle, time_limit: float | None) -> None:
    """Print the conflict's one-line message (nothing when the puzzle has a solution)."""
    conflict = conflict_of(puzzle, time_limit)
    if conflict is not None:
        out.print(conflict.message(), markup=False)


class ConflictReports:
    """Conflicts of the puzzles of a batch that have no solution, for count, solve and
    check: each worked out on the puzzle as read (:meth:`Outcome.puzzle_as_read
    <sudoku_csp.batch.Outcome.puzzle_as_read>`), with all its rules, not read again from
    its record line."""

    def __init__(self, time_limit: float | None) -> None:
        self.time_limit = time_limit
        self._last: tuple[Puzzle, Conflict | None] | None = None  # fields, then words

    def of(self, puzzle: Puzzle) -> Conflict | None:
        if self._last is None or self._last[0] is not puzzle:
            self._last = (puzzle, conflict_of(puzzle, self.time_limit))
        return self._last[1]

    def fields(self, puzzle: Puzzle) -> dict[str, Any]:
        """:meth:`~sudoku_csp.setter.Conflict.to_json` of ``puzzle``'s conflict."""
        conflict = self.of(puzzle)
        return conflict.to_json() if conflict is not None else {}

    def message(self, puzzle: Puzzle) -> str:
        conflict = self.of(puzzle)
        return conflict.message() if conflict is not None else ""
