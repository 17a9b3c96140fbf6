"""Where suppositions lead by the static forcing chains' rules and by Nishio's, on masks:
the facts each implies without the reasons they come from, so that the tracked reasoner of
:mod:`sudoku_csp.logic.forcing` (which keeps them, to word and measure an argument) is run
only on the suppositions that conclude something: a contradiction, or a fact shared by all
the cases of a double implication, a cell or a region.

The rules are the :class:`~sudoku_csp.logic.forcing.Reasoner`'s static ones: on(c, d) ⇒
off for the cell's other candidates, the digit in its peers and the constraints' weak links;
off(c, d) ⇒ on for the other candidate of a bivalue cell and the other place of the digit
in a unit where it has two. A contradiction: a fact and its opposite, an open cell with
every candidate off, a unit with every place of a digit not placed there off. The facts
that follow from a supposition, and whether they hold a contradiction, do not depend on the
order they are met, so the reasoner (which stops at the first contradiction) finds one
exactly where these closures do, and otherwise the same facts.
"""

from __future__ import annotations

from sudoku_csp.geometry import Candidate, bits
from sudoku_csp.logic.board import Board
from sudoku_csp.logic.constraints import linked_mask, weak_links

__all__ = ["Closure", "digit_forbids", "nishio_suspects", "shares", "static_closures"]

Closure = tuple[int, int] | None
"""The facts a supposition implies, itself included, as two masks over candidates (bit
``cell * size + digit``): those on, those off; None when they hold a contradiction."""


def static_closures(board: Board, lits: list[int]) -> dict[int, Closure]:
    """Per supposition of ``lits`` (literals as the reasoner writes them: ``(cell * size +
    digit) * 2 + on``, each about a candidate of an open cell), its :data:`Closure`.

    >>> from sudoku_csp import parse
    >>> b = Board.from_puzzle(parse("12.." "...." "...." "...."))
    >>> on_a3_3, off_a3_3 = (2 * 4 + 2) * 2 + 1, (2 * 4 + 2) * 2
    >>> closed = static_closures(b, [on_a3_3, off_a3_3])
    >>> b.unmask(closed[off_a3_3][0])   # A3 then holds 4, and A4 the 3
    [(2, 3), (3, 2)]
    """
    n, cand, done = board.size, board.cand, board.state.done
    opens, holders = board.open_candidates(), board.holders()
    weak = weak_links(board)
    memo: dict[Candidate, int] = board.cached("weak sets", dict)   # pointing's masks too
    cell_units = board.tables.cell_units
    unit_masks = board.layout.unit_masks
    size = len(cand) * n
    on_implies = [0] * size  # candidate -> the candidates then off
    off_implies = [0] * size  # candidate -> the candidates then on
    units_of: list[tuple[int, ...]] = [()] * size  # its digit's places in its units
    cell_bit = [0] * size  # candidate -> its cell, as a mask of cells

    for i in bits(opens):
        c, d = divmod(i, n)
        bit = 1 << d
        cell_bit[i] = 1 << c
        on_implies[i] = linked_mask(board, weak, (c, d), memo)
        then = 0
        if cand[c].bit_count() == 2:
            then |= (cand[c] & ~bit) << (c * n)
        places = []
        for u in cell_units[c]:
            if done[u] & bit:
                continue
            here = unit_masks[u] & holders[d]
            places.append(here)
            if here.bit_count() == 2:
                other = (here & ~(1 << c)).bit_length() - 1
                then |= 1 << (other * n + d)
        off_implies[i] = then
        units_of[i] = tuple(places)

    # An open cell is left with no candidate when its field (n bits) of the candidates not
    # ruled out is empty: a field is nonzero when adding its low bits to all-ones below its
    # top bit carries into that bit, or the top bit is set (no carry leaves a field).
    low = open_top = 0
    for c in range(len(cand)):
        low |= ((1 << (n - 1)) - 1) << (c * n)
        if opens >> (c * n) & ((1 << n) - 1):
            open_top |= 1 << (c * n + n - 1)
    fields = (opens, low, open_top)
    tables = (on_implies, off_implies, units_of, cell_bit)

    # An off fact that forces one on fact is implied back by it (off_implies comes from a
    # bivalue cell or a unit with two places, whose other candidate, once on, rules this one
    # out), so the two lead to the same facts: the on fact's closure serves both.
    found: dict[int, Closure] = {}
    for lit in lits:
        then = 0 if lit & 1 else off_implies[lit >> 1]
        if then and not then & (then - 1):
            on_lit = (then.bit_length() - 1) << 1 | 1
            if on_lit not in found:
                found[on_lit] = _close(on_lit, n, tables, fields)
            found[lit] = found[on_lit]
        elif lit not in found:
            found[lit] = _close(lit, n, tables, fields)
    return {lit: found[lit] for lit in lits}


