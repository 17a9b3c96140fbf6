"""The JSON fields of constraint kinds: reading cells, cell lists, pairs and flags, each with
an error naming the field at fault (``cages[2].cells[1]``) and what was expected; and the
neighbours a mark between two cells may join.

>>> from sudoku_csp.variants import make_geometry
>>> parse_cells(make_geometry(4), ["A1", "b2"], "thermos[0]")
(0, 5)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, TypeVar

from sudoku_csp.constraints.base import Constraint, ConstraintError
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Geometry, row_label

__all__ = ["FieldError", "check_pairs", "check_path", "checked", "checked_together", "entries",
           "king_neighbours", "labels", "line_cells", "orthogonal", "orthogonal_pairs",
           "parse_bool", "parse_cell", "parse_cells", "parse_number", "parse_outside",
           "parse_pairs", "parse_rc", "parse_rcs", "rc", "rcs"]


class FieldError(InputError):
    """A JSON field that is not what its kind expects; ``path`` names it (``cages[2].sum``).

    >>> str(FieldError("cages[2].sum", "expected a whole number"))
    'field cages[2].sum: expected a whole number'
    """

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.reason = message
        super().__init__(f"field {path}: {message}")


def parse_cell(geometry: Geometry, value: object, path: str) -> int:
    """A cell named by its label (``"A1"``: row letters, then the 1-based column; any case),
    as a cell index; :class:`FieldError` otherwise.

    >>> from sudoku_csp.variants import make_geometry
    >>> parse_cell(make_geometry(9), "c4", "x")
    21
    """
    n = geometry.size
    if isinstance(value, str):
        text = value.strip().upper()
        letters = text.rstrip("0123456789")
        digits = text[len(letters):]
        if letters.isalpha() and letters.isascii() and digits.isdigit():
            row = 0
            for ch in letters:
                row = row * 26 + ord(ch) - ord("A") + 1
            row -= 1
            col = int(digits) - 1
            if 0 <= row < n and 0 <= col < n:
                return row * n + col
    last = f"{row_label(n - 1)}{n}"
    raise FieldError(path, f"{value!r} is not a cell of a {n}x{n} grid: expected a label "
                           f"such as \"A1\" .. \"{last}\" (row letter, then column)")


def parse_cells(geometry: Geometry, value: object, path: str, *, least: int = 1
                ) -> tuple[int, ...]:
    """A list of cell labels as cell indices (at least ``least`` of them)."""
    return _cell_list(geometry, value, path, least, parse_cell, "labels", "\"A1\", \"A2\"")


def _cell_list(geometry: Geometry, value: object, path: str, least: int,
               cell: Callable[[Geometry, object, str], int], names: str, example: str
               ) -> tuple[int, ...]:
    """A list of at least ``least`` cells, each read by ``cell`` (labels or f-puzzles
    names, as ``names`` and ``example`` say in the message)."""
    if not isinstance(value, list) or len(value) < least:
        count = f"at least {least} cell {names}" if least > 1 else f"cell {names}"
        raise FieldError(path, f"expected a list of {count} such as [{example}]")
    return tuple(cell(geometry, v, f"{path}[{i}]") for i, v in enumerate(value))


def parse_bool(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise FieldError(path, f"expected true or false, got {value!r}")
    return value


def parse_pairs(geometry: Geometry, value: object, path: str) -> tuple[tuple[int, int], ...]:
    """A list of two-cell lists (dots between neighbours) as ordered cell pairs."""
    if not isinstance(value, list):
        raise FieldError(path, "expected a list of cell pairs such as [[\"A1\", \"A2\"]]")
    pairs = []
    for i, item in enumerate(value):
        if not isinstance(item, list) or len(item) != 2:
            raise FieldError(f"{path}[{i}]", "expected two cell labels such as [\"A1\", \"A2\"]")
        a, b = (parse_cell(geometry, v, f"{path}[{i}][{j}]") for j, v in enumerate(item))
        pairs.append((min(a, b), max(a, b)))
    return tuple(pairs)


def labels(geometry: Geometry, cells: Iterable[int]) -> list[str]:
    return [geometry.label(c) for c in cells]


def orthogonal(geometry: Geometry, a: int, b: int) -> bool:
    """Whether two cells share a side."""
    n = geometry.size
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    return abs(ra - rb) + abs(ca - cb) == 1


def orthogonal_pairs(geometry: Geometry) -> list[tuple[int, int]]:
    """Every pair of cells sharing a side, ``(a, b)`` with ``a < b``, row-major."""
    n = geometry.size
    pairs = []
    for cell in range(geometry.ncells):
        r, c = divmod(cell, n)
        if c + 1 < n:
            pairs.append((cell, cell + 1))
        if r + 1 < n:
            pairs.append((cell, cell + n))
    return sorted(pairs)


def check_pairs(geometry: Geometry, pairs: Iterable[tuple[int, int]], what: str) -> None:
    """ConstraintError unless every pair joins two cells that share a side, each pair once."""
    seen: set[tuple[int, int]] = set()
    for a, b in pairs:
        key = (min(a, b), max(a, b))
        if not orthogonal(geometry, a, b):
            raise ConstraintError(f"{what} between {geometry.label(a)} and "
                                  f"{geometry.label(b)}: the cells must share a side",
                                  part="cells")
        if key in seen:
            raise ConstraintError(f"{what} between {geometry.label(a)} and "
                                  f"{geometry.label(b)} is given twice", part="cells")
        seen.add(key)


@lru_cache(maxsize=64)
def king_neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """Per cell of a ``size``-wide grid, the cells sharing a side or a corner with it (the
    steps of a line or a thermometer).

    >>> king_neighbours(4)[0]
    (1, 4, 5)
    """
    return tuple(tuple(rr * size + cc for rr in (r - 1, r, r + 1) for cc in (c - 1, c, c + 1)
                       if (rr, cc) != (r, c) and 0 <= rr < size and 0 <= cc < size)
                 for r, c in (divmod(cell, size) for cell in range(size * size)))


def check_path(geometry: Geometry, cells: Sequence[int], what: str, *,
               revisits: bool = False) -> None:
    """ConstraintError unless ``cells`` is a path of neighbours (a king's move each step),
    passing no cell twice unless ``revisits``; ``what`` names the path in the message
    (``the thermometer``)."""
    if not revisits and len(set(cells)) != len(cells):
        twice = next(c for c in cells if cells.count(c) > 1)
        raise ConstraintError(f"{what} passes {geometry.label(twice)} twice", part="cells")
    kings = king_neighbours(geometry.size)
    for a, b in zip(cells, cells[1:], strict=False):
        if b not in kings[a]:
            raise ConstraintError(f"{what} is not a path of neighbours: {geometry.label(a)} "
                                  f"and {geometry.label(b)} share neither a side nor a corner",
                                  part="cells")


C = TypeVar("C", bound=Constraint)


def checked(constraint: C, geometry: Geometry, path: str) -> C:
    """``constraint`` once valid on ``geometry``; else a :class:`FieldError` at ``path``
    (the JSON or f-puzzles element it was read from), the part at fault appended when the
    error names one (``cages[2].sum``)."""
    try:
        constraint.validate(geometry)
    except ConstraintError as exc:
        where = f"{path}.{exc.part}" if exc.part and exc.part != "cells" else path
        raise FieldError(where, exc.reason) from None
    return constraint


def checked_together(kind: type[Constraint], geometry: Geometry, constraints: list[C],
                     path: str) -> list[C]:
    """``constraints`` (of ``kind``, each valid) once they stand together
    (:meth:`~sudoku_csp.constraints.base.Constraint.joint_validate`); else a
    :class:`FieldError` at ``path`` giving the reason."""
    try:
        kind.joint_validate(geometry, constraints)
    except ConstraintError as exc:
        raise FieldError(path, exc.reason) from None
    return constraints


# -- f-puzzles names: R1C1 (1-based), clues outside the grid at row or column 0 or N+1 ---------
_RC = re.compile(r"\s*R(\d{1,3})C(\d{1,3})\s*", re.IGNORECASE)


def parse_outside(geometry: Geometry, value: object, path: str, *, inside: bool = False
                  ) -> tuple[int, int]:
    """An f-puzzles cell name (``"R0C4"``) as 0-based ``(row, column)``, each from -1 (row or
    column 0, outside the grid) to N (N+1); ``inside``: a cell of the grid only.
    :class:`FieldError` otherwise.

    >>> from sudoku_csp.variants import make_geometry
    >>> parse_outside(make_geometry(9), "R0C4", "littlekillersum[0].cell")
    (-1, 3)
    """
    n = geometry.size
    low, high = (1, n) if inside else (0, n + 1)
    match = _RC.fullmatch(value) if isinstance(value, str) else None
    if match:
        row, col = int(match[1]), int(match[2])
        if low <= row <= high and low <= col <= high:
            return row - 1, col - 1
    where = f"R1C1 .. R{n}C{n}" if inside else f"R0C0 .. R{n + 1}C{n + 1} (0 and {n + 1}: outside)"
    raise FieldError(path, f"{value!r} is not a cell name of a {n}x{n} grid: expected {where}")


def parse_rc(geometry: Geometry, value: object, path: str) -> int:
    """An f-puzzles cell name of the grid (``"R2C3"``) as a cell index.

    >>> from sudoku_csp.variants import make_geometry
    >>> parse_rc(make_geometry(9), "r2c3", "arrow[0].cells[0]")
    11
    """
    row, col = parse_outside(geometry, value, path, inside=True)
    return row * geometry.size + col


def parse_rcs(geometry: Geometry, value: object, path: str, *, least: int = 1
              ) -> tuple[int, ...]:
    """A list of f-puzzles cell names (at least ``least``) as cell indices."""
    return _cell_list(geometry, value, path, least, parse_rc, "names", "\"R1C1\", \"R1C2\"")


def rc(geometry: Geometry, cell: int) -> str:
    """The f-puzzles name of a cell (``R1C1``)."""
    row, col = divmod(cell, geometry.size)
    return f"R{row + 1}C{col + 1}"


def rcs(geometry: Geometry, cells: Iterable[int]) -> list[str]:
    return [rc(geometry, c) for c in cells]


def entries(document: Mapping[str, Any], key: str) -> list[tuple[str, Mapping[str, Any]]]:
    """The elements of an f-puzzles list ``key`` as ``(path, element)``, each an object;
    :class:`FieldError` naming the element otherwise."""
    value = document[key]
    if not isinstance(value, list):
        raise FieldError(key, "expected a list of objects")
    found = []
    for i, item in enumerate(value):
        if not isinstance(item, Mapping):
            raise FieldError(f"{key}[{i}]", f"expected an object, got {item!r}")
        found.append((f"{key}[{i}]", item))
    return found


def line_cells(geometry: Geometry, item: Mapping[str, Any], path: str, *, least: int = 2
               ) -> list[tuple[str, tuple[int, ...]]]:
    """The lines of an f-puzzles line element (``{"lines": [["R1C1", "R1C2"], ...]}``) as
    ``(path, cells)``, each of at least ``least`` cells, consecutive cells neighbours (a
    king's move apart)."""
    lines = item.get("lines")
    if not isinstance(lines, list) or not lines:
        raise FieldError(f"{path}.lines", "expected a list of lines, each a list of cell names")
    found = []
    for i, line in enumerate(lines):
        where = f"{path}.lines[{i}]"
        cells = parse_rcs(geometry, line, where, least=least)
        try:
            check_path(geometry, cells, "the line", revisits=True)
        except ConstraintError as exc:
            raise FieldError(where, exc.reason) from None
        found.append((where, cells))
    return found


def parse_number(value: object, path: str, *, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high``, given as a number or as text (f-puzzles
    writes clue values as strings); a long digit string is refused before it is converted.

    >>> parse_number("17", "littlekillersum[0].value", low=1, high=45)
    17
    """
    text = value.strip() if isinstance(value, str) else None
    if isinstance(value, int) and not isinstance(value, bool):
        number: int | None = value
    elif text is not None and len(text) <= 6 and re.fullmatch(r"-?\d+", text):
        number = int(text)
    else:
        number = None
    if number is None or not low <= number <= high:
        raise FieldError(path, f"expected a whole number from {low} to {high}, got {value!r}")
    return number
