"""What one deduction is: a :class:`Step`, and the words used to show it.

Cells are named with the project's labels (row letter, then column: ``E4`` is row 5,
column 4), units by kind and number (``row E``, ``column 4``, ``box 5``), digits by the
geometry's symbols. A step's ``text`` is the one line ``sudoku-csp explain`` prints.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sudoku_csp.constraints.wording import cell_list, digit_list
from sudoku_csp.geometry import Candidate, Geometry, UnitKind, row_label

__all__ = ["Link", "Step", "cell_list", "digit_list", "unit_name"]

Link = tuple[Candidate, Candidate, bool]
"""Two candidates an argument goes from and to, and whether the link is strong (at least
one of them is true: the second follows from the first being false) or weak (at most one is
true: the second is false because the first is true)."""

@dataclass(frozen=True)
class Step:
    """One deduction: the digits it places and the candidates it eliminates, and why.

    ``technique`` is a key of :data:`sudoku_csp.logic.TECHNIQUES`; ``rating`` its value on
    Sudoku Explainer's scale (with the chain-length bonus for chains). The reason is kept
    so that it can be drawn: ``cells`` (the pattern), ``marks`` (the candidates that form
    it), ``units`` (indices into ``geometry.units``) and, for chains, ``chain``: the
    candidates in order, linked alternately strongly (at least one is true) and weakly (at
    most one is true), starting with a strong link; for forcing chains and Nishio (no single
    path) the "cell is digit" facts the argument derives, in the order found, and ``links``
    each implication the argument uses (:data:`Link`), in the order found, from the
    supposition to the contradiction or the shared conclusion, so that a picture can draw
    it link by link (empty for other steps: their ``chain`` is the path).
    ``uniqueness`` is true for steps that are only valid on a puzzle with one solution.

    >>> from sudoku_csp import parse
    >>> from sudoku_csp.logic import hint
    >>> hint(parse("1234341221434321".replace("4321", "43.."))).text
    'Full house: 2 in column 3 → D3'
    """

    technique: str
    rating: float
    text: str
    placements: tuple[Candidate, ...] = ()
    eliminations: tuple[Candidate, ...] = ()
    cells: tuple[int, ...] = ()
    marks: tuple[Candidate, ...] = ()
    units: tuple[int, ...] = ()
    chain: tuple[Candidate, ...] = ()
    uniqueness: bool = False
    length: int = field(default=0, compare=False)
    """Nodes of the chain or implications of the forcing argument (0 for patterns)."""
    bonus: float = field(default=0.0, compare=False)
    """Added to the technique's base rating where its published rating depends on the
    pattern found (the kinds of unit a strong-link chain uses, the size of a wing's cells)."""
    links: tuple[Link, ...] = field(default=(), compare=False)

    def __repr__(self) -> str:
        """The step in its own words (cells as labels, digits 1-based) and its rating; the
        cell indices stay in the fields, and :meth:`as_dict` names them for a geometry.

        >>> from sudoku_csp.logic import hint
        >>> hint("3.1...4.2.......")
        <Step hidden_single_box 1.2: Hidden single: 4 in box 1 → A2>
        """
        return f"<Step {self.technique} {self.rating:.1f}: {self.text}>"

    def as_dict(self, geometry: Geometry) -> dict[str, object]:
        """A JSON-ready record of the step (labels and symbols, not indices)."""
        sym = geometry.symbols
        return {
            "technique": self.technique,
            "rating": self.rating,
            "text": self.text,
            "placements": [f"{geometry.label(c)}={sym[d]}" for c, d in self.placements],
            "eliminations": [f"{geometry.label(c)}-{sym[d]}" for c, d in self.eliminations],
            "cells": [geometry.label(c) for c in self.cells],
            "units": [unit_name(geometry, u) for u in self.units],
            "chain": [f"{geometry.label(c)}={sym[d]}" for c, d in self.chain],
            "uniqueness": self.uniqueness,
        }


def unit_name(geometry: Geometry, u: int) -> str:
    """``row E``, ``column 4``, ``box 5``, ``diagonal 1``, ``window 2``, ``region 3``.

    >>> from sudoku_csp import make_geometry
    >>> g = make_geometry(9)
    >>> unit_name(g, 4), unit_name(g, 12), unit_name(g, 22)
    ('row E', 'column 4', 'box 5')
    """
    unit = geometry.units[u]
    if unit.kind == UnitKind.ROW:
        return f"row {row_label(unit.index)}"
    return unit.name


def eliminated(geometry: Geometry, eliminations: Iterable[Candidate]) -> str:
    """``1/7 from B2; 3 from A1, A4``: eliminations grouped by digit, digits that leave the
    same cells together.

    >>> from sudoku_csp import make_geometry
    >>> eliminated(make_geometry(9), [(0, 2), (3, 2), (10, 0), (10, 6)])
    '1/7 from B2; 3 from A1, A4'
    """
    by_digit: dict[int, list[int]] = {}
    for c, d in eliminations:
        by_digit.setdefault(d, []).append(c)
    by_cells: dict[tuple[int, ...], list[int]] = {}
    for d, cells in sorted(by_digit.items()):
        by_cells.setdefault(tuple(sorted(set(cells))), []).append(d)
    return "; ".join(f"{digit_list(geometry, digits)} from {cell_list(geometry, cells)}"
                     for cells, digits in by_cells.items())
