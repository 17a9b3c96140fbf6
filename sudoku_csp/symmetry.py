"""Symmetries of the grid: cell maps by name, and the groups (orbits) of cells they permute.

A *symmetry* maps cells to cells (:data:`SYMMETRIES`); its *groups* (orbits) are the sets of
cells it permutes among themselves. A symmetric puzzle has, in each group, either every cell
given or none. The generator removes clues a group at a time; ``generate --symmetry`` lists
this table.
"""

from __future__ import annotations

from collections.abc import Callable

from sudoku_csp.geometry import EMPTY, Geometry, GeometryError
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import make_geometry  # noqa: F401 - used by the doctests

__all__ = ["SYMMETRIES", "is_symmetric", "symmetry_groups"]


def _rot180(n: int, r: int, c: int) -> tuple[int, int]:
    return n - 1 - r, n - 1 - c


def _rot90(n: int, r: int, c: int) -> tuple[int, int]:
    return c, n - 1 - r


def _mirror(n: int, r: int, c: int) -> tuple[int, int]:
    return r, n - 1 - c


def _transpose(n: int, r: int, c: int) -> tuple[int, int]:
    return c, r


SYMMETRIES: dict[str, Callable[[int, int, int], tuple[int, int]] | None] = {
    "none": None,
    "rot180": _rot180,      # half turn about the centre
    "rot90": _rot90,        # quarter turns (groups of four)
    "mirror": _mirror,      # reflection in the vertical centre line (left <-> right)
    "diagonal": _transpose,  # reflection in the main diagonal (A1..I9)
}
"""Clue symmetries by name; each is a map ``(size, row, column) -> (row, column)``
generating its group."""


def symmetry_groups(geometry: Geometry, symmetry: str = "none") -> list[tuple[int, ...]]:
    """The groups (orbits) of cells under ``symmetry``, each sorted, in order of first cell.

    Raises GeometryError when the symmetry does not map the geometry onto itself (every
    unit onto a unit, every extra pair onto an extra pair): a 2×3-box 6×6 has no rot90
    symmetry, nor do most jigsaws.

    >>> symmetry_groups(make_geometry(4), "rot180")[:2]
    [(0, 15), (1, 14)]
    >>> len(symmetry_groups(make_geometry(9), "rot90"))
    21
    >>> symmetry_groups(make_geometry(6), "rot90")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sudoku_csp.geometry.GeometryError: symmetry rot90 does not map the 6x6 grid onto itself ...
    """
    if symmetry not in SYMMETRIES:
        raise GeometryError(f"unknown symmetry {symmetry!r}; choose from {', '.join(SYMMETRIES)}")
    ncells, n = geometry.ncells, geometry.size
    step = SYMMETRIES[symmetry]
    if step is None:
        return [(c,) for c in range(ncells)]
    image = [0] * ncells
    for cell in range(ncells):
        r, c = step(n, *divmod(cell, n))
        image[cell] = r * n + c
    units = {frozenset(u.cells) for u in geometry.units}
    for unit in geometry.units:
        if frozenset(image[c] for c in unit.cells) not in units:
            raise GeometryError(f"symmetry {symmetry} does not map the {geometry.name} grid "
                                f"onto itself ({unit.name} is not mapped onto a unit)")
    pairs = set(geometry.extra_pairs)
    for a, b in geometry.extra_pairs:
        x, y = image[a], image[b]
        if (min(x, y), max(x, y)) not in pairs:
            raise GeometryError(f"symmetry {symmetry} does not map the {geometry.name} grid "
                                f"onto itself (the pair {geometry.label(a)}-"
                                f"{geometry.label(b)} is not mapped onto a pair)")
    seen = [False] * ncells
    groups = []
    for cell in range(ncells):
        if seen[cell]:
            continue
        orbit = []
        c = cell
        while not seen[c]:
            seen[c] = True
            orbit.append(c)
            c = image[c]
        groups.append(tuple(sorted(orbit)))
    return groups


def is_symmetric(puzzle: Puzzle, symmetry: str) -> bool:
    """Whether each symmetry group of ``puzzle`` is either all givens or all blanks."""
    givens = puzzle.givens
    return all(len({givens[c] == EMPTY for c in group}) == 1
               for group in symmetry_groups(puzzle.geometry, symmetry))