def _close(lit: int, n: int, tables: tuple[list[int], list[int], list[tuple[int, ...]],
                                            list[int]],
           fields: tuple[int, int, int]) -> Closure:
    # Whether a cell or a unit is left empty does not depend on the order the off facts of
    # one round are met, so each round checks the cells at once, and the last off fact of a
    # unit to be met checks it (bit loops inlined: the static forcing chains' hot loop).
    on_implies, off_implies, units_of, cell_bit = tables
    opens, low, open_top = fields
    on = off = 0
    new_on, new_off = (1 << (lit >> 1), 0) if lit & 1 else (0, 1 << (lit >> 1))
    off_cells = [0] * n  # digit -> the cells it is off in
    while new_on or new_off:
        on |= new_on
        off |= new_off
        if on & off:
            return None
        more_off = more_on = 0
        while new_on:
            bit = new_on & -new_on
            more_off |= on_implies[bit.bit_length() - 1]
            new_on ^= bit
        if new_off:
            left = opens & ~off
            if (((left & low) + low) | left) & open_top != open_top:
                return None  # no candidate left in a cell
        while new_off:
            bit = new_off & -new_off
            new_off ^= bit
            i = bit.bit_length() - 1
            d = i % n
            gone = off_cells[d] = off_cells[d] | cell_bit[i]
            for places in units_of[i]:
                if not places & ~gone:
                    return None  # no place left for the digit in a unit
            more_on |= off_implies[i]
        new_on, new_off = more_on & ~on, more_off & ~off
    return on, off


def shares(closures: dict[int, Closure], cases: list[int]) -> bool:
    """Whether the cases (one of which holds) are all supposed, none contradicts, and they
    imply some fact in common beyond themselves: what a double implication, a cell or a
    region forcing chain needs."""
    found = [closures.get(lit) for lit in cases]
    if any(f is None for f in found):
        return False
    on = off = -1
    for f in found:
        assert f is not None
        on &= f[0]
        off &= f[1]
    for lit in cases:
        if lit & 1:
            on &= ~(1 << (lit >> 1))
        else:
            off &= ~(1 << (lit >> 1))
    return bool(on | off)


def digit_forbids(board: Board) -> dict[int, dict[int, int]]:
    """The constraints' weak links between the candidates of one digit: digit -> cell ->
    the cells where the digit is then ruled out (a mask)."""
    found: dict[int, dict[int, int]] = {}
    for (c, d), linked in weak_links(board).items():
        mask = sum(1 << x for x, e in linked if e == d)
        if mask:
            found.setdefault(d, {})[c] = mask
    return found


def nishio_suspects(board: Board, digit: int, cells: list[int], forbids: dict[int, int]
                    ) -> list[int]:
    """Those of ``cells`` where supposing ``digit`` leads to a contradiction by Nishio's
    rules (a :class:`~sudoku_csp.logic.forcing.Reasoner` of the digit), found on masks of
    cells without the facts' reasons, so that only they are followed again with them (a
    contradiction is found exactly where the reasoner finds one: see the module).
    ``forbids``: the digit's weak links, as :func:`digit_forbids` gives them."""
    bit, peers, done = 1 << digit, board.tables.peer_masks, board.state.done
    holders = board.holders()[digit]
    live = [m & holders for u, m in enumerate(board.layout.unit_masks) if not done[u] & bit]
    found = []
    for cell in cells:
        on = off = 0
        new = 1 << cell
        while new:
            on |= new
            for x in bits(new):
                off |= peers[x] & holders | forbids.get(x, 0)
            new = 0
            if off & on:
                break
            for places in live:
                if places & off:
                    left = places & ~off
                    if not left:
                        new = -1  # a unit with no place left
                        break
                    if not left & (left - 1) and not left & on:
                        new |= left
            if new == -1:
                break
        if off & on or new == -1:
            found.append(cell)
    return found
