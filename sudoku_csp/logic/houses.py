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
  out beside every candidate of one cell is false.

Fish through the rules read two or three houses together (:mod:`sudoku_csp.logic.fish`).

Weak links are the units', the grid's extra "must differ" pairs and the constraints'
(:func:`~sudoku_csp.logic.constraints.weak_links`), as the chains use them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from sudoku_csp.constraints import Constraint, Link
from sudoku_csp.constraints.translation import link_words
from sudoku_csp.constraints.wording import digits_of
from sudoku_csp.geometry import Candidate, Geometry
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.constraints import (
    WeakLinks,
    joint_links,
    linked_mask,
    links_of,
    weak_links,
)
from sudoku_csp.logic.step import Link as ChainLink
from sudoku_csp.logic.step import Step, cell_list, eliminated, unit_name
from sudoku_csp.native.rules import naked_sets

SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}

__all__ = ["CELL_FORCING_RATING", "POINTING_RATING", "RULE_SINGLE_RATING", "House", "houses",
           "rule_cell_forcing", "rule_hidden_single", "rule_pointing", "rule_subset",
           "weak_reason"]

RULE_SINGLE_RATING = 2.2
"""A hidden single among a constraint's cells: as weighing a constraint's combinations
(2.2), and tried after them, since knowing which digits a constraint must hold is weighing
its combinations."""
POINTING_RATING = 2.9
"""Pointing through the rules: after claiming (2.8), the last of the locked candidates, as
each place must be checked against a rule of the variant rather than one line; +0.1 for
each place beyond two (at most +0.3)."""
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
        words = link_words(link) or name
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


def _common(board: Board, extra: WeakLinks, sources: list[Candidate]
            ) -> tuple[list[Candidate], list[str]]:
    """The candidates weakly linked to every one of ``sources`` (one of which is true),
    and the reasons used (without repeats, the grid's own left out)."""
    memo: dict[Candidate, int] = board.cached("weak sets", dict)
    found = linked_mask(board, extra, sources[0], memo)
    for source in sources[1:]:
        if not found:
            break
        found &= linked_mask(board, extra, source, memo)
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
