"""The page's pictures, made by the project's own renderer: the one place this package
reaches it, so that a change of the renderer's entry points is a change here alone.

>>> from sudoku_csp import parse
>>> puzzle_svg(parse("1..." "..1." ".1.." "...1")).startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sudoku_csp.logic import Explanation
    from sudoku_csp.puzzle import Puzzle
    from sudoku_csp.setter import TrueCandidates

__all__ = ["candidates_svg", "path_html", "puzzle_svg"]


def puzzle_svg(puzzle: Puzzle, *, highlight: Iterable[int] = (),
               candidates: Sequence[int] | None = None) -> str:
    """The puzzle drawn with its typed constraints, ``highlight`` cells shaded (a
    conflict's, or the cells a given would make unique), with ``candidates`` (a mask per
    cell) when given."""
    from sudoku_csp.render import Highlights, grid_svg

    return grid_svg(puzzle.geometry, puzzle.givens, candidates=candidates,
                    constraints=puzzle.constraints,
                    highlights=Highlights(cells=tuple(highlight)))


def candidates_svg(tc: TrueCandidates) -> str:
    """The true candidates, each coloured by how many solutions hold it."""
    return tc.svg()


def path_html(explanation: Explanation) -> str:
    """The logical path as an HTML fragment: each step's words and picture."""
    from sudoku_csp.logic.html import explanation_html

    return explanation_html(explanation, standalone=False)
