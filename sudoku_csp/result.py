"""What every backend returns: a :class:`Status` and a frozen :class:`Result`."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sudoku_csp.geometry import Grid, symbol

if TYPE_CHECKING:
    from sudoku_csp.puzzle import Puzzle


class Status(str, enum.Enum):
    """The verdict on a puzzle. Never a guess: a time limit gives ``UNKNOWN``.

    - ``SOLVED``: a solution was found; uniqueness was not asked (``limit=1``).
    - ``UNIQUE``: exactly one solution, proved by exhausting the search.
    - ``MULTIPLE``: at least two solutions.
    - ``NONE``: no solution (including clashing givens).
    - ``UNKNOWN``: the time limit ran out, or propagation alone could not decide.
    """

    SOLVED = "solved"
    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value

    @property
    def has_solution(self) -> bool:
        return self in (Status.SOLVED, Status.UNIQUE, Status.MULTIPLE)


KEPT_WHEN_COUNTING = 2
"""Solutions a :class:`Result` keeps when every solution is counted (``limit=None``): the
first one to show, a second as the witness of ``multiple``. The others are only counted, so
counting the 6.7e21 grids of an empty 9×9 for a day uses no more memory than for a second."""


def check_limit(limit: int | None) -> None:
    """ValueError unless ``limit`` is a number of solutions to look for: ``None`` (all) or at
    least 1. Every solver checks its argument here, so they refuse alike.

    >>> check_limit(0)
    Traceback (most recent call last):
    ...
    ValueError: limit must be at least 1 (or None to count every solution), got 0
    """
    if limit is not None and limit < 1:
        raise ValueError(f"limit must be at least 1 (or None to count every solution), "
                         f"got {limit}")


def status_for(found: int, limit: int | None, complete: bool) -> Status:
    """The verdict after a search that found ``found`` solutions (looking for ``limit``).

    ``complete`` says the search space was exhausted (not cut by ``limit`` or a time limit).

    >>> status_for(1, 2, True), status_for(1, 1, False), status_for(2, 2, False)
    (<Status.UNIQUE: 'unique'>, <Status.SOLVED: 'solved'>, <Status.MULTIPLE: 'multiple'>)
    """
    if found >= 2:
        return Status.MULTIPLE
    if complete:
        return Status.UNIQUE if found == 1 else Status.NONE
    if found == 1 and limit == 1:
        return Status.SOLVED
    return Status.UNKNOWN


@dataclass(frozen=True)
class Result:
    """The outcome of one backend on one puzzle.

    ``solutions`` holds the solutions found (each checked by
    :func:`sudoku_csp.verify.is_solution` as it was found), at most ``limit`` of them; when
    every solution is counted (``limit=None``) only the first :data:`KEPT_WHEN_COUNTING`
    are kept, and ``count`` says how many distinct verified solutions there were. ``stats``
    uses shared names where the idea is shared (``nodes``, ``decisions``, ``conflicts``,
    ``backtracks``, ``propagations``) plus backend-specific extras. ``message`` explains a
    ``NONE`` that comes from clashing givens, or an ``UNKNOWN``. ``complete`` is False when
    a time limit or a node budget cut the search short: an ``UNKNOWN``, or a count that is
    only a lower bound.
    ``puzzle`` is the puzzle solved (set by the backends; it is what a notebook draws).

    >>> r = Result(Status.MULTIPLE, ((0,), (1,)), total=288, complete=False)
    >>> r.count, r.solution, r.complete
    (288, (0,), False)
    """

    status: Status
    solutions: tuple[Grid, ...] = ()
    stats: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    solver: str = ""
    message: str = ""
    total: int | None = None  # solutions found, when more than those kept
    complete: bool = True
    puzzle: Puzzle | None = field(default=None, repr=False, compare=False)
    phases: dict[str, float] = field(default_factory=dict, repr=False, compare=False)
    """Where the time went, in seconds (:data:`sudoku_csp.backends.base.PHASES`): for
    measurements, not part of the verdict, so not written to records."""

    def __repr__(self) -> str:
        """The verdict, the solver, the solutions as lines of symbols (digits 1-based).

        >>> from sudoku_csp import count
        >>> count("3.1...4.2.......", "native")  # doctest: +ELLIPSIS
        <Result unique by native: 1 solution 3412124321344321, ... ms>
        """
        found = f"{self.count} solution{'' if self.count == 1 else 's'}"
        if self.solutions:
            shown = " ".join("".join(map(symbol, grid)) for grid in self.solutions[:2])
            found += f" {shown}" + (" ..." if self.count > 2 else "")
        if not self.complete:
            found += " (search cut short)"
        message = f"; {self.message}" if self.message else ""
        return (f"<Result {self.status.value} by {self.solver or '?'}: {found}, "
                f"{1000 * self.seconds:.2f} ms{message}>")

    @property
    def solution(self) -> Grid | None:
        """The first solution, or ``None``: row by row, each digit 0-based (digit ``d`` is
        ``d - 1``), as every solver and :class:`~sudoku_csp.puzzle.Puzzle` hold them;
        :attr:`digits` is the same grid as the user sees it."""
        return self.solutions[0] if self.solutions else None

    @property
    def digits(self) -> tuple[int, ...] | None:
        """The first solution as the user sees it, or ``None``: row by row, digits 1 to N
        (:attr:`solution` holds them 0-based).

        >>> from sudoku_csp import solve
        >>> result = solve("3.1...4.2.......")
        >>> result.digits[:4], result.solution[:4]
        ((3, 4, 1, 2), (2, 3, 0, 1))
        """
        return None if self.solution is None else tuple(d + 1 for d in self.solution)

    @property
    def count(self) -> int:
        """How many distinct verified solutions the search found."""
        return len(self.solutions) if self.total is None else self.total

    def _repr_html_(self) -> str:
        """A compact block for Jupyter: the verdict, solver, solutions found, time and
        message on one line, then the solution drawn over the givens (the puzzle alone when
        there is no solution).

        >>> from sudoku_csp import count
        >>> html = count("3.1...4.2.......")._repr_html_()
        >>> html.startswith('<div class="sudoku-csp-result">'), "<b>unique</b>" in html
        (True, True)
        """
        from html import escape  # notebooks only: html.entities costs every start-up 1 ms

        found = f"{self.count} solution{'' if self.count == 1 else 's'} found"
        facts = [f"<b>{self.status.value}</b>", escape(self.solver or "?"),
                 found if self.complete else f"{found} (search cut short)",
                 f"{1000 * self.seconds:.2f} ms"]
        if self.message:
            facts.append(escape(self.message))
        picture = ""
        if self.puzzle is not None:
            from sudoku_csp.render import grid_svg  # only notebooks need the drawing code

            picture = grid_svg(self.puzzle.geometry, self.puzzle.givens, values=self.solution,
                               constraints=self.puzzle.constraints)
        return (f'<div class="sudoku-csp-result"><p>{" · ".join(facts)}</p>'
                f"{picture}</div>")
