"""One SAT solver holding one puzzle's rules part by part: what the setter tools ask.

The geometry's formula is loaded once; each *part* of the puzzle's typed constraints (a cage,
a line, one dot: :meth:`~sudoku_csp.constraints.base.Constraint.parts`) joins it behind a
selector of its own, and each given is an assumption literal. So one solver answers, without
reloading anything, "is there a solution with R4C7=3?" (true candidates), "which parts cannot
hold together?" (an unsatisfiable core over the selectors and givens) and "is there another
solution than these?" (exclusion clauses behind selectors of their own, switched on only for
the question that needs them, so they never narrow a later one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sudoku_csp.constraints import Constraint
from sudoku_csp.constraints.fields import rc
from sudoku_csp.deadline import NEVER, Deadline
from sudoku_csp.encodings import cnf
from sudoku_csp.encodings.cnf import DEFAULT_AMO, DEFAULT_ENCODING
from sudoku_csp.geometry import EMPTY, Grid
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsession import GeometrySession
from sudoku_csp.satsolver import DEFAULT_SOLVER


@dataclass(frozen=True)
class Part:
    """One piece of a puzzle a setter can take away: a given (``cell``, ``digit``) or a
    part of a typed constraint (``constraint``); ``name`` says which, cells named the
    f-puzzles way (``given R3C4=7``, ``cage 14 at R1C1–R2C1``); ``index``: its place among
    the puzzle's parts (two equal cages stay two parts)."""

    name: str
    index: int
    cell: int = EMPTY
    digit: int = EMPTY
    constraint: Constraint | None = None

    @property
    def is_given(self) -> bool:
        return self.constraint is None


def given_name(puzzle: Puzzle, cell: int, digit: int) -> str:
    """``R3C4=7``: a cell and the digit (0-based) it holds, as setters write a given.

    >>> from sudoku_csp import parse
    >>> given_name(parse("." * 16), 6, 2)
    'R2C3=3'
    """
    return f"{rc(puzzle.geometry, cell)}={digit + 1}"


def puzzle_parts(puzzle: Puzzle) -> list[Part]:
    """Every part of ``puzzle``: its givens in cell order, then its constraints' parts."""
    g = puzzle.geometry
    named: list[tuple[str, int, int, Constraint | None]] = [
        (f"given {given_name(puzzle, cell, d)}", cell, d, None)
        for cell, d in enumerate(puzzle.givens) if d != EMPTY]
    named += [(p.describe(g, lambda c: rc(g, c)), EMPTY, EMPTY, p)
              for constraint in puzzle.constraints for p in constraint.parts(g)]
    return [Part(name, i, cell, d, part) for i, (name, cell, d, part) in enumerate(named)]


def puzzle_of(puzzle: Puzzle, parts: Sequence[Part]) -> Puzzle:
    """The puzzle made of ``parts`` of ``puzzle`` (its geometry, those givens, those
    constraint parts; a kind a puzzle holds once gets its parts merged back into one).

    >>> from sudoku_csp import parse
    >>> p = parse("1..." "..2." "...." "....")
    >>> puzzle_of(p, puzzle_parts(p)[1:]).givens[:8]
    (-1, -1, -1, -1, -1, -1, 1, -1)
    """
    givens = [EMPTY] * puzzle.geometry.ncells
    kept: dict[type[Constraint], list[Constraint]] = {}
    for part in parts:
        if part.constraint is None:
            givens[part.cell] = part.digit
        else:
            kept.setdefault(type(part.constraint), []).append(part.constraint)
    constraints = [c for kind, mine in kept.items()
                   for c in (kind.merge(mine) if kind.single else mine)]
    return Puzzle(puzzle.geometry, tuple(givens), constraints=tuple(constraints))


