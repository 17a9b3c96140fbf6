"""What a kind's translations build with: native links, and the CNF context with its
encoding options.

- :class:`Link`: one piece of native propagation, a pure function of its cells' candidate
  masks (what :meth:`~sudoku_csp.constraints.base.Constraint.native` returns);
- :class:`CnfContext`: the one variable map, a pool of auxiliary variables and the chosen
  encoding options (what :meth:`~sudoku_csp.constraints.base.Constraint.cnf` writes with);
- :class:`Definition`: auxiliaries that cells' variables define whatever the grid, which a
  solver asked about many puzzles keeps for all of them (:meth:`CnfContext.defined`);
- :class:`EncodingOption`: a choice a kind offers in how its CNF is written.

CP-SAT constraints are written with the model-neutral helpers of
:class:`~sudoku_csp.modeling.cpsat_model.CpSatModel`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from itertools import chain
from operator import itemgetter, neg
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pysat.formula import IDPool

    from sudoku_csp.modeling.variables import Variables

__all__ = ["Clause", "ClauseTemplate", "CnfContext", "Definition", "EncodingOption", "Guarded",
           "Link", "Masks", "Narrow", "Why", "Words", "compile_clauses", "fill", "gather",
           "keep_digits", "link_words", "templated", "with_guard"]

Masks = tuple[int, ...]
Narrow = Callable[[Masks], "Masks | None"]
Why = Callable[[Sequence[int], Sequence[tuple[int, int]]], str]
"""Words for a link's deduction from the pencil marks and what it removes (:attr:`Link.why`)."""
Clause = Sequence[int]


def gather(positions: Sequence[int]) -> Callable[[Sequence[int]], Masks]:
    """A getter of the items of a sequence at ``positions``, always as a tuple (a link's
    masks from the candidates): an ``itemgetter``, one C call, for two positions or more,
    whose one-item form gives no tuple and whose empty form is refused.

    >>> gather((0, 2))([5, 6, 7]), gather((1,))([5, 6, 7]), gather(())([5, 6, 7])
    ((5, 7), (6,), ())
    """
    if len(positions) > 1:
        return itemgetter(*positions)
    kept = tuple(positions)
    return lambda items: tuple([items[p] for p in kept])


