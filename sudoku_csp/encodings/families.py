"""The clause families CNF encodings are made of: each a named generator of clauses over the
one variable map (:mod:`sudoku_csp.modeling.variables`), with at-most-one and at-least-one
from ``pysat.card`` (:class:`Cards`). :mod:`sudoku_csp.encodings.cnf` names the encodings,
each a list of these families.

>>> from sudoku_csp.variants import make_geometry
>>> from sudoku_csp.modeling.variables import variables
>>> cards = Cards("pairwise", variables(make_geometry(4)))
>>> len(list(cell_alo(make_geometry(4), cards)))
16
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations

from pysat.card import CardEnc, EncType

from sudoku_csp.geometry import Geometry, Unit
from sudoku_csp.modeling.variables import Variables, parts, variables

__all__ = ["FAMILIES", "Cards", "FamilyFn"]


class Cards:
    """What a family builds with: the variable map, and at-most-one / at-least-one through
    ``pysat.card`` with one encoding and one pool of auxiliary variables."""

    def __init__(self, amo: str, numbering: Variables) -> None:
        self.encoding = getattr(EncType, amo)
        self.vars = numbering
        self.pool = numbering.pool()

    def at_most_one(self, lits: list[int]) -> list[list[int]]:
        if self.encoding == EncType.pairwise:  # the default: the clause of each pair, in
            return [[-a, -b] for a, b in combinations(lits, 2)]  # pysat.card's order (test_cnf)
        return CardEnc.atmost(lits, 1, vpool=self.pool, encoding=self.encoding).clauses

    def at_least_one(self, lits: list[int]) -> list[list[int]]:
        # The one clause of the literals, which is what pysat.card writes for a bound of 1
        # in every encoding (test_cnf), without building a CNF object per call: a tenth of
        # the 9×9 formula's build, paid by every command line that solves by SAT.
        return [list(lits)]


FamilyFn = Callable[[Geometry, Cards], Iterator[Sequence[int]]]


def cell_alo(geometry: Geometry, cards: Cards) -> Iterator[Sequence[int]]:
    """Every cell holds at least one digit: one clause per cell."""
    for cell in range(geometry.ncells):
        yield from cards.at_least_one(cards.vars.cell_literals(cell))


def cell_amo(geometry: Geometry, cards: Cards) -> Iterator[Sequence[int]]:
    """No cell holds two digits: an at-most-one per cell."""
    for cell in range(geometry.ncells):
        yield from cards.at_most_one(cards.vars.cell_literals(cell))


def unit_alo(geometry: Geometry, cards: Cards) -> Iterator[Sequence[int]]:
    """Every digit lies somewhere in every unit: one clause per (unit, digit)."""
    for unit in geometry.units:
        for d in range(geometry.size):
            yield from cards.at_least_one(cards.vars.digit_literals(unit.cells, d))


def unit_amo(geometry: Geometry, cards: Cards) -> Iterator[Sequence[int]]:
    """No digit twice in a unit: an at-most-one per (unit, digit).

    A pair of cells sharing two units (a row and a box) is constrained once per unit, as in
    the textbook counts (8,748 clauses for 9×9 pairwise).
    """
    for unit in geometry.units:
        for d in range(geometry.size):
            yield from cards.at_most_one(cards.vars.digit_literals(unit.cells, d))


def pair_differ(geometry: Geometry, cards: Cards) -> Iterator[Sequence[int]]:
    """Extra pairs (anti-knight, anti-king) never hold the same digit: one clause
    ``¬x(a,d) ∨ ¬x(b,d)`` per (pair, digit). (An at-most-one of two literals is this one
    clause in every encoding, so it is written directly.)"""
    x = cards.vars.x
    for a, b in geometry.extra_pairs:
        for d in range(geometry.size):
            yield (-x(a, d), -x(b, d))


def triad_def(geometry: Geometry, cards: Cards) -> Iterator[Sequence[int]]:
    """``triad(part, d)`` is true exactly when some cell of the part holds ``d``:
    ``¬t ∨ x1 ∨ x2 ∨ …`` and ``¬xi ∨ t`` for each cell."""
    numbering = cards.vars
    for p, cells in enumerate(parts(geometry).cells):
        for d in range(geometry.size):
            t = numbering.triad(p, d)
            xs = numbering.digit_literals(cells, d)
            yield (-t, *xs)
            for x in xs:
                yield (-x, t)


def part_amo(geometry: Geometry, cards: Cards) -> Iterator[Sequence[int]]:
    """No digit twice in a part: an at-most-one over the part's ``x(·, d)`` per (part,
    digit). With :func:`triad_def` it makes tdoku's exactly-one over the part's cells and
    ``¬triad``; ``augmented`` has these pairs from ``unit_amo`` already."""
    numbering = cards.vars
    for cells in parts(geometry).cells:
        for d in range(geometry.size):
            yield from cards.at_most_one(numbering.digit_literals(cells, d))


def lone_units(geometry: Geometry, cards: Cards) -> Iterator[Sequence[int]]:
    """``unit_alo`` and ``unit_amo`` of each unit that no group of parts covers (a unit
    sharing at most one cell with every other unit, or the columns of a grid whose boxes are
    rows): ``tdoku`` reaches the others only through their parts. None on standard grids."""
    for unit in _lone_units(geometry):
        for d in range(geometry.size):
            lits = cards.vars.digit_literals(unit.cells, d)
            yield from cards.at_least_one(lits)
            yield from cards.at_most_one(lits)


@lru_cache(maxsize=64)
def _lone_units(geometry: Geometry) -> tuple[Unit, ...]:
    """The units no group of :func:`parts` splits into pieces."""
    found = parts(geometry)
    numbering = variables(geometry)
    n, top = geometry.size, numbering.x_count
    covered = set()
    for bases in found.groups:
        cells: set[int] = set()
        for base in bases:  # a one-cell piece is x(cell, 0), a part its triad(part, 0)
            cells.update([(base - 1) // n] if base <= top else found.cells[(base - top - 1) // n])
        covered.add(frozenset(cells))
    return tuple(u for u in geometry.units if frozenset(u.cells) not in covered)


def triad_alo(geometry: Geometry, cards: Cards) -> Iterator[Sequence[int]]:
    """Each digit lies in at least one piece of each group (see :class:`Parts`)."""
    for bases in parts(geometry).groups:
        for d in range(geometry.size):
            yield from cards.at_least_one([b + d for b in bases])


def triad_amo(geometry: Geometry, cards: Cards) -> Iterator[Sequence[int]]:
    """Each digit lies in at most one piece of each group (see :class:`Parts`)."""
    for bases in parts(geometry).groups:
        for d in range(geometry.size):
            yield from cards.at_most_one([b + d for b in bases])


FAMILIES: dict[str, FamilyFn] = {
    "cell_alo": cell_alo,
    "cell_amo": cell_amo,
    "unit_alo": unit_alo,
    "unit_amo": unit_amo,
    "pair_differ": pair_differ,
    "triad_def": triad_def,
    "part_amo": part_amo,
    "triad_alo": triad_alo,
    "triad_amo": triad_amo,
    "lone_units": lone_units,
}
"""Every clause family by name, in the order they appear in a formula."""
