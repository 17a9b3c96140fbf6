"""Sums over groups of cells that see each other: the summing kinds read with the units.

A sum along a diagonal, an arrow's shaft or a line may repeat a digit where no unit forbids
it, but its cells that share a box (or a row, a column, any unit) hold different digits.
Read cell by cell (:mod:`sudoku_csp.constraints.automaton`) the sum cannot see that: three
cells of a box under a 7 may then hold 1, 1 and 5, and it is the units that refuse them one
cell at a time. Read group by group, each group's digits a *set* (the cage's digit sets,
:func:`~sudoku_csp.constraints.cage_sums.combinations_for`), the sum knows that a group of
three adds up to 6 at least, and which sets make each of its sums.

A :class:`GroupSum` is ``Σ sign · (sum of a group) = total`` over groups of cells that are
peers two by two (:func:`exclusion_groups` finds them), each with a sign (an arrow: its
shaft's groups less its circle; a little killer: its diagonal's box segments), written
for the sat backend when the ``line_sums`` option says ``groups``:

- CNF (:meth:`GroupSum.clauses`): per group of two or more cells a variable per digit set
  that fits some sum (the cage's ``combos`` clauses, :func:`~sudoku_csp.constraints.
  cage_sums.combo_clauses`) and a variable per sum ("the group adds up to v") tied to its
  sets; a single cell's sum is its digit. Then an automaton over the groups' sums
  (:meth:`~sudoku_csp.constraints.automaton.Automaton.clauses` on those variables): unit
  propagation follows the running sum both ways.

The native backend reads these sums cell by cell
(:class:`~sudoku_csp.constraints.cage_sums.LinearSum`), CP-SAT as a linear sum: the units
keep each group's digits apart there. A little killer adds a joint link read by groups
(:class:`GroupLinearSum`: each group's sums from its placements of different digits, then
the reachable partial sums over the groups).

In CNF a little killer's sum is written on bounds by default
(:mod:`sudoku_csp.constraints.sum_bounds`); ``line_sums`` then reads arrows alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from sudoku_csp.constraints.automaton import Automaton, build
from sudoku_csp.constraints.cage_sums import LinearSum, combo_clauses, group_sets
from sudoku_csp.constraints.remembered import state_cache
from sudoku_csp.constraints.translation import Clause, CnfContext, EncodingOption
from sudoku_csp.geometry import Geometry

__all__ = ["EXACT_MOST", "LINE_SUMS", "GroupLinearSum", "GroupSum", "exclusion_groups",
           "group_sets", "placements", "set_supports", "sets_adding_to", "split_supports"]

LINE_SUMS = EncodingOption(
    "line_sums", "cells", "sums along lines and diagonals (arrows; little killers with "
    "sum_bounds=off): cells (an automaton over the cells' values) or groups (the digit sets "
    "of each run of cells that see each other, then the running sum over the runs)",
    ("cells", "groups"),
    "line-sum encoding")
"""How the sat backend writes a sum whose digits may repeat (the kind's automaton, or
:class:`GroupSum`'s clauses). ``cells`` by measurement: on 15 generated little killers of
few givens ``groups`` took 1.35x the median time and 1.3x the 90th percentile, mixed on
arrows and on published puzzles (examples/uniqueness_benchmark.py)."""

EXACT_MOST = 9
""":func:`set_supports` holds a digit set against groups of up to so many cells exactly
(every group of a 9x9 line: a sandwich's cells outside its crusts, an X-sum's first X);
larger ones as a cage narrows (each cell some digit of the set, the set within the cells'
digits), which is sound and cheaper. Exact on the seven cells outside a sandwich's crusts
measured 192 -> 122 search nodes on a generated sandwich puzzle of few givens."""


def exclusion_groups(geometry: Geometry, cells: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """``cells`` cut into groups of cells that are peers two by two, greedily in order: each
    cell joins the first group it sees all of, else starts one.

    >>> from sudoku_csp.variants import make_geometry
    >>> exclusion_groups(make_geometry(9), (0, 10, 20, 30, 40))   # a diagonal: two boxes
    ((0, 10, 20), (30, 40))
    """
    groups: list[list[int]] = []
    for cell in cells:
        for group in groups:
            if all(geometry.are_peers(cell, other) for other in group):
                group.append(cell)
                break
        else:
            groups.append([cell])
    return tuple(tuple(g) for g in groups)


@lru_cache(maxsize=1024)
def sets_adding_to(size: int, total: int, n: int) -> tuple[int, ...]:
    """The sets of ``size`` different digits of an ``n``-digit grid whose values add up to
    ``total``, as digit bitmasks in the order of :func:`group_sets` (``group_sets(size,
    n).get(total, ())``), found without listing the sets of every other sum: a clue's
    sets on a 25-digit grid are tens of thousands where every set of 12 digits is over
    five million (a 25x25 sandwich then took 84 s and 1.4 GB to narrow once).

    >>> [bin(m) for m in sets_adding_to(2, 4, 4)]    # 1+3
    ['0b101']
    >>> sets_adding_to(0, 0, 9), sets_adding_to(3, 5, 9)
    ((0,), ())
    """
    found: list[int] = []

    def pick(start: int, left: int, rest: int, mask: int) -> None:
        if not left:
            if not rest:
                found.append(mask)
            return
        for d in range(start, n - left + 1):
            value = d + 1
            if left * value + left * (left - 1) // 2 > rest:
                break  # the least completion (value and the next ones) is too much
            if value + (left - 1) * (2 * n - left + 2) // 2 >= rest:  # the top ones reach
                pick(d + 1, left - 1, rest - value, mask | 1 << d)

    pick(0, size, total, 0)
    return tuple(found)


@state_cache(maxsize=1 << 16)
def set_supports(combo: int, masks: tuple[int, ...], exact: int = EXACT_MOST
                 ) -> tuple[int, ...] | None:
    """Each cell's digits in some placement of the set ``combo`` over cells of candidates
    ``masks`` (one digit each, all different; as many cells as the set has digits), or
    ``None`` when there is none: exactly up to ``exact`` cells, beyond as a cage narrows
    (sound, not complete). Sandwiches, X-sums and renban lines read their digit sets here.

    >>> [bin(m) for m in set_supports(0b111, (0b011, 0b011, 0b111))]   # 3 goes last
    ['0b11', '0b11', '0b100']
    >>> set_supports(0b111, (0b001, 0b001, 0b111)) is None             # 1 twice
    True
    """
    return _supports(combo, tuple(m & combo for m in masks), exact)


def split_supports(combos: Sequence[int], inner: tuple[int, ...], outer: tuple[int, ...],
                   digits: int) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """A line of a unit cut in two: the ``inner`` cells hold one of the digit sets
    ``combos``, the ``outer`` cells the rest of ``digits`` (none: no outer cells read).
    Each cell's digits over the sets both parts can hold (:func:`set_supports`), inner and
    outer; ``None`` for the inner ones when no set fits (the outer then ``None`` too, or
    when there are no outer cells).

    >>> inner, outer = (0b0011, 0b1111), (0b1111, 0b0100)   # the outer 3 rules out 1+3
    >>> [[bin(m) for m in part] for part in split_supports((0b0011, 0b0101), inner, outer,
    ...                                                    0b1111)]
    [['0b11', '0b11'], ['0b1000', '0b100']]
    """
    union, common = 0, -1
    for combo in combos:
        union |= combo
        common &= combo
    most_in = tuple(m & union for m in inner)
    most_out = tuple(m & digits & ~common for m in outer)
    fits = beyond = None
    for combo in combos:
        support = set_supports(combo, inner) if inner else ()
        if support is None:
            continue
        if outer:
            others = set_supports(digits & ~combo, outer)
            if others is None:
                continue
            beyond = others if beyond is None else tuple(
                a | b for a, b in zip(beyond, others, strict=True))
        fits = support if fits is None else tuple(
            a | b for a, b in zip(fits, support, strict=True))
        if fits == most_in and (not outer or beyond == most_out):
            break  # all a set can keep is kept already: the others cannot add to it
    return fits, beyond


@state_cache(maxsize=1 << 16)
def _supports(combo: int, masks: tuple[int, ...], exact: int) -> tuple[int, ...] | None:
    """:func:`set_supports` on candidates already within ``combo``, exact up to ``exact``
    cells: the sets of digits the first cells can take, forward, then
    back from the whole set, each cell keeping the digits of the steps that lead there.
    A layer of sets is one integer, bit ``s`` for the set of digit mask ``s``
    (:func:`_set_tables`), so a cell's step is a shift per digit. The digits are first
    renumbered by their rank in ``combo``: the layers then have ``2**k`` bits for a set of
    ``k`` digits, whatever the grid's size (a 25-digit grid's masks would otherwise make
    layers of ``2**25`` bits, tables of hundreds of megabytes)."""
    union = 0
    for m in masks:
        if not m:
            return None
        union |= m
    if union != combo:
        return None
    if len(masks) > exact:
        return masks
    digits = [1 << d for d in range(combo.bit_length()) if combo >> d & 1]
    if len(digits) != len(masks):
        return None  # one digit a cell, all different: as many cells as digits
    ranked = tuple(sum(1 << r for r, bit in enumerate(digits) if m & bit) for m in masks)
    without, within = _set_tables(len(digits))
    layer = 1  # the empty set
    layers = [layer]
    for m in ranked:
        reached = 0
        while m:
            bit = m & -m
            m ^= bit
            reached |= (layer & without[bit.bit_length() - 1]) << bit
        if not reached:
            return None
        layer = reached
        layers.append(layer)
    whole = (1 << len(digits)) - 1
    if not layer >> whole & 1:
        return None
    found = [0] * len(masks)
    alive = 1 << whole
    for i in range(len(masks) - 1, -1, -1):
        m, before, back = ranked[i], layers[i], 0
        while m:
            bit = m & -m
            m ^= bit
            came = (alive & within[bit.bit_length() - 1]) >> bit & before
            if came:
                found[i] |= digits[bit.bit_length() - 1]
                back |= came
        alive = back
    return tuple(found)


@lru_cache(maxsize=16)
def _set_tables(n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per digit ``d < n``, the sets of digits (bit ``s``: the digit mask ``s``, of
    ``2**n``) without ``d``, and those with it."""
    size = 1 << n
    without = []
    for d in range(n):
        pattern, span = (1 << (1 << d)) - 1, 2 << d  # 2**d sets without d, then 2**d with
        while span < size:
            pattern |= pattern << span
            span *= 2
        without.append(pattern)
    everything = (1 << size) - 1
    return tuple(without), tuple(everything & ~w for w in without)


