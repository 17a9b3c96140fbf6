"""Clues outside the grid whose rule reads as digit sets along a line that is a unit of the
grid: sandwiches (the digits between the crusts) and X-sums (the first X). What they share
beyond :class:`~sudoku_csp.constraints.outside.OutsideClue`:

- natively, the combination rule with and without the unit (:class:`SetClue`'s own link
  and joint links): with it, the digits a reading leaves over are held against the other
  cells of the line;
- in CNF, the set of digits of the marked part as variables (:func:`held_digit_clauses`),
  defined once per line (:class:`~sudoku_csp.constraints.translation.Definition`: a solver
  asked about many puzzles holds them for all), and a selector per set of the clue
  (:func:`set_choice_clauses`), built once per clue and line length as a template
  (:func:`~sudoku_csp.constraints.translation.templated`);
- on CP-SAT's Boolean model, those clauses (:func:`clauses_to_cpsat`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import chain
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.constraints.base import Constraint, at
from sudoku_csp.constraints.outside import OutsideClue
from sudoku_csp.constraints.translation import (
    Clause,
    CnfContext,
    Definition,
    Link,
    templated,
)
from sudoku_csp.geometry import Geometry

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel

__all__ = ["SetClue", "clauses_to_cpsat", "held_digit_clauses", "set_choice_clauses"]


def held_digit_clauses(ctx: CnfContext, cells: Sequence[int], inside: Sequence[int | None],
                       held: Mapping[int, int]) -> list[Clause]:
    """Clauses defining, per digit ``d`` of ``held``, its variable ``held[d]`` as "the part
    of a line marked by ``inside`` holds ``d``", the line a unit (each digit on it once):
    per cell its literal "in the part" (``0``: always, ``None``: never); a cell in the part
    holding ``d`` says yes, a cell outside no. They define, constraining no grid: the line
    part of a :class:`SetClue`'s :class:`~sudoku_csp.constraints.translation.Definition`.

    >>> from pysat.solvers import Solver
    >>> from sudoku_csp.modeling.variables import variables
    >>> from sudoku_csp.variants import make_geometry
    >>> ctx = CnfContext(variables(make_geometry(4)), start=100)
    >>> clauses = held_digit_clauses(ctx, (0, 1), (0, None), {2: 100})  # "A1 is 3"
    >>> with Solver(bootstrap_with=clauses) as s:
    ...     s.solve([ctx.x(0, 2), -100]), s.solve([ctx.x(1, 2), 100])
    (False, False)
    """
    x = ctx.x
    clauses: list[Clause] = []
    for d, h in held.items():
        for cell, lit in zip(cells, inside, strict=True):
            if lit is None:
                clauses.append((-x(cell, d), -h))
            elif lit == 0:
                clauses.append((-x(cell, d), h))
            else:
                clauses += [(-lit, -x(cell, d), h), (lit, -x(cell, d), -h)]
    return clauses


def set_choice_clauses(ctx: CnfContext, held: Mapping[int, int], sets: Sequence[int]
                       ) -> tuple[list[Clause], list[int]]:
    """Clauses of "the digits held (``held``: digit -> its variable, as
    :func:`held_digit_clauses` defines them) make one of ``sets``" (digit masks): one
    selector per set, which fixes those variables, at least one set, and each variable's
    value calls for a set that agrees. Returns the clauses and the selectors, in the order
    of ``sets``, for the caller to tie to its places.

    >>> from pysat.solvers import Solver
    >>> from sudoku_csp.modeling.variables import variables
    >>> from sudoku_csp.variants import make_geometry
    >>> ctx = CnfContext(variables(make_geometry(4)), start=100)
    >>> clauses, chosen = set_choice_clauses(ctx, {0: 98, 1: 99}, (0b01, 0b10))
    >>> with Solver(bootstrap_with=clauses) as s:   # 1 or else 2, never both
    ...     chosen, s.solve([98, 99]), s.solve([-98]) and 99 in s.get_model()
    ([100, 101], False, True)
    """
    chosen = list(ctx.new_vars(len(sets)))
    clauses: list[Clause] = [tuple(chosen)]
    for s, c in zip(chosen, sets, strict=True):
        clauses += [(-s, h if c >> d & 1 else -h) for d, h in held.items()]
    for d, h in held.items():
        clauses.append((-h, *(s for s, c in zip(chosen, sets, strict=True) if c >> d & 1)))
        clauses.append((h, *(s for s, c in zip(chosen, sets, strict=True)
                             if not c >> d & 1)))
    return clauses, chosen


def clauses_to_cpsat(model: CpSatModel, make: Callable[[CnfContext], Iterable[Clause]]
                     ) -> None:
    """Add to a CP-SAT model the clauses ``make`` writes (over the CNF variable map: a
    cell-digit variable becomes the model's "cell holds digit" literal, on the integer
    model reified once per cell and digit here; an auxiliary a new Boolean), each as a
    ``bool_or``: the same unit propagation in CP-SAT's SAT core."""
    from sudoku_csp.modeling.variables import variables

    numbering = variables(model.geometry)
    ctx = CnfContext(numbering, start=numbering.x_count + 1)
    clauses = list(make(ctx))
    m = model.model
    found: dict[int, Any] = {}
    boolean = getattr(model, "literals", None)

    def literal(var: int) -> Any:
        lit = found.get(abs(var))
        if lit is None:
            if abs(var) > numbering.x_count:
                lit = m.new_bool_var("")
            else:
                cell, d = numbering.cell_digit(abs(var))
                if boolean is not None:
                    lit = boolean[cell][d]
                else:
                    lit = m.new_bool_var("")
                    m.add(model.value(cell) == d + 1).only_enforce_if(lit)
                    m.add(model.value(cell) != d + 1).only_enforce_if(~lit)
            found[abs(var)] = lit
        return lit if var > 0 else ~lit

    for clause in clauses:
        m.add_bool_or([literal(v) for v in clause])


