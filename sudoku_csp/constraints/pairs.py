"""Rules between two cells (a kropki dot, an X or a V, "not consecutive"), once for all kinds.

A :class:`Relation` says which pairs of shown values ``(x, y)`` may stand in two cells. From it
this module derives, cached per grid size, each backend's translation:

- native: a :class:`~sudoku_csp.constraints.base.Link` keeping in each cell only the digits
  that some candidate of the other cell supports (arc consistency, from a table of masks);
- CNF: *support* clauses ``x(a,d) → ∨ x(b,e)`` over the allowed ``e`` when the relation allows
  few pairs (unit propagation then keeps arc consistency), else one *conflict* clause
  ``¬x(a,d) ∨ ¬x(b,e)`` per forbidden pair (few: "not consecutive" forbids 16 of 81);
- CP-SAT: the model's ``allow_pairs`` (a table, for the integer model) or ``forbid_pairs``,
  again whichever list is shorter.

:class:`MarkedPairs` is the shared shape of marks between neighbours (kropki dots, X and V):
their rules, drawing (a mark on the shared edge, candidates kept clear of it) and generation
(every mark a grid implies, given all under the negative rule or dropped one by one).
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.canvas import Canvas, Layer
from sudoku_csp.constraints.base import CellName, Constraint, ConstraintError, Pieces, at
from sudoku_csp.constraints.fields import (
    FieldError,
    check_pairs,
    labels,
    orthogonal_pairs,
    parse_bool,
    parse_pairs,
)
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.translation import (
    Clause,
    ClauseTemplate,
    CnfContext,
    Guarded,
    Link,
    compile_clauses,
    fill,
)
from sudoku_csp.constraints.wording import kept
from sudoku_csp.geometry import Geometry, Grid

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel


@dataclass(frozen=True)
class Relation:
    """Which shown values may stand together in two cells: ``holds(x, y)`` for ``x`` in the
    first cell and ``y`` in the second (values ``1..N``). ``name`` identifies it in caches.

    >>> CONSECUTIVE.allowed(4)[:3]
    ((0, 1), (1, 0), (1, 2))
    """

    name: str
    holds: Callable[[int, int], bool] = field(compare=False, hash=False)
    words: str = field(default="", compare=False, hash=False)
    """The rule said of two cells in explanations, ``{a}`` and ``{b}`` standing for their
    labels (``{a} and {b} differ by at least 5``); empty: ``{a} and {b}: <name>``."""

    def said(self, a: str, b: str) -> str:
        """The rule said of the cells labelled ``a`` and ``b``.

        >>> CONSECUTIVE.said("A1", "A2"), Relation("odd pair", bool).said("A1", "A2")
        ('A1 and A2 are consecutive', 'A1 and A2: odd pair')
        """
        return self.words.format(a=a, b=b) if self.words else f"{a} and {b}: {self.name}"

    def allowed(self, n: int) -> tuple[tuple[int, int], ...]:
        """The allowed digit pairs (0-based) on an ``n``-digit grid."""
        return _allowed(self, n)

    def forbidden(self, n: int) -> tuple[tuple[int, int], ...]:
        """The other digit pairs."""
        allowed = set(self.allowed(n))
        return tuple((a, b) for a in range(n) for b in range(n) if (a, b) not in allowed)


@lru_cache(maxsize=256)
def _allowed(relation: Relation, n: int) -> tuple[tuple[int, int], ...]:
    return tuple((a, b) for a in range(n) for b in range(n) if relation.holds(a + 1, b + 1))


def _neither(name: str, words: str, *relations: Relation) -> Relation:
    return Relation(name, lambda x, y: not any(r.holds(x, y) for r in relations), words)


CONSECUTIVE = Relation("consecutive", lambda x, y: abs(x - y) == 1,
                       "{a} and {b} are consecutive")
DOUBLE = Relation("double", lambda x, y: x == 2 * y or y == 2 * x,
                  "one of {a} and {b} is double the other")
SUM_TEN = Relation("sum 10", lambda x, y: x + y == 10, "{a} and {b} add up to 10")
SUM_FIVE = Relation("sum 5", lambda x, y: x + y == 5, "{a} and {b} add up to 5")
NOT_CONSECUTIVE = _neither("not consecutive", "{a} and {b} are not consecutive", CONSECUTIVE)
NO_DOT = _neither("neither consecutive nor double",
                  "{a} and {b} (no dot) are neither consecutive nor one double the other",
                  CONSECUTIVE, DOUBLE)
NO_XV = _neither("sum neither 5 nor 10", "{a} and {b} (no mark) add up to neither 5 nor 10",
                 SUM_FIVE, SUM_TEN)


# -- native -----------------------------------------------------------------------------------
@lru_cache(maxsize=256)
def _supports(relation: Relation, n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per digit, the mask of digits the other cell may hold: (for the first cell's digits,
    for the second's)."""
    first = [0] * n
    second = [0] * n
    for a, b in relation.allowed(n):
        first[a] |= 1 << b
        second[b] |= 1 << a
    return tuple(first), tuple(second)


