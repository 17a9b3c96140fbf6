"""Sums of different digits, for killer cages and the 45 rule: the digit sets that add up to
a sum, the native narrowing those sets allow (or, when there are too many to list, sum
bounds), and the ``pysat.pb`` encodings a sum can be written with.

>>> [bin(m) for m in combinations_for(2, 4, 9)]    # 1+3 only
['0b101']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache, partial
from itertools import combinations, repeat
from math import comb

from sudoku_csp.constraints.merging import merge_map
from sudoku_csp.constraints.translation import (
    Clause,
    ClauseTemplate,
    CnfContext,
    Guarded,
    Link,
    compile_clauses,
    fill,
)
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Geometry, bits

COMBINATION_LIMIT = 20000
"""Digit sets of one cage size listed at most (``C(N, k)``): beyond, native and CNF fall back
to sum bounds and the ``totalizer`` pseudo-Boolean encoding."""

PB_ENCODINGS = ("bdd", "totalizer", "sortnetwrk", "seqcounter", "adder", "binmerge",
                "mixedradix", "best")
"""``pysat.pb.EncType`` names usable for cage sums."""

SUM_ENCODINGS = ("combos", *PB_ENCODINGS)
"""The choices of the sat backend's ``sums`` option."""

DEFAULT_SUMS = "combos"
"""The cage-sum encoding used unless told otherwise: measured faster than every
``pysat.pb`` encoding on given-free 9×9 killers (examples/killer_benchmark.py,
docs/benchmarks.md)."""

FALLBACK_PB = "totalizer"


def sum_range(k: int, n: int) -> tuple[int, int]:
    """The least and greatest sums of ``k`` different values from ``1..n``.

    >>> sum_range(3, 9)
    (6, 24)
    """
    return k * (k + 1) // 2, k * (2 * n - k + 1) // 2


@lru_cache(maxsize=64)
def group_sets(size: int, n: int) -> dict[int, tuple[int, ...]]:
    """Every set of ``size`` different digits of an ``n``-digit grid, by the sum of its
    values, as digit bitmasks (for one cell: each digit alone): a cage's digit sets, and
    a group's of :mod:`~sudoku_csp.constraints.group_sums`.

    >>> [bin(m) for m in group_sets(2, 4)[4]]    # 1+3
    ['0b101']
    """
    table: dict[int, list[int]] = {}
    for digits in combinations(range(n), size):
        table.setdefault(sum(digits) + size, []).append(sum(1 << d for d in digits))
    return {total: tuple(masks) for total, masks in sorted(table.items())}


def _sum_table(k: int, n: int) -> dict[int, tuple[int, ...]] | None:
    return None if comb(n, k) > COMBINATION_LIMIT else group_sets(k, n)


def combinations_for(k: int, total: int, n: int) -> tuple[int, ...] | None:
    """The sets of ``k`` different digits adding up to ``total`` (shown values), as digit
    bitmasks; ``None`` when there are too many to list (:data:`COMBINATION_LIMIT`).

    >>> [bin(m) for m in combinations_for(2, 4, 9)]    # 1+3 only
    ['0b101']
    """
    table = _sum_table(k, n)
    return None if table is None else table.get(total, ())


