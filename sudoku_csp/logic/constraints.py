"""Steps from a puzzle's typed constraints (:mod:`sudoku_csp.constraints`), whatever their
kind, and the weak links they give the chains.

Each deduction is one the native solver makes: a native link narrows its cells' candidates,
and a link that removes some is one step, worded by its constraint: its name and cells, then
why in the kind's own terms (:meth:`~sudoku_csp.constraints.base.Constraint.why_link`:
"A2 and A3 differ by at least 5: 5 in A3 has no partner at all", "only 1/2/3 add up to 6
here", "A2+A3+A4 = A1, at least 1+2+3 = 6"). Three techniques, by what the step weighs:

- ``constraint``: a link of a kind that holds one cell's candidates against another cell's
  or a fixed list (dots, XV, whispers and the other two-cell line rules, thermometer order,
  clones, palindromes, odd/even cells, extra regions, between and lockout lines);
- ``constraint_combination``: a link of a kind whose deductions weigh combinations of several
  cells' digits (:attr:`~sudoku_csp.constraints.base.Constraint.combines`: cage sets, sums
  along arrows, little killers, double arrows, zippers and region-sum lines, renban runs,
  quadruples, sandwich, X-sum and skyscraper readings);
- ``constraint_units``: a link that one kind's constraints imply together with the grid's
  units (:meth:`~sudoku_csp.constraints.base.Constraint.joint_native`: the 45 rule, a sum
  whose cells see each other read with different digits, a digit a renban line or a
  quadruple surely holds confined to one unit), worded by the link
  (:attr:`~sudoku_csp.constraints.base.Link.why`).

Sudoku Explainer rates no variant rule, so the ratings are this project's, placed on its
scale: a rule between two cells 2.0 (between the hidden single in a line and the naked
single: reading one neighbour's candidates is no harder than a direct hidden pair);
combinations 2.2 (weighing the sets or sums that fit several cells is more work, yet setters
of killers expect it before naked singles); with the units 2.6, pointing's rating, since like
pointing it joins a rule with a unit.

The other techniques stay sound beside constraints (units and peers are a subset of the
rules), and the chains and forcing chains use the constraints' weak links too
(:func:`weak_links`); uniqueness techniques are not used on such puzzles, since a cage or a
dot can forbid the swap they rely on.
"""

from __future__ import annotations

from functools import lru_cache

from sudoku_csp.constraints import Constraint, Link
from sudoku_csp.constraints.translation import link_words
from sudoku_csp.constraints.wording import digits_of
from sudoku_csp.geometry import Candidate, Geometry
from sudoku_csp.logic.board import Board, Contradiction
from sudoku_csp.logic.step import Step, cell_list, eliminated

__all__ = ["COMBINATION_RATING", "RULE_RATING", "UNITS_RATING", "WeakLinks",
           "check_constraints", "combination_step", "joint_links", "kind_steps", "linked_mask",
           "links_of", "named_links", "rule_step", "title", "units_step", "weak_links"]

RULE_RATING = 2.0
"""The rating of a step of a rule between cells (``constraint``)."""
COMBINATION_RATING = 2.2
"""The rating of a combination step (``constraint_combination``)."""
UNITS_RATING = 2.6
"""The rating of a step of constraints with the units (``constraint_units``)."""

WEAK_CELLS = 12
"""Links of more cells are not probed for weak links (a renban line's joint link with the
units it lies in, a 45-rule region): probing each candidate of each cell costs more than
the few links it adds beyond the constraint's own."""

WeakLinks = dict[Candidate, dict[Candidate, str]]
"""For a candidate, the candidates that cannot be true with it, each with the name of the
constraint that says so."""


@lru_cache(maxsize=4096)
def _links(geometry: Geometry, constraint: Constraint) -> tuple[Link, ...]:
    return tuple(constraint.native(geometry))


def links_of(geometry: Geometry, constraint: Constraint) -> tuple[Link, ...]:
    """The constraint's own native links (made once per geometry and constraint)."""
    return _links(geometry, constraint)


def joint_links(geometry: Geometry, constraints: tuple[Constraint, ...]
                ) -> tuple[tuple[str, Link], ...]:
    """Every kind's joint links (:meth:`Constraint.joint_native`), each with the name its
    weak links go by (``cages with the units``), made once per puzzle."""
    return _joint(geometry, constraints)