@dataclass(frozen=True)
class GroupSum:
    """``Σ signs[i] · (the sum of groups[i]) = total``: each group's cells are peers two by
    two (so their digits differ), ``signs`` are +1 or -1.

    >>> s = GroupSum(((0, 1, 2), (3,)), (1, -1), 0, 9)   # A1+A2+A3 = A4
    >>> s.chain().edges[0][0][1] + 1     # A1..A3 add up to 6 at least
    6
    """

    groups: tuple[tuple[int, ...], ...]
    signs: tuple[int, ...]
    total: int
    size: int
    """The grid's size ``N`` (digits ``0..N-1``)."""

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(c for group in self.groups for c in group)

    def _sums(self) -> tuple[tuple[int, ...], ...]:
        """Per group, the sums its digits can make (any set)."""
        return tuple(tuple(group_sets(len(g), self.size)) for g in self.groups)

    # -- CNF ------------------------------------------------------------------------------
    def chain(self) -> Automaton:
        """The automaton over the groups' sums (symbol ``v - 1`` for a sum of ``v``), its
        state the signed running sum."""
        n = self.size
        sums = self._sums()
        most = max(max(s) for s in sums)
        lows = [min(s) for s in sums]
        highs = [max(s) for s in sums]
        signs, total, count = self.signs, self.total, len(sums)
        # What the groups still to read can add, at least and at most, after each position.
        ahead_low = [0] * (count + 1)
        ahead_high = [0] * (count + 1)
        for i in range(count - 1, -1, -1):
            lo, hi = (lows[i], highs[i]) if signs[i] > 0 else (-highs[i], -lows[i])
            ahead_low[i], ahead_high[i] = ahead_low[i + 1] + lo, ahead_high[i + 1] + hi
        possible = [set(s) for s in sums]

        def step(partial: int, position: int, value: int) -> int | None:
            if value not in possible[position]:
                return None
            partial += signs[position] * value
            if not ahead_low[position + 1] <= total - partial <= ahead_high[position + 1]:
                return None
            return partial

        key = ("group sum", n, tuple(len(g) for g in self.groups), signs, total)
        return build(key, count, most, 0, step, lambda state: state == total)

    def clauses(self, ctx: CnfContext) -> Iterator[Clause]:
        """Per group of two or more cells its digit sets and a variable per sum, then the
        automaton over the groups' sums (see the module docstring)."""
        n, x = ctx.geometry.size, ctx.x
        automaton = self.chain()
        if automaton.empty:
            yield ()
            return
        read: list[dict[int, int]] = []  # per group: its sum -> literal
        for i, group in enumerate(self.groups):
            if len(group) == 1:
                read.append({d + 1: x(group[0], d) for d in range(n)})
                continue
            wanted = {d + 1 for _, d, _ in automaton.edges[i]}
            table = group_sets(len(group), n)
            combos = [c for total in sorted(wanted) for c in table[total]]
            sets: list[int] = []
            yield from combo_clauses(ctx, group, combos, (), sets)
            lits = {total: ctx.new_var() for total in sorted(wanted)}
            for s, c in zip(sets, combos, strict=True):
                yield (-s, lits[_value(c)])
            for total, lit in lits.items():
                yield (-lit, *(s for s, c in zip(sets, combos, strict=True)
                               if _value(c) == total))
            read.append(lits)
        yield from automaton.clauses(ctx, self.cells, lambda i, d: read[i].get(d + 1))


