"""A constraint's cells in one unit, its segment there, and the digits the segment must hold.

A little killer's diagonal crosses two or three boxes; its cells inside one box hold
different digits, and the clue less what the other segments can add up to bounds this
segment's sum. A setter reads the segment's digits from that: under a 47 along six cells of
two boxes, each box's three cells add up to at least 47 − 24 = 23, so they hold 8 and 9
(6, 8, 9 or 7, 8, 9), and no other cell of the box can. An arrow's shaft across two boxes,
a thermometer's cells in a row, a cage across a box border read the same way.

``segment_pointing`` asks, for each constraint and each unit holding two or more of its
open cells and some open cell besides, which digits the segment cannot go without: with a
digit taken out of the segment's cells, no filling of the constraint's cells keeps its
links and different digits where cells see each other (the exact search of
:func:`~sudoku_csp.logic.exact.supports`). Such a digit lies in the segment, so every cell
outside it that sees each of its places there loses it. The search is bounded
(:data:`~sudoku_csp.logic.exact.BUDGET` nodes): a question it cannot settle makes no step,
never a false one. ``segment_overlap`` reads two constraints together the same way (those
that share a cell, or have two or more cells each in one unit): two little killers crossing
in a box may need a 9 among their cells there that neither needs alone. Answers are carried
from step to step while the constraint's candidates stay as they were, and a filling found
once answers the same question again at once.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache, partial

from sudoku_csp.constraints import Constraint, Link
from sudoku_csp.constraints.wording import digits_of
from sudoku_csp.geometry import Candidate, Geometry
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.constraints import links_of, title
from sudoku_csp.logic.exact import BUDGET, MOST_CELLS, Filling, read_together, supports
from sudoku_csp.logic.step import Step, cell_list, digit_list, eliminated, unit_name
from sudoku_csp.native.rules import unit_digits

__all__ = ["MOST_CELLS", "MOST_UNIT_CELLS", "OVERLAP_RATING", "SEGMENT_RATING",
           "UNIT_RATING", "segment_overlap", "segment_pointing", "segment_unit", "segments_of"]

SEGMENT_RATING = 2.9
"""A segment's digits pointing out of it: as pointing through the rules (2.9), whose houses
are whole constraints; here the house is the part of a constraint inside one unit, found by
weighing the constraint's combinations with its other cells."""

OVERLAP_RATING = 3.2
"""Two constraints' segments in one unit read together: as two overlapping constraints read
together (``constraint_overlap``, 3.2), which it follows."""

UNIT_RATING = 3.3
"""Two constraints read with a whole unit they both reach: after reading them together
without it (``segment_overlap``, 3.2), before a hidden pair (3.4)."""

# Constraints over more cells than exact.MOST_CELLS together are not read (the exact
# search would mostly give up), as for ``constraint_overlap``.

MOST_UNIT_CELLS = 16
"""Two constraints and a unit over more cells than this together are not read."""


@lru_cache(maxsize=1024)
def segments_of(geometry: Geometry, touched: tuple[int, ...]
                ) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """``(unit, cells)``: each unit holding two or more of ``touched`` (no cell twice) and
    some cell besides, with those cells (in the order of ``touched``), in the units' order.

    >>> from sudoku_csp import make_geometry
    >>> segments_of(make_geometry(4), (0, 5, 10))   # A1, B2, C3: box 1 holds two
    ((8, (0, 5)),)
    """
    found = []
    for u, unit in enumerate(geometry.units):
        inside = set(unit.cells)
        cells = tuple(c for c in touched if c in inside)
        if 2 <= len(cells) < len(unit.cells):
            found.append((u, cells))
    return tuple(found)


def _fits(filling: Filling, masks: tuple[int, ...]) -> bool:
    return all(f & ~m == 0 for f, m in zip(filling, masks, strict=True))


