"""``python -m sudoku_csp`` runs the command-line interface."""

from sudoku_csp.cli import main

if __name__ == "__main__":  # worker processes that re-import this module must not run it
    main()
