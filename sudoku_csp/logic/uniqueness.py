"""Uniqueness techniques: unique rectangles (types 1–4) and BUG (types 1 and 2).

They assume the puzzle has exactly one solution: a pattern that could be completed in two
ways (a "deadly pattern": two digits swapped around a rectangle of two rows, two columns and
two boxes, or every open cell bivalue) would give a second solution, so it cannot happen.
The explainer runs them only on puzzles it has checked to be unique (or never, when told),
and only on geometries whose rules are rows, columns and boxes or regions: a diagonal or an
anti-knight pair could forbid the swap and break the argument. Every step says so
(``uniqueness=True``).
"""

from __future__ import annotations

from itertools import combinations, product

from sudoku_csp.geometry import bits
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.step import Step, cell_list, digit_list, eliminated


def _rectangles(board: Board):
    """(corners, a, b): four open cells on two rows, two columns and two boxes, each with
    the candidates a and b. Corners in the order (r1c1, r1c2, r2c1, r2c2)."""
    if not board.layout.plain:
        return
    g, cand, n = board.geometry, board.cand, board.size
    boxes = g.boxes
    for r1, r2 in combinations(range(n), 2):
        board.check_time()
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


def _step(board: Board, kind: int, corners, a: int, b: int, gone, extra: str = "",
          bonus: float = 0.0) -> Step:
    g = board.geometry
    return Step("unique_rectangle", 0.0,
                f"Unique rectangle type {kind}: {cell_list(g, corners)} on "
                f"{digit_list(g, (a, b))}{extra} → eliminates {eliminated(g, gone)}",
                eliminations=tuple(gone), cells=tuple(corners),
                marks=tuple((c, d) for c in corners for d in (a, b)), uniqueness=True,
                bonus=bonus)


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
    form a naked subset of j + 1 digits, which leave the rest of that unit. Sudoku
    Explainer adds 0.1 per cell of the subset."""
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
                             f"{digit_list(board.geometry, digits)})",
                             bonus=j / 10)
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


BUG_SEARCH_LIMIT = 512
"""Ways of choosing the extra candidates of the non-bivalue cells tried before giving up
(a BUG pattern has a handful of such cells; a board far from one has many)."""


def _bug_extras(board: Board) -> list[tuple[int, int]] | None:
    """The candidates that keep the pencil marks from a BUG (bivalue universal grave: every
    open cell bivalue and every digit twice in each unit where it is not placed), or None
    when removing no set of them would make one. A unique puzzle cannot reach a BUG (it
    has two solutions), so one of these candidates is true."""
    if not board.layout.plain:
        return None
    cand, units, n = board.cand, board.tables.units, board.size
    wide = []
    for c in board.open_cells():
        count = cand[c].bit_count()
        if count < 2:
            return None
        if count > 2:
            wide.append(c)
    if not wide:
        return None
    places = {(u, d): len(board.places(u, d)) for u in range(len(units)) for d in range(n)
              if not board.is_done(u, d)}
    if any(count < 2 for count in places.values()):
        return None
    cell_units = board.geometry.cell_units
    # A candidate can be extra only where its digit has more than two places in every unit
    # of the cell.
    options = []
    total = 1
    for c in wide:
        movable = [d for d in bits(cand[c])
                   if all(places[(u, d)] > 2 for u in cell_units[c])]
        choices = list(combinations(movable, cand[c].bit_count() - 2))
        if not choices:
            return None
        total *= len(choices)
        if total > BUG_SEARCH_LIMIT:
            return None
        options.append(choices)
    excess = {key: count - 2 for key, count in places.items() if count > 2}
    for chosen in product(*options):
        removed: dict[tuple[int, int], int] = {}
        for c, extra in zip(wide, chosen, strict=True):
            for d in extra:
                for u in cell_units[c]:
                    removed[(u, d)] = removed.get((u, d), 0) + 1
        if removed == excess:
            return [(c, d) for c, extra in zip(wide, chosen, strict=True) for d in extra]
    return None


def bug_plus_one(board: Board) -> Step | None:
    """BUG type 1: the extra candidates (see :func:`_bug_extras`) all lie in one cell, so
    that cell holds one of them. With one extra (BUG+1) that places it."""
    extras = _bug_extras(board)
    if not extras or len({c for c, _ in extras}) != 1:
        return None
    cell = extras[0][0]
    keep = [d for _, d in extras]
    g = board.geometry
    marks = tuple(extras)
    if len(keep) == 1:
        return Step("bug_plus_one", 0.0,
                    f"BUG+1: every open cell but {board.label(cell)} is bivalue, and "
                    f"{board.sym(keep[0])} would have three places in its units → "
                    f"{board.label(cell)}",
                    placements=((cell, keep[0]),), cells=(cell,), marks=marks,
                    uniqueness=True)
    gone = board.present([(cell, d) for d in bits(board.cand[cell]) if d not in keep])
    return Step("bug_plus_one", 0.0,
                f"BUG type 1: without {digit_list(g, keep)} in {board.label(cell)} every "
                f"open cell would be bivalue and every digit twice in each unit → "
                f"eliminates {eliminated(g, gone)}",
                eliminations=tuple(gone), cells=(cell,), marks=marks, uniqueness=True)


def bug_type_2(board: Board) -> Step | None:
    """BUG type 2: the extra candidates (see :func:`_bug_extras`) are one digit in several
    cells; one of them is true, so the digit leaves every cell that sees them all."""
    extras = _bug_extras(board)
    if not extras or len({d for _, d in extras}) != 1:
        return None
    digit = extras[0][1]
    cells = [c for c, _ in extras]
    gone = board.present([(c, digit) for c in board.seen_by_all(cells)])
    if not gone:
        return None
    g = board.geometry
    return Step("bug_type_2", 0.0,
                f"BUG type 2: without {board.sym(digit)} in {cell_list(g, cells)} every "
                f"open cell would be bivalue and every digit twice in each unit → "
                f"eliminates {eliminated(g, gone)}",
                eliminations=tuple(gone), cells=tuple(cells), marks=tuple(extras),
                uniqueness=True)
