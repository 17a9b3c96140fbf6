"""Singles, locked candidates, naked and hidden subsets (and Sudoku Explainer's "direct"
forms of locked candidates and hidden subsets), and basic fish.

Subsets and locked candidates are found by the native solver's own pattern finders
(:func:`~sudoku_csp.native.rules.naked_sets`, :func:`~sudoku_csp.native.rules.hidden_sets`,
:func:`~sudoku_csp.native.rules.locked_sets`); this module only words them as steps.
Every finder has the contract ``finder(board) -> Step | None`` and returns a step only if it
changes the pencil marks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

from sudoku_csp.geometry import BOX_KINDS, Candidate, UnitKind, bits
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.step import Step, cell_list, digit_list, eliminated, unit_name
from sudoku_csp.native.rules import hidden_sets, locked_sets, naked_sets, unit_digits

SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}
FISH_NAMES = {2: "X-wing", 3: "Swordfish", 4: "Jellyfish"}


def full_house(board: Board) -> Step | None:
    """The last open cell of a unit takes the unit's missing digit."""
    state, masks = board.state, board.layout.unit_masks
    placed = state.placed
    for u in board.layout.single_order:
        open_cells = masks[u] & ~placed
        if open_cells and not open_cells & (open_cells - 1):
            cell = open_cells.bit_length() - 1
            missing = board.tables.full & ~state.done[u]
            if missing & board.cand[cell] and not missing & (missing - 1):
                digit = bits(missing)[0]
                return Step("full_house", 0.0,
                            f"Full house: {board.sym(digit)} in {unit_name(board.geometry, u)}"
                            f" → {board.label(cell)}",
                            placements=((cell, digit),), cells=(cell,), units=(u,))
    return None


def _hidden_single(board: Board, units: tuple[int, ...], technique: str) -> Step | None:
    cand, getters, done = board.cand, board.tables.getters, board.state.done
    for u in units:
        hidden = unit_digits(getters[u](cand))[1] & ~done[u]
        if hidden:
            digit = bits(hidden)[0]
            cell = board.places(u, digit)[0]
            return Step(technique, 0.0,
                        f"Hidden single: {board.sym(digit)} in {unit_name(board.geometry, u)}"
                        f" → {board.label(cell)}",
                        placements=((cell, digit),), cells=(cell,), units=(u,),
                        marks=((cell, digit),))
    return None


def hidden_single_box(board: Board) -> Step | None:
    """A digit with one place left in a box (or jigsaw region) goes there."""
    return _hidden_single(board, board.layout.boxes, "hidden_single_box")


def hidden_single_line(board: Board) -> Step | None:
    """A digit with one place left in a row or column (or diagonal, window) goes there."""
    lay = board.layout
    return _hidden_single(board, lay.rows + lay.columns + lay.others, "hidden_single_line")


def naked_single(board: Board) -> Step | None:
    """An open cell with one candidate left takes it."""
    cand = board.cand
    for cell in board.open_cells():
        m = cand[cell]
        if m and not m & (m - 1):
            digit = m.bit_length() - 1
            return Step("naked_single", 0.0,
                        f"Naked single: {board.label(cell)} can only be {board.sym(digit)}",
                        placements=((cell, digit),), cells=(cell,), marks=((cell, digit),))
    return None


def _locked_steps(board: Board, pointing: bool) -> Iterator[Step]:
    lay, g = board.layout, board.geometry
    units = lay.boxes + lay.others if pointing else lay.rows + lay.columns + lay.others
    for u, (cells, rest, v), digits in locked_sets(board.state, units):
        if pointing != (g.units[u].kind in BOX_KINDS or g.units[u].kind == UnitKind.WINDOW):
            continue
        for d in bits(digits):
            gone = board.present([(c, d) for c in rest])
            if gone:
                name = "Pointing" if pointing else "Claiming"
                yield Step(
                    "pointing" if pointing else "claiming", 0.0,
                    f"{name}: {board.sym(d)} in {unit_name(g, u)} lies in "
                    f"{unit_name(g, v)} → eliminates {eliminated(g, gone)}",
                    eliminations=tuple(gone), cells=tuple(cells),
                    marks=tuple((c, d) for c in cells if board.cand[c] >> d & 1),
                    units=(u, v))


