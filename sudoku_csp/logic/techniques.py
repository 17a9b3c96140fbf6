"""The technique ladder: every technique once, with its rating on Sudoku Explainer's scale.

The explainer tries techniques in the order of this table (by rating) and takes the first
step found. Ratings are Sudoku Explainer's published per-technique values; chains and
forcing chains add its length bonus (:func:`length_bonus`). Techniques Sudoku Explainer
lacks carry the values of Sukaku Explainer (its successor, which rated the calibration
set): strong-link chains of two to six links and the WXYZ- to TUVWXYZ-wings, with their
pattern refinements (:attr:`Step.bonus`). A W-wing, which neither has, is rated as the
six-node chain they would see. Forcing chains that are not a single path (a contradiction
reached two ways, a double implication, cell and region forcing) are Sudoku Explainer's
"multiple forcing chains" (8.0); one path from a candidate to its own negation is an AIC.
Variant rules, which neither rates, carry this project's ratings (the three ``constraint``
techniques: :mod:`sudoku_csp.logic.constraints` says why).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sudoku_csp.logic import (
    basic,
    chains,
    constraints,
    exact,
    fish,
    forcing,
    houses,
    leftovers,
    segments,
    sums,
    trials,
    uniqueness,
    wings,
)
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.step import Step

__all__ = ["TECHNIQUES", "Technique", "highest_rating", "length_bonus"]


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
        """The base rating, plus the step's own ``bonus``, plus the length bonus for chained
        techniques."""
        extra = step.bonus + (length_bonus(step.length) if self.chained else 0.0)
        return round(self.rating + extra, 1)


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
    Technique("direct_pointing", "Direct pointing", 1.7, basic.direct_pointing),
    Technique("direct_claiming", "Direct claiming", 1.9, basic.direct_claiming),
    Technique("constraint", "Variant rule between cells (dots, whispers, thermometer, …)",
              constraints.RULE_RATING, constraints.rule_step),
    Technique("direct_hidden_pair", "Direct hidden pair", 2.0, basic.direct_hidden_pair),
    Technique("constraint_combination",
              "Variant combinations (cage sets, arrow sums, sandwiches, renban runs, …)",
              constraints.COMBINATION_RATING, constraints.combination_step),
    Technique("rule_hidden_single", "Hidden single in a variant rule's cells (a cage, a line)",
              houses.RULE_SINGLE_RATING, houses.rule_hidden_single),
    Technique("naked_single", "Naked single", 2.3, basic.naked_single),
    Technique("direct_hidden_triple", "Direct hidden triple", 2.5,
              basic.direct_hidden_triple),
    Technique("constraint_units", "Variant constraints with the units (45 rule, …)",
              constraints.UNITS_RATING, constraints.units_step),
    Technique("pointing", "Pointing", 2.6, basic.pointing),
    Technique("constraint_exact", "Variant constraint read with its units (every filling)",
              exact.EXACT_RATING, exact.constraint_exact),
    Technique("claiming", "Claiming", 2.8, basic.claiming),
    Technique("leftovers", "Law of leftovers (jigsaw regions)", leftovers.LEFTOVERS_RATING,
              leftovers.leftovers),
    Technique("rule_pointing", "Pointing through the variant rules", houses.POINTING_RATING,
              houses.rule_pointing),
    Technique("rule_cell_forcing", "Cell forcing through the variant rules",
              houses.CELL_FORCING_RATING, houses.rule_cell_forcing),
    Technique("segment_pointing", "A constraint's cells in one unit must hold a digit "
              "(a little killer's box segment, …)", segments.SEGMENT_RATING,
              segments.segment_pointing),
    Technique("sum_leftovers", "Innies and outies over several units and constraints "
              "(arrows, little killers, cages, …)", sums.SUMS_RATING, sums.sum_leftovers),
    Technique("naked_pair", "Naked pair", 3.0, basic.naked_pair),
    Technique("rule_naked_pair", "Naked pair through the variant rules", 3.1,
              houses.rule_subset(2)),
    Technique("x_wing", "X-wing", 3.2, basic.x_wing),
    Technique("rule_fish", "Fish through the variant rules (two houses, a rule between "
              "their places)", fish.FISH_RATING, fish.rule_fish),
    Technique("constraint_overlap", "Overlapping variant constraints read together",
              exact.OVERLAP_RATING, exact.constraint_overlap),
    Technique("segment_overlap", "Two constraints that share cells must hold a digit in one "
              "unit (two little killers crossing in a box, …)", segments.OVERLAP_RATING,
              segments.segment_overlap),
    Technique("segment_unit", "Two constraints read with a whole unit they both reach "
              "(an arrow and a little killer in one box, …)", segments.UNIT_RATING,
              segments.segment_unit),
    Technique("hidden_pair", "Hidden pair", 3.4, basic.hidden_pair),
    Technique("naked_triple", "Naked triple", 3.6, basic.naked_triple),
    Technique("rule_naked_triple", "Naked triple through the variant rules", 3.7,
              houses.rule_subset(3)),
    Technique("swordfish", "Swordfish", 3.8, basic.swordfish),
    Technique("rule_fish3", "Fish through the variant rules (three houses, rules between "
              "their places)", fish.FISH3_RATING, fish.rule_fish3),
    Technique("hidden_triple", "Hidden triple", 4.0, basic.hidden_triple),
    Technique("turbot_fish", "Skyscraper / two-string kite / turbot fish", 4.0,
              chains.strong_links(2)),
    Technique("xy_wing", "XY-wing", 4.2, wings.xy_wing),
    Technique("xyz_wing", "XYZ-wing", 4.4, wings.xyz_wing),
    Technique("unique_rectangle", "Unique rectangle", 4.5, uniqueness.unique_rectangle,
              uniqueness=True),
    Technique("naked_quad", "Naked quad", 5.0, basic.naked_quad),
    Technique("rule_naked_quad", "Naked quad through the variant rules", 5.1,
              houses.rule_subset(4)),
    Technique("jellyfish", "Jellyfish", 5.2, basic.jellyfish),
    Technique("hidden_quad", "Hidden quad", 5.4, basic.hidden_quad),
    Technique("three_strong_links", "Three strong links", 5.4, chains.strong_links(3)),
    Technique("wxyz_wing", "WXYZ-wing", 5.5, wings.als_wing(3)),
    Technique("bug_plus_one", "BUG type 1 (BUG+1)", 5.6, uniqueness.bug_plus_one,
              uniqueness=True),
    Technique("bug_type_2", "BUG type 2", 5.7, uniqueness.bug_type_2, uniqueness=True),
    Technique("four_strong_links", "Four strong links", 5.8, chains.strong_links(4)),
    Technique("vwxyz_wing", "VWXYZ-wing", 6.2, wings.als_wing(4)),
    Technique("five_strong_links", "Five strong links", 6.2, chains.strong_links(5)),
    Technique("x_chain", "X-chain", 6.5, chains.x_chain, chained=True),
    Technique("uvwxyz_wing", "UVWXYZ-wing", 6.6, wings.als_wing(5)),
    Technique("six_strong_links", "Six strong links", 6.6, chains.strong_links(6)),
    Technique("xy_chain", "XY-chain", 6.6, chains.xy_chain, chained=True),
    Technique("aic", "Alternating inference chain", 7.0, chains.aic, chained=True),
    Technique("w_wing", "W-wing", 7.1, wings.w_wing),
    Technique("tuvwxyz_wing", "TUVWXYZ-wing", 7.5, wings.als_wing(6)),
    Technique("nishio", "Nishio", 7.5, forcing.nishio, chained=True),
    Technique("forcing_chain", "Forcing chain", 8.0, forcing.forcing_chain, chained=True),
    Technique("cell_region_forcing", "Cell/region forcing chains", 8.0,
              forcing.static_cell_region, chained=True),
    Technique("dynamic_forcing_chain", "Dynamic forcing chain", 8.5,
              trials.dynamic_forcing_chain, chained=True),
    Technique("forcing_chain_plus", "Dynamic forcing chain (+): with subsets and locked "
              "candidates", 9.0, trials.forcing_chain_plus, chained=True),
]

TECHNIQUES: dict[str, Technique] = {t.key: t for t in _LADDER}
"""Every technique by key, in the order the explainer tries them."""

PATTERN_BONUS = 0.3
"""The largest :attr:`Step.bonus` a technique gives (a unique rectangle type 3 whose roof
extras fill three cells; wings and strong-link chains add at most 0.2)."""


def highest_rating(size: int, cells: int) -> float:
    """The highest ER any step can be rated on a grid of ``size`` digits and ``cells``
    cells: no puzzle of it rates higher, so asking for more can never be met. A chained
    step's length counts facts, each a candidate on or off, at most ``2 * cells * size``
    per case, and a cell or region forcing chain adds up at most ``size`` cases.

    >>> highest_rating(9, 81), highest_rating(4, 16)
    (11.4, 10.4)
    """
    longest = size * 2 * cells * size
    chained = max(t.rating for t in TECHNIQUES.values() if t.chained) + length_bonus(longest)
    unchained = max(t.rating for t in TECHNIQUES.values() if not t.chained) + PATTERN_BONUS
    return round(max(chained, unchained), 1)