def _needed(board: Board, links: tuple[Link, ...], cells: tuple[int, ...],
            segment: tuple[int, ...]) -> int:
    """The digits (a mask) the open cells of ``segment`` must hold, none placed in it yet:
    with each taken out of them, no filling of ``cells`` keeps ``links`` and different
    digits in peers. A filling found (kept for the links while it fits the candidates)
    shows at once that the digits it leaves out of the segment are not needed; the answer
    is carried while the cells' candidates stay."""
    masks = tuple(board.cand[c] for c in cells)
    answers: dict[tuple[tuple[Link, ...], tuple[int, ...]], tuple[tuple[int, ...], int]] = (
        board.carried.setdefault("segment needs", {}))
    asked = answers.get((links, segment))
    if asked is not None and asked[0] == masks:
        return asked[1]
    shown: dict[tuple[Link, ...], list[Filling]] = board.carried.setdefault(
        "segment fillings", {})
    known = shown.setdefault(links, [])
    known[:] = [f for f in known if _fits(f, masks)]  # candidates only go: the rest never fit
    index = {c: i for i, c in enumerate(cells)}
    where = [index[c] for c in segment if board.is_open(c)]
    placed = offered = 0
    for c in segment:
        if board.is_open(c):
            offered |= board.cand[c]
        else:
            placed |= board.cand[c]
    free = 0   # digits some filling leaves out of the segment
    for filling in known:
        held = 0
        for i in where:
            held |= filling[i]
        free |= ~held
    need = 0
    for d in digits_of(offered & ~placed & ~free):
        bit = 1 << d
        if free & bit:
            continue
        probe = tuple(m & ~bit if i in where else m for i, m in enumerate(masks))
        found = None if 0 in probe else supports(board.geometry, links, cells, probe, BUDGET,
                                                 first=True)
        if found is None:
            if 0 in probe:
                need |= bit
            continue   # given up: not known to be needed
        kept, fillings = found
        if 0 in kept:
            need |= bit
            continue
        known.extend(fillings)
        for filling in fillings:
            held = 0
            for i in where:
                held |= filling[i]
            free |= ~held
    answers[(links, segment)] = (masks, need)
    return need


def segment_pointing(board: Board) -> Step | None:
    """The open cells of a constraint inside one unit must hold a digit (without it the
    constraint cannot be kept, its cells read with different digits where they see each
    other); every cell outside them that sees each of the digit's places among them loses
    it.

    >>> from sudoku_csp import EMPTY, make_geometry
    >>> from sudoku_csp.constraints import LittleKiller
    >>> from sudoku_csp.puzzle import Puzzle
    >>> clue = LittleKiller((0, 5, 10, 15), "down-right", 13)    # A1 + B2 + C3 + D4 = 13
    >>> board = Board.from_puzzle(Puzzle(make_geometry(4), (EMPTY,) * 16, constraints=(clue,)))
    >>> segment_pointing(board).text  # doctest: +NORMALIZE_WHITESPACE
    'Segment: Little killer 13 down-right from A1 must hold 4 in box 1 (A1, B2): without it
    there it cannot be kept, with different digits where its cells see each other →
    eliminates 4 from A2, B1'
    """
    if not board.constraints:
        return None
    return _pointing(board, _plans(board.geometry, board.constraints, False),
                     "segment_pointing")


def segment_overlap(board: Board) -> Step | None:
    """As :func:`segment_pointing`, with two constraints that share cells read together:
    the open cells of both inside one unit must hold a digit (two little killers crossing
    in a box: without a 9 among their cells there, not both can be kept). Two constraints
    are read together when they share a cell or each has two or more cells in one unit.

    >>> from sudoku_csp import EMPTY, make_geometry
    >>> from sudoku_csp.constraints import LittleKiller
    >>> from sudoku_csp.puzzle import Puzzle
    >>> one = LittleKiller((0, 5, 10, 15), "down-right", 13)     # A1 + B2 + C3 + D4 = 13
    >>> two = LittleKiller((1, 4), "down-left", 3)   # A2 + B1 = 3: box 1's 1, 2; so A1, B2
    >>> # hold 3 and 4, and C3 + D4 = 6: 2 and 4
    >>> board = Board.from_puzzle(Puzzle(make_geometry(4), (EMPTY,) * 16,
    ...                                  constraints=(one, two)))
    >>> segment_overlap(board).text  # doctest: +NORMALIZE_WHITESPACE
    'Segment: Little killer 13 down-right from A1 and little killer 3 down-left from A2 must
    hold 2/4 in box 4 (C3, D4): without them there not both can be kept, with different
    digits where their cells see each other → eliminates 2/4 from C4, D3'
    """
    if not board.constraints:
        return None
    return _pointing(board, _plans(board.geometry, board.constraints, True),
                     "segment_overlap")


