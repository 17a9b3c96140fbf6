"""Houses and what every option of one rules out: hidden singles in the cells a rule must
fill, pointing through every rule, and cell forcing.

A *house* is a set of cells that must hold a digit: a unit of the grid holds every digit,
and a link of a typed constraint holds each digit it cannot be met without (a cage of 15 in
two cells holds a 6, 7, 8 or 9 … and so on: found by asking the link itself, with the digit
taken out of its cells, whether it can still be met), or, when its cells hold different
digits, each digit without which too few digits are left for its cells (a cage of nine
cells with no sum holds every digit, like a region). Then:

- *hidden single in a rule's cells* (``rule_hidden_single``): a digit a constraint's cells
  must hold has one place left among them;
- *pointing through the rules* (``rule_pointing``): a digit a house must hold has a few
  places left there, and a candidate that cannot be true beside any of them (seen from each,
  a knight's or a king's move away, or ruled out by a constraint's weak link) is false.
  Plain pointing and claiming are the case of a box and a line; this reads every house with
  every rule (an anti-knight or an anti-king grid, a cage, a renban line, an extra region);
- *cell forcing* (``rule_cell_forcing``): a candidate that a constraint's weak links rule
  out beside every candidate of one cell is false;
- *fish through the rules* (``rule_fish``, ``rule_fish3``): two or three houses that must
  each hold a digit in a few places, some places of one ruling out some of another's; a
  candidate ruled out beside a place of every combination left is false.

Weak links are the units', the grid's extra "must differ" pairs and the constraints'
(:func:`~sudoku_csp.logic.constraints.weak_links`), as the chains use them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from sudoku_csp.constraints import Constraint, Link
from sudoku_csp.constraints.wording import digits_of
from sudoku_csp.geometry import Candidate, Geometry
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.constraints import WeakLinks, joint_links, links_of, weak_links
from sudoku_csp.logic.step import Link as ChainLink
from sudoku_csp.logic.step import Step, cell_list, eliminated, unit_name
from sudoku_csp.native.rules import naked_sets

SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}

__all__ = ["CELL_FORCING_RATING", "FISH3_RATING", "FISH_PLACES", "FISH_RATING",
           "POINTING_RATING", "RULE_SINGLE_RATING", "House", "houses", "rule_cell_forcing",
           "rule_fish", "rule_fish3", "rule_hidden_single", "rule_pointing", "rule_subset",
           "weak_reason"]

RULE_SINGLE_RATING = 2.2
"""A hidden single among a constraint's cells: as weighing a constraint's combinations
(2.2), and tried after them, since knowing which digits a constraint must hold is weighing
its combinations."""
POINTING_RATING = 2.9
"""Pointing through the rules: after claiming (2.8), the last of the locked candidates, as
each place must be checked against a rule of the variant rather than one line; +0.1 for
each place beyond two (at most +0.3)."""
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
CELL_FORCING_RATING = 2.9
"""Cell forcing through the rules: as pointing through the rules, with a cell's candidates
for the places (+0.1 for each beyond two, at most +0.3)."""


@dataclass(frozen=True)
class House:
    """Cells that must hold each digit of ``digits`` (a mask): a unit of the grid (``unit``
    its index) or a constraint's link (``name`` the constraint, ``why`` why it must).
    ``apart``: its cells hold different digits."""

    name: str
    cells: tuple[int, ...]
    digits: int
    unit: int | None = None
    why: str = ""
    apart: bool = True


def houses(board: Board) -> tuple[House, ...]:
    """The houses of these pencil marks: the units (each digit not yet placed in it), then
    the constraints' links that must hold some digit not yet placed among their cells, or
    whose cells (more than two) hold different digits (worked out once per position)."""
    return board.cached("houses", lambda: _houses(board))


def _houses(board: Board) -> tuple[House, ...]:
    g, done, full = board.geometry, board.state.done, board.tables.full
    found = [House(unit_name(g, u), tuple(unit.cells), full & ~done[u], u)
             for u, unit in enumerate(g.units) if full & ~done[u]]
    for name, why, link, cells in _named(g, board.constraints):
        need, reason = _must_hold(board, link, cells)
        apart = _different(g, link)
        if need or apart and len(cells) > 2:
            found.append(House(name, cells, need, None, f"{why}{reason}", apart))
    return tuple(found)


@lru_cache(maxsize=64)
def _named(g: Geometry, constraints: tuple[Constraint, ...]
           ) -> tuple[tuple[str, str, Link, tuple[int, ...]], ...]:
    """Every constraint link as a house may be named: ``(name, why, link, its cells)``,
    those on a unit's cells left out (the unit is that house). A link of a constraint is
    named by it (and its cells, when it has others); a joint link (the 45 rule) by its
    cells, its own words leading the reason. Worked out once per puzzle."""
    named = []
    for constraint in constraints:
        touched = set(constraint.touched())
        for link in links_of(g, constraint):
            name = constraint.describe(g)
            if set(link.cells) != touched:
                name = f"{name} ({cell_list(g, dict.fromkeys(link.cells))})"
            named.append((name, "", link))
    for name, link in joint_links(g, constraints):
        words = link.why if isinstance(link.why, str) and link.why else name
        named.append((cell_list(g, dict.fromkeys(link.cells)), f"{words}: ", link))
    units = {frozenset(unit.cells) for unit in g.units}
    return tuple((name, why, link, cells) for name, why, link in named
                 if frozenset(cells := tuple(dict.fromkeys(link.cells))) not in units)


def _must_hold(board: Board, link: Link, cells: tuple[int, ...]) -> tuple[int, str]:
    """The digits ``link``'s cells must hold that none of them holds yet, and why (worked
    out once per link and candidates)."""
    placed = board.state.placed
    return _hold(board.geometry, link, tuple(board.cand[c] for c in link.cells),
                 tuple(not placed >> c & 1 for c in link.cells))


@lru_cache(maxsize=1 << 15)
def _hold(geometry: Geometry, link: Link, masks: tuple[int, ...], open_: tuple[bool, ...]
          ) -> tuple[int, str]:
    placed = opened = 0
    seen: set[int] = set()
    open_cells = 0
    for c, m, is_open in zip(link.cells, masks, open_, strict=True):
        if c in seen:
            continue
        seen.add(c)
        if is_open:
            opened |= m
            open_cells += 1
        else:
            placed |= m
    if not open_cells:
        return 0, ""
    apart = _different(geometry, link)
    need = 0
    why = ""
    for d in digits_of(opened & ~placed):
        bit = 1 << d
        if apart and (opened & ~bit).bit_count() < open_cells:
            need |= bit
            why = why or "its cells hold different digits"
            continue
        probe = tuple(m & ~bit if is_open else m
                      for m, is_open in zip(masks, open_, strict=True))
        if 0 not in probe and link.narrow(probe) is None:
            need |= bit
    return need, why or "it cannot be met without it"


@lru_cache(maxsize=4096)
def _different(geometry: Geometry, link: Link) -> bool:
    """Whether the link's cells hold different digits: each two see each other, or the link
    takes a digit placed in one out of the other."""
    cells = tuple(dict.fromkeys(link.cells))
    full = (1 << geometry.size) - 1
    where = {c: i for i, c in reversed(list(enumerate(link.cells)))}
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            if geometry.are_peers(a, b):
                continue
            for d in range(geometry.size):
                masks = [full] * len(link.cells)
                for k, c in enumerate(link.cells):
                    if c == a:
                        masks[k] = 1 << d
                out = link.narrow(tuple(masks))
                if out is not None and out[where[b]] >> d & 1:
                    return False
    return True


# -- weak links ---------------------------------------------------------------------------------
def weak_reason(board: Board, extra: WeakLinks, x: Candidate, y: Candidate) -> str | None:
    """Why ``x`` and ``y`` cannot both be true: ``""`` when the grid says so (one cell, or
    one digit in two cells of a unit), a knight's or a king's move or ``a pair that must
    differ`` for the grid's extra pairs, the constraint's name for a constraint's weak link;
    None when nothing links them."""
    (cx, dx), (cy, dy) = x, y
    if cx == cy:
        return "" if dx != dy else None
    if dx == dy and board.sees(cx, cy):
        return _sight(board, cx, cy)
    return extra.get(x, {}).get(y)


def _sight(board: Board, a: int, b: int) -> str:
    """How two peer cells see each other: ``""`` in a unit, else the extra pair's shape."""
    units = board.tables.cell_units
    if set(units[a]) & set(units[b]):
        return ""
    g = board.geometry
    rows, cols = abs(g.row(a) - g.row(b)), abs(g.col(a) - g.col(b))
    if sorted((rows, cols)) == [1, 2]:
        return "a knight's move"
    if max(rows, cols) == 1:
        return "a king's move"
    return "a pair that must differ"


