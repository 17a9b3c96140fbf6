"""The CP-SAT models' variables and the model-neutral helpers typed constraints build with.

A :class:`CpSatModel` holds one ``cp_model.CpModel`` of a geometry, its variables and the
reading of a grid back. Its helpers (:meth:`~CpSatModel.value`,
:meth:`~CpSatModel.all_different`, :meth:`~CpSatModel.allow_pairs`,
:meth:`~CpSatModel.forbid_pairs`, :meth:`~CpSatModel.allow_digits`,
:meth:`~CpSatModel.different_sum`) say a rule once for both model kinds: the integer model
(:class:`AllDiffModel`) and the one-hot Boolean model (:class:`BooleanModel`). The constraint
kinds (:mod:`sudoku_csp.constraints`) build with them and never name a model kind; the
builders that make these models for a geometry or a puzzle are in
:mod:`sudoku_csp.encodings.cpsat`.

OR-Tools is imported when a helper needs it, not when this module is imported.
"""

from __future__ import annotations

import abc
import copy
import functools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from sudoku_csp.errors import BackendError
from sudoku_csp.geometry import EMPTY, Geometry, Grid

if TYPE_CHECKING:  # only for annotations: importing ortools costs ~0.5 s
    from ortools.sat.python import cp_model

__all__ = ["AllDiffModel", "BooleanModel", "CpSatModel", "ReadBackError", "lean_model"]


def lean_model() -> cp_model.CpModel:
    """An empty ``cp_model.CpModel`` without the camelCase aliases of its methods
    (``AddAllDifferent`` for ``add_all_different``) that ``CpModel.__init__`` sets on every
    instance, one by one: most of what a 9×9 template's copy took (0.15-0.27 ms against
    0.02-0.12 ms; docs/design.md: Design choices, measured); nothing here calls them."""
    return _lean_class()()


@functools.cache
def _lean_class() -> type:
    from ortools.sat.python import cp_model

    class LeanCpModel(cp_model.CpModel):
        def _add_pre_pep8_methods(self) -> None:
            pass

    return LeanCpModel


class CpSatModel(abc.ABC):
    """A built CP-SAT model of one geometry, its variables, and the decoding of a grid.

    ``model`` is an ordinary ``cp_model.CpModel``: add constraints to it freely. Variables
    added later do not disturb decoding. Subclasses hold the variables (``cells`` for
    ``alldiff``, ``literals`` for ``boolean``) and provide every abstract method: how
    givens pin them, how a grid is read back, and each helper the kinds build with. What
    does not depend on the variables (pinning and releasing domains, copying) is here.
    """

    kind: str = ""

    def __init__(self, geometry: Geometry, model: cp_model.CpModel) -> None:
        self.geometry = geometry
        self.model = model
        # The full domain (low, high) of the variables fix_givens narrows; set by subclasses.
        self._full: tuple[int, int] = (0, 0)
        self.options: dict[str, str] = {}
        """The kinds' encoding options chosen for this puzzle (by name: ``{"hidden":
        "off"}``), set by :func:`~sudoku_csp.constraints.add_to_cpsat`; a kind reads its own
        with :meth:`option`."""

    def option(self, name: str, default: str) -> str:
        """The value chosen for the encoding option ``name`` (``default`` if none)."""
        return self.options.get(name, default)

    # -- givens -----------------------------------------------------------------------------
    @abc.abstractmethod
    def given_indices(self, givens: Sequence[int]) -> list[tuple[int, int]]:
        """``(variable index, value)`` pairs that pin ``givens`` (``EMPTY`` cells: none)."""

    def fix_givens(self, givens: Sequence[int]) -> list[int]:
        """Pin every given by narrowing one variable's domain to a single value, in place.

        Returns the proto indices of the narrowed variables, for :meth:`release`. Domains
        are assumed full before the call (a model built for the empty grid).
        """
        if len(givens) != self.geometry.ncells:
            raise ValueError(f"expected {self.geometry.ncells} givens, got {len(givens)}")
        variables = self.model.proto.variables
        fixed = []
        for index, value in self.given_indices(givens):
            domain = variables[index].domain
            domain.clear()
            domain.extend((value, value))
            fixed.append(index)
        return fixed

    def release(self, indices: Iterable[int]) -> None:
        """Give the variables at ``indices`` their full domain again (undo :meth:`fix_givens`)."""
        low, high = self._full
        variables = self.model.proto.variables
        for index in indices:
            domain = variables[index].domain
            domain.clear()
            domain.extend((low, high))

    def copy(self) -> CpSatModel:
        """A model of its own with everything this one holds (domains as they are now),
        sharing its variables: constraints added to the copy leave this model untouched.

        The variable objects only carry their proto index, so they serve the copy too. What
        the backend does per puzzle with typed constraints: copying the geometry's template
        is several times cheaper than building the model anew, where creating the named
        literals in Python is the cost (docs/design.md: Design choices, measured).
        """
        twin = copy.copy(self)
        twin.model = lean_model()
        twin.model.proto.copy_from(self.model.proto)
        twin.model.rebuild_constant_map()  # as CpModel.clone() does
        return twin

    # -- reading a grid back --------------------------------------------------------------
    @abc.abstractmethod
    def decode(self, values: Sequence[int]) -> Grid:
        """The grid of a full solution vector (one value per model variable, in proto order:
        ``solver.response_proto.solution`` or ``callback.Response().solution``)."""

    @abc.abstractmethod
    def read(self, source: Any) -> Grid:
        """The grid from a ``CpSolver`` after a solve, or from a ``CpSolverSolutionCallback``
        inside ``on_solution_callback`` (anything with ``value`` and ``boolean_value``)."""

    # -- constraints in either model (what typed constraints build with) ------------------
    @abc.abstractmethod
    def value(self, cell: int) -> Any:
        """A linear expression of the value (digit + 1, ``1..N``) shown in ``cell``."""

    @abc.abstractmethod
    def all_different(self, cells: Sequence[int]) -> None:
        """``cells`` hold different digits."""

    @abc.abstractmethod
    def allow_pairs(self, a: int, b: int, pairs: Sequence[tuple[int, int]]) -> None:
        """Cells ``a`` and ``b`` hold one of the digit pairs ``(da, db)`` (0-based)."""

    @abc.abstractmethod
    def forbid_pairs(self, a: int, b: int, pairs: Sequence[tuple[int, int]]) -> None:
        """Cells ``a`` and ``b`` hold none of the digit pairs ``(da, db)`` (0-based)."""

    @abc.abstractmethod
    def allow_digits(self, cell: int, digits: Sequence[int]) -> None:
        """``cell`` holds one of ``digits`` (0-based)."""

    @abc.abstractmethod
    def different_sum(self, cells: Sequence[int], total: int,
                      sets: Sequence[int] | None) -> None:
        """``cells`` hold different digits whose values (digit + 1) add up to ``total``.

        ``sets`` lists every set of ``len(cells)`` different digits whose values add up to
        ``total``, as digit bitmasks (bit ``d``: digit ``d``), or is ``None`` when there
        are too many to list; each model uses them in its own way. The caller vouches
        that the list is complete: a set left out is a solution lost.
        """

    def __repr__(self) -> str:
        proto = self.model.proto
        return (f"<CpSatModel {self.kind} {self.geometry.name}: {len(proto.variables)} "
                f"variables, {len(proto.constraints)} constraints>")