@lru_cache(maxsize=64)
def _pairs(geometry: Geometry, constraints: tuple[Constraint, ...]
           ) -> tuple[tuple[Constraint, ...], ...]:
    """The pairs of constraints read together: those that share a cell, and those with two
    or more cells each in one unit (worked out once per puzzle)."""
    touched = [set(c.touched()) for c in constraints]
    found: list[tuple[Constraint, ...]] = []
    for i, a in enumerate(constraints):
        for j in range(i + 1, len(constraints)):
            if not touched[i].isdisjoint(touched[j]) or any(
                    len(touched[i].intersection(u.cells)) >= 2
                    and len(touched[j].intersection(u.cells)) >= 2 for u in geometry.units):
                found.append((a, constraints[j]))
    return tuple(found)


Plan = tuple[tuple[Constraint, ...], tuple[Link, ...], tuple[int, ...],
             tuple[tuple[int, tuple[int, ...]], ...]]
"""What is read together: the constraints, their links, the links' cells and the segments
(unit, cells) of the constraints' cells."""


@lru_cache(maxsize=64)
def _plans(geometry: Geometry, constraints: tuple[Constraint, ...], pairs: bool
           ) -> tuple[Plan, ...]:
    """Each constraint (or each pair read together) with its links, their cells, at most
    :data:`MOST_CELLS` of them, and its segments (worked out once per puzzle)."""
    plans = []
    for group in _pairs(geometry, constraints) if pairs else [(c,) for c in constraints]:
        links = tuple(link for constraint in group for link in links_of(geometry, constraint))
        cells = tuple(dict.fromkeys(c for link in links for c in link.cells))
        if not links or len(cells) > MOST_CELLS:
            continue
        segments = segments_of(geometry, cells)   # the cells its links read (a kind may
        # touch more: a renban's windows read some of its cells only)
        if segments:
            plans.append((group, links, cells, segments))
    return tuple(plans)


def _pointing(board: Board, plans: tuple[Plan, ...], key: str) -> Step | None:
    """The first step of ``key``: the constraints of a plan read together, a digit their
    open cells in one unit must hold, and the cells it leaves. A plan that gave no step is
    not read again while its cells' candidates stay (its targets' candidates only go)."""
    g = board.geometry
    quiet: dict[tuple[Link, ...], tuple[int, ...]] = board.carried.setdefault(
        f"{key} quiet", {})
    for group, links, cells, segments in plans:
        masks = tuple(board.cand[c] for c in cells)
        if quiet.get(links) == masks or sum(board.is_open(c) for c in cells) < 2:
            continue
        for unit, segment in segments:
            open_ = [c for c in segment if board.is_open(c)]
            if len(open_) < 2 or not any(board.is_open(c) for c in g.units[unit].cells
                                         if c not in segment):
                continue
            board.check_time()
            need = _needed(board, links, cells, segment)
            gone: list[Candidate] = []
            for d in digits_of(need):
                places = [c for c in open_ if board.cand[c] >> d & 1]
                gone += board.present([(c, d) for c in board.seen_by_all(places)
                                       if c not in segment])
            if gone:
                return _step(board, key, group, unit, segment, need, gone)
        quiet[links] = masks
    return None


def _step(board: Board, key: str, group: tuple[Constraint, ...], unit: int,
          segment: tuple[int, ...], need: int, gone: list[Candidate]) -> Step:
    g = board.geometry
    name = " and ".join(constraint.describe(g) for constraint in group)
    name = name[:1].upper() + name[1:]
    digits = [d for d in digits_of(need) if any(e == d for _, e in gone)]
    marks = tuple((c, d) for c in segment if board.is_open(c) for d in digits
                  if board.cand[c] >> d & 1)
    them = "it" if len(digits) == 1 else "them"
    kept, its = ("it cannot be kept", "its") if len(group) == 1 else (
        "not both can be kept", "their")
    text = (f"Segment: {name} must hold {digit_list(g, digits)} in {unit_name(g, unit)} "
            f"({cell_list(g, segment)}): without {them} there {kept}, with different "
            f"digits where {its} cells see each other → eliminates {eliminated(g, gone)}")
    return Step(key, 0.0, text, eliminations=tuple(sorted(gone)),
                cells=segment, marks=marks, units=(unit,))


