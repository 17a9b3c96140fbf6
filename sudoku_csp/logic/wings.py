"""Wings: XY-wing, XYZ-wing and W-wing (``finder(board) -> Step | None``).

They need only "sees" (peers) and candidate masks, so they work on every geometry,
anti-knight and anti-king pairs included.
"""

from __future__ import annotations

from sudoku_csp.logic.board import Board
from sudoku_csp.logic.step import Step, eliminated
from sudoku_csp.native.state import bits


def _bivalue(board: Board) -> list[int]:
    cand = board.cand
    return [c for c in board.open_cells() if cand[c].bit_count() == 2]


def xy_wing(board: Board) -> Step | None:
    """Pivot {x,y} seeing pincers {x,z} and {y,z}: whichever the pivot is, one pincer is z,
    so z leaves every cell that sees both pincers."""
    cand, g = board.cand, board.geometry
    pairs = _bivalue(board)
    for pivot in pairs:
        xy = cand[pivot]
        wings = [c for c in pairs if c != pivot and board.sees(pivot, c)
                 and (cand[c] & xy).bit_count() == 1]
        for i, a in enumerate(wings):
            for b in wings[i + 1:]:
                z = cand[a] & ~xy
                if cand[b] & ~xy != z or cand[a] & xy == cand[b] & xy:
                    continue
                digit = bits(z)[0]
                gone = board.present([(c, digit) for c in board.seen_by_all([a, b])])
                if gone:
                    return Step("xy_wing", 0.0,
                                f"XY-wing: pivot {board.label(pivot)}, pincers "
                                f"{board.label(a)} and {board.label(b)} → eliminates "
                                f"{eliminated(g, gone)}",
                                eliminations=tuple(gone), cells=(pivot, a, b),
                                marks=((a, digit), (b, digit)))
    return None


def xyz_wing(board: Board) -> Step | None:
    """Pivot {x,y,z} seeing pincers {x,z} and {y,z}: one of the three is z, so z leaves
    every cell that sees all three."""
    cand, g = board.cand, board.geometry
    pairs = _bivalue(board)
    for pivot in board.open_cells():
        xyz = cand[pivot]
        if xyz.bit_count() != 3:
            continue
        wings = [c for c in pairs if board.sees(pivot, c) and cand[c] & ~xyz == 0]
        for i, a in enumerate(wings):
            for b in wings[i + 1:]:
                z = cand[a] & cand[b]
                if cand[a] == cand[b] or not z:
                    continue
                digit = bits(z)[0]
                gone = board.present([(c, digit) for c in board.seen_by_all([pivot, a, b])])
                if gone:
                    return Step("xyz_wing", 0.0,
                                f"XYZ-wing: pivot {board.label(pivot)}, pincers "
                                f"{board.label(a)} and {board.label(b)} → eliminates "
                                f"{eliminated(g, gone)}",
                                eliminations=tuple(gone), cells=(pivot, a, b),
                                marks=((pivot, digit), (a, digit), (b, digit)))
    return None


def w_wing(board: Board) -> Step | None:
    """Two cells {x,y} that do not see each other, joined by a strong link on x (a unit
    where x has only two places, one seeing each cell): one of them is y, so y leaves every
    cell that sees both."""
    cand, g, units = board.cand, board.geometry, board.tables.units
    pairs = _bivalue(board)
    for i, a in enumerate(pairs):
        for b in pairs[i + 1:]:
            if cand[a] != cand[b] or board.sees(a, b):
                continue
            for x in bits(cand[a]):
                y = bits(cand[a] & ~(1 << x))[0]
                gone = board.present([(c, y) for c in board.seen_by_all([a, b])])
                if not gone:
                    continue
                for u in range(len(units)):
                    ends = board.places(u, x)
                    if len(ends) != 2 or a in ends or b in ends:
                        continue
                    p, q = ends
                    if not (board.sees(a, p) and board.sees(b, q)):
                        p, q = q, p
                    if board.sees(a, p) and board.sees(b, q):
                        return Step("w_wing", 0.0,
                                    f"W-wing: {board.label(a)} and {board.label(b)} hold "
                                    f"{board.sym(x)}/{board.sym(y)}, linked by "
                                    f"{board.sym(x)} in {board.label(p)}, {board.label(q)} "
                                    f"→ eliminates {eliminated(g, gone)}",
                                    eliminations=tuple(gone), cells=(a, b, p, q),
                                    marks=((a, x), (p, x), (q, x), (b, x)), units=(u,),
                                    chain=((a, y), (a, x), (p, x), (q, x), (b, x), (b, y)))
    return None
