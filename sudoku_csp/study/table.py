"""What the study measures and how it names it: the methods (rows), the rows' columns, a
study's result, and what "decisions" counts per solver."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from sudoku_csp.encodings import cnf
from sudoku_csp.native.rules import rule_names

Kind = Literal["cnf", "reduced", "native", "spec"]

STUDY_SOLVERS = ("minisat22", "cadical195")
"""Solvers the study searches with unless told otherwise: MiniSat to compare with tdoku's
table, CaDiCaL as a modern solver."""

SEARCH_IN_REACH = 16
"""The largest grid size the study's searches finish on in reasonable time: beyond it, a
search for the second solution of a sparse puzzle can run for hours (the command says so
before it starts; its time limit, Ctrl-C or SIGTERM stops it)."""
ALL_ENCODINGS = tuple(encoding.value for encoding in cnf.Encoding)
"""Every named encoding: the study's rows unless told otherwise."""
STUDY_PRESETS = ("eliminate", "singles", "locked", "pairs", "full")
"""Native presets shown beside the encodings unless told otherwise (``eliminate`` alone is
naked singles: what unit propagation does on ``minimal`` and ``natural``)."""
STUDY_REDUCED = (cnf.DEFAULT_ENCODING.value,)
"""Encodings whose clue-reduced formulas are studied unless told otherwise."""
STUDY_PROPAGATOR = "minisat22"
"""The solver that runs propagation and probing (any solver gives the same fixpoint)."""
STUDY_RECYCLE = 21
"""Puzzles per search solver before it is rebuilt: tdoku's benchmark rebuilds MiniSat before
a puzzle once more than 20 blocking-clause activators exist, so each instance serves 21."""
MINISAT_FAMILY = ("minisat", "glucose", "maple", "mergesat", "minicard", "gluecard")
"""Name prefixes of PySAT solvers built on MiniSat's search loop (see :func:`decisions_of`)."""


@dataclass(frozen=True)
class Method:
    """One family of rows: an encoding with an at-most-one, a clue-reduced formula, or a
    native preset.

    >>> Method("cnf", "extended", "seqcounter").label, Method("native", "locked").label
    ('extended/seqcounter', 'native locked')
    """

    kind: Kind
    name: str
    amo: str | None = None

    @property
    def label(self) -> str:
        amo = "" if self.amo in (None, cnf.DEFAULT_AMO) else f"/{self.amo}"
        prefix = {"cnf": "", "reduced": "reduced ", "native": "native ", "spec": ""}[self.kind]
        return f"{prefix}{self.name}{amo}"


@dataclass(frozen=True)
class Row:
    """One line of the study's table (``None``: not measured for this method). Sizes are
    per formula (means over the puzzles for clue-reduced ones); shares are percentages of
    the puzzles; decisions, conflicts and propagations are per puzzle, find and uniqueness
    proof together; ``same_as`` names the methods of the other side (native presets for an
    encoding, encodings for a preset) whose propagation solved exactly the same puzzles."""

    method: str
    kind: str
    encoding: str | None
    amo: str | None
    solver: str | None
    puzzles: int
    variables: float | None
    clauses: float | None
    literals: float | None
    propagation_pct: float | None
    same_as: str
    probing_pct: float | None
    probe_ms: float | None
    no_decision_pct: float | None
    decisions_mean: float | None
    decisions_median: float | None
    conflicts_mean: float | None
    conflicts_median: float | None
    propagations_mean: float | None
    propagations_median: float | None
    puzzles_per_s: float | None
    not_unique: int | None
    effect: str | None = None
    """The options study's (:mod:`sudoku_csp.study.options`): what this row changes against
    its backend's first row (time per puzzle, conflicts, clauses, as ratios)."""

    def as_dict(self) -> dict[str, Any]:
        """The row as JSON-ready values (floats rounded to 4 decimals)."""
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(self).items()}


@dataclass
class Study:
    """The study's result: its rows, and per method label the indices (into the puzzles
    given) of the puzzles propagation and probing solved."""

    rows: list[Row]
    propagated: dict[str, frozenset[int]] = field(default_factory=dict)
    probed: dict[str, frozenset[int]] = field(default_factory=dict)
    unfinished: list[str] = field(default_factory=list)
    """What the time limit left unmeasured, in table order: a method's label (none of its
    rows), or ``"label / solver"`` (that row only); empty when the study finished."""
    undecided: dict[str, str] = field(default_factory=dict)
    """Specs of the options study left unmeasured for a reason of their own, not the time
    limit: spec -> why it left a puzzle undecided (a node budget, propagation alone)."""


def methods(encodings: Iterable[str], amos: Iterable[str], reduced: Iterable[str],
            rules: Iterable[str]) -> list[Method]:
    """The methods asked for, checked (InputError on an unknown name), in table order:
    each encoding with each at-most-one, then each clue-reduced encoding with each, then the
    native presets (or rule names joined by ``+``, such as ``eliminate`` alone: naked
    singles).

    >>> [m.label for m in methods(["minimal"], ["pairwise", "ladder"], ["extended"], ["full"])]
    ['minimal', 'minimal/ladder', 'reduced extended', 'reduced extended/ladder', 'native full']
    """
    amo_list = [cnf.amo_of(a) for a in amos]
    found = [Method("cnf", cnf.encoding_of(e).value, a) for e in encodings for a in amo_list]
    found += [Method("reduced", cnf.encoding_of(e).value, a) for e in reduced for a in amo_list]
    for preset in rules:
        rule_names(preset)  # a preset or '+'-joined rule names (InputError otherwise)
        found.append(Method("native", preset))
    return found


def decisions_of(solver: str, stats: dict[str, int], models: int) -> int:
    """Decisions as tdoku counts guesses, from a solver's ``accum_stats()`` growth over
    calls that found ``models`` models (see the module docstring: two extra per model for
    PySAT's MiniSat family, none for CaDiCaL).

    >>> decisions_of("minisat22", {"decisions": 2}, 1)
    0
    >>> decisions_of("cadical195", {"decisions": 3}, 1)
    3
    """
    extra = 2 * models if solver.startswith(MINISAT_FAMILY) else 0
    return max(0, stats.get("decisions", 0) - extra)
