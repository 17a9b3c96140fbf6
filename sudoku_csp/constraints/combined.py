"""A puzzle's typed constraints taken together: checked, translated for each backend, and
said in words, whatever their kinds.

- :func:`check_all`: every constraint valid on the geometry, alone and with its kind's others;
- native: :func:`native_links` (the state holds them;
  :func:`~sudoku_csp.native.rules.propagate` runs them to a fixpoint with the rules);
- CNF: :func:`cnf_clauses` (added to the geometry's formula, guarded per puzzle when the
  solver is incremental);
- CP-SAT: :func:`add_to_cpsat` on a model built for the puzzle;
- :func:`rule_lines`: what a text view says of them.

A translation a kind lacks is refused by its hook with an
:class:`~sudoku_csp.constraints.base.UnsupportedError` naming the kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from sudoku_csp.constraints.base import Constraint, ConstraintError
from sudoku_csp.constraints.registry import by_kind, encoding_choices, kinds_among
from sudoku_csp.constraints.remembered import forget_states
from sudoku_csp.constraints.translation import CnfContext, Definition, Link, with_guard
from sudoku_csp.geometry import Geometry

__all__ = ["add_to_cpsat", "check_all", "cnf_clauses", "definitions", "forget_puzzles",
           "native_links", "rule_lines"]


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
    grouped: dict[type[Constraint], list[Constraint]] = {}
    for constraint in constraints:
        if not isinstance(constraint, Constraint):
            raise ConstraintError(f"{constraint!r} is not a constraint")
        constraint.validate(geometry)
        if constraint.single:
            if constraint.kind in singles:
                raise ConstraintError(f"a puzzle holds at most one {constraint.kind} "
                                      "constraint (it rules the whole grid)")
            singles.add(constraint.kind)
        grouped.setdefault(type(constraint), []).append(constraint)
    for kind, mine in grouped.items():
        kind.joint_validate(geometry, mine)


def native_links(geometry: Geometry, constraints: tuple[Constraint, ...],
                 options: Mapping[str, str] | None = None) -> tuple[Link, ...]:
    """The native propagation of every constraint, built once per puzzle's constraints
    (and options): each constraint's links, then each kind's joint links
    (:meth:`~sudoku_csp.constraints.base.Constraint.joint_native`), but those of a family
    of implied constraints that ``options`` switch off (:attr:`Link.family`,
    :mod:`sudoku_csp.constraints.implied`: ``{"hidden": "off"}``). A constraint that a joint
    link always in force covers (:attr:`Link.covers`) gives none of its own."""
    off = frozenset(name for name, value in (options or {}).items() if value == "off")
    return _native_links(geometry, constraints, off)


def forget_puzzles() -> None:
    """Forget what was worked out for the puzzles met so far: their native links
    (:func:`native_links` keeps them per puzzle's constraints) and the narrowings remembered
    per candidate masks (:func:`~sudoku_csp.constraints.remembered.forget_states`),
    keeping what puzzles of the same shapes share (tables per geometry, clause templates,
    digit-set tables, automata). A benchmark calls it before each timed solve, so that a
    puzzle met again is timed as a new one would be: a killer's links (the 45 rule's
    implied sums) are half of the native solver's time on it, and a sandwich met again
    finds most of its states' narrowings remembered (the native solver 2.7 ms where a new
    one takes 6.4; measured when ``auto`` still sent both to the native solver first).

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.constraints import Cage
    >>> geometry, cages = make_geometry(4), (Cage((0, 1), 3),)
    >>> native_links(geometry, cages) is native_links(geometry, cages)
    True
    >>> first = native_links(geometry, cages); forget_puzzles()
    >>> native_links(geometry, cages) is first
    False
    """
    _native_links.cache_clear()
    forget_states()


@lru_cache(maxsize=256)
def _native_links(geometry: Geometry, constraints: tuple[Constraint, ...],
                  off: frozenset[str]) -> tuple[Link, ...]:
    joint: list[Link] = []
    for kind in kinds_among(constraints):
        mine = [c for c in constraints if isinstance(c, kind)]
        if mine:
            joint.extend(link for link in kind.joint_native(
                             geometry, list(constraints) if kind.joint_sees_all else mine)
                         if link.family not in off)
    # A joint link that holds a constraint's whole rule stands in for its own links.
    covered = {id(link.covers) for link in joint if link.covers is not None and
               not link.family}
    return tuple([link for c in constraints if id(c) not in covered
                  for link in c.native(geometry)] + joint)


def cnf_clauses(geometry: Geometry, constraints: Iterable[Constraint], *, start: int,
                options: Mapping[str, Any] | None = None, guard: int = 0,
                shared: Mapping[Definition, tuple[int, ...]] | None = None,
                whole: bool = True) -> tuple[list[Sequence[int]], int]:
    """The clauses of every constraint over ``geometry``'s variable map, auxiliaries numbered
    from ``start``, written with the kinds' encoding ``options`` (:func:`encoding_choices`);
    and the highest variable used (``start - 1`` when none). ``guard``: a literal added to
    every clause (``-selector``: the clauses hold while ``selector`` is assumed), by the
    kind as it writes them where it can (:class:`~sudoku_csp.constraints.translation.CnfContext`),
    else here. Each clause is a sequence of literals, as the kind wrote it (a template's
    are tuples: :func:`~sudoku_csp.constraints.translation.fill`), copied by neither path.

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.constraints import Cage
    >>> clauses, top = cnf_clauses(make_geometry(4), [Cage((0, 1), 3)], start=65)
    >>> clauses[:4], top     # 3 and 4 leave A1 and A2; {1, 2} the one set: no auxiliary
    ([(-3,), (-7,), (-4,), (-8,)], 64)
    >>> cnf_clauses(make_geometry(4), [Cage((0, 1), 5)], start=65)[1]  # {1,4} or else {2,3}
    65
    >>> list(cnf_clauses(make_geometry(4), [Cage((0, 1), 3)], start=65, guard=-99)[0][0])
    [-3, -99]

    ``shared``: the definitions (:func:`definitions`) whose clauses the solver holds
    already, with their auxiliaries: the constraints read them and leave their clauses out.
    A definition not among them is written with the constraint's clauses (guarded too).
    ``whole``: the constraints are all the puzzle's, which a kind may read to choose how it
    writes itself (:attr:`CnfContext.whole`); False when a session adds them one at a time.
    """
    from sudoku_csp.modeling.variables import variables

    # Only the options given are checked: a kind applies its own default to the others
    # (CnfContext.option), and the defaults of every kind need the whole registry.
    constraints = list(constraints)
    ctx = CnfContext(variables(geometry), start=start,
                     options=encoding_choices(options) if options else {}, guard=guard,
                     shared=shared, whole=constraints if whole else None)
    clauses: list[Sequence[int]] = []
    for c in constraints:
        clauses += with_guard(c.cnf(ctx), guard)
    for kind, mine in by_kind(constraints):
        clauses += with_guard(kind.joint_cnf(ctx, mine), guard)
    return clauses, max(ctx.top, start - 1)


def definitions(geometry: Geometry, constraints: Iterable[Constraint],
                options: Mapping[str, Any] | None = None) -> list[Definition]:
    """The definitions the constraints' clauses read under the kinds' encoding ``options``
    (:meth:`~sudoku_csp.constraints.base.Constraint.definitions`), each once, in order.

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.constraints import Cage, Sandwich
    >>> g = make_geometry(4)
    >>> found = definitions(g, [Cage((0, 1), 3), Sandwich((0, 1, 2, 3), "right", 2),
    ...                         Sandwich((3, 2, 1, 0), "left", 0)])
    >>> [(d.key, d.cells) for d in found]    # the row read either way: one line
    [(('sandwich line',), (0, 1, 2, 3))]
    >>> definitions(g, [Sandwich((0, 1, 2, 3), "right", 2)], {"sandwich_cnf": "pairs"})
    []
    """
    from sudoku_csp.modeling.variables import variables

    ctx = CnfContext(variables(geometry), start=1,
                     options=encoding_choices(options) if options else {})
    return list(dict.fromkeys(d for c in constraints for d in c.definitions(ctx)))


def add_to_cpsat(model, constraints: Iterable[Constraint],  # noqa: ANN001
                 options: Mapping[str, str] | None = None) -> None:
    """Add every constraint to a :class:`~sudoku_csp.encodings.cpsat.CpSatModel`, then what
    each kind's constraints imply together
    (:meth:`~sudoku_csp.constraints.base.Constraint.joint_cpsat`), with the kinds' encoding
    ``options`` (those of :func:`encoding_options` for ``cpsat``: ``{"hidden": "off"}``)
    set on the model for them to read."""
    model.options = dict(options or {})
    constraints = list(constraints)
    for c in constraints:
        c.cpsat(model)
    for kind in kinds_among(constraints):
        mine = [c for c in constraints if isinstance(c, kind)]
        if mine:
            kind.joint_cpsat(model, mine)