@lru_cache(maxsize=256)
def _joint(geometry: Geometry, constraints: tuple[Constraint, ...]
           ) -> tuple[tuple[str, Link], ...]:
    """Every kind's joint links (:meth:`Constraint.joint_native`), each with the name its
    weak links go by (``cages with the units``)."""
    by_kind: dict[type[Constraint], list[Constraint]] = {}
    for c in constraints:
        by_kind.setdefault(type(c), []).append(c)
    return tuple((f"{kind.names.plural} with the units", link) for kind, mine in by_kind.items()
                 for link in kind.joint_native(
                     geometry, constraints if kind.joint_sees_all else mine))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def title(geometry: Geometry, constraint: Constraint) -> str:
    """The constraint's name, capitalised, and its cells unless it rules the whole grid (the
    dots: the reason names the cells)."""
    name = _capital(constraint.describe(geometry))
    return name if constraint.single else f"{name} ({cell_list(geometry, constraint.touched())})"


def _own_step(board: Board, technique: str, combines: bool) -> Step | None:
    """The first constraint of a kind that ``combines`` (or not) whose own native link
    removes candidates, as a step; Contradiction when one cannot be met at all."""
    g = board.geometry
    for constraint in board.constraints:
        if constraint.combines != combines:
            continue
        board.check_time()
        for link in _links(g, constraint):
            gone = board.ruled_out(link, constraint.describe(g))
            if gone:
                reason = constraint.why_link(g, board.cand, link, gone)
                what = title(g, constraint)
                return Step(technique, 0.0,
                            f"{what}: {reason} → eliminates {eliminated(g, gone)}" if reason
                            else f"{what} → eliminates {eliminated(g, gone)}",
                            eliminations=tuple(sorted(gone)), cells=link.cells)
    return None


def rule_step(board: Board) -> Step | None:
    """A constraint's rule between cells narrows candidates (``constraint``)."""
    return _own_step(board, "constraint", False)


def combination_step(board: Board) -> Step | None:
    """A constraint's combinations narrow candidates (``constraint_combination``)."""
    return _own_step(board, "constraint_combination", True)


def units_step(board: Board) -> Step | None:
    """What a kind's constraints imply with the units narrows candidates
    (``constraint_units``)."""
    g = board.geometry
    for name, link in _joint(g, board.constraints):
        board.check_time()
        gone = board.ruled_out(link, name)
        if gone:
            why = link_words(link, board.cand, gone)
            what = _capital(why or f"{name} ({cell_list(g, link.cells)})")
            return Step("constraint_units", 0.0, f"{what} → eliminates {eliminated(g, gone)}",
                        eliminations=tuple(sorted(gone)), cells=link.cells)
    return None


def kind_steps(kind: type[Constraint]) -> tuple[str, ...]:
    """The techniques a kind's deductions come as in explanations: ``constraint`` or
    ``constraint_combination`` for its own links (by its
    :attr:`~sudoku_csp.constraints.base.Constraint.combines`), and ``constraint_units`` when
    its constraints have joint links; none for a kind without native links, nor for a
    :attr:`~sudoku_csp.constraints.base.Constraint.starting` one (applied before the first
    step).

    >>> from sudoku_csp.constraints import Cage, PencilMarks, Thermo
    >>> kind_steps(Cage), kind_steps(Thermo), kind_steps(PencilMarks)
    (('constraint_combination', 'constraint_units'), ('constraint',), ())
    """
    if kind.starting or not kind.translates("native"):
        return ()
    own = "constraint_combination" if kind.combines else "constraint"
    return (own, "constraint_units") if kind.has_own("joint_native") else (own,)


def check_constraints(board: Board) -> None:
    """Raise :class:`~sudoku_csp.logic.board.Contradiction` unless every constraint accepts
    the pencil marks (on a full grid: unless the grid keeps every constraint, as links are
    complete on singles)."""
    g, cand = board.geometry, board.cand
    for constraint in board.constraints:
        for link in _links(g, constraint):
            if link.narrow(tuple(cand[c] for c in link.cells)) is None:
                raise Contradiction(f"{constraint.describe(g)} cannot be met")


