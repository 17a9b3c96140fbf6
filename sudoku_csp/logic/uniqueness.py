"""Uniqueness techniques: unique rectangles (types 1–4) and BUG+1.

They assume the puzzle has exactly one solution: a pattern that could be completed in two
ways (a "deadly pattern": two digits swapped around a rectangle of two rows, two columns and
two boxes, or every open cell bivalue) would give a second solution, so it cannot happen.
The explainer runs them only on puzzles it has checked to be unique (or never, when told),
and only on geometries whose rules are rows, columns and boxes or regions: a diagonal or an
anti-knight pair could forbid the swap and break the argument. Every step says so
(``uniqueness=True``).
"""

from __future__ import annotations

from itertools import combinations

from sudoku_csp.logic.board import Board
from sudoku_csp.logic.step import Step, cell_list, digit_list, eliminated
from sudoku_csp.native.state import bits


def _rectangles(board: Board):
    """(corners, a, b): four open cells on two rows, two columns and two boxes, each with
    the candidates a and b. Corners in the order (r1c1, r1c2, r2c1, r2c2)."""
    if not board.layout.plain:
        return
    g, cand, n = board.geometry, board.cand, board.size
    boxes = g.boxes
    for r1, r2 in combinations(range(n), 2):
        for c1, c2 in combinations(range(n), 2):
            corners = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
            if len({boxes[c] for c in corners}) != 2:
                continue
            if not all(board.is_open(c) for c in corners):
                continue
            common = cand[corners[0]] & cand[corners[1]] & cand[corners[2]] & cand[corners[3]]
            if common.bit_count() < 2:
                continue
            for a, b in combinations(bits(common), 2):
                yield corners, a, b


def _shared_units(board: Board, cells: list[int]) -> list[int]:
    return [u for u in board.geometry.cell_units[cells[0]]
            if all(u in board.geometry.cell_units[c] for c in cells[1:])]


def _step(board: Board, kind: int, corners, a: int, b: int, gone, extra: str = "") -> Step:
    g = board.geometry
    return Step("unique_rectangle", 0.0,
                f"Unique rectangle type {kind}: {cell_list(g, corners)} on "
                f"{digit_list(g, (a, b))}{extra} → eliminates {eliminated(g, gone)}",
                eliminations=tuple(gone), cells=tuple(corners),
                marks=tuple((c, d) for c in corners for d in (a, b)), uniqueness=True)


def unique_rectangle(board: Board) -> Step | None:
    """Types 1 to 4 of the unique rectangle, simplest first for each rectangle."""
    cand = board.cand
    for corners, a, b in _rectangles(board):
        ab = 1 << a | 1 << b
        roof = [c for c in corners if cand[c] != ab]
        floor = [c for c in corners if cand[c] == ab]
        if len(roof) == 1:  # type 1: the roof cell cannot be a or b
            gone = board.present([(roof[0], a), (roof[0], b)])
            if gone:
                return _step(board, 1, corners, a, b, gone)
        if len(roof) != 2 or len(floor) != 2:
            continue
        extras = [cand[c] & ~ab for c in roof]
        if extras[0] == extras[1] and extras[0].bit_count() == 1:  # type 2
            x = bits(extras[0])[0]
            gone = board.present([(c, x) for c in board.seen_by_all(roof)])
            if gone:
                return _step(board, 2, corners, a, b, gone,
                             f" (one of {cell_list(board.geometry, roof)} is {board.sym(x)})")
        for u in _shared_units(board, roof):
            step = _type3(board, corners, a, b, roof, u) or _type4(board, corners, a, b, roof, u)
            if step is not None:
                return step
    return None


def _type3(board: Board, corners, a: int, b: int, roof: list[int], u: int) -> Step | None:
    """The roof's extra digits act as one cell: with j other cells of a shared unit they
    form a naked subset of j + 1 digits, which leave the rest of that unit."""
    cand = board.cand
    ab = 1 << a | 1 << b
    extra = (cand[roof[0]] | cand[roof[1]]) & ~ab
    others = [c for c in board.tables.units[u] if c not in roof and board.is_open(c)]
    for j in range(1, 4):
        for group in combinations(others, j):
            union = extra
            for c in group:
                union |= cand[c]
            if union.bit_count() != j + 1:
                continue
            digits = bits(union)
            gone = board.present([(c, d) for c in others if c not in group for d in digits])
            if gone:
                return _step(board, 3, corners, a, b, gone,
                             f" (roof extras with {cell_list(board.geometry, group)} hold "
                             f"{digit_list(board.geometry, digits)})")
    return None


def _type4(board: Board, corners, a: int, b: int, roof: list[int], u: int) -> Step | None:
    """One of a, b has only the two roof cells in a shared unit: it goes in one of them, so
    the other digit of the pair leaves both."""
    for keep, drop in ((a, b), (b, a)):
        if sorted(board.places(u, keep)) == sorted(roof):
            gone = board.present([(c, drop) for c in roof])
            if gone:
                return _step(board, 4, corners, a, b, gone,
                             f" ({board.sym(keep)} is locked in {cell_list(board.geometry, roof)})")
    return None


def bug_plus_one(board: Board) -> Step | None:
    """Every open cell bivalue but one, which has three candidates: were it reduced to two,
    each digit would have exactly two places in each unit and the puzzle two solutions. So
    the digit of that cell that would be one place too many in its units is its digit."""
    if not board.layout.plain:
        return None
    cand, units = board.cand, board.tables.units
    odd = [c for c in board.open_cells() if cand[c].bit_count() != 2]
    if len(odd) != 1 or cand[odd[0]].bit_count() != 3:
        return None
    cell = odd[0]
    for d in bits(cand[cell]):
        if all(len(board.places(u, d)) == 3 for u in board.geometry.cell_units[cell]):
            for u in range(len(units)):
                for e in range(board.size):
                    expected = 3 if e == d and cell in units[u] else 2
                    if not board.is_done(u, e) and len(board.places(u, e)) != expected:
                        return None
            return Step("bug_plus_one", 0.0,
                        f"BUG+1: every open cell but {board.label(cell)} is bivalue, and "
                        f"{board.sym(d)} would have three places in its units → "
                        f"{board.label(cell)}",
                        placements=((cell, d),), cells=(cell,), marks=((cell, d),),
                        uniqueness=True)
    return None
