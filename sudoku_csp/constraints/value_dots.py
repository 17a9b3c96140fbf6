"""Dots with values between two neighbours, as f-puzzles writes them: the sorts of dot, what
one dot of a value says of its two cells, what the negative rules say of neighbours without
a mark, and which dots can stand on a grid at all. The kind that holds them is
:class:`~sudoku_csp.constraints.kinds.dots.Dots`.

Each rule is a :class:`~sudoku_csp.constraints.pairs.Relation` made once per value (cached, so
its name identifies it in the pair translations' caches):

>>> difference(3).said("A1", "A2"), ratio(2).holds(3, 6), sum_of(5).holds(1, 4)
('A1 and A2 differ by 3', True, True)
>>> unmarked((1,), (2,), ()).said("A1", "A2")
'A1 and A2 (no mark) do not differ by 1 or stand in ratio 2'
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from sudoku_csp.constraints.fields import FieldError, orthogonal, parse_number
from sudoku_csp.constraints.pairs import Relation
from sudoku_csp.geometry import Geometry

__all__ = ["DEFAULTS", "FAMILIES", "LETTERS", "Dot", "difference", "ratio", "read_dot",
           "reason", "sum_of", "unmarked"]

FAMILIES = ("difference", "ratio", "sum", "xv")
"""The sorts of dot, by their f-puzzles key (and their word in its ``negative`` list)."""
DEFAULTS = {"difference": 1, "ratio": 2}
"""The value of a difference or ratio dot that does not write one."""
LETTERS = {10: "X", 5: "V"}

Dot = tuple[int, int, int]
"""A dot: its two cells ``(a, b)``, ``a < b``, and its value."""


# -- relations, one per value (cached by name) -------------------------------------------------
@cache
def difference(v: int) -> Relation:
    """A difference dot of value ``v``: the two values differ by exactly ``v``."""
    return Relation(f"dot difference {v}", lambda x, y: abs(x - y) == v,
                    f"{{a}} and {{b}} differ by {v}")


@cache
def ratio(v: int) -> Relation:
    """A ratio dot of value ``v``: one value is ``v`` times the other."""
    return Relation(f"dot ratio {v}", lambda x, y: x == v * y or y == v * x,
                    f"one of {{a}} and {{b}} is {v} times the other")


@cache
def sum_of(v: int) -> Relation:
    """A sum dot of value ``v`` (an X: 10, a V: 5): the two values add up to ``v``."""
    return Relation(f"dot sum {v}", lambda x, y: x + y == v, f"{{a}} and {{b}} add up to {v}")


@cache
def unmarked(differences: tuple[int, ...], ratios: tuple[int, ...], sums: tuple[int, ...]
             ) -> Relation:
    """Neighbours without a mark under negative rules: no difference, ratio or sum named."""
    def holds(x: int, y: int) -> bool:
        return not (abs(x - y) in differences or x + y in sums
                    or any(x == r * y or y == r * x for r in ratios))
    said = [f"{verb} {'/'.join(map(str, values))}" for verb, values in (
        ("differ by", differences), ("stand in ratio", ratios), ("add up to", sums)) if values]
    return Relation(f"no dot: difference {differences} ratio {ratios} sum {sums}", holds,
                    f"{{a}} and {{b}} (no mark) do not {' or '.join(said)}")


# -- which dots can stand ------------------------------------------------------------------------
def reason(geometry: Geometry, family: str, a: int, b: int, value: int) -> str | None:
    """Why one dot cannot stand on ``geometry`` (``None``: it can)."""
    n = geometry.size
    if a == b or not orthogonal(geometry, a, b):
        return (f"a {family} dot between {geometry.label(a)} and {geometry.label(b)}: the "
                "cells must share a side")
    if family == "difference" and not 1 <= value <= n - 1:
        return f"a difference of {value} is out of reach on a {n}x{n} grid (1 to {n - 1})"
    if family == "ratio" and not 2 <= value <= n:
        return f"a ratio of {value} is out of reach on a {n}x{n} grid (2 to {n})"
    if family == "sum" and not 3 <= value <= 2 * n - 1:
        return f"a sum of {value} is out of reach on a {n}x{n} grid (3 to {2 * n - 1})"
    if family == "xv" and value not in LETTERS:
        return f"an X or a V adds up to 10 or 5, not {value}"
    if family == "xv" and value > 2 * n - 1:
        return f"an {LETTERS[value]} (sum {value}) is out of reach on a {n}x{n} grid"
    return None


def read_dot(geometry: Geometry, family: str, cells: tuple[int, ...], item: Mapping[str, Any],
             path: str) -> Dot:
    """One dot of a JSON or f-puzzles entry (its cells already read): its value, checked,
    the cells in order; FieldError at ``path`` naming what is wrong."""
    n = geometry.size
    if len(cells) != 2:
        raise FieldError(f"{path}.cells", "expected two cells sharing a side")
    raw = item.get("value")
    if family == "xv":
        letter = raw.strip().upper() if isinstance(raw, str) else None
        if letter not in ("X", "V"):
            raise FieldError(f"{path}.value", f"expected \"X\" or \"V\", got {raw!r}")
        value = 10 if letter == "X" else 5
    elif family in DEFAULTS and raw in (None, ""):
        value = DEFAULTS[family]
    else:
        value = parse_number(raw, f"{path}.value", low=1, high=2 * n)
    a, b = min(cells), max(cells)
    why = reason(geometry, family, a, b, value)
    if why:
        raise FieldError(f"{path}.value" if a != b and orthogonal(geometry, a, b)
                         else f"{path}.cells", why)
    return (a, b, value)
