"""The common interface of typed constraints: everything a kind owns about itself.

A :class:`Constraint` is one rule that is neither an all-different unit nor a "must differ"
pair: a killer cage, a thermometer, a set of kropki dots, ... Its module (one per kind)
holds everything about it, and nothing else in the package names the kind:

- the data (a frozen dataclass over cell indices, so a puzzle stays hashable and picklable)
  and :meth:`Constraint.validate` against a geometry (and :meth:`Constraint.joint_validate`
  for a puzzle's constraints of the kind together);
- its JSON form (:meth:`Constraint.from_json`, :meth:`Constraint.to_json`) under the fields
  it owns (:attr:`Constraint.keys`);
- :meth:`Constraint.native`: the native solver's propagation, as :class:`Link` objects, each
  a pure function from its cells' candidate masks to narrower masks (``None``: contradiction);
- :meth:`Constraint.cnf`: clauses over the one variable map
  (:mod:`sudoku_csp.modeling.variables`), auxiliaries from the formula's pool, cardinality
  and pseudo-Boolean pieces from ``pysat.card`` / ``pysat.pb`` (:class:`CnfContext`), with
  the encoding choices it offers (:attr:`Constraint.encoding_options`);
- :meth:`Constraint.cpsat`: constraints added to a CP-SAT model through the model-neutral
  helpers of :class:`~sudoku_csp.modeling.cpsat_model.CpSatModel` (``value``,
  ``all_different``, ``allow_pairs``, ``forbid_pairs``, ``allow_digits``, ``different_sum``),
  and what a kind's constraints imply together (:meth:`Constraint.joint_cpsat`);
- :meth:`Constraint.violations`: the independent check :mod:`sudoku_csp.verify` runs on every
  solution, written directly from the rule (sums added, order compared), sharing no code with
  the three translations;
- how it is drawn (:meth:`Constraint.draw` on a :class:`~sudoku_csp.canvas.Canvas`, and
  :meth:`Constraint.summary` for a picture's title);
- how its deductions are worded in explanations (:meth:`Constraint.why`,
  :meth:`Constraint.why_link`, and :attr:`Link.why` for its joint links) and how they are
  rated (:attr:`Constraint.combines`);
- how a generator reads it off a solution grid (:attr:`Constraint.maker`,
  :meth:`Constraint.read_off`, :meth:`Constraint.merge`, :meth:`Constraint.made`,
  :meth:`Constraint.grid_rule`);
- its f-puzzles form (:attr:`Constraint.fpuzzles`, :meth:`Constraint.from_fpuzzles`,
  :meth:`Constraint.to_fpuzzles`; the envelope of the format is :mod:`sudoku_csp.io.fpuzzles`);
- random instances that hold on a grid (:meth:`Constraint.sample`), what the tests and
  fuzzers over every registered kind draw.

Digits are ``0..N-1`` inside, as everywhere; rules speak of the shown values ``1..N``
(a cage's sum, a thermometer's order, an odd cell), so ``value = digit + 1``.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.canvas import Canvas
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Geometry, Grid

if TYPE_CHECKING:
    from pysat.formula import IDPool

    from sudoku_csp.modeling.cpsat_model import CpSatModel
    from sudoku_csp.modeling.variables import Variables

Masks = tuple[int, ...]
CellName = Callable[[int], str]
"""How a message names a cell (its index): ``Geometry.label`` (``A1``) unless told otherwise."""
Narrow = Callable[[Masks], "Masks | None"]
Why = Callable[[Sequence[int], Sequence[tuple[int, int]]], str]
"""Words for a link's deduction from the pencil marks and what it removes (:attr:`Link.why`)."""
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


HANDLED_BY = ("solve, count, check, compare, show, certify, encode, minimal, explain, hint, "
              "rate, candidates and disambiguate do; generate --kind makes them")
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


