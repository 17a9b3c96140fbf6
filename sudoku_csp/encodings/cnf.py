"""CNF encodings of Sudoku for any geometry: variables, named clause families, named encodings.

This module builds formulas; it never solves (the ``sat`` backend and your own solvers do).

Glossary
--------
- ``x(cell, digit)``: "``cell`` holds ``digit``", variable ``cell * N + digit + 1``
  (cells ``0..N*N-1`` row-major, digits ``0..N-1``). For 9×9 these are ``1..729``, which is
  ``81(r-1) + 9(c-1) + d`` with 1-based row ``r``, column ``c`` and digit ``d``.
- *part* (augmented encoding only): the cells two units share, when there are two or more
  of them — the box-line "triads" of 9×9 (:class:`Parts`). ``t(part, digit)``, "``digit`` lies in
  ``part``", is variable ``N³ + part * N + digit + 1``, right after the ``x`` variables.
- *auxiliary* variables of the at-most-one encodings (all but ``pairwise`` need some) come
  last, from one :class:`pysat.formula.IDPool`.
- *family*: a named generator of clauses (:data:`FAMILIES`), e.g. ``cell_alo``.
- *encoding*: a named list of families (:class:`Encoding`, :data:`ENCODING_FAMILIES`).
- *amo*: the :class:`pysat.card.EncType` name used for every at-most-one (:data:`AMO_CHOICES`).

A formula is built once per ``(geometry, encoding, amo)`` and cached (:func:`build`); the
puzzle's givens enter either as assumption literals (:func:`givens`, for incremental
solving), as unit clauses (:func:`encode_puzzle_dimacs`), or by simplifying the formula with
them (:func:`clue_reduced`, after Kwon & Jain 2006).

Roads not taken: renumbering the variables of a clue-reduced formula (smaller numbers, but
every tool would need the map back); hand-written at-most-one clauses (``pysat.card`` already
has every encoding, tested); dropping the 1,458 binary clauses a row and a box both give to
the same pair of cells (the textbook counts keep them, and solvers measured no faster
without them).
"""

from __future__ import annotations

import enum
import io
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TextIO

from pysat.card import CardEnc, EncType
from pysat.formula import CNF, IDPool