_TABLE_BITS = 10  # masks of up to 10 digits get a full table (1,024 entries): no loop at all


@lru_cache(maxsize=512)
def _reach(support: tuple[int, ...]) -> tuple[int, ...] | None:
    """For every candidate mask, the union of its digits' supports (grids up to 10 digits)."""
    n = len(support)
    if n > _TABLE_BITS:
        return None
    table = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        table[mask] = table[mask ^ low] | support[low.bit_length() - 1]
    return tuple(table)


def _reach_of(support: tuple[int, ...], mask: int) -> int:
    out = 0
    while mask:
        low = mask & -mask
        out |= support[low.bit_length() - 1]
        mask ^= low
    return out


def pair_link(a: int, b: int, relation: Relation, n: int) -> Link:
    """Native propagation of ``relation`` between cells ``a`` and ``b``: each keeps the digits
    that a candidate of the other supports. Complete on singles (two single digits that do
    not stand together leave an empty mask)."""
    sup_a, sup_b = _supports(relation, n)  # sup_a[d]: what b may hold when a holds d
    table_a, table_b = _reach(sup_b), _reach(sup_a)

    if table_a is not None and table_b is not None:
        def narrow(masks: tuple[int, ...]) -> tuple[int, ...] | None:
            ma, mb = masks
            na = ma & table_a[mb]
            nb = mb & table_b[na]
            return (na, nb) if na and nb else None
    else:
        def narrow(masks: tuple[int, ...]) -> tuple[int, ...] | None:
            ma, mb = masks
            na = ma & _reach_of(sup_b, mb)
            nb = mb & _reach_of(sup_a, na)
            return (na, nb) if na and nb else None
    return Link((a, b), narrow)


# -- CNF --------------------------------------------------------------------------------------
def pair_clauses(ctx: CnfContext, a: int, b: int, relation: Relation, *,
                 guarded: bool = False) -> list[Clause]:
    """Clauses for ``relation`` between ``a`` and ``b``: support clauses when it allows at
    most half of the digit pairs, else conflict clauses on the forbidden ones; from a
    template per relation (:func:`_pair_template`). ``guarded``: each carries ``ctx``'s
    guard (:meth:`CnfContext.fill`).

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.modeling.variables import variables
    >>> ctx = CnfContext(variables(make_geometry(4)), start=65)
    >>> pair_clauses(ctx, 0, 1, SUM_FIVE)[:2]   # A1 = 1 needs A2 = 4, and back
    [(-1, 8), (-5, 4)]
    """
    template = _pair_template(relation, ctx.geometry.size)
    variables = ctx.cell_vars((a, b))
    return ctx.fill(template, variables) if guarded else fill(template, variables)


@lru_cache(maxsize=256)
def _pair_template(relation: Relation, n: int) -> ClauseTemplate:
    """The clauses of :func:`pair_clauses` over slots: the first cell's digit ``d`` is slot
    ``d + 1``, the second's slot ``n + d + 1``."""
    clauses: list[tuple[int, ...]] = []
    if 2 * len(relation.allowed(n)) > n * n:
        clauses += ((-(da + 1), -(n + db + 1)) for da, db in relation.forbidden(n))
    else:
        sup_a, sup_b = _supports(relation, n)
        for d in range(n):
            clauses.append((-(d + 1), *(n + e + 1 for e in range(n) if sup_a[d] >> e & 1)))
            clauses.append((-(n + d + 1), *(e + 1 for e in range(n) if sup_b[d] >> e & 1)))
    return compile_clauses(clauses)


