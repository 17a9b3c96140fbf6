"""Lines whose rule is a list of two-cell relations: what whispers, renban, nabner, entropic
and modular lines, palindromes and slow thermometers share.

A line is a path of cells, each a king's move from the one before (sharing a side or a
corner), drawn as f-puzzles draws it: a coloured line through the cells' centres. Some
kinds carry a number (a whispers line's least difference, a modular line's modulus).

:class:`LinePairs` holds the shape: validation (at least two cells, neighbours, whether a
cell may come twice, how long a line may be, the number's range), the tool's own JSON (a
list of label lists, or of ``{"cells": [...], "<number>": k}`` objects for a kind with a
number), the f-puzzles form (``{"lines": [["R1C1", ...]], "value"?: "k"}`` under the kind's
key; every line of an element is one constraint), the drawing, the picture's title, and
:meth:`LinePairs.sample` (random king paths along which the rule holds on a grid). A kind
gives its relations (:meth:`~sudoku_csp.constraints.pairs.PairRules.rules`), which bring
the three translations, and its own :meth:`~LinePairs.violations`, written from the rule.

Relations shared by several kinds live here too: :data:`EQUAL` (palindromes, clones),
:data:`NOT_GREATER` (slow thermometers), :func:`apart` (whispers, nabner).

>>> apart(5).holds(1, 6), apart(5).holds(2, 6)
(True, False)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar

from sudoku_csp.canvas import Canvas, Layer
from sudoku_csp.constraints.base import CellName, Constraint, ConstraintError, at
from sudoku_csp.constraints.fields import (
    FieldError,
    check_path,
    checked,
    entries,
    king_neighbours,
    labels,
    line_cells,
    parse_cells,
    parse_number,
    rcs,
)
from sudoku_csp.constraints.pairs import PairRules, Relation
from sudoku_csp.constraints.wording import counted
from sudoku_csp.geometry import Geometry, Grid

__all__ = ["EQUAL", "NOT_GREATER", "LinePairs", "apart",
           "windows"]

EQUAL = Relation("equal", lambda x, y: x == y, "{a} and {b} are equal")
NOT_GREATER = Relation("not greater", lambda x, y: x <= y, "{a} is not greater than {b}")


@lru_cache(maxsize=64)
def apart(difference: int) -> Relation:
    """Values at least ``difference`` apart (whispers; nabner is ``apart(2)``)."""
    return Relation(f"at least {difference} apart", lambda x, y: abs(x - y) >= difference,
                    f"{{a}} and {{b}} differ by at least {difference}")


SAMPLE_LENGTH = 4
"""The most cells of a line :meth:`LinePairs.sample` draws first (at most the grid size)."""


class LinePairs(PairRules):
    """A line of cells whose rule is a list of two-cell relations (see the module
    docstring). Subclasses are frozen dataclasses with a field ``cells`` (and a number field
    when the kind has one, read by :meth:`number`), its names (one JSON field; the noun, such
    as ``whispers line``, names a line in messages), and class attributes ``colour`` and
    ``width`` (of the drawn line, a fraction of a cell's side) and, for a kind with a number,
    ``option`` (its name in the tool's JSON)."""

    cells: tuple[int, ...]
    fpuzzles_lines: ClassVar[bool] = True
    colour: ClassVar[str]
    width: ClassVar[float] = 0.2
    option: ClassVar[str | None] = None
    """The name of the kind's number in the tool's JSON (``difference``), or ``None``."""
    revisits: ClassVar[bool] = False
    """Whether a line may pass a cell twice (a loop): only where the rule allows it."""
    prefix_closed: ClassVar[bool] = True
    """Whether every start of a line that holds holds too (used to prune :meth:`sample`)."""

    # -- the kind's number -----------------------------------------------------------------
    def number(self) -> int | None:
        """The line's number (``None`` for a kind without one)."""
        return None

    @classmethod
    def default(cls, n: int) -> int | None:
        """The number of a line that gives none, on an ``n``-digit grid."""
        return None

    @classmethod
    def number_range(cls, n: int) -> tuple[int, int]:
        """The least and greatest number a line may carry on an ``n``-digit grid."""
        return 1, n

    @classmethod
    def sample_numbers(cls, n: int, rng: random.Random) -> list[int | None]:
        """The numbers :meth:`sample` tries, in order: a random choice first, then fallbacks
        for which some line surely holds."""
        return [cls.default(n)]

    @classmethod
    def make(cls, cells: tuple[int, ...], number: int | None) -> LinePairs:
        """A line of this kind."""
        return cls(cells)  # type: ignore[call-arg]

    @classmethod
    def longest(cls, n: int) -> int | None:
        """The most cells a line can have and hold on an ``n``-digit grid (``None``: any)."""
        return None

    def check(self, geometry: Geometry) -> None:
        """Further validation of a kind (cells a line passes twice): ConstraintError."""
        return None

    # -- data ------------------------------------------------------------------------------
    def touched(self) -> tuple[int, ...]:
        return self.cells

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        noun = self.names.noun
        return f"{noun} at {at(geometry, self.cells, name)}" if self.cells else noun

    def validate(self, geometry: Geometry) -> None:
        noun = self.names.noun
        if len(self.cells) < 2:
            raise ConstraintError(f"a {noun} needs at least two cells", part="cells")
        super().validate(geometry)
        n = geometry.size
        top = self.longest(n)
        if top is not None and len(self.cells) > top:
            raise ConstraintError(f"a {noun} of {len(self.cells)} cells cannot hold on a "
                                  f"{n}x{n} grid (at most {top} cells)", part="cells")
        check_path(geometry, self.cells, f"the {noun}", revisits=self.revisits)
        number = self.number()
        if number is not None:
            low, high = self.number_range(n)
            if not low <= number <= high:
                raise ConstraintError(f"a {noun} on a {n}x{n} grid takes a {self.option} "
                                      f"from {low} to {high}, not {number}", part="value")
        self.check(geometry)

    # -- JSON ------------------------------------------------------------------------------
    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        key = cls.names.json[0]
        value = fields[key]
        n = geometry.size
        shape = ("a list of cell labels such as [\"A1\", \"A2\", \"B3\"]" if cls.option is None
                 else f"{{\"cells\": [\"A1\", \"A2\"], \"{cls.option}\": {cls.default(n)}}} "
                      f"(or a list of cell labels, for the default {cls.option})")
        if not isinstance(value, list):
            raise FieldError(key, f"expected a list of {cls.names.plural}, each {shape}")
        found: list[Constraint] = []
        for i, item in enumerate(value):
            path = f"{key}[{i}]"
            number = cls.default(n)
            if cls.option is not None and isinstance(item, Mapping):
                unknown = sorted(set(item) - {"cells", cls.option})
                if unknown:
                    raise FieldError(f"{path}.{unknown[0]}",
                                     f"unknown field: expected cells or {cls.option}")
                cells = parse_cells(geometry, item.get("cells"), f"{path}.cells", least=2)
                if cls.option in item:
                    low, high = cls.number_range(n)
                    number = parse_number(item[cls.option], f"{path}.{cls.option}",
                                          low=low, high=high)
            else:
                cells = parse_cells(geometry, item, path, least=2)
            found.append(checked(cls.make(cells, number), geometry, path))
        return found

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        lines = [c for c in constraints if isinstance(c, cls)]
        key = cls.names.json[0]
        if cls.option is None:
            return {key: [labels(geometry, c.cells) for c in lines]}
        return {key: [{"cells": labels(geometry, c.cells), cls.option: c.number()}
                          for c in lines]}

    # -- f-puzzles -------------------------------------------------------------------------
    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        n = geometry.size
        found: list[Constraint] = []
        for key in cls.names.fpuzzles:
            if key not in document:
                continue
            for path, item in entries(document, key):
                number = cls.default(n)
                raw = item.get("value")
                if cls.option is not None and raw is not None and raw != "":
                    low, high = cls.number_range(n)
                    number = parse_number(raw, f"{path}.value", low=low, high=high)
                for where, cells in line_cells(geometry, item, path):
                    found.append(checked(cls.make(cells, number), geometry, where))
        return found

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        default = cls.default(geometry.size)
        written = []
        for c in constraints:
            if isinstance(c, cls):
                entry: dict[str, Any] = {"lines": [rcs(geometry, c.cells)]}
                if c.number() != default:
                    entry["value"] = str(c.number())
                written.append(entry)
        return {cls.names.fpuzzles[0]: written}

    # -- pictures --------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """A line of the kind's colour through the cells' centres, under the digits."""
        css = self.names.name
        canvas.add(Layer.PATHS, [
            f'<path class="{css}-line" d="{canvas.path_through(self.cells)}" '
            f'stroke="{self.colour}" '
            f'stroke-width="{canvas.side * self.width:.1f}" stroke-linecap="round" '
            'stroke-linejoin="round" fill="none"/>'])

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        """``3 whispers lines`` (with the numbers, when the kind has them)."""
        lines = [c for c in constraints if isinstance(c, cls)]
        words = counted(len(lines), cls.names.noun, cls.names.plural)
        numbers = sorted({number for c in lines if (number := c.number()) is not None})
        if numbers:
            words += f" ({cls.option} {', '.join(map(str, numbers))})"
        return [words]

    # -- random lines that hold --------------------------------------------------------------
    @classmethod
    def sample(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> list[Constraint]:
        """One to three random lines of 2 to 4 cells (king paths, no cell twice) along which
        the rule holds on ``grid``; never none: shorter, then longer lines and the fallback
        numbers of :meth:`sample_numbers` are tried until one holds."""
        return [cls.sample_line(geometry, grid, rng) for _ in range(rng.randint(1, 3))]

    @classmethod
    def sample_line(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> LinePairs:
        n = geometry.size
        top = min(n, cls.longest(n) or n)
        first = list(range(2, min(SAMPLE_LENGTH, top) + 1))
        rng.shuffle(first)
        lengths = first + list(range(SAMPLE_LENGTH + 1, top + 1))
        for number in cls.sample_numbers(n, rng):
            for length in lengths:
                cells = cls._find(geometry, grid, rng, length, number)
                if cells is not None:
                    return cls.make(cells, number)
        raise AssertionError(f"no {cls.names.noun} holds on {grid}")  # the fallbacks always hold

    @classmethod
    def _find(cls, geometry: Geometry, grid: Grid, rng: random.Random, length: int,
              number: int | None) -> tuple[int, ...] | None:
        """A random king path of ``length`` cells along which the rule holds, or ``None``
        (a depth-first search in random order)."""
        kings = king_neighbours(geometry.size)

        def holds(path: list[int]) -> bool:
            return not cls.make(tuple(path), number).violations(geometry, grid)

        def grow(path: list[int]) -> tuple[int, ...] | None:
            if len(path) == length:
                return tuple(path) if cls.prefix_closed or holds(path) else None
            nexts = [c for c in kings[path[-1]] if c not in path]
            rng.shuffle(nexts)
            for cell in nexts:
                path.append(cell)
                if not cls.prefix_closed or holds(path):
                    found = grow(path)
                    if found is not None:
                        return found
                path.pop()
            return None

        starts = list(range(geometry.ncells))
        rng.shuffle(starts)
        for start in starts:
            found = grow([start])
            if found is not None:
                return found
        return None


def windows(values: Sequence[int], width: int) -> Iterable[Sequence[int]]:
    """Every run of ``width`` consecutive items (the whole sequence when shorter)."""
    if len(values) <= width:
        return [values]
    return [values[i:i + width] for i in range(len(values) - width + 1)]
