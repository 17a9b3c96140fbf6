"""What ``study`` prints: a study's rows as a table, JSON Lines or CSV, and the run of the
study of the kinds' encoding options (:mod:`sudoku_csp.study.options`) on puzzles with
typed constraints. The encodings study's own columns stay beside its command in
:mod:`sudoku_csp.cli.research`."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from sudoku_csp.cli.exits import Exit, err
from sudoku_csp.cli.output import Bar, Column, Note, pick_columns, print_table
from sudoku_csp.constraints.wording import counted

if TYPE_CHECKING:  # the study's modules are imported when a study runs
    from sudoku_csp.puzzle import Puzzle
    from sudoku_csp.study import Study

OPTIONS_COLUMNS: tuple[Column, ...] = (
    ("method", "spec", None, 0), ("variables", "vars", 0, 3), ("clauses", "clauses", 0, 2),
    ("propagation_pct", "UP %", 1, 1), ("decisions_mean", "dec.", 2, 2),
    ("conflicts_mean", "confl.", 2, 1), ("conflicts_median", "confl. med.", 1, 4),
    ("propagations_mean", "props", 0, 5), ("puzzles_per_s", "puz/s", 0, 1),
    ("not_unique", "not unique", 0, 4), ("effect", "effect", None, 0),
)
"""The table of the study of the kinds' encoding options (on puzzles with typed
constraints): a row per backend spec."""

OPTIONS_NOTES: tuple[Note, ...] = (
    (("variables", "clauses"), "vars/clauses: the sat backend's formula per puzzle, before "
                               "the givens"),
    (("propagation_pct",), "UP: the spec with search=off solves it (native: its rules)"),
    (("decisions_mean", "conflicts_mean", "conflicts_median", "propagations_mean"),
     "dec./confl./props: per puzzle, deciding uniqueness (native: nodes - 1, refuted "
     "branches)"),
    (("puzzles_per_s",), "puz/s: deciding uniqueness, the model's build included"),
    (("effect",), "effect: against the backend's first row (time per puzzle, conflicts, "
                  "clauses, as ratios)"),
)
"""The options table's caption, a part per column."""


def options_study(puzzles: list[Puzzle], specs: list[str] | None, files: list[str],
                  seconds: float, as_json: bool, as_csv: bool, columns: str | None) -> Exit:
    """``study`` of the kinds' encoding options within ``seconds``: each spec of ``specs``
    (:func:`~sudoku_csp.study.option_specs` of the puzzles when none), then its table; exit
    5 when the time limit, or a spec that cannot decide a puzzle, left rows unmeasured."""
    from sudoku_csp import study as studies

    chosen = pick_columns(OPTIONS_COLUMNS, columns)
    asked = specs or studies.option_specs(puzzles)
    with Bar(len(puzzles) * len(asked), "studying", always=True) as bar:
        found = studies.run_options_study(puzzles, specs=asked, progress=bar.advance,
                                          time_limit=seconds)
    for spec, why in found.undecided.items():
        err.print(f"not measured: {spec} (it left a puzzle undecided: {why})", markup=False)
    if found.unfinished:
        err.print(f"time limit reached ({seconds:g} s): not measured: "
                  f"{', '.join(found.unfinished)}"
                  + ("" if found.rows else "; no row was measured on every puzzle"),
                  markup=False)
    if found.rows:
        print_study(found, files, as_json, as_csv, OPTIONS_COLUMNS, OPTIONS_NOTES, chosen)
    return Exit.UNKNOWN if found.unfinished or found.undecided else Exit.OK


def print_study(found: Study, sources: list[str], as_json: bool, as_csv: bool,
                columns: tuple[Column, ...], notes: tuple[Note, ...],
                chosen: tuple[Column, ...] | None = None) -> None:
    """The study's rows as a rich table of ``columns`` (``chosen``: the columns
    ``--columns`` named), JSON Lines or CSV."""
    rows = [row.as_dict() for row in found.rows]
    n = rows[0]["puzzles"] if rows else 0
    print_table(rows, columns,
                title=(f"{', '.join(map(os.path.basename, sources))}: "
                       f"{counted(n, 'puzzle')}"),
                notes=notes, as_json=as_json, as_csv=as_csv,
                left=("method", "solver", "same_as", "effect"), chosen=chosen, width=220)