from sudoku_csp.errors import BackendError
from sudoku_csp.geometry import EMPTY, SYMBOLS, Geometry, Grid
from sudoku_csp.puzzle import Puzzle, parse
from sudoku_csp.variants import make_geometry

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
    """

    MINIMAL = "minimal"
    NATURAL = "natural"
    EXTENDED = "extended"
    AUGMENTED = "augmented"

    def __str__(self) -> str:
        return self.value


AMO_CHOICES: tuple[str, ...] = (
    "pairwise", "seqcounter", "sortnetwrk", "cardnetwrk", "bitwise", "ladder", "totalizer",
    "mtotalizer", "kmtotalizer",
)
"""``pysat.card.EncType`` names usable for at-most-one. (``native`` is left out: it is a
MiniCard cardinality constraint, not clauses.)"""

DEFAULT_AMO = "pairwise"
DEFAULT_ENCODING = Encoding.EXTENDED


def encoding_of(name: str | Encoding) -> Encoding:
    """The :class:`Encoding` named ``name`` (ValueError listing the choices otherwise).

    >>> encoding_of("extended") is Encoding.EXTENDED
    True
    """
    try:
        return Encoding(name)
    except ValueError:
        raise ValueError(f"unknown encoding {name!r}; choose from "
                         f"{', '.join(e.value for e in Encoding)}") from None


def amo_of(name: str) -> str:
    """``name`` if it is an at-most-one encoding of :data:`AMO_CHOICES`, else ValueError."""
    if name not in AMO_CHOICES:
        raise ValueError(f"unknown at-most-one encoding {name!r}; choose from "
                         f"{', '.join(AMO_CHOICES)}")
    return name


# -- variables ---------------------------------------------------------------------------------
def var(size: int, cell: int, digit: int) -> int:
    """The variable of "``cell`` holds ``digit``" in an N×N grid (all 0-based).

    >>> var(9, 0, 0), var(9, 80, 8), var(9, 9 * 1 + 2, 4)   # A1=1, I9=9, B3=5
    (1, 729, 104)
    """
    return cell * size + digit + 1


def unvar(size: int, variable: int) -> tuple[int, int]:
    """``(cell, digit)`` of an ``x`` variable; the inverse of :func:`var`.

    >>> unvar(9, 104)
    (11, 4)
    """
    return divmod(variable - 1, size)


@dataclass(frozen=True)
class Parts:
    """The parts of a geometry and the groups they form (the ``augmented`` encoding).

    A *part* is the set of cells two units share when they share two or more (and are not
    the same cells). Its variable ``t(part, d)`` says "``d`` lies in the part"; a one-cell
    piece is just that cell's ``x``. Each *group* is a split of one unit into pieces, so each
    digit lies in exactly one piece of it; ``groups`` holds, for each, the *bases* of its
    pieces (the literal of a piece for digit ``d`` is ``base + d``):

    - units of two *partitioning* kinds (kinds whose units cover every cell once: rows,
      columns, boxes, jigsaw regions) cut each other into parts: a row into the three
      triads it shares with boxes, a box into three row triads and three column triads
      (rows × columns give one-cell pieces only, so that pair adds nothing);
    - any other two units sharing two or more cells (a diagonal or a window and a box, a
      window and a row, ...) each split into their shared part plus single cells.

    Unit propagation over these groups makes every locked-candidate (pointing / claiming)
    deduction for every pair of overlapping units.
    """

    cells: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]
    groups: tuple[tuple[int, ...], ...]


@lru_cache(maxsize=64)
def parts(geometry: Geometry) -> Parts:
    """The parts and groups of a geometry (for 9×9: 27 row-box triads, then 27 column-box
    triads, in 36 groups).

    >>> p = parts(make_geometry(9))
    >>> len(p.cells), p.cells[0], p.names[0], len(p.groups)
    (54, (0, 1, 2), 'row 1 & box 1', 36)
    """
    n, ncells = geometry.size, geometry.ncells
    units = geometry.units
    base_t = ncells * n + 1
    kinds: dict[str, list[int]] = {}
    for u, unit in enumerate(units):
        kinds.setdefault(unit.kind, []).append(u)
    partitioning: dict[str, list[int]] = {}  # kind -> the unit holding each cell
    for kind, members in kinds.items():
        owner = [-1] * ncells
        for u in members:
            for cell in units[u].cells:
                owner[cell] = u
        if len(members) * n == ncells and -1 not in owner:
            partitioning[kind] = owner

    cells: list[tuple[int, ...]] = []
    names: list[str] = []
    groups: list[tuple[int, ...]] = []
    known: dict[tuple[int, ...], int] = {}

    def base_of(piece: Sequence[int], a: int, b: int) -> int:
        if len(piece) == 1:
            return piece[0] * n + 1
        key = tuple(sorted(piece))
        if key not in known:  # two pairs of units may share the same cells: one variable
            known[key] = base_t + len(cells) * n
            cells.append(key)
            names.append(f"{units[a].name} & {units[b].name}")
        return known[key]

    owners = list(partitioning.values())
    for i, owner_a in enumerate(owners):
        for owner_b in owners[i + 1:]:
            pieces: dict[tuple[int, int], list[int]] = {}
            for cell in range(ncells):
                pieces.setdefault((owner_a[cell], owner_b[cell]), []).append(cell)
            if max(len(p) for p in pieces.values()) < 2:
                continue  # e.g. rows × columns: every piece one cell, nothing to add
            base = {key: base_of(pieces[key], *key) for key in sorted(pieces)}
            for side in (0, 1):
                by_unit: dict[int, list[int]] = {}
                for key in sorted(pieces, key=lambda k: (k[side], k[1 - side])):
                    by_unit.setdefault(key[side], []).append(base[key])
                groups.extend(tuple(bases) for _, bases in sorted(by_unit.items()))

    sets = [frozenset(u.cells) for u in units]
    for a in range(len(units)):
        for b in range(a + 1, len(units)):
            if units[a].kind in partitioning and units[b].kind in partitioning:
                continue
            common = sets[a] & sets[b]
            if len(common) < 2 or len(common) == n:
                continue
            t = base_of(sorted(common), a, b)
            for u in (a, b):
                groups.append((t, *(c * n + 1 for c in units[u].cells if c not in common)))
    return Parts(tuple(cells), tuple(names), tuple(groups))


# -- clause families ---------------------------------------------------------------------------
class _Cards:
    """At-most-one / at-least-one through ``pysat.card`` with one encoding and one pool."""

    def __init__(self, amo: str, pool: IDPool) -> None:
        self.encoding = getattr(EncType, amo)
        self.pool = pool

    def at_most_one(self, lits: list[int]) -> list[list[int]]:
        return CardEnc.atmost(lits, 1, vpool=self.pool, encoding=self.encoding).clauses

    def at_least_one(self, lits: list[int]) -> list[list[int]]:
        return CardEnc.atleast(lits, 1, vpool=self.pool, encoding=self.encoding).clauses


FamilyFn = Callable[[Geometry, _Cards], Iterator[Sequence[int]]]


def cell_alo(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """Every cell holds at least one digit: one clause per cell."""
    n = geometry.size
    for cell in range(geometry.ncells):
        yield from cards.at_least_one([cell * n + d + 1 for d in range(n)])


def cell_amo(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """No cell holds two digits: an at-most-one per cell."""
    n = geometry.size
    for cell in range(geometry.ncells):
        yield from cards.at_most_one([cell * n + d + 1 for d in range(n)])


def unit_alo(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """Every digit lies somewhere in every unit: one clause per (unit, digit)."""
    n = geometry.size
    for unit in geometry.units:
        for d in range(n):
            yield from cards.at_least_one([c * n + d + 1 for c in unit.cells])


def unit_amo(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """No digit twice in a unit: an at-most-one per (unit, digit).

    A pair of cells sharing two units (a row and a box) is constrained once per unit, as in
    the textbook counts (8,748 clauses for 9×9 pairwise).
    """
    n = geometry.size
    for unit in geometry.units:
        for d in range(n):
            yield from cards.at_most_one([c * n + d + 1 for c in unit.cells])


def pair_differ(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """Extra pairs (anti-knight, anti-king) never hold the same digit: one clause
    ``¬x(a,d) ∨ ¬x(b,d)`` per (pair, digit). (An at-most-one of two literals is this one
    clause in every encoding, so it is written directly.)"""
    n = geometry.size
    for a, b in geometry.extra_pairs:
        for d in range(n):
            yield (-(a * n + d + 1), -(b * n + d + 1))


def triad_def(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """``t(part, d)`` is true exactly when some cell of the part holds ``d``:
    ``¬t ∨ x1 ∨ x2 ∨ …`` and ``¬xi ∨ t`` for each cell."""
    n, top = geometry.size, geometry.ncells * geometry.size
    for p, cells in enumerate(parts(geometry).cells):
        for d in range(n):
            t = top + p * n + d + 1
            xs = [c * n + d + 1 for c in cells]
            yield (-t, *xs)
            for x in xs:
                yield (-x, t)


def triad_alo(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """Each digit lies in at least one piece of each group (see :class:`Parts`)."""
    n = geometry.size
    for bases in parts(geometry).groups:
        for d in range(n):
            yield from cards.at_least_one([b + d for b in bases])


def triad_amo(geometry: Geometry, cards: _Cards) -> Iterator[Sequence[int]]:
    """Each digit lies in at most one piece of each group (see :class:`Parts`)."""
    n = geometry.size
    for bases in parts(geometry).groups:
        for d in range(n):
            yield from cards.at_most_one([b + d for b in bases])


FAMILIES: dict[str, FamilyFn] = {
    "cell_alo": cell_alo,
    "cell_amo": cell_amo,
    "unit_alo": unit_alo,
    "unit_amo": unit_amo,
    "pair_differ": pair_differ,
    "triad_def": triad_def,
    "triad_alo": triad_alo,
    "triad_amo": triad_amo,
}
"""Every clause family by name, in the order they appear in a formula."""

ENCODING_FAMILIES: dict[Encoding, tuple[str, ...]] = {
    Encoding.MINIMAL: ("cell_alo", "unit_amo", "pair_differ"),
    Encoding.NATURAL: ("cell_alo", "cell_amo", "unit_amo", "pair_differ"),
    Encoding.EXTENDED: ("cell_alo", "cell_amo", "unit_alo", "unit_amo", "pair_differ"),
    Encoding.AUGMENTED: ("cell_alo", "cell_amo", "unit_alo", "unit_amo", "pair_differ",
                         "triad_def", "triad_alo", "triad_amo"),
}
"""The families of each named encoding."""


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
    variables, and where each family's clauses are.

    ``x_vars`` (``N³``) cell-digit variables come first, then ``triad_vars`` (augmented
    only), then ``nv - x_vars - triad_vars`` auxiliary variables of the at-most-one encoding.

    >>> f = build(make_geometry(9), "extended")
    >>> f.nv, len(f.clauses), f.counts["unit_alo"]
    (729, 11988, 243)
    """

    geometry: Geometry
    encoding: Encoding
    amo: str
    nv: int
    clauses: tuple[Clause, ...]
    families: tuple[Span, ...]
    triad_vars: int

    @property
    def x_vars(self) -> int:
        return self.geometry.ncells * self.geometry.size

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
    n = geometry.size
    x_vars = geometry.ncells * n
    triad_vars = len(parts(geometry).cells) * n if encoding is Encoding.AUGMENTED else 0
    pool = IDPool(start_from=x_vars + triad_vars + 1)
    cards = _Cards(amo, pool)
    clauses: list[Clause] = []
    spans = []
    for name in ENCODING_FAMILIES[encoding]:
        start = len(clauses)
        clauses.extend(map(tuple, FAMILIES[name](geometry, cards)))
        spans.append(Span(name, start, len(clauses)))
    nv = max(pool.top, x_vars + triad_vars)
    return Formula(geometry, encoding, amo, nv, tuple(clauses), tuple(spans), triad_vars)