@dataclass(frozen=True)
class SetClue(OutsideClue):
    """A clue whose rule reads as digit sets along a line that is a unit of the grid
    (sandwiches: the digits between the crusts; X-sums: the first X). The kind gives
    :attr:`narrowing` (its combination rule over the line's candidates, with or without
    the unit), :meth:`set_clauses` and :meth:`more_clauses`; here: its native link (the
    rule), its joint links (the rule with the unit: the digits a reading leaves over held
    against the other cells), its CNF (the set clauses on a unit, else the automaton's)
    and, on CP-SAT's Boolean model, those clauses."""

    narrowing: ClassVar[Callable[[int, int, bool, tuple[int, ...]], tuple[int, ...] | None]]
    """``narrowing(n, total, unit, masks)``: the line's candidates narrowed by the rule, read
    with the line a unit when ``unit``; ``None`` when no reading is left."""
    cnf_sets: ClassVar[bool] = True
    """Whether CNF gets a clue on a unit as its :meth:`set_clauses` (the kind's module
    docstring says what it measured)."""
    cpsat_sets: ClassVar[bool] = True
    """Whether CP-SAT's Boolean model gets a clue on a unit as its CNF clauses."""

    def native(self, geometry: Geometry) -> list[Link]:
        """The combination rule over the line (:attr:`narrowing`): the digits of a set are
        different (the line is a unit), which the automaton, adding values one by one, does
        not see. Complete on singles: given one digit per cell it accepts exactly the lines
        that show the clue."""
        return [Link(self.cells, partial(type(self).narrowing, geometry.size, self.total,
                                         False))]

    @classmethod
    def joint_native(cls, geometry: Geometry, constraints: Sequence[Constraint]
                     ) -> list[Link]:
        """For each clue whose line is a unit of the grid, :attr:`narrowing` with the unit:
        a sandwich's cells outside the crusts then hold the digits its filling leaves
        over."""
        return [Link(clue.cells, partial(type(clue).narrowing, geometry.size, clue.total,
                                         True), partial(clue.why_unit, geometry))
                for clue in constraints
                if isinstance(clue, SetClue) and clue.reads_a_unit(geometry)]

    def writes_sets(self, geometry: Geometry) -> bool:
        """Whether :meth:`cnf` reads the line as a unit (:attr:`cnf_sets`, and it is one)."""
        return self.cnf_sets and self.reads_a_unit(geometry)

    def definitions(self, ctx: CnfContext) -> tuple[Definition, ...]:
        """Its line's :meth:`line_definition` when :meth:`cnf` reads the line as a unit."""
        if self.writes_sets(ctx.geometry):
            definition = self.line_definition(ctx)
            if definition is not None:
                return (definition,)
        return ()

    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        """With its line a unit (and :attr:`cnf_sets`): the line's auxiliaries
        (:meth:`line_definition`, :meth:`CnfContext.defined`: with their clauses unless
        the solver holds them) and the clue's :meth:`unit_clauses` over them, built once per
        kind, clue, length and value of the kind's encoding options
        (:func:`~sudoku_csp.constraints.translation.templated`); else its automaton's and
        :meth:`more_clauses`."""
        if self.writes_sets(ctx.geometry):
            chosen = {option.name: ctx.option(option) for option in self.encoding_options}
            definition = self.line_definition(ctx)

            def make(slots: CnfContext, cells: tuple[int, ...], given: Sequence[int] = ()
                     ) -> Iterator[Clause]:
                slots.options.update(chosen)  # the template is kept per these values
                yield from replace(self, cells=cells).unit_clauses(slots, given)

            return templated(ctx, self.cells, (self.kind, self.total, *chosen.values()),
                             make, (definition,) if definition else ())
        return chain(super().cnf(ctx), self.more_clauses(ctx))

    def line_definition(self, ctx: CnfContext) -> Definition | None:
        """The auxiliaries of its line that :meth:`unit_clauses` reads, whatever the clue
        (None: it reads none, all its clauses its own)."""
        raise NotImplementedError

    def unit_clauses(self, ctx: CnfContext, line: Sequence[int]) -> Iterator[Clause]:
        """The clauses of a clue whose line is a unit (:meth:`cnf`): its
        :meth:`set_clauses` and :meth:`more_clauses`."""
        yield from self.set_clauses(ctx, line)
        yield from self.more_clauses(ctx)

    def set_clauses(self, ctx: CnfContext, line: Sequence[int]) -> Iterator[Clause]:
        """The rule as clauses that read its line as a unit (:meth:`cnf`), over the
        auxiliaries ``line`` of its :meth:`line_definition`."""
        raise NotImplementedError

    def more_clauses(self, ctx: CnfContext) -> Iterator[Clause]:
        """Clauses :meth:`cnf` adds either way (none by default)."""
        return iter(())

    def cpsat_by_sets(self, model: CpSatModel) -> bool:
        """On CP-SAT's Boolean model, a clue on a unit as its CNF clauses
        (:func:`clauses_to_cpsat`, :attr:`cpsat_sets`): whether it did so (else the kind
        adds its own translation)."""
        if self.cpsat_sets and model.kind == "boolean" and self.reads_a_unit(model.geometry):
            clauses_to_cpsat(model, self.cnf)
            return True
        return False

    def why_unit(self, geometry: Geometry, candidates: Sequence[int],
                 gone: Sequence[tuple[int, int]]) -> str:
        """The words of the joint link: the kind's own
        (:meth:`~sudoku_csp.constraints.base.Constraint.why_link`), and that its line holds
        every digit once."""
        link = Link(self.cells, lambda masks: masks)
        said = self.why_link(geometry, candidates, link, gone)
        unit = f"{at(geometry, self.cells[:1])}..{at(geometry, self.cells[-1:])}"
        return f"{said}; {unit} hold every digit once" if said else \
            f"{unit} hold every digit once"
