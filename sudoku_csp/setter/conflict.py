"""Why a puzzle has no solution: a minimal set of its parts that cannot hold together.

The parts are the puzzle's givens and the parts of its typed constraints (a cage, a line, a
dot, an outside clue: :meth:`~sudoku_csp.constraints.base.Constraint.parts`); the grid's own
rules (rows, columns, boxes, the geometry's variants) always hold. Each part is one
assumption of a :class:`~sudoku_csp.setter.session.PartSession` (a given its cell literal, a
constraint part its selector), so the solver's unsatisfiable core names parts directly. The
core is then shrunk by deletion: each part in turn is left out, and kept only if the rest
then has a solution; a part whose removal still leaves no solution goes, and the new core
(often smaller still) replaces the old. What remains is *minimal*: leave out any one part
and the others have a solution. A time limit stops the shrinking early; the parts then still
conflict, but some may be spare, and the result says so.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sudoku_csp.constraints.fields import rc
from sudoku_csp.deadline import Deadline, Expired, Limit
from sudoku_csp.io import as_puzzle
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.satsolver import DEFAULT_SOLVER
from sudoku_csp.setter.session import Part, PartSession, puzzle_parts

if TYPE_CHECKING:
    from sudoku_csp.render import Highlights


@dataclass(frozen=True)
class Conflict:
    """Parts of ``puzzle`` that no grid satisfies together.

    ``proven``: the solver showed these parts conflict (False only when the time limit
    passed before it could answer: then ``parts`` is every part, unchecked). ``minimal``:
    leaving out any one part leaves a puzzle with a solution (False when the time limit
    stopped the shrinking). No parts at all: the grid's rules alone have no solution.

    >>> from sudoku_csp import parse
    >>> c = minimal_conflict(parse("..21" "4..." "..1." "...."))
    >>> c.message()   # R1C1 and R1C2 hold 3 and 4, but 4 is taken in their box and column
    'no solution: these 3 parts conflict: given R1C3=2, given R1C4=1, given R2C1=4'
    >>> c.minimal, c.cells()
    (True, (2, 3, 4))
    """

    puzzle: Puzzle
    parts: tuple[Part, ...]
    proven: bool = True
    minimal: bool = True
    calls: int = 0
    seconds: float = 0.0

    def names(self) -> list[str]:
        """Each part as a report names it (``given R3C4=7``, ``cage 14 at R1C1–R2C1``)."""
        return [p.name for p in self.parts]

    def cells(self) -> tuple[int, ...]:
        """Every cell the parts name, in order of first mention."""
        cells: dict[int, None] = {}
        for part in self.parts:
            if part.constraint is None:
                cells[part.cell] = None
            else:
                cells.update(dict.fromkeys(part.constraint.touched()))
        return tuple(cells)

    def highlights(self) -> Highlights:
        """What a picture of the puzzle highlights for the conflict: the cells its parts
        name; none when the time limit left it unproven (its parts are then every part).

        >>> from sudoku_csp import parse
        >>> minimal_conflict(parse("..21" "4..." "..1." "....")).highlights().cells
        (2, 3, 4)
        """
        from sudoku_csp.render import Highlights  # noqa: PLC0415 - pictures only

        return Highlights(cells=self.cells() if self.proven else ())

    def message(self) -> str:
        """One line: ``no solution: these 2 parts conflict: given R1C2=2, given R4C4=2``."""
        if not self.proven:
            return "no conflict shown within the time limit"
        if not self.parts:
            return (f"no solution: the rules of a {self.puzzle.geometry.name} grid alone "
                    "have none")
        spare = "" if self.minimal else " (the time limit ended the search for a smaller set)"
        if len(self.parts) == 1:
            return f"no solution: this part cannot hold: {self.parts[0].name}{spare}"
        return (f"no solution: these {len(self.parts)} parts conflict: "
                f"{', '.join(self.names())}{spare}")

    def to_json(self) -> dict[str, Any]:
        """The record's fields: ``conflict`` (the parts' names), ``conflict_cells``,
        ``conflict_minimal``, ``conflict_seconds``."""
        g = self.puzzle.geometry
        return {"conflict": self.names(),
                "conflict_cells": [rc(g, c) for c in self.cells()],
                "conflict_minimal": self.minimal and self.proven,
                "conflict_seconds": round(self.seconds, 4)}


def minimal_conflict(puzzle: Puzzle | str, *, time_limit: Limit = None,
                     solver: str = DEFAULT_SOLVER) -> Conflict | None:
    """A minimal set of ``puzzle``'s parts that cannot hold together (see the module
    docstring), or None when the puzzle has a solution. ``time_limit`` (seconds, or the
    caller's :class:`~sudoku_csp.deadline.Deadline`: a command that found the verdict first
    passes what is left of its time) bounds the whole search: what it stops is said in the
    result (:attr:`Conflict.minimal`, :attr:`Conflict.proven`).

    >>> from sudoku_csp import parse
    >>> minimal_conflict(parse("1..." + "." * 12)) is None
    True
    """
    puzzle = as_puzzle(puzzle)
    start = time.monotonic()
    deadline = Deadline.of(time_limit)
    try:
        loaded = PartSession(puzzle, solver=solver, deadline=deadline)
    except Expired:  # loading took all the time: every part, unchecked
        return Conflict(puzzle, tuple(puzzle_parts(puzzle)), False, False, 0,
                        time.monotonic() - start)
    with loaded as session:
        def done(parts: list[Part], *, proven: bool = True, minimal: bool = True) -> Conflict:
            order = {p: i for i, p in enumerate(session.parts)}
            return Conflict(puzzle, tuple(sorted(parts, key=order.__getitem__)), proven,
                            minimal, session.calls, time.monotonic() - start)

        answer = session.satisfiable(session.parts, deadline=deadline)
        if answer:
            return None
        if answer is None:
            return done(session.parts, proven=False, minimal=False)
        current = _core(session, session.parts)
        # Constraint parts are tried first: what is left leans on givens where it can,
        # which a setter changes more readily than a rule.
        for part in sorted(current, key=lambda p: p.is_given):
            if part not in current:
                continue  # already gone with a smaller core
            rest = [p for p in current if p != part]
            # A grid for the rest, checked against the rules of the rest, is what makes
            # "this part is needed" a claim anyone can check.
            if session.solve(rest, deadline=deadline) is None:
                if session.timed_out:
                    return done(current, minimal=False)
                current = _core(session, rest)
        return done(current)


def _core(session: PartSession, parts: list[Part]) -> list[Part]:
    """The parts of the last unsatisfiable answer's core (asked under ``parts``)."""
    core = set(session.core())
    return [p for p, lit in zip(parts, session.assumptions(parts), strict=True) if lit in core]
