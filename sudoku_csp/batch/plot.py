"""The cactus plot of a batch summary: puzzles solved against time, one line per spec
(matplotlib, optional extra ``plot``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Literal

from sudoku_csp.batch.records import Outcome, Record
from sudoku_csp.batch.summary import Summary, summarize
from sudoku_csp.errors import InputError
from sudoku_csp.extras import require_extra

PLOT_FORMATS = (".png", ".svg", ".pdf")
"""The file extensions :func:`cactus_plot` writes (matplotlib picks the format by them)."""


def check_plot_path(path: str | os.PathLike, what: str = "cactus plot") -> None:
    """Everything a plot (:func:`cactus_plot`, or another one named by ``what``) needs to
    write ``path``, checked before a long run rather than after it: a known extension
    (InputError), matplotlib (MissingExtraError), and an existing, writable folder
    (InputError).

    >>> try:
    ...     check_plot_path("results.gif")
    ... except InputError as exc:
    ...     print(exc)
    results.gif: a cactus plot is written as .png, .svg, .pdf, not '.gif'
    """
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in PLOT_FORMATS:
        raise InputError(f"{os.fspath(path)}: a {what} is written as "
                         f"{', '.join(PLOT_FORMATS)}, not {ext!r}")
    require_extra("matplotlib.figure", "plot", f"the {what}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise InputError(f"{os.fspath(path)}: cannot write the plot there (no such folder, "
                         "or not writable)")


def cactus_plot(
    data: Summary | Iterable[Outcome | Record],
    path: str | os.PathLike,
    *,
    title: str | None = None,
    solved_axis: Literal["x", "y"] = "x",
) -> None:
    """Write a cactus plot to ``path`` (PNG, SVG or PDF, by extension): for each spec, its
    puzzles sorted by solve time, so the point (k, t) says "k puzzles took at most t each".
    Time is on a log axis; ``solved_axis="y"`` puts the count on the y axis instead (the
    "puzzles solved within t" reading). Only decided records count (not unknown or error).

    Needs matplotlib (extra ``plot``; MissingExtraError without it). Uses no pyplot state.
    """
    check_plot_path(path)
    ext = os.path.splitext(os.fspath(path))[1].lower()
    figure_module = require_extra("matplotlib.figure", "plot", "the cactus plot")
    summary = data if isinstance(data, Summary) else summarize(data)
    fig = figure_module.Figure(figsize=(7, 4.5), layout="constrained")
    ax = fig.subplots()
    for spec in summary.specs:
        ms = [1000 * t for t in summary.decided_times(spec)]
        counts = range(1, len(ms) + 1)
        xs, ys = (counts, ms) if solved_axis == "x" else (ms, counts)
        ax.plot(xs, ys, label=spec, drawstyle="steps-post", linewidth=1.5,
                marker="." if len(ms) <= 50 else None)
    if solved_axis == "x":
        ax.set_yscale("log")
        ax.set_xlabel("puzzles solved")
        ax.set_ylabel("time per puzzle (ms, log scale)")
    else:
        ax.set_xscale("log")
        ax.set_xlabel("time per puzzle (ms, log scale)")
        ax.set_ylabel("puzzles solved")
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title(title or "cactus plot: puzzles solved vs time")
    if summary.specs:
        ax.legend(fontsize="small")
    # No date in SVG/PDF metadata: the same records give the same file.
    fig.savefig(path, metadata={"Date": None} if ext in (".svg", ".pdf") else None)
