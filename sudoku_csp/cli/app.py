"""The typer application: its name, help (with the exit-code table) and ``--version``.

The commands live in :mod:`sudoku_csp.cli.solving` and :mod:`sudoku_csp.cli.research` and
register themselves on :data:`app` when imported (``sudoku_csp.cli`` imports both).
"""

from __future__ import annotations

from typing import Annotated

import typer

from sudoku_csp import __version__
from sudoku_csp.cli.exits import exit_help
from sudoku_csp.cli.output import out

app = typer.Typer(
    name="sudoku-csp",
    help="Solve, count and study Sudoku puzzles with three independent solvers.\n\n"
         + exit_help(),
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion for bash, zsh, fish
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        out.print(f"sudoku-csp {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Show the version and exit.")] = False,
) -> None:
    """Solve, count and study Sudoku puzzles with three independent solvers."""