def _linked(board: Board, extra: WeakLinks, source: Candidate, memo: dict[Candidate, int]
            ) -> int:
    """The candidates of open cells weakly linked to ``source`` (the cell's others, the
    digit in its peers, the constraints' weak links) as a mask (:meth:`Board.unmask`), kept
    in ``memo``, the position's."""
    found = memo.get(source)
    if found is None:
        c, d = source
        size = board.size
        near = board.layout.peer_spread[c] << d | (board.cand[c] & ~(1 << d)) << (c * size)
        for y, e in extra.get(source, ()):
            near |= 1 << (y * size + e)
        found = memo[source] = near & board.open_candidates()
    return found


def _common(board: Board, extra: WeakLinks, sources: list[Candidate]
            ) -> tuple[list[Candidate], list[str]]:
    """The candidates weakly linked to every one of ``sources`` (one of which is true),
    and the reasons used (without repeats, the grid's own left out)."""
    memo: dict[Candidate, int] = board.cached("weak sets", dict)
    found = _linked(board, extra, sources[0], memo)
    for source in sources[1:]:
        if not found:
            break
        found &= _linked(board, extra, source, memo)
    gone = board.unmask(found)
    reasons: dict[str, None] = {}
    for y in gone:
        for s in sources:
            why = weak_reason(board, extra, s, y)
            if why:
                reasons[why] = None
    return gone, list(reasons)


