"""The common interface of typed constraints, and what every kind shares.

A :class:`Constraint` is one rule that is neither an all-different unit nor a "must differ"
pair: a killer cage, a thermometer, a set of kropki dots, ... Its module (one per kind)
holds everything about it:

- the data (a frozen dataclass over cell indices, so a puzzle stays hashable and picklable)
  and :meth:`Constraint.validate` against a geometry;
- :meth:`Constraint.native`: the native solver's propagation, as :class:`Link` objects, each
  a pure function from its cells' candidate masks to narrower masks (``None``: contradiction);
- :meth:`Constraint.cnf`: clauses over the one variable map
  (:mod:`sudoku_csp.encodings.variables`), auxiliaries from the formula's pool, cardinality
  and pseudo-Boolean pieces from ``pysat.card`` / ``pysat.pb`` (:class:`CnfContext`);
- :meth:`Constraint.cpsat`: constraints added to a CP-SAT model through the model-neutral
  helpers of :class:`~sudoku_csp.encodings.cpsat.CpSatModel` (``value``, ``all_different``,
  ``allow_pairs``, ``forbid_pairs``, ``allow_digits``, ``different_sum``), and what a kind's
  constraints imply together (:meth:`Constraint.joint_cpsat`);
- :meth:`Constraint.violations`: the independent check :mod:`sudoku_csp.verify` runs on every
  solution, written directly from the rule (sums added, order compared), sharing no code with
  the three translations;
- its JSON form (:meth:`Constraint.from_json`, :meth:`Constraint.to_json`) under the keys it
  owns (:attr:`Constraint.keys`).

Digits are ``0..N-1`` inside, as everywhere; rules speak of the shown values ``1..N``
(a cage's sum, a thermometer's order, an odd cell), so ``value = digit + 1``.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Geometry, row_label

if TYPE_CHECKING:
    from pysat.formula import IDPool

    from sudoku_csp.encodings.cpsat_model import CpSatModel
    from sudoku_csp.encodings.variables import Variables

Masks = tuple[int, ...]
Narrow = Callable[[Masks], "Masks | None"]
Clause = Sequence[int]


class ConstraintError(InputError):
    """A constraint that cannot be: a cell outside the grid, a cage sum out of reach, a
    thermometer that is no path. ``part`` names the piece at fault (``"sum"``, ``"cells"``)
    so that a reader can point at it (``cages[3].sum``).

    >>> str(ConstraintError("expected 6 to 24", part="sum"))
    'expected 6 to 24'
    """

    def __init__(self, message: str, *, part: str | None = None) -> None:
        self.reason = message
        self.part = part
        super().__init__(message)


class UnsupportedError(InputError):
    """A command or function that does not handle typed constraints yet, given a puzzle
    that has some: refused, never solved as if they were not there."""


HANDLED_BY = ("solve, count, check, compare, show, certify, encode, minimal, explain, hint "
              "and rate do; generate --kind makes them")
"""The commands that honour typed constraints, as refusals name them."""


def refuse_constraints(puzzle: Any, what: str) -> None:
    """Raise :class:`UnsupportedError` when ``puzzle`` carries typed constraints, naming
    ``what`` (a command or function) that cannot honour them yet.

    >>> from sudoku_csp import parse
    >>> refuse_constraints(parse("." * 16), "certify")   # none: nothing happens
    """
    kinds = sorted({c.kind for c in getattr(puzzle, "constraints", ())})
    if kinds:
        raise UnsupportedError(f"{what} does not handle {', '.join(kinds)} constraints yet "
                               f"({HANDLED_BY})")


@dataclass(frozen=True)
class Link:
    """One piece of native propagation: ``narrow`` takes the candidate masks of ``cells``
    (bit ``d`` set while digit ``d`` is possible, in the order of ``cells``) and returns
    masks that are each a subset of the ones given, or ``None`` when no assignment of the
    cells from those candidates satisfies the rule.

    Contract: sound (it never removes a digit that some satisfying assignment uses), and
    *complete on singles*: when every mask holds one digit, it returns ``None`` unless those
    digits satisfy the rule. The search relies on it: a state whose cells are all placed is
    a solution only because every link accepted it.
    """

    cells: tuple[int, ...]
    narrow: Narrow


class CnfContext:
    """What a constraint's :meth:`~Constraint.cnf` builds with: the variable map, one pool
    for auxiliary variables, the chosen cage-sum encoding, and at-most-one clauses from
    ``pysat.card``.

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.encodings.variables import variables
    >>> ctx = CnfContext(variables(make_geometry(4)), start=65)
    >>> ctx.x(0, 0), ctx.new_var(), ctx.new_var()
    (1, 65, 66)
    """

    def __init__(self, numbering: Variables, *, start: int, sums: str = "combos") -> None:
        from pysat.formula import IDPool

        self.vars = numbering
        self.geometry = numbering.geometry
        self.pool: IDPool = IDPool(start_from=start)
        self.sums = sums

    def x(self, cell: int, digit: int) -> int:
        """The variable "``cell`` holds ``digit``"."""
        return self.vars.x(cell, digit)

    def new_var(self) -> int:
        """A fresh auxiliary variable from the pool."""
        return self.pool._next()

    @property
    def top(self) -> int:
        """The highest variable handed out so far (at least ``start - 1``)."""
        return self.pool.top

    def at_most_one(self, lits: list[int]) -> list[list[int]]:
        """Pairwise at-most-one (``pysat.card``): no auxiliaries, for the short lists here."""
        from pysat.card import CardEnc, EncType

        return CardEnc.atmost(lits, 1, vpool=self.pool, encoding=EncType.pairwise).clauses


class Constraint(abc.ABC):
    """One typed constraint; subclasses are frozen dataclasses (see the module docstring).

    ``kind`` names the kind (``"cage"``); ``keys`` are the JSON fields it reads and
    writes; ``single`` says a puzzle holds at most one of it (rules over the whole grid,
    such as "all kropki dots are given").
    """

    kind: ClassVar[str]
    keys: ClassVar[tuple[str, ...]]
    single: ClassVar[bool] = False

    # -- data -------------------------------------------------------------------------------
    @abc.abstractmethod
    def touched(self) -> tuple[int, ...]:
        """Every cell the constraint names (for drawing, and to check they are cells)."""

    def validate(self, geometry: Geometry) -> None:
        """Raise :class:`ConstraintError` unless the constraint can stand on ``geometry``.
        The base checks that every cell is a cell of the grid."""
        n = geometry.ncells
        for cell in self.touched():
            if not (isinstance(cell, int) and 0 <= cell < n):
                raise ConstraintError(f"cell {cell!r} is not a cell of a {geometry.name} grid",
                                      part="cells")

    @classmethod
    def joint_validate(cls, geometry: Geometry, constraints: Sequence[Constraint]) -> None:
        """Raise :class:`ConstraintError` unless a puzzle's constraints of this kind can
        stand together (each already valid alone); killer cages: no cell in two cages.
        Nothing by default."""
        return None

    def describe(self, geometry: Geometry) -> str:
        """A short human name, for messages (``cage 15 at A1``)."""
        cells = self.touched()
        return f"{self.kind} at {geometry.label(cells[0])}" if cells else self.kind

    # -- translations -----------------------------------------------------------------------
    @abc.abstractmethod
    def native(self, geometry: Geometry) -> list[Link]:
        """The native solver's propagation for this constraint (see :class:`Link`)."""

    @classmethod
    def joint_native(cls, geometry: Geometry, constraints: Sequence[Constraint]
                     ) -> list[Link]:
        """Native propagation that follows from all of a puzzle's constraints of this kind
        together with the geometry's units, beyond what each gives alone (killer cages: the
        45 rule). Implied rules only: they may speed the native search, never change its
        answers. None by default."""
        return []

    @abc.abstractmethod
    def cnf(self, ctx: CnfContext) -> Iterator[Clause]:
        """Clauses that hold exactly when the rule does, given the cell-digit variables of
        ``ctx`` (each cell one digit: the base formula says so)."""

    @abc.abstractmethod
    def cpsat(self, model: CpSatModel) -> None:
        """Add this rule to a CP-SAT model of its geometry (either model kind)."""

    @classmethod
    def joint_cpsat(cls, model: CpSatModel, constraints: Sequence[Constraint]) -> None:
        """Add to a CP-SAT model what follows from all of a puzzle's constraints of this
        kind together with the geometry's units (killer cages: the 45 rule).
        Implied rules only: they may speed the search, never remove a solution. None by
        default."""
        return None

    # -- the independent check --------------------------------------------------------------
    @abc.abstractmethod
    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        """Every way a full grid (digits ``0..N-1``) breaks the rule; empty when it holds.
        Written from the rule itself, never from a solver's code."""

    # -- JSON -------------------------------------------------------------------------------
    @classmethod
    @abc.abstractmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """The constraints under this kind's :attr:`keys` (those present in ``fields``).
        Raises :class:`FieldError` naming the field and what was expected."""

    @classmethod
    @abc.abstractmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        """The JSON fields of all the constraints of this kind in a puzzle."""


class FieldError(InputError):
    """A JSON field that is not what its kind expects; ``path`` names it (``cages[2].sum``).

    >>> str(FieldError("cages[2].sum", "expected a whole number"))
    'field cages[2].sum: expected a whole number'
    """

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.reason = message
        super().__init__(f"field {path}: {message}")


# -- shared helpers for the kinds -------------------------------------------------------------
def cell_name(geometry: Geometry, cell: int) -> str:
    """The label of a cell (``A1``)."""
    return geometry.label(cell)


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