def build(geometry: Geometry, encoding: str | Encoding = DEFAULT_ENCODING,
          amo: str = DEFAULT_AMO) -> Formula:
    """The :class:`Formula` of the empty grid of ``geometry`` (cached per arguments).

    >>> build(make_geometry(9), "minimal").counts
    {'cell_alo': 81, 'unit_amo': 8748, 'pair_differ': 0}
    """
    return _build(geometry, encoding_of(encoding), amo_of(amo))


def encode(geometry: Geometry, encoding: str | Encoding = DEFAULT_ENCODING,
           amo: str = DEFAULT_AMO) -> CNF:
    """The CNF of the empty grid of ``geometry``: a new :class:`pysat.formula.CNF` each call,
    built from a cached :class:`Formula`.

    >>> cnf = encode(make_geometry(9), "natural")
    >>> cnf.nv, len(cnf.clauses)
    (729, 11745)
    """
    return build(geometry, encoding, amo).cnf()


# -- puzzles -----------------------------------------------------------------------------------
def givens(puzzle: Puzzle) -> list[int]:
    """The positive literals ``x(cell, given)`` of the givens, in cell order: assumptions for
    an incremental solver, or unit clauses.

    >>> givens(Puzzle.parse("1..." "..1." ".1.." "...1"))
    [1, 25, 37, 61]
    """
    n = puzzle.geometry.size
    return [c * n + d + 1 for c, d in enumerate(puzzle.givens) if d != EMPTY]


