"""The native reference solver: bitmask candidates, named propagation rules, DFS search."""

from sudoku_csp.native.rules import (
    DEFAULT_RULES,
    PRESETS,
    RULES,
    eliminate,
    forward_check,
    hidden_pairs,
    locked_candidates,
    naked_pairs,
    naked_triples,
    only_choice,
    propagate,
    rule_names,
)
from sudoku_csp.native.search import (
    BRANCHING,
    DEFAULT_BRANCH,
    Searcher,
    SearchResult,
    SearchStats,
    propagate_puzzle,
)
from sudoku_csp.native.state import State, state_from_candidates, tables

__all__ = [
    "BRANCHING",
    "DEFAULT_BRANCH",
    "DEFAULT_RULES",
    "PRESETS",
    "RULES",
    "SearchResult",
    "SearchStats",
    "Searcher",
    "State",
    "eliminate",
    "forward_check",
    "hidden_pairs",
    "locked_candidates",
    "naked_pairs",
    "naked_triples",
    "only_choice",
    "propagate",
    "propagate_puzzle",
    "rule_names",
    "state_from_candidates",
    "tables",
]
