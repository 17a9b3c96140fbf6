"""The two kinds of failure, so that every caller (and the CLI's exit code) can tell them apart.

- :class:`InputError`: what was given cannot be used — puzzle text or file, geometry, solver
  spec, option value. The user can fix it; the CLI exits 6. It is a ``ValueError``, so code
  that caught ``ValueError`` before keeps working.
- :class:`BackendError`: a solver or an encoding failed inside the library — a model that
  decodes to no grid, a solver status no table knows, a solution that breaks the rules. A
  bug, never the user's fault; the CLI exits 1 and says "internal error".

Each module raises a subclass that names its own failure (``ParseError``, ``SpecError``,
``DecodeError``, ``CpSatError``, ``WrongSolutionError``, ...); the CLI catches only these two.

>>> from sudoku_csp import ParseError, WrongSolutionError
>>> issubclass(ParseError, InputError), issubclass(WrongSolutionError, BackendError)
(True, True)
"""

from __future__ import annotations


class InputError(ValueError):
    """Input that cannot be used as given: puzzle text, file, geometry, spec or option."""


class BackendError(RuntimeError):
    """An internal failure of a backend or an encoding: a bug, not bad input."""
