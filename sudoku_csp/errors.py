"""The two kinds of failure, so that every caller (and the CLI's exit code) can tell them apart.

- :class:`InputError`: what was given cannot be used — puzzle text or file, geometry, solver
  spec, option value. The user can fix it; the CLI exits 6. It is a ``ValueError``, so code
  that caught ``ValueError`` before keeps working.
- :class:`BackendError`: a solver or an encoding failed inside the library — a model that
  decodes to no grid, a solver status no table knows, a solution that breaks the rules. A
  bug, never the user's fault; the CLI exits 1 and says "internal error".

Each module raises a subclass that names its own failure (``GeometryError``, ``DecodeError``,
``CpSatError``, ``WrongSolutionError``, ...); the CLI catches only these two. The subclasses
that several layers raise live here, at the bottom: :class:`ParseError` (puzzle text, from
every reader), :class:`NoPuzzleError` and :class:`SpecError` (solver specs, from the
registry and from the PySAT layer below it).

>>> from sudoku_csp import ParseError, WrongSolutionError
>>> issubclass(ParseError, InputError), issubclass(WrongSolutionError, BackendError)
(True, True)
"""

from __future__ import annotations


class InputError(ValueError):
    """Input that cannot be used as given: puzzle text, file, geometry, spec or option."""


class BackendError(RuntimeError):
    """An internal failure of a backend or an encoding: a bug, not bad input."""


class ParseError(InputError):
    """Text that is not a puzzle. ``line`` and ``column`` are 1-based (``column`` may be None).

    >>> str(ParseError("unknown symbol 'x'", line=3, column=7))
    "line 3, column 7: unknown symbol 'x'"
    """

    def __init__(self, message: str, *, line: int = 1, column: int | None = None) -> None:
        self.reason = message
        self.line = line
        self.column = column
        where = f"line {line}" + (f", column {column}" if column is not None else "")
        super().__init__(f"{where}: {message}")

    def __reduce__(self):
        # Rebuilt from its parts, so it survives the trip back from a worker process.
        return _parse_error, (self.reason, self.line, self.column)


def _parse_error(reason: str, line: int, column: int | None) -> ParseError:
    return ParseError(reason, line=line, column=column)


class NoPuzzleError(ParseError):
    """A whole source (file, stream or text) without a puzzle: empty, or only blank lines and
    ``#`` comments. ``source`` names it when known; ``line`` is 1. A :class:`ParseError`, so
    that readers raise only that.

    >>> str(NoPuzzleError("p.txt", empty=True))
    'no puzzle in p.txt: it is empty'
    """

    def __init__(self, source: str | None = None, empty: bool = False) -> None:
        self.source = source
        self.empty = empty
        what = "it is empty" if empty else "it holds only # comments"
        message = f"no puzzle in {source or 'the input'}: {what}"
        # No "line 1:" in front as ParseError would put: the whole source is at fault.
        InputError.__init__(self, message)
        self.reason, self.line, self.column = message, 1, None

    def __reduce__(self):
        return NoPuzzleError, (self.source, self.empty)


class SpecError(InputError):
    """A backend spec string that names no backend, option or allowed value."""


class ReaderNote(UserWarning):
    """What a reader left out of a puzzle's rules and says so (decoration f-puzzles draws
    without a rule, keys the user asked to ignore), issued with :func:`warnings.warn`; the CLI
    prints it as ``note: ...`` on stderr. The puzzle keeps the words in ``notes``."""
