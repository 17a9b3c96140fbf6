"""What a reader is told besides the text: the geometry options of :func:`sudoku_csp.io.parse`.

One record for every reader (plain text, grids, killer lines, JSON), so that each builds its
geometry the same way and reports a bad one as a :class:`~sudoku_csp.errors.ParseError` at
the line it reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from sudoku_csp.errors import ParseError
from sudoku_csp.geometry import Geometry, GeometryError
from sudoku_csp.variants import make_geometry

__all__ = ["NO_OPTIONS", "ReadOptions", "infer_size", "region_side"]


def infer_size(count: int) -> int | None:
    """The side of a square grid of ``count`` cells, or None when ``count`` is no square.

    >>> infer_size(81), infer_size(80)
    (9, None)
    """
    n = round(count ** 0.5)
    return n if n * n == count and 1 <= n and count else None


class ReadOptions(NamedTuple):
    """The keyword options of :func:`sudoku_csp.io.parse`: a ready ``geometry``, or the parts
    of one (``size``, ``box``, ``variants``, ``regions``, ``contiguous``: see
    :func:`~sudoku_csp.variants.make_geometry`); ``constraints`` False refuses puzzles with
    typed constraints (a caller that cannot honour them yet); ``ignore`` and ``treat_line`` are
    for f-puzzles (:mod:`sudoku_csp.io.fpuzzles`).

    >>> ReadOptions.of({"size": 9, "variants": ["diagonal"]}).variants
    ('diagonal',)
    """

    size: int | None = None
    box: tuple[int, int] | None = None
    variants: tuple[str, ...] = ()
    regions: str | Sequence[int] | None = None
    contiguous: bool = True
    geometry: Geometry | None = None
    constraints: bool = True
    ignore: tuple[str, ...] = ()
    """f-puzzles keys to leave out although this tool does not know them (``--ignore``)."""
    treat_line: tuple[tuple[str, str], ...] = ()
    """f-puzzles decoration lines to read as a line kind: (colour, kind key) pairs."""

    @classmethod
    def of(cls, options: dict[str, Any]) -> ReadOptions:
        """The record of keyword options (TypeError naming an unknown one, as a call would)."""
        unknown = options.keys() - cls._fields
        if unknown:
            raise TypeError(f"unexpected reader option {sorted(unknown)[0]!r}")
        return cls(**{**options, "variants": tuple(options.get("variants") or ()),
                      "ignore": tuple(options.get("ignore") or ()),
                      "treat_line": tuple(dict(options.get("treat_line") or {}).items())})

    def fixed_size(self) -> int | None:
        """The size these options settle before any text is read, if they do."""
        if self.geometry is not None:
            return self.geometry.size
        if self.size is not None:
            return self.size
        return None if self.regions is None else region_side(self.regions)

    def build(self, size: int, line: int, column: int | None = None,
              *, box: Any = None, variants: Sequence[str] = (), regions: Any = None
              ) -> Geometry:
        """The geometry of a ``size`` grid under these options (``box``, ``variants`` and
        ``regions`` add what the text itself says); ParseError at ``line`` if there is none."""
        try:
            return make_geometry(size, box if box is not None else self.box,
                                 [*variants, *self.variants],
                                 regions if regions is not None else self.regions,
                                 contiguous=self.contiguous)
        except GeometryError as exc:
            raise ParseError(str(exc), line=line, column=column) from None


def region_side(regions: str | Sequence[int]) -> int | None:
    """The grid size a region map implies (its non-space symbols or numbers are the cells)."""
    if isinstance(regions, str):
        return infer_size(sum(not c.isspace() for c in regions.removeprefix("\ufeff")))
    return infer_size(len(regions))


NO_OPTIONS = ReadOptions()
"""No option given: the size inferred from the text, standard boxes, no variant."""