def fixed_literals(puzzle: Puzzle) -> list[int]:
    """Every literal the givens fix directly: each given ``x`` true, the other digits of a
    given cell false, and each given digit false in the given cell's peers (the fixed set of
    Kwon & Jain's optimised encoding). Sorted by variable; a literal and its negation both
    appear when givens clash.

    >>> fixed_literals(Puzzle.parse("1..." + "." * 12))[:6]
    [1, -2, -3, -4, -5, -9]
    """
    g = puzzle.geometry
    n = g.size
    fixed: set[int] = set()
    for cell, d in enumerate(puzzle.givens):
        if d == EMPTY:
            continue
        fixed.add(cell * n + d + 1)
        fixed.update(-(cell * n + e + 1) for e in range(n) if e != d)
        fixed.update(-(p * n + d + 1) for p in g.peers[cell])
    return sorted(fixed, key=lambda lit: (abs(lit), lit))


def clue_reduced(puzzle: Puzzle, encoding: str | Encoding = DEFAULT_ENCODING,
                 amo: str = DEFAULT_AMO) -> CNF:
    """The encoding simplified by the givens (Kwon & Jain): clauses satisfied by a fixed
    literal (:func:`fixed_literals`) dropped, fixed-false literals removed from the rest.

    Variable numbers are kept, so :func:`decode` works on its models once told the givens
    (``decode(model, geometry, puzzle.givens)``): the variables they fix no longer occur.
    Clashing givens leave an empty clause (the formula is unsatisfiable).

    >>> p = Puzzle.parse("3.1...4.2.......")
    >>> full, small = encode(p.geometry), clue_reduced(p)
    >>> len(full.clauses), len(small.clauses), small.nv
    (448, 123, 64)
    """
    formula = build(puzzle.geometry, encoding, amo)
    value = bytearray(formula.nv + 1)  # 0 free, 1 true, 2 false
    for lit in fixed_literals(puzzle):
        v = abs(lit)
        want = 1 if lit > 0 else 2
        value[v] = want if value[v] in (0, want) else 3  # 3: both (a clash)
    kept: list[list[int]] = []
    for clause in formula.clauses:
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
    cnf.nv = formula.nv
    return cnf


class DecodeError(BackendError):
    """A model that gives one cell two digits."""


