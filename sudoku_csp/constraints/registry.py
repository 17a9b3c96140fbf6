"""The one registry of constraint kinds (:data:`KINDS`), and every lookup by a kind's names.

The built-in kinds are the modules of ``constraints/kinds/`` (:data:`BUILT_IN`), each
defining one kind; they are imported on the registry's first use, so that a command reading
plain puzzles loads none of them (about 100 ms of start-up). A kind defined elsewhere calls
:func:`register`. Every table the rest of the package reads a kind's names from is derived
here from the kinds' :class:`~sudoku_csp.constraints.names.Names`: :func:`fields` (JSON),
:func:`fpuzzles_keys`, :func:`makers` (``generate --kind``), and :func:`kind_named`, the
one lookup of a kind by any name options accept.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

from sudoku_csp.constraints.base import Constraint, ConstraintError
from sudoku_csp.constraints.names import spelling
from sudoku_csp.constraints.translation import EncodingOption
from sudoku_csp.errors import InputError

__all__ = ["BUILT_IN", "FPUZZLES_INDEX", "KINDS", "UnknownKindError", "by_kind",
           "encoding_choices", "encoding_options", "fields", "fpuzzles_keys", "fpuzzles_readers",
           "JSON_INDEX", "json_readers", "kind_named", "kinds_among", "makers", "register"]

BUILT_IN: tuple[str, ...] = (
    "cage", "thermo", "kropki", "xv", "nonconsecutive", "parity", "pencilmarks",
    # Sums along lines and circles:
    "arrow", "doublearrow", "zipper", "regionsum", "between", "lockout",
    # Clues outside the grid:
    "littlekiller", "sandwich", "xsum", "skyscraper",
    # Pair rules along lines:
    "whispers", "renban", "nabner", "entropic", "modular", "palindrome", "clone", "slowthermo",
    # Cells, dots and regions:
    "dots", "quadruple", "extraregion", "minmax", "indexer",
)
"""The built-in kinds: the modules of ``sudoku_csp.constraints.kinds``, one line each, in the
order puzzles list and write their constraints. Each module defines one kind (the class
that declares its :class:`~sudoku_csp.constraints.names.Names`)."""


FPUZZLES_INDEX: dict[str, tuple[str, ...]] = {
    "cage": ("killercage",), "thermo": ("thermometer",), "nonconsecutive": ("nonconsecutive",),
    "parity": ("odd", "even", "parity"), "pencilmarks": ("givenPencilMarks",),
    "arrow": ("arrow",), "doublearrow": ("doublearrow",), "zipper": ("zipperline",),
    "regionsum": ("regionsumline",), "between": ("betweenline",), "lockout": ("lockout",),
    "littlekiller": ("littlekillersum",), "sandwich": ("sandwichsum",), "xsum": ("xsum",),
    "skyscraper": ("skyscraper",), "whispers": ("whispers",), "renban": ("renban",),
    "nabner": ("nabner",), "entropic": ("entropicline",), "modular": ("modularline",),
    "palindrome": ("palindrome",), "clone": ("clone",), "slowthermo": ("slowthermometer",),
    "dots": ("difference", "ratio", "sum", "xv"), "quadruple": ("quadruple",),
    "extraregion": ("extraregion",), "minmax": ("minimum", "maximum"),
    "indexer": ("rowindexer", "columnindexer", "boxindexer"),
}
"""An index, not a source: the f-puzzles keys and ``negative`` words each built-in kind's
:class:`~sudoku_csp.constraints.names.Names` declares, by the kind's module (kinds that read
none, absent). It lets :func:`fpuzzles_readers` import only the kinds a document names
(start-up, issue 34). The kinds' names stay the source: tests/test_startup.py holds this
table equal to what the registered kinds declare."""


JSON_INDEX: dict[str, tuple[str, ...]] = {
    "cage": ("cages",), "thermo": ("thermos",), "kropki": ("dots",), "xv": ("xv",),
    "nonconsecutive": ("nonconsecutive",), "parity": ("odd", "even"),
    "pencilmarks": ("candidates",), "arrow": ("arrows",), "doublearrow": ("double_arrows",),
    "zipper": ("zipper_lines",), "regionsum": ("region_sum_lines",),
    "between": ("between_lines",), "lockout": ("lockout_lines",),
    "littlekiller": ("little_killers",), "sandwich": ("sandwiches",), "xsum": ("x_sums",),
    "skyscraper": ("skyscrapers",), "whispers": ("whispers",), "renban": ("renbans",),
    "nabner": ("nabners",), "entropic": ("entropic_lines",), "modular": ("modular_lines",),
    "palindrome": ("palindromes",), "clone": ("clones",), "slowthermo": ("slow_thermos",),
    "dots": ("value_dots",), "quadruple": ("quadruples",), "extraregion": ("extra_regions",),
    "minmax": ("minmax",), "indexer": ("indexers",),
}
"""The same for the tool's own JSON: each built-in kind's JSON fields by its module, so that
:func:`json_readers` imports only the kinds a record names (tests/test_startup.py holds it
equal to the kinds' :class:`~sudoku_csp.constraints.names.Names`)."""


class UnknownKindError(InputError):
    """A name that is no registered kind's (or none of those an option accepts)."""


class _Registry(list):
    """:data:`KINDS`: a list that registers the built-in kinds the first time it is read."""

    _loaded = False

    def load(self) -> None:
        """Register the built-in kinds (:data:`BUILT_IN`), once."""
        if not self._loaded:
            self._loaded = True
            for module in BUILT_IN:
                register(kind_of_module(f"sudoku_csp.constraints.kinds.{module}"))

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


_REGISTRY = _Registry()
KINDS: list[type[Constraint]] = _REGISTRY
"""Every kind of typed constraint, in the order puzzles list and write them: the one registry
(:func:`register` adds to it; the built-in kinds, :data:`BUILT_IN`, come first)."""


def kind_of_module(name: str) -> type[Constraint]:
    """The one kind the module ``name`` defines: the class there that declares its names.

    >>> kind_of_module("sudoku_csp.constraints.kinds.thermo").__name__
    'Thermo'
    """
    module = importlib.import_module(name)
    found = [value for value in vars(module).values()
             if isinstance(value, type) and issubclass(value, Constraint)
             and value.__module__ == name and "names" in vars(value)]
    if len(found) != 1:
        raise TypeError(f"{name} defines {len(found)} constraint kinds: a kind module "
                        "defines one (the class that declares names = Names(...))")
    return found[0]


def register(kind: type[Constraint]) -> type[Constraint]:
    """Add ``kind`` to :data:`KINDS` (usable as a class decorator) and return it. ValueError
    when one of its names is taken: its name or an alias (compared as
    :func:`~sudoku_csp.constraints.names.spelling` does) by another kind's name or alias,
    a JSON field or an f-puzzles key by another kind's. (A kind's name may be another's
    f-puzzles key: :func:`kind_named` takes the name first.)

    >>> from sudoku_csp.constraints import Cage, Names
    >>> register(Cage)
    Traceback (most recent call last):
    ...
    ValueError: the cage kind is registered already
    >>> class Twin(Cage):
    ...     names = Names("cage twin", json=("twins",), fpuzzles=("killercage",))
    >>> register(Twin)
    Traceback (most recent call last):
    ...
    ValueError: the f-puzzles key 'killercage' belongs to the cage kind already
    """
    if "names" not in vars(kind) or not kind.names.json:
        raise TypeError(f"{kind.__name__} declares no names with a JSON field of its own: "
                        "names = Names(...)")
    if kind in KINDS:  # the built-in kinds are loaded first
        raise ValueError(f"the {kind.kind} kind is registered already")
    names = kind.names
    for other in KINDS:
        spellings, keys = _spelt(other)
        taken = [*(f"name {s!r}" for s in names.spellings() if s in spellings),
                 *(f"JSON field {f!r}" for f in names.json if f in other.names.json),
                 *(f"f-puzzles key {k!r}" for k in names.fpuzzles_keys()
                   if spelling(k) in keys)]
        if taken:
            raise ValueError(f"the {taken[0]} belongs to the {other.kind} kind already")
    list.append(KINDS, kind)
    return kind


@cache
def _spelt(kind: type[Constraint]) -> tuple[frozenset[str], frozenset[str]]:
    """A registered kind's names and f-puzzles keys as :func:`spelling` compares them,
    worked out once: registering each kind compares it with every other."""
    return (frozenset(kind.names.spellings()),
            frozenset(map(spelling, kind.names.fpuzzles_keys())))


def fields() -> dict[str, type[Constraint]]:
    """JSON field -> the registered kind that reads and writes it."""
    return {key: kind for kind in KINDS for key in kind.names.json}


def fpuzzles_keys() -> dict[str, type[Constraint]]:
    """f-puzzles key (top-level or of a grid cell) -> the registered kind that reads it."""
    return {key: kind for kind in KINDS for key in kind.names.fpuzzles_keys()}


def _fpuzzles_read(kind: type[Constraint]) -> tuple[str, ...]:
    """Every f-puzzles key and ``negative`` word ``kind`` reads."""
    names = kind.names
    return (*names.fpuzzles_keys(), *names.fpuzzles_negative)


def fpuzzles_readers(keys: Iterable[str]) -> list[type[Constraint]]:
    """The registered kinds that read one of ``keys`` (f-puzzles top-level keys, keys of a
    grid cell, ``negative`` words), in :data:`KINDS` order: what the f-puzzles reader hands
    a document to. While only the built-in kinds can be registered (the registry not loaded
    yet: :func:`register` loads it first), only the modules :data:`FPUZZLES_INDEX` names for
    ``keys`` are imported, not every kind's.

    >>> [kind.kind for kind in fpuzzles_readers(["size", "thermometer", "killercage"])]
    ['cage', 'thermometer']
    """
    return _readers(keys, FPUZZLES_INDEX, _fpuzzles_read)


def json_readers(keys: Iterable[str]) -> list[type[Constraint]]:
    """The registered kinds whose JSON fields include one of ``keys``, in :data:`KINDS`
    order: what the JSON reader hands a record to. While only the built-in kinds can be
    registered, only the modules :data:`JSON_INDEX` names for ``keys`` are imported, as
    :func:`fpuzzles_readers` does.

    >>> [kind.kind for kind in json_readers(["size", "thermos", "cages"])]
    ['cage', 'thermometer']
    """
    return _readers(keys, JSON_INDEX, lambda kind: kind.names.json)


def _readers(keys: Iterable[str], index: Mapping[str, tuple[str, ...]],
             read: Callable[[type[Constraint]], Iterable[str]]) -> list[type[Constraint]]:
    """The registered kinds some of whose names (``read(kind)``) are among ``keys``, in
    :data:`KINDS` order; before the registry is loaded, from ``index`` (the built-in kinds'
    names by module), importing only the modules it names for ``keys``."""
    wanted = set(keys)
    if _REGISTRY._loaded:
        return [kind for kind in KINDS if wanted.intersection(read(kind))]
    return [kind_of_module(_KIND_MODULE + module) for module in BUILT_IN
            if wanted.intersection(index.get(module, ()))]


def makers() -> dict[str, type[Constraint]]:
    """Name (``generate --kind``) -> the registered kind a generator reads off a solution
    grid: every kind with a :meth:`~sudoku_csp.constraints.base.Constraint.read_off` or a
    :meth:`~sudoku_csp.constraints.base.Constraint.sample` of its own, but those with a
    generator of their own (:attr:`~sudoku_csp.constraints.base.Constraint.own_generator`:
    killer cages) and the :attr:`~sudoku_csp.constraints.base.Constraint.starting` ones
    (pencil marks say where a solver stands, not a rule a puzzle is made of).

    >>> names = list(makers())
    >>> names[:4], "little-killer" in names, "cage" in names, "pencil-marks" in names
    (['thermometer', 'kropki', 'xv', 'nonconsecutive'], True, False, False)
    """
    return {kind.names.name: kind for kind in KINDS
            if not kind.own_generator and not kind.starting
            and (kind.has_own("read_off") or kind.has_own("sample"))}


def kind_named(text: str, among: Iterable[type[Constraint]] | None = None,
               what: str = "constraint kind") -> type[Constraint]:
    """The kind ``text`` names: its name (``little-killer``), an alias (``thermo``) or one
    of its f-puzzles keys (``littlekillersum``), in any case, spaces, ``-`` and ``_`` alike. A
    kind's name or alias comes first: ``xv`` is the XV kind, though f-puzzles' ``xv`` key is
    read as value dots. ``among`` (every registered kind if not given) bounds the answer:
    :class:`UnknownKindError` naming ``what`` is looked for and listing the names of
    ``among``.

    >>> kind_named("Little killer").__name__, kind_named("thermo").__name__
    ('LittleKiller', 'Thermo')
    >>> kind_named("killercage").kind, kind_named("xv").kind
    ('cage', 'xv')
    >>> kind_named("cubes", what="line kind")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sudoku_csp.constraints.registry.UnknownKindError: unknown line kind 'cubes': choose from ...
    """
    choices = list(KINDS if among is None else among)
    asked = spelling(text)
    found = (next((k for k in KINDS if asked in _spelt(k)[0]), None)
             or next((k for k in KINDS if asked in _spelt(k)[1]), None))
    if found is None or found not in choices:
        said = f"unknown {what} {text.strip()!r}" if found is None else (
            f"{text.strip()!r} ({found.kind}) is no {what}")
        raise UnknownKindError(f"{said}: choose from "
                               f"{', '.join(k.names.name for k in choices)}")
    return found


def encoding_options(translation: str | None = None) -> dict[str, EncodingOption]:
    """Every encoding option the registered kinds offer, by name (``sums``: how killer
    cages' sums are written); what backends and commands writing CNF list and accept. With
    ``translation`` (``native``, ``cpsat``), only the options that one honours
    (:attr:`EncodingOption.translations`).

    >>> encoding_options()["sums"].default
    'combos'
    >>> "sums" in encoding_options("cpsat"), "hidden" in encoding_options("cpsat")
    (False, True)
    """
    return {option.name: option for kind in KINDS for option in kind.encoding_options
            if translation is None or translation in option.translations}


def encoding_choices(options: Mapping[str, Any] | None = None) -> dict[str, str]:
    """The value of every encoding option (:func:`encoding_options`): those of ``options``,
    the defaults for the rest. An unknown option name or value is a :class:`ConstraintError`
    naming the choices, a value that cannot be used here (a missing optional library) the
    option's own input error.

    >>> encoding_choices({"sums": "bdd"})["sums"], encoding_choices()["hidden"]
    ('bdd', 'on')
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
    types = dict.fromkeys(type(c) for c in constraints)
    kinds = [*sorted((k for k in types if _place(k) is not None), key=_placed),
             *(k for k in types if _place(k) is None)]
    return [(kind, [c for c in constraints if type(c) is kind]) for kind in kinds]


def kinds_among(constraints: Iterable[Constraint]) -> list[type[Constraint]]:
    """The registered kinds ``constraints`` are instances of (a kind's subclass's
    constraints are the kind's too), in :data:`KINDS` order.

    >>> from sudoku_csp import parse
    >>> [kind.kind for kind in kinds_among(parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4")
    ...                                    .constraints)]
    ['cage']
    """
    found = {k for t in {type(c) for c in constraints} for k in t.__mro__
             if _place(k) is not None}
    return sorted(found, key=_placed)


_KIND_MODULE = "sudoku_csp.constraints.kinds."


def _place(kind: type) -> tuple[int, int] | None:
    """Where ``kind`` stands in :data:`KINDS` (None: not registered), found without loading
    the registry for a built-in kind: a puzzle's constraints are put in order, or their
    kinds' joint hooks run, without importing every kind (start-up, issue 34). The built-in
    kinds come first, in :data:`BUILT_IN` order, then the others as they were registered
    (registering one loads the built-in kinds first)."""
    module = kind.__module__
    if module.startswith(_KIND_MODULE) and module[len(_KIND_MODULE):] in BUILT_IN \
            and "names" in vars(kind):  # the one kind its module defines (kind_of_module)
        return 0, BUILT_IN.index(module[len(_KIND_MODULE):])
    if list.__contains__(KINDS, kind):  # as it stands: nothing registered loads nothing
        return 1, list.index(KINDS, kind)
    return None


def _placed(kind: type) -> tuple[int, int]:
    """:func:`_place` of a registered ``kind``, as a sort key."""
    place = _place(kind)
    assert place is not None, kind
    return place
