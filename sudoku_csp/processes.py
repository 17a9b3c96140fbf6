"""How worker processes start: by fork when that is safe, else from a forkserver.

The batch runner's pool (:mod:`sudoku_csp.batch.runner`) and a race's members
(:mod:`sudoku_csp.backends.race`) start their processes through :func:`context`.

fork starts a worker in milliseconds, with everything this process built already there
(solvers, templates); forkserver takes a few hundred milliseconds (a new interpreter that
imports what it runs), which a run of a thousand easy puzzles would not win back. But forking
a process that runs other threads (a Dask client, a progress bar's refresh thread, a
watchdog) can deadlock the child on a lock held at the fork, so then forkserver (the default
from Python 3.14) forks workers from a clean single-threaded server.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import time
from multiprocessing.context import BaseContext

__all__ = ["context", "single_threaded"]


def single_threaded() -> bool:
    """Whether this process runs one thread, native threads included (Linux /proc)."""
    if threading.active_count() > 1:
        return False
    # A thread just joined (the previous pool's manager) lingers in /proc for a moment after
    # Python lets go of it: look again for up to 20 ms before settling for forkserver.
    for _ in range(10):
        try:
            if len(os.listdir("/proc/self/task")) == 1:
                return True
        except OSError:
            return False
        time.sleep(0.002)
    return False


def context(method: str | None = None) -> BaseContext:
    """The multiprocessing context to start workers with: ``method`` (``"fork"``,
    ``"forkserver"``, ``"spawn"``) when given; else ``"fork"`` on Linux while this process
    runs a single thread, else ``"forkserver"`` where there is one, else the platform's
    default."""
    if method is None:
        methods = multiprocessing.get_all_start_methods()
        if sys.platform.startswith("linux") and "fork" in methods and single_threaded():
            method = "fork"
        elif "forkserver" in methods:
            method = "forkserver"
    return multiprocessing.get_context(method)
