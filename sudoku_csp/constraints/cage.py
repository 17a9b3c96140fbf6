"""Killer cages: the cells of a cage hold different digits that add up to its sum.

A cage without a sum (``total=None``) only says its digits differ. Cages of one puzzle do not
overlap (checked by :func:`sudoku_csp.constraints.check_all`).

Translations:

- native: the *combination rule*. The sets of ``k`` distinct digits adding up to the sum are
  precomputed once per ``(k, sum, N)`` as bitmasks (:func:`combinations_for`); at each call
  the sets still possible are those holding every placed digit of the cage, no digit that no
  cell can take, and some candidate of every cell. Cells keep the digits of those sets, and a
  digit in all of them with one place left in the cage goes there. Placed digits leave the
  other cells of the cage. Cages with too many digit sets to list (large cages on 16×16 and
  beyond, :data:`COMBINATION_LIMIT`) use sum bounds instead.
- CNF, selected by the ``sums`` option of the sat backend (:data:`SUM_ENCODINGS`):
  ``combos`` (the default, faster: see README), clauses derived from the same digit sets: a
  variable ``has(d)`` per digit ("some cell of the cage holds d"), one ``set(j)`` per digit
  set with ``set(j) → has(d)`` for its digits and ``¬has(d)`` for the others, at least one
  set, and ``has(d) → ∨ set(j)`` over the sets holding ``d``; unit propagation on them makes
  the combination rule's deductions. Or any ``pysat.pb`` encoding of the linear equation
  ``Σ (d)·x(c, d) = sum − k`` (``bdd``, ``totalizer``, ``sortnetwrk``, ``seqcounter``,
  ``adder``, ``binmerge``, ``mixedradix``, ``best``; extra ``pb``). Both add a conflict
  clause per digit for each two cells of the cage that share no unit.
- CP-SAT: :meth:`~sudoku_csp.encodings.cpsat.CpSatModel.different_sum` given the same
  digit sets: on integers AllDifferent, the linear sum and the digits of the sets; on
  one-hot literals a selector per digit set tied to the cells by exactly-ones (the
  ``combos`` idea). A cage without a sum: the model's all-different. Then the 45 rule
  (:func:`implied_sums`, :meth:`Cage.joint_cpsat`): innies of each unit and leftovers of
  bands of rows and columns, as cages or plain sums.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.constraints.base import (
    Clause,
    CnfContext,
    Constraint,
    ConstraintError,
    FieldError,
    Link,
    labels,
    parse_cells,
)
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import LINE_KINDS, Geometry

if TYPE_CHECKING:
    from sudoku_csp.encodings.cpsat_model import CpSatModel

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
``pysat.pb`` encoding on given-free 9×9 killers (examples/killer_benchmark.py, README)."""

_FALLBACK_PB = "totalizer"


def sum_range(k: int, n: int) -> tuple[int, int]:
    """The least and greatest sums of ``k`` different values from ``1..n``.

    >>> sum_range(3, 9)
    (6, 24)
    """
    return k * (k + 1) // 2, k * (2 * n - k + 1) // 2


@lru_cache(maxsize=256)
def _sum_table(k: int, n: int) -> dict[int, tuple[int, ...]] | None:
    if comb(n, k) > COMBINATION_LIMIT:
        return None
    table: dict[int, list[int]] = {}
    for digits in combinations(range(n), k):
        table.setdefault(sum(digits) + k, []).append(sum(1 << d for d in digits))
    return {total: tuple(masks) for total, masks in table.items()}


def combinations_for(k: int, total: int, n: int) -> tuple[int, ...] | None:
    """The sets of ``k`` different digits adding up to ``total`` (shown values), as digit
    bitmasks; ``None`` when there are too many to list (:data:`COMBINATION_LIMIT`).

    >>> [bin(m) for m in combinations_for(2, 4, 9)]    # 1+3 only
    ['0b101']
    """
    table = _sum_table(k, n)
    return None if table is None else table.get(total, ())