def _once_each(full: int, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """A whole unit's rule beyond different digits: each digit of ``full`` has a place (a
    digit with one place left is put there). Complete on singles with different digits
    between the unit's cells (its cells are peers: the search keeps those apart)."""
    if len(masks) < full.bit_count():
        return None
    seen, once = unit_digits(masks)
    if seen != full:
        return None
    out = list(masks)
    for i, m in enumerate(masks):
        hit = m & once
        if hit:
            if hit & (hit - 1):   # two digits with their one place in this cell
                return None
            out[i] = hit
    return tuple(out)


@lru_cache(maxsize=256)
def _unit_link(geometry: Geometry, unit: int, full: int) -> Link:
    """The link of ``unit``: its cells hold each digit once (one object per unit, so that
    fillings and answers carried under it are found again)."""
    return Link(geometry.units[unit].cells, partial(_once_each, full))


UnitPlan = tuple[Constraint, Constraint, int, tuple[Link, ...]]
"""Two constraints, a unit both reach and the links read together: both constraints' and
the unit's."""


@lru_cache(maxsize=64)
def _unit_plans(geometry: Geometry, constraints: tuple[Constraint, ...], full: int
                ) -> tuple[UnitPlan, ...]:
    """Each pair of constraints with a unit that holds two or more cells of each (of their
    links: a segment of each), at most :data:`MOST_UNIT_CELLS` cells together (worked out
    once per puzzle)."""
    read = [(c, links, frozenset(x for link in links for x in link.cells))
            for c in constraints if (links := links_of(geometry, c))]
    plans = []
    for i, (a, a_links, a_cells) in enumerate(read):
        for b, b_links, b_cells in read[i + 1:]:
            for u, unit in enumerate(geometry.units):
                inside = set(unit.cells)
                if (len(a_cells & inside) < 2 or len(b_cells & inside) < 2
                        or len(a_cells | b_cells | inside) > MOST_UNIT_CELLS):
                    continue
                plans.append((a, b, u, a_links + b_links + (_unit_link(geometry, u, full),)))
    return tuple(plans)


def _unit_words(geometry: Geometry, first: Constraint, second: Constraint, unit: int
                ) -> str:
    name = f"{title(geometry, first)} and {title(geometry, second)}"
    return (f"Segment: {name}, read with {unit_name(geometry, unit)} "
            f"(each digit once there) and different digits where their cells see each "
            f"other: no way to keep both")


def segment_unit(board: Board) -> Step | None:
    """Two constraints with two or more cells each in one unit, read together with the
    whole unit (its cells hold each digit once): every candidate of their cells and the
    unit's that no joint filling uses goes. An arrow whose shaft enters a box beside a little
    killer's segment there: the digits the two take in the box must leave the box's other
    cells a place for each digit.

    >>> from sudoku_csp import EMPTY, make_geometry
    >>> from sudoku_csp.constraints import Arrow
    >>> from sudoku_csp.puzzle import Puzzle
    >>> one = Arrow((2,), ((2, 1, 0),))    # A3 = A2 + A1
    >>> two = Arrow((3,), ((3, 2, 7),))    # A4 = A3 + B4: row A is 1, 2 (either way), 3, 4
    >>> board = Board.from_puzzle(Puzzle(make_geometry(4), (EMPTY,) * 16,
    ...                                  constraints=(one, two)))
    >>> segment_unit(board).text  # doctest: +NORMALIZE_WHITESPACE
    'Segment: Arrow from A3 (A1, A2, A3) and Arrow from A4 (A3, A4, B4), read with row A (each
    digit once there) and different digits where their cells see each other: no way to keep
    both uses these → eliminates 1 from A3, A4; 2 from A3, A4, B4; 3 from A1, A2, A4, B4; 4
    from A1, A2, A3, B4'
    """
    if len(board.constraints) < 2:
        return None
    g = board.geometry
    quiet: dict[tuple[Link, ...], tuple[int, ...]] = board.carried.setdefault(
        "segment_unit quiet", {})
    for first, second, unit, links in _unit_plans(g, board.constraints, board.tables.full):
        masks = tuple(board.cand[c] for link in links for c in link.cells)
        if quiet.get(links) == masks:   # nothing found on these candidates before
            continue
        board.check_time()
        step = read_together(board, "segment_unit", links,
                             partial(_unit_words, g, first, second, unit))
        if step is not None:
            return replace(step, units=(unit,))
        quiet[links] = masks
    return None
