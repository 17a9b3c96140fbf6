"""Research API: formulas and models built from a :class:`~sudoku_csp.geometry.Geometry`.

Builders only — nothing here solves. Each encoding family lives in its own submodule and is
imported by name, so a missing optional library breaks only its own family::

    from sudoku_csp.encodings import cnf        # named encodings, formulas (python-sat)
    from sudoku_csp.encodings import families   # the clause families encodings are made of
    from sudoku_csp.modeling import variables  # the one numbering of CNF variables
    from sudoku_csp.encodings import dimacs     # DIMACS text with a descriptive header
    from sudoku_csp.encodings import reference  # the repository's encodings/ folder
    from sudoku_csp.encodings import cpsat      # CP-SAT model builders (needs ortools)
    from sudoku_csp.modeling import cpsat_model  # their variables and the kinds' helpers

This package imports nothing at start-up on purpose.
"""
