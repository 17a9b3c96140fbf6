"""Research API: formulas and models built from a :class:`~sudoku_csp.geometry.Geometry`.

Builders only — nothing here solves. Each encoding family lives in its own submodule and is
imported by name, so a missing optional library breaks only its own family::

    from sudoku_csp.encodings import cnf      # CNF for SAT solvers (needs python-sat)

This package imports nothing at start-up on purpose.
"""
