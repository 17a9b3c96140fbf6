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

from pysat.solvers import Solver

from sudoku_csp.constraints import Constraint, cnf_clauses
from sudoku_csp.constraints.fields import rc
from sudoku_csp.deadline import NEVER, Deadline
from sudoku_csp.encodings import cnf
from sudoku_csp.encodings.cnf import DEFAULT_AMO, DEFAULT_ENCODING
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import EMPTY, Grid
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsolver import DEFAULT_SOLVER, capabilities, load, solve_until
from sudoku_csp.verify import check_solutions


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
    behind a selector; :meth:`solve` takes the parts in force and any extra literals as
    assumptions. Every model it reads back is checked against the rules by
    :mod:`sudoku_csp.verify` before anyone sees it.

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
        when ``deadline`` passes first (loading the empty 35×35 grid takes seconds)."""
        self._caps = capabilities(solver)
        if not (self._caps.assumptions and self._caps.incremental):
            # Parts are switched on and off by assumptions: a solver that ignores them
            # would answer for another puzzle.
            raise InputError(f"the setter tools need a solver that takes assumptions "
                             f"incrementally; {solver} does not")
        self.puzzle = puzzle
        self.geometry = puzzle.geometry
        formula = cnf.build(self.geometry, encoding, amo, deadline=deadline)
        self.vars = formula.vars
        self._solver: Solver | None = load(solver, formula.clauses, formula.x_vars,
                                           deadline=deadline)
        self._next = formula.nv + 1
        self.parts = puzzle_parts(puzzle)
        self._literal: dict[Part, int] = {}
        try:
            for part in self.parts:
                if part.constraint is None:
                    self._literal[part] = self.vars.x(part.cell, part.digit)
                else:
                    deadline.check("loading the puzzle's constraints")
                    self._literal[part] = self.guard(cnf_clauses(
                        self.geometry, [part.constraint], start=self._next, options=options))
        except BaseException:
            self.close()
            raise
        self.calls = 0
        self.timed_out = False

    # -- the solver ---------------------------------------------------------------------------
    @property
    def solver(self) -> Solver:
        if self._solver is None:
            raise ValueError("the session is closed")
        return self._solver

    def close(self) -> None:
        if self._solver is not None:
            self._solver.delete()
            self._solver = None

    def __enter__(self) -> PartSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def selector(self) -> int:
        """A fresh variable above every variable in use."""
        var, self._next = self._next, self._next + 1
        return var

    def guard(self, built: tuple[list[list[int]], int]) -> int:
        """Add clauses (and the highest variable they use, as :func:`cnf_clauses` returns
        them) behind a new selector, which is returned: assumed, they hold; else not."""
        clauses, top = built
        self._next = max(self._next, top + 1)
        selector = self.selector()
        for clause in clauses:
            self.solver.add_clause([*clause, -selector])
        return selector

    def retire(self, selector: int) -> None:
        """Switch a selector's clauses off for good (the solver drops them as satisfied)."""
        self.solver.add_clause([-selector])

    def literal(self, cell: int, digit: int) -> int:
        """The literal of "``cell`` holds ``digit``"."""
        return self.vars.x(cell, digit)

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
        if deadline is not None and deadline.expired():
            self.timed_out = True
            return None
        self.calls += 1
        try:
            answer = solve_until(self.solver, self._caps,
                                 [*self.assumptions(parts), *extra], deadline)
        except KeyboardInterrupt:
            self.close()  # an interrupted solver may be unusable
            raise
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
        grid = self.vars.read_model(self.solver.get_model())
        whole = len(parts) == len(self.parts)
        check_solutions(self.puzzle if whole else puzzle_of(self.puzzle, parts), [grid],
                        "sat (setter tools)")
        return grid

    def core(self) -> list[int]:
        """The assumption literals the last unsatisfiable answer rests on."""
        return list(self.solver.get_core() or [])

    def exclude(self, solution: Sequence[int]) -> int:
        """A selector whose clause, assumed, rules out ``solution`` (the clause stays, off,
        while it is not assumed)."""
        selector = self.selector()
        self.solver.add_clause(self.vars.exclusion(solution, guard=-selector))
        return selector
