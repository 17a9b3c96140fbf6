"""The JSON fields of constraint kinds: reading cells, cell lists, pairs and flags, each with
an error naming the field at fault (``cages[2].cells[1]``) and what was expected; and the
neighbours a mark between two cells may join.

>>> from sudoku_csp.variants import make_geometry
>>> parse_cells(make_geometry(4), ["A1", "b2"], "thermos[0]")
(0, 5)
"""

from __future__ import annotations

from collections.abc import Iterable

from sudoku_csp.constraints.base import ConstraintError
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Geometry, row_label

__all__ = ["FieldError", "check_pairs", "labels", "orthogonal", "orthogonal_pairs",
           "parse_bool", "parse_cell", "parse_cells", "parse_pairs"]


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
    if not isinstance(value, list) or len(value) < least:
        count = f"at least {least} cell labels" if least > 1 else "cell labels"
        raise FieldError(path, f"expected a list of {count} such as [\"A1\", \"A2\"]")
    return tuple(parse_cell(geometry, v, f"{path}[{i}]") for i, v in enumerate(value))


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
