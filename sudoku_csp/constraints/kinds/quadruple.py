"""Quadruples: digits in a circle on the corner four cells share; each appears in those four
cells at least as many times as it is written (a digit written twice appears twice).

Translations, each a count over the four cells:

- native: one link over the four cells: a value needing ``k`` cells that only ``k`` cells can
  still hold is placed in them (fewer: contradiction); and when the cells not yet placed are
  exactly as many as the written values still missing, each of them keeps only those values.
  With the grid's units (:meth:`Quadruple.joint_native`): a value the four cells surely hold
  whose places there lie in one unit leaves that unit's other cells, and a value written
  twice (on a diagonal: each row and column of the square holds one) leaves the rest of the
  square's rows and columns. Without it, two quadruples sharing two rows left the search
  thousands of nodes to find that both need a 4 in the same row ("Boxes", Clover: no
  solution in 20 s; with it, instant). With a killer cage holding two or more of the four
  cells (:func:`_with_cage`, the one joint link that sees another kind:
  :attr:`~sudoku_csp.constraints.base.Constraint.joint_sees_all`): the cage's digit sets and
  the written values together, e.g. a cage of three of the four adding up to 11 under a
  quadruple 3, 4, 5 holds two of them (the fourth cell only one), so it is 2, 4, 5 and the
  fourth cell 3 ("Boxes" again: 33,932 nodes without it, 11 with it);
- CNF: "at least ``k`` of the four hold ``v``" as plain clauses without auxiliaries: every
  ``5 - k`` of the four literals hold one that is true (one clause of four for ``k = 1``);
- CP-SAT: per written value, four Booleans each implying "this cell holds ``v``"
  (``value(cell) == v`` enforced by it, for either model kind) whose sum is at least ``k``.

Drawn as f-puzzles draws it: a white circle on the shared corner with the digits in it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import combinations, product
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.canvas import DOT_COLOUR, Canvas, Layer, text
from sudoku_csp.constraints.base import CellName, Constraint, ConstraintError, at
from sudoku_csp.constraints.cage_sums import combinations_for
from sudoku_csp.constraints.fields import (
    FieldError,
    entries,
    labels,
    parse_cells,
    parse_number,
    parse_rcs,
    rcs,
)
from sudoku_csp.constraints.kinds.cage import Cage
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.translation import Clause, CnfContext, Link
from sudoku_csp.constraints.wording import kept
from sudoku_csp.geometry import Geometry, Grid

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel


def _narrow(needs: tuple[tuple[int, int], ...], masks: tuple[int, ...]
            ) -> tuple[int, ...] | None:
    """``needs``: (digit, how many cells must hold it)."""
    out = list(masks)
    for digit, count in needs:
        bit = 1 << digit
        able = [i for i, m in enumerate(out) if m & bit]
        if len(able) < count:
            return None
        if len(able) == count:
            for i in able:
                out[i] = bit
    placed = Counter(m.bit_length() - 1 for m in out if m & (m - 1) == 0)
    missing = 0
    wanted = 0
    for digit, count in needs:
        lack = count - placed[digit]
        if lack > 0:
            missing += lack
            wanted |= 1 << digit
    free = [i for i, m in enumerate(out) if m & (m - 1)]
    if missing > len(free):
        return None
    if missing and missing == len(free):
        for i in free:
            out[i] &= wanted
            if not out[i]:
                return None
    return tuple(out)


def _pointing(needs: tuple[tuple[int, int], ...],
              units: tuple[tuple[int, bool, tuple[int, ...]], ...],
              masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """The four cells first, then the other cells of units through them; ``units``: (which of
    the four lie in the unit, as bits; whether the other two of the four see each other;
    the unit's other cells, as positions)."""
    out = list(masks)
    for digit, count in needs:
        bit = 1 << digit
        able = sum(1 << i for i in range(4) if out[i] & bit)
        if not able:
            return None
        for inside, pair, others in units:
            if (count == 1 and not able & ~inside) or (count == 2 and pair):
                for j in others:
                    if out[j] & bit:
                        out[j] &= ~bit
                        if not out[j]:
                            return None
    return tuple(out)


def _with_cage(needs: tuple[tuple[int, int], ...], pairs: tuple[tuple[int, int], ...],
               inside: int, combos: tuple[int, ...], masks: tuple[int, ...]
               ) -> tuple[int, ...] | None:
    """A quadruple and a killer cage sharing cells: ``masks`` are the four cells, then the
    cage's cells outside them; ``inside``: which of the four lie in the cage, as bits;
    ``pairs``: the pairs of the four that see each other; ``combos``: the cage's digit sets.

    Each cell keeps the digits of some choice of a digit set of the cage and of digits for
    the four (different within the cage and within ``pairs``, the written values as often
    as written) that the cage's other cells can complete. A cell of the four outside the
    cage takes any digit not written as one stand-in (what it meets there is the units'
    business), so the enumeration stays small; that only keeps more, never less.
    """
    quad, rest = masks[:4], masks[4:]
    mine = [quad[i] for i in range(4) if inside >> i & 1] + list(rest)
    written = 0
    for digit, _ in needs:
        written |= 1 << digit
    seen = [0] * len(masks)
    for digits in combos:
        covered = 0
        for m in mine:
            if not m & digits:
                break
            covered |= m & digits
        else:
            if covered != digits:
                continue
            choices = []
            for i in range(4):
                if inside >> i & 1:
                    choices.append([1 << d for d in range(digits.bit_length())
                                    if (quad[i] & digits) >> d & 1])
                else:
                    shown = quad[i] & written
                    choices.append([1 << d for d in range(shown.bit_length()) if shown >> d & 1]
                                   + ([0] if quad[i] & ~written else []))
            for pick in product(*choices):
                if any(pick[i] and pick[i] == pick[j] for i, j in pairs):
                    continue
                used = 0
                for i in range(4):
                    if inside >> i & 1:
                        used |= pick[i]
                if used.bit_count() != inside.bit_count() or \
                        any(pick.count(1 << digit) < k for digit, k in needs):
                    continue
                left = digits & ~used
                reach = 0
                for m in rest:
                    if not m & left:
                        break
                    reach |= m & left
                else:
                    if reach == left:
                        for i in range(4):
                            seen[i] |= pick[i] or quad[i] & ~written
                        for j, m in enumerate(rest, 4):
                            seen[j] |= m & left
    out = tuple(m & s for m, s in zip(masks, seen, strict=True))
    return out if all(out) else None


@dataclass(frozen=True)
class Quadruple(Constraint):
    """``values`` (shown values, sorted, repeats meaning more cells) each appear among the
    four ``cells`` (a 2x2 block, in reading order) at least as often as listed.

    >>> from sudoku_csp.variants import make_geometry
    >>> Quadruple((0, 1, 4, 5), (1, 3)).violations(make_geometry(4), [0, 1, 2, 3] + [0] * 12)
    ['quadruple 13 at A1 has no 3 in A1, A2, B1, B2']
    """

    cells: tuple[int, ...]
    values: tuple[int, ...]

    names = Names("quadruple", json=("quadruples",), fpuzzles=("quadruple",))

    def touched(self) -> tuple[int, ...]:
        return self.cells

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        digits = ("" if max(self.values, default=0) < 10 else ",").join(map(str, self.values))
        return f"quadruple {digits} at {at(geometry, self.cells, name)}" if self.cells \
            else "quadruple"

    def needs(self) -> tuple[tuple[int, int], ...]:
        """(digit, count) for each value written."""
        return tuple((v - 1, k) for v, k in sorted(Counter(self.values).items()))

    def validate(self, geometry: Geometry) -> None:
        super().validate(geometry)
        n = geometry.size
        cells = sorted(self.cells)
        top = cells[0] if cells else 0
        if len(cells) != 4 or top % n == n - 1 or cells != [top, top + 1, top + n, top + n + 1]:
            raise ConstraintError("a quadruple's cells are four cells in a 2x2 square",
                                  part="cells")
        if not 1 <= len(self.values) <= 4:
            raise ConstraintError(f"a quadruple holds 1 to 4 digits, not {len(self.values)}",
                                  part="values")
        for v, k in Counter(self.values).items():
            if not (isinstance(v, int) and 1 <= v <= n):
                raise ConstraintError(f"{v!r} is not a digit of a {n}x{n} grid (1 to {n})",
                                      part="values")
            if k > 2:
                raise ConstraintError(f"{v} cannot stand {k} times in a 2x2 square (two of "
                                      "any three cells share a row or column)", part="values")

    # -- translations -----------------------------------------------------------------------
    def native(self, geometry: Geometry) -> list[Link]:
        needs = self.needs()
        return [Link(self.cells, partial(_narrow, needs))]

    @classmethod
    def joint_native(cls, geometry: Geometry, constraints: Sequence[Constraint]
                     ) -> list[Link]:
        """Per quadruple, with the units through two or more of its cells: a value it surely
        holds whose places among the four lie in one unit is not elsewhere in that unit; a
        value written twice stands on a diagonal, so it is in each unit holding two of the
        four that see each other, when the other two see each other too (rows, columns),
        and nowhere else there (:func:`_pointing`). With each killer cage (a sum) holding
        two or more of its cells, the cage's digit sets and its written values together
        (:func:`_with_cage`); so this kind sees every constraint (:attr:`joint_sees_all`)."""
        links: list[Link] = []
        cages = [c for c in constraints if isinstance(c, Cage) and c.total is not None]
        for c in constraints:
            if not isinstance(c, Quadruple):
                continue
            links.extend(c._cage_links(geometry, cages))
            cells = list(c.cells)
            position = {cell: i for i, cell in enumerate(cells)}
            units = []
            for unit in geometry.units:
                inside = sum(1 << position[x] for x in unit.cells if x in c.cells)
                if inside.bit_count() < 2:
                    continue
                rest = [x for i, x in enumerate(c.cells) if not inside >> i & 1]
                pair = inside.bit_count() == 2 and geometry.are_peers(*rest)
                others = []
                for x in unit.cells:
                    if x not in c.cells:
                        if x not in position:
                            position[x] = len(cells)
                            cells.append(x)
                        others.append(position[x])
                units.append((inside, pair, tuple(others)))
            if units:
                links.append(Link(tuple(cells), partial(_pointing, c.needs(), tuple(units)),
                                  f"{c.describe(geometry)}: a digit its cells hold, all of "
                                  "whose places there lie in one unit, leaves the rest of "
                                  "that unit"))
        return links

    joint_sees_all: ClassVar[bool] = True

    def _cage_links(self, geometry: Geometry, cages: Sequence[Cage]) -> Iterator[Link]:
        pairs = tuple((i, j) for i, j in combinations(range(4), 2)
                      if geometry.are_peers(self.cells[i], self.cells[j]))
        for cage in cages:
            inside = sum(1 << i for i, x in enumerate(self.cells) if x in cage.cells)
            combos = combinations_for(len(cage.cells), cage.total or 0, geometry.size)
            if inside.bit_count() < 2 or combos is None:
                continue
            rest = tuple(x for x in cage.cells if x not in self.cells)
            yield Link(self.cells + rest,
                       partial(_with_cage, self.needs(), pairs, inside, combos),
                       f"{self.describe(geometry)} and {cage.describe(geometry)}: the cage's "
                       "digit sets and the written digits together")

    combines: ClassVar[bool] = True

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """The digits written, which its cells hold, and what that leaves each cell."""
        shown = ", ".join(map(str, self.values))
        return f"its four cells hold {shown}: " + kept(geometry, link.cells, candidates, gone)

    def cnf(self, ctx: CnfContext) -> Iterator[Clause]:
        for digit, count in self.needs():
            lits = [ctx.x(cell, digit) for cell in self.cells]
            yield from combinations(lits, len(lits) - count + 1)

    def cpsat(self, model: CpSatModel) -> None:
        m = model.model
        for digit, count in self.needs():
            chosen = []
            for cell in self.cells:
                here = m.new_bool_var("")
                m.add(model.value(cell) == digit + 1).only_enforce_if(here)
                chosen.append(here)
            m.add(sum(chosen) >= count)

    # -- the independent check --------------------------------------------------------------
    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        shown = [grid[c] + 1 for c in self.cells]
        where = ", ".join(geometry.label(c) for c in self.cells)
        found = []
        for v in sorted(set(self.values)):
            want, have = self.values.count(v), shown.count(v)
            if have < want:
                found.append(f"{self.describe(geometry)} has "
                             f"{'no' if not have else f'only {have}'} {v}"
                             f"{'' if want == 1 else f' (needs {want})'} in {where}")
        return found

    # -- pictures ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """A white circle on the corner the four cells share, the digits in it (two rows of
        two when there are more than two); the cells' candidates keep clear of it."""
        x, y = canvas.corner(max(self.cells))
        r = canvas.side * 0.27
        digits = [str(v) for v in self.values]
        size = r * (0.95 if len(digits) <= 2 else 0.75) * (0.8 if self.values[-1] > 9 else 1)
        spots: list[tuple[float, float]]
        if len(digits) == 1:
            spots = [(x, y)]
        elif len(digits) == 2:
            spots = [(x - r * 0.38, y), (x + r * 0.38, y)]
        else:
            dx, dy = r * 0.36, r * 0.38
            spots = [(x - dx, y - dy), (x + dx, y - dy), (x - dx, y + dy), (x + dx, y + dy)]
            if len(digits) == 3:
                spots[2] = (x, y + dy)
        top_left, top_right, bottom_left, bottom_right = sorted(self.cells)
        clear = r * 0.75
        canvas.pad(top_left, bottom=clear)
        canvas.pad(top_right, bottom=clear)
        canvas.pad(bottom_left, top=clear)
        canvas.pad(bottom_right, top=clear)
        canvas.add(Layer.LABELS, [
            f'<circle class="quadruple" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="#ffffff" '
            f'stroke="{DOT_COLOUR}" stroke-width="1.2"/>',
            *(text(sx, sy, d, size, "quadruple-digit", DOT_COLOUR)
              for d, (sx, sy) in zip(digits, spots, strict=False))])

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        return [f"{len(constraints)} quadruple{'s' * (len(constraints) != 1)}"]

    # -- random instances -------------------------------------------------------------------
    @classmethod
    def sample(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> list[Constraint]:
        """One to three 2x2 squares, each with one to four of the values it holds."""
        n = geometry.size
        corners = [r * n + c for r in range(n - 1) for c in range(n - 1)]
        found: list[Constraint] = []
        for top in rng.sample(corners, rng.randint(1, 3)):
            cells = (top, top + 1, top + n, top + n + 1)
            shown = [grid[c] + 1 for c in cells]
            values = tuple(sorted(rng.sample(shown, rng.randint(1, 4))))
            found.append(cls(cells, values))
        return found

    # -- JSON and f-puzzles -------------------------------------------------------------------
    @classmethod
    def _read(cls, geometry: Geometry, cells: tuple[int, ...], values: object, path: str
              ) -> Quadruple:
        n = geometry.size
        if not isinstance(values, list) or not values:
            raise FieldError(f"{path}.values", "expected a list of 1 to 4 digits such as [1, 2]")
        digits = tuple(sorted(parse_number(v, f"{path}.values[{i}]", low=1, high=n)
                              for i, v in enumerate(values)))
        made = cls(tuple(sorted(cells)), digits)
        try:
            made.validate(geometry)
        except ConstraintError as exc:
            raise FieldError(f"{path}.{exc.part or 'cells'}", exc.reason) from None
        return made

    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        value = fields["quadruples"]
        if not isinstance(value, list):
            raise FieldError("quadruples", "expected a list of quadruples such as "
                                           "[{\"cells\": [\"A1\", \"A2\", \"B1\", \"B2\"], "
                                           "\"values\": [1, 2]}]")
        found: list[Constraint] = []
        for i, item in enumerate(value):
            path = f"quadruples[{i}]"
            if not isinstance(item, Mapping):
                raise FieldError(path, f"expected an object, got {item!r}")
            cells = parse_cells(geometry, item.get("cells"), f"{path}.cells", least=4)
            found.append(cls._read(geometry, cells, item.get("values"), path))
        return found

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        return {"quadruples": [{"cells": labels(geometry, c.cells), "values": list(c.values)}
                               for c in constraints if isinstance(c, Quadruple)]}

    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """``quadruple`` entries: ``{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values":
        [1, 2]}``."""
        found: list[Constraint] = []
        for path, item in entries(document, "quadruple"):
            cells = parse_rcs(geometry, item.get("cells"), f"{path}.cells", least=4)
            found.append(cls._read(geometry, cells, item.get("values"), path))
        return found

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        return {"quadruple": [{"cells": rcs(geometry, c.cells), "values": list(c.values)}
                              for c in constraints if isinstance(c, Quadruple)]}
