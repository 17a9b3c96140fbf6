"""Rules read along a sequence of cells by a finite automaton: one engine for many kinds.

Many variant rules can be checked by reading their cells' values one by one while keeping a
small memory: an arrow's running sum, a sandwich's phase and sum, the tallest skyscraper seen
so far. A kind describes that reading (a start state, a ``step(state, position, value)`` that
returns the next state or ``None`` when the rule is already broken, and which final states
accept) and :func:`build` unrolls it once per grid size into a layered graph: layer ``i``
holds the states reachable after ``i`` cells from which an accepting end is still reachable.
From the graph come all three translations, each exact:

- native: a :class:`~sudoku_csp.constraints.base.Link` keeping each cell's digits that lie on
  some start-to-accept path through the candidates (generalised arc consistency for the whole
  rule, so complete on singles);
- CNF: one variable per state of the inner layers, exactly one per layer, and for each
  transition ``state ∧ x(cell, d) → next state`` (a missing transition forbids the digit in
  that state), with the converse supports (a state needs a way in), so unit propagation
  follows the graph both ways and every grid has one assignment of the auxiliaries;
- CP-SAT: ``add_automaton`` over the cells' values, the states numbered per layer.

:class:`AutomatonRule` is the base of such kinds: they give :meth:`~AutomatonRule.sequence`
and :meth:`~AutomatonRule.automaton` and inherit the translations; their ``violations`` stay
their own, written from the rule.

>>> sum_is_5 = build(("doc sum", 5), 2, 4, 0, lambda s, i, v: s + v if s + v <= 5 else None,
...                  lambda s: s == 5)
>>> sum_is_5.narrow((0b1111, 0b0011))   # second cell 1 or 2: first cell 4 or 3
(12, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from sudoku_csp.constraints.base import Constraint
from sudoku_csp.constraints.remembered import on_forget
from sudoku_csp.constraints.translation import Clause, CnfContext, Link, templated
from sudoku_csp.constraints.wording import kept
from sudoku_csp.geometry import Geometry

if TYPE_CHECKING:
    from sudoku_csp.modeling.cpsat_model import CpSatModel

Step = Callable[[Any, int, int], Any]
"""``step(state, position, value)``: the state after reading ``value`` (``1..N``) at
``position`` (0-based) of the sequence, or ``None`` when no continuation can satisfy the rule."""

_MEMO = 50_000
"""Answers of :meth:`Automaton.narrow` one automaton remembers at most."""

_STATE_LIMIT = 20_000
"""The most states one layer may hold: a reading that remembers more is a kind's mistake."""


