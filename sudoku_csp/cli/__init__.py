"""The ``sudoku-csp`` command line: thin commands that parse, call the library and render.

- :mod:`~sudoku_csp.cli.app`: the typer application and ``--version``;
- :mod:`~sudoku_csp.cli.exits`: the exit codes (:class:`Exit`) and the one error handler;
- :mod:`~sudoku_csp.cli.options`: shared options, built from the library's tables;
- :mod:`~sudoku_csp.cli.output`: grids, lines, tables and progress bars;
- :mod:`~sudoku_csp.cli.solving`: solve, count, show, check, compare, solvers;
- :mod:`~sudoku_csp.cli.research`: encode, certify, verify-certificate, minimal, generate.

With a puzzle file or standard input, the exit code is 0 once every puzzle was processed,
unless the input held exactly one puzzle: then it is that puzzle's verdict.
"""

from __future__ import annotations

from sudoku_csp.cli import research, solving  # noqa: F401 - importing registers the commands
from sudoku_csp.cli.app import app
from sudoku_csp.cli.exits import Exit


def main() -> None:
    """Console-script entry point."""
    app()


__all__ = ["Exit", "app", "main"]