def _locked(board: Board, pointing: bool) -> Step | None:
    return next(_locked_steps(board, pointing), None)


def pointing(board: Board) -> Step | None:
    """A digit confined, within a box, to one line leaves the rest of that line."""
    return _locked(board, True)


def claiming(board: Board) -> Step | None:
    """A digit confined, within a line, to one box leaves the rest of that box."""
    return _locked(board, False)


def _naked(board: Board, k: int) -> Step | None:
    g, cand = board.geometry, board.cand
    for u, unit in enumerate(board.tables.units):
        board.check_time()
        for group, union in naked_sets(cand, unit, k):
            if union.bit_count() != k:
                continue
            digits = bits(union)
            gone = board.present([(c, d) for c in unit if c not in group for d in digits])
            if gone:
                return Step(
                    f"naked_{SUBSET_NAMES[k]}", 0.0,
                    f"Naked {SUBSET_NAMES[k]}: {cell_list(g, group)} hold "
                    f"{digit_list(g, digits)} in {unit_name(g, u)} → eliminates "
                    f"{eliminated(g, gone)}",
                    eliminations=tuple(gone), cells=group, units=(u,),
                    marks=tuple((c, d) for c in group for d in digits if cand[c] >> d & 1))
    return None


def _hidden_steps(board: Board, k: int) -> Iterator[Step]:
    g, cand, getters = board.geometry, board.cand, board.tables.getters
    for u, unit in enumerate(board.tables.units):
        board.check_time()
        for where, digits in _unit_hidden(getters[u](cand), k, board.size):
            cells = tuple(unit[i] for i in where)
            if len(cells) != k:
                continue
            keep = bits(digits)
            gone = board.present([(c, d) for c in cells for d in bits(cand[c] & ~digits)])
            if gone:
                yield Step(
                    f"hidden_{SUBSET_NAMES[k]}", 0.0,
                    f"Hidden {SUBSET_NAMES[k]}: {digit_list(g, keep)} in {unit_name(g, u)} "
                    f"only in {cell_list(g, cells)} → eliminates {eliminated(g, gone)}",
                    eliminations=tuple(gone), cells=cells, units=(u,),
                    marks=tuple((c, d) for c in cells for d in keep if cand[c] >> d & 1))


