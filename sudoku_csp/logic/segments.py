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
never a false one. Answers are carried from step to step while the constraint's candidates
stay as they were, and a filling found once answers the same question again at once.
"""

from __future__ import annotations

from sudoku_csp.constraints import Constraint, Link
from sudoku_csp.constraints.wording import digits_of
from sudoku_csp.geometry import Candidate, Geometry
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.constraints import links_of
from sudoku_csp.logic.exact import BUDGET, Filling, supports
from sudoku_csp.logic.step import Step, cell_list, digit_list, eliminated, unit_name

__all__ = ["SEGMENT_RATING", "segment_pointing"]

SEGMENT_RATING = 2.9
"""A segment's digits pointing out of it: as pointing through the rules (2.9), whose houses
are whole constraints; here the house is the part of a constraint inside one unit, found by
weighing the constraint's combinations with its other cells."""


def _segments(geometry: Geometry, constraint: Constraint) -> list[tuple[int, tuple[int, ...]]]:
    """``(unit, cells)``: each unit holding two or more of the constraint's cells and some
    cell besides, with those cells (in the constraint's order)."""
    touched = tuple(dict.fromkeys(constraint.touched()))
    found = []
    for u, unit in enumerate(geometry.units):
        inside = set(unit.cells)
        cells = tuple(c for c in touched if c in inside)
        if 2 <= len(cells) < len(unit.cells):
            found.append((u, cells))
    return found


def _fits(filling: Filling, masks: tuple[int, ...]) -> bool:
    return all(f & ~m == 0 for f, m in zip(filling, masks, strict=True))


def _can_go_without(board: Board, links: tuple[Link, ...], cells: tuple[int, ...],
                    masks: tuple[int, ...]) -> bool | None:
    """Whether some filling of ``cells`` within ``masks`` keeps ``links`` and different
    digits in peers (None: the search gave up). Fillings found are kept for the next
    question on the same links."""
    if 0 in masks:
        return False
    shown: dict[tuple[Link, ...], list[Filling]] = board.carried.setdefault(
        "segment fillings", {})
    known = shown.setdefault(links, [])
    if any(_fits(f, masks) for f in known):
        return True
    found = supports(board.geometry, links, cells, masks, BUDGET)
    if found is None:
        return None
    kept, fillings = found
    known.extend(fillings)
    return 0 not in kept


def _needed(board: Board, links: tuple[Link, ...], cells: tuple[int, ...],
            segment: tuple[int, ...]) -> int:
    """The digits (a mask) the open cells of ``segment`` must hold, none placed in it yet:
    without each, the links cannot be kept (answers carried while the cells' candidates
    stay)."""
    masks = tuple(board.cand[c] for c in cells)
    answers: dict[tuple[tuple[Link, ...], tuple[int, ...], tuple[int, ...]], int] = (
        board.carried.setdefault("segment needs", {}))
    key = (links, segment, masks)
    if key in answers:
        return answers[key]
    placed = 0
    for c in segment:
        if not board.is_open(c):
            placed |= board.cand[c]
    offered = 0
    for c in segment:
        if board.is_open(c):
            offered |= board.cand[c]
    need = 0
    inside = {cells.index(c) for c in segment if board.is_open(c)}
    for d in digits_of(offered & ~placed):
        bit = 1 << d
        probe = tuple(m & ~bit if i in inside else m for i, m in enumerate(masks))
        if _can_go_without(board, links, cells, probe) is False:
            need |= bit
    answers[key] = need
    return need


def _seen_by_all(board: Board, places: list[int], segment: tuple[int, ...], d: int
                 ) -> list[Candidate]:
    g = board.geometry
    return [(c, d) for c in range(len(board.cand))
            if board.is_open(c) and board.cand[c] >> d & 1 and c not in segment
            and all(g.are_peers(c, p) for p in places)]


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
    g = board.geometry
    for constraint in board.constraints:
        links = links_of(g, constraint)
        if not links:
            continue
        cells = tuple(dict.fromkeys(c for link in links for c in link.cells))
        if sum(board.is_open(c) for c in cells) < 2:
            continue
        for unit, segment in _segments(g, constraint):
            open_ = [c for c in segment if board.is_open(c)]
            if len(open_) < 2 or not any(board.is_open(c) for c in g.units[unit].cells
                                         if c not in segment):
                continue
            board.check_time()
            need = _needed(board, links, cells, segment)
            gone: list[Candidate] = []
            for d in digits_of(need):
                places = [c for c in open_ if board.cand[c] >> d & 1]
                gone += _seen_by_all(board, places, segment, d)
            if gone:
                return _step(board, constraint, unit, segment, need, gone)
    return None


def _step(board: Board, constraint: Constraint, unit: int, segment: tuple[int, ...],
          need: int, gone: list[Candidate]) -> Step:
    g = board.geometry
    name = constraint.describe(g)
    name = name[:1].upper() + name[1:]
    digits = [d for d in digits_of(need) if any(e == d for _, e in gone)]
    marks = tuple((c, d) for c in segment if board.is_open(c) for d in digits
                  if board.cand[c] >> d & 1)
    them = "it" if len(digits) == 1 else "them"
    text = (f"Segment: {name} must hold {digit_list(g, digits)} in {unit_name(g, unit)} "
            f"({cell_list(g, segment)}): without {them} there it cannot be kept, with "
            f"different digits where its cells see each other → eliminates "
            f"{eliminated(g, gone)}")
    return Step("segment_pointing", 0.0, text, eliminations=tuple(sorted(gone)),
                cells=segment, marks=marks, units=(unit,))
