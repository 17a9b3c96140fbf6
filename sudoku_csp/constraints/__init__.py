"""Typed constraints: rules beyond all-different units and "must differ" pairs.

Killer cages, thermometers, kropki dots, XV, lines, clues outside the grid, ...: one module
per kind in ``constraints/kinds/``, each holding its names, data, validation, JSON and
f-puzzles forms, its translation for every backend and the independent check
:mod:`sudoku_csp.verify` runs (the hooks: :class:`~sudoku_csp.constraints.base.Constraint`).
A :class:`~sudoku_csp.puzzle.Puzzle` carries them in ``constraints``; the backends never name
a kind. The machinery beside the kinds:

- :mod:`~sudoku_csp.constraints.base`: every hook a kind has, with its contract;
- :mod:`~sudoku_csp.constraints.names`: :class:`Names`, a kind's names declared once;
- :mod:`~sudoku_csp.constraints.registry`: :data:`KINDS` and every lookup by name
  (:func:`kind_named`, :func:`fields`, :func:`makers`, ...);
- :mod:`~sudoku_csp.constraints.combined`: a puzzle's constraints together, checked and
  translated (:func:`check_all`, :func:`native_links`, :func:`cnf_clauses`,
  :func:`add_to_cpsat`, :func:`rule_lines`);
- the shared vocabulary and bases kinds build on: ``translation``, ``fields``, ``wording``,
  ``pairs``, ``pairlines``, ``line_kinds``, ``outside``, ``automaton``, ``cage_sums``.

A kind's class is importable from here by name (``from sudoku_csp.constraints import Cage``),
which loads the registry.

>>> from sudoku_csp import parse
>>> p = parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4")
>>> [c.kind for c in p.constraints][:2], p.constraints[0].total
(['cage', 'cage'], 3)
"""

from __future__ import annotations

from typing import Any

from sudoku_csp.constraints.base import (
    HANDLED_BY,
    Constraint,
    ConstraintError,
    UnsupportedError,
    refuse_constraints,
)
from sudoku_csp.constraints.combined import (
    add_to_cpsat,
    check_all,
    cnf_clauses,
    native_links,
    rule_lines,
)
from sudoku_csp.constraints.fields import FieldError
from sudoku_csp.constraints.names import Names
from sudoku_csp.constraints.registry import (
    BUILT_IN,
    KINDS,
    UnknownKindError,
    by_kind,
    encoding_choices,
    encoding_options,
    fields,
    fpuzzles_keys,
    kind_named,
    makers,
    register,
)
from sudoku_csp.constraints.translation import CnfContext, EncodingOption, Link


def __getattr__(name: str) -> Any:
    """A registered kind's class by its class name (``from sudoku_csp.constraints import
    Cage``)."""
    for kind in KINDS:
        if kind.__name__ == name:
            return kind
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BUILT_IN", "HANDLED_BY", "KINDS", "CnfContext", "Constraint", "ConstraintError",
    "EncodingOption", "FieldError", "Link", "Names", "UnknownKindError", "UnsupportedError",
    "add_to_cpsat", "by_kind", "check_all", "cnf_clauses", "encoding_choices",
    "encoding_options", "fields", "fpuzzles_keys", "kind_named", "makers", "native_links",
    "refuse_constraints", "register", "rule_lines",
]