@dataclass(frozen=True)
class Automaton:
    """A layered automaton over ``length`` cells of a grid with ``n`` digits.

    ``edges[i]`` lists the transitions ``(state, digit, next)`` read at position ``i``
    (states numbered per layer from 0; layer 0 holds only the start, state 0; the last layer
    only the accepting end, state 0). Every state lies on some start-to-accept path.
    """

    length: int
    n: int
    sizes: tuple[int, ...]
    """How many states each layer ``0..length`` holds."""
    edges: tuple[tuple[tuple[int, int, int], ...], ...]
    name: Hashable = field(compare=False, repr=False)
    """What :func:`build` made it from, ``(key, length, n)``, which names its clauses' template
    (:meth:`AutomatonRule.cnf`)."""

    @property
    def empty(self) -> bool:
        """Whether no sequence of values satisfies the rule."""
        return not self.edges or not self.edges[0]

    @cached_property
    def _out(self) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
        """Per layer, per state: its transitions as (digit bit, next state bit)."""
        layers = []
        for i, edges in enumerate(self.edges):
            out: list[list[tuple[int, int]]] = [[] for _ in range(self.sizes[i])]
            for s, d, t in edges:
                out[s].append((1 << d, 1 << t))
            layers.append(tuple(map(tuple, out)))
        return tuple(layers)

    @cached_property
    def _memo(self) -> dict[tuple[int, ...], tuple[int, ...] | None]:
        return {}

    @cached_property
    def _tables(self) -> dict[tuple[tuple[tuple[int, ...], ...], int],
                              tuple[tuple[int, ...], ...] | None]:
        return {}

    def table(self, apart: tuple[tuple[int, ...], ...], most: int
              ) -> tuple[tuple[int, ...], ...] | None:
        """Every sequence of digits the automaton accepts in which position ``i`` differs
        from each earlier position of ``apart[i]`` (cells that see each other), in
        lexicographic order; ``None`` when there are more than ``most``. Remembered per
        ``apart`` and ``most``.

        >>> pair = build(("doc sum", 4), 2, 4, 0, lambda s, i, v: s + v if s + v <= 4 else None,
        ...              lambda s: s == 4)
        >>> pair.table(((), ()), 10), pair.table(((), (0,)), 10), pair.table(((), ()), 2)
        (((0, 2), (1, 1), (2, 0)), ((0, 2), (2, 0)), None)
        """
        key = (apart, most)
        if key not in self._tables:
            self._tables[key] = self._table(apart, most)
        return self._tables[key]

    def _table(self, apart: tuple[tuple[int, ...], ...], most: int
               ) -> tuple[tuple[int, ...], ...] | None:
        out: list[list[list[tuple[int, int]]]] = []
        for i, edges in enumerate(self.edges):
            layer: list[list[tuple[int, int]]] = [[] for _ in range(self.sizes[i])]
            for s, d, t in sorted(edges, key=lambda e: e[1]):
                layer[s].append((d, t))
            out.append(layer)
        rows: list[tuple[int, ...]] = []
        row: list[int] = []
        # depth first over the layers: every full path is accepted (each state lies on a
        # start-to-accept path), so a row is a path whose digits keep ``apart``
        stack = [iter(out[0][0])] if self.length and not self.empty else []
        while stack:
            i = len(stack) - 1
            step = next(stack[-1], None)
            if step is None:
                stack.pop()
                if row:
                    row.pop()
                continue
            d, t = step
            if any(row[j] == d for j in apart[i]):
                continue
            if i == self.length - 1:
                rows.append((*row, d))
                if len(rows) > most:
                    return None
                continue
            row.append(d)
            stack.append(iter(out[i + 1][t]))
        return tuple(rows)

    def narrow(self, masks: tuple[int, ...]) -> tuple[int, ...] | None:
        """Each cell's digits that lie on an accepting path through the candidate
        ``masks`` (one per position), or ``None`` when no path is left."""
        # The search meets the same candidates again and again (after each backtrack, and
        # on every line one automaton reads): answers are remembered, a bounded number.
        memo = self._memo
        if masks in memo:
            return memo[masks]
        if len(memo) >= _MEMO:
            memo.clear()
        found = memo[masks] = self._narrow(masks)
        return found

    def _narrow(self, masks: tuple[int, ...]) -> tuple[int, ...] | None:
        # Only the states reached are visited: once a few cells are settled the layers
        # hold few of them, which is what the search meets most.
        outs = self._out
        reach = [1]
        here = 1
        for out, mask in zip(outs, masks, strict=True):
            nxt = 0
            while here:
                low = here & -here
                here ^= low
                for digit, state in out[low.bit_length() - 1]:
                    if mask & digit:
                        nxt |= state
            if not nxt:
                return None
            reach.append(nxt)
            here = nxt
        found = [0] * self.length
        back = 1  # the accepting end
        for i in range(self.length - 1, -1, -1):
            out, mask, here = outs[i], masks[i], reach[i]
            support = alive = 0
            while here:
                low = here & -here
                here ^= low
                for digit, state in out[low.bit_length() - 1]:
                    if mask & digit and back & state:
                        support |= digit
                        alive |= low
            found[i] = support
            back = alive
        return tuple(found)

    def accepts(self, values: tuple[int, ...]) -> bool:
        """Whether the digits ``values`` (0-based, one per position) are read to the end."""
        return self.narrow(tuple(1 << v for v in values)) is not None

    # -- CNF --------------------------------------------------------------------------------
    def clauses(self, ctx: CnfContext, cells: tuple[int, ...],
                literal: Callable[[int, int], int | None] | None = None) -> Iterator[Clause]:
        """The clauses of the automaton over ``cells`` (see the module docstring); or, given
        ``literal``, over the literals ``literal(position, symbol)`` (``None``: the symbol
        cannot be read there), one true per position (the caller's clauses say so): an
        automaton over the sums of groups of cells
        (:mod:`sudoku_csp.constraints.group_sums`)."""
        n = self.n
        x: Callable[[int, int], int] = ctx.x
        if literal is not None:
            def read(position: int, d: int) -> int:
                found = literal(position, d)
                return 0 if found is None else found

            x, cells = read, tuple(range(self.length))
        if self.empty:
            yield ()
            return
        state: list[list[int]] = [[]]
        for size in self.sizes[1:-1]:
            state.append([ctx.new_var() for _ in range(size)])
        last = self.length - 1
        for i, (cell, edges) in enumerate(zip(cells, self.edges, strict=True)):
            here = state[i] if i else None
            out: dict[int, list[int]] = {}
            into: dict[int, list[tuple[int, int]]] = {}
            for s, d, t in edges:
                out.setdefault(s, []).append(d)
                into.setdefault(t, []).append((s, d))
            for s in range(self.sizes[i]):
                guard = () if here is None else (-here[s],)
                allowed = set(out.get(s, ()))
                for d in range(n):
                    if d not in allowed and x(cell, d):
                        yield (*guard, -x(cell, d))
            if i == last:
                continue
            nxt = state[i + 1]
            for s, d, t in edges:
                guard = () if here is None else (-here[s],)
                yield (*guard, -x(cell, d), nxt[t])
            for t, ways in into.items():
                yield (-nxt[t], *sorted({x(cell, d) for _, d in ways}))
                if here is not None:
                    yield (-nxt[t], *sorted({here[s] for s, _ in ways}))
            yield tuple(nxt)
            yield from ctx.at_most_one(nxt) if len(nxt) <= 6 else _sequential(ctx, nxt)

    # -- CP-SAT -----------------------------------------------------------------------------
    def add_to(self, model: CpSatModel, cells: tuple[int, ...]) -> None:
        """``add_automaton`` over the values of ``cells``, states numbered layer by layer."""
        if self.empty:
            model.model.add_bool_or([])
            return
        offsets = [0]
        for size in self.sizes:
            offsets.append(offsets[-1] + size)
        triples = [(offsets[i] + s, d + 1, offsets[i + 1] + t)
                   for i, edges in enumerate(self.edges) for s, d, t in edges]
        model.model.add_automaton([model.value(c) for c in cells], 0,
                                  [offsets[self.length]], triples)