# -- CP-SAT -----------------------------------------------------------------------------------
def pair_cpsat(model: CpSatModel, a: int, b: int, relation: Relation) -> None:
    """``relation`` between ``a`` and ``b`` in a CP-SAT model: the allowed pairs as a table,
    or the forbidden ones, whichever list is shorter."""
    n = model.geometry.size
    allowed = relation.allowed(n)
    if 2 * len(allowed) > n * n:
        model.forbid_pairs(a, b, relation.forbidden(n))
    else:
        model.allow_pairs(a, b, allowed)


# -- explanations -----------------------------------------------------------------------------
def pair_why(geometry: Geometry, candidates: Sequence[int], a: int, b: int, relation: Relation,
             gone: Sequence[tuple[int, int]]) -> str:
    """Why ``relation`` between ``a`` and ``b`` removes ``gone`` from them: the rule, then
    for each cell the digits left without a partner, at all or among the other cell's
    candidates.

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.constraints.pairlines import apart
    >>> g = make_geometry(9)
    >>> cand = [0x1FF] * 81
    >>> pair_why(g, cand, 1, 2, apart(5), [(2, 4)])
    'A2 and A3 differ by at least 5: 5 in A3 has no partner at all'
    >>> cand[0] = 0b1010   # A1: 2 or 4
    >>> pair_why(g, cand, 0, 1, CONSECUTIVE, [(1, d) for d in (0, 6, 7, 8)])
    "A1 and A2 are consecutive: 1/7/8/9 in A2 have no partner among A1's 2/4"
    """
    n, label, symbols = geometry.size, geometry.label, geometry.symbols
    first, second = _supports(relation, n)  # first[d]: what b may hold beside d in a
    words = []
    for cell, other, support in ((a, b, first), (b, a, second)):
        lost = [d for c, d in gone if c == cell]
        for at_all in (True, False):
            digits = [d for d in lost if (not support[d]) == at_all]
            if not digits:
                continue
            shown = "/".join(symbols[d] for d in sorted(digits))
            verb = "has" if len(digits) == 1 else "have"
            where = "at all" if at_all else (
                f"among {label(other)}'s "
                + "/".join(symbols[e] for e in range(n) if candidates[other] >> e & 1))
            words.append(f"{shown} in {label(cell)} {verb} no partner {where}")
    said = relation.said(label(a), label(b))
    return f"{said}: {'; '.join(words)}" if words else said


# -- a kind made of pair rules ----------------------------------------------------------------
class PairRules(Constraint):
    """A kind whose rule is a list of relations between two cells (whispers, renban, clones,
    min/max cells, indexers, dots, ...): it says which in :meth:`rules` and gets the three
    translations here (arc consistency natively; support or conflict clauses; tables).
    Its :meth:`violations` stays its own, written from the rule.

    Each :class:`Relation` is cached by its ``name``: two different rules need two names
    (``whispers 5``, ``difference 3``).
    """

    @abc.abstractmethod
    def rules(self, geometry: Geometry) -> list[tuple[int, int, Relation]]:
        """Every pair ``(a, b, relation)`` the constraint rules (``a != b``)."""

    def ruled_pairs(self, geometry: Geometry) -> frozenset[tuple[int, int, Hashable]]:
        return frozenset(self.rules(geometry))

    def native(self, geometry: Geometry) -> list[Link]:
        n = geometry.size
        return [pair_link(a, b, rel, n) for a, b, rel in self.rules(geometry)]

    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        """Each pair's :func:`pair_clauses`; a run of pairs under one relation (a negative
        rule's 144 neighbours) looks its template up once, not hashing the relation again
        for each pair."""
        clauses: list[Clause] = Guarded() if ctx.guard else []
        n, last, template = ctx.geometry.size, None, compile_clauses(())
        for a, b, rel in self.rules(ctx.geometry):
            if rel is not last:
                last, template = rel, _pair_template(rel, n)
            clauses += ctx.fill(template, ctx.cell_vars((a, b)))
        return clauses

    def cpsat(self, model: CpSatModel) -> None:
        for a, b, rel in self.rules(model.geometry):
            pair_cpsat(model, a, b, rel)

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """A pair's link in the words of its relation (:func:`pair_why`); a link of the
        kind's own over more cells (a renban's runs) says what its cells keep."""
        if len(link.cells) == 2:
            for a, b, rel in self.rules(geometry):
                if (a, b) == link.cells:
                    return pair_why(geometry, candidates, a, b, rel, gone)
        return kept(geometry, link.cells, candidates, gone)

    def parts(self, geometry: Geometry) -> tuple[Constraint, ...]:
        """A kind a puzzle holds once (its dots, its min/max cells) in parts of one pair of
        cells each, that pair's rules; any other constraint (a line) is one part."""
        if not self.single:
            return (self,)
        by_pair: dict[frozenset[int], list[tuple[int, int, Relation]]] = {}
        for a, b, rel in self.rules(geometry):
            by_pair.setdefault(frozenset((a, b)), []).append((a, b, rel))
        return tuple(PairPart(tuple(rules)) for rules in by_pair.values())