def _narrow(combos: tuple[int, ...] | None, total: int | None,
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
    while rest:
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


def _sum_link(geometry: Geometry, cells: tuple[int, ...], total: int, different: bool
              ) -> Link:
    """A link for "``cells`` add up to ``total``": a cage's rule when their digits differ,
    else the sum bounds alone (digits may repeat)."""
    if different:
        # An impossible total has no combinations: the link then refutes every state.
        return Link(cells, partial(_narrow, combinations_for(len(cells), total, geometry.size)
                                   if len(cells) <= geometry.size else (), total))
    return Link(cells, partial(_sum_bounds, total))


def _pairwise_peers(geometry: Geometry, cells: Sequence[int]) -> bool:
    """Whether every two of ``cells`` are peers (so their digits differ)."""
    return all(geometry.are_peers(a, b) for i, a in enumerate(cells) for b in cells[i + 1:])


def _sum_bounds(total: int, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    return _bounds(total, list(masks))


MAX_LOOSE_OUTIES = 3
"""Outies whose cells share no unit (a sum with repeats allowed) are kept up to this many
cells (see :meth:`Cage.joint_native`)."""


@dataclass(frozen=True)
class Cage(Constraint):
    """A killer cage: ``cells`` hold different digits whose values add up to ``total``
    (``None``: only different).

    >>> from sudoku_csp.variants import make_geometry
    >>> cage = Cage((0, 1), 3)
    >>> cage.violations(make_geometry(4), [0, 1] + [0] * 14), cage.describe(make_geometry(4))
    ([], 'cage 3 at A1')
    """

    cells: tuple[int, ...]
    total: int | None = None

    kind: ClassVar[str] = "cage"
    keys: ClassVar[tuple[str, ...]] = ("cages",)

    def touched(self) -> tuple[int, ...]:
        return self.cells

    def describe(self, geometry: Geometry) -> str:
        what = "cage" if self.total is None else f"cage {self.total}"
        return f"{what} at {geometry.label(self.cells[0])}" if self.cells else what

    def validate(self, geometry: Geometry) -> None:
        if not self.cells:
            raise ConstraintError("a cage needs at least one cell", part="cells")
        super().validate(geometry)
        seen: set[int] = set()
        for cell in self.cells:
            if cell in seen:
                raise ConstraintError(f"the cage covers {geometry.label(cell)} twice",
                                      part="cells")
            seen.add(cell)
        k, n = len(self.cells), geometry.size
        if k > n:
            raise ConstraintError(f"a cage of {k} cells cannot hold different digits on a "
                                  f"{n}x{n} grid (at most {n} cells)", part="cells")
        if self.total is not None:
            if not isinstance(self.total, int) or isinstance(self.total, bool):
                raise ConstraintError(f"the sum must be a whole number, got {self.total!r}",
                                      part="sum")
            low, high = sum_range(k, n)
            if not low <= self.total <= high:
                raise ConstraintError(
                    f"a cage of {k} cells cannot sum to {self.total} on a {n}x{n} grid: "
                    f"expected {low} to {high}", part="sum")

    @classmethod
    def joint_validate(cls, geometry: Geometry, constraints: Sequence[Constraint]) -> None:
        owner: set[int] = set()
        for cage in constraints:
            for cell in cage.touched():
                if cell in owner:
                    raise ConstraintError(f"{geometry.label(cell)} is in two cages")
                owner.add(cell)

    # -- native -----------------------------------------------------------------------------
    def native(self, geometry: Geometry) -> list[Link]:
        n = geometry.size
        combos = (None if self.total is None
                  else combinations_for(len(self.cells), self.total, n))
        return [Link(self.cells, partial(_narrow, combos, self.total))]

    @classmethod
    def joint_native(cls, geometry: Geometry, constraints: Sequence[Constraint]
                     ) -> list[Link]:
        """The 45 rule: the innies and band leftovers of :func:`implied_sums`, each narrowed
        like a cage when its digits differ (else by the sum's bounds); and *outies*: when
        summed cages cover a unit (total T, 45 on 9×9) and some stick out, their cells
        outside the unit add up to the cages' sums less T (a cage's rule again when those
        cells are peers two by two; bounds alone, kept up to :data:`MAX_LOOSE_OUTIES`
        cells, when not).

        >>> from sudoku_csp.variants import make_geometry
        >>> links = Cage.joint_native(make_geometry(4), [Cage((0, 1), 3)])
        >>> [link.cells for link in links][:2]  # row A: A3 + A4 = 10 - 3; box 1: B1 + B2
        [(2, 3), (4, 5)]
        >>> links[0].narrow((15, 15))           # so A3 and A4 are 3 and 4
        (12, 12)
        """
        links = [_sum_link(geometry, cells, total, different)
                 for cells, total, different in implied_sums(geometry, constraints)]
        owner = {cell: cage for cage in constraints if isinstance(cage, Cage)
                 for cell in cage.cells}
        unit_total = geometry.size * (geometry.size + 1) // 2
        for unit in geometry.units:
            here = set(unit.cells)
            touching = {owner[c] for c in unit.cells if c in owner}
            if len(owner.keys() & here) < len(here) or any(
                    cage.total is None for cage in touching):
                continue
            out = tuple(sorted(c for cage in touching for c in cage.cells if c not in here))
            different = _pairwise_peers(geometry, out)
            # Bounds alone prune little and cost a call each time their cells change.
            # Deciding uniqueness of the first 20 killers of examples/killer9_200.txt:
            # 184 ms per puzzle keeping those of three cells or fewer, 273 ms keeping them
            # all, 251 ms keeping none.
            if out and (different or len(out) <= MAX_LOOSE_OUTIES):
                links.append(_sum_link(geometry, out, sum(
                    cage.total or 0 for cage in touching) - unit_total, different))
        return links

    # -- CNF --------------------------------------------------------------------------------
    def cnf(self, ctx: CnfContext) -> Iterator[Clause]:
        g, x, cells = ctx.geometry, ctx.x, self.cells
        n = g.size
        for i, a in enumerate(cells):
            for b in cells[i + 1:]:
                if not g.are_peers(a, b):
                    for d in range(n):
                        yield (-x(a, d), -x(b, d))
        if self.total is None:
            return
        combos = combinations_for(len(cells), self.total, n)
        if ctx.sums == "combos" and combos is not None:
            yield from self._combo_clauses(ctx, combos)
        else:
            yield from self._pb_clauses(ctx, _FALLBACK_PB if ctx.sums == "combos" else ctx.sums)

    def _combo_clauses(self, ctx: CnfContext, combos: tuple[int, ...]) -> Iterator[Clause]:
        x, cells, n = ctx.x, self.cells, ctx.geometry.size
        possible = 0
        for c in combos:
            possible |= c
        for d in range(n):
            if not possible >> d & 1:
                for cell in cells:
                    yield (-x(cell, d),)
        has = {d: ctx.new_var() for d in range(n) if possible >> d & 1}
        for d, h in has.items():
            lits = [x(cell, d) for cell in cells]
            yield (-h, *lits)
            for lit in lits:
                yield (-lit, h)
        sets = [ctx.new_var() for _ in combos]
        yield tuple(sets)
        for s, c in zip(sets, combos, strict=True):
            for d, h in has.items():
                yield (-s, h) if c >> d & 1 else (-s, -h)
        for d, h in has.items():
            yield (-h, *(s for s, c in zip(sets, combos, strict=True) if c >> d & 1))

    def _pb_clauses(self, ctx: CnfContext, encoding: str) -> list[list[int]]:
        enc = pb_encoding(encoding)
        from pysat.pb import PBEnc

        n, x = ctx.geometry.size, ctx.x
        # Digit d counts d (values minus one), so digit 0 needs no literal: the sum of values
        # is the total exactly when these weights add up to total - k.
        lits = [x(cell, d) for cell in self.cells for d in range(1, n)]
        weights = [d for _ in self.cells for d in range(1, n)]
        bound = self.total - len(self.cells)  # type: ignore[operator]
        return PBEnc.equals(lits=lits, weights=weights, bound=bound, vpool=ctx.pool,
                            encoding=enc).clauses

    # -- CP-SAT -----------------------------------------------------------------------------
    def cpsat(self, model: CpSatModel) -> None:
        if self.total is None:
            if len(self.cells) > 1:
                model.all_different(self.cells)
            return
        # The digit sets that fit (None: too many to list) let each model choose its form.
        model.different_sum(self.cells, self.total, combinations_for(
            len(self.cells), self.total, model.geometry.size))

    @classmethod
    def joint_cpsat(cls, model: CpSatModel, constraints: Sequence[Constraint]) -> None:
        """The 45 rule (:func:`implied_sums`): leftover cells with different digits as a
        cage of the puzzle, others as a plain linear sum.

        CP-SAT does not find these itself: neither model states that a unit adds up to
        45. Deciding uniqueness of the first 30 killers of examples/killer9_200.txt (1
        worker, presolve off, interleaved), the innies alone cut the branches 3-5 fold and
        the time per puzzle from 23 to 14 ms (boolean) and from 100 to 28 ms (alldiff);
        on the easier examples/killer9.txt 9.0 -> 9.5 and 14.9 -> 13.7 ms. Bands of rows
        and columns then took 300 generated killers (first 60) from 24.9 to 19.2 ms
        (boolean) and 54 to 38 ms (alldiff). Outies (cages sticking out of a unit) added
        nothing beyond noise: left out.
        """
        for cells, total, different in implied_sums(model.geometry, constraints):
            if different:
                Cage(cells, total).cpsat(model)
            else:
                model.model.add(sum(model.value(c) for c in cells) == total)

    # -- the independent check --------------------------------------------------------------
    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        values = [grid[c] + 1 for c in self.cells]
        found = []
        if len(set(values)) != len(values):
            found.append(f"{self.describe(geometry)} holds a digit twice")
        if self.total is not None and sum(values) != self.total:
            found.append(f"{self.describe(geometry)} adds up to {sum(values)}")
        return found

    # -- JSON -------------------------------------------------------------------------------
    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        value = fields["cages"]
        if not isinstance(value, list):
            raise FieldError("cages", "expected a list of cages such as "
                                      "[{\"sum\": 15, \"cells\": [\"A1\", \"A2\"]}]")
        cages: list[Constraint] = []
        owner: dict[int, int] = {}
        for i, item in enumerate(value):
            path = f"cages[{i}]"
            if not isinstance(item, dict):
                raise FieldError(path, "expected an object such as "
                                       "{\"sum\": 15, \"cells\": [\"A1\", \"A2\"]}")
            unknown = set(item) - {"sum", "cells"}
            if unknown:
                raise FieldError(f"{path}.{sorted(unknown)[0]}",
                                 "unknown field: a cage has \"sum\" and \"cells\"")
            if "cells" not in item:
                raise FieldError(f"{path}.cells", "missing: expected the cage's cell labels")
            total = item.get("sum")
            if total is not None and (not isinstance(total, int) or isinstance(total, bool)):
                raise FieldError(f"{path}.sum", f"expected a whole number or null, got {total!r}")
            cells = parse_cells(geometry, item["cells"], f"{path}.cells")
            cage = cls(cells, total)
            try:
                cage.validate(geometry)
            except ConstraintError as exc:
                raise FieldError(f"{path}.{exc.part or 'cells'}", exc.reason) from None
            for cell in cells:
                if cell in owner:
                    raise FieldError(f"{path}.cells", f"{geometry.label(cell)} is already in "
                                                      f"cages[{owner[cell]}]")
                owner[cell] = i
            cages.append(cage)
        return cages

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        return {"cages": [{"sum": c.total, "cells": labels(geometry, c.cells)}
                          for c in constraints if isinstance(c, Cage)]}


MAX_BAND_REST = 4
"""Cells left over in a band of rows or columns (:func:`implied_sums`) kept at most: with 4,
19.2 ms per puzzle against 24.9 without bands, 20.9 with 2 and 33.2 with 8 (boolean model,
uniqueness of the first 60 of 300 generated 9×9 killers, interleaved)."""


def implied_sums(geometry: Geometry, constraints: Sequence[Constraint]
                 ) -> list[tuple[tuple[int, ...], int, bool]]:
    """The 45 rule: ``(cells, total, different)`` for every region made of whole units whose cells
    outside the summed cages wholly inside it add up to ``total``: the region's total
    (``N(N+1)/2`` per unit, 45 on 9×9) less those cages' sums. Regions: each unit (the
    innies; cells left over there hold different digits), and each band of 2 to N-1
    consecutive rows or columns when at most :data:`MAX_BAND_REST` cells are left over.
    ``different``: the cells are peers two by two, so their digits differ (always so in a
    unit; in a band they may repeat a digit otherwise). Implied by the rules, so adding
    them never loses a solution.

    >>> from sudoku_csp.variants import make_geometry
    >>> implied_sums(make_geometry(4), [Cage((0, 1), 3)])[:2]   # A1 + A2 = 3: row A, box 1
    [((2, 3), 7, True), ((4, 5), 7, True)]
    """
    unit_total = geometry.size * (geometry.size + 1) // 2
    summed = [(cage.cells, cage.total) for cage in constraints
              if isinstance(cage, Cage) and cage.total is not None]
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
        # Cage indices, not cages: hashing a frozen dataclass made this 2x slower.
        inner = [i for i in {owner[c] for c in cells if c in owner}
                 if here.issuperset(summed[i][0])]
        covered = {c for i in inner for c in summed[i][0]}
        rest = tuple(sorted(c for c in cells if c not in covered))
        if inner and 0 < len(rest) <= most:
            different = number < whole_units or _pairwise_peers(geometry, rest)
            found.append((rest, total - sum(summed[i][1] for i in inner), different))
    return found


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