def decode(model: Iterable[int], geometry: Geometry, givens: Sequence[int] | None = None
           ) -> Grid:
    """The grid a model (or any set of literals) describes: each cell's digit from its true
    ``x`` variable, ``EMPTY`` where there is none. Other literals are ignored.

    With ``givens`` (needed for models of a clue-reduced formula), the givens decide every
    variable they fix (:func:`fixed_literals`): those no longer occur in a reduced formula,
    so a solver may report any value for them.

    Raises :class:`DecodeError` if a cell gets two digits.

    >>> g = make_geometry(4)
    >>> decode([1, -2, 8, 64], g)[:4]
    (0, 3, -1, -1)
    >>> decode([1, 2], g)
    Traceback (most recent call last):
    ...
    sudoku_csp.encodings.cnf.DecodeError: cell A1 gets two digits (1 and 2)
    >>> decode([2, 8], g, givens=(0,) + (EMPTY,) * 15)[:2]   # 2 fixed false by the given
    (0, 3)
    """
    n = geometry.size
    top = geometry.ncells * n
    grid = [EMPTY] * geometry.ncells
    ignore: set[int] = set()
    if givens is not None:
        for cell, d in enumerate(givens):
            if d != EMPTY:
                grid[cell] = d
                ignore.update(range(cell * n + 1, cell * n + n + 1))
                ignore.update(p * n + d + 1 for p in geometry.peers[cell])
    for lit in model:
        if 0 < lit <= top and lit not in ignore:
            cell, d = divmod(lit - 1, n)
            if grid[cell] != EMPTY and grid[cell] != d:
                raise DecodeError(f"cell {geometry.label(cell)} gets two digits "
                                  f"({grid[cell] + 1} and {d + 1})")
            grid[cell] = d
    return tuple(grid)


# -- DIMACS ------------------------------------------------------------------------------------
HEADER_TAG = "c sudoku_csp CNF"


def _geometry_lines(geometry: Geometry) -> list[str]:
    lines = [f"c geometry: {geometry.name}", f"c size: {geometry.size}"]
    if geometry.box is not None:
        lines.append(f"c box: {geometry.box[0]}x{geometry.box[1]}")
    variants = [v for v in geometry.variants if v != "jigsaw"]
    lines.append(f"c variants: {' '.join(variants) if variants else '-'}")
    if "jigsaw" in geometry.variants:
        lines.append(f"c regions: {''.join(SYMBOLS[r] for r in geometry.boxes)}")
    return lines


def _numbering_lines(formula: Formula) -> list[str]:
    g, n = formula.geometry, formula.geometry.size
    x = formula.x_vars
    lines = [
        f"c numbering: x(cell, digit) = cell*{n} + digit + 1 for 0-based cell = {n}*row + "
        f"column and digit, i.e. {n * n}(r-1) + {n}(c-1) + d for 1-based r, c, d: "
        f"variables 1..{x}",
    ]
    if formula.triad_vars:
        p = parts(g)
        lines.append(f"c numbering: t(part, digit) = {x} + part*{n} + digit + 1 (digit "
                     f"lies in the part's cells): variables {x + 1}..{x + formula.triad_vars}")
        lines.extend(f"c part {i}: {name}: cells {' '.join(map(str, cells))} (0-based)"
                     for i, (name, cells) in enumerate(zip(p.names, p.cells, strict=True)))
    first_aux = x + formula.triad_vars + 1
    if formula.nv >= first_aux:
        lines.append(f"c numbering: variables {first_aux}..{formula.nv} are auxiliary "
                     f"({formula.amo} at-most-one encoding)")
    return lines


def _dimacs(formula: Formula, clauses: Iterable[Sequence[int]], count: int,
            extra: Sequence[str]) -> str:
    head = [HEADER_TAG, *_geometry_lines(formula.geometry),
            f"c encoding: {formula.encoding.value}", f"c amo: {formula.amo}",
            *_numbering_lines(formula),
            *(f"c family {s.name}: {s.count} clauses" for s in formula.families),
            *extra, f"p cnf {formula.nv} {count}"]
    out = io.StringIO()
    out.write("\n".join(head))
    out.write("\n")
    out.writelines(" ".join(map(str, c)) + " 0\n" if c else "0\n" for c in clauses)
    return out.getvalue()