# -- weak links -------------------------------------------------------------------------------
def weak_links(board: Board) -> WeakLinks:
    """The pairs of candidates of open cells that the puzzle's constraints forbid together
    on these pencil marks, both ways, each named by the constraint that forbids it: empty
    for a puzzle without constraints.

    They come from the links themselves, so every kind has them (a cage: one digit twice, or
    two digits no set of its sum holds together; a whispers line: neighbours too close; a
    thermometer: a bulb not below its stem; a clone: two different digits): with a cell's
    mask set to one candidate, what a link then removes from its other cells cannot be true
    with it, since a link never removes a digit that a solution uses (the contract of
    :class:`~sudoku_csp.constraints.base.Link`). Pairs the units already link (two
    candidates of one cell, one digit in two peers) are left out.
    """
    if not board.constraints:
        return {}
    return _weak(board.geometry, board.constraints, tuple(board.cand), board.state.placed)


def linked_mask(board: Board, extra: WeakLinks, source: Candidate,
                memo: dict[Candidate, int]) -> int:
    """The candidates of open cells weakly linked to ``source`` (the cell's others, the
    digit in its peers, the constraints' weak links ``extra``: :func:`weak_links`) as a mask
    (bit ``cell * size + digit``, :meth:`Board.unmask`), kept in ``memo``, the position's
    (``board.cached("weak sets", dict)``: pointing and fish through the rules and the static
    forcing chains read the same masks).

    >>> from sudoku_csp import parse
    >>> b = Board.from_puzzle(parse("12.." "...." "...." "...."))
    >>> b.unmask(linked_mask(b, {}, (2, 2), {}))   # A3=3: A3's 4, and 3 in A4, B3, B4, C3, D3
    [(2, 3), (3, 2), (6, 2), (7, 2), (10, 2), (14, 2)]
    """
    found = memo.get(source)
    if found is None:
        c, d = source
        size = board.size
        near = board.layout.peer_spread[c] << d | (board.cand[c] & ~(1 << d)) << (c * size)
        for y, e in extra.get(source, ()):
            near |= 1 << (y * size + e)
        found = memo[source] = near & board.open_candidates()
    return found


def named_links(board: Board) -> tuple[tuple[str, Link], ...]:
    """Every native link of the puzzle's constraints, their own and their kinds' joint ones,
    each with the name of what it rules (``cage 15 at A1``, ``cages with the units``)."""
    return _named(board.geometry, board.constraints)


@lru_cache(maxsize=64)
def _named(geometry: Geometry, constraints: tuple[Constraint, ...]
           ) -> tuple[tuple[str, Link], ...]:
    own = tuple((c.describe(geometry), link) for c in constraints
                for link in _links(geometry, c))
    return own + _joint(geometry, constraints)


@lru_cache(maxsize=8)
def _weak(geometry: Geometry, constraints: tuple[Constraint, ...], cand: tuple[int, ...],
          placed: int) -> WeakLinks:
    found: WeakLinks = {}
    for name, link in _named(geometry, constraints):
        cells = link.cells
        if len(cells) > WEAK_CELLS:
            continue
        for a, b in _pairs(geometry, link, tuple(cand[c] for c in cells),
                           tuple(placed >> c & 1 for c in cells)):
            # setdefault(a, {}).setdefault(b, name) both ways, without an empty dict made
            # per pair: thousands of pairs a position
            near = found.get(a)
            if near is None:
                found[a] = {b: name}
            elif b not in near:
                near[b] = name
            near = found.get(b)
            if near is None:
                found[b] = {a: name}
            elif a not in near:
                near[a] = name
    return found


@lru_cache(maxsize=1 << 16)
def _pairs(geometry: Geometry, link: Link, masks: tuple[int, ...], placed: tuple[int, ...]
           ) -> tuple[tuple[Candidate, Candidate], ...]:
    """The weak links ``link`` gives on its cells' ``masks`` (``placed``: which of its
    cells are placed), as pairs of candidates in the order found: worked out once per link
    and masks, so that a link whose cells did not change is not probed again."""
    cells = link.cells
    found: list[tuple[Candidate, Candidate]] = []
    for i, cell in enumerate(cells):
        mask = masks[i]
        if placed[i] or not mask & (mask - 1):
            continue
        for d in digits_of(mask):
            out = link.narrow((*masks[:i], 1 << d, *masks[i + 1:]))
            if out is None:
                continue  # the candidate is false alone: the constraint step removes it
            for j, (other, before, after) in enumerate(zip(cells, masks, out, strict=True)):
                lost = before & ~after
                if j == i or other == cell or not lost or placed[j]:
                    continue
                for e in digits_of(lost):
                    if e == d and geometry.are_peers(cell, other):
                        continue
                    found.append(((cell, d), (other, e)))
    return tuple(found)
