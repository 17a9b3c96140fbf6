"""Typed constraints: rules beyond all-different units and "must differ" pairs.

One module per kind in ``constraints/kinds/`` (killer cages, thermometers, kropki dots, lines,
clues outside the grid, ...), each holding all of itself; beside them the machinery:
:mod:`~sudoku_csp.constraints.base` (every hook a kind has, with its contract),
:mod:`~sudoku_csp.constraints.names` (a kind's names, declared once),
:mod:`~sudoku_csp.constraints.registry` (:data:`KINDS`, every lookup by name),
:mod:`~sudoku_csp.constraints.combined` (a puzzle's constraints checked and translated
together), and the vocabulary and bases kinds build on. A kind's class is importable from
here by its name (``from sudoku_csp.constraints import Cage``), which loads the registry.

>>> from sudoku_csp import parse
>>> [c.kind for c in parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4").constraints][:2]
['cage', 'cage']
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
    definitions,
    forget_puzzles,
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
    Cage``). Any other name is no attribute, without loading the registry: ``from
    sudoku_csp.constraints import value_dots`` asks here before it imports the submodule, and
    a kind module importing its machinery so must not load every kind (itself among them,
    half made)."""
    if not name[:1].isupper():
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    for kind in KINDS:
        if kind.__name__ == name:
            return kind
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BUILT_IN", "HANDLED_BY", "KINDS", "CnfContext", "Constraint", "ConstraintError",
    "EncodingOption", "FieldError", "Link", "Names", "UnknownKindError", "UnsupportedError",
    "add_to_cpsat", "by_kind", "check_all", "cnf_clauses", "definitions", "encoding_choices",
    "encoding_options", "fields", "forget_puzzles", "fpuzzles_keys", "kind_named", "makers",
    "native_links", "refuse_constraints", "register", "rule_lines",
]
