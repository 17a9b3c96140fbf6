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

from collections.abc import Sequence
from typing import Protocol

from sudoku_csp.constraints.cage_sums import pairwise_peers, sum_link
from sudoku_csp.constraints.translation import Link
from sudoku_csp.constraints.wording import plus
from sudoku_csp.geometry import LINE_KINDS, Geometry

__all__ = ["MAX_BAND_REST", "MAX_LOOSE_OUTIES", "Summed", "implied_sums", "outie_sums",
           "rule45_links", "rule45_words"]

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
