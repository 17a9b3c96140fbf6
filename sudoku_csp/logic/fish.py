"""Fish through the variant rules: two or three houses (:mod:`sudoku_csp.logic.houses`)
that must each hold a digit in a few places, where places of one rule out places of
another (a knight's move, a cage, a constraint's weak link). The digit stands in one of the
combinations of places left, one a house, no two ruling each other out; a candidate ruled
out beside a place of every such combination is false. An X-wing and a swordfish are the
plain grid's cases (two or three lines whose places share columns), which the plain
techniques find and rate: these never fire on the plain grid.
"""

from __future__ import annotations

from sudoku_csp.constraints.wording import digits_of
from sudoku_csp.geometry import Candidate
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.constraints import WeakLinks, linked_mask, weak_links
from sudoku_csp.logic.houses import (
    House,
    _size_bonus,
    _targets,
    _via,
    houses,
    weak_reason,
)
from sudoku_csp.logic.step import Step, cell_list, eliminated

__all__ = ["FISH3_RATING", "FISH_PLACES", "FISH_RATING", "rule_fish", "rule_fish3"]

FISH_RATING = 3.3
"""A fish through the rules: two houses read together, with a rule between their places;
after the X-wing (3.2), the plain case of two lines (+0.1 for each place beyond four, at
most +0.3)."""
FISH3_RATING = 3.9
"""A fish through the rules of three houses: after the swordfish (3.8), the plain case of
three lines, and the two-house fish (+0.1 for each place beyond six, at most +0.3)."""
FISH_PLACES = 3
"""The most places of the digit in each house of a fish through the rules (more make too
many pairs to read by hand)."""

def rule_fish(board: Board) -> Step | None:
    """Two houses that must each hold a digit, with a few places each (at most
    :data:`FISH_PLACES`), where some place of one rules out some place of the other: the
    digit stands in them in one of the pairs left, and a candidate weakly linked to a place
    of every such pair is false. An X-wing is the case of two lines whose places share
    columns; this reads any two houses (lines, regions, cages) with every rule (a knight's
    move between two places, a constraint's weak link). Only pairs with a place ruled out
    beside another are read: without one, what every pair rules out is what pointing
    through the rules finds in one house."""
    if (setup := _fish_setup(board)) is None:
        return None
    extra, memo, found, by_digit = setup
    size = board.size
    for d, items in by_digit:
        seen: set[frozenset[tuple[int, ...]]] = set()
        for a, (i, first) in enumerate(items):
            board.check_time()
            for j, second in items[a + 1:]:
                key = frozenset((first, second))
                if key in seen or set(first) & set(second):
                    continue
                seen.add(key)  # a house met twice (a unit and a cage on the same cells)
                pairs = [(x, y) for x in first for y in second
                         if not linked_mask(board, extra, (x, d), memo) >> (y * size + d) & 1]
                if not pairs or len(pairs) == len(first) * len(second):
                    continue
                gone_set = -1  # every candidate, until the first pair narrows it
                for x, y in pairs:
                    gone_set &= (linked_mask(board, extra, (x, d), memo)
                                 | linked_mask(board, extra, (y, d), memo))
                    if not gone_set:
                        break
                if gone_set:
                    step = _fish_step(board, extra, d, (found[i], first), (found[j], second),
                                      pairs, board.unmask(gone_set))
                    if step is not None:
                        return step
    return None


def _fish_step(board: Board, extra: WeakLinks, d: int, first: tuple[House, tuple[int, ...]],
               second: tuple[House, tuple[int, ...]], pairs: list[tuple[int, int]],
               gone: list[Candidate]) -> Step | None:
    """The step, or None when it reads nothing but rows, columns and boxes (a turbot fish
    or a grouped chain of the plain grid, which the ladder rates as such)."""
    g = board.geometry
    sources = [(c, d) for c in (*first[1], *second[1])]
    reasons: dict[str, None] = {}
    others = set(board.layout.others)
    plain = (all(h.unit is not None and h.unit not in others for h, _ in (first, second))
             and not any(weak_reason(board, extra, (x, d), (y, d))
                         for x in first[1] for y in second[1] if (x, y) not in pairs))
    for x, y in pairs:
        for z in gone:
            for s in ((x, d), (y, d)):
                why = weak_reason(board, extra, s, z)
                if why:
                    reasons[why] = None
    if plain and not reasons:
        return None
    held = [f"{g.label(x)}+{g.label(y)}" for x, y in pairs]
    said = " or ".join(held) if len(held) < 3 else f"{', '.join(held[:-1])} or {held[-1]}"

    def where(house: House, places: tuple[int, ...]) -> str:
        return f"{house.name} in {cell_list(g, places)}"

    return Step(
        "rule_fish", 0.0,
        f"Fish through the rules: {board.sym(d)} must stand in {where(*first)} and in "
        f"{where(*second)}, never in two places that rule each other out, so in "
        f"{said}; whichever holds it rules out "
        f"{_targets(g, gone)}{_via(list(reasons))} → eliminates "
        f"{eliminated(g, gone)}",
        eliminations=tuple(gone), cells=tuple(dict.fromkeys((*first[0].cells,
                                                              *second[0].cells))),
        marks=tuple(sources),
        units=tuple(h.unit for h, _ in (first, second) if h.unit is not None),
        links=tuple((s, y, False) for y in gone for s in sources
                    if weak_reason(board, extra, s, y) is not None),
        bonus=_size_bonus(len(first[1]) + len(second[1]) - 2))


