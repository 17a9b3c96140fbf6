"""The technique ladder: every technique once, with its rating on Sudoku Explainer's scale.

The explainer tries techniques in the order of this table (by rating) and takes the first
step found. Ratings are Sudoku Explainer's published per-technique values; chains and
forcing chains add its length bonus (:func:`length_bonus`). Techniques Sudoku Explainer
does not have are rated as what it would see: a W-wing is a six-node chain.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sudoku_csp.logic import basic, chains, forcing, uniqueness, wings
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.step import Step

__all__ = ["TECHNIQUES", "Technique", "length_bonus"]


@dataclass(frozen=True)
class Technique:
    """A named deduction: ``find(board)`` returns a step that changes the pencil marks, or
    None. ``rating`` is the base value; ``chained`` techniques add :func:`length_bonus`
    of the step's length. ``uniqueness`` techniques are valid only on unique puzzles."""

    key: str
    name: str
    rating: float
    find: Callable[[Board], Step | None]
    chained: bool = False
    uniqueness: bool = False

    def rate(self, step: Step) -> float:
        if not self.chained:
            return self.rating
        return round(self.rating + length_bonus(step.length), 1)


def length_bonus(length: int) -> float:
    """Sudoku Explainer's bonus for long arguments: +0.1 each time the length passes the
    next of 4, 6, 8, 12, 16, 24, 32, 48, …

    >>> [length_bonus(n) for n in (4, 5, 7, 9, 13, 20)]
    [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
    """
    added, ceiling, odd = 0, 4, False
    while length > ceiling:
        added += 1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return added / 10


_LADDER = [
    Technique("full_house", "Full house", 1.0, basic.full_house),
    Technique("hidden_single_box", "Hidden single (box)", 1.2, basic.hidden_single_box),
    Technique("hidden_single_line", "Hidden single (line)", 1.5, basic.hidden_single_line),
    Technique("naked_single", "Naked single", 2.3, basic.naked_single),
    Technique("pointing", "Pointing", 2.6, basic.pointing),
    Technique("claiming", "Claiming", 2.8, basic.claiming),
    Technique("naked_pair", "Naked pair", 3.0, basic.naked_pair),
    Technique("x_wing", "X-wing", 3.2, basic.x_wing),
    Technique("hidden_pair", "Hidden pair", 3.4, basic.hidden_pair),
    Technique("naked_triple", "Naked triple", 3.6, basic.naked_triple),
    Technique("swordfish", "Swordfish", 3.8, basic.swordfish),
    Technique("hidden_triple", "Hidden triple", 4.0, basic.hidden_triple),
    Technique("xy_wing", "XY-wing", 4.2, wings.xy_wing),
    Technique("xyz_wing", "XYZ-wing", 4.4, wings.xyz_wing),
    Technique("unique_rectangle", "Unique rectangle", 4.5, uniqueness.unique_rectangle,
              uniqueness=True),
    Technique("naked_quad", "Naked quad", 5.0, basic.naked_quad),
    Technique("jellyfish", "Jellyfish", 5.2, basic.jellyfish),
    Technique("hidden_quad", "Hidden quad", 5.4, basic.hidden_quad),
    Technique("bug_plus_one", "BUG+1", 5.6, uniqueness.bug_plus_one, uniqueness=True),
    Technique("x_chain", "X-chain", 6.5, chains.x_chain, chained=True),
    Technique("xy_chain", "XY-chain", 6.6, chains.xy_chain, chained=True),
    Technique("w_wing", "W-wing", 7.1, wings.w_wing),
    Technique("aic", "Alternating inference chain", 7.0, chains.aic, chained=True),
    Technique("forcing_chain", "Forcing chain", 7.0, forcing.forcing_chain, chained=True),
    Technique("nishio", "Nishio", 7.5, forcing.nishio, chained=True),
    Technique("cell_region_forcing", "Cell/region forcing chains", 8.2,
              forcing.static_cell_region, chained=True),
    Technique("dynamic_forcing_chain", "Dynamic forcing chain", 8.5,
              forcing.dynamic_forcing_chain, chained=True),
]

TECHNIQUES: dict[str, Technique] = {t.key: t for t in _LADDER}
"""Every technique by key, in the order the explainer tries them."""