def _links(sources: list[Candidate], gone: list[Candidate]) -> tuple[ChainLink, ...]:
    """Weak links from each source to each candidate removed, for the picture."""
    return tuple((s, y, False) for y in gone for s in sources)


def _via(reasons: list[str]) -> str:
    return f" ({', '.join(reasons)})" if reasons else ""


# -- the finders --------------------------------------------------------------------------------
def rule_hidden_single(board: Board) -> Step | None:
    """A digit a constraint's cells must hold has one place left among them: it goes
    there."""
    if not board.constraints:
        return None
    g = board.geometry
    for house in houses(board):
        if house.unit is not None:
            continue
        for d in digits_of(house.digits):
            places = [c for c in house.cells if board.is_open(c) and board.cand[c] >> d & 1]
            if len(places) == 1:
                (cell,) = places
                return Step(
                    "rule_hidden_single", 0.0,
                    f"Hidden single: {_capital(house.name)} must hold {_a(board.sym(d))} "
                    f"({house.why}), which only {g.label(cell)} can take → {g.label(cell)}",
                    placements=((cell, d),), cells=house.cells, marks=((cell, d),))
    return None


def rule_pointing(board: Board) -> Step | None:
    """A digit a house must hold has two or more places left there, and a candidate weakly
    linked to every one of them is false (fewest places first)."""
    if not board.constraints and board.layout.plain:
        return None  # nothing beyond the boxes and lines: pointing and claiming saw it all
    extra = weak_links(board)
    g, cand, placed = board.geometry, board.cand, board.state.placed
    options = []  # (places, house index, digit, the places), fewest places first
    for i, house in enumerate(houses(board)):
        for d in digits_of(house.digits):
            bit = 1 << d
            places = [c for c in house.cells if cand[c] & bit and not placed >> c & 1]
            if len(places) >= 2:
                options.append((len(places), i, d, places))
    options.sort()
    found = houses(board)
    for k, i, d, places in options:
        board.check_time()
        house = found[i]
        sources = [(c, d) for c in places]
        gone, reasons = _common(board, extra, sources)
        if not gone:
            continue
        where = (f"{board.sym(d)} in {house.name} lies in {cell_list(g, places)}"
                 if house.unit is not None else
                 f"{_capital(house.name)} must hold {_a(board.sym(d))} ({house.why}), "
                 f"which only {cell_list(g, places)} can take")
        return Step(
            "rule_pointing", 0.0,
            f"Pointing through the rules: {where}; each of them rules out "
            f"{_targets(g, gone)}{_via(reasons)} → eliminates {eliminated(g, gone)}",
            eliminations=tuple(gone), cells=house.cells, marks=tuple(sources),
            units=(house.unit,) if house.unit is not None else (),
            links=_links(sources, gone), bonus=_size_bonus(k))
    return None


