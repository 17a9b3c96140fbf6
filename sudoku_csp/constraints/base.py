"""The common interface of typed constraints: every hook a kind has, with its contract.

A :class:`Constraint` is one rule that is neither an all-different unit nor a "must differ"
pair: a killer cage, a thermometer, a set of kropki dots, ... Its module (one per kind, in
``constraints/kinds/``) holds everything about it, and nothing else in the package names the
kind. The hooks of :class:`Constraint`, by concern, in the order a kind is written:

========================  ===================================================================
names                     :attr:`~Constraint.names`: its name, JSON fields, f-puzzles keys
                          and nouns, declared once (:class:`~.names.Names`)
data                      the frozen dataclass's fields; :meth:`~Constraint.touched`,
                          :attr:`~Constraint.single`, :attr:`~Constraint.starting`,
                          :meth:`~Constraint.validate`, :meth:`~Constraint.joint_validate`,
                          :meth:`~Constraint.describe`, :meth:`~Constraint.parts`,
                          :meth:`~Constraint.ruled_pairs`
translations              :meth:`~Constraint.native` (+ :meth:`~Constraint.joint_native`),
                          :meth:`~Constraint.cnf` (+ :meth:`~Constraint.joint_cnf`,
                          :attr:`~Constraint.encoding_options`),
                          :meth:`~Constraint.cpsat` (+ :meth:`~Constraint.joint_cpsat`),
                          with :mod:`sudoku_csp.constraints.translation`'s vocabulary;
                          :meth:`~Constraint.linear_sums` (the sums it fixes, for
                          explanations that add them up with the units)
the independent check     :meth:`~Constraint.violations`
JSON and f-puzzles        :meth:`~Constraint.from_json`, :meth:`~Constraint.to_json`,
                          :meth:`~Constraint.from_fpuzzles`, :meth:`~Constraint.to_fpuzzles`,
                          :attr:`~Constraint.fpuzzles_lines`
picture                   :meth:`~Constraint.draw`, :meth:`~Constraint.summary`
words                     :attr:`~Constraint.combines`, :meth:`~Constraint.why`,
                          :meth:`~Constraint.why_link`
generation                :attr:`~Constraint.own_generator`,
                          :attr:`~Constraint.negative_rule`, :attr:`~Constraint.sample_size`,
                          :meth:`~Constraint.read_off`, :meth:`~Constraint.merge`,
                          :meth:`~Constraint.made`, :meth:`~Constraint.sample`,
                          :meth:`~Constraint.grid_rule`
========================  ===================================================================

The abstract hooks are what every kind must write; every other one has a default that suits
a kind without the feature (nothing drawn, no words of its own, no generator). A translation
a kind does not write is refused, with an :class:`UnsupportedError` naming the kind, by the
backends that need it (:meth:`Constraint.translates` says which it has).

Digits are ``0..N-1`` inside, as everywhere; rules speak of the shown values ``1..N``
(a cage's sum, a thermometer's order, an odd cell), so ``value = digit + 1``.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.canvas import Canvas
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.translation import (
    Clause,
    CnfContext,
    Definition,
    EncodingOption,
    Link,
)
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Geometry, Grid

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel

LinearTerms = tuple[tuple[int, int], ...]
"""A weighted sum over cells' values, ``((cell, weight), ...)``: ``Σ weight · value(cell)``."""

CellName = Callable[[int], str]
"""How a message names a cell (its index): ``Geometry.label`` (``A1``) unless told otherwise."""


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
    """A command, function, backend or format that cannot honour a kind of typed constraint,
    given a puzzle that has some: refused, never solved or written as if they were not
    there."""


HANDLED_BY = ("solve, count, check, compare, show, certify, encode, minimal, explain, hint, "
              "rate, candidates and disambiguate do, study measures their encoding options; "
              "generate --kind makes them")
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


Pieces = tuple[list["Constraint"], list["Constraint"]]
"""Constraints a generator reads off a grid: (fixed, droppable pieces)."""

