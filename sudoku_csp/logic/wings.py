"""Wings: XY-wing, XYZ-wing, W-wing and the larger WXYZ- … TUVWXYZ-wings
(``finder(board) -> Step | None``).

They need only "sees" (peers) and candidate masks, so they work on every geometry,
anti-knight and anti-king pairs included.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from sudoku_csp.geometry import bits
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.step import Step, cell_list, digit_list, eliminated


def _bivalue(board: Board) -> list[int]:
    cand = board.cand
    return [c for c in board.open_cells() if cand[c].bit_count() == 2]


def xy_wing(board: Board) -> Step | None:
    """Pivot {x,y} seeing pincers {x,z} and {y,z}: whichever the pivot is, one pincer is z,
    so z leaves every cell that sees both pincers."""
    cand, g = board.cand, board.geometry
    pairs = _bivalue(board)
    for pivot in pairs:
        board.check_time()
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
        board.check_time()
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
        board.check_time()
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


ALS_WING_NAMES = {3: "WXYZ-wing", 4: "VWXYZ-wing", 5: "UVWXYZ-wing", 6: "TUVWXYZ-wing"}
ALS_WING_KEYS = {3: "wxyz_wing", 4: "vwxyz_wing", 5: "uvwxyz_wing", 6: "tuvwxyz_wing"}


def _locked_sets(board: Board, size: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """(cells, digits): ``size`` open cells of one unit, each with at least two candidates,
    holding ``size + 1`` digits between them (an almost locked set). Each set once."""
    cand, seen = board.cand, set()
    limit = size + 1

    def grow(pool: list[int], start: int, chosen: list[int], mask: int
             ) -> Iterator[tuple[tuple[int, ...], int]]:
        if len(chosen) == size:
            if mask.bit_count() == limit:
                yield tuple(chosen), mask
            return
        for i in range(start, len(pool)):
            union = mask | cand[pool[i]]
            if union.bit_count() <= limit:
                chosen.append(pool[i])
                yield from grow(pool, i + 1, chosen, union)
                chosen.pop()

    for cells in board.tables.units:
        board.check_time()
        pool = [c for c in cells if board.is_open(c) and 2 <= cand[c].bit_count() <= limit]
        for found in grow(pool, 0, [], 0):
            if found[0] not in seen:
                seen.add(found[0])
                yield found


def _wing_bonus(size: int, widest: int) -> float:
    """Sukaku Explainer's refinement by the largest candidate count among the set's cells:
    a WXYZ-wing rates 5.5–5.6 and a VWXYZ-wing 6.2–6.4, highest when that count is 3; the
    larger wings have one rating."""
    spread = {3: 1, 4: 2}.get(size)
    return 0.0 if spread is None else round((spread - abs(3 - widest)) / 10, 1)


def als_wing(size: int) -> Callable[[Board], Step | None]:
    """A finder for the wing of an almost locked set of ``size`` cells and a bivalue cell
    {x, z} (Sukaku Explainer's WXYZ-wing for three cells, up to TUVWXYZ-wing for six).

    Every x of the set sees the bivalue cell, so if that cell is x the set loses x and is
    locked on its other digits, z among them: either way z is in the bivalue cell or the
    set, and leaves every cell that sees all those z. When z is restricted as well, the set
    and the cell share the two digits between them and every other digit of the set is
    locked in it too.
    """
    key, name = ALS_WING_KEYS[size], ALS_WING_NAMES[size]

    def find(board: Board) -> Step | None:
        cand, g = board.cand, board.geometry
        pairs = _bivalue(board)
        best: tuple[float, int, Step] | None = None
        for cells, digits in _locked_sets(board, size):
            board.check_time()
            where = {d: [c for c in cells if cand[c] >> d & 1] for d in bits(digits)}
            for pivot in pairs:
                if cand[pivot] & ~digits or pivot in cells:
                    continue
                restricted = [d for d in bits(cand[pivot])
                              if all(board.sees(c, pivot) for c in where[d])]
                if not restricted:
                    continue
                targets = [(d, where[d] + [pivot]) for d in bits(cand[pivot])
                           if len(restricted) == 2 or d not in restricted]
                if len(restricted) == 2:
                    targets += [(d, where[d]) for d in bits(digits & ~cand[pivot])]
                gone = board.present([(c, d) for d, seen in targets
                                      for c in board.seen_by_all(seen)
                                      if c not in cells and c != pivot])
                if not gone:
                    continue
                bonus = _wing_bonus(size, max(cand[c].bit_count() for c in cells))
                if best is not None and (bonus, -len(gone)) >= best[:2]:
                    continue
                x = digit_list(g, restricted)
                step = Step(key, 0.0,
                            f"{name}: {cell_list(g, cells)} hold "
                            f"{digit_list(g, bits(digits))}, {board.label(pivot)} holds "
                            f"{digit_list(g, bits(cand[pivot]))}, restricted on {x} → "
                            f"eliminates {eliminated(g, gone)}",
                            eliminations=tuple(gone), cells=(*cells, pivot),
                            marks=tuple((c, d) for c in (*cells, pivot)
                                        for d in bits(cand[c])),
                            bonus=bonus)
                best = (bonus, -len(gone), step)
        return best[2] if best else None

    find.__doc__ = f"The {name}: an almost locked set of {size} cells and a bivalue cell."
    return find
