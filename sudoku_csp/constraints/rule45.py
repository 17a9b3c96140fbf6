"""The 45 rule: the sums that summed cages and whole units imply together, the joint rule of
killer cages (:meth:`~sudoku_csp.constraints.kinds.cage.Cage.joint_native`,
:meth:`~sudoku_csp.constraints.kinds.cage.Cage.joint_cpsat`).

A unit holds every digit once, so its cells add up to ``N(N+1)/2`` (45 on 9×9). Cages wholly
inside a region of whole units leave its other cells a known sum (*innies*: :func:`implied_sums`);
cages that cover a unit and stick out of it leave the cells outside a known sum too
(*outies*: :func:`outie_sums`). Implied by the rules, so adding them never loses a solution.

Cages are read through :class:`Summed` (their ``cells`` and ``total``, ``None`` for a cage
without a sum), so this machinery names no kind.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache, partial, reduce
from itertools import compress
from operator import and_, itemgetter, or_
from typing import TYPE_CHECKING, Protocol

from sudoku_csp.constraints.cage_sums import (
    cell_mask,
    combinations_for,
    pairwise_peers,
    sum_link,
)
from sudoku_csp.constraints.implied import (
    HIDDEN,
    LEFTOVERS,
    REQUIRED,
    SignedSum,
    on,
    required_cpsat,
    required_link,
    signed_clauses,
    signed_cpsat,
    signed_link,
)
from sudoku_csp.constraints.translation import (
    Clause,
    CnfContext,
    Guarded,
    Link,
    Words,
    with_guard,
)
from sudoku_csp.constraints.wording import plus
from sudoku_csp.geometry import BOX_KINDS, LINE_KINDS, Geometry, bits

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel

__all__ = ["LEFTOVER_LIMITS", "MAX_BAND_REST", "MAX_LOOSE_OUTIES", "Summed", "hidden_sums",
           "implied_sums", "leftover_sums", "outie_sums", "regions", "rule45_links",
           "rule45_words", "signed_words"]

MAX_BAND_REST = 4
"""Cells left over in a band of rows or columns (:func:`implied_sums`) kept at most: 4 was
the fastest of none, 2, 4 and 8 (docs/design.md: Design choices, measured)."""

MAX_LOOSE_OUTIES = 3
"""Outies whose cells share no unit (a sum with repeats allowed) are kept up to this many
cells (:func:`outie_sums`)."""

Implied = tuple[tuple[int, ...], int, bool]
"""``(cells, total, different)``: ``cells`` add up to ``total``; ``different``: they are
peers two by two, so their digits differ."""


class Summed(Protocol):
    """A cage as the 45 rule reads it: its cells, and its sum (``None``: none given)."""

    @property
    def cells(self) -> tuple[int, ...]: ...

    @property
    def total(self) -> int | None: ...


def rule45_words(geometry: Geometry, cells: Sequence[int], total: int, different: bool) -> str:
    """The words of a 45-rule link (:attr:`~sudoku_csp.constraints.base.Link.why`):
    ``the 45 rule: A3+A4 = 7 (different digits)``."""
    apart = " (different digits)" if different and len(cells) > 1 else ""
    return f"the 45 rule: {plus(geometry, cells)} = {total}{apart}"


def implied_sums(geometry: Geometry, cages: Sequence[Summed]) -> list[Implied]:
    """The 45 rule: ``(cells, total, different)`` for every region made of whole units whose cells
    outside the summed cages wholly inside it add up to ``total``: the region's total
    (``N(N+1)/2`` per unit, 45 on 9×9) less those cages' sums. Regions: each unit (the
    innies; cells left over there hold different digits), and each band of 2 to N-1
    consecutive rows or columns when at most :data:`MAX_BAND_REST` cells are left over.
    ``different``: the cells are peers two by two, so their digits differ (always so in a
    unit; in a band they may repeat a digit otherwise).

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.constraints import Cage
    >>> implied_sums(make_geometry(4), [Cage((0, 1), 3)])[:2]   # A1 + A2 = 3: row A, box 1
    [((2, 3), 7, True), ((4, 5), 7, True)]
    """
    unit_total = geometry.size * (geometry.size + 1) // 2
    summed = [(cage.cells, cage.total) for cage in cages if cage.total is not None]
    owner = {cell: i for i, (cells, _) in enumerate(summed) for cell in cells}
    regions = [(unit.cells, unit_total, geometry.size) for unit in geometry.units]
    whole_units = len(regions)
    for kind in LINE_KINDS:
        lines = sorted((u for u in geometry.units if u.kind == kind), key=lambda u: u.index)
        for width in range(2, len(lines)):
            for first in range(len(lines) - width + 1):
                band = tuple(c for u in lines[first:first + width] for c in u.cells)
                regions.append((band, width * unit_total, MAX_BAND_REST))
    found = []
    for number, (cells, total, most) in enumerate(regions):
        here = set(cells)
        # Cage indices, not cages: hashing a frozen dataclass is slow in this loop.
        inner = [i for i in {owner[c] for c in cells if c in owner}
                 if here.issuperset(summed[i][0])]
        covered = {c for i in inner for c in summed[i][0]}
        rest = tuple(sorted(c for c in cells if c not in covered))
        if inner and 0 < len(rest) <= most:
            different = number < whole_units or pairwise_peers(geometry, rest)
            found.append((rest, total - sum(summed[i][1] for i in inner), different))
    return found


def outie_sums(geometry: Geometry, cages: Sequence[Summed]) -> list[Implied]:
    """*Outies*: when summed cages cover a unit (total T, 45 on 9×9) and some stick out,
    their cells outside the unit add up to the cages' sums less T: ``(cells, total,
    different)`` per such unit, kept when the cells are peers two by two or number at most
    :data:`MAX_LOOSE_OUTIES` (bounds alone prune little and cost a call each time their
    cells change: up to that many cells they repay it, more do not; docs/design.md: Design
    choices, measured).

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.constraints import Cage
    >>> outie_sums(make_geometry(4), [Cage((0, 1), 3), Cage((2, 3, 7), 8)])   # row A: B4 = 1
    [((7,), 1, True)]
    """
    owner = {cell: cage for cage in cages for cell in cage.cells}
    unit_total = geometry.size * (geometry.size + 1) // 2
    found = []
    for unit in geometry.units:
        here = set(unit.cells)
        touching = {owner[c] for c in unit.cells if c in owner}
        if len(owner.keys() & here) < len(here) or any(
                cage.total is None for cage in touching):
            continue
        out = tuple(sorted(c for cage in touching for c in cage.cells if c not in here))
        different = pairwise_peers(geometry, out)
        if out and (different or len(out) <= MAX_LOOSE_OUTIES):
            found.append((out, sum(cage.total or 0 for cage in touching) - unit_total,
                          different))
    return found


def rule45_links(geometry: Geometry, cages: Sequence[Summed]) -> list[Link]:
    """The native links of the 45 rule: the sums of :func:`implied_sums`, then those of
    :func:`outie_sums`, each narrowed like a cage when its digits differ (else by the sum's
    bounds), worded by :func:`rule45_words`."""
    return [sum_link(geometry, cells, total, different,
                     rule45_words(geometry, cells, total, different))
            for cells, total, different in (*implied_sums(geometry, cages),
                                            *outie_sums(geometry, cages))]


# -- hidden cages and the law of leftovers (implied sums of sudoku_csp.constraints.implied) --
HIDDEN_LIMITS: dict[str, int | None] = {"cnf": 3, "native": None, "cpsat": None}
"""Per translation, the cells of a hidden cage kept at most (None: all). Each clause costs
the SAT backend time to build and load, and a hidden cage of many cells holds many digit
sets; those of more than 3 cells cut few conflicts more than the leftovers already do
(docs/design.md)."""
LEFTOVER_LIMITS = {"cnf": (2, 1), "native": (5, 1), "cpsat": (6, 2)}
"""Per translation, the leftover sums kept: at most so many cells (innies and outies
together), and when there are both, at most so many on the smaller side. Measured on hard
given-free killers (docs/design.md): CP-SAT takes linear sums almost for free, and more of
them kept cutting its conflicts; each clause costs the SAT backend time to build, and each
link the native solver time at every node, so they keep the short ones."""


def signed_words(geometry: Geometry, implied: SignedSum) -> str:
    """The words of an implied sum's link: a hidden cage's as :func:`rule45_words` says
    them (``the 45 rule: A3+A4 = 7 (different digits)``), a leftover's with its region
    (``the law of leftovers (rows 1-3): A3+A4 - D5 = 7``)."""
    if implied.family == HIDDEN.name and implied.plus:
        return rule45_words(geometry, implied.plus, implied.total, True)
    what = "the 45 rule" if implied.family == HIDDEN.name else "the law of leftovers"
    where = f" ({implied.region})" if implied.region else ""
    left = plus(geometry, implied.plus) if implied.plus else "0"
    if implied.minus:
        left += " - " + " - ".join(geometry.label(c) for c in implied.minus)
    return f"{what}{where}: {left} = {implied.total}"


@lru_cache(maxsize=32)
def regions(geometry: Geometry) -> tuple[tuple[tuple[int, ...], int, str], ...]:
    """The regions the law of leftovers looks at, as ``(cells, units, words)``: each unit;
    for rows, columns and boxes (or jigsaw regions) when they tile the grid, every run of 2
    to N-1 consecutive ones (bands of rows and columns, boxes in reading order); and each two
    boxes or regions that share a side. Each region once (the first words that name it).

    >>> from sudoku_csp.variants import make_geometry
    >>> len(regions(make_geometry(4))), *regions(make_geometry(4))[-1][1:]
    (25, 3, 'boxes 2-4')
    """
    found: dict[frozenset[int], tuple[tuple[int, ...], int, str]] = {}

    def add(cells: set[int] | tuple[int, ...], count: int, words: str) -> None:
        found.setdefault(frozenset(cells), (tuple(sorted(cells)), count, words))

    for unit in geometry.units:
        add(unit.cells, 1, unit.name)
    for kind in (*LINE_KINDS, *BOX_KINDS):
        units = sorted(geometry.units_of_kind(kind), key=lambda u: u.index)
        if sum(len(u.cells) for u in units) != geometry.ncells or len(
                {c for u in units for c in u.cells}) != geometry.ncells:
            continue  # not a tiling of the grid
        for width in range(2, len(units)):
            for first in range(len(units) - width + 1):
                run = units[first:first + width]
                add({c for u in run for c in u.cells}, width,
                    f"{_plural(kind)} {run[0].index + 1}-{run[-1].index + 1}")
        if kind in BOX_KINDS:
            n = geometry.size
            for i, a in enumerate(units):
                near = {c + step for c in a.cells for step in (1, n)
                        if c + step < geometry.ncells and (step == n or (c + 1) % n)}
                for b in units[i + 1:]:
                    if near & set(b.cells):
                        add({*a.cells, *b.cells}, 2,
                            f"{_plural(kind)} {a.index + 1} and {b.index + 1}")
    return tuple(found.values())


def _plural(kind: str) -> str:
    return f"{kind}es" if kind.endswith("x") else f"{kind}s"


def _summed(cages: Sequence[Summed]) -> list[tuple[tuple[int, ...], int]]:
    return [(cage.cells, cage.total) for cage in cages if cage.total is not None]


Piece = tuple[tuple[int, ...], int, int, int]
"""A summed cage as the 45 rule reads it: ``(cells, total, mask, holding)``, its cells also as
a mask, and the units holding them all (:func:`_units`); made once for :func:`implied_for`."""


def _pieces(geometry: Geometry, cages: Sequence[Summed]) -> list[Piece]:
    holders, everywhere = _units(geometry)[0], (1 << len(geometry.units)) - 1
    pieces = []
    for cells, total in _summed(cages):
        # One pass over the cells: the units holding them all are the AND of each cell's
        # units (a cage lies wholly inside a few at most), so no unit is read cell by cell.
        mask, holding = 0, everywhere
        for cell in cells:
            mask |= 1 << cell
            holding &= holders[cell]
        pieces.append((cells, total, mask, holding))
    return pieces


def hidden_sums(geometry: Geometry, cages: Sequence[Summed], most: int | None = None
                ) -> list[SignedSum]:
    """Hidden cages: for each unit holding summed cages wholly inside it, its other cells
    (different digits) add up to the unit's total less theirs. A unit the cages fill
    exactly whose sums do not make its total gives a sum of no cells that cannot hold.

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.constraints import Cage
    >>> hidden_sums(make_geometry(4), [Cage((0, 1), 3)])[0]
    SignedSum(plus=(2, 3), minus=(), total=7, family='hidden', region='row 1', \
complement=(0, 1))
    """
    return _hidden_sums(geometry, _pieces(geometry, cages), most)


def _hidden_sums(geometry: Geometry, pieces: list[Piece], most: int | None
                 ) -> list[SignedSum]:
    unit_total = geometry.size * (geometry.size + 1) // 2
    _, unit_masks, names = _units(geometry)
    # Per unit, the cells of the cages wholly inside it and their sums.
    covered, taken, later = [0] * len(unit_masks), [0] * len(unit_masks), 0
    for _, total, mask, holding in reversed(pieces):
        # Each cell is its last cage's, as a map from cells to cages reads it: a cage left no
        # cell of its own (cages sharing cells, which Cage.joint_validate refuses) is not read.
        if not mask & ~later:
            continue
        later |= mask
        while holding:
            low = holding & -holding
            u = low.bit_length() - 1
            covered[u] |= mask
            taken[u] += total
            holding ^= low
    found = []
    for name, cells, cov, sums in zip(names, unit_masks, covered, taken, strict=True):
        if not cov:
            continue
        rest, total = cells & ~cov, unit_total - sums
        if (rest or total) and (most is None or rest.bit_count() <= most):
            found.append(SignedSum(tuple(bits(rest)), (), total, HIDDEN.name, name,
                                   tuple(bits(cov))))
    return found


@lru_cache(maxsize=32)
def _units(geometry: Geometry) -> tuple[tuple[int, ...], tuple[int, ...], tuple[str, ...]]:
    """The units as :func:`hidden_sums` reads them: per cell, the units holding it as a mask
    (bit ``u``: ``geometry.units[u]``); per unit, its cells as a mask, and its name."""
    holders = [0] * geometry.ncells
    for u, unit in enumerate(geometry.units):
        for cell in unit.cells:
            holders[cell] |= 1 << u
    return (tuple(holders), tuple(cell_mask(unit.cells) for unit in geometry.units),
            tuple(unit.name for unit in geometry.units))


def leftover_sums(geometry: Geometry, cages: Sequence[Summed], most: int = 9,
                  most_both: int = 2) -> list[SignedSum]:
    """The law of leftovers: for each region of :func:`regions` (``k`` units, total ``k``
    times the unit's), the summed cages with more than half their cells inside count in;
    the region's cells they leave (innies) less their cells outside it (outies) add up to
    the region's total less their sums. Kept when at most ``most`` cells, and at most
    ``most_both`` on the smaller side when there are both; each pair of sides once.

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.constraints import Cage
    >>> [s.minus for s in leftover_sums(make_geometry(4),
    ...                                 [Cage((0, 1), 3), Cage((2, 3, 7), 8)])][:1]
    [(7,)]
    """
    return _leftover_sums(geometry, _pieces(geometry, cages), most, most_both)


def _leftover_sums(geometry: Geometry, pieces: list[Piece], most: int, most_both: int
                   ) -> list[SignedSum]:
    # Every region at once, in counts: a field of a few bits per region in one int (a byte on
    # 9x9: 133 regions in 1,064 bits). A cell's entry in `member` counts 1 in the field of
    # each region holding it, so a cage's cells add up to its count in every region; adding
    # (half - least) to each field sets its top bit exactly where at least `least` (more than
    # half) are inside: the regions the cage counts in. The cells' own such bits then count,
    # per region, the cells covered and those of them inside; the limits read these counts,
    # and only the regions they keep (a tenth on 9x9 at the CNF limits) get cells and sums.
    ncells, unit_total = geometry.ncells, geometry.size * (geometry.size + 1) // 2
    longest = max(map(len, map(itemgetter(0), pieces)), default=0)
    width = (max(ncells, longest).bit_length() + 8) // 8 * 8  # bytes, top bit above all counts
    member, ones, sizes, one_unit, region_masks = _packed(geometry, width)
    shift = width - 1
    half, high = 1 << shift, ones << shift
    lifts = [ones * (half - k // 2 - 1) for k in range(longest + 1)]
    counted_in = [(sum(map(member.__getitem__, cells), lifts[len(cells)]) & high) >> shift
                  for cells, _, _, _ in pieces]
    # Per cell, a 1 in the field of each region where a cage holding it counts (a cell of
    # two cages, which Cage.joint_validate refuses, where either does).
    covering = [0] * ncells
    for (cells, _, _, _), counted in zip(pieces, counted_in, strict=True):
        for cell in cells:
            covering[cell] |= counted
    covered = sum(covering)
    within = sum(map(and_, covering, member))
    innies, outies = sizes - within, covered - within

    def at_most(counts: int, limit: int) -> int:
        # The top bit of each field whose count is at most `limit`. Counts lie in 0..ncells
        # (< half): a limit clamped to -1..ncells says the same and no field overflows.
        return ~(counts + ones * (half - 1 - max(-1, min(limit, ncells)))) & high

    keep = (at_most(innies + outies, most) & ~at_most(covered, 0)
            & (at_most(innies, most_both) | at_most(outies, most_both))
            & ~(one_unit & at_most(outies, 0)))  # a unit less the cages inside it: hidden_sums
    if not keep:
        return []
    # The regions each cage counts in as bytes, cage after cage: a step through them from
    # one region's field (whose low byte is 1 or 0) picks the cages that count in it.
    listed, step = regions(geometry), width // 8
    stride = step * len(region_masks)
    picks = b"".join(counted.to_bytes(stride, "little") for counted in counted_in)
    masks, totals = [mask for _, _, mask, _ in pieces], [total for _, total, _, _ in pieces]
    seen: set[tuple[int, int]] = set()
    found = []
    for r in (top // width for top in bits(keep)):  # the kept regions in order
        which = picks[r * step::stride]
        cover = reduce(or_, compress(masks, which), 0)
        region, (_, count, words) = region_masks[r], listed[r]
        inside, outside = region & ~cover, cover & ~region
        total = count * unit_total - sum(compress(totals, which))
        if (inside, outside) in seen or not (inside or outside or total):
            continue
        seen.add((inside, outside))
        found.append(SignedSum(tuple(bits(inside)), tuple(bits(outside)), total, LEFTOVERS.name,
                               words))
    return found


@lru_cache(maxsize=32)
def _packed(geometry: Geometry, width: int
            ) -> tuple[tuple[int, ...], int, int, int, tuple[int, ...]]:
    """The regions of :func:`regions` packed for :func:`leftover_sums`, a field of ``width``
    bits each: each cell's 1 in the field of every region holding it, a 1 in every field,
    each region's count of cells in its field, the top bit of each field of a region of one
    unit; and each region's cells as a mask."""
    masks = tuple(cell_mask(cells) for cells, _, _ in regions(geometry))
    member = [0] * geometry.ncells
    for r, mask in enumerate(masks):
        for cell in bits(mask):
            member[cell] |= 1 << (r * width)
    ones = sum(1 << (r * width) for r in range(len(masks)))
    sizes = sum(mask.bit_count() << (r * width) for r, mask in enumerate(masks))
    one_unit = sum(1 << (r * width + width - 1)
                   for r, (_, count, _) in enumerate(regions(geometry)) if count == 1)
    return tuple(member), ones, sizes, one_unit, masks


# -- the implied constraints of summed cages, in each translation -----------------------------
def implied_for(geometry: Geometry, cages: Sequence[Summed], translation: str,
                options: Mapping[str, str] | None = None) -> list[SignedSum]:
    """The implied sums of ``cages`` whose families ``options`` keep (every family by
    default) for ``translation`` (``cnf``, ``native``, ``cpsat``: its
    :data:`LEFTOVER_LIMITS`): hidden cages, then leftovers not already among them."""
    chosen = dict(options or {})
    pieces = _pieces(geometry, cages)
    hidden = HIDDEN_LIMITS[translation]
    found = _hidden_sums(geometry, pieces, hidden) if on(chosen, HIDDEN) else []
    if on(chosen, LEFTOVERS):
        seen = {(s.plus, s.minus) for s in found}
        found += [s for s in _leftover_sums(geometry, pieces, *LEFTOVER_LIMITS[translation])
                  if (s.plus, s.minus) not in seen]
    return found


def _distinct_sums(geometry: Geometry, cages: Sequence[Summed],
                   implied: Sequence[SignedSum]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """``(cells, digit sets)`` of every summed cage and every implied sum that is a cage's
    (each of them has required digits)."""
    found = []
    for cells, total in [*_summed(cages), *filter(None, (s.cage(geometry) for s in implied))]:
        combos = combinations_for(len(cells), total, geometry.size) if len(
            cells) <= geometry.size else ()
        if combos:
            found.append((cells, combos))
    return found


def _once(implied: list[SignedSum]) -> list[SignedSum]:
    """``implied`` less each sum that one before it already says: the same sides and total,
    or the sides swapped and the total negated (two regions can leave the same cells, one
    as innies, the other as outies). Its link would narrow exactly as the first one's."""
    seen: set[tuple[tuple[int, ...], tuple[int, ...], int]] = set()
    kept = []
    for s in implied:
        if (s.plus, s.minus, s.total) in seen or (s.minus, s.plus, -s.total) in seen:
            continue
        seen.add((s.plus, s.minus, s.total))
        kept.append(s)
    return kept


def cage_links(geometry: Geometry, cages: Sequence[Summed]) -> list[Link]:
    """The native links of every family of implied constraints of ``cages`` (each tagged
    with its family, :attr:`Link.family`): the implied sums of :func:`implied_for`, each
    sum once (:func:`_once`), then the required digits of each summed cage and each
    implied cage."""
    implied = _once(implied_for(geometry, cages, "native"))
    # Words written only if an explanation reads them: a search never does (they were a
    # fifth of the native solver's time on a killer).
    links = [signed_link(geometry, s, Words(partial(signed_words, geometry, s))) for s in implied]
    for cells, combos in _distinct_sums(geometry, cages, implied):
        link = required_link(geometry, cells, combos, Words(partial(_required_words, geometry,
                                                                    cells)))
        if link is not None:
            links.append(link)
    return links


def _required_words(geometry: Geometry, cells: Sequence[int]) -> str:
    return f"the digits {plus(geometry, cells)} must hold leave the cells that see all their places"


def cage_clauses(ctx: CnfContext, cages: Sequence[Summed], required: bool) -> list[Clause]:
    """The clauses of the implied sums of ``cages`` that ``ctx``'s options keep (a cage's
    own required digits are in its own clauses), each with ``ctx``'s guard when it has one
    (then as :class:`~sudoku_csp.constraints.translation.Guarded`); ``required``: with the
    cells that see an implied cage told its required digits
    (:func:`~sudoku_csp.constraints.implied.seer_clauses`)."""
    guard = ctx.guard
    clauses: list[Clause] = Guarded() if guard else []
    for implied in implied_for(ctx.geometry, cages, "cnf", ctx.options):
        clauses += with_guard(signed_clauses(ctx, implied, required), guard)
    return clauses


def cage_cpsat(model: CpSatModel, cages: Sequence[Summed]) -> None:
    """The implied sums of ``cages`` that the model's options keep, then (``required``)
    each summed and implied cage's required digits out of the cells that see it all."""
    implied = implied_for(model.geometry, cages, "cpsat", model.options)
    for s in implied:
        signed_cpsat(model, s)
    if on(model.options, REQUIRED):
        required_cpsat(model, _distinct_sums(model.geometry, cages, implied))