class Words:
    """Words written when first read: a link's :attr:`Link.why` that costs more to write
    than a search reads (the 45 rule's implied sums, dozens on every killer, which only an
    explanation ever shows).

    >>> words = Words(lambda: "the 45 rule: A1+A2 = 3")
    >>> str(words), link_words(Link((0, 1), lambda masks: masks, words))
    ('the 45 rule: A1+A2 = 3', 'the 45 rule: A1+A2 = 3')
    """

    __slots__ = ("_text", "_write")

    def __init__(self, write: Callable[[], str]) -> None:
        self._write: Callable[[], str] | None = write
        self._text = ""

    def __str__(self) -> str:
        if self._write is not None:
            self._text, self._write = self._write(), None
        return self._text


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

    ``why``: what a link of :meth:`~sudoku_csp.constraints.base.Constraint.joint_native`
    says, in the words an explanation gives its deductions (``the 45 rule: A3+A4 = 7``), or a
    function of the pencil marks (every cell's mask) and the ``(cell, digit)`` pairs the link
    removes that gives them; empty for a constraint's own links, which their constraint
    words (:meth:`~sudoku_csp.constraints.base.Constraint.why_link`).
    """

    cells: tuple[int, ...]
    narrow: Narrow
    why: str | Why | Words = field(default="", compare=False)
    family: str = field(default="", compare=False)
    """For an implied link (:meth:`~sudoku_csp.constraints.base.Constraint.joint_native`),
    the encoding option that switches its family of implied constraints off (``hidden``:
    :mod:`sudoku_csp.constraints.implied`); empty for a link that is always in force."""
    covers: object = field(default=None, compare=False)
    """For a joint link always in force that holds the whole rule of one constraint and
    keeps no more than that constraint's own links (a little killer's diagonal read by box
    segments): that constraint, whose own links the native search then leaves out as
    redundant work. Explanations keep both (their techniques tell the two apart)."""
    reads: int | None = field(default=None, compare=False)
    """When set, what ``narrow`` does depends only on the first ``reads`` cells' masks: it
    refutes or narrows those from them alone, and from each other cell it only removes
    digits worked out from them (a cage's required digits leave the cells that see it). So
    once applied it has nothing more to do until one of those cells changes, and
    :func:`~sudoku_csp.native.rules.constrain` looks at it again only then."""


def link_words(link: Link, marks: Sequence[int] | None = None,
               gone: Sequence[tuple[int, int]] = ()) -> str:
    """``link``'s :attr:`~Link.why` as text: lazy :class:`Words` written, a function of the
    pencil marks called with ``marks`` and ``gone`` (``""`` without ``marks``)."""
    why = link.why
    if isinstance(why, str):
        return why
    if isinstance(why, Words):
        return str(why)
    return why(marks, gone) if marks is not None else ""


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


class ClauseTemplate:
    """Clauses over slots ``1..m`` (``-s``: the negation of slot ``s``), made ready for
    :func:`fill`. Built once per shape (a cage's size and sum), a template turns into a
    puzzle's clauses with one C-level call per clause, where writing them literal by literal
    costs a Python call per literal (thousands per killer). Each clause is made ready on
    first use in the form asked for: as written (:attr:`plain`: a unit as its slot, any
    other as an itemgetter of its slots) or with slot 0, the guard, added (:attr:`guarded`),
    so that a guarded puzzle's clauses are never copied to add it."""

    __slots__ = ("_clauses", "_guarded", "_plain")

    def __init__(self, clauses: Sequence[Sequence[int]]) -> None:
        self._clauses = tuple(map(tuple, clauses))
        self._plain: tuple[int | itemgetter[Any], ...] | None = None
        self._guarded: tuple[itemgetter[Any], ...] | None = None

    @property
    def plain(self) -> tuple[int | itemgetter[Any], ...]:
        if self._plain is None:
            self._plain = tuple(c[0] if len(c) == 1 else itemgetter(*c) for c in self._clauses)
        return self._plain

    @property
    def guarded(self) -> tuple[itemgetter[Any], ...]:
        if self._guarded is None:
            self._guarded = tuple(itemgetter(*c, 0) for c in self._clauses)
        return self._guarded

    def __len__(self) -> int:
        return len(self._clauses)


def compile_clauses(clauses: Sequence[Sequence[int]]) -> ClauseTemplate:
    """The :class:`ClauseTemplate` of ``clauses`` over slots ``1..m``."""
    return ClauseTemplate(clauses)


class Guarded(list[Clause]):
    """Clauses each of which carries its context's guard already (:attr:`CnfContext.guard`,
    written by :meth:`CnfContext.fill`): :func:`with_guard` adds it to none of them."""


def fill(template: ClauseTemplate, variables: Sequence[int], guard: int = 0) -> list[Clause]:
    """The clauses of ``template`` with slot ``s`` read as ``variables[s - 1]``, each with
    ``guard`` added last when it is not 0.

    >>> fill(compile_clauses([(-1,), (1, -2, 3)]), [7, 8, 9])
    [(-7,), (7, -8, 9)]
    >>> fill(compile_clauses([(-1,), (1, -2, 3)]), [7, 8, 9], guard=-5)
    [(-7, -5), (7, -8, 9, -5)]
    """
    # Slot s at index s, its negation at index -s, the guard at index 0.
    table = [guard, *variables, *map(neg, reversed(variables))]
    if guard:
        return [t(table) for t in template.guarded]
    return [(table[t],) if isinstance(t, int) else t(table) for t in template.plain]


Constant = int | bool
"""A literal, or a constant where what is known decides it (``True``: holds, ``False``:
does not), as clauses written over ranges and ladders meet them."""


def folded(*literals: Constant) -> Clause | None:
    """The clause of ``literals`` with the constants folded in: without the ``False`` ones,
    ``None`` when one is ``True`` (the clause holds), in their order.

    >>> folded(3, False, -4), folded(3, True), folded(False)
    ((3, -4), None, ())
    """
    if any(literal is True for literal in literals):
        return None
    return tuple(literal for literal in literals if literal is not False)


def negated(literal: Constant) -> Constant:
    """The negation of a literal or a constant.

    >>> negated(5), negated(True)
    (-5, False)
    """
    return (not literal) if isinstance(literal, bool) else -literal


def with_guard(clauses: Iterable[Clause], guard: int) -> list[Clause]:
    """``clauses`` as a list, each with ``guard`` added when it is not 0, unless they are
    :class:`Guarded` (they carry it already).

    >>> with_guard([(1, 2), [3]], -9), with_guard(Guarded([(1, -9)]), -9), with_guard([[1]], 0)
    ([[1, 2, -9], [3, -9]], [(1, -9)], [[1]])
    """
    if type(clauses) is Guarded:
        return clauses
    if guard:
        return Guarded([*c, guard] for c in clauses)
    return list(clauses)


@dataclass(frozen=True)
class EncodingOption:
    """A choice a kind offers in how it is translated (a killer cage's sums: ``combos`` or
    a ``pysat.pb`` encoding; whether the 45 rule's hidden cages are added). Backends and
    commands list every registered kind's options
    (:func:`sudoku_csp.constraints.encoding_options`) without naming a kind: those writing
    CNF every option, the native and cpsat backends the options whose ``translations`` name
    theirs. ``check`` raises :class:`~sudoku_csp.errors.InputError` for a value that cannot
    be used here (a missing optional library)."""

    name: str
    default: str
    help: str
    choices: tuple[str, ...]
    what: str
    """What a value is, in messages (``cage-sum encoding``)."""
    check: Callable[[str], None] | None = None
    translations: tuple[str, ...] = ("cnf",)
    """The translations that honour the option: ``cnf`` (the sat backend and every command
    writing CNF), ``native``, ``cpsat``."""
    unrecorded: str | None = None
    """The value in force before the option existed, which a record that does not name it
    was made with (a certificate's manifest from then); None: the default."""


@dataclass(frozen=True)
class Definition:
    """Auxiliary variables that the variables of ``cells`` define alone: clauses that every
    grid keeping to the units satisfies once each auxiliary takes the value it stands for
    (a sandwich's line: "digit d lies between the 1 and the N", "the crusts stand k apart").
    They constrain no grid, so they may hold for every puzzle: a solver asked about many
    keeps them once for all (:meth:`CnfContext.defined`), and a puzzle's clauses on them
    are its own.

    ``make(slots, cells)`` writes the clauses over the cells ``0, 1, ...`` as a template of
    :func:`templated` does, handing out the auxiliaries in the order their user reads them;
    ``key`` is what besides the cells they depend on (grid size and number of cells aside).
    Two definitions with the same key and cells are one.
    """

    key: Hashable
    cells: tuple[int, ...]
    make: Callable[[CnfContext, tuple[int, ...]], Iterable[Clause]] = field(
        compare=False, repr=False)


class CnfContext:
    """What a constraint's :meth:`~sudoku_csp.constraints.base.Constraint.cnf` builds with:
    the variable map, one pool for auxiliary variables, the chosen encoding options (by
    name; a kind reads its own with :meth:`option`), and at-most-one clauses from
    ``pysat.card``.

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.modeling.variables import variables
    >>> ctx = CnfContext(variables(make_geometry(4)), start=65)
    >>> ctx.x(0, 0), ctx.new_var(), ctx.new_var()
    (1, 65, 66)
    """

    def __init__(self, numbering: Variables, *, start: int,
                 options: Mapping[str, str] | None = None, guard: int = 0,
                 shared: Mapping[Definition, tuple[int, ...]] | None = None,
                 whole: Sequence[Any] | None = None) -> None:
        from pysat.formula import IDPool

        self.guard = guard
        self.whole = whole
        """Every typed constraint of the puzzle when they are written together (None when
        they are written one at a time, as a session of questions adds them): what a kind
        may read to choose how it writes itself (a cage's seers: :data:`~sudoku_csp.
        constraints.implied.SEERS`)."""
        self.memo: dict[Hashable, Any] = {}
        """What a kind worked out from :attr:`whole`, kept for its other constraints."""
        self.shared = shared or {}
        """Definitions whose clauses the solver holds already, with their auxiliaries
        (:meth:`defined`)."""
        self.vars = numbering
        self.geometry = numbering.geometry
        self.pool: IDPool = IDPool(start_from=start)
        self._ranges = _cell_ranges(numbering)  # each cell's variables (cell_vars)
        self.options = dict(options or {})

    def option(self, choice: EncodingOption) -> str:
        """The value chosen for one of a kind's encoding options (its default if none)."""
        return self.options.get(choice.name, choice.default)

    def x(self, cell: int, digit: int) -> int:
        """The variable "``cell`` holds ``digit``"."""
        return self.vars.x(cell, digit)

    def cell_vars(self, cells: Sequence[int]) -> list[int]:
        """The variables ``x(cell, d)`` of each of ``cells`` for every digit ``d``, cell by
        cell (a cell's variables are consecutive in the one numbering).

        >>> from sudoku_csp.variants import make_geometry
        >>> from sudoku_csp.modeling.variables import variables
        >>> CnfContext(variables(make_geometry(4)), start=65).cell_vars((0, 2))
        [1, 2, 3, 4, 9, 10, 11, 12]
        """
        found: list[int] = []
        for cell in cells:  # a loop of list extensions: fastest on a pair and on a line
            found += self._ranges[cell]
        return found

    def negations(self, cell: int) -> range:
        """The literals ``¬x(cell, d)`` for every digit ``d``, in digit order: zipped with
        another cell's, the clauses "not both hold ``d``" in one C-level call.

        >>> from sudoku_csp.variants import make_geometry
        >>> from sudoku_csp.modeling.variables import variables
        >>> list(CnfContext(variables(make_geometry(4)), start=65).negations(2))
        [-9, -10, -11, -12]
        """
        first = self.vars.x(cell, 0)  # a cell's variables are consecutive
        return range(-first, -first - self.geometry.size, -1)

    def new_var(self) -> int:
        """A fresh auxiliary variable from the pool."""
        return self.pool.id()

    def new_vars(self, count: int) -> range:
        """``count`` fresh auxiliary variables from the pool, in order (the pool hands out
        variables one above its top, none being occupied, so its top moves past them).

        >>> from sudoku_csp.variants import make_geometry
        >>> from sudoku_csp.modeling.variables import variables
        >>> ctx = CnfContext(variables(make_geometry(4)), start=65)
        >>> list(ctx.new_vars(3)), ctx.new_var(), ctx.top
        ([65, 66, 67], 68, 68)
        """
        first = self.pool.top + 1
        self.pool.top += count
        return range(first, first + count)

    def fill(self, template: ClauseTemplate, variables: Sequence[int]) -> list[Clause]:
        """The clauses of ``template`` over ``variables`` (:func:`fill`), each with the
        context's :attr:`guard` when there is one (then as :class:`Guarded`)."""
        if self.guard:
            return Guarded(fill(template, variables, self.guard))
        return fill(template, variables)

    def defined(self, definition: Definition) -> tuple[tuple[int, ...], list[Clause]]:
        """The auxiliaries of ``definition`` (in the order its ``make`` hands them out), and
        the clauses still to add for them: none when the solver holds them (:attr:`shared`);
        else its clauses, with the context's guard, over fresh auxiliaries
        (:func:`templated`), written again for each constraint that asks (a puzzle's
        formula written alone is then the one its constraints wrote before any was shared).

        >>> from sudoku_csp.variants import make_geometry
        >>> from sudoku_csp.modeling.variables import variables
        >>> def either(slots, cells):   # aux "A1 holds 1 or 2"
        ...     a = slots.new_var()
        ...     return [(-a, slots.x(cells[0], 0), slots.x(cells[0], 1)),
        ...             (a, -slots.x(cells[0], 0)), (a, -slots.x(cells[0], 1))]
        >>> low = Definition("low", (0,), either)
        >>> CnfContext(variables(make_geometry(4)), start=65).defined(low)
        ((65,), [(-65, 1, 2), (65, -1), (65, -2)])
        >>> CnfContext(variables(make_geometry(4)), start=70, shared={low: (9,)}).defined(low)
        ((9,), [])
        """
        found = self.shared.get(definition)
        if found is not None:
            return found, []
        first = self.top + 1
        clauses = templated(self, definition.cells, ("defined", definition.key),
                            definition.make)
        return tuple(range(first, self.top + 1)), clauses

    @property
    def top(self) -> int:
        """The highest variable handed out so far (at least ``start - 1``)."""
        return self.pool.top

    def at_most_one(self, lits: list[int]) -> list[list[int]]:
        """Pairwise at-most-one (``pysat.card``): no auxiliaries, for the short lists here."""
        from pysat.card import CardEnc, EncType

        return CardEnc.atmost(lits, 1, vpool=self.pool, encoding=EncType.pairwise).clauses


@lru_cache(maxsize=32)
def _cell_ranges(numbering: Variables) -> tuple[range, ...]:
    """Each cell's variables ``x(cell, 0..n-1)`` (consecutive in the one numbering)."""
    n, x = numbering.geometry.size, numbering.x
    return tuple(range(x(c, 0), x(c, 0) + n) for c in range(numbering.geometry.ncells))


_TEMPLATES: dict[tuple[Any, int, int, int], tuple[ClauseTemplate, int] | None] = {}
_MAX_TEMPLATES = 4096


def templated(ctx: CnfContext, cells: Sequence[int], key: Hashable,
              make: Callable[..., Iterable[Clause]], defined: Sequence[Definition] = ()
              ) -> list[Clause]:
    """The clauses ``make`` writes for ``cells``, built once per ``key`` (what besides the
    cells they depend on: the kind and its clue, or an automaton's reading), grid size and
    number of cells: ``make`` writes them over the cells ``0, 1, ...`` (whose variables are
    the template's slots), the template is kept (:class:`ClauseTemplate`), and filled with
    ``cells``' variables and fresh auxiliaries (with ``ctx``'s guard:
    :meth:`CnfContext.fill`). Clauses with an empty one (no reading at all) are that one
    clause. Equivalent auxiliaries are not merged here
    (:func:`~sudoku_csp.constraints.merging.merge_equivalent`): on a
    sandwich's sets it took a tenth of the clauses away but cost a new clue 0.3-0.5 ms, more
    than the dev puzzles ever win back; an automaton has none.

    ``defined``: definitions whose auxiliaries the clauses also read
    (:meth:`CnfContext.defined`), which ``make`` then gets as a third argument, the slots
    that stand for them, one after the other in order; their clauses, unless the solver
    holds them, come first.

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.modeling.variables import variables
    >>> ctx = CnfContext(variables(make_geometry(4)), start=65, guard=-99)
    >>> templated(ctx, (2, 3), "A3 is not 1", lambda slots, cells: [(-slots.x(cells[0], 0),)])
    [(-9, -99)]
    >>> one = Definition("one", (2,), lambda slots, cells: [(slots.new_var(),)])
    >>> templated(ctx, (2,), "A3 is 1 or", lambda slots, cells, given: [(slots.x(cells[0], 0),
    ...                                                                  given[0])], (one,))
    [(65, -99), (9, 65, -99)]
    """
    given: tuple[int, ...] = ()
    made: list[Clause] = []
    for definition in defined:
        aux, clauses = ctx.defined(definition)
        given += aux
        made += clauses
    n, count, more = ctx.geometry.size, len(cells), len(given)
    index = (key, n, count, more)
    if index not in _TEMPLATES:
        slots = CnfContext(ctx.vars, start=count * n + more + 1)
        if defined:
            clauses = list(make(slots, tuple(range(count)),
                                range(count * n + 1, count * n + more + 1)))
        else:
            clauses = list(make(slots, tuple(range(count))))
        if any(not clause for clause in clauses):
            found = None
        else:
            found = compile_clauses(clauses), slots.top - count * n - more
        if len(_TEMPLATES) >= _MAX_TEMPLATES:
            _TEMPLATES.clear()
        _TEMPLATES[index] = found
    kept = _TEMPLATES[index]
    if kept is None:
        written = with_guard([()], ctx.guard)
    else:
        template, count_aux = kept
        written = ctx.fill(template, [*ctx.cell_vars(cells), *given,
                                      *ctx.new_vars(count_aux)])
    return type(written)(chain(made, written)) if made else written