def _sequential(ctx: CnfContext, lits: list[int]) -> list[list[int]]:
    """At most one of many literals with ``pysat.card``'s sequential counter (linear size)."""
    from pysat.card import CardEnc, EncType

    return CardEnc.atmost(lits, 1, vpool=ctx.pool, encoding=EncType.seqcounter).clauses


def build(key: Hashable, length: int, n: int, start: Hashable, step: Step,
          accept: Callable[[Any], bool]) -> Automaton:
    """The layered automaton of a reading over ``length`` cells of an ``n``-digit grid,
    cached by ``key`` (with ``length`` and ``n``): ``key`` must name everything ``step`` and
    ``accept`` depend on (``("little killer", 17)``).

    ``start`` is the state before the first cell; ``step(state, position, value)`` gives the
    next state (hashable) or ``None``; ``accept(state)`` says whether a state after the last
    cell satisfies the rule. ValueError when a layer would hold more than 20,000 states.
    """
    name = (key, length, n)
    found = _BUILT.get(name)
    if found is None:
        if len(_BUILT) >= _CACHED:
            _BUILT.clear()
        found = _BUILT[name] = _unroll(key, length, n, start, step, accept)
    return found


_BUILT: dict[tuple[Hashable, int, int], Automaton] = {}


def _forget_states() -> None:
    """Each automaton's narrowings per masks go; its structure stays."""
    for automaton in _BUILT.values():
        automaton.__dict__.pop("_memo", None)


on_forget(_forget_states)
_CACHED = 4096


