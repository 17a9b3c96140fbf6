"""Typed constraints: rules beyond all-different units and "must differ" pairs.

Killer cages, thermometers, kropki dots, XV, non-consecutive and odd/even cells, one module
per kind, each holding its data, validation, JSON form, its translation for every backend
and the independent check :mod:`sudoku_csp.verify` runs (the interface:
:class:`~sudoku_csp.constraints.base.Constraint`). A :class:`~sudoku_csp.puzzle.Puzzle`
carries them in ``constraints``; the backends never name a kind:

- native: :func:`native_links` (the state holds them; :func:`~sudoku_csp.native.rules.propagate`
  runs them to a fixpoint with the rules);
- CNF: :func:`cnf_clauses` (added to the geometry's formula, guarded per puzzle when the
  solver is incremental);
- CP-SAT: :func:`add_to_cpsat` on a model built for the puzzle.

Adding a kind: a module here with a frozen-dataclass subclass of ``Constraint`` and its test,
and one line that registers it (:func:`register`, which puts it in :data:`KINDS`); nothing
else changes: readers, writers, backends, the checker, pictures and explanations all reach a
kind through the registry.

>>> from sudoku_csp import parse
>>> p = parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4")
>>> [c.kind for c in p.constraints][:2], p.constraints[0].total
(['cage', 'cage'], 3)
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from sudoku_csp.constraints.base import (
    HANDLED_BY,
    CnfContext,
    Constraint,
    ConstraintError,
    EncodingOption,
    Link,
    UnsupportedError,
    refuse_constraints,
)
from sudoku_csp.constraints.fields import FieldError
from sudoku_csp.geometry import Geometry

BUILT_IN: dict[str, str] = {
    "Cage": "cage",
    "Thermo": "thermo",
    "Kropki": "kropki",
    "XV": "xv",
    "NonConsecutive": "nonconsecutive",
    "Parity": "parity",
    "PencilMarks": "pencilmarks",
    # Sums along lines and circles (arrows, double arrows, zippers, region sums, between, lockout):
    "Arrow": "arrow",
    "DoubleArrow": "doublearrow",
    "ZipperLine": "zipper",
    "RegionSumLine": "regionsum",
    "BetweenLine": "between",
    "LockoutLine": "lockout",
    # Clues outside the grid (little killers, sandwiches, X-sums, skyscrapers):
    "LittleKiller": "littlekiller",
    "Sandwich": "sandwich",
    "XSum": "xsum",
    "Skyscraper": "skyscraper",
    # Pair rules along lines (whispers, renban, nabner, entropic, modular, palindromes, clones, slow
    # thermometers):
    "Whispers": "whispers",
    "Renban": "renban",
    "Nabner": "nabner",
    "EntropicLine": "entropic",
    "ModularLine": "modular",
    "Palindrome": "palindrome",
    "Clone": "clone",
    "SlowThermo": "slowthermo",
    # Cells, dots and regions (dots with values, quadruples, extra regions, min/max, indexers):
    "Dots": "dots",
    "Quadruple": "quadruple",
    "ExtraRegion": "extraregion",
    "MinMax": "minmax",
    "Indexer": "indexer",
}
"""The built-in kinds, class name -> its module in ``sudoku_csp.constraints``, in the order
puzzles list and write them: one line each. They are imported on the registry's first use
(or of their name), so that a command reading plain puzzles loads none of them (about
100 ms of start-up)."""


class _Registry(list):
    """:data:`KINDS`: a list that registers the built-in kinds the first time it is read."""

    _loaded = False

    def load(self) -> None:
        """Register the built-in kinds (:data:`BUILT_IN`), once."""
        if not self._loaded:
            self._loaded = True
            for name in BUILT_IN:
                register(_built_in(name))

    def __iter__(self):  # noqa: ANN204
        self.load()
        return super().__iter__()

    def __len__(self) -> int:
        self.load()
        return super().__len__()

    def __getitem__(self, index):  # noqa: ANN001, ANN204
        self.load()
        return super().__getitem__(index)

    def __contains__(self, kind: object) -> bool:
        self.load()
        return super().__contains__(kind)


def _built_in(name: str) -> type[Constraint]:
    module = importlib.import_module(f"sudoku_csp.constraints.kinds.{BUILT_IN[name]}")
    kind: type[Constraint] = getattr(module, name)
    return kind


def __getattr__(name: str) -> Any:
    """A built-in kind's class by name (``from sudoku_csp.constraints import Cage``)."""
    if name in BUILT_IN:
        return _built_in(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


KINDS: list[type[Constraint]] = _Registry()
"""Every kind of typed constraint, in the order puzzles list and write them: the one registry
(:func:`register` adds to it; the built-in kinds, :data:`BUILT_IN`, come first)."""


def register(kind: type[Constraint]) -> type[Constraint]:
    """Add ``kind`` to :data:`KINDS` (usable as a class decorator) and return it; ValueError
    when its name or one of its JSON fields is taken by a kind already registered.

    >>> from sudoku_csp.constraints import Cage
    >>> register(Cage)
    Traceback (most recent call last):
    ...
    ValueError: a constraint kind named 'cage' is registered already
    """
    KINDS.load()  # type: ignore[attr-defined]  # the built-in kinds first
    if any(k.kind == kind.kind for k in KINDS):
        raise ValueError(f"a constraint kind named {kind.kind!r} is registered already")
    taken = fields().keys() & set(kind.keys)
    if taken:
        raise ValueError(f"the JSON field {sorted(taken)[0]!r} belongs to another kind already")
    list.append(KINDS, kind)
    return kind


def fields() -> dict[str, type[Constraint]]:
    """JSON field -> the registered kind that reads and writes it."""
    return {key: kind for kind in KINDS for key in kind.keys}


def makers() -> dict[str, type[Constraint]]:
    """Generator name (``generate --kind``) -> the registered kind a generator reads off a
    solution grid: every kind but killer cages (their own generator,
    :mod:`sudoku_csp.generate.killer`) and the :attr:`~Constraint.starting` ones (pencil marks
    say where a solver stands, not a rule a puzzle is made of), by its
    :attr:`~sudoku_csp.constraints.base.Constraint.maker` or else its name with ``-`` for
    spaces, in lower case.

    >>> names = list(makers())
    >>> len(names), names[:5]
    (28, ['thermo', 'kropki', 'xv', 'nonconsecutive', 'parity'])
    >>> names[-5:]
    ['dots', 'quadruple', 'extra-region', 'minmax', 'indexer']
    >>> [name for name in names if "-" in name][:4]
    ['double-arrow', 'zipper-line', 'region-sum-line', 'between-line']
    """
    return {maker_name(kind): kind for kind in KINDS
            if kind is not _built_in("Cage") and not kind.starting}  # cages: generate_killers


def maker_name(kind: type[Constraint]) -> str:
    """The name ``generate --kind`` knows ``kind`` by (see :func:`makers`).

    >>> from sudoku_csp.constraints import LittleKiller, Thermo, XSum
    >>> maker_name(Thermo), maker_name(XSum), maker_name(LittleKiller)
    ('thermo', 'x-sum', 'little-killer')
    """
    return kind.maker if kind.maker is not None else kind.kind.replace(" ", "-").lower()


def encoding_options() -> dict[str, EncodingOption]:
    """Every CNF encoding option the registered kinds offer, by name (``sums``: how killer
    cages' sums are written); what backends and commands writing CNF list and accept.

    >>> encoding_options()["sums"].default
    'combos'
    """
    return {option.name: option for kind in KINDS for option in kind.encoding_options}


def encoding_choices(options: Mapping[str, Any] | None = None) -> dict[str, str]:
    """The value of every encoding option (:func:`encoding_options`): those of ``options``,
    the defaults for the rest. An unknown option name or value is a :class:`ConstraintError`
    naming the choices, a value that cannot be used here (a missing optional library) the
    option's own input error.

    >>> encoding_choices({"sums": "bdd"})
    {'sums': 'bdd'}
    >>> encoding_choices({"sums": "clever"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sudoku_csp.constraints.base.ConstraintError: unknown cage-sum encoding 'clever' (sums); ...
    """
    known = encoding_options()
    given = dict(options or {})
    for name in given.keys() - known.keys():
        raise ConstraintError(f"unknown encoding option {name!r}; the kinds offer "
                              f"{', '.join(known) or 'none'}")
    chosen = {}
    for name, option in known.items():
        value = given.get(name, option.default)
        if value not in option.choices:
            raise ConstraintError(f"unknown {option.what} {value!r} ({name}); choose from "
                                  f"{', '.join(option.choices)}")
        if option.check is not None:
            option.check(value)
        chosen[name] = value
    return chosen




def by_kind(constraints: Iterable[Constraint]) -> list[tuple[type[Constraint], list[Constraint]]]:
    """A puzzle's constraints kind by kind: the registered kinds in :data:`KINDS` order, then
    any other in the order it first appears.

    >>> from sudoku_csp import parse
    >>> p = parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4")
    >>> [(kind.kind, len(mine)) for kind, mine in by_kind(p.constraints)]
    [('cage', 8)]
    """
    constraints = list(constraints)
    kinds = [*KINDS, *{type(c): None for c in constraints if type(c) not in KINDS}]
    grouped = [(kind, [c for c in constraints if type(c) is kind]) for kind in kinds]
    return [(kind, mine) for kind, mine in grouped if mine]


def rule_lines(geometry: Geometry, constraints: Iterable[Constraint]) -> list[str]:
    """What a text view says of a puzzle's constraints, one line per kind: the kind's
    :meth:`~Constraint.summary` (what a picture's title says), then, for a kind that is not
    held once for the whole grid, each piece's :meth:`~Constraint.describe` with its first
    and last cells named.

    >>> from sudoku_csp import parse
    >>> p = parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4")
    >>> rule_lines(p.geometry, p.constraints)[0][:45]
    '8 killer cages: cage 3 at A1–A2, cage 7 at A3'
    """
    lines = []
    for kind, mine in by_kind(constraints):
        said = kind.summary(mine, geometry)
        pieces = [] if kind.single else [c.describe(geometry, geometry.label) for c in mine]
        line = "; ".join(said)
        if pieces and pieces != said:
            line += ": " + ", ".join(pieces)
        lines.append(line)
    return lines


def check_all(geometry: Geometry, constraints: Sequence[Constraint]) -> None:
    """Raise :class:`ConstraintError` unless every constraint stands on ``geometry``: each
    valid by itself (:meth:`~Constraint.validate`), at most one of each ``single`` kind, and
    each kind's constraints valid together (:meth:`~Constraint.joint_validate`: cages do not
    overlap).

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.constraints import Cage
    >>> check_all(make_geometry(4), [Cage((0, 1), 3), Cage((1, 2), 5)])
    Traceback (most recent call last):
    ...
    sudoku_csp.constraints.base.ConstraintError: A2 is in two cages
    """
    singles: set[str] = set()
    by_kind: dict[type[Constraint], list[Constraint]] = {}
    for constraint in constraints:
        if not isinstance(constraint, Constraint):
            raise ConstraintError(f"{constraint!r} is not a constraint")
        constraint.validate(geometry)
        if constraint.single:
            if constraint.kind in singles:
                raise ConstraintError(f"a puzzle holds at most one {constraint.kind} "
                                      "constraint (it rules the whole grid)")
            singles.add(constraint.kind)
        by_kind.setdefault(type(constraint), []).append(constraint)
    for kind, mine in by_kind.items():
        kind.joint_validate(geometry, mine)


@lru_cache(maxsize=256)
def native_links(geometry: Geometry, constraints: tuple[Constraint, ...]) -> tuple[Link, ...]:
    """The native propagation of every constraint, built once per puzzle's constraints:
    each constraint's links, then each kind's joint links
    (:meth:`~sudoku_csp.constraints.base.Constraint.joint_native`)."""
    links = [link for c in constraints for link in c.native(geometry)]
    for kind in KINDS:
        mine = [c for c in constraints if isinstance(c, kind)]
        if mine:
            links.extend(kind.joint_native(geometry, mine))
    return tuple(links)


def cnf_clauses(geometry: Geometry, constraints: Iterable[Constraint], *, start: int,
                options: Mapping[str, Any] | None = None) -> tuple[list[list[int]], int]:
    """The clauses of every constraint over ``geometry``'s variable map, auxiliaries numbered
    from ``start``, written with the kinds' encoding ``options`` (:func:`encoding_choices`);
    and the highest variable used (``start - 1`` when none).

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.constraints import Cage
    >>> clauses, top = cnf_clauses(make_geometry(4), [Cage((0, 1), 3)], start=65)
    >>> clauses[:4], top     # 3 and 4 leave A1 and A2; has(1), has(2), the set {1, 2}
    ([[-3], [-7], [-4], [-8]], 67)
    """
    from sudoku_csp.modeling.variables import variables

    ctx = CnfContext(variables(geometry), start=start, options=encoding_choices(options))
    clauses = [list(clause) for c in constraints for clause in c.cnf(ctx)]
    return clauses, max(ctx.top, start - 1)


def add_to_cpsat(model, constraints: Iterable[Constraint]) -> None:  # noqa: ANN001
    """Add every constraint to a :class:`~sudoku_csp.encodings.cpsat.CpSatModel`, then what
    each kind's constraints imply together
    (:meth:`~sudoku_csp.constraints.base.Constraint.joint_cpsat`)."""
    constraints = list(constraints)
    for c in constraints:
        c.cpsat(model)
    for kind in KINDS:
        mine = [c for c in constraints if isinstance(c, kind)]
        if mine:
            kind.joint_cpsat(model, mine)


__all__ = [
    "HANDLED_BY", "KINDS", "XV",
    "Arrow", "BetweenLine",
    "Cage", "Clone", "CnfContext", "Constraint", "ConstraintError",
    "Dots", "DoubleArrow", "EntropicLine", "ExtraRegion",
    "EncodingOption", "FieldError", "Indexer", "Kropki", "Link",
    "LittleKiller", "LockoutLine", "MinMax",
    "ModularLine", "Nabner", "NonConsecutive", "Palindrome", "Parity", "PencilMarks",
    "Quadruple", "RegionSumLine", "Renban",
    "Sandwich", "Skyscraper", "SlowThermo",
    "Thermo", "UnsupportedError", "Whispers",
    "XSum",
    "ZipperLine",
    "add_to_cpsat", "check_all", "cnf_clauses", "encoding_choices",
    "encoding_options", "fields", "maker_name", "makers", "native_links", "refuse_constraints",
    "register",
]