def narrow(combos: tuple[int, ...] | None, total: int | None,
            masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """The cage's native rule (see the module docstring); ``masks`` in cage order."""
    out = list(masks)
    singles = 0
    for m in out:
        if not m & (m - 1):
            if m & singles:
                return None  # two placed cells of the cage hold the same digit
            singles |= m
    if singles:
        keep = ~singles
        for i, m in enumerate(out):
            if m & (m - 1) and m & singles:
                m &= keep
                if not m:
                    return None
                out[i] = m
    if total is None:
        return tuple(out)
    if combos is None:
        return _bounds(total, out)
    union = 0
    for m in out:
        union |= m
    allowed, required = 0, -1
    for c in combos:
        if c & singles == singles and not c & ~union:
            for m in out:
                if not m & c:
                    break
            else:
                allowed |= c
                required &= c
    if not allowed:
        return None
    for i, m in enumerate(out):
        m &= allowed
        if not m:
            return None
        out[i] = m
    rest = required & ~singles
    if rest:
        seen = twice = 0
        for m in out:
            twice |= seen & m
            seen |= m
        if rest & ~twice:  # a required digit with one place left (none: nothing to place)
            while rest:  # one by one: placing one can leave another one place
                bit = rest & -rest
                rest ^= bit
                holders = [i for i, m in enumerate(out) if m & bit]
                if not holders:
                    return None
                if len(holders) == 1:
                    out[holders[0]] = bit
    return tuple(out)


def _bounds(total: int, out: list[int]) -> tuple[int, ...] | None:
    """Sum bounds: each cell keeps the values the others' least and greatest candidates
    leave room for."""
    low = [(m & -m).bit_length() for m in out]   # least candidate value (digit + 1)
    high = [m.bit_length() for m in out]         # greatest
    s_low, s_high = sum(low), sum(high)
    if not s_low <= total <= s_high:
        return None
    for i, m in enumerate(out):
        least = max(1, total - (s_high - high[i]))
        most = total - (s_low - low[i])
        m &= ((1 << most) - 1) & ~((1 << (least - 1)) - 1) if most >= least else 0
        if not m:
            return None
        out[i] = m
    return tuple(out)


def sum_link(geometry: Geometry, cells: tuple[int, ...], total: int, different: bool,
             why: str = "") -> Link:
    """A link for "``cells`` add up to ``total``": a cage's rule when their digits differ,
    else the sum bounds alone (digits may repeat); ``why``: its words
    (:attr:`~sudoku_csp.constraints.base.Link.why`)."""
    if different:
        # An impossible total has no combinations: the link then refutes every state.
        return Link(cells, partial(narrow, combinations_for(len(cells), total, geometry.size)
                                   if len(cells) <= geometry.size else (), total), why)
    return Link(cells, partial(_sum_bounds, total), why)


def combo_clauses(ctx: CnfContext, cells: Sequence[int], combos: Sequence[int],
                  seers: Sequence[int] = (), selectors: list[int] | None = None, *,
                  guarded: bool = False) -> list[Clause]:
    """The ``combos`` clauses of "``cells`` hold one of the digit sets ``combos``" (each
    cell one digit, the cells' digits different: the caller's clauses say so): a variable
    ``has(d)`` per digit some set holds ("some cell holds d", both ways), one ``set(j)`` per
    digit set with ``set(j) → has(d)`` for its digits and ``¬has(d)`` for the others, at
    least one set, ``has(d) → ∨ set(j)`` over the sets holding ``d``, and ``has(d) ∨
    ∨ set(j)`` over the sets without ``d``: a digit every set left holds is in the cells,
    as the native narrowing finds (a third of the conflicts off hard killers; support
    clauses ``set(j) → ∨ x(c, d)`` per cell cost more than they saved: docs/design.md).
    ``seers``: cells outside that see every one of ``cells``; ``has(d) → ¬x(o, d)`` for
    each (the required digits of :mod:`sudoku_csp.constraints.implied`). ``selectors``:
    a list that receives the ``set(j)`` variables, in the order of ``combos``.

    Without ``selectors``, a digit every set holds (``has(d)`` a unit) is written with
    ``has(d)`` replaced by true, and a single set needs no ``set(j)``: the same unit
    propagation in fewer clauses and variables. The clauses come from a template per cage
    shape (:func:`_combo_template`), mapped onto the cells' variables by index.
    ``guarded``: each clause carries ``ctx``'s guard (:meth:`CnfContext.fill`).

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.modeling.variables import variables
    >>> ctx = CnfContext(variables(make_geometry(4)), start=65)
    >>> combo_clauses(ctx, (0, 1), [0b0011])  # 1 + 2: no 3 or 4, both 1 and 2 in
    [(-3,), (-7,), (-4,), (-8,), (1, 5), (2, 6)]
    """
    n = ctx.geometry.size
    template, aux = _combo_template(len(cells), tuple(combos), n, len(seers),
                                    selectors is not None)
    fresh = ctx.new_vars(aux)
    if selectors is not None:
        selectors.extend(fresh[aux - len(combos):])
    variables = [*ctx.cell_vars((*cells, *seers)), *fresh]
    return ctx.fill(template, variables) if guarded else fill(template, variables)


@lru_cache(maxsize=1024)
def _combo_template(k: int, combos: tuple[int, ...], n: int, seers: int, full: bool
                    ) -> tuple[ClauseTemplate, int]:
    """The clauses of :func:`combo_clauses` for ``k`` cells and ``seers`` cells that see
    them over slots (:func:`~sudoku_csp.constraints.translation.compile_clauses`; the
    variable of ``x(cell i, d)`` is slot ``i·n + d + 1``, the cells first, then the seers,
    then the auxiliaries); and the auxiliaries' count: the cage's own clauses
    (:func:`_combo_core`, shared by every number of seers) with its auxiliaries moved past
    the seers, then ``has(d) → ¬x(o, d)`` for each seer (``¬x(o, d)`` for a digit every
    set holds)."""
    core, aux, has = _combo_core(k, combos, n, full)
    own, shift = k * n, seers * n

    def move(lit: int) -> int:
        return lit + shift if lit > own else lit - shift if lit < -own else lit

    clauses = [tuple(map(move, c)) for c in core]
    for d in range(n):
        h = has.get(d)
        if h is None:
            continue
        for o in range(seers):
            seer = (k + o) * n + d + 1
            clauses.append((-seer,) if h is True else (-move(h), -seer))
    return compile_clauses(clauses), aux


@lru_cache(maxsize=1024)
def _combo_core(k: int, combos: tuple[int, ...], n: int, full: bool
                ) -> tuple[list[tuple[int, ...]], int, dict[int, int | bool]]:
    """The clauses of :func:`combo_clauses` on the cage's own cells, over slots (cell ``i``'s
    digit ``d`` is slot ``i·n + d + 1``, then the auxiliaries); their auxiliaries' count;
    and each digit some set holds: ``True`` when every set holds it, else the literal of
    its ``has(d)``. ``full``: every digit a ``has(d)`` and every set a ``set(j)`` (the
    caller reads the sets). Else auxiliaries that imply each other are one
    (:func:`~sudoku_csp.constraints.merging.merge_map`): a set holding a digit no other
    set holds is that digit's ``has(d)``, so a two-cell cage's ``1+9, 2+8, 3+7, 4+6`` is
    four variables, one per pair, at most one of them (49 clauses of the sets down to 7)."""
    def lit(cell: int, d: int) -> int:
        return cell * n + d + 1

    possible, required = 0, -1
    for c in combos:
        possible |= c
        required &= c
    if full or not combos:
        required = 0
    clauses: list[tuple[int, ...]] = []
    for d in range(n):
        if not possible >> d & 1:
            clauses += ((-lit(i, d),) for i in range(k))
    top = k * n
    optional = [d for d in range(n) if (possible & ~required) >> d & 1]
    has: dict[int, int | bool] = {d: top + 1 + j for j, d in enumerate(optional)}
    top += len(has)
    for d in range(n):
        if required >> d & 1:  # has(d) is true
            clauses.append(tuple(lit(i, d) for i in range(k)))
            has[d] = True
        elif d in has:
            h = has[d]
            clauses.append((-h, *(lit(i, d) for i in range(k))))
            clauses += ((-lit(i, d), h) for i in range(k))
    chosen = {d: h for d, h in has.items() if h is not True}
    sets = list(range(top + 1, top + 1 + len(combos))) if combos and (full or chosen) else []
    top += len(sets)
    if sets:
        clauses.append(tuple(sets))
        for s, c in zip(sets, combos, strict=True):
            clauses += ((-s, h) if c >> d & 1 else (-s, -h) for d, h in chosen.items())
        for d, h in chosen.items():
            clauses.append((-h, *(s for s, c in zip(sets, combos, strict=True) if c >> d & 1)))
            clauses.append((h, *(s for s, c in zip(sets, combos, strict=True)
                                 if not c >> d & 1)))
    if full:  # the caller reads every set(j): none may be merged away
        return clauses, top - k * n, has
    merged, aux, moved = merge_map(clauses, k * n + 1)
    return merged, aux, {d: h if h is True else moved.get(h, h) for d, h in has.items()}


class LinearSum:
    """``Σ signs[i] · value(cell i) = total`` over cells whose digits may repeat (a little
    killer's diagonal; an arrow's shaft less its circle), narrowed natively as sets of
    reachable partial sums: bitsets shifted by each candidate's value, forward then back.
    Each cell keeps the values some completion adds up with: generalised arc consistency,
    as the running-sum automaton reaches, several times faster per call. A sign may be any
    nonzero integer, a weight (a circle counted twice, a pill's tens): the value is then
    shifted that many times.

    >>> LinearSum((1, 1, -1), 0).narrow((0b111, 0b111, 0b1))   # a + b = c, c = 1: none
    >>> LinearSum((1, 1, -1), 0).narrow((0b111, 0b111, 0b110))  # c = 2 or 3
    (3, 3, 6)
    >>> LinearSum((1, 2), 7).narrow((0b1111, 0b1111))           # a + 2b = 7: (1, 3), (3, 2)
    (5, 6)
    """

    __slots__ = ("signs", "total", "_memo", "_weights")

    def __init__(self, signs: Sequence[int], total: int) -> None:
        self.signs = tuple(signs)
        self.total = total
        self._memo: dict[tuple[int, ...], tuple[int, ...] | None] = {}
        # Weights past 1 only when some sign has one: the common ±1 sums keep their loop.
        self._weights = (tuple(abs(s) for s in self.signs)
                         if any(abs(s) != 1 for s in self.signs) else None)

    def narrow(self, masks: tuple[int, ...]) -> tuple[int, ...] | None:
        memo = self._memo
        found = memo.get(masks, _UNSEEN)
        if found is _UNSEEN:
            if len(memo) >= _MEMO:
                memo.clear()
            found = memo[masks] = (self._narrow(masks) if self._weights is None
                                   else self._weighted(masks, self._weights))
        return found  # type: ignore[return-value]

    def _narrow(self, masks: tuple[int, ...]) -> tuple[int, ...] | None:
        signs = self.signs
        bias = sum(m.bit_length() for m, s in zip(masks, signs, strict=True) if s < 0)
        reach = [1 << bias]
        here = reach[0]
        for m, sign in zip(masks, signs, strict=True):
            nxt = 0
            for v in _values(m):
                nxt |= here << v if sign > 0 else here >> v
            if not nxt:
                return None
            reach.append(nxt)
            here = nxt
        goal = self.total + bias
        if goal < 0 or not here >> goal & 1:
            return None
        back = 1 << goal
        out = [0] * len(masks)
        for i in range(len(masks) - 1, -1, -1):
            m, sign, before = masks[i], signs[i], reach[i]
            support = prev = 0
            for v in _values(m):
                came = back >> v if sign > 0 else back << v
                if came & before:
                    support |= 1 << (v - 1)
                    prev |= came
            out[i] = support
            back = prev & before
        return tuple(out)

    def _weighted(self, masks: tuple[int, ...], weights: tuple[int, ...]
                  ) -> tuple[int, ...] | None:
        """:meth:`_narrow` over each cell's values times its weight: a mask is read as the
        mask of those products, and what is kept read back."""
        scaled = tuple(_scale(m, w) for m, w in zip(masks, weights, strict=True))
        kept = self._narrow(scaled)
        if kept is None:
            return None
        return tuple(_unscale(k, w) for k, w in zip(kept, weights, strict=True))


def _scale(mask: int, weight: int) -> int:
    """The mask of the values of ``mask`` times ``weight`` (bit ``v·w - 1``)."""
    out = 0
    for v in _values(mask):
        out |= 1 << (v * weight - 1)
    return out


def _unscale(mask: int, weight: int) -> int:
    """The values of a mask of products (:func:`_scale`) back as values."""
    out = 0
    for v in _values(mask):
        out |= 1 << (v // weight - 1)
    return out


_UNSEEN = object()
_MEMO = 50_000
_VALUES: dict[int, tuple[int, ...]] = {}


def _values(mask: int) -> tuple[int, ...]:
    """The values (digit + 1) of a candidate mask."""
    found = _VALUES.get(mask)
    if found is None:
        found = tuple(d + 1 for d in range(mask.bit_length()) if mask >> d & 1)
        if len(_VALUES) < 1 << 17:
            _VALUES[mask] = found
    return found


def seers_of(geometry: Geometry, cells: Sequence[int]) -> tuple[int, ...]:
    """The cells outside ``cells`` that see every one of them (peers of each).

    >>> from sudoku_csp.variants import make_geometry
    >>> seers_of(make_geometry(4), (0, 1))   # A1, A2: the rest of row A and of box 1
    (2, 3, 4, 5)
    """
    if not cells:
        return ()
    peers = peer_masks(geometry)
    common = -1
    for cell in cells:
        common &= peers[cell]  # a cell is not its own peer: the cells leave common
    return tuple(bits(common))


def pairwise_peers(geometry: Geometry, cells: Sequence[int]) -> bool:
    """Whether every two of ``cells`` are peers (so their digits differ)."""
    peers, mask = peer_masks(geometry), cell_mask(cells)
    return all((peers[cell] | 1 << cell) & mask == mask for cell in cells)


def cell_mask(cells: Iterable[int]) -> int:
    """``cells`` as a mask (bit ``c``: cell ``c``); :func:`~sudoku_csp.geometry.bits` reads
    it back.

    >>> cell_mask((0, 3)), bits(0b1001)
    (9, [0, 3])
    """
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


@lru_cache(maxsize=32)
def peer_masks(geometry: Geometry) -> tuple[int, ...]:
    """Each cell's peers as a mask (bit ``c``: cell ``c``).

    >>> from sudoku_csp.variants import make_geometry
    >>> bin(peer_masks(make_geometry(4))[0])   # A1: A2-A4, B1-B2, C1, D1
    '0b1000100111110'
    """
    return tuple(map(cell_mask, geometry.peers))


def apart_clauses(ctx: CnfContext, cells: Sequence[int]) -> list[Clause]:
    """"Not both ``d``" for every digit ``d`` and every two of ``cells`` that share no unit
    (the grid's formula keeps the others apart), with ``ctx``'s guard: a cage's or a
    renban's different digits. A pair's clauses are zipped from its cells' negated literals,
    with no Python call per clause (written one by one they were 40 % of a killer's model).

    >>> from sudoku_csp.modeling.variables import variables
    >>> from sudoku_csp.variants import make_geometry
    >>> ctx = CnfContext(variables(make_geometry(4)), start=65)
    >>> apart_clauses(ctx, (0, 1, 10))   # A1 and A2 share row A; C3 sees neither
    [(-1, -41), (-2, -42), (-3, -43), (-4, -44), (-5, -41), (-6, -42), (-7, -43), (-8, -44)]
    """
    guard, n, peers, k = ctx.guard, ctx.geometry.size, peer_masks(ctx.geometry), len(cells)
    clauses: list[Clause] = Guarded() if guard else []
    nots: list[range] = []  # each cell's, once a pair needs them (none in a box)
    for i, a in enumerate(cells):
        seen = peers[a]
        for j in range(i + 1, k):
            if not seen >> cells[j] & 1:
                nots = nots or list(map(ctx.negations, cells))
                clauses += (zip(nots[i], nots[j], repeat(guard, n), strict=True) if guard
                            else zip(nots[i], nots[j], strict=True))
    return clauses


def _sum_bounds(total: int, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    return _bounds(total, list(masks))



def pb_encoding(name: str) -> int:
    """The ``pysat.pb.EncType`` value named ``name``; InputError when it is none, or when
    ``pysat.pb`` cannot be imported (its encoder library, pindakaas, is missing)."""
    if name not in PB_ENCODINGS:
        raise InputError(f"unknown cage-sum encoding {name!r}; choose from "
                         f"{', '.join(SUM_ENCODINGS)}")
    try:
        from pysat.pb import EncType
    except (ImportError, AssertionError):  # pysat.pb asserts its encoder library is there
        raise InputError(f"the {name!r} cage-sum encoding needs pysat.pb: "
                         "pip install 'python-sat[pb]'") from None
    value = getattr(EncType, name, None)
    if value is None:
        raise InputError(f"this PySAT's pysat.pb has no {name!r} encoding")
    return value