def _value(combo: int) -> int:
    """The sum of the values (digit + 1) of a digit set."""
    return sum(d + 1 for d in range(combo.bit_length()) if combo >> d & 1)


class GroupLinearSum(LinearSum):
    """``Σ signs[i] · (the sum of group i) = total``, each group's cells different digits
    (peers two by two), narrowed natively: per group the sums its cells can make with
    different digits and, per sum, each cell's digits in some such placement; then the
    groups' reachable partial sums as bitsets, forward and back (as
    :class:`~sudoku_csp.constraints.cage_sums.LinearSum` does cell by cell). Each cell keeps
    the digits of some placement of its group whose sum the other groups complete:
    generalised arc consistency for the sum read by groups (exact for groups of up to
    :data:`EXACT_MOST` cells; larger ones as a cage narrows). It keeps no more than
    :class:`~sudoku_csp.constraints.cage_sums.LinearSum` over the same cells, and less when
    a group's digits would have to repeat: under a 6, three cells of a box hold 1, 2 and 3,
    never 1, 1 and 4.

    ``sizes``: the groups' sizes; the masks ``narrow`` takes are the groups' cells one
    group after another (:attr:`GroupSum.cells`).

    >>> s = GroupLinearSum((2, 1), (1, 1), 6)   # A1+A2 (peers) + C3 = 6
    >>> s.narrow((0b1111, 0b1111, 0b1111))      # 1+2 with 3, 1+3 with 2, 1+4 with 1
    (15, 15, 7)
    >>> s.narrow((0b0001, 0b1111, 0b0001))      # A1 = 1, C3 = 1: A2 is 4, not 1 again
    (1, 8, 1)
    """

    __slots__ = ("sizes", "_negative")

    def __init__(self, sizes: Sequence[int], signs: Sequence[int], total: int) -> None:
        super().__init__(signs, total)  # its narrow: this _narrow, answers remembered
        self.sizes = tuple(sizes)
        ends = [sum(self.sizes[:i + 1]) for i in range(len(self.sizes))]
        self._negative = tuple((end - size, end) for end, size, sign
                               in zip(ends, self.sizes, self.signs, strict=True) if sign < 0)

    def _narrow(self, masks: tuple[int, ...]) -> tuple[int, ...] | None:
        tables: list[dict[int, tuple[int, ...]]] = []
        reach = []
        bias = 0
        if self._negative:  # shifts stay at or above 0: each negative group's sum at most
            for first, end in self._negative:
                bias += sum(m.bit_length() for m in masks[first:end])
        here = 1 << bias
        start = 0
        for size, sign in zip(self.sizes, self.signs, strict=True):
            part = masks[start:start + size]
            start += size
            table = placements(part)
            tables.append(table)
            reach.append(here)
            nxt = 0
            if sign > 0:
                for v in table:
                    nxt |= here << v
            else:
                for v in table:
                    nxt |= here >> v
            if not nxt:
                return None
            here = nxt
        goal = self.total + bias
        if goal < 0 or not here >> goal & 1:
            return None
        back = 1 << goal
        out: list[int] = []
        for i in range(len(tables) - 1, -1, -1):
            table, before = tables[i], reach[i]
            positive = self.signs[i] > 0
            support: list[int] = []
            prev = 0
            for v, cells in table.items():
                came = back >> v if positive else back << v
                if came & before:
                    prev |= came
                    if support:
                        for j, m in enumerate(cells):
                            support[j] |= m
                    else:
                        support = list(cells)
            out[:0] = support
            back = prev & before
        return tuple(out)


