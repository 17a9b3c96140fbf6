"""The backend protocol, backend options, and the one place results are assembled.

Every backend builds its :class:`~sudoku_csp.result.Result` through :func:`make_result`,
which checks each solution with the independent :mod:`sudoku_csp.verify` and refuses
duplicates, so no backend can report an unchecked answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, runtime_checkable

from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Grid
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.result import Result, Status, status_for
from sudoku_csp.verify import WrongSolutionError, check_solutions


class SpecError(InputError):
    """A backend spec string that names no backend, option or allowed value."""


@runtime_checkable
class Backend(Protocol):
    """A configured solver. ``solve`` looks for up to ``limit`` solutions (``None``: all)."""

    spec: str

    def solve(self, puzzle: Puzzle, *, limit: int | None = 1,
              time_limit: float | None = None) -> Result: ...


@dataclass(frozen=True)
class Option:
    """One option of a backend spec (``name=value``), with its default and allowed values.

    ``choices`` lists allowed values; ``kind`` converts the text (``int``, ``str``).
    ``open_choices`` means other values are allowed too (checked by the backend itself).
    """

    name: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    kind: type = str
    open_choices: bool = False

    def convert(self, backend: str, text: str) -> Any:
        if self.choices and not self.open_choices and text not in self.choices:
            raise SpecError(f"{backend}: {self.name}={text!r} is not allowed; "
                            f"choose from {', '.join(self.choices)}")
        try:
            return self.kind(text)
        except ValueError:
            raise SpecError(f"{backend}: {self.name}={text!r} must be "
                            f"{'an integer' if self.kind is int else self.kind.__name__}") from None

    def describe(self) -> str:
        allowed = ", ".join(self.choices) if self.choices else self.kind.__name__
        if self.open_choices:
            allowed += ", ..."
        return f"{self.name}={allowed} (default {self.default}): {self.help}"


class BackendBase:
    """Shared spec handling: subclasses declare ``name`` and ``OPTIONS``."""

    name: ClassVar[str]
    description: ClassVar[str]
    OPTIONS: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, **options: Any) -> None:
        known = {o.name: o for o in self.OPTIONS}
        unknown = set(options) - known.keys()
        if unknown:
            raise SpecError(f"{self.name}: unknown option {', '.join(sorted(unknown))}; "
                            f"options are {', '.join(known) or 'none'}")
        self.options = {o.name: options.get(o.name, o.default) for o in self.OPTIONS}

    @property
    def spec(self) -> str:
        """Canonical spec: the backend name and every option that differs from its default."""
        changed = [f"{o.name}={self.options[o.name]}" for o in self.OPTIONS
                   if self.options[o.name] != o.default]
        return self.name + (":" + ",".join(changed) if changed else "")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"


def clash_result(puzzle: Puzzle, solver: str) -> Result | None:
    """``NONE`` naming the clash when two givens already break a rule, else ``None``."""
    clashes = puzzle.clashes()
    if not clashes:
        return None
    return Result(Status.NONE, solver=solver, message=puzzle.describe_clash(clashes[0]),
                  stats={"clashes": len(clashes)})


def make_result(
    puzzle: Puzzle,
    solutions: Sequence[Grid],
    *,
    limit: int | None,
    complete: bool,
    timed_out: bool,
    solver: str,
    seconds: float,
    stats: dict[str, Any],
    time_limit: float | None = None,
) -> Result:
    """Check every solution independently, then give the verdict.

    Raises :class:`~sudoku_csp.verify.WrongSolutionError` if a backend produced a grid that
    is not a solution, or the same solution twice (a wrong count is a wrong verdict).
    """
    solutions = tuple(tuple(s) for s in solutions)
    check_solutions(puzzle, solutions, solver)
    if len(set(solutions)) != len(solutions):
        raise WrongSolutionError(f"{solver} returned the same solution twice for "
                                 f"{puzzle.to_line()}")
    status = status_for(len(solutions), limit, complete)
    message = ""
    if timed_out:
        why = f"time limit of {time_limit:g} s" if time_limit is not None else "interruption"
        if status is Status.UNKNOWN:
            message = f"{why} reached"
        elif limit is None:  # a verdict holds, but the count was cut short
            message = f"{why} reached: at least {len(solutions)} solutions, count incomplete"
    return Result(status, solutions, stats, seconds, solver, message)
