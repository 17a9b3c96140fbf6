"""CNF encodings of Sudoku for any geometry: named clause families and named encodings.

This module builds formulas; it never solves (the ``sat`` backend and your own solvers do).
Every variable is numbered by :mod:`sudoku_csp.modeling.variables` (``x(cell, digit)``,
``triad(part, digit)``, then auxiliaries from one pool); DIMACS text is
:mod:`sudoku_csp.encodings.dimacs`, the repository's ``encodings/`` folder
:mod:`sudoku_csp.encodings.reference`.

Glossary
--------
- *family*: a named generator of clauses (:data:`~sudoku_csp.encodings.families.FAMILIES`),
  e.g. ``cell_alo``.
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
import itertools
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from pysat.formula import CNF

from sudoku_csp.constraints import cnf_clauses
from sudoku_csp.constraints.translation import Definition
from sudoku_csp.deadline import NEVER, Deadline
from sudoku_csp.encodings.families import FAMILIES, Cards
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import EMPTY, Geometry, Grid
from sudoku_csp.modeling.variables import DecodeError, Parts, Variables, parts, variables
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
"""The encoding used unless told otherwise (measured fastest with CaDiCaL; see docs/study.md)."""


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
        # by_ref: the lists are new already; PySAT's default deep copy of them took 15 s
        # and 600 MB of bookkeeping for the empty 35×35 grid's 2.9 million clauses.
        cnf = CNF(from_clauses=[list(c) for c in self.clauses], by_ref=True)
        cnf.nv = self.nv  # trailing variables may occur in no clause (e.g. a 1×1 grid)
        return cnf


_BUILT_BETWEEN_CHECKS = 1 << 16  # clauses made between two looks at a deadline
MAX_BUILT = 32
"""Formulas :func:`build` keeps, least recently used dropped first."""
_built: OrderedDict[tuple[Geometry, Encoding, str], Formula] = OrderedDict()
_built_lock = threading.Lock()


def _build(geometry: Geometry, encoding: Encoding, amo: str, deadline: Deadline) -> Formula:
    numbering = variables(geometry, triads=encoding in TRIAD_ENCODINGS)
    cards = Cards(amo, numbering)
    clauses: list[Clause] = []
    spans = []
    for name in ENCODING_FAMILIES[encoding]:
        start = len(clauses)
        made = map(tuple, FAMILIES[name](geometry, cards))
        while chunk := list(itertools.islice(made, _BUILT_BETWEEN_CHECKS)):
            deadline.check("building the formula")
            clauses.extend(chunk)
        spans.append(Span(name, start, len(clauses)))
    nv = max(cards.pool.top, numbering.first_aux - 1)
    return Formula(geometry, encoding, amo, nv, tuple(clauses), tuple(spans), numbering)


def build(geometry: Geometry, encoding: str | Encoding = DEFAULT_ENCODING,
          amo: str = DEFAULT_AMO, *, deadline: Deadline = NEVER) -> Formula:
    """The :class:`Formula` of the empty grid of ``geometry`` (cached per arguments: the
    :data:`MAX_BUILT` most recently used). Building the empty 35×35 grid's takes a second or
    two: a limited ``deadline`` is looked at as it goes
    (:class:`~sudoku_csp.deadline.Expired` once past; nothing is cached then).

    >>> build(make_geometry(9), "minimal").counts
    {'cell_alo': 81, 'unit_amo': 8748, 'pair_differ': 0}
    """
    key = (geometry, encoding_of(encoding), amo_of(amo))
    with _built_lock:
        formula = _built.get(key)
        if formula is not None:
            _built.move_to_end(key)
            return formula
    formula = _build(*key, deadline)
    with _built_lock:
        formula = _built.setdefault(key, formula)  # another thread's, if it was first
        _built.move_to_end(key)
        while len(_built) > MAX_BUILT:
            _built.popitem(last=False)
    return formula


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
        clauses, nv = puzzle_clauses(puzzle, encoding, amo, options)
        cnf = CNF(from_clauses=[list(c) for c in clauses], by_ref=True)  # see Formula.cnf
        cnf.nv = nv
        return cnf
    return build(puzzle, encoding, amo).cnf()


def puzzle_clauses(puzzle: Puzzle, encoding: str | Encoding = DEFAULT_ENCODING,
                   amo: str = DEFAULT_AMO, options: Options = None, *,
                   deadline: Deadline = NEVER) -> tuple[list[Sequence[int]], int]:
    """The clauses of :func:`encode` for ``puzzle`` and its number of variables, without a
    copy: the cached formula's own tuples (never to be changed), then the givens' unit
    clauses and the constraints' clauses. For a caller that only reads them (the DIMACS
    writer: the empty 35×35 grid has 2.9 million clauses). ``deadline``: see :func:`build`.

    >>> from sudoku_csp import parse
    >>> clauses, nv = puzzle_clauses(parse("3.1...4.2......."))
    >>> nv, len(clauses), clauses[-1]
    (64, 452, [34])
    """
    formula = build(puzzle.geometry, encoding, amo, deadline=deadline)
    clauses: list[Sequence[int]] = [*formula.clauses]
    clauses += ([lit] for lit in givens(puzzle))
    nv = formula.nv
    if puzzle.constraints:
        extra, top = constraint_clauses(puzzle, formula.nv + 1, options)
        clauses += extra
        nv = max(nv, top)
    return clauses, nv


def constraint_clauses(puzzle: Puzzle, start: int, options: Options = None, guard: int = 0,
                       shared: Mapping[Definition, tuple[int, ...]] | None = None
                       ) -> tuple[list[Sequence[int]], int]:
    """The clauses of the puzzle's typed constraints (cages, thermometers, dots, ...) over
    the one variable map, auxiliaries numbered from ``start`` (above every variable of the
    formula they join); and the highest variable they use. ``options`` are the kinds'
    encoding options (:func:`~sudoku_csp.constraints.encoding_choices`: ``{"sums": "bdd"}``);
    ``guard``, a literal added to every clause; ``shared``, the definitions the solver holds
    already (both: :func:`~sudoku_csp.constraints.cnf_clauses`).

    >>> from sudoku_csp import parse
    >>> p = parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4")
    >>> clauses, top = constraint_clauses(p, 65)
    >>> (-3,) in clauses, top       # A1 + A2 = 3: A1 holds no 3 (x(A1, 3) is variable 3)
    (True, 64)
    >>> constraint_clauses(p, 65, {"sums": "bdd"})[1] > 64   # pysat.pb: its own auxiliaries
    True
    """
    return cnf_clauses(puzzle.geometry, puzzle.constraints, start=start, options=options,
                       guard=guard, shared=shared)


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


def _looked_at(clauses: Sequence[Sequence[int]], deadline: Deadline,
               doing: str) -> Iterator[Sequence[int]]:
    """``clauses`` one by one, ``deadline`` looked at before each
    :data:`_BUILT_BETWEEN_CHECKS` of them (:class:`~sudoku_csp.deadline.Expired`)."""
    for start in range(0, len(clauses), _BUILT_BETWEEN_CHECKS):
        deadline.check(doing)
        yield from clauses[start:start + _BUILT_BETWEEN_CHECKS]


def clue_reduced(puzzle: Puzzle, encoding: str | Encoding = DEFAULT_ENCODING,
                 amo: str = DEFAULT_AMO, options: Options = None, *,
                 deadline: Deadline = NEVER) -> CNF:
    """The encoding simplified by the givens (Kwon & Jain): clauses satisfied by a fixed
    literal (:func:`fixed_literals`) dropped, fixed-false literals removed from the rest.
    ``deadline`` is looked at while the formula is built (see :func:`build`) and simplified
    (:class:`~sudoku_csp.deadline.Expired` once past).

    Variable numbers are kept, so :func:`decode` works on its models once told the givens
    (``decode(model, geometry, puzzle.givens)``): the variables they fix no longer occur.
    Clashing givens leave an empty clause (the formula is unsatisfiable).

    >>> from sudoku_csp import parse
    >>> p = parse("3.1...4.2.......")
    >>> full, small = encode(p.geometry), clue_reduced(p)
    >>> len(full.clauses), len(small.clauses), small.nv
    (448, 123, 64)
    """
    formula = build(puzzle.geometry, encoding, amo, deadline=deadline)
    clauses: Sequence[Sequence[int]] = formula.clauses
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
    # In chunks, the deadline looked at between them: the empty 35×35 grid's 2.9 million
    # clauses take seconds to go through.
    for clause in _looked_at(clauses, deadline, "simplifying the formula"):
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
    cnf = CNF(from_clauses=kept, by_ref=True)  # new lists: no deep copy (see Formula.cnf)
    cnf.nv = nv
    return cnf


def decode(model: Iterable[int], geometry: Geometry, givens: Sequence[int] | None = None
           ) -> Grid:
    """The grid a model (or any set of literals) describes; the variable map's
    :meth:`~sudoku_csp.modeling.variables.Variables.decode` (``givens`` for models of a
    clue-reduced formula). Raises :class:`DecodeError` if a cell gets two digits.

    >>> g = make_geometry(4)
    >>> decode([1, -2, 8, 64], g)[:4]
    (0, 3, -1, -1)
    >>> decode([1, 2], g)
    Traceback (most recent call last):
    ...
    sudoku_csp.modeling.variables.DecodeError: cell A1 gets two digits (1 and 2)
    >>> decode([2, 8], g, givens=(0,) + (EMPTY,) * 15)[:2]   # 2 fixed false by the given
    (0, 3)
    """
    return variables(geometry).decode(model, givens)