@state_cache(maxsize=50_000)
def placements(masks: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """For cells of candidates ``masks`` that hold different digits: each sum of values
    (digit + 1) they can make, with each cell's digits in some placement making it; empty
    when there is no placement. Exact up to :data:`EXACT_MOST` cells, beyond as
    :func:`set_supports` reads a set.

    >>> placements((0b011, 0b011))     # 1+2 only, either way round
    {3: (3, 3)}
    >>> placements((0b001, 0b001))     # both 1: none
    {}
    """
    k = len(masks)
    table: dict[int, list[int]] = {}
    if k == 1:
        m = masks[0]
        table = {d + 1: [1 << d] for d in range(m.bit_length()) if m >> d & 1}
    elif k == 2:  # the common case, without the recursion
        for bit_a in _bits(masks[0]):
            for bit_b in _bits(masks[1] & ~bit_a):
                value = bit_a.bit_length() + bit_b.bit_length()  # digit d's value d + 1
                row = table.get(value)
                if row is None:
                    table[value] = [bit_a, bit_b]
                else:
                    row[0] |= bit_a
                    row[1] |= bit_b
    elif k == 3:  # a diagonal's box segment: loops, not _place's recursion (the 201,402
        # three-cell reads of a native count of 5 generated little killers: 3.1 -> 2.0 s)
        for bit_a in _bits(masks[0]):
            for bit_b in _bits(masks[1] & ~bit_a):
                pair = bit_a.bit_length() + bit_b.bit_length()
                for bit_c in _bits(masks[2] & ~(bit_a | bit_b)):
                    row = table.get(pair + bit_c.bit_length())
                    if row is None:
                        table[pair + bit_c.bit_length()] = [bit_a, bit_b, bit_c]
                    else:
                        row[0] |= bit_a
                        row[1] |= bit_b
                        row[2] |= bit_c
    elif k <= EXACT_MOST:
        _place(masks, 0, 0, 0, [0] * k, table)
    else:
        n = max(m.bit_length() for m in masks)
        for total, combos in group_sets(k, n).items():
            for combo in combos:
                cells = set_supports(combo, masks)
                if cells is not None:
                    row = table.setdefault(total, [0] * k)
                    for j, m in enumerate(cells):
                        row[j] |= m
    return {total: tuple(row) for total, row in sorted(table.items())}


@lru_cache(maxsize=1 << 12)
def _bits(mask: int) -> tuple[int, ...]:
    """The one-bit masks of ``mask``, lowest first (a placement's loops over a cell's digits)."""
    return tuple(1 << d for d in range(mask.bit_length()) if mask >> d & 1)


def _place(masks: tuple[int, ...], i: int, used: int, total: int, chosen: list[int],
           table: dict[int, list[int]]) -> None:
    """Every placement of different digits over ``masks[i:]`` after ``chosen[:i]``
    (digits ``used``, values adding up to ``total``), each OR-ed into ``table``."""
    rest = masks[i] & ~used
    last = i == len(masks) - 1
    while rest:
        bit = rest & -rest
        rest ^= bit
        chosen[i] = bit
        value = total + bit.bit_length()
        if last:
            row = table.get(value)
            if row is None:
                table[value] = list(chosen)
            else:
                for j, m in enumerate(chosen):
                    row[j] |= m
        else:
            _place(masks, i + 1, used | bit, value, chosen, table)
