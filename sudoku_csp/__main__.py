"""``python -m sudoku_csp`` runs the command-line interface."""

from sudoku_csp.cli import main

main()