def rule_cell_forcing(board: Board) -> Step | None:
    """A candidate that the constraints' weak links (with the grid's) rule out beside
    every candidate of one cell is false (cells with fewest candidates first)."""
    extra = weak_links(board)
    if not extra:
        return None
    g, cand = board.geometry, board.cand
    cells = sorted((c for c in board.open_cells() if cand[c] & (cand[c] - 1)),
                   key=lambda c: cand[c].bit_count())
    for c in cells:
        sources = [(c, d) for d in digits_of(cand[c])]
        gone, reasons = _common(board, extra, sources)
        if gone:
            return Step(
                "rule_cell_forcing", 0.0,
                f"Cell forcing: whichever of {'/'.join(board.sym(d) for _, d in sources)} "
                f"{g.label(c)} holds rules out {_targets(g, gone)}{_via(reasons)} → "
                f"eliminates {eliminated(g, gone)}",
                eliminations=tuple(gone), cells=(c,), marks=tuple(sources),
                links=_links(sources, gone), bonus=_size_bonus(len(sources)))
    return None


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
                         if not _linked(board, extra, (x, d), memo) >> (y * size + d) & 1]
                if not pairs or len(pairs) == len(first) * len(second):
                    continue
                gone_set = -1  # every candidate, until the first pair narrows it
                for x, y in pairs:
                    gone_set &= (_linked(board, extra, (x, d), memo)
                                 | _linked(board, extra, (y, d), memo))
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
        linked = {x: _linked(board, extra, (x, d), memo) for _, places in items
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


def rule_subset(k: int) -> Callable[[Board], Step | None]:
    """A finder for naked subsets of ``k`` cells read through the rules: ``k`` cells of a
    house whose cells hold different digits (a unit, a cage) hold ``k`` digits between
    them, so each of those digits stands in one of the cells that can take it, and a
    candidate weakly linked to all of those is false (beyond the house's other cells, which
    the plain naked subset clears)."""
    key = f"rule_naked_{SUBSET_NAMES[k]}"

    def find(board: Board) -> Step | None:
        if not board.constraints and board.layout.plain:
            return None
        extra = weak_links(board)
        g, cand = board.geometry, board.cand
        for house in houses(board):
            if not house.apart:
                continue
            board.check_time()
            open_cells = [c for c in house.cells if board.is_open(c)]
            for group, union in naked_sets(cand, open_cells, k):
                if union.bit_count() != k:
                    continue
                gone: list[Candidate] = []
                reasons: list[str] = []
                marks: list[Candidate] = []
                for v in digits_of(union):
                    sources = [(c, v) for c in group if cand[c] >> v & 1]
                    lost, why = _common(board, extra, sources)
                    gone += [y for y in lost if y not in gone]
                    reasons += [w for w in why if w not in reasons]
                    marks += sources
                if gone:
                    digits = "/".join(board.sym(v) for v in digits_of(union))
                    return Step(
                        key, 0.0,
                        f"Naked {SUBSET_NAMES[k]} through the rules: {cell_list(g, group)} "
                        f"hold {digits} in {house.name}; each digit's cells there rule out "
                        f"{_targets(g, gone)}{_via(reasons)} → eliminates "
                        f"{eliminated(g, sorted(gone))}",
                        eliminations=tuple(sorted(gone)), cells=group, marks=tuple(marks),
                        units=(house.unit,) if house.unit is not None else ())
        return None

    find.__doc__ = f"A naked {SUBSET_NAMES[k]} read through the rules (:func:`rule_subset`)."
    return find


def _targets(geometry: Geometry, gone: list[Candidate]) -> str:
    """``B2's 5`` or ``5 in B2, B3`` … for the candidates removed."""
    digits = {d for _, d in gone}
    if len(digits) == 1:
        cells = sorted({c for c, _ in gone})
        return f"{geometry.symbols[next(iter(digits))]} in {cell_list(geometry, cells)}"
    return eliminated(geometry, gone)


def _size_bonus(k: int) -> float:
    """+0.1 for each place or candidate beyond two that must each be looked at (at most
    +0.3)."""
    return min(max(k - 2, 0), 3) / 10


def _a(symbol: str) -> str:
    """``a 5``, ``an 8``, ``an 11``: the symbol with its article, as it is read."""
    return f"an {symbol}" if symbol[:1] == "8" or symbol in ("11", "18") else f"a {symbol}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
