"""CNF encodings of Sudoku for any geometry: named clause families and named encodings.

This module builds formulas; it never solves (the ``sat`` backend and your own solvers do).
Every variable is numbered by :mod:`sudoku_csp.encodings.variables` (``x(cell, digit)``,
``triad(part, digit)``, then auxiliaries from one pool); DIMACS text is
:mod:`sudoku_csp.encodings.dimacs`, the repository's ``encodings/`` folder
:mod:`sudoku_csp.encodings.reference`.

Glossary
--------
- *family*: a named generator of clauses (:data:`FAMILIES`), e.g. ``cell_alo``.
- *encoding*: a named list of families (:class:`Encoding`, :data:`ENCODING_FAMILIES`).
- *amo*: the :class:`pysat.card.EncType` name used for every at-most-one (:data:`AMO_CHOICES`).

A formula is built once per ``(geometry, encoding, amo)`` and cached (:func:`build`); the
puzzle's givens enter either as assumption literals (:func:`givens`, for incremental
solving), as unit clauses (:func:`~sudoku_csp.encodings.dimacs.encode_puzzle_dimacs`), or by
simplifying the formula with them (:func:`clue_reduced`, after Kwon & Jain 2006).

Roads not taken: renumbering the variables of a clue-reduced formula (smaller numbers, but
every tool would need the map back); hand-written at-most-one clauses (``pysat.card`` already
has every encoding, tested); dropping the 1,458 binary clauses a row and a box both give to
the same pair of cells (the textbook counts keep them, and solvers measured no faster
without them).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from pysat.card import CardEnc, EncType
from pysat.formula import CNF

from sudoku_csp.constraints import cnf_clauses
from sudoku_csp.encodings.variables import DecodeError, Parts, Variables, parts, variables
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import EMPTY, Geometry, Grid, Unit
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import make_geometry  # noqa: F401 - the doctests use it

Options = Mapping[str, str] | None
"""The constraint kinds' CNF encoding options by name (``{"sums": "bdd"}``), defaults for the
rest (:func:`~sudoku_csp.constraints.encoding_choices`)."""

__all__ = [  # the variable map's names are re-exported: researchers import this module
    "AMO_CHOICES", "DEFAULT_AMO", "DEFAULT_ENCODING", "ENCODING_FAMILIES", "FAMILIES",
    "DecodeError", "Encoding", "Formula", "Parts", "Span", "Variables", "amo_of", "build",
    "clue_reduced", "constraint_clauses", "decode", "encode", "encoding_of", "fixed_literals",
    "givens", "parts", "variables",
]

Clause = tuple[int, ...]


class Encoding(str, enum.Enum):
    """The named encodings, each a list of clause families (see :data:`ENCODING_FAMILIES`).

    - ``minimal``: every cell holds a digit; no digit twice in a unit.
    - ``natural``: minimal + no cell holds two digits.
    - ``extended``: natural + every digit somewhere in every unit (unit propagation on it
      makes exactly the naked- and hidden-single deductions).
    - ``augmented``: extended + box-line triad variables (and, on variants, variables for
      every other overlap of two units), so that unit propagation also makes
      locked-candidate (pointing / claiming) deductions, as in the tdoku study.
    - ``tdoku``: the augmented formulation of tdoku's MiniSat benchmark: cells exactly-one,
      parts (triads) defined as exactly-one of their cells and the negated part variable,
      and every unit constrained only through its parts (no clause over a whole unit's
      cells), so half the clauses of ``augmented`` for the same unit propagation.
    """

    MINIMAL = "minimal"
    NATURAL = "natural"
    EXTENDED = "extended"
    AUGMENTED = "augmented"
    TDOKU = "tdoku"

    def __str__(self) -> str:
        return self.value


AMO_CHOICES: tuple[str, ...] = (
    "pairwise", "seqcounter", "sortnetwrk", "cardnetwrk", "bitwise", "ladder", "totalizer",
    "mtotalizer", "kmtotalizer",
)
"""``pysat.card.EncType`` names usable for at-most-one. (``native`` is left out: it is a
MiniCard cardinality constraint, not clauses.)"""

DEFAULT_AMO = "pairwise"
"""The at-most-one encoding used unless told otherwise (pairwise: no auxiliary variables)."""
DEFAULT_ENCODING = Encoding.EXTENDED
"""The encoding used unless told otherwise (measured fastest with CaDiCaL; see README)."""


def encoding_of(name: str | Encoding) -> Encoding:
    """The :class:`Encoding` named ``name`` (InputError listing the choices otherwise).

    >>> encoding_of("extended") is Encoding.EXTENDED
    True
    """
    try:
        return Encoding(name)
    except ValueError:
        raise InputError(f"unknown encoding {name!r}; choose from "
                         f"{', '.join(e.value for e in Encoding)}") from None


def amo_of(name: str) -> str:
    """``name`` if it is an at-most-one encoding of :data:`AMO_CHOICES`, else InputError."""
    if name not in AMO_CHOICES:
        raise InputError(f"unknown at-most-one encoding {name!r}; choose from "
                         f"{', '.join(AMO_CHOICES)}")
    return name


# -- clause families ---------------------------------------------------------------------------
class _Cards:
    """What a family builds with: the variable map, and at-most-one / at-least-one through
    ``pysat.card`` with one encoding and one pool of auxiliary variables."""

    def __init__(self, amo: str, numbering: Variables) -> None:
        self.encoding = getattr(EncType, amo)
        self.vars = numbering
        self.pool = numbering.pool()

    def at_most_one(self, lits: list[int]) -> list[list[int]]:
        return CardEnc.atmost(lits, 1, vpool=self.pool, encoding=self.encoding).clauses

    def at_least_one(self, lits: list[int]) -> list[list[int]]:
        return CardEnc.atleast(lits, 1, vpool=self.pool, encoding=self.encoding).clauses


FamilyFn = Callable[[Geometry, _Cards], Iterator[Sequence[int]]]


def cell_alo(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """Every cell holds at least one digit: one clause per cell."""
    for cell in range(geometry.ncells):
        yield from cards.at_least_one(cards.vars.cell_literals(cell))


def cell_amo(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """No cell holds two digits: an at-most-one per cell."""
    for cell in range(geometry.ncells):
        yield from cards.at_most_one(cards.vars.cell_literals(cell))


def unit_alo(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """Every digit lies somewhere in every unit: one clause per (unit, digit)."""
    for unit in geometry.units:
        for d in range(geometry.size):
            yield from cards.at_least_one(cards.vars.digit_literals(unit.cells, d))


def unit_amo(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """No digit twice in a unit: an at-most-one per (unit, digit).

    A pair of cells sharing two units (a row and a box) is constrained once per unit, as in
    the textbook counts (8,748 clauses for 9×9 pairwise).
    """
    for unit in geometry.units:
        for d in range(geometry.size):
            yield from cards.at_most_one(cards.vars.digit_literals(unit.cells, d))


def pair_differ(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """Extra pairs (anti-knight, anti-king) never hold the same digit: one clause
    ``¬x(a,d) ∨ ¬x(b,d)`` per (pair, digit). (An at-most-one of two literals is this one
    clause in every encoding, so it is written directly.)"""
    x = cards.vars.x
    for a, b in geometry.extra_pairs:
        for d in range(geometry.size):
            yield (-x(a, d), -x(b, d))


def triad_def(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """``triad(part, d)`` is true exactly when some cell of the part holds ``d``:
    ``¬t ∨ x1 ∨ x2 ∨ …`` and ``¬xi ∨ t`` for each cell."""
    numbering = cards.vars
    for p, cells in enumerate(parts(geometry).cells):
        for d in range(geometry.size):
            t = numbering.triad(p, d)
            xs = numbering.digit_literals(cells, d)
            yield (-t, *xs)
            for x in xs:
                yield (-x, t)


def part_amo(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """No digit twice in a part: an at-most-one over the part's ``x(·, d)`` per (part,
    digit). With :func:`triad_def` it makes tdoku's exactly-one over the part's cells and
    ``¬triad``; ``augmented`` has these pairs from ``unit_amo`` already."""
    numbering = cards.vars
    for cells in parts(geometry).cells:
        for d in range(geometry.size):
            yield from cards.at_most_one(numbering.digit_literals(cells, d))


def lone_units(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """``unit_alo`` and ``unit_amo`` of each unit that no group of parts covers (a unit
    sharing at most one cell with every other unit, or the columns of a grid whose boxes are
    rows): ``tdoku`` reaches the others only through their parts. None on standard grids."""
    for unit in _lone_units(geometry):
        for d in range(geometry.size):
            lits = cards.vars.digit_literals(unit.cells, d)
            yield from cards.at_least_one(lits)
            yield from cards.at_most_one(lits)


@lru_cache(maxsize=64)
def _lone_units(geometry: Geometry) -> tuple[Unit, ...]:
    """The units no group of :func:`parts` splits into pieces."""
    found = parts(geometry)
    numbering = variables(geometry)
    n, top = geometry.size, numbering.x_count
    covered = set()
    for bases in found.groups:
        cells: set[int] = set()
        for base in bases:  # a one-cell piece is x(cell, 0), a part its triad(part, 0)
            cells.update([(base - 1) // n] if base <= top else found.cells[(base - top - 1) // n])
        covered.add(frozenset(cells))
    return tuple(u for u in geometry.units if frozenset(u.cells) not in covered)


def triad_alo(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """Each digit lies in at least one piece of each group (see :class:`Parts`)."""
    for bases in parts(geometry).groups:
        for d in range(geometry.size):
            yield from cards.at_least_one([b + d for b in bases])


def triad_amo(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """Each digit lies in at most one piece of each group (see :class:`Parts`)."""
    for bases in parts(geometry).groups:
        for d in range(geometry.size):
            yield from cards.at_most_one([b + d for b in bases])


FAMILIES: dict[str, FamilyFn] = {
    "cell_alo": cell_alo,
    "cell_amo": cell_amo,
    "unit_alo": unit_alo,
    "unit_amo": unit_amo,
    "pair_differ": pair_differ,
    "triad_def": triad_def,
    "part_amo": part_amo,
    "triad_alo": triad_alo,
    "triad_amo": triad_amo,
    "lone_units": lone_units,
}
"""Every clause family by name, in the order they appear in a formula."""

ENCODING_FAMILIES: dict[Encoding, tuple[str, ...]] = {
    Encoding.MINIMAL: ("cell_alo", "unit_amo", "pair_differ"),
    Encoding.NATURAL: ("cell_alo", "cell_amo", "unit_amo", "pair_differ"),
    Encoding.EXTENDED: ("cell_alo", "cell_amo", "unit_alo", "unit_amo", "pair_differ"),
    Encoding.AUGMENTED: ("cell_alo", "cell_amo", "unit_alo", "unit_amo", "pair_differ",
                         "triad_def", "triad_alo", "triad_amo"),
    Encoding.TDOKU: ("cell_alo", "cell_amo", "pair_differ", "triad_def", "part_amo",
                     "triad_alo", "triad_amo", "lone_units"),
}
"""The families of each named encoding."""

TRIAD_ENCODINGS = frozenset({Encoding.AUGMENTED, Encoding.TDOKU})
"""The encodings with part (triad) variables."""


# -- formulas ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Span:
    """Clauses ``start:stop`` of a formula belong to family ``name``."""

    name: str
    start: int
    stop: int

    @property
    def count(self) -> int:
        return self.stop - self.start


@dataclass(frozen=True, eq=False)
class Formula:
    """A built encoding of the empty grid: clauses (tuples, never mutated), the number of
    variables, where each family's clauses are, and the variable map that numbered them.

    ``x_vars`` (``N³``) cell-digit variables come first, then ``triad_vars`` (augmented
    only), then ``nv - x_vars - triad_vars`` auxiliary variables of the at-most-one encoding.

    >>> f = build(make_geometry(9), "extended")
    >>> f.nv, len(f.clauses), f.counts["unit_alo"], f.vars.x(80, 8)
    (729, 11988, 243, 729)
    """

    geometry: Geometry
    encoding: Encoding
    amo: str
    nv: int
    clauses: tuple[Clause, ...]
    families: tuple[Span, ...]
    vars: Variables

    @property
    def x_vars(self) -> int:
        return self.vars.x_count

    @property
    def triad_vars(self) -> int:
        return self.vars.triad_count

    @property
    def counts(self) -> dict[str, int]:
        """Clauses per family, in formula order."""
        return {s.name: s.count for s in self.families}

    @property
    def literals(self) -> int:
        return sum(map(len, self.clauses))

    def family(self, name: str) -> tuple[Clause, ...]:
        """The clauses of one family (empty if this encoding does not use it)."""
        for span in self.families:
            if span.name == name:
                return self.clauses[span.start:span.stop]
        return ()

    def cnf(self) -> CNF:
        """A new :class:`pysat.formula.CNF` holding these clauses (the caller may change it)."""
        cnf = CNF(from_clauses=[list(c) for c in self.clauses])
        cnf.nv = self.nv  # trailing variables may occur in no clause (e.g. a 1×1 grid)
        return cnf


@lru_cache(maxsize=32)
def _build(geometry: Geometry, encoding: Encoding, amo: str) -> Formula:
    numbering = variables(geometry, triads=encoding in TRIAD_ENCODINGS)
    cards = _Cards(amo, numbering)
    clauses: list[Clause] = []
    spans = []
    for name in ENCODING_FAMILIES[encoding]:
        start = len(clauses)
        clauses.extend(map(tuple, FAMILIES[name](geometry, cards)))
        spans.append(Span(name, start, len(clauses)))
    nv = max(cards.pool.top, numbering.first_aux - 1)
    return Formula(geometry, encoding, amo, nv, tuple(clauses), tuple(spans), numbering)


def build(geometry: Geometry, encoding: str | Encoding = DEFAULT_ENCODING,
          amo: str = DEFAULT_AMO) -> Formula:
    """The :class:`Formula` of the empty grid of ``geometry`` (cached per arguments).

    >>> build(make_geometry(9), "minimal").counts
    {'cell_alo': 81, 'unit_amo': 8748, 'pair_differ': 0}
    """
    return _build(geometry, encoding_of(encoding), amo_of(amo))


def encode(puzzle: Puzzle | Geometry, encoding: str | Encoding = DEFAULT_ENCODING,
           amo: str = DEFAULT_AMO, options: Options = None) -> CNF:
    """The CNF of a puzzle (givens as unit clauses) or of the empty grid of a geometry, like
    :func:`~sudoku_csp.encodings.cpsat.build_model`: a new :class:`pysat.formula.CNF` each
    call, built from a cached :class:`Formula`.

    A puzzle's CNF is the empty grid's clauses, then one unit clause ``[x(cell, given)]`` per
    given in cell order (:func:`givens`): the clauses
    :func:`~sudoku_csp.encodings.dimacs.encode_puzzle_dimacs` writes. Variable numbers and
    ``nv`` are the empty grid's. For the formula simplified by the givens instead, see
    :func:`clue_reduced`. A puzzle's typed constraints (:mod:`sudoku_csp.constraints`) add
    their clauses after the givens, auxiliaries numbered after the formula's
    (:func:`constraint_clauses`; ``options`` are the kinds' encoding options, such as
    ``{"sums": "bdd"}`` for killer cages).

    >>> cnf = encode(make_geometry(9), "natural")
    >>> cnf.nv, len(cnf.clauses)
    (729, 11745)
    >>> from sudoku_csp import parse
    >>> cnf = encode(parse("3.1...4.2......."))
    >>> cnf.nv, len(cnf.clauses), cnf.clauses[-4:]
    (64, 452, [[3], [9], [28], [34]])
    """
    if isinstance(puzzle, Puzzle):
        formula = build(puzzle.geometry, encoding, amo)
        cnf = formula.cnf()
        cnf.extend([lit] for lit in givens(puzzle))
        if puzzle.constraints:
            extra, top = constraint_clauses(puzzle, formula.nv + 1, options)
            cnf.extend(extra)
            cnf.nv = max(cnf.nv, top)
        return cnf
    return build(puzzle, encoding, amo).cnf()


def constraint_clauses(puzzle: Puzzle, start: int, options: Options = None
                       ) -> tuple[list[list[int]], int]:
    """The clauses of the puzzle's typed constraints (cages, thermometers, dots, ...) over
    the one variable map, auxiliaries numbered from ``start`` (above every variable of the
    formula they join); and the highest variable they use. ``options`` are the kinds'
    encoding options (:func:`~sudoku_csp.constraints.encoding_choices`: ``{"sums": "bdd"}``).

    >>> from sudoku_csp import parse
    >>> p = parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4")
    >>> clauses, top = constraint_clauses(p, 65)
    >>> [-3] in clauses, top        # A1 + A2 = 3: A1 holds no 3 (x(A1, 3) is variable 3)
    (True, 88)
    >>> constraint_clauses(p, 65, {"sums": "bdd"})[1] > 64   # pysat.pb: its own auxiliaries
    True
    """
    return cnf_clauses(puzzle.geometry, puzzle.constraints, start=start, options=options)


# -- puzzles -----------------------------------------------------------------------------------
def givens(puzzle: Puzzle) -> list[int]:
    """The positive literals ``x(cell, given)`` of the givens, in cell order: assumptions for
    an incremental solver, or unit clauses.

    >>> from sudoku_csp import parse
    >>> givens(parse("1..." "..1." ".1.." "...1"))
    [1, 25, 37, 61]
    """
    return variables(puzzle.geometry).literals(puzzle.givens)


def fixed_literals(puzzle: Puzzle) -> list[int]:
    """Every literal the givens fix directly: each given ``x`` true, the other digits of a
    given cell false, and each given digit false in the given cell's peers (the fixed set of
    Kwon & Jain's optimised encoding). Sorted by variable; a literal and its negation both
    appear when givens clash.

    >>> from sudoku_csp import parse
    >>> fixed_literals(parse("1..." + "." * 12))[:6]
    [1, -2, -3, -4, -5, -9]
    """
    g = puzzle.geometry
    numbering = variables(g)
    fixed: set[int] = set()
    for cell, d in enumerate(puzzle.givens):
        if d == EMPTY:
            continue
        given = numbering.x(cell, d)
        fixed.update(-lit for lit in numbering.cell_literals(cell) if lit != given)
        fixed.update(-lit for lit in numbering.digit_literals(g.peers[cell], d))
        fixed.add(given)
    return sorted(fixed, key=lambda lit: (abs(lit), lit))


def clue_reduced(puzzle: Puzzle, encoding: str | Encoding = DEFAULT_ENCODING,
                 amo: str = DEFAULT_AMO, options: Options = None) -> CNF:
    """The encoding simplified by the givens (Kwon & Jain): clauses satisfied by a fixed
    literal (:func:`fixed_literals`) dropped, fixed-false literals removed from the rest.

    Variable numbers are kept, so :func:`decode` works on its models once told the givens
    (``decode(model, geometry, puzzle.givens)``): the variables they fix no longer occur.
    Clashing givens leave an empty clause (the formula is unsatisfiable).

    >>> from sudoku_csp import parse
    >>> p = parse("3.1...4.2.......")
    >>> full, small = encode(p.geometry), clue_reduced(p)
    >>> len(full.clauses), len(small.clauses), small.nv
    (448, 123, 64)
    """
    formula = build(puzzle.geometry, encoding, amo)
    clauses: Iterable[Sequence[int]] = formula.clauses
    nv = formula.nv
    if puzzle.constraints:  # typed constraints simplify by the same fixed literals
        extra, nv = constraint_clauses(puzzle, formula.nv + 1, options)
        clauses = [*formula.clauses, *extra]
    value = bytearray(nv + 1)  # 0 free, 1 true, 2 false
    for lit in fixed_literals(puzzle):
        v = abs(lit)
        want = 1 if lit > 0 else 2
        value[v] = want if value[v] in (0, want) else 3  # 3: both (a clash)
    kept: list[list[int]] = []
    for clause in clauses:
        out = []
        for lit in clause:
            val = value[abs(lit)]
            if not val:
                out.append(lit)
            elif val == 3 or (val == 1) == (lit > 0):
                break  # satisfied (a clashing variable makes every clause on it "satisfied")
        else:
            kept.append(out)
    if any(v == 3 for v in value):
        kept.append([])  # clashing givens: the simplified formula must stay unsatisfiable
    cnf = CNF(from_clauses=kept)
    cnf.nv = nv
    return cnf


def decode(model: Iterable[int], geometry: Geometry, givens: Sequence[int] | None = None
           ) -> Grid:
    """The grid a model (or any set of literals) describes; the variable map's
    :meth:`~sudoku_csp.encodings.variables.Variables.decode` (``givens`` for models of a
    clue-reduced formula). Raises :class:`DecodeError` if a cell gets two digits.

    >>> g = make_geometry(4)
    >>> decode([1, -2, 8, 64], g)[:4]
    (0, 3, -1, -1)
    >>> decode([1, 2], g)
    Traceback (most recent call last):
    ...
    sudoku_csp.encodings.variables.DecodeError: cell A1 gets two digits (1 and 2)
    >>> decode([2, 8], g, givens=(0,) + (EMPTY,) * 15)[:2]   # 2 fixed false by the given
    (0, 3)
    """
    return variables(geometry).decode(model, givens)