def rule_fish3(board: Board) -> Step | None:
    """Three houses that must each hold a digit, with a few places each (at most
    :data:`FISH_PLACES`), where places of one rule out places of another between at least
    two of the three pairs of houses: the digit stands in them in one of the triples left
    (no two of its places ruling each other out), and a candidate weakly linked to a place
    of every such triple is false. A swordfish is the case of three lines whose places
    share columns; this reads any three houses with every rule. Tried after
    :func:`rule_fish`, which sees whatever two of the houses show on their own."""
    if (setup := _fish_setup(board)) is None:
        return None
    extra, memo, found, by_digit = setup
    for d, items in by_digit:
        size = board.size
        linked = {x: linked_mask(board, extra, (x, d), memo) for _, places in items
                  for x in places}
        count = len(items)
        # which pairs of houses share no place, and which of those rule out a pair
        apart = [[not set(items[a][1]) & set(items[b][1]) for b in range(count)]
                 for a in range(count)]
        touch = [[apart[a][b] and any(linked[x] >> (y * size + d) & 1
                                      for x in items[a][1] for y in items[b][1])
                  for b in range(count)] for a in range(count)]
        seen: set[frozenset[tuple[int, ...]]] = set()
        for a in range(count):
            board.check_time()
            for b in range(a + 1, count):
                if not apart[a][b]:
                    continue
                for c in range(b + 1, count):
                    if not (apart[a][c] and apart[b][c]) or (
                            touch[a][b] + touch[a][c] + touch[b][c] < 2):
                        continue
                    key = frozenset((items[a][1], items[b][1], items[c][1]))
                    if key in seen or len(key) < 3:
                        continue
                    seen.add(key)  # houses met twice (a unit and a cage on the same cells)
                    step = _fish3(board, extra, d, linked, [found[items[k][0]] for k in
                                                            (a, b, c)],
                                  [items[k][1] for k in (a, b, c)])
                    if step is not None:
                        return step
    return None


FishHouses = list[tuple[int, list[tuple[int, tuple[int, ...]]]]]


def _fish_setup(board: Board) -> tuple[WeakLinks, dict[Candidate, int], tuple[House, ...],
                                       FishHouses] | None:
    """What a fish through the rules reads: the weak links, the position's weak sets, the
    houses, and per digit the houses with few places (:func:`_fish_houses`); None on the
    plain grid, whose fish the plain techniques find."""
    if not board.constraints and board.layout.plain:
        return None
    found = houses(board)
    return (weak_links(board), board.cached("weak sets", dict), found,
            _fish_houses(board, found))


def _fish_houses(board: Board, found: tuple[House, ...]) -> FishHouses:
    """Per digit (in order), the houses that must hold it with two to :data:`FISH_PLACES`
    places left: (house index, places)."""
    cand, placed = board.cand, board.state.placed
    by_digit: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    for i, house in enumerate(found):
        for d in digits_of(house.digits):
            bit = 1 << d
            places = tuple(c for c in house.cells if cand[c] & bit and not placed >> c & 1)
            if 2 <= len(places) <= FISH_PLACES:
                by_digit.setdefault(d, []).append((i, places))
    return sorted(by_digit.items())


def _fish3(board: Board, extra: WeakLinks, d: int, linked: dict[int, int],
           chosen: list[House], places: list[tuple[int, ...]]) -> Step | None:
    """The step of three houses' places, if some triple is ruled out and what every triple
    left rules out is not empty; None too when it reads nothing but rows, columns and boxes
    (a swordfish or a chain of the plain grid, which the ladder rates as such)."""
    size = board.size
    first, second, third = places
    total = len(first) * len(second) * len(third)
    triples = [(x, y, z) for x in first for y in second
               if not linked[x] >> (y * size + d) & 1 for z in third
               if not (linked[x] | linked[y]) >> (z * size + d) & 1]
    if not triples or len(triples) == total:
        return None
    gone_set = -1
    for x, y, z in triples:
        gone_set &= linked[x] | linked[y] | linked[z]
        if not gone_set:
            return None
    gone = board.unmask(gone_set)
    g = board.geometry
    others = set(board.layout.others)
    reasons: dict[str, None] = {}
    ruled = [(x, y) for i, one in enumerate(places) for other in places[i + 1:]
             for x in one for y in other if linked[x] >> (y * size + d) & 1]
    for x, y in ruled:
        why = weak_reason(board, extra, (x, d), (y, d))
        if why:
            reasons[why] = None
    for triple in triples:
        for target in gone:
            for s in triple:
                why = weak_reason(board, extra, (s, d), target)
                if why:
                    reasons[why] = None
    if all(h.unit is not None and h.unit not in others for h in chosen) and not reasons:
        return None
    held = [f"{g.label(x)}+{g.label(y)}+{g.label(z)}" for x, y, z in triples]
    said = " or ".join(held) if len(held) < 3 else f"{', '.join(held[:-1])} or {held[-1]}"
    where = [f"{house.name} in {cell_list(g, cells)}" for house, cells in
             zip(chosen, places, strict=True)]
    sources = [(c, d) for cells in places for c in cells]
    return Step(
        "rule_fish3", 0.0,
        f"Fish through the rules (three houses): {board.sym(d)} must stand in {where[0]}, "
        f"in {where[1]} and in {where[2]}, never in two places that rule each other out, "
        f"so in {said}; whichever holds it rules out {_targets(g, gone)}"
        f"{_via(list(reasons))} → eliminates {eliminated(g, gone)}",
        eliminations=tuple(gone),
        cells=tuple(dict.fromkeys(c for house in chosen for c in house.cells)),
        marks=tuple(sources),
        units=tuple(h.unit for h in chosen if h.unit is not None),
        links=tuple((s, y, False) for y in gone for s in sources
                    if weak_reason(board, extra, s, y) is not None),
        bonus=_size_bonus(len(sources) - 4))