def _unroll(key: Hashable, length: int, n: int, start: Hashable, step: Step,
            accept: Callable[[Any], bool]) -> Automaton:
    layers: list[dict[Any, int]] = [{start: 0}]
    raw: list[list[tuple[int, int, int]]] = []
    for i in range(length):
        nxt: dict[Any, int] = {}
        found = []
        for state, s in layers[-1].items():
            for d in range(n):
                t = step(state, i, d + 1)
                if t is None:
                    continue
                if i == length - 1:
                    if not accept(t):
                        continue
                    t = _END
                found.append((s, d, nxt.setdefault(t, len(nxt))))
        if len(nxt) > _STATE_LIMIT:
            raise ValueError(f"{key!r}: layer {i + 1} holds {len(nxt)} states")
        layers.append(nxt)
        raw.append(found)
    # Keep only states from which the end is reachable, numbered anew per layer.
    alive = {0} if length and layers[-1] else set()
    kept: list[list[tuple[int, int, int]]] = [[] for _ in range(length)]
    for i in range(length - 1, -1, -1):
        kept[i] = [e for e in raw[i] if e[2] in alive]
        alive = {s for s, _, _ in kept[i]}
    sizes = [1]
    renumbered = []
    numbers = {0: 0}
    for i in range(length):
        after: dict[int, int] = {}
        layer = []
        for s, d, t in kept[i]:
            layer.append((numbers[s], d, after.setdefault(t, len(after))))
        renumbered.append(tuple(layer))
        sizes.append(len(after))
        numbers = after
    return Automaton(length, n, tuple(sizes), tuple(renumbered), (key, length, n))


TEMPLATE_MOST_EDGES = 20_000
"""The most transitions an automaton may have for :meth:`AutomatonRule.cnf` to keep its
clauses as a template (about three clauses a transition): the dev corpus's and the
generated files' have 2,300 at most, a 16x16 skyscraper's about 7,000, a 25x25 one's
40,000, whose template, kept per clue, would hold some 15 MB. Larger ones are written
afresh each time, as every outside clue's was before stop 49."""

_END = ("end",)


class AutomatonRule(Constraint):
    """A kind whose rule is read along a sequence of its cells (arrows, little killers,
    sandwiches, skyscrapers, between lines, ...): it gives :meth:`sequence` (the cells in
    reading order, no cell twice) and :meth:`automaton` (from :func:`build`) and gets the
    native, CNF and CP-SAT translations. A kind may still override one (a linear sum in
    CP-SAT) where that measures faster."""

    def sequence(self, geometry: Geometry) -> tuple[int, ...]:
        """The cells in the order the automaton reads them; by default :meth:`touched`."""
        return self.touched()

    def automaton(self, geometry: Geometry) -> Automaton:
        """The automaton reading :meth:`sequence` (built with :func:`build`)."""
        raise NotImplementedError

    def native(self, geometry: Geometry) -> list[Link]:
        return [Link(self.sequence(geometry), self.automaton(geometry).narrow)]

    def cnf_automaton(self, ctx: CnfContext) -> Automaton:
        """The automaton :meth:`cnf` writes: :meth:`automaton`, unless a kind's encoding
        option chooses another reading of the rule."""
        return self.automaton(ctx.geometry)

    def cnf(self, ctx: CnfContext) -> Iterable[Clause]:
        """The clauses of :meth:`cnf_automaton` over :meth:`sequence`, from a template kept
        per automaton (:func:`~sudoku_csp.constraints.translation.templated`): a
        skyscraper's line is a thousand clauses or more, written literal by literal in 2-3
        ms."""
        automaton, cells = self.cnf_automaton(ctx), self.sequence(ctx.geometry)
        if sum(map(len, automaton.edges)) > TEMPLATE_MOST_EDGES:
            return automaton.clauses(ctx, cells)
        return templated(ctx, cells, ("automaton", automaton.name), automaton.clauses)

    def cpsat(self, model: CpSatModel) -> None:
        self.automaton(model.geometry).add_to(model, self.sequence(model.geometry))

    combines: ClassVar[bool] = True

    def why_link(self, geometry: Geometry, candidates: Sequence[int], link: Link,
                 gone: Sequence[tuple[int, int]]) -> str:
        """What the cells keep of the readings that fit (a kind says more in its own words)."""
        return "only some readings fit: " + kept(geometry, link.cells, candidates, gone)