@dataclass(frozen=True)
class PairPart(PairRules):
    """The rules one pair of cells holds within a constraint of pair rules, standing alone:
    a part (:meth:`Constraint.parts`) that a conflict report names and removes. Not a kind
    of puzzle text (no registry entry, no JSON).

    >>> from sudoku_csp.variants import make_geometry
    >>> g, part = make_geometry(4), PairPart(((0, 1, CONSECUTIVE),))
    >>> part.describe(g, lambda c: f"#{c}"), part.violations(g, [0, 2])
    ('#0 and #1 are consecutive', ['A1 and A2 hold 1 and 3: not consecutive'])
    """

    pairs: tuple[tuple[int, int, Relation], ...]

    names = Names("pair rule", json=())

    def touched(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(c for a, b, _ in self.pairs for c in (a, b)))

    def rules(self, geometry: Geometry) -> list[tuple[int, int, Relation]]:
        return list(self.pairs)

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        a, b = self.touched()[:2]
        if all(rel.words for _, _, rel in self.pairs):  # the relation's own words
            return "; ".join(rel.said(at(geometry, (x,), name), at(geometry, (y,), name))
                             for x, y, rel in self.pairs)
        said = " and ".join(dict.fromkeys(rel.name.split(":")[0] for _, _, rel in self.pairs))
        return f"{said} between {at(geometry, (a,), name)} and {at(geometry, (b,), name)}"

    def violations(self, geometry: Geometry, grid: Sequence[int]) -> list[str]:
        label = geometry.label
        return [f"{label(a)} and {label(b)} hold {grid[a] + 1} and {grid[b] + 1}: not "
                f"{rel.name}" for a, b, rel in self.pairs
                if not rel.holds(grid[a] + 1, grid[b] + 1)]

    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        return []

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        raise TypeError("a part of a constraint is not written: write the constraint")


