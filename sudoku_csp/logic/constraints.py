"""Steps from a puzzle's typed constraints (:mod:`sudoku_csp.constraints`), whatever their kind.

The deduction is the one the native solver makes: each constraint's native links
(:meth:`~sudoku_csp.constraints.base.Constraint.native`) narrow the candidates of their cells,
and a link that removes some is one step, worded by its constraint: its name and cells, then
why in its own words (:meth:`~sudoku_csp.constraints.base.Constraint.why`: for a killer cage
the cage-combination step, the sets of different digits that add up to its sum and fit its
cells' candidates). The other techniques stay sound beside constraints (they use only units
and peers, a subset of the rules); uniqueness techniques are not used on such puzzles, since
a cage or a dot can forbid the swap they rely on.

Sudoku Explainer rates no variant rule: the step's rating is this project's choice
(:data:`CONSTRAINT_RATING`), between the hidden and the naked single, as setters of killers
expect combinations to be the first thing a solver looks at.
"""

from __future__ import annotations

from functools import lru_cache

from sudoku_csp.constraints import Constraint, Link
from sudoku_csp.geometry import Geometry
from sudoku_csp.logic.board import Board, Contradiction
from sudoku_csp.logic.step import Step, cell_list, eliminated

CONSTRAINT_RATING = 2.0
"""The rating of a constraint step (no published scale covers variant rules)."""


@lru_cache(maxsize=4096)
def _links(geometry: Geometry, constraint: Constraint) -> tuple[Link, ...]:
    return tuple(constraint.native(geometry))


def _why(board: Board, constraint: Constraint) -> str:
    g = board.geometry
    name = constraint.describe(g)
    what = f"{name[:1].upper()}{name[1:]} ({cell_list(g, constraint.touched())})"
    reason = constraint.why(g, board.cand)
    return f"{what}: {reason}" if reason else what


def constraint_step(board: Board) -> Step | None:
    """The first constraint whose native rule removes candidates, as a step; raises
    :class:`~sudoku_csp.logic.board.Contradiction` when one cannot be met at all."""
    g = board.geometry
    for constraint in board.constraints:
        for link in _links(g, constraint):
            gone = board.ruled_out(constraint, link)
            if gone:
                return Step("constraint", 0.0,
                            f"{_why(board, constraint)} → eliminates {eliminated(g, gone)}",
                            eliminations=tuple(sorted(gone)), cells=link.cells)
    return None


def check_constraints(board: Board) -> None:
    """Raise :class:`~sudoku_csp.logic.board.Contradiction` unless every constraint accepts
    the pencil marks (on a full grid: unless the grid keeps every constraint, as links are
    complete on singles)."""
    g, cand = board.geometry, board.cand
    for constraint in board.constraints:
        for link in _links(g, constraint):
            if link.narrow(tuple(cand[c] for c in link.cells)) is None:
                raise Contradiction(f"{constraint.describe(g)} cannot be met")