_OLD_NAMES = ("kind", "keys", "key", "maker", "noun", "nouns", "fpuzzles", "fpuzzles_cell",
              "fpuzzles_negative")
"""Class attributes that once spelled a kind's names one by one: :attr:`Constraint.names`
declares them all now, and a class that sets one is refused (a second spelling would
drift)."""


class Constraint(abc.ABC):
    """One typed constraint; subclasses are frozen dataclasses (the hooks, by concern, are
    listed in the module docstring)."""

    # -- names ------------------------------------------------------------------------------
    names: ClassVar[Names]
    """Every name of the kind, declared once (see :class:`~sudoku_csp.constraints.names.Names`)."""
    kind: ClassVar[str]
    """The kind's name (``cage``): :attr:`names`'s, set for each class that declares them."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        spelled = [name for name in _OLD_NAMES if name in vars(cls)]
        if spelled:
            raise TypeError(f"{cls.__name__} sets {', '.join(spelled)}: a kind declares its "
                            "names once, names = Names(...)")
        if "names" in vars(cls):
            cls.kind = cls.names.kind

    @classmethod
    def has_own(cls, hook: str) -> bool:
        """Whether the kind gives ``hook`` a body of its own (or a base between it and
        :class:`Constraint` does) rather than the default here.

        >>> from sudoku_csp.constraints import Thermo
        >>> Thermo.has_own("cpsat"), Thermo.has_own("joint_native")
        (True, False)
        """
        mine, base = getattr(cls, hook), getattr(Constraint, hook)
        return getattr(mine, "__func__", mine) is not getattr(base, "__func__", base)

    # -- data -------------------------------------------------------------------------------
    single: ClassVar[bool] = False
    """Whether a puzzle holds at most one constraint of the kind (a rule over the whole grid,
    such as "all kropki dots are given")."""
    starting: ClassVar[bool] = False
    """Whether the constraint says where a solver starts (pencil marks already written)
    rather than a rule of the puzzle: an explanation applies its native links before the
    first step, not as steps of its own."""

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

    def ruled_pairs(self, geometry: Geometry) -> frozenset[tuple[int, int, Hashable]] | None:
        """The rule as relations between two cells, ``(a, b, relation)``, for a kind whose
        rule is exactly such relations (:class:`~sudoku_csp.constraints.pairs.PairRules`);
        ``None`` (the default) for any other kind. The generator compares merged pieces by
        them (:meth:`read_off`)."""
        return None

    # -- translations -----------------------------------------------------------------------
    encoding_options: ClassVar[tuple[EncodingOption, ...]] = ()
    """The CNF encoding choices this kind offers (see :class:`EncodingOption`)."""

    def native(self, geometry: Geometry) -> list[Link]:
        """The native solver's propagation for this constraint (see :class:`Link`); what
        explanations word as steps, too."""
        raise UnsupportedError(f"{self.kind} constraints have no native propagation: the "
                               "native solver and explanations cannot take them")

    @classmethod
    def joint_native(cls, geometry: Geometry, constraints: Sequence[Constraint]
                     ) -> list[Link]:
        """Native propagation that follows from all of a puzzle's constraints of this kind
        together with the geometry's units, beyond what each gives alone (killer cages: the
        45 rule). Implied rules only: they may speed the native search, never change its
        answers. None by default. ``constraints`` are every constraint of the puzzle
        when the kind sets :attr:`joint_sees_all` (a quadruple with the cages over it)."""
        return []

    joint_sees_all: ClassVar[bool] = False
    """Whether :meth:`joint_native` is given every constraint of the puzzle, not only
    this kind's (it then picks out its own)."""

    def linear_sums(self, geometry: Geometry) -> list[tuple[LinearTerms, int]]:
        """The linear equations the rule fixes over its cells' values (1..N), each
        ``(terms, total)``: ``Σ weight · value(cell) = total``, every solution keeps them (a
        cage ``A1+A2 = 7``; an arrow ``B1+B2 - A1 = 0``). What explanations add up with the
        units' totals and other constraints' sums (:mod:`sudoku_csp.logic.sums`). None by
        default: a kind whose rule is no fixed sum (a sandwich, an X-sum: which cells count
        depends on digits)."""
        return []

    def definitions(self, ctx: CnfContext) -> Sequence[Definition]:
        """The auxiliaries its :meth:`cnf` reads, under ``ctx``'s encoding options, that the
        grid alone defines (:class:`~sudoku_csp.constraints.translation.Definition`), which
        a solver asked about many puzzles may hold for all of them before the constraint's
        clauses join it (:func:`~sudoku_csp.constraints.cnf_clauses`, ``shared``). None by
        default."""
        return ()

    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        """Clauses that hold exactly when the rule does, given the cell-digit variables of
        ``ctx`` (each cell one digit: the base formula says so). A kind may write
        ``ctx.guard`` into every clause itself and return them as
        :class:`~sudoku_csp.constraints.translation.Guarded`; any other clauses get it from
        :func:`~sudoku_csp.constraints.cnf_clauses`."""
        raise UnsupportedError(f"{self.kind} constraints have no CNF clauses: the sat "
                               "backend and the commands that write CNF cannot take them")

    @classmethod
    def joint_cnf(cls, ctx: CnfContext, constraints: Sequence[Constraint]) -> Iterable[Clause]:
        """Clauses that follow from all of a puzzle's constraints of this kind together with
        the geometry's units (killer cages: the 45 rule), each family as ``ctx``'s encoding
        options choose (and the guard as :meth:`cnf` says). Implied clauses only: they may
        speed the search, never remove a solution. None by default."""
        return iter(())

    def cpsat(self, model: CpSatModel) -> None:
        """Add this rule to a CP-SAT model of its geometry (either model kind)."""
        raise UnsupportedError(f"{self.kind} constraints have no CP-SAT model: the cpsat "
                               "backend cannot take them")

    @classmethod
    def joint_cpsat(cls, model: CpSatModel, constraints: Sequence[Constraint]) -> None:
        """Add to a CP-SAT model what follows from all of a puzzle's constraints of this
        kind together with the geometry's units (killer cages: the 45 rule).
        Implied rules only: they may speed the search, never remove a solution. None by
        default."""
        return None

    @classmethod
    def translates(cls, hook: str) -> bool:
        """Whether the kind has the translation ``hook`` (``native``, ``cnf`` or ``cpsat``):
        a backend that needs one the kind lacks refuses its puzzles."""
        return cls.has_own(hook)

    # -- the independent check --------------------------------------------------------------
    @abc.abstractmethod
    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        """Every way a full grid (digits ``0..N-1``) breaks the rule; empty when it holds.
        Written from the rule itself, never from a solver's code."""

    # -- JSON and f-puzzles -----------------------------------------------------------------
    fpuzzles_lines: ClassVar[bool] = False
    """Whether the kind's f-puzzles entries are drawn lines alone (``{"lines": [[...]]}``:
    a thermometer, a whispers line), so that decoration lines of a colour can be read as it
    (``--treat-line``)."""

    @classmethod
    @abc.abstractmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """The constraints under this kind's JSON fields (``names.json``, those present in
        ``fields``). Raises :class:`FieldError` naming the field and what was expected."""

    @classmethod
    @abc.abstractmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        """The JSON fields of all the constraints of this kind in a puzzle."""

    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """The constraints of this kind in an f-puzzles ``document`` (called when one of its
        f-puzzles keys, a grid cell's key of it, or one of its ``negative`` words is
        present). Raises :class:`~sudoku_csp.constraints.fields.FieldError` naming the
        element (``killercage[3].value``) and what was expected. Cells are ``R1C1`` names
        (:func:`~sudoku_csp.constraints.fields.parse_rc`)."""
        return []

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        """The f-puzzles keys of a puzzle's constraints of this kind: lists (merged with
        those other kinds write under the same key), ``true`` flags, ``negative`` (a list of
        words) and ``grid`` (keys of cells, by cell). Only keys some registered kind reads
        (its own, or those of the kind ``names.fpuzzles_as`` names); by default
        :class:`UnsupportedError`: f-puzzles cannot say it."""
        raise UnsupportedError(f"f-puzzles has no {cls.kind} constraint")

    # -- picture ----------------------------------------------------------------------------
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

    # -- words ------------------------------------------------------------------------------
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

    # -- generation -------------------------------------------------------------------------
    own_generator: ClassVar[bool] = False
    """Whether the kind has a generator of its own (killer cages:
    :mod:`sudoku_csp.generate.killer`) rather than being read off a grid beside the other
    kinds (:func:`sudoku_csp.constraints.makers`)."""
    negative_rule: ClassVar[bool] = False
    """Whether the generator may give this kind under its negative rule (every mark given)."""
    sample_size: ClassVar[int] = 4
    """The smallest grid size :meth:`sample` draws on (6 for clues outside the grid, which
    say little on 4x4); the tests count solutions by brute force there."""

    @classmethod
    def read_off(cls, geometry: Geometry, grid: Grid, rng: random.Random,
                 negative: bool) -> Pieces:
        """The constraints of this kind read off a solution ``grid`` (every one true of it),
        as ``(fixed, droppable pieces)``; ``negative``: under the negative rule, where the
        kind has one (:attr:`negative_rule`).

        By default, for a kind with its own :meth:`sample`: no fixed part, and as pieces the
        distinct constraints :meth:`sample` draws on ``grid``, drawn again and again until
        there are about twice as many as the grid has rows (or :data:`DRAWS` draws), enough
        that a puzzle can become unique with few givens. ``negative`` is not used (the
        samples choose their own negative rules). A piece that cannot stand beside those
        kept (:meth:`joint_validate`: two clues in one place) is not kept; for a
        :attr:`single` kind, one that :meth:`merge` could not join to those kept without
        changing what they say (:func:`merges_exactly`), so the puzzle's one merged
        constraint says exactly what its pieces said together.
        """
        if not cls.has_own("sample"):
            raise UnsupportedError(f"no generator reads {cls.kind} constraints off a grid")
        wanted = 2 * geometry.size
        pieces: list[Constraint] = []
        for _ in range(DRAWS):
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
        if not cls.has_own("read_off"):
            raise UnsupportedError(f"{cls.kind} has neither a sample nor a read_off of its own")
        fixed, pieces = cls.read_off(geometry, grid, rng, rng.random() < 0.3)
        kept = rng.sample(pieces, min(len(pieces), rng.randint(1, 4)))
        return cls.merge([*fixed, *kept])

    @classmethod
    def grid_rule(cls) -> tuple[Constraint, ...]:
        """Constraints every grid must keep before this kind is read off it (a grid that
        breaks non-consecutive cannot carry it); none by default."""
        return ()


# -- the default read_off -------------------------------------------------------------------
DRAWS = 30
"""The most draws of :meth:`Constraint.sample` the default :meth:`Constraint.read_off` makes."""


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
    return all(merges_exactly(kind, geometry, group)
               for group in ([new], *([old, new] for old in pieces[:-1]), pieces))


def merges_exactly(kind: type[Constraint], geometry: Geometry,
                   pieces: Sequence[Constraint]) -> bool:
    """Whether :meth:`Constraint.merge` joins ``pieces`` of a ``single`` kind into one valid
    constraint ruling exactly the pairs of cells they rule together: the merged constraint's
    :meth:`~Constraint.ruled_pairs` are the union of the pieces'. A single kind whose rule
    is no set of pairs cannot be compared so: only one piece is then kept (merged, it is
    itself).

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
    ruled = one.ruled_pairs(geometry)
    if ruled is None:
        return len(pieces) == 1
    return ruled == frozenset().union(*(piece.ruled_pairs(geometry) or () for piece in pieces))