class AllDiffModel(CpSatModel):
    """``cells[cell]`` is an integer variable in ``1..N``: the shown digit (digit + 1)."""

    kind = "alldiff"

    def __init__(self, geometry: Geometry, model: cp_model.CpModel,
                 cells: Sequence[cp_model.IntVar]) -> None:
        super().__init__(geometry, model)
        self.cells = tuple(cells)
        self._index = tuple(v.index for v in self.cells)
        self._full = (1, geometry.size)

    def given_indices(self, givens: Sequence[int]) -> list[tuple[int, int]]:
        index = self._index
        return [(index[cell], d + 1) for cell, d in enumerate(givens) if d != EMPTY]

    def decode(self, values: Sequence[int]) -> Grid:
        values = list(values)  # one pass over the proto field: its items cost a call each
        return tuple(values[i] - 1 for i in self._index)

    def read(self, source: Any) -> Grid:
        return tuple(source.value(v) - 1 for v in self.cells)

    def value(self, cell: int) -> Any:
        return self.cells[cell]

    def all_different(self, cells: Sequence[int]) -> None:
        self.model.add_all_different([self.cells[c] for c in cells])

    def allow_pairs(self, a: int, b: int, pairs: Sequence[tuple[int, int]]) -> None:
        self.model.add_allowed_assignments([self.cells[a], self.cells[b]],
                                           [(x + 1, y + 1) for x, y in pairs])

    def forbid_pairs(self, a: int, b: int, pairs: Sequence[tuple[int, int]]) -> None:
        self.model.add_forbidden_assignments([self.cells[a], self.cells[b]],
                                             [(x + 1, y + 1) for x, y in pairs])

    def allow_digits(self, cell: int, digits: Sequence[int]) -> None:
        self.model.add_allowed_assignments([self.cells[cell]], [(d + 1,) for d in digits])

    def different_sum(self, cells: Sequence[int], total: int,
                      sets: Sequence[int] | None) -> None:
        # AllDifferent and the linear sum say it all; the digit sets only add, per cell,
        # the digits some set holds: that domain cut was faster on both killer files than
        # the sum alone, a table of every ordering of every set, or Boolean set selectors
        # channelled to the integers (docs/design.md: Design choices, measured).
        if len(cells) > 1:
            self.all_different(cells)
        if sets is not None:
            union = _union(sets)
            if union != (1 << self.geometry.size) - 1:
                digits = _digits(union)
                for cell in cells:
                    self.allow_digits(cell, digits)
        self.model.add(sum(self.cells[c] for c in cells) == total)