@lru_cache(maxsize=1 << 14)
def _unit_hidden(masks: tuple[int, ...], k: int, size: int
                 ) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The hidden sets of a unit whose cells hold ``masks``, the cells as places in the
    unit: worked out once for these masks, since most units do not change from one step to
    the next."""
    return tuple(hidden_sets(masks, range(len(masks)), k, size))


def _hidden(board: Board, k: int) -> Step | None:
    return next(_hidden_steps(board, k), None)


def _single_after(board: Board, gone: tuple[Candidate, ...]) -> tuple[int, int, int] | None:
    """(unit, cell, digit): an eliminated digit left with one place in a unit holding one of
    the cells it left, were the eliminations made."""
    cand = board.cand
    left = {c: cand[c] for c, _ in gone}
    for c, d in gone:
        left[c] &= ~(1 << d)
    units = board.tables.units
    for c, d in gone:
        for u in board.tables.cell_units[c]:
            if board.is_done(u, d):
                continue
            places = [x for x in units[u] if left.get(x, cand[x]) >> d & 1]
            if len(places) == 1:
                return u, places[0], d
    return None


def _direct(board: Board, key: str, steps: Iterator[Step]) -> Step | None:
    """Sudoku Explainer's "direct" forms: the first of ``steps`` whose eliminations leave a
    hidden single, made at once (rated below the naked single, as it is seen without
    writing pencil marks)."""
    for step in steps:
        found = _single_after(board, step.eliminations)
        if found is not None:
            u, cell, d = found
            pattern, _, gone = step.text.partition(" → ")
            return dataclasses.replace(
                step, technique=key,
                text=f"Direct {pattern[0].lower()}{pattern[1:]}, so {board.sym(d)} has one "
                     f"place left in {unit_name(board.geometry, u)} → {board.label(cell)} "
                     f"({gone})",
                placements=((cell, d),), units=(*step.units, u))
    return None


def direct_pointing(board: Board) -> Step | None:
    """Pointing whose eliminations leave a hidden single, which is placed."""
    return _direct(board, "direct_pointing", _locked_steps(board, True))


def direct_claiming(board: Board) -> Step | None:
    """Claiming whose eliminations leave a hidden single, which is placed."""
    return _direct(board, "direct_claiming", _locked_steps(board, False))


def direct_hidden_pair(board: Board) -> Step | None:
    """A hidden pair whose eliminations leave a hidden single, which is placed."""
    return _direct(board, "direct_hidden_pair", _hidden_steps(board, 2))


def direct_hidden_triple(board: Board) -> Step | None:
    """A hidden triple whose eliminations leave a hidden single, which is placed."""
    return _direct(board, "direct_hidden_triple", _hidden_steps(board, 3))


def _fish(board: Board, k: int) -> Step | None:
    """Basic fish of order k on rows (base) and columns (cover), then the other way."""
    lay, g, cand = board.layout, board.geometry, board.cand
    units = board.tables.units
    for base_units, cover_units in ((lay.rows, lay.columns), (lay.columns, lay.rows)):
        for d in range(board.size):
            board.check_time()
            bit = 1 << d
            lines = []  # (base unit, bitmask of positions along it)
            for u in base_units:
                if board.is_done(u, d):
                    continue
                where = 0
                for i, c in enumerate(units[u]):
                    if cand[c] & bit:
                        where |= 1 << i
                if 2 <= where.bit_count() <= k:
                    lines.append((u, where))
            for combo in combinations(lines, k):
                cover = 0
                for _, where in combo:
                    cover |= where
                if cover.bit_count() != k:
                    continue
                bases = [u for u, _ in combo]
                covers = [cover_units[i] for i in bits(cover)]
                inside = {c for u in bases for c in units[u]}
                gone = board.present([(c, d) for v in covers for c in units[v]
                                      if c not in inside])
                if gone:
                    corners = sorted(c for u in bases for c in units[u] if cand[c] & bit)
                    names = ", ".join(unit_name(g, u).split()[1] for u in bases)
                    cover_names = ", ".join(unit_name(g, v).split()[1] for v in covers)
                    kind = g.units[bases[0]].kind
                    other = g.units[covers[0]].kind
                    return Step(
                        FISH_NAMES[k].lower().replace("-", "_"), 0.0,
                        f"{FISH_NAMES[k]} on {board.sym(d)} in {kind}s {names} "
                        f"({other}s {cover_names}) → eliminates {eliminated(g, gone)}",
                        eliminations=tuple(gone), cells=tuple(corners),
                        marks=tuple((c, d) for c in corners), units=tuple(bases + covers))
    return None


def naked_pair(board: Board) -> Step | None:
    """Two cells of a unit holding the same two digits own them."""
    return _naked(board, 2)


def naked_triple(board: Board) -> Step | None:
    """Three cells of a unit holding three digits between them own them."""
    return _naked(board, 3)


def naked_quad(board: Board) -> Step | None:
    """Four cells of a unit holding four digits between them own them."""
    return _naked(board, 4)


def hidden_pair(board: Board) -> Step | None:
    """Two digits with the same two places in a unit: those cells hold nothing else."""
    return _hidden(board, 2)


def hidden_triple(board: Board) -> Step | None:
    """Three digits confined to three cells of a unit: those cells hold nothing else."""
    return _hidden(board, 3)


def hidden_quad(board: Board) -> Step | None:
    """Four digits confined to four cells of a unit: those cells hold nothing else."""
    return _hidden(board, 4)


def x_wing(board: Board) -> Step | None:
    """A digit whose places in two rows lie in the same two columns leaves the rest of
    those columns (and the same with rows and columns swapped)."""
    return _fish(board, 2)


def swordfish(board: Board) -> Step | None:
    """The three-line fish."""
    return _fish(board, 3)


def jellyfish(board: Board) -> Step | None:
    """The four-line fish."""
    return _fish(board, 4)
