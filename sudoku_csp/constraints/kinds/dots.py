"""Dots with values between cells that share a side, as f-puzzles writes them, and their
negative rules.

- a *difference* dot (white) of value ``v`` (1 unless written): the two values differ by
  exactly ``v``;
- a *ratio* dot (black) of value ``v`` (2 unless written): one value is ``v`` times the other;
- a *sum* dot of value ``v``: the two values add up to ``v``;
- an *X* or a *V*: the two values add up to 10 or 5.

Negative rules (f-puzzles' ``negative`` list, with the conventions of Rangsk's solver):

- ``difference``: neighbours without a kropki dot (difference or ratio) differ by none of the
  values the difference dots carry; f-puzzles' ``nonconsecutive`` flag on a puzzle with kropki
  dots adds the value 1 (neighbours without a kropki dot are not consecutive);
- ``ratio``: neighbours without a kropki dot stand in none of the ratios the ratio dots carry,
  nor 1:2;
- ``xv``: neighbours without an X, V or sum dot add up to neither 5 nor 10;
- ``sum``: neighbours without an X, V or sum dot add up to none of the sum dots' values.

A puzzle holds one :class:`Dots` (``single``): the negative rules read every dot at once.

Translations: a :class:`~sudoku_csp.constraints.pairs.PairRules` kind, each marked pair one
relation (named by its value, ``dot difference 3``), each unmarked pair under a negative rule
one relation forbidding every value the negatives name (one link, not one per rule): arc
consistency natively, support or conflict clauses in CNF, tables in CP-SAT; exact and cheap
for a rule between two cells.

The kinds :class:`~sudoku_csp.constraints.kinds.kropki.Kropki` and
:class:`~sudoku_csp.constraints.kinds.xv.XV` say special cases in the tool's own JSON; an f-puzzles
document's dots all read as this kind.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from sudoku_csp.canvas import DOT_COLOUR, Canvas, Layer, text
from sudoku_csp.constraints import value_dots
from sudoku_csp.constraints.base import CellName, Constraint, ConstraintError
from sudoku_csp.constraints.fields import (
    FieldError,
    checked,
    entries,
    orthogonal_pairs,
    parse_bool,
    parse_cells,
    parse_rcs,
    rcs,
)
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.pairs import PairRules, Relation
from sudoku_csp.constraints.value_dots import DEFAULTS, FAMILIES, LETTERS, Dot
from sudoku_csp.geometry import Geometry, Grid


@dataclass(frozen=True)
class Dots(PairRules):
    """Difference, ratio and sum dots, X and V marks, and the negative rules.

    >>> from sudoku_csp.variants import make_geometry
    >>> grid = [0, 1, 2, 3, 2, 3, 0, 1, 1, 0, 3, 2, 3, 2, 1, 0]   # rows 1234 3412 2143 4321
    >>> Dots(ratio=((1, 2, 3),)).violations(make_geometry(4), grid)
    ['ratio dot 3 between A2 and A3 joins 2 and 3']
    >>> Dots(sums=((0, 1, 3),), negative=("sum",)).violations(make_geometry(4), grid)[0]
    'B3 and B4 add up to 3 but no X, V or sum dot is between them'
    """

    difference: tuple[Dot, ...] = ()
    ratio: tuple[Dot, ...] = ()
    sums: tuple[Dot, ...] = ()
    xv: tuple[Dot, ...] = ()
    negative: tuple[str, ...] = ()
    """The negative rules in force: words of :data:`FAMILIES`, sorted."""
    nonconsecutive: bool = False
    """f-puzzles' ``nonconsecutive`` on a puzzle with kropki dots: neighbours without a
    kropki dot are not consecutive."""

    names = Names("dots", json=("value_dots",), fpuzzles=FAMILIES, fpuzzles_negative=FAMILIES,
                  noun="dot")
    single: ClassVar[bool] = True

    def families(self) -> tuple[tuple[str, tuple[Dot, ...]], ...]:
        return (("difference", self.difference), ("ratio", self.ratio), ("sum", self.sums),
                ("xv", self.xv))

    def touched(self) -> tuple[int, ...]:
        return tuple(c for _, dots in self.families() for a, b, _ in dots for c in (a, b))

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        return "dots"

    def validate(self, geometry: Geometry) -> None:
        super().validate(geometry)
        for family, dots in self.families():
            for a, b, value in dots:
                reason = value_dots.reason(geometry, family, a, b, value)
                if reason:
                    raise ConstraintError(reason, part=family)
        wrong = [w for w in self.negative if w not in FAMILIES]
        if wrong:
            raise ConstraintError(f"unknown negative rule {wrong[0]!r}: expected "
                                  f"{', '.join(FAMILIES)}", part="negative")

    # -- translations -----------------------------------------------------------------------
    def rules(self, geometry: Geometry) -> list[tuple[int, int, Relation]]:
        ruled = [(a, b, value_dots.difference(v)) for a, b, v in self.difference]
        ruled += [(a, b, value_dots.ratio(v)) for a, b, v in self.ratio]
        ruled += [(a, b, value_dots.sum_of(v)) for a, b, v in (*self.sums, *self.xv)]
        differences: set[int] = set()
        if "difference" in self.negative:
            differences.update(v for _, _, v in self.difference)
        if self.nonconsecutive:
            differences.add(1)
        ratios = ({2} | {v for _, _, v in self.ratio}) if "ratio" in self.negative else set()
        sums: set[int] = set()
        if "xv" in self.negative:
            sums.update(LETTERS)
        if "sum" in self.negative:
            sums.update(v for _, _, v in self.sums)
        if differences or ratios or sums:
            kropki = {(min(a, b), max(a, b)) for a, b, _ in (*self.difference, *self.ratio)}
            summed = {(min(a, b), max(a, b)) for a, b, _ in (*self.sums, *self.xv)}
            d, r, s = (tuple(sorted(values)) for values in (differences, ratios, sums))
            for a, b in orthogonal_pairs(geometry):
                by_kropki = ((), ()) if (a, b) in kropki else (d, r)
                by_sum = () if (a, b) in summed else s
                if by_kropki[0] or by_kropki[1] or by_sum:
                    ruled.append((a, b, value_dots.unmarked(*by_kropki, by_sum)))
        return ruled

    # -- the independent check --------------------------------------------------------------
    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        found = []
        label = geometry.label
        for a, b, v in self.difference:
            x, y = grid[a] + 1, grid[b] + 1
            if abs(x - y) != v:
                found.append(f"difference dot {v} between {label(a)} and {label(b)} joins "
                             f"{x} and {y}")
        for a, b, v in self.ratio:
            x, y = grid[a] + 1, grid[b] + 1
            if x != v * y and y != v * x:
                found.append(f"ratio dot {v} between {label(a)} and {label(b)} joins {x} "
                             f"and {y}")
        for name, dots in (("sum dot", self.sums), ("X/V", self.xv)):
            for a, b, v in dots:
                x, y = grid[a] + 1, grid[b] + 1
                if x + y != v:
                    found.append(f"{name} {v} between {label(a)} and {label(b)} joins {x} "
                                 f"and {y}")
        # The negative rules, pair by pair of neighbours (right, then below).
        no_differences = [v for a, b, v in self.difference] if "difference" in self.negative \
            else []
        if self.nonconsecutive:
            no_differences.append(1)
        no_ratios = [2, *(v for a, b, v in self.ratio)] if "ratio" in self.negative else []
        no_sums = [5, 10] if "xv" in self.negative else []
        if "sum" in self.negative:
            no_sums += [v for a, b, v in self.sums]
        if not (no_differences or no_ratios or no_sums):
            return found
        # The value pairs the negative rules bar, once: each pair of neighbours is then
        # looked at by a set lookup (the messages say which rule).
        n = geometry.size
        barred = _barred(n, frozenset(no_differences), frozenset(no_ratios))
        unsummed = _barred(n, frozenset(), frozenset(), frozenset(no_sums))
        kropki = {(min(a, b), max(a, b)) for a, b, v in self.difference + self.ratio}
        summed = {(min(a, b), max(a, b)) for a, b, v in self.sums + self.xv}
        for a, b in _neighbours(n):
            x, y = grid[a] + 1, grid[b] + 1
            if (x, y) in barred and (a, b) not in kropki:
                if abs(x - y) in no_differences:
                    found.append(f"{label(a)} and {label(b)} differ by {abs(x - y)} "
                                 "but no kropki dot is between them")
                big, small = max(x, y), min(x, y)
                if big % small == 0 and big // small in no_ratios:
                    found.append(f"{label(a)} and {label(b)} are in ratio "
                                 f"{big // small}:1 but no kropki dot is between them")
            if (x, y) in unsummed and (a, b) not in summed:
                found.append(f"{label(a)} and {label(b)} add up to {x + y} but no X, "
                             "V or sum dot is between them")
        return found

    # -- pictures ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """As f-puzzles draws them, on the edge between the two cells (whose candidates keep
        clear): a white dot for a difference, a black one for a ratio, with the value
        written in it when it is not the usual 1 or 2; a small white circle with its sum for
        a sum dot; the letter for an X or a V."""
        small = canvas.dot_radius
        big = max(small, canvas.side * 0.16)  # a dot with a number in it
        for family, dots in self.families():
            for a, b, v in dots:
                canvas.pad_edge(a, b)
                x, y = canvas.edge_middle(a, b)
                if family != "xv" and (family == "sum" or v != DEFAULTS[family]):
                    first, second = min(a, b), max(a, b)
                    if second == first + 1:  # side by side
                        canvas.pad(first, right=big + 0.5)
                        canvas.pad(second, left=big + 0.5)
                    else:
                        canvas.pad(first, bottom=big + 0.5)
                        canvas.pad(second, top=big + 0.5)
                if family == "xv":
                    canvas.add(Layer.MARKS, canvas.label(f"dot-{LETTERS[v].lower()}", x, y,
                                                         LETTERS[v], canvas.letter_size,
                                                         bold=True))
                    continue
                written = family == "sum" or v != DEFAULTS[family]
                black = family == "ratio"
                r = big if written else small
                fill, ink = (DOT_COLOUR, "#ffffff") if black else ("#ffffff", DOT_COLOUR)
                elements = [f'<circle class="dot-{family}" cx="{x:.1f}" cy="{y:.1f}" '
                            f'r="{r:.1f}" fill="{fill}" stroke="{DOT_COLOUR}" '
                            'stroke-width="1.2"/>']
                if written:
                    size = r * (1.25 if v < 10 else 1.0)
                    elements.append(text(x, y, str(v), size, f"dot-{family}-value", ink))
                canvas.add(Layer.MARKS, elements)

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        """``dots (3 difference, 2 ratio, 1 sum, 2 X/V; negative: difference, ratio)``."""
        found = []
        for c in constraints:
            if isinstance(c, Dots):
                counts = ", ".join(f"{len(dots)} {'X/V' if family == 'xv' else family}"
                                   for family, dots in c.families() if dots)
                rules = [*c.negative, *(["non-consecutive"] if c.nonconsecutive else [])]
                negative = f"; negative: {', '.join(rules)}" if rules else ""
                found.append(f"dots ({counts or 'none'}{negative})")
        return found

    # -- random instances -------------------------------------------------------------------
    @classmethod
    def sample(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> list[Constraint]:
        """A few dots read off ``grid`` (each of a sort its pair fits), sometimes under
        negative rules, which then get every dot they need."""
        n = geometry.size
        pairs = orthogonal_pairs(geometry)
        values = {(a, b): (grid[a] + 1, grid[b] + 1) for a, b in pairs}

        def fits(pair: tuple[int, int]) -> list[tuple[str, int]]:
            x, y = values[pair]
            found = [("difference", abs(x - y)), ("sum", x + y)]
            if max(x, y) % min(x, y) == 0:
                found.append(("ratio", max(x, y) // min(x, y)))
            if x + y in LETTERS and x + y <= 2 * n - 1:
                found.append(("xv", x + y))
            return found

        negative = tuple(w for w in FAMILIES if rng.random() < 0.25)
        nonconsecutive = rng.random() < 0.2
        kropki: dict[tuple[int, int], tuple[str, int]] = {}
        summed: dict[tuple[int, int], tuple[str, int]] = {}
        for pair in rng.sample(pairs, rng.randint(1, 5)):
            family, v = rng.choice(fits(pair))
            (summed if family in ("sum", "xv") else kropki)[pair] = (family, v)
        # Under a negative rule every pair it names gets a dot (of a value already named).
        differences = {v for f, v in kropki.values() if f == "difference"} \
            if "difference" in negative else set()
        if nonconsecutive:
            differences.add(1)
        ratios = {2, *(v for f, v in kropki.values() if f == "ratio")} \
            if "ratio" in negative else set()
        for pair in pairs:
            x, y = values[pair]
            if pair not in kropki and abs(x - y) in differences:
                kropki[pair] = ("difference", abs(x - y))
        for pair in pairs:
            x, y = values[pair]
            big, small = max(x, y), min(x, y)
            if pair not in kropki and big % small == 0 and big // small in ratios:
                kropki[pair] = ("ratio", big // small)
        sums = {5, 10} if "xv" in negative else set()
        if "sum" in negative:
            sums |= {v for f, v in summed.values() if f == "sum"}
        for pair in pairs:
            total = sum(values[pair])
            if pair not in summed and total in sums:
                summed[pair] = ("xv" if total in LETTERS else "sum", total)
        found: dict[str, list[Dot]] = {family: [] for family in FAMILIES}
        for (a, b), (family, v) in [*kropki.items(), *summed.items()]:
            found[family].append((a, b, v))
        nonconsecutive = nonconsecutive and bool(found["difference"] or found["ratio"])
        return [_build(found, negative, nonconsecutive)]

    # -- generation -------------------------------------------------------------------------
    @classmethod
    def merge(cls, pieces: Sequence[Constraint]) -> list[Constraint]:
        """Every dot of the pieces a generator kept, under every negative rule any of them
        is under, as the one constraint a puzzle holds (the generator keeps only pieces that
        merge without changing what they say)."""
        dots = [p for p in pieces if isinstance(p, Dots)]
        if not dots:
            return []
        found: dict[str, list[Dot]] = {family: [] for family in FAMILIES}
        for piece in dots:
            for family, marked in piece.families():
                found[family].extend(d for d in marked if d not in found[family])
        return [_build(found, [w for p in dots for w in p.negative],
                       any(p.nonconsecutive for p in dots))]

    @classmethod
    def made(cls, constraints: Sequence[Constraint]) -> str:
        """``5 dots (3 difference, 2 X/V; negative: xv)``."""
        for c in constraints:
            if isinstance(c, Dots):
                count = sum(len(dots) for _, dots in c.families())
                sorts = ", ".join(f"{len(dots)} {'X/V' if family == 'xv' else family}"
                                  for family, dots in c.families() if dots)
                rules = [*c.negative, *(["non-consecutive"] if c.nonconsecutive else [])]
                negative = f"; negative: {', '.join(rules)}" if rules else ""
                return f"{count} dot{'' if count == 1 else 's'} ({sorts or 'none'}{negative})"
        return "no dots"

    # -- JSON -------------------------------------------------------------------------------
    @classmethod
    def _made(cls, found: Mapping[str, list[Dot]], negative: Sequence[str],
              nonconsecutive: bool, geometry: Geometry, path: str) -> Dots:
        return checked(_build(found, negative, nonconsecutive), geometry, path)

    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        value = fields["value_dots"]
        if not isinstance(value, Mapping):
            raise FieldError("value_dots", "expected an object such as {\"difference\": "
                                           "[{\"cells\": [\"A1\", \"A2\"], \"value\": 3}], "
                                           "\"negative\": [\"difference\"]}")
        unknown = set(value) - {*FAMILIES, "negative", "nonconsecutive"}
        if unknown:
            raise FieldError(f"value_dots.{sorted(unknown)[0]}",
                             f"unknown field: expected {', '.join(FAMILIES)}, negative or "
                             "nonconsecutive")
        found: dict[str, list[Dot]] = {}
        for family in FAMILIES:
            items = value.get(family, [])
            path = f"value_dots.{family}"
            if not isinstance(items, list):
                raise FieldError(path, "expected a list of dots such as "
                                       "[{\"cells\": [\"A1\", \"A2\"], \"value\": 3}]")
            found[family] = []
            for i, item in enumerate(items):
                where = f"{path}[{i}]"
                if not isinstance(item, Mapping):
                    raise FieldError(where, f"expected an object, got {item!r}")
                cells = parse_cells(geometry, item.get("cells"), f"{where}.cells", least=2)
                found[family].append(value_dots.read_dot(geometry, family, cells, item, where))
        negative = value.get("negative", [])
        if not isinstance(negative, list) or any(w not in FAMILIES for w in negative):
            raise FieldError("value_dots.negative", f"expected a list of words among "
                                                    f"{', '.join(FAMILIES)}")
        nonconsecutive = parse_bool(value.get("nonconsecutive", False),
                                    "value_dots.nonconsecutive")
        return [cls._made(found, negative, nonconsecutive, geometry, "value_dots")]

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        for c in constraints:
            if isinstance(c, Dots):
                out: dict[str, Any] = {}
                for family, dots in c.families():
                    if dots:
                        out[family] = [{"cells": [geometry.label(a), geometry.label(b)],
                                        "value": LETTERS[v] if family == "xv" else v}
                                       for a, b, v in dots]
                if c.negative:
                    out["negative"] = list(c.negative)
                if c.nonconsecutive:
                    out["nonconsecutive"] = True
                return {"value_dots": out}
        return {}

    # -- f-puzzles ----------------------------------------------------------------------------
    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """``difference``, ``ratio``, ``sum`` and ``xv`` entries (``{"cells": ["R1C1",
        "R1C2"], "value": "3"}``; X and V as ``"X"``, ``"V"``), the words of ``negative``
        among them, and ``nonconsecutive`` when the puzzle has kropki dots (without them,
        :class:`~sudoku_csp.constraints.kinds.nonconsecutive.NonConsecutive` reads it)."""
        found: dict[str, list[Dot]] = {}
        for family in FAMILIES:
            found[family] = []
            if family not in document:
                continue
            for path, item in entries(document, family):
                cells = parse_rcs(geometry, item.get("cells"), f"{path}.cells", least=2)
                found[family].append(value_dots.read_dot(geometry, family, cells, item, path))
        words = document.get("negative", [])
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise FieldError("negative", "expected a list of words such as [\"ratio\"]")
        negative = [w for w in words if w in FAMILIES]
        nonconsecutive = False
        if found["difference"] or found["ratio"]:
            nonconsecutive = parse_bool(document.get("nonconsecutive", False),
                                        "nonconsecutive")
        if not (any(found.values()) or negative or nonconsecutive):
            return []
        return [cls._made(found, negative, nonconsecutive, geometry, FAMILIES[0])]

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for c in constraints:
            if not isinstance(c, Dots):
                continue
            for family, dots in c.families():
                if not (dots or family in c.negative):
                    continue
                written = out.setdefault(family, [])
                for a, b, v in dots:
                    entry: dict[str, Any] = {"cells": rcs(geometry, (a, b))}
                    if family == "xv":
                        entry["value"] = LETTERS[v]
                    elif family == "sum" or v != DEFAULTS[family]:
                        entry["value"] = str(v)
                    written.append(entry)
            if c.negative:
                out["negative"] = sorted({*out.get("negative", []), *c.negative})
            if c.nonconsecutive:
                out["nonconsecutive"] = True
        return out


def _build(found: Mapping[str, Sequence[Dot]], negative: Sequence[str], nonconsecutive: bool
           ) -> Dots:
    """A :class:`Dots` of the dots found by family, in canonical order."""
    return Dots(difference=tuple(sorted(found["difference"])), ratio=tuple(sorted(found["ratio"])),
                sums=tuple(sorted(found["sum"])), xv=tuple(sorted(found["xv"])),
                negative=tuple(sorted(set(negative))), nonconsecutive=nonconsecutive)


@lru_cache(maxsize=8)
def _neighbours(n: int) -> tuple[tuple[int, int], ...]:
    """Each cell of an ``n``×``n`` grid with the one to its right, then the one below it
    (the check's own list, written apart from the translations' ``orthogonal_pairs``).

    >>> _neighbours(2)
    ((0, 1), (0, 2), (1, 3), (2, 3))
    """
    pairs = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                pairs.append((r * n + c, r * n + c + 1))
            if r + 1 < n:
                pairs.append((r * n + c, (r + 1) * n + c))
    return tuple(pairs)


@lru_cache(maxsize=64)
def _barred(n: int, differences: frozenset[int], ratios: frozenset[int],
            sums: frozenset[int] = frozenset()) -> frozenset[tuple[int, int]]:
    """The pairs of values ``1..n`` that differ by one of ``differences``, stand in one of
    ``ratios`` (the greater a multiple of the smaller) or add up to one of ``sums``.

    >>> sorted(_barred(3, frozenset({2}), frozenset(), frozenset({3})))
    [(1, 2), (1, 3), (2, 1), (3, 1)]
    """
    values = range(1, n + 1)
    return frozenset((x, y) for x in values for y in values
                     if abs(x - y) in differences or x + y in sums
                     or (max(x, y) % min(x, y) == 0 and max(x, y) // min(x, y) in ratios))