def at(geometry: Geometry, cells: Sequence[int], name: CellName | None = None) -> str:
    """Where a piece stands, for :meth:`Constraint.describe`: its first cell's label by
    default; named by ``name``, its first and last cells.

    >>> from sudoku_csp.variants import make_geometry
    >>> g = make_geometry(4)
    >>> at(g, (0, 4)), at(g, (0, 4), lambda c: f"#{c}"), at(g, (5,), lambda c: f"#{c}")
    ('A1', '#0–#4', '#5')
    """
    if name is None:
        return geometry.label(cells[0])
    return name(cells[0]) if len(cells) == 1 else f"{name(cells[0])}–{name(cells[-1])}"


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

    ``why``: what a link of :meth:`Constraint.joint_native` says, in the words an
    explanation gives its deductions (``the 45 rule: A3+A4 = 7``), or a function of the
    pencil marks (every cell's mask) and the ``(cell, digit)`` pairs the link removes that
    gives them; empty for a constraint's own links, which their constraint words
    (:meth:`Constraint.why_link`).
    """

    cells: tuple[int, ...]
    narrow: Narrow
    why: str | Why = field(default="", compare=False)


def _keep(mask: int, masks: Masks) -> Masks | None:
    m = masks[0] & mask
    return (m,) if m else None


def keep_digits(cell: int, mask: int) -> Link:
    """The link of a rule that allows ``cell`` only the digits of ``mask`` (an odd cell,
    pencil marks).

    >>> keep_digits(0, 0b0101).narrow((0b0011,)), keep_digits(0, 0b0100).narrow((0b0011,))
    ((1,), None)
    """
    return Link((cell,), partial(_keep, mask))


@dataclass(frozen=True)
class EncodingOption:
    """A choice a kind offers in how its CNF is written (a killer cage's sums: ``combos`` or
    a ``pysat.pb`` encoding). Backends and commands that write CNF list every registered
    kind's options (:func:`sudoku_csp.constraints.encoding_options`) without naming a kind.
    ``check`` raises :class:`~sudoku_csp.errors.InputError` for a value that cannot be used
    here (a missing optional library)."""

    name: str
    default: str
    help: str
    choices: tuple[str, ...]
    what: str
    """What a value is, in messages (``cage-sum encoding``)."""
    check: Callable[[str], None] | None = None


class CnfContext:
    """What a constraint's :meth:`~Constraint.cnf` builds with: the variable map, one pool
    for auxiliary variables, the chosen encoding options (by name; a kind reads its own with
    :meth:`option`), and at-most-one clauses from ``pysat.card``.

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.modeling.variables import variables
    >>> ctx = CnfContext(variables(make_geometry(4)), start=65)
    >>> ctx.x(0, 0), ctx.new_var(), ctx.new_var()
    (1, 65, 66)
    """

    def __init__(self, numbering: Variables, *, start: int,
                 options: Mapping[str, str] | None = None) -> None:
        from pysat.formula import IDPool

        self.vars = numbering
        self.geometry = numbering.geometry
        self.pool: IDPool = IDPool(start_from=start)
        self.options = dict(options or {})

    def option(self, choice: EncodingOption) -> str:
        """The value chosen for one of a kind's encoding options (its default if none)."""
        return self.options.get(choice.name, choice.default)

    def x(self, cell: int, digit: int) -> int:
        """The variable "``cell`` holds ``digit``"."""
        return self.vars.x(cell, digit)

    def new_var(self) -> int:
        """A fresh auxiliary variable from the pool."""
        return self.pool.id()

    @property
    def top(self) -> int:
        """The highest variable handed out so far (at least ``start - 1``)."""
        return self.pool.top

    def at_most_one(self, lits: list[int]) -> list[list[int]]:
        """Pairwise at-most-one (``pysat.card``): no auxiliaries, for the short lists here."""
        from pysat.card import CardEnc, EncType

        return CardEnc.atmost(lits, 1, vpool=self.pool, encoding=EncType.pairwise).clauses


Pieces = tuple[list["Constraint"], list["Constraint"]]
"""Constraints a generator reads off a grid: (fixed, droppable pieces)."""


class Constraint(abc.ABC):
    """One typed constraint; subclasses are frozen dataclasses (see the module docstring).

    ``kind`` names the kind (``"cage"``); ``keys`` are the JSON fields it reads and
    writes; ``single`` says a puzzle holds at most one of it (rules over the whole grid,
    such as "all kropki dots are given"). The methods that are not abstract have a default
    that suits a kind without the feature (nothing drawn, no extra words, no generator).
    """

    kind: ClassVar[str]
    keys: ClassVar[tuple[str, ...]]
    single: ClassVar[bool] = False
    encoding_options: ClassVar[tuple[EncodingOption, ...]] = ()
    """The CNF encoding choices this kind offers (see :class:`EncodingOption`)."""
    maker: ClassVar[str | None] = None
    """The name ``generate --kind`` makes puzzles of this kind by; ``None``: the kind's name
    with its spaces written ``-`` and in lower case (``little-killer``, ``x-sum``). Every
    registered kind has one but killer cages (a generator of their own) and the
    :attr:`starting` kinds (:func:`sudoku_csp.constraints.makers`)."""
    negative_rule: ClassVar[bool] = False
    """Whether the generator may give this kind under its negative rule (every mark given)."""
    starting: ClassVar[bool] = False
    """Whether the constraint says where a solver starts (pencil marks already written)
    rather than a rule of the puzzle: an explanation applies its native links before the
    first step, not as steps of its own."""
    fpuzzles: ClassVar[tuple[str, ...]] = ()
    """The top-level f-puzzles keys this kind reads (``killercage``); a key belongs to one
    kind. Empty: f-puzzles cannot say it."""
    fpuzzles_cell: ClassVar[tuple[str, ...]] = ()
    """Keys of f-puzzles grid cells this kind reads (``givenPencilMarks``)."""
    fpuzzles_negative: ClassVar[tuple[str, ...]] = ()
    """The words of the f-puzzles ``negative`` list this kind honours (``ratio``)."""
    sample_size: ClassVar[int] = 4
    """The smallest grid size :meth:`sample` draws on (6 for clues outside the grid, which
    say little on 4x4); the tests count solutions by brute force there."""

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

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        """A short human name, for messages (``cage 15 at A1``). With ``name`` (how a report
        names a cell: ``R1C1``), a piece of several cells is placed by its first and last
        (``cage 15 at R1C1–R2C1``): see :func:`at`."""
        cells = self.touched()
        return f"{self.kind} at {at(geometry, cells, name)}" if cells else self.kind

    def parts(self, geometry: Geometry) -> tuple[Constraint, ...]:
        """The constraint as the parts a setter would remove one at a time (each dot of a
        puzzle's dots, each odd cell), constraints of their own whose rules together are
        exactly this one's: what a minimal conflict names. By default the constraint is one
        piece (a cage, a line, an outside clue)."""
        return (self,)

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

    # -- pictures ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """Draw the constraint as setters do: elements added to the canvas's layers, room
        kept clear of candidates with ``canvas.pad``. Nothing by default: the picture's
        title names it (:meth:`summary`)."""
        return None

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        """What a picture's title says of a puzzle's constraints of this kind (``12 killer
        cages``): by default each one's :meth:`describe`."""
        return [c.describe(geometry) for c in constraints]

    # -- explanations -----------------------------------------------------------------------
    combines: ClassVar[bool] = False
    """Whether the kind's deductions weigh combinations of several cells' digits (the sets
    that make a cage's sum, the sums along an arrow, the readings of a sandwich) rather than
    hold one cell's candidates against one other cell's or a fixed list (a dot, a whispers
    step, an odd cell): explanations rate the two apart (:mod:`sudoku_csp.logic.constraints`)."""

    def why(self, geometry: Geometry, candidates: Sequence[int]) -> str:
        """Why the constraint's native links narrow its cells' candidates now (``candidates``:
        every cell's mask), in words an explanation prints after the constraint's name
        (``only 1/3, 2/... add up to 4 here``); empty when the name says enough."""
        return ""

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """Why ``link`` (one of :meth:`native`'s) removes ``gone`` (``(cell, digit)`` pairs)
        from the pencil marks ``candidates`` (every cell's mask, before the step), in the
        kind's own terms (``A2 and A3 differ by at least 5: 5 in A3 has no partner at
        all``), printed after the constraint's name. By default :meth:`why`, for a kind
        whose words do not depend on the link."""
        return self.why(geometry, candidates)

    # -- generation ---------------------------------------------------------------------------
    @classmethod
    def read_off(cls, geometry: Geometry, grid: Grid, rng: random.Random,
                 negative: bool) -> Pieces:
        """The constraints of this kind read off a solution ``grid`` (every one true of it),
        as ``(fixed, droppable pieces)``; ``negative``: under the negative rule, where the
        kind has one (:attr:`negative_rule`).

        By default, for a kind with its own :meth:`sample`: no fixed part, and as pieces the
        distinct constraints :meth:`sample` draws on ``grid``, drawn again and again until
        there are about twice as many as the grid has rows (or 30 draws), enough that a
        puzzle can become unique with few givens. ``negative`` is not used (the samples
        choose their own negative rules). A piece that cannot stand beside those kept
        (:meth:`joint_validate`: two clues in one place) is not kept; for a :attr:`single`
        kind, one that :meth:`merge` could not join to those kept without changing what they
        say (:func:`_merges_exactly`), so the puzzle's one merged constraint says exactly
        what its pieces said together.
        """
        if _inherited(cls, "sample"):
            raise UnsupportedError(f"no generator reads {cls.kind} constraints off a grid")
        wanted = 2 * geometry.size
        pieces: list[Constraint] = []
        for _ in range(_DRAWS):
            for candidate in cls.sample(geometry, grid, rng):
                if candidate not in pieces and _joins(cls, geometry, [*pieces, candidate]):
                    pieces.append(candidate)
            if len(pieces) >= wanted:
                break
        return [], pieces

    @classmethod
    def merge(cls, pieces: Sequence[Constraint]) -> list[Constraint]:
        """The puzzle's constraints of this kind from the pieces a generator kept (one
        constraint for a kind a puzzle holds once, such as all its dots); by default the
        pieces themselves, in grid order."""
        return sorted(pieces, key=lambda c: c.touched())

    @classmethod
    def made(cls, constraints: Sequence[Constraint]) -> str:
        """A few words on a generated puzzle's constraints of this kind, for its metadata
        (``3 thermometers of 3-5 cells``); empty when the kind's name says it all."""
        return ""

    @classmethod
    def sample(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> list[Constraint]:
        """A few random constraints of this kind that ``grid`` satisfies (so a puzzle made of
        them has solutions), for the tests over every kind: backends counted against the
        checker, links against :meth:`violations`. By default droppable pieces
        :meth:`read_off` gives, merged, for a kind with a :meth:`read_off` of its own; every
        other kind writes its own (the default :meth:`read_off` draws on it)."""
        if _inherited(cls, "read_off"):
            raise UnsupportedError(f"{cls.kind} has neither a sample nor a read_off of its own")
        fixed, pieces = cls.read_off(geometry, grid, rng, rng.random() < 0.3)
        kept = rng.sample(pieces, min(len(pieces), rng.randint(1, 4)))
        return cls.merge([*fixed, *kept])

    # -- f-puzzles ----------------------------------------------------------------------------
    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """The constraints of this kind in an f-puzzles ``document`` (called when one of its
        :attr:`fpuzzles` keys, or :attr:`fpuzzles_cell` keys in a grid cell, is present).
        Raises :class:`~sudoku_csp.constraints.fields.FieldError` naming the element
        (``killercage[3].value``) and what was expected. Cells are ``R1C1`` names
        (:func:`~sudoku_csp.constraints.fields.parse_rc`)."""
        return []

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        """The f-puzzles keys of a puzzle's constraints of this kind: lists (merged with
        those other kinds write under the same key), ``true`` flags, and ``negative`` (a list
        of words). :class:`UnsupportedError` when f-puzzles cannot say it."""
        raise UnsupportedError(f"f-puzzles has no {cls.kind} constraint")

    @classmethod
    def grid_rule(cls) -> tuple[Constraint, ...]:
        """Constraints every grid must keep before this kind is read off it (a grid that
        breaks non-consecutive cannot carry it); none by default."""
        return ()



# -- the default read_off ---------------------------------------------------------------------
_DRAWS = 30
"""The most draws of :meth:`Constraint.sample` the default :meth:`Constraint.read_off` makes."""


def _inherited(kind: type[Constraint], hook: str) -> bool:
    """Whether ``kind`` keeps the base class's ``hook`` (a classmethod)."""
    return getattr(kind, hook).__func__ is getattr(Constraint, hook).__func__


def _joins(kind: type[Constraint], geometry: Geometry, pieces: Sequence[Constraint]) -> bool:
    """Whether the pieces a generator reads off a grid (the last one new) may all be kept:
    they stand together (:meth:`Constraint.joint_validate`) and, for a ``single`` kind, the
    new one merges into one constraint that says what they say together: alone, with each
    piece already kept, and with all of them (the failures of a merge are between two
    pieces, so a subset the generator keeps merges as exactly)."""
    try:
        kind.joint_validate(geometry, pieces)
    except ConstraintError:
        return False
    if not kind.single:
        return True
    new = pieces[-1]
    return all(_merges_exactly(kind, geometry, group)
               for group in ([new], *([old, new] for old in pieces[:-1]), pieces))


def _merges_exactly(kind: type[Constraint], geometry: Geometry,
                    pieces: Sequence[Constraint]) -> bool:
    """Whether :meth:`Constraint.merge` joins ``pieces`` of a ``single`` kind into one valid
    constraint ruling exactly the pairs of cells they rule together: the kind's pair rules
    (:class:`~sudoku_csp.constraints.pairs.PairRules`, relations compared by name) are the
    union of the pieces'. A single kind without pair rules cannot be compared so: only one
    piece is then kept (merged, it is itself).

    What it keeps out: two minimum cells side by side drawn apart (merged, they are no
    longer compared), and dots of one piece that would widen another's negative rule (a
    difference dot 2 beside "no other neighbours differ by 1")."""
    merged = kind.merge(pieces)
    if len(merged) != 1:
        return False
    (one,) = merged
    try:
        one.validate(geometry)
    except ConstraintError:
        return False
    # Pair rules (PairRules.rules) are compared by duck typing: base.py sits below pairs.py.
    if not hasattr(one, "rules"):
        return len(pieces) == 1
    ruled = {rule for piece in pieces if hasattr(piece, "rules") for rule in piece.rules(geometry)}
    return set(one.rules(geometry)) == ruled
