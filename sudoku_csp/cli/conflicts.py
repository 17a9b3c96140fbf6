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


def conflict_fields(puzzle: Puzzle, time_limit: Limit) -> dict[str, Any]:
    """The record fields of :meth:`~sudoku_csp.setter.Conflict.to_json` (empty when the
    puzzle has a solution)."""
    conflict = conflict_of(puzzle, time_limit)
    return conflict.to_json() if conflict is not None else {}


def print_conflict(puzzle: Puzzle, time_limit: Limit) -> None:
    """Print the conflict's one-line message (nothing when the puzzle has a solution)."""
    conflict = conflict_of(puzzle, time_limit)
    if conflict is not None:
        out.print(conflict.message(), markup=False)


class ConflictReports:
    """Conflicts of the puzzles of a batch that have no solution, read back from their
    record lines with the command's parse ``options``: for count, solve and check.

    ``time_limit`` is per puzzle: a report gets what the puzzle's verdict left of it
    (``spent``: the seconds its records took), never a budget of its own."""

    def __init__(self, options: dict[str, Any], time_limit: float | None) -> None:
        self.options = options
        self.time_limit = time_limit
        self._last: tuple[str, Conflict | None] | None = None  # a line's fields, then words

    def of(self, line: str, spent: float = 0.0) -> Conflict | None:
        from sudoku_csp.io import parse

        if self._last is None or self._last[0] != line:
            left = None if self.time_limit is None else max(0.0, self.time_limit - spent)
            self._last = (line, conflict_of(parse(line, **self.options), left))
        return self._last[1]

    def fields(self, line: str, spent: float = 0.0) -> dict[str, Any]:
        """:meth:`~sudoku_csp.setter.Conflict.to_json` of the puzzle written ``line``."""
        conflict = self.of(line, spent)
        return conflict.to_json() if conflict is not None else {}

    def message(self, line: str, spent: float = 0.0) -> str:
        conflict = self.of(line, spent)
        return conflict.message() if conflict is not None else ""
