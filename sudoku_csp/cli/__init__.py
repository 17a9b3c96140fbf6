"""The ``sudoku-csp`` command line: thin commands that parse, call the library and render.

- :mod:`~sudoku_csp.cli.app`: the typer application and ``--version``; it imports a
  command's module when that command is first needed (:data:`~sudoku_csp.cli.app.COMMANDS`),
  so that a command starts without the library the others use;
- :mod:`~sudoku_csp.cli.exits`: the exit codes (:class:`Exit`) and the one error handler;
- :mod:`~sudoku_csp.cli.options`: shared options, built from the library's tables;
- :mod:`~sudoku_csp.cli.output`: grids, lines, tables and progress bars;
- :mod:`~sudoku_csp.cli.solving`: solve, count, show, check, compare, solvers;
- :mod:`~sudoku_csp.cli.research`: encode, certify, verify-certificate, minimal, canon,
  study;
- :mod:`~sudoku_csp.cli.generating`: generate;
- :mod:`~sudoku_csp.cli.explain`: explain, hint, rate (human-style solving).

With a puzzle file or standard input, the exit code is 0 once every puzzle was processed,
unless the input held exactly one puzzle: then it is that puzzle's verdict.
"""

from __future__ import annotations

import os

from sudoku_csp.cli.app import app  # the command modules are imported when needed
from sudoku_csp.cli.exits import Exit, silence_stdout, stdout_identity, stdout_reader_gone


def main() -> None:
    """Console-script entry point."""
    before = stdout_identity()
    try:
        app()
    except SystemExit as exc:
        # rich (help pages, grids) meets a closed pipe by pointing standard output at
        # /dev/null and exiting 1: that is the reader's doing, not an error of ours.
        now = stdout_identity()
        silenced = now != before and now == stdout_identity(os.devnull)
        if exc.code == Exit.INTERNAL and (silenced or stdout_reader_gone()):
            silence_stdout()
            raise SystemExit(int(Exit.PIPE)) from None
        raise


__all__ = ["Exit", "app", "main"]