class BooleanModel(CpSatModel):
    """``literals[cell][digit]`` is the Boolean "``cell`` holds ``digit``"."""

    kind = "boolean"

    def __init__(self, geometry: Geometry, model: cp_model.CpModel,
                 literals: Sequence[Sequence[cp_model.IntVar]]) -> None:
        super().__init__(geometry, model)
        self.literals = tuple(tuple(row) for row in literals)
        self._index = tuple(tuple(v.index for v in row) for row in self.literals)
        self._full = (0, 1)

    def given_indices(self, givens: Sequence[int]) -> list[tuple[int, int]]:
        # Setting the one true literal is enough: the cell's exactly-one makes the other
        # N-1 false at the root, and narrowing fewer domains measured faster.
        index = self._index
        return [(index[cell][d], 1) for cell, d in enumerate(givens) if d != EMPTY]

    def decode(self, values: Sequence[int]) -> Grid:
        values = list(values)  # one pass over the proto field: its items cost a call each
        return tuple(_one_hot(cell, [values[i] for i in row])
                     for cell, row in enumerate(self._index))

    def read(self, source: Any) -> Grid:
        return tuple(_one_hot(cell, [source.boolean_value(v) for v in row])
                     for cell, row in enumerate(self.literals))

    def value(self, cell: int) -> Any:
        from ortools.sat.python import cp_model

        row = self.literals[cell]
        return cp_model.LinearExpr.weighted_sum(row, list(range(1, len(row) + 1)))

    def all_different(self, cells: Sequence[int]) -> None:
        for d in range(self.geometry.size):
            self.model.add_at_most_one([self.literals[c][d] for c in cells])

    def allow_pairs(self, a: int, b: int, pairs: Sequence[tuple[int, int]]) -> None:
        # Support clauses: a digit in one cell needs a partner in the other.
        la, lb = self.literals[a], self.literals[b]
        for d in range(self.geometry.size):
            self.model.add_bool_or([~la[d], *(lb[y] for x, y in pairs if x == d)])
            self.model.add_bool_or([~lb[d], *(la[x] for x, y in pairs if y == d)])

    def forbid_pairs(self, a: int, b: int, pairs: Sequence[tuple[int, int]]) -> None:
        la, lb = self.literals[a], self.literals[b]
        for x, y in pairs:
            self.model.add_bool_or([~la[x], ~lb[y]])

    def allow_digits(self, cell: int, digits: Sequence[int]) -> None:
        row = self.literals[cell]
        for d in range(self.geometry.size):
            if d not in digits:
                self.model.add_bool_or([~row[d]])

    def different_sum(self, cells: Sequence[int], total: int,
                      sets: Sequence[int] | None) -> None:
        """With the digit sets: a selector literal per set, exactly one of them true, and
        for each digit ``d`` some set holds, exactly one true among the cells' ``d``
        literals and the selectors of the sets *without* ``d``. So the chosen set's digits
        each sit in one cell and no other digit does: with one digit per cell, the cells
        hold exactly that set (different digits, the right sum). Digits of no set are
        excluded. Only exactly-ones and unit clauses, which CP-SAT's SAT core propagates
        like the sat backend's ``combos`` clauses. Without the sets: an at-most-one per
        digit and the linear sum of :meth:`value`.
        """
        if sets is None:
            self.all_different(cells)
            self.model.add(sum(self.value(c) for c in cells) == total)
            return
        # Written into the proto by index, not through CpModel's methods: a quarter less
        # Python time per 9x9 killer (docs/design.md: Design choices, measured).
        index = self._index
        proto = self.model.proto
        first = len(proto.variables)
        for _ in sets:
            proto.variables.add().domain.extend((0, 1))
        chosen = range(first, first + len(sets))
        proto.constraints.add().exactly_one.literals.extend(chosen)
        union = _union(sets)
        excluded = []
        for d in range(self.geometry.size):
            if union >> d & 1:
                proto.constraints.add().exactly_one.literals.extend(
                    [index[c][d] for c in cells]
                    + [sel for sel, s in zip(chosen, sets, strict=True) if not s >> d & 1])
            else:
                excluded += [-index[c][d] - 1 for c in cells]  # negated literal: -i - 1
        if excluded:
            proto.constraints.add().bool_and.literals.extend(excluded)


def _union(sets: Iterable[int]) -> int:
    """The digits some set holds, as one bitmask."""
    union = 0
    for mask in sets:
        union |= mask
    return union


def _digits(mask: int) -> list[int]:
    """The digits of a bitmask, in increasing order."""
    return [d for d in range(mask.bit_length()) if mask >> d & 1]


class ReadBackError(BackendError):
    """A solver's values that are not one digit per cell: a broken model, a bug."""


def _one_hot(cell: int, bits: list[int]) -> int:
    """The digit whose literal is true; a model whose exactly-one was broken is a bug."""
    if bits.count(1) != 1:
        raise ReadBackError(f"cell {cell}: {bits.count(1)} digit literals are true, expected 1")
    return bits.index(1)
