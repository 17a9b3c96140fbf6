"""Killer cages: the cells of a cage hold different digits that add up to its sum.

A cage without a sum (``total=None``) only says its digits differ. Cages of one puzzle do not
overlap (checked by :func:`sudoku_csp.constraints.check_all`). A cage of N cells on an N×N grid
holds every digit once, so one without a sum is read as the sum N(N+1)/2 it cannot miss
(:meth:`Cage.sum_for`): every translation then places a digit with one place left in it, and
the 45 rule counts it (Blitz, seven such cages: the native search's nodes 6,537 -> 609, MiniSat's
conflicts 228 -> 94).

Translations:

- native: the *combination rule*. The sets of ``k`` distinct digits adding up to the sum are
  precomputed once per ``(k, sum, N)`` as bitmasks
  (:func:`~sudoku_csp.constraints.cage_sums.combinations_for`); at each call
  the sets still possible are those holding every placed digit of the cage, no digit that no
  cell can take, and some candidate of every cell. Cells keep the digits of those sets, and a
  digit in all of them with one place left in the cage goes there. Placed digits leave the
  other cells of the cage. Cages with too many digit sets to list (large cages on 16×16 and
  beyond, :data:`~sudoku_csp.constraints.cage_sums.COMBINATION_LIMIT`) use sum bounds instead.
- CNF, selected by the cage's encoding option ``sums`` (:data:`SUMS`; the sat backend's
  ``sums``, the ``--sums`` of encode and certify):
  ``combos`` (the default, faster: docs/benchmarks.md), clauses derived from the same digit sets: a
  variable ``has(d)`` per digit ("some cell of the cage holds d"), one ``set(j)`` per digit
  set with ``set(j) → has(d)`` for its digits and ``¬has(d)`` for the others, at least one
  set, and ``has(d) → ∨ set(j)`` over the sets holding ``d``; unit propagation on them makes
  the combination rule's deductions. Or any ``pysat.pb`` encoding of the linear equation
  ``Σ (d)·x(c, d) = sum − k`` (``bdd``, ``totalizer``, ``sortnetwrk``, ``seqcounter``,
  ``adder``, ``binmerge``, ``mixedradix``, ``best``; extra ``pb``). Both add a conflict
  clause per digit for each two cells of the cage that share no unit.
- CP-SAT: :meth:`~sudoku_csp.modeling.cpsat_model.CpSatModel.different_sum` given the same
  digit sets: on integers AllDifferent, the linear sum and the digits of the sets; on
  one-hot literals a selector per digit set tied to the cells by exactly-ones (the
  ``combos`` idea). A cage without a sum: the model's all-different. Then the 45 rule
  (:func:`implied_sums`, :meth:`Cage.joint_cpsat`): innies of each unit and leftovers of
  bands of rows and columns, as cages or plain sums.

Drawn as setters draw cages (a dashed outline inside the cells, the sum in the first cell's
corner); worded in explanations as the cage-combination step (the digit sets that fit).
Killer cages have a generator of their own (:mod:`sudoku_csp.generate.killer`:
:attr:`Cage.own_generator`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.canvas import CAGE_COLOUR, Canvas, Layer
from sudoku_csp.constraints.base import (
    CellName,
    Constraint,
    ConstraintError,
    LinearTerms,
    at,
)
from sudoku_csp.constraints.cage_sums import (
    DEFAULT_SUMS,
    FALLBACK_PB,
    PB_ENCODINGS,
    SUM_ENCODINGS,
    apart_clauses,
    combinations_for,
    combo_clauses,
    narrow,
    pb_encoding,
    seers_of,
    sum_range,
)
from sudoku_csp.constraints.fields import (
    FieldError,
    checked_together,
    entries,
    labels,
    parse_cells,
    parse_number,
    parse_rcs,
    rcs,
)
from sudoku_csp.constraints.implied import FAMILIES, SEERS, seer_clauses
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.rule45 import cage_clauses, cage_cpsat, cage_links
from sudoku_csp.constraints.translation import (
    Clause,
    CnfContext,
    EncodingOption,
    Link,
    with_guard,
)
from sudoku_csp.geometry import Geometry, Grid

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel


def _usable(sums: str) -> None:
    """InputError unless the cage-sum encoding ``sums`` can be built here (``pysat.pb``'s
    encodings need its optional encoder library)."""
    if sums in PB_ENCODINGS:
        pb_encoding(sums)


SUMS = EncodingOption("sums", DEFAULT_SUMS, "killer cage sums: combos (clauses over the digit "
                      "sets that fit) or a pysat.pb encoding", SUM_ENCODINGS,
                      "cage-sum encoding", _usable)
"""The cage's CNF encoding option: how sums are written
(:mod:`sudoku_csp.constraints.cage_sums`)."""

HOUSE_CAGES = EncodingOption(
    "house_cages", "on", "killer cages in CNF: a cage of N cells without a sum read as holding "
    "each digit once (on: a clause per digit, and the 45 rule counts it) or only as different "
    "digits (off)", ("on", "off"), "house-cage switch", unrecorded="off")
"""Whether CNF reads a cage of N cells without a sum as a house (:meth:`Cage.sum_for`; the
native and CP-SAT translations always do). ``on`` since stop 45; a certificate written
before names no ``house_cages`` and reads as made then, without it."""

SHOWN_SETS = 6
"""Digit sets an explanation of a cage step lists before it says how many more there are."""


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

    names = Names("cage", json=("cages",), fpuzzles=("killercage",), aliases=("killer",))
    own_generator: ClassVar[bool] = True
    encoding_options: ClassVar[tuple[EncodingOption, ...]] = (SUMS, SEERS, HOUSE_CAGES,
                                                               *FAMILIES)

    def touched(self) -> tuple[int, ...]:
        return self.cells

    def is_house(self, n: int) -> bool:
        """Whether the cage, on an ``n``×``n`` grid, has no sum and ``n`` cells: its ``n``
        different digits are each digit once, as a row's are."""
        return self.total is None and len(self.cells) == n

    def sum_for(self, n: int) -> int | None:
        """What the cage's digits add up to on an ``n``×``n`` grid: its sum, or for a cage of
        ``n`` cells without one ``n(n+1)/2`` (:meth:`is_house`); ``None`` for a shorter cage
        without a sum.

        >>> Cage((0, 1), 3).sum_for(4), Cage((0, 1, 4, 5)).sum_for(4), Cage((0, 1)).sum_for(4)
        (3, 10, None)
        """
        return n * (n + 1) // 2 if self.is_house(n) else self.total

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        what = "cage" if self.total is None else f"cage {self.total}"
        return f"{what} at {at(geometry, self.cells, name)}" if self.cells else what

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
                shown = (self.total if abs(self.total) < 10**12
                         else f"a number of {len(str(abs(self.total)))} digits")
                raise ConstraintError(
                    f"a cage of {k} cells cannot sum to {shown} on a {n}x{n} grid: "
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
    def linear_sums(self, geometry: Geometry) -> list[tuple[LinearTerms, int]]:
        """The cage's cells add up to its sum (:meth:`sum_for`; none without one)."""
        total = self.sum_for(geometry.size)
        if total is None:
            return []
        return [(tuple((c, 1) for c in self.cells), total)]

    def native(self, geometry: Geometry) -> list[Link]:
        n, total = geometry.size, self.sum_for(geometry.size)
        combos = None if total is None else combinations_for(len(self.cells), total, n)
        return [Link(self.cells, partial(narrow, combos, total))]

    @classmethod
    def joint_native(cls, geometry: Geometry, constraints: Sequence[Constraint]
                     ) -> list[Link]:
        """The implied constraints of killer cages with the units
        (:mod:`sudoku_csp.constraints.implied`, derived by
        :mod:`sudoku_csp.constraints.rule45`): hidden cages and the law of leftovers, each
        narrowed like a cage when its digits differ (else read as a sum), and each cage's
        required digits leaving the cells that see it.

        >>> from sudoku_csp.variants import make_geometry
        >>> links = Cage.joint_native(make_geometry(4), [Cage((0, 1), 3)])
        >>> [link.cells for link in links][:2]  # row A: A3 + A4 = 10 - 3; box 1: B1 + B2
        [(2, 3), (4, 5)]
        >>> links[0].narrow((15, 15))           # so A3 and A4 are 3 and 4
        (12, 12)
        """
        return cage_links(geometry, _summed(constraints, geometry.size))

    # -- CNF --------------------------------------------------------------------------------
    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        cells, n = self.cells, ctx.geometry.size
        # One list, not a generator: a killer's model is thousands of these clauses, each
        # written with the context's guard (Guarded) so that none is copied to add it.
        clauses = apart_clauses(ctx, cells)
        if self.total is None:
            if self.is_house(n) and ctx.option(HOUSE_CAGES) == "on":  # each digit once
                clauses += with_guard([ctx.cell_vars(cells)[d::n] for d in range(n)],
                                      ctx.guard)
            return clauses
        combos = combinations_for(len(cells), self.total, n)
        sums = ctx.option(SUMS)
        if sums == "combos" and combos is not None:
            clauses += combo_clauses(ctx, cells, combos, seers_of(ctx.geometry, cells)
                                     if _seers(ctx) else (), guarded=True)
        else:
            clauses += with_guard(self._pb_clauses(ctx, FALLBACK_PB if sums == "combos"
                                                   else sums), ctx.guard)
        return clauses

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

    @classmethod
    def joint_cnf(cls, ctx: CnfContext, constraints: Sequence[Constraint]) -> Iterable[Clause]:
        """The implied sums of :meth:`joint_native` as clauses, each family as ``ctx``'s
        options choose."""
        cages = (_summed(constraints, ctx.geometry.size) if ctx.option(HOUSE_CAGES) == "on"
                 else [c for c in constraints if isinstance(c, Cage)])
        return cage_clauses(ctx, cages, _seers(ctx))

    # -- CP-SAT -----------------------------------------------------------------------------
    def cpsat(self, model: CpSatModel) -> None:
        n = model.geometry.size
        total = self.sum_for(n)
        if total is None:
            if len(self.cells) > 1:
                model.all_different(self.cells)
            return
        # The digit sets that fit (None: too many to list) let each model choose its form.
        model.different_sum(self.cells, total, combinations_for(len(self.cells), total, n))

    @classmethod
    def joint_cpsat(cls, model: CpSatModel, constraints: Sequence[Constraint]) -> None:
        """The implied constraints of :meth:`joint_native` (hidden cages, leftovers, each
        cage's required digits), each family as the model's options choose: a leftover
        with different digits as a cage of the puzzle, any other as a linear sum.

        CP-SAT does not find these itself: neither model states that a unit adds up to
        45. The innies cut its branches several fold on hard killers
        (docs/design.md: Design choices, measured).
        """
        cage_cpsat(model, _summed(constraints, model.geometry.size))

    # -- the independent check --------------------------------------------------------------
    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        values = [grid[c] + 1 for c in self.cells]
        found = []
        if len(set(values)) != len(values):
            found.append(f"{self.describe(geometry)} holds a digit twice")
        if self.total is not None and sum(values) != self.total:
            found.append(f"{self.describe(geometry)} adds up to {sum(values)}")
        return found

    # -- pictures ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """A dashed outline just inside the cage's cells (inset, so that neighbouring cages
        and box borders stay apart), its sum small on a white patch in the top-left corner
        of its first cell (in reading order, which always has one); candidates keep clear
        of both."""
        inset, side = canvas.outline_inset, canvas.side
        clear = inset + 1.5
        for cell, sides in canvas.outline_sides(self.cells).items():
            canvas.pad(cell, *(clear if near else 0.0 for near in sides))
        dash = f"{side * 0.1:.1f} {side * 0.075:.1f}"
        canvas.add(Layer.OUTLINES, [
            f'<path class="cage" d="{canvas.outline(self.cells, inset)}" '
            f'stroke="{CAGE_COLOUR}" stroke-width="1" stroke-dasharray="{dash}" fill="none"/>'])
        if self.total is not None:
            first = min(self.cells)
            canvas.pad(first, canvas.corner_label_bottom + 0.5)
            x, y = canvas.corner(first)
            middle = (canvas.corner_label_top + canvas.corner_label_bottom) / 2
            canvas.add(Layer.LABELS, canvas.label("cage-sum", x + 1.5, y + middle,
                                                  str(self.total), canvas.corner_label_size,
                                                  anchor_left=True))

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        return [f"{len(constraints)} killer cage{'s' * (len(constraints) != 1)}"]

    # -- explanations ---------------------------------------------------------------------------
    combines: ClassVar[bool] = True

    def why(self, geometry: Geometry, candidates: Sequence[int]) -> str:
        """The cage-combination step: the digit sets that add up to the sum and can still
        fill the cells, shown by symbol (the candidates none of them uses go); for a cage of
        N cells without a sum, that it holds each digit once."""
        if self.total is None:
            return "its cells hold each digit once" if self.is_house(geometry.size) else ""
        fits = self.fitting_sets(geometry, candidates)
        symbols = geometry.symbols
        shown = ", ".join("/".join(symbols[d] for d in range(geometry.size) if m >> d & 1)
                          for m in fits[:SHOWN_SETS])
        more = f" and {len(fits) - SHOWN_SETS} more" if len(fits) > SHOWN_SETS else ""
        return f"only {shown}{more} add up to {self.total} here"

    def fitting_sets(self, geometry: Geometry, candidates: Sequence[int]) -> list[int]:
        """The digit sets (bitmasks) that add up to the cage's sum and can fill its cells
        given every cell's candidate mask.

        >>> from sudoku_csp.variants import make_geometry
        >>> Cage((0, 1), 4).fitting_sets(make_geometry(4), [0b1111] * 16)   # 1+3
        [5]
        """
        if self.total is None:
            return []
        combos = combinations_for(len(self.cells), self.total, geometry.size) or ()
        masks = [candidates[c] for c in self.cells]
        fits = []
        for combo in combos:
            if all(m & combo for m in masks):
                union = 0
                for m in masks:
                    union |= m & combo
                if union == combo:
                    fits.append(combo)
        return fits

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

    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """``killercage`` entries: ``{"cells": [...], "value": "15"}``; no value (or an empty
        one) is a cage without a sum."""
        cages: list[Constraint] = []
        n = geometry.size
        for path, item in entries(document, "killercage"):
            cells = parse_rcs(geometry, item.get("cells"), f"{path}.cells")
            value = item.get("value")
            total = None
            if value not in (None, ""):
                total = parse_number(value, f"{path}.value", low=1, high=n * (n + 1) // 2)
            cage = cls(cells, total)
            try:
                cage.validate(geometry)
            except ConstraintError as exc:
                raise FieldError(f"{path}.{'value' if exc.part == 'sum' else 'cells'}",
                                 exc.reason) from None
            cages.append(cage)
        return checked_together(cls, geometry, cages, "killercage")

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        return {"killercage": [
            {"cells": rcs(geometry, c.cells), **({} if c.total is None else
                                                  {"value": str(c.total)})}
            for c in constraints if isinstance(c, Cage)]}

    @classmethod
    def sample(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> list[Constraint]:
        """One to three cages of two or three side-sharing cells holding different digits,
        most with their sum."""
        n = geometry.size
        free = set(range(geometry.ncells))
        cages: list[Constraint] = []
        for _ in range(rng.randint(1, 3)):
            cell = rng.choice(sorted(free))
            cells = [cell]
            for _ in range(rng.randint(1, 2)):
                r, c = divmod(cells[-1], n)
                near = [o for o in (cells[-1] - n, cells[-1] + n,
                                    cells[-1] - 1 if c else -1, cells[-1] + 1 if c + 1 < n else -1)
                        if o in free and o not in cells and grid[o] not in
                        {grid[x] for x in cells}]
                if not near:
                    break
                cells.append(rng.choice(near))
            free -= set(cells)
            total = sum(grid[x] + 1 for x in cells) if rng.random() < 0.8 else None
            cages.append(cls(tuple(sorted(cells)), total))
        return cages


def _seers(ctx: CnfContext) -> bool:
    """Whether this puzzle's cages, its own and the 45 rule's, tell the cells that see them
    their required digits: one decision for both (:func:`~sudoku_csp.constraints.implied.
    seer_clauses` over :func:`_tiled`)."""
    return seer_clauses(ctx, partial(_tiled, ctx.geometry))


def _tiled(geometry: Geometry, constraints: Sequence[Constraint]) -> bool:
    """Whether the cages with a total among a puzzle's ``constraints`` cover every cell of
    ``geometry``, as a killer's do: :data:`~sudoku_csp.constraints.implied.SEERS`
    ``uncovered`` then writes no seers. A cage of N cells without a total (a region, as
    "Blitz" has seven) is not counted: measured, such puzzles gain by seers as sparse cages
    do ("Blitz" 162 -> 57 conflicts).

    >>> from sudoku_csp.variants import make_geometry
    >>> g = make_geometry(4)
    >>> boxes = [Cage(box, 10) for box in ((0, 1, 4, 5), (2, 3, 6, 7), (8, 9, 12, 13),
    ...                                   (10, 11, 14, 15))]
    >>> _tiled(g, [Cage((0, 1), 3)]), _tiled(g, boxes)
    (False, True)
    """
    covered: set[int] = set()
    for c in constraints:
        if isinstance(c, Cage) and c.total is not None:
            covered.update(c.cells)
    return len(covered) == geometry.ncells


def _summed(constraints: Sequence[Constraint], n: int) -> list[Cage]:
    """The cages among ``constraints`` as the 45 rule reads them: a cage of ``n`` cells
    without a sum with the sum it cannot miss (:meth:`Cage.sum_for`)."""
    return [Cage(c.cells, c.sum_for(n)) if c.is_house(n) else c
            for c in constraints if isinstance(c, Cage)]
