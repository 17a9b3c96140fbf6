"""The study's plot (matplotlib, optional extra ``plot``)."""

from __future__ import annotations

import os

from sudoku_csp.batch.plot import check_plot_path
from sudoku_csp.extras import require_extra
from sudoku_csp.study.table import Study


def plot_study(study: Study, path: str | os.PathLike, title: str | None = None) -> None:
    """Write two panels to ``path`` (PNG, SVG or PDF): per method, the share of puzzles
    solved without search (propagation; probing), and the mean decisions per puzzle of each
    solver (log scale). Needs matplotlib (extra ``plot``); uses no pyplot state."""
    check_plot_path(path, "study plot")
    figure_module = require_extra("matplotlib.figure", "plot", "the study's plot")
    labels = list(dict.fromkeys(row.method for row in study.rows))
    first = {label: next(r for r in study.rows if r.method == label) for label in labels}
    solvers = list(dict.fromkeys(r.solver for r in study.rows if r.decisions_mean is not None))
    fig = figure_module.Figure(figsize=(11, 0.45 * len(labels) + 1.6), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True)
    ys = list(range(len(labels)))
    height = 0.38
    left.barh([y - height / 2 for y in ys], [first[m].propagation_pct for m in labels],
              height, label="unit propagation / rules")
    left.barh([y + height / 2 for y in ys], [first[m].probing_pct or 0 for m in labels],
              height, label="failed-literal probing")
    left.set_xlim(0, 100)
    left.set_xlabel("% of puzzles solved without search")
    left.set_yticks(ys, labels)
    left.invert_yaxis()
    left.legend(loc="lower right", fontsize="small")
    step = 0.8 / max(1, len(solvers))
    for k, solver in enumerate(solvers):
        values = []
        for m in labels:
            row = next((r for r in study.rows if r.method == m and r.solver == solver), None)
            values.append(row.decisions_mean if row and row.decisions_mean else 0)
        right.barh([y - 0.4 + step * (k + 0.5) for y in ys], values, step, label=solver)
    right.set_xscale("symlog", linthresh=1)
    right.set_xlabel("mean decisions per puzzle (find + uniqueness proof)")
    if solvers:
        right.legend(loc="lower right", fontsize="small")
    if title:
        fig.suptitle(title)
    fig.savefig(os.fspath(path))