def empty_dimacs(geometry: Geometry, encoding: str | Encoding = DEFAULT_ENCODING,
                 amo: str = DEFAULT_AMO) -> str:
    """DIMACS text of the empty grid, with a comment header naming the geometry, encoding,
    numbering and family counts (read back by :func:`read_dimacs`).

    >>> text = empty_dimacs(make_geometry(4), "minimal")
    >>> [line for line in text.splitlines() if line.startswith("p ")]
    ['p cnf 64 304']
    """
    formula = build(geometry, encoding, amo)
    return _dimacs(formula, formula.clauses, len(formula.clauses), [])


def encode_puzzle_dimacs(puzzle: Puzzle, encoding: str | Encoding = DEFAULT_ENCODING,
                         amo: str = DEFAULT_AMO, reduce: bool = False,
                         extra_clauses: Sequence[Sequence[int]] = (),
                         notes: Sequence[str] = ()) -> str:
    """DIMACS text for one puzzle: the empty-grid formula plus one unit clause per given, or
    (``reduce=True``) the clue-reduced formula of :func:`clue_reduced`; then
    ``extra_clauses`` (a certificate's exclusion clause), described by the comment lines
    ``notes``. The header records the puzzle, so :func:`read_dimacs` gives the givens back.

    >>> p = Puzzle.parse("3.1...4.2.......")
    >>> encode_puzzle_dimacs(p).splitlines()[-1]
    '34 0'
    >>> read_dimacs(encode_puzzle_dimacs(p, reduce=True)).givens == p.givens
    True
    """
    formula = build(puzzle.geometry, encoding, amo)
    line = f"c puzzle: {puzzle.to_line()}"
    if reduce:
        cnf = clue_reduced(puzzle, encoding, amo)
        note = ("c givens: clue-reduced (Kwon & Jain): clauses satisfied by the givens dropped, "
                "literals they falsify removed; given cells' variables no longer occur")
        clauses = [*cnf.clauses, *extra_clauses]
    else:
        units = [(lit,) for lit in givens(puzzle)]
        note = f"c givens: {len(units)} unit clauses after the empty-grid clauses"
        clauses = [*formula.clauses, *units, *extra_clauses]
    return _dimacs(formula, clauses, len(clauses), [line, note, *notes])


@dataclass(frozen=True)
class DimacsFile:
    """A DIMACS formula read back, with what its header says (``None`` where it says
    nothing: a file from another tool)."""

    cnf: CNF
    geometry: Geometry | None
    encoding: Encoding | None
    amo: str | None
    givens: Grid | None
    reduced: bool
    comments: tuple[str, ...]


def read_dimacs(source: str | os.PathLike | TextIO) -> DimacsFile:
    """Read DIMACS from text (a ``str``), a file path (a :class:`pathlib.Path` or other
    ``os.PathLike``) or an open text file. The header written by this module gives the
    geometry, encoding, amo and puzzle back. Raises ValueError on malformed input.

    >>> d = read_dimacs(empty_dimacs(make_geometry(9, variants=["diagonal"]), "augmented"))
    >>> d.geometry.name, d.encoding, len(d.cnf.clauses), d.cnf.nv
    ('9x9 diagonal', <Encoding.AUGMENTED: 'augmented'>, 18486, 1269)
    """
    if isinstance(source, os.PathLike):
        text = Path(source).read_text(encoding="utf-8")
    elif isinstance(source, str):
        text = source
    else:
        text = source.read()
    comments: list[str] = []
    clauses: list[list[int]] = []
    declared: tuple[int, int] | None = None
    pending: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        if line.startswith("c"):
            comments.append(line)
        elif line.startswith("p"):
            fields = line.split()
            if len(fields) != 4 or fields[1] != "cnf":
                raise ValueError(f"line {number}: expected 'p cnf VARIABLES CLAUSES'")
            declared = (int(fields[2]), int(fields[3]))
        else:
            for token in line.split():
                lit = int(token)
                if lit:
                    pending.append(lit)
                else:
                    clauses.append(pending)
                    pending = []
    if pending:
        clauses.append(pending)
    cnf = CNF(from_clauses=clauses)
    if declared is not None:
        if declared[1] != len(clauses):
            raise ValueError(f"the header declares {declared[1]} clauses, the file has "
                             f"{len(clauses)}")
        cnf.nv = max(cnf.nv, declared[0])
    cnf.comments = comments
    info = {}
    for line in comments:
        key, sep, value = line[1:].partition(":")
        if sep and key.strip() not in info:
            info[key.strip()] = value.strip()
    geometry = None
    if HEADER_TAG in comments and "size" in info:
        box = tuple(int(v) for v in info["box"].split("x")) if "box" in info else None
        variants = [v for v in info.get("variants", "-").split() if v != "-"]
        geometry = make_geometry(int(info["size"]), box, variants, info.get("regions"))
    puzzle = None
    if geometry is not None and "puzzle" in info:
        puzzle = parse(info["puzzle"], geometry=geometry)
    return DimacsFile(
        cnf=cnf, geometry=geometry,
        encoding=encoding_of(info["encoding"]) if "encoding" in info else None,
        amo=info.get("amo"), givens=puzzle.givens if puzzle else None,
        reduced="clue-reduced" in info.get("givens", ""), comments=tuple(comments))