# -- marks between neighbours (kropki dots, X and V) ------------------------------------------
class MarkedPairs(PairRules):
    """Marks between cells that share a side, of two sorts, with the optional negative rule
    "every mark is given": pairs without a mark then break both sorts' rules. The shared
    shape of kropki dots and XV; a subclass names its sorts and writes its own check.

    Subclasses are frozen dataclasses with fields ``first``, ``second`` (cell pairs
    ``(a, b)``, ``a < b``) and ``negative``, its names (one JSON field; the plural noun,
    ``dots`` or ``marks``, says what the marks are called), and class attributes: ``sorts``
    (the JSON names of the two sorts), ``relations`` (the rule of each sort), ``unmarked``
    (the rule of a pair without a mark under the negative rule), ``title`` and ``shown``
    (how a picture's title names the kind and its sorts); and :meth:`mark`, how one mark is
    drawn.
    """

    sorts: ClassVar[tuple[str, str]]
    relations: ClassVar[tuple[Relation, Relation]]
    unmarked: ClassVar[Relation]
    title: ClassVar[str]
    shown: ClassVar[tuple[str, str]]
    single: ClassVar[bool] = True
    negative_rule: ClassVar[bool] = True
    first: tuple[tuple[int, int], ...]
    second: tuple[tuple[int, int], ...]
    negative: bool

    def touched(self) -> tuple[int, ...]:
        return tuple(c for pair in (*self.first, *self.second) for c in pair)

    def describe(self, geometry: Geometry, name: CellName | None = None) -> str:
        return self.title

    def validate(self, geometry: Geometry) -> None:
        super().validate(geometry)
        check_pairs(geometry, (*self.first, *self.second), f"a {self.kind} mark")

    def rules(self, geometry: Geometry) -> list[tuple[int, int, Relation]]:
        """Every pair this constraint rules, with its relation: the marked pairs, then (under
        the negative rule) every other pair of neighbours."""
        ruled = [(a, b, rel) for pairs, rel in zip((self.first, self.second), self.relations,
                                                   strict=True) for a, b in pairs]
        if self.negative:
            marked = {(min(a, b), max(a, b)) for a, b, _ in ruled}
            ruled += [(a, b, self.unmarked) for a, b in orthogonal_pairs(geometry)
                      if (a, b) not in marked]
        return ruled

    # -- pictures ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """Each mark on the edge between its two cells, whose candidates keep clear of it."""
        for sort, pairs in enumerate((self.first, self.second)):
            for a, b in pairs:
                canvas.pad_edge(a, b)
                canvas.add(Layer.MARKS, self.mark(canvas, sort, *canvas.edge_middle(a, b)))

    @abc.abstractmethod
    def mark(self, canvas: Canvas, sort: int, x: float, y: float) -> list[str]:
        """The SVG elements of one mark of ``sort`` (0: first, 1: second) centred on
        ``(x, y)``."""

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        """``kropki dots (3 white, 2 black; negative: all dots given)``."""
        found = []
        for c in constraints:
            if isinstance(c, MarkedPairs):
                negative = f"; negative: all {cls.names.plural} given" if c.negative else ""
                found.append(f"{cls.title} ({len(c.first)} {cls.shown[0]}, "
                             f"{len(c.second)} {cls.shown[1]}{negative})")
        return found

    # -- generation -------------------------------------------------------------------------
    @classmethod
    def read_off(cls, geometry: Geometry, grid: Grid, rng: random.Random,
                 negative: bool) -> Pieces:
        """Every mark the grid implies between neighbours: one constraint holding them all
        under the negative rule (fixed), else one droppable piece per mark. A pair both sorts
        fit (1 and 2: consecutive and double) gets one at random."""
        first, second = [], []
        for a, b in orthogonal_pairs(geometry):
            x, y = grid[a] + 1, grid[b] + 1
            fits = [rel.holds(x, y) for rel in cls.relations]
            if fits[0] and fits[1]:
                fits[rng.random() < 0.5] = False
            if fits[0]:
                first.append((a, b))
            elif fits[1]:
                second.append((a, b))
        if negative:
            return [cls(tuple(first), tuple(second), True)], []  # type: ignore[call-arg]
        return [], [*(cls((p,), (), False) for p in first),  # type: ignore[call-arg]
                    *(cls((), (p,), False) for p in second)]  # type: ignore[call-arg]

    @classmethod
    def merge(cls, pieces: Sequence[Constraint]) -> list[Constraint]:
        """All the marks kept, as the one constraint of the kind a puzzle holds."""
        marks = [p for p in pieces if isinstance(p, MarkedPairs)]
        if not marks:
            return []
        first = tuple(sorted(pair for m in marks for pair in m.first))
        second = tuple(sorted(pair for m in marks for pair in m.second))
        return [cls(first, second, any(m.negative for m in marks))]  # type: ignore[call-arg]

    @classmethod
    def made(cls, constraints: Sequence[Constraint]) -> str:
        for c in constraints:
            if isinstance(c, MarkedPairs):
                words = (f"{len(c.first)} {cls.sorts[0]} and {len(c.second)} {cls.sorts[1]} "
                         f"{cls.names.plural}")
                return words + (", negative" if c.negative else "")
        return "no marks"

    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        key = cls.names.json[0]
        value = fields[key]
        first, second = cls.sorts
        if not isinstance(value, dict):
            raise FieldError(key, f"expected an object such as {{\"{first}\": "
                                      f"[[\"A1\", \"A2\"]], \"{second}\": [], "
                                      "\"negative\": false}")
        unknown = set(value) - {first, second, "negative"}
        if unknown:
            raise FieldError(f"{key}.{sorted(unknown)[0]}",
                             f"unknown field: expected {first}, {second} or negative")
        pairs = [parse_pairs(geometry, value.get(name, []), f"{key}.{name}")
                 for name in cls.sorts]
        negative = parse_bool(value.get("negative", False), f"{key}.negative")
        made = cls(pairs[0], pairs[1], negative)  # type: ignore[call-arg]
        try:
            made.validate(geometry)
        except ConstraintError as exc:
            raise FieldError(key, exc.reason) from None
        return [made]

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        for c in constraints:
            if isinstance(c, cls):
                return {cls.names.json[0]: {
                    cls.sorts[0]: [labels(geometry, p) for p in c.first],
                    cls.sorts[1]: [labels(geometry, p) for p in c.second],
                    "negative": c.negative}}
        return {}
