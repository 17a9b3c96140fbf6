"""Human-style solving: techniques that explain each deduction, and a difficulty rating.

:func:`explain` returns an :class:`Explanation` (the steps, the pencil marks before each,
the final grid and a :class:`Rating` on Sudoku Explainer's scale); :func:`hint` the next
step. Each technique reads only the geometry (units, peers), so explanations work on every
size and variant; :data:`TECHNIQUES` lists them in the order they are tried.

>>> from sudoku_csp import parse
>>> from sudoku_csp.logic import explain
>>> explain(parse("3.1...4.2.......")).rating.er
1.2
"""

from sudoku_csp.logic.board import Board, Contradiction
from sudoku_csp.logic.explain import TIERS, Explanation, Rating, explain, hint, next_step, tier_of
from sudoku_csp.logic.step import Step
from sudoku_csp.logic.techniques import TECHNIQUES, Technique, length_bonus

__all__ = [
    "TECHNIQUES",
    "TIERS",
    "Board",
    "Contradiction",
    "Explanation",
    "Rating",
    "Step",
    "Technique",
    "explain",
    "hint",
    "length_bonus",
    "next_step",
    "tier_of",
]
