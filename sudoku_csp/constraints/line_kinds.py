"""What the kinds drawn as one line of cells share (double arrows, zipper lines, region-sum
lines, between lines, lockout lines, and the arrows' shafts): a path of neighbours, read
from f-puzzles ``{"lines": [[...], ...]}`` entries (each line one constraint) and from a JSON
list of cell-label lists, drawn as f-puzzles draws it (a thick semi-transparent line, with
circles or diamonds at the ends for some kinds), and sampled as random king-move paths whose
rule a grid keeps.

:class:`LineRule` is the base of such a kind: a frozen dataclass over ``cells`` (the line in
order) that is an :class:`~sudoku_csp.constraints.automaton.AutomatonRule`, so a subclass
gives its rule's reading (:meth:`~AutomatonRule.automaton`, :meth:`~AutomatonRule.sequence`),
its ``violations``, and the class attributes below; the JSON and f-puzzles forms, the
validation of the path, the drawing and the sampling come from here.

>>> from sudoku_csp.variants import make_geometry
>>> from sudoku_csp.constraints.kinds.between import BetweenLine
>>> BetweenLine((0, 5, 7)).validate(make_geometry(4))
Traceback (most recent call last):
...
sudoku_csp.constraints.base.ConstraintError: the between line is not a path of neighbours: \
B2 and B4 share neither a side nor a corner
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.canvas import Canvas, Layer
from sudoku_csp.constraints.automaton import Automaton, AutomatonRule, Step, build
from sudoku_csp.constraints.base import Constraint, ConstraintError
from sudoku_csp.constraints.fields import (
    FieldError,
    check_path,
    entries,
    king_neighbours,
    labels,
    line_cells,
    parse_cells,
    rcs,
)
from sudoku_csp.constraints.translation import Clause, CnfContext, Link
from sudoku_csp.constraints.wording import counted, kept, seeing
from sudoku_csp.geometry import Geometry, Grid

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel

__all__ = ["DISTINCT_MOST", "ENDS_GREY", "LineRule", "Reading", "counted", "distinct",
           "random_path"]

ENDS_GREY = "#a0a0a0"
"""The outline of circles and diamonds at a line's ends, and of an arrow's circle."""


@dataclass(frozen=True)
class Reading:
    """How a rule is read along a sequence of cells, for
    :func:`~sudoku_csp.constraints.automaton.build`: ``key`` names everything ``step`` and
    ``accept`` depend on; ``start`` is the state before the first cell."""

    key: Hashable
    start: Hashable
    step: Step
    accept: Callable[[Any], bool]

    def automaton(self, length: int, n: int) -> Automaton:
        """The automaton of this reading over ``length`` cells of an ``n``-digit grid."""
        return build(self.key, length, n, self.start, self.step, self.accept)


DISTINCT_MOST = {9: 8, 12: 5, 16: 4}
"""The longest sequence :func:`distinct` reads on grids of up to so many values (none on
larger ones): it remembers values, and a longer line makes its layers too big to build
quickly. Measured worst cases (a line along a row, every cell a peer of the others): about
40 ms on 9x9 at 8 cells, 30 ms on 12x12 at 5, 30 ms on 16x16 at 4, where 16x16 lines of 6
cells took up to half a second."""

_TOO_BIG: set[Hashable] = set()


def distinct(geometry: Geometry, cells: tuple[int, ...], reading: Reading
             ) -> Automaton | None:
    """The automaton of ``reading`` over ``cells`` that also keeps apart the cells of the
    sequence that see each other (peers: a row, a column, a box, an anti-knight pair...):
    what the rule implies together with the units. Its state adds, for each later cell with
    a peer read already, the values those peers took. For a kind's joint links: a sum along
    a line of a box then keeps only sets of different digits (a 7 over three cells of one
    box: 1, 2 and 4), which the rule alone does not say. ``None`` when no two cells are
    peers, or the sequence is too long to read this way (:data:`DISTINCT_MOST`, or a layer
    over the automaton's limit).

    >>> from sudoku_csp.variants import make_geometry
    >>> from sudoku_csp.constraints.kinds.arrow import Arrow
    >>> g = make_geometry(9)
    >>> (cells, reading), = Arrow((2,), ((2, 1, 0),)).readings(g)   # A3 = A2 + A1
    >>> out = distinct(g, cells, reading).narrow((0x1FF,) * 3)
    >>> [[d + 1 for d in range(9) if m >> d & 1] for m in out][2]   # A3: 3 = 1 + 2 at least
    [3, 4, 5, 6, 7, 8, 9]
    """
    length = len(cells)
    peers = geometry.seen_before(cells)
    most = next((m for size, m in DISTINCT_MOST.items() if geometry.size <= size), 0)
    if not any(peers) or length > most:
        return None
    key = (reading.key, "distinct", peers)
    if (key, length, geometry.size) in _TOO_BIG:
        return None
    later = tuple(tuple(k for k in range(i + 1, length) if peers[k]) for i in range(length))
    step = reading.step

    def read(state: tuple[Any, tuple[int, ...]], position: int, value: int
             ) -> tuple[Any, tuple[int, ...]] | None:
        base, masks = state
        forbid = dict(zip(later[position - 1], masks, strict=True)) if position else {}
        if forbid.get(position, 0) >> value & 1:
            return None
        nxt = step(base, position, value)
        if nxt is None:
            return None
        bit = 1 << value
        return nxt, tuple(forbid.get(k, 0) | (bit if position in peers[k] else 0)
                          for k in later[position])

    accept = reading.accept
    try:
        return build(key, length, geometry.size, (reading.start, ()), read,
                     lambda state: accept(state[0]))
    except ValueError:
        _TOO_BIG.add((key, length, geometry.size))
        return None


def _why_apart(said: str, geometry: Geometry, cells: tuple[int, ...],
               candidates: Sequence[int], gone: Sequence[tuple[int, int]]) -> str:
    """The words of a line read with its cells that see each other apart: which those are,
    and what its cells keep."""
    return f"{said}: {kept(geometry, cells, candidates, gone)}"


def random_path(geometry: Geometry, rng: random.Random, length: int,
                avoid: set[int] | frozenset[int] = frozenset(),
                start: int | None = None) -> tuple[int, ...] | None:
    """A random path of ``length`` neighbours (king's moves) through no cell of ``avoid``
    and no cell twice, from ``start`` or a random free cell; ``None`` when it gets stuck."""
    if start is None:
        free = [c for c in range(geometry.ncells) if c not in avoid]
        if not free:
            return None
        start = rng.choice(free)
    path = [start]
    while len(path) < length:
        near = [c for c in king_neighbours(geometry.size)[path[-1]]
                if c not in avoid and c not in path]
        if not near:
            return None
        path.append(rng.choice(near))
    return tuple(path)


@dataclass(frozen=True)
class LineRule(AutomatonRule):
    """A rule along one line of ``cells`` (in the order drawn): see the module docstring.

    A subclass declares its names (one JSON field: a list of lines; one f-puzzles key, whose
    entries are lines), and sets ``least`` (the fewest cells), ``colour``, ``opacity`` and
    ``width`` (the line's, ``width`` a fraction of a cell's side), ``ends`` (``"circle"``,
    ``"diamond"`` or ``""``), ``ends_first``; and :meth:`reading`, ``violations``, and where
    it differs from the default, :meth:`meaningful` (whether the line rules anything) and
    :meth:`cpsat_rule`.
    """

    cells: tuple[int, ...]

    fpuzzles_lines: ClassVar[bool] = True
    least: ClassVar[int] = 2
    colour: ClassVar[str] = "#c0c0c0"
    opacity: ClassVar[float] = 1.0
    width: ClassVar[float] = 0.15
    ends: ClassVar[str] = ""
    ends_first: ClassVar[bool] = False
    """Whether the rule is read from both ends first, then the cells between (double arrows,
    between and lockout lines), rather than along the line."""

    def touched(self) -> tuple[int, ...]:
        return self.cells

    def sequence(self, geometry: Geometry) -> tuple[int, ...]:
        if self.ends_first:
            return (self.cells[0], self.cells[-1], *self.cells[1:-1])
        return self.cells

    def validate(self, geometry: Geometry) -> None:
        if len(self.cells) < self.least:
            raise ConstraintError(f"a {self.kind} needs at least {self.least} cells",
                                  part="cells")
        super().validate(geometry)
        check_path(geometry, self.cells, f"the {self.kind}")

    # -- translations: the automaton's, none for a line that rules nothing ------------------
    def meaningful(self, geometry: Geometry) -> bool:
        """Whether the line rules anything (a between line of two cells does not): when it
        does not, it has no translation, and :meth:`sample` draws another."""
        return True

    def reading(self, geometry: Geometry) -> Reading:
        """How the rule is read along :meth:`sequence`."""
        raise NotImplementedError

    def automaton(self, geometry: Geometry) -> Automaton:
        return self.reading(geometry).automaton(len(self.cells), geometry.size)

    def native(self, geometry: Geometry) -> list[Link]:
        return super().native(geometry) if self.meaningful(geometry) else []

    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        """The automaton's clauses (:meth:`AutomatonRule.cnf`, from a template per reading
        and length); none for a line that rules nothing."""
        return super().cnf(ctx) if self.meaningful(ctx.geometry) else []

    def cpsat(self, model: CpSatModel) -> None:
        if self.meaningful(model.geometry):
            self.cpsat_rule(model)

    def cpsat_rule(self, model: CpSatModel) -> None:
        """The rule in CP-SAT (a line that rules something): by default the automaton's
        ``add_automaton``; a kind whose rule is linear says it directly."""
        super().cpsat(model)

    @classmethod
    def joint_native(cls, geometry: Geometry, constraints: Sequence[Constraint]
                     ) -> list[Link]:
        """For each line with cells that see each other, the rule read with those cells
        kept apart (:func:`distinct`): stronger than the rule's own link alone."""
        links = []
        for c in constraints:
            if isinstance(c, LineRule) and c.meaningful(geometry):
                cells = c.sequence(geometry)
                automaton = distinct(geometry, cells, c.reading(geometry))
                if automaton is not None:
                    links.append(Link(cells, automaton.narrow, partial(
                        _why_apart, seeing(geometry, c.describe(geometry), cells), geometry,
                        cells)))
        return links

    # -- JSON -------------------------------------------------------------------------------
    @classmethod
    def line_from_json(cls, geometry: Geometry, item: object, path: str) -> LineRule:
        """One line of the kind's JSON list (by default a list of cell labels)."""
        return cls(parse_cells(geometry, item, path, least=cls.least))

    def line_to_json(self, geometry: Geometry) -> object:
        return labels(geometry, self.cells)

    @classmethod
    def from_json(cls, fields: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        key = cls.names.json[0]
        value = fields[key]
        if not isinstance(value, list):
            raise FieldError(key, f"expected a list of {cls.names.plural}, each a list of cell "
                                  "labels in order along the line: [[\"A1\", \"B2\", "
                                  "\"B3\"]]")
        found: list[Constraint] = []
        for i, item in enumerate(value):
            line = cls.line_from_json(geometry, item, f"{key}[{i}]")
            try:
                line.validate(geometry)
            except ConstraintError as exc:
                raise FieldError(f"{key}[{i}]", exc.reason) from None
            found.append(line)
        return found

    @classmethod
    def to_json(cls, constraints: Sequence[Constraint], geometry: Geometry) -> dict[str, Any]:
        return {cls.names.json[0]: [c.line_to_json(geometry) for c in constraints
                              if isinstance(c, cls)]}

    # -- f-puzzles ----------------------------------------------------------------------------
    @classmethod
    def line_from_fpuzzles(cls, geometry: Geometry, item: Mapping[str, Any], path: str,
                           cells: tuple[int, ...]) -> LineRule:
        """The constraint of one line of an f-puzzles entry (``item``, at ``path``)."""
        return cls(cells)

    def line_to_fpuzzles(self, geometry: Geometry) -> dict[str, Any]:
        return {"lines": [rcs(geometry, self.cells)]}

    @classmethod
    def from_fpuzzles(cls, document: Mapping[str, Any], geometry: Geometry) -> list[Constraint]:
        """Entries ``{"lines": [[cell, ...], ...]}``, each line one constraint."""
        found: list[Constraint] = []
        for path, item in entries(document, cls.names.fpuzzles[0]):
            for where, cells in line_cells(geometry, item, path, least=cls.least):
                line = cls.line_from_fpuzzles(geometry, item, path, cells)
                try:
                    line.validate(geometry)
                except ConstraintError as exc:
                    raise FieldError(where, exc.reason) from None
                found.append(line)
        return found

    @classmethod
    def to_fpuzzles(cls, constraints: Sequence[Constraint], geometry: Geometry
                    ) -> dict[str, Any]:
        return {cls.names.fpuzzles[0]: [c.line_to_fpuzzles(geometry) for c in constraints
                                  if isinstance(c, cls)]}

    # -- pictures ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """The line through the cells' centres, in the kind's colour, and its ends' marks
        (outlines only, so that highlighted cells show through; the line stops at them)."""
        side = canvas.side
        radius = side * 0.38 if self.ends else 0.0
        trim = radius * (1.0 if self.ends == "circle" else 0.9)
        cls = self.names.name
        elements = [f'<path class="{cls}" d="{canvas.path_through(self.cells, trim, trim)}" '
                    f'stroke="{self.colour}" stroke-opacity="{self.opacity}" '
                    f'stroke-width="{side * self.width:.1f}" stroke-linecap="round" '
                    'stroke-linejoin="round" fill="none"/>']
        stroke = f'fill="none" stroke="{ENDS_GREY}" stroke-width="{side * 0.05:.1f}"'
        for cell in (self.cells[0], self.cells[-1]) if self.ends else ():
            x, y = canvas.centre(cell)
            if self.ends == "circle":
                elements.append(f'<circle class="{cls}-end" cx="{x:.1f}" cy="{y:.1f}" '
                                f'r="{radius:.1f}" {stroke}/>')
            else:
                elements.append(f'<path class="{cls}-end" d="M{x:.1f} {y - radius:.1f}'
                                f'L{x + radius:.1f} {y:.1f}L{x:.1f} {y + radius:.1f}'
                                f'L{x - radius:.1f} {y:.1f}Z" {stroke}/>')
        canvas.add(Layer.PATHS, elements)

    @classmethod
    def summary(cls, constraints: Sequence[Constraint], geometry: Geometry) -> list[str]:
        return [counted(sum(isinstance(c, cls) for c in constraints), cls.names.noun,
                        cls.names.plural)]

    # -- samples ----------------------------------------------------------------------------
    @classmethod
    def sample_line(cls, geometry: Geometry, cells: tuple[int, ...], rng: random.Random
                    ) -> LineRule:
        """The constraint :meth:`sample` tries on a random path."""
        return cls(cells)

    @classmethod
    def sample(cls, geometry: Geometry, grid: Grid, rng: random.Random) -> list[Constraint]:
        """One to three lines of 2-4 cells (at least :attr:`least`) on random king-move
        paths through different cells, each kept only when its rule holds on ``grid`` and
        rules something; a path that fails is drawn again (up to 400 times)."""
        used: set[int] = set()
        found: list[Constraint] = []
        want = rng.randint(1, 3)
        for _ in range(400):
            if len(found) == want:
                break
            path = random_path(geometry, rng, rng.randint(max(cls.least, 2), 4), used)
            if path is None:
                continue
            line = cls.sample_line(geometry, path, rng)
            if line.meaningful(geometry) and not line.violations(geometry, grid):
                found.append(line)
                used.update(path)
        return found
