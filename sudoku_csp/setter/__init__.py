"""Setter tools: what a puzzle's setter asks beyond "is it unique?".

- :func:`true_candidates`: which digits some solution puts in each cell, and in how many
  solutions (:mod:`sudoku_csp.setter.candidates`);
- :func:`minimal_conflict`: which givens and constraints cannot hold together, when a
  puzzle has no solution (:mod:`sudoku_csp.setter.conflict`);
- :func:`disambiguate`: the givens that, added, make a puzzle with several solutions
  unique (:mod:`sudoku_csp.setter.disambiguation`).

All three ask one incremental SAT solver that holds the puzzle part by part
(:class:`~sudoku_csp.setter.session.PartSession`), and every solution it returns is checked
against the rules by :mod:`sudoku_csp.verify` first.
"""

from sudoku_csp.setter.candidates import DEFAULT_CAP, TrueCandidates, true_candidates
from sudoku_csp.setter.conflict import Conflict, minimal_conflict
from sudoku_csp.setter.disambiguation import Disambiguation, disambiguate
from sudoku_csp.setter.session import Part, PartSession, puzzle_of, puzzle_parts

__all__ = ["DEFAULT_CAP", "Conflict", "Disambiguation", "Part", "PartSession",
           "TrueCandidates", "disambiguate", "minimal_conflict", "puzzle_of", "puzzle_parts",
           "true_candidates"]
