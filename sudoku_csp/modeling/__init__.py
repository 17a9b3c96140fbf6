"""The solver-facing vocabulary the constraint kinds translate into, below the kinds.

- :mod:`~sudoku_csp.modeling.variables`: the one numbering of CNF variables (cell-digit
  literals, triads, auxiliaries), which every encoding, backend and kind writes clauses in;
- :mod:`~sudoku_csp.modeling.cpsat_model`: a CP-SAT model's variables for a geometry and the
  model-neutral helpers a kind adds its rule with (``value``, ``all_different``,
  ``allow_pairs``, ...), whichever model kind (integer or Boolean) is built.

Nothing here knows a kind or a puzzle; the formulas and models of whole puzzles are built
above, in :mod:`sudoku_csp.encodings`. This package imports nothing at start-up.
"""
