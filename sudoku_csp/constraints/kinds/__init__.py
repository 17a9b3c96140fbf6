"""The constraint kinds, one module each: a kind owns all of itself (its data, JSON and
f-puzzles forms, its translation for every backend, its independent check, its picture, its
words and its generator; see :class:`~sudoku_csp.constraints.base.Constraint`).

The registry (:data:`sudoku_csp.constraints.KINDS`) imports these modules on its first use,
by the names it lists in :data:`~sudoku_csp.constraints.BUILT_IN`; this package imports
nothing itself.
"""