class PartSession:
    """One solver loaded with ``puzzle``'s geometry and every part of its constraints, each
    behind a selector (:class:`~sudoku_csp.satsession.GeometrySession`, never rebuilt, so
    every selector holds for the session's life); :meth:`solve` takes the parts in force and
    any extra literals as assumptions. Every model it reads back is checked against the
    rules by :mod:`sudoku_csp.verify` before anyone sees it.

    Not thread-safe; close it (or use it as a context manager) to free the solver.

    >>> from sudoku_csp import parse
    >>> p = parse("1..." "..2." "...." "....")
    >>> with PartSession(p) as s:
    ...     grid = s.solve(s.parts)
    ...     s.solve(s.parts, [s.literal(1, 0)]) is None   # A2 cannot be 1 beside A1's 1
    True
    """

    def __init__(self, puzzle: Puzzle, *, solver: str = DEFAULT_SOLVER,
                 encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
                 options: cnf.Options = None, deadline: Deadline = NEVER) -> None:
        """Load the puzzle; :class:`~sudoku_csp.deadline.Expired` (nothing left loaded)
        when ``deadline`` passes first (loading the empty 35×35 grid takes seconds).
        InputError for a solver that cannot take assumptions incrementally: parts are
        switched on and off by assumptions, so it would answer for another puzzle."""
        self._sat = GeometrySession(puzzle.geometry, solver=solver, encoding=encoding,
                                    amo=amo, options=options, deadline=deadline)
        self.puzzle = puzzle
        self.geometry = puzzle.geometry
        self.parts = puzzle_parts(puzzle)
        self._literal: dict[Part, int] = {}
        try:
            with self._sat.until(deadline):
                self._sat.solver()
                for part in self.parts:
                    if part.constraint is None:
                        self._literal[part] = self._sat.literal(part.cell, part.digit)
                    else:
                        deadline.check("loading the puzzle's constraints")
                        self._literal[part] = self._sat.guard(part.constraint)
        except BaseException:
            self.close()
            raise
        self.timed_out = False

    # -- the solver ---------------------------------------------------------------------------
    @property
    def calls(self) -> int:
        """Solver calls made so far."""
        return self._sat.calls

    def close(self) -> None:
        self._sat.close()

    def __enter__(self) -> PartSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def guard(self, clauses: Sequence[Sequence[int]]) -> int:
        """A new selector behind which ``clauses`` (over the cell literals) join the solver:
        assumed, they hold; else not."""
        return self._sat.guard_clauses(clauses)

    def retire(self, selector: int) -> None:
        """Switch a selector's clauses off for good (the solver drops them as satisfied)."""
        self._sat.retire(selector)

    def literal(self, cell: int, digit: int) -> int:
        """The literal of "``cell`` holds ``digit``"."""
        return self._sat.literal(cell, digit)

    def assumptions(self, parts: Sequence[Part]) -> list[int]:
        return [self._literal[p] for p in parts]

    # -- questions ----------------------------------------------------------------------------
    def satisfiable(self, parts: Sequence[Part], extra: Sequence[int] = (),
                    deadline: Deadline | float | None = None) -> bool | None:
        """Whether the base rules, ``parts`` and the ``extra`` literals hold together; None
        when ``deadline`` (a :class:`~sudoku_csp.deadline.Deadline`, or a
        ``time.monotonic()`` value) passed first: then the solver is not called at all."""
        if deadline is not None and not isinstance(deadline, Deadline):
            deadline = Deadline(deadline)
        with self._sat.until(deadline or NEVER):
            answer = self._sat.ask([*self.assumptions(parts), *extra])
        if answer is None:
            self.timed_out = True
        return answer

    def solve(self, parts: Sequence[Part], extra: Sequence[int] = (),
              deadline: Deadline | float | None = None) -> Grid | None:
        """A solution under ``parts`` and ``extra`` (checked against the whole puzzle when
        every part is in force, else against the puzzle those parts make), or None (none,
        or the deadline passed: see :attr:`timed_out`)."""
        if not self.satisfiable(parts, extra, deadline):
            return None
        whole = len(parts) == len(self.parts)
        return self._sat.grid(self.puzzle if whole else puzzle_of(self.puzzle, parts))

    def core(self) -> list[int]:
        """The assumption literals the last unsatisfiable answer rests on."""
        return self._sat.core()

    def exclude(self, solution: Sequence[int]) -> int:
        """A selector whose clause, assumed, rules out ``solution`` (the clause stays, off,
        while it is not assumed)."""
        return self._sat.exclude(solution)