# -- the reference files (encodings/ at the repository top) -----------------------------------
REFERENCE_SIZES = (9, 4)


def reference_files() -> dict[str, str]:
    """File name -> text of every file in the repository's ``encodings/`` folder: the empty
    9×9 and 4×4 grids in each named encoding (pairwise at-most-one), and ``README.md``."""
    files = {}
    for size in REFERENCE_SIZES:
        for encoding in Encoding:
            files[f"sudoku_{size}x{size}_{encoding.value}.cnf"] = empty_dimacs(
                make_geometry(size), encoding, DEFAULT_AMO)
    files["README.md"] = reference_readme()
    return files


def write_reference_files(directory: str | os.PathLike) -> list[Path]:
    """(Re)write :func:`reference_files` into ``directory`` (created if missing); returns
    the paths written. Files of other names are left alone."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in reference_files().items():
        path = folder / name
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    return written


_FAMILY_TEXT = {
    "cell_alo": "every cell holds a digit: `x(c,1) ∨ … ∨ x(c,N)` per cell",
    "cell_amo": "no cell holds two digits: at-most-one over `x(c,1..N)` per cell",
    "unit_alo": "every digit lies in every unit: `x(c1,d) ∨ … ∨ x(cN,d)` per (unit, digit)",
    "unit_amo": "no digit twice in a unit: at-most-one over the unit's `x(·,d)` per (unit, "
                "digit); a pair of cells in both a row and a box is constrained twice",
    "pair_differ": "extra pairs (anti-knight, anti-king) differ: `¬x(a,d) ∨ ¬x(b,d)`",
    "triad_def": "`t(p,d) ↔ x(c1,d) ∨ x(c2,d) ∨ x(c3,d)`: one long clause and one binary "
                 "clause per cell, per (part, digit)",
    "triad_alo": "each digit lies in one of the three triads of every row and column, and in "
                 "one of the three row triads and one of the three column triads of every box: "
                 "`t(p1,d) ∨ t(p2,d) ∨ t(p3,d)`",
    "triad_amo": "…and in only one of them: at-most-one over the same three `t`",
}


def reference_readme() -> str:
    """The text of ``encodings/README.md`` (counts computed, so they cannot drift)."""
    nine, four = make_geometry(9), make_geometry(4)
    table = ["| family | meaning | " + " | ".join(e.value for e in Encoding) + " |",
             "|---|---|" + "---:|" * len(Encoding)]
    for name in FAMILIES:
        if name == "pair_differ":
            continue  # always 0 on the plain grids these files hold
        counts = [build(nine, e).counts.get(name) for e in Encoding]
        table.append(f"| `{name}` | {_FAMILY_TEXT[name]} | "
                     + " | ".join(f"{c:,}" if c is not None else "–" for c in counts) + " |")
    totals = []
    for geometry in (nine, four):
        for e in Encoding:
            f = build(geometry, e)
            totals.append(f"| `sudoku_{geometry.size}x{geometry.size}_{e.value}.cnf` | "
                          f"{f.nv:,} | {len(f.clauses):,} | {f.literals:,} |")
    p = parts(nine)
    return f"""# CNF encodings of Sudoku (DIMACS)

Generated by `sudoku_csp.encodings.cnf.write_reference_files` (or `sudoku-csp encode --empty`);
do not edit by hand — a test fails when these files and the code disagree.

Each `.cnf` file is the **empty grid** in one named encoding, with pairwise at-most-one
constraints. Its comment header names the geometry, the encoding, the numbering and the
clause count of every family. For a puzzle, add one unit clause per given (below), or use
`sudoku-csp encode PUZZLE --encoding NAME [--reduce]`.

## Variables

- `x(r, c, d)` — "row `r`, column `c` holds digit `d`", all 1-based — is variable
  `81(r-1) + 9(c-1) + d`, so `1..729` for 9×9. In general, for an N×N grid with 0-based
  `cell = N*row + column` and 0-based `digit`, it is `cell*N + digit + 1` (`1..N³`; 4×4 uses
  `1..64` as `16(r-1) + 4(c-1) + d`).
