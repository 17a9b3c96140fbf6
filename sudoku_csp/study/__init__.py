"""The encodings study: what each CNF encoding of Sudoku lets unit propagation, failed-literal
probing and a CDCL solver do, beside the native solver's rule presets.

It reproduces the table of tdoku's benchmark (t-dillon/tdoku, ``benchmarks/``: MiniSat on its
minimal, natural, complete and augmented encodings; "%no_guess" and "guesses/puzzle") and goes
beyond it: clue-reduced formulas, any ``pysat.card`` at-most-one, any PySAT solver, probing,
and the native presets in the same columns, so that "which propagation equals which rule set"
can be read off.

Glossary
--------
- *method*: one row family: a named encoding with one at-most-one (``kind="cnf"``), the
  clue-reduced formula of an encoding (``"reduced"``), or a native rule preset (``"native"``;
  rule names joined by ``+`` work too).
- *propagation*: unit propagation alone under the givens (``Solver.propagate``), or the
  preset's rules to a fixpoint; a puzzle is *solved* by it when every cell gets its digit.
- *probing*: failed-literal probing to a fixpoint (:func:`~sudoku_csp.study.probing.probe`) over
  every variable of the formula, both signs; native presets are not probed.
- *search*: find a solution and prove that there is no other (tdoku's benchmark does the
  same: it asks for up to two), counting ``decisions``, ``conflicts`` and ``propagations``.

How it is measured: one loaded solver per (encoding, at-most-one) and the givens as
assumptions, never a formula per puzzle, except for clue-reduced formulas, which are per
puzzle by definition (a new solver for each). Search uses one solver per 21 puzzles, as tdoku's
benchmark does (it rebuilds MiniSat when more than 20 blocking-clause activators exist): a
solution is blocked by a clause guarded by the puzzle's selector, retired afterwards.

What "decisions" counts, per solver (tdoku's "guesses" are MiniSat decisions):

- MiniSat family (``minisat22``, ``glucose*``, ``maplesat``...): MiniSat counts one decision
  more per model found (the last pick, which finds every variable assigned; tdoku subtracts
  it), and PySAT's MiniSat numbers variables as DIMACS does, so variable 0 exists, occurs in
  no clause and is decided at least once per model found. :func:`decisions_of` subtracts both
  (two per model): a puzzle that propagation solves counts 0, as in tdoku's table. Variable 0
  may also be decided in a descent that ends in a conflict, so on hard puzzles the figure can
  exceed MiniSat's own count by the number of such descents (rare: by then it has the lowest
  activity of all).
- CaDiCaL: its own ``decisions`` counter, which counts neither assumptions nor a final pick.

>>> from sudoku_csp import datasets
>>> study = run_study(list(datasets.load("mixed9"))[:3], encodings=["extended"],
...                   solvers=["minisat22"], rules=["singles"], reduced=[])
>>> [row.method for row in study.rows]
['extended', 'native singles']
>>> study.propagated["extended"] == study.propagated["native singles"]
True
>>> study.rows[0].same_as
'native singles'
"""

from __future__ import annotations

from sudoku_csp.batch.plot import check_plot_path
from sudoku_csp.study.options import STUDY_BACKENDS, option_specs, run_options_study
from sudoku_csp.study.plot import plot_study
from sudoku_csp.study.run import run_study, work
from sudoku_csp.study.table import (
    ALL_ENCODINGS,
    SEARCH_IN_REACH,
    STUDY_PRESETS,
    STUDY_PROPAGATOR,
    STUDY_RECYCLE,
    STUDY_REDUCED,
    STUDY_SOLVERS,
    Method,
    Row,
    Study,
    decisions_of,
    methods,
)

__all__ = [
    "ALL_ENCODINGS", "SEARCH_IN_REACH", "STUDY_BACKENDS", "STUDY_PRESETS", "STUDY_PROPAGATOR",
    "STUDY_RECYCLE", "STUDY_REDUCED", "STUDY_SOLVERS", "Method", "Row", "Study",
    "check_plot_path", "decisions_of", "methods", "option_specs",
    "plot_study", "run_options_study", "run_study", "work",
]
