"""The law of leftovers, for irregular (jigsaw) regions: a set of rows (or columns) and as
many regions hold the same digits, each digit once per row, once per region; take away the
cells they share, and the cells the rows have outside those regions hold the same digits as
the cells the regions have outside those rows.

For every band of ``k`` consecutive rows or columns (``k`` up to :data:`MOST_LINES`), the
regions with more than half their cells inside it are taken; when there are ``k`` of them
and each side has a few cells left over (at most :data:`MOST_LEFT`), each leftover cell
keeps only the digits some leftover cell of the other side can hold. Standard boxes leave
nothing over (a band of three rows holds three whole boxes), so only jigsaw grids get
steps.
"""

from __future__ import annotations

from sudoku_csp.constraints.wording import digits_of
from sudoku_csp.geometry import LINE_KINDS, Candidate, UnitKind
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.step import Step, cell_list, eliminated, unit_name

__all__ = ["LEFTOVERS_RATING", "MOST_LEFT", "MOST_LINES", "leftovers"]

LEFTOVERS_RATING = 2.8
"""The law of leftovers on one row or column (as claiming: a line read against regions);
+0.1 for each further line of the band."""

MOST_LINES = 4
"""The widest band of lines read."""

MOST_LEFT = 4
"""The most cells left over on each side for a step (more say little and read badly)."""


def leftovers(board: Board) -> Step | None:
    """Cells a band of lines leaves out of as many regions hold what the regions leave out
    of the band: each keeps only digits the other side can hold (narrowest band first)."""
    g = board.geometry
    regions = [u for u in board.layout.boxes if g.units[u].kind == UnitKind.REGION]
    if not regions:
        return None
    cells_of = {u: set(g.units[u].cells) for u in regions}
    for k in range(1, MOST_LINES + 1):
        for kind in LINE_KINDS:
            lines = sorted((u for u, unit in enumerate(g.units) if unit.kind == kind),
                           key=lambda u: g.units[u].index)
            for first in range(len(lines) - k + 1):
                board.check_time()
                band_units = lines[first:first + k]
                band = {c for u in band_units for c in g.units[u].cells}
                chosen = [u for u in regions if 2 * len(cells_of[u] & band) > g.size]
                if len(chosen) != k:
                    continue
                inside = set().union(*(cells_of[u] for u in chosen))
                left, right = sorted(band - inside), sorted(inside - band)
                if not left or len(left) > MOST_LEFT or len(right) > MOST_LEFT:
                    continue
                gone = _narrowed(board, left, right) + _narrowed(board, right, left)
                if gone:
                    return _step(board, band_units, chosen, left, right, sorted(set(gone)), k)
    return None


def _narrowed(board: Board, cells: list[int], others: list[int]) -> list[Candidate]:
    """The candidates of open ``cells`` that no cell of ``others`` can hold."""
    held = 0
    for c in others:
        held |= board.cand[c]
    return [(c, d) for c in cells if board.is_open(c) for d in digits_of(board.cand[c] & ~held)]


def _step(board: Board, lines: list[int], regions: list[int], left: list[int],
          right: list[int], gone: list[Candidate], k: int) -> Step:
    g = board.geometry
    kind = f"{g.units[lines[0]].kind}s" if k > 1 else str(g.units[lines[0]].kind)
    names = ", ".join(unit_name(g, u).split()[-1] for u in lines)
    regions_named = ", ".join(unit_name(g, u).split()[-1] for u in regions)
    plural = "s" if k > 1 else ""
    return Step(
        "leftovers", 0.0,
        f"Law of leftovers: {kind} {names} and region{plural} {regions_named} hold the same "
        f"digits, so {cell_list(g, left)} (in the {kind}, not the region{plural}) hold what "
        f"{cell_list(g, right)} (in the region{plural}, not the {kind}) hold → eliminates "
        f"{eliminated(g, gone)}",
        eliminations=tuple(gone), cells=(*left, *right), units=(*lines, *regions),
        bonus=(k - 1) / 10)