- `augmented` only: `t(p, d)` — "digit `d` lies in part `p`" — is variable
  `N³ + p*N + d` for 0-based part `p` and 1-based `d`. For 9×9 the {len(p.cells)} parts are
  the box-row triads (row 1 & box 1 = cells 0 1 2, …), then the box-column triads; the header
  lists every part with its cells. These are variables 730..{729 + len(p.cells) * 9}.
- Other at-most-one encodings (`seqcounter`, `ladder`, …) add auxiliary variables after
  these; the header gives their range.

## Clause families (9×9 counts, pairwise at-most-one)

{chr(10).join(table)}

- `minimal` = `cell_alo` + `unit_amo`; `natural` adds `cell_amo`; `extended` adds `unit_alo`;
  `augmented` adds the triad families, so that unit propagation alone makes the
  locked-candidate (pointing and claiming) deductions as well as naked and hidden singles.
- Variant grids add their units (diagonals, windows, jigsaw regions) to `unit_*` and their
  extra pairs to `pair_differ`. In `augmented`, jigsaw regions take the place of boxes, and
  any other two units sharing two or more cells (a diagonal or window and a box, …) get a
  part of their own, split off from each unit's remaining single cells.

| file | variables | clauses | literals |
|---|---:|---:|---:|
{chr(10).join(totals)}

## Adding a puzzle's givens

For each given digit `d` at row `r`, column `c` (1-based), append the unit clause
`81(r-1) + 9(c-1) + d 0` and add one to the clause count on the `p cnf` line. Example: a 5 at
row 1, column 3 is `23 0`. Incremental solvers can take the same literals as assumptions.

## Solving with any SAT solver, and decoding

```
sudoku-csp encode puzzle.txt --encoding extended -o puzzle.cnf   # or append units by hand
kissat puzzle.cnf            # or: minisat puzzle.cnf out.txt; cadical puzzle.cnf
```

The solver prints `s SATISFIABLE` and `v` lines with the model. Every positive literal
`v` in `1..729` places a digit: `cell = (v-1) // 9`, `row = cell // 9 + 1`,
`column = cell % 9 + 1`, `digit = (v-1) % 9 + 1`. Exactly one such literal is true per cell.
`UNSATISFIABLE` means the puzzle has no solution. To check uniqueness, add the clause
`¬v1 ∨ … ∨ ¬v81` over the 81 true cell literals and solve again: `UNSATISFIABLE` means unique.
In Python, `sudoku_csp.encodings.cnf.decode(model, geometry)` does the decoding.

## Clue-reduced files (`--reduce`)

After Kwon & Jain (2006), the givens are applied to the formula instead of added to it:
clauses they satisfy are dropped and literals they falsify are removed. A given fixes its
cell's variables, and its digit's variable in every cell that sees it, so those variables no
longer occur and a solver may print any value for them. Decode such a model with the
puzzle (its line is in the header, `c puzzle:`): take the given cells from the puzzle and
every other cell from its true literal — `decode(model, geometry, givens)` does exactly this.

## Uniqueness certificates and external DRAT checkers

`sudoku-csp certify PUZZLE DIR` writes three files: `certificate.json` (the puzzle, its
geometry, the solution found, the encoding), `formula.cnf` and `proof.drup`. The formula is
the empty-grid encoding of the matching file above, then one unit clause per given, then a
last clause `¬x(c1,d1) ∨ … ∨ ¬x(ck,dk)` over the open cells of the solution: "some open cell
differs from it" (the header's `c exclusion:` line says so). It is unsatisfiable exactly when
that solution is the only one, and `proof.drup` is a solver's DRUP proof that it is.

`sudoku-csp verify-certificate DIR` checks it with this project's own reverse-unit-propagation
checker and no solver: it rebuilds the formula from the puzzle and the witness, refuses a
`formula.cnf` that differs, checks the witness against the rules, then every lemma.

With an external checker, e.g. `drat-trim DIR/formula.cnf DIR/proof.drup` (expect
`s VERIFIED`), remember that it trusts `formula.cnf`: confirm that its clauses before the
givens are those of the empty-grid file here (for 9×9, extended, pairwise:
`diff <(grep -v '^[cp]' sudoku_9x9_extended.cnf) <(grep -v '^[cp]' DIR/formula.cnf | head -n 11988)`
prints nothing), that the units are the puzzle's givens, and that the last clause excludes
the solution in `certificate.json`.
"""
