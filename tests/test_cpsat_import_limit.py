"""The time limit covers importing OR-Tools (issue 34, "every limit kept").

Importing ``ortools.sat.python.cp_model`` takes 0.2-1 s (it loads pandas). A CP-SAT solve
with a limit waits for it only until its deadline, then answers "unknown: time limit
reached"; the import goes on in a daemon thread and the next solve uses it.

No test here depends on the machine's speed: a slow import is simulated by an import that
waits on an event the test controls (in process, the loader's ``load``), or that never ends
(in a subprocess, a loader placed before every other on ``sys.meta_path``), and the limits
are either already expired, cancelled from inside the import, or far longer than any run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sudoku_csp import Status, parse
from sudoku_csp.backends.cpsat import CpSatBackend
from sudoku_csp.backends.registry import make_backend
from sudoku_csp.deadline import Cancellable, Deadline
from sudoku_csp.encodings import cpsat as encodings_cpsat

ROOT = Path(__file__).resolve().parents[1]
PUZZLE = "..5...3....27...4.3.69...2......5...7..3.2.15....4628...1....3.........68...1...."
SMALL = "3.1...4.2......."  # unique


class _SlowImport:
    """A ``load`` for the loader that blocks until :attr:`release` is set, then imports
    the real module: the import the test holds back. ``entered`` is set once it runs;
    ``on_enter`` runs then (a deadline cancelled while the import is under way)."""

    def __init__(self, on_enter=None) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.calls = 0
        self.on_enter = on_enter

    def __call__(self):
        self.calls += 1
        self.entered.set()
        if self.on_enter is not None:
            self.on_enter()
        assert self.release.wait(120), "the test never released the import"
        return encodings_cpsat._import_cp_model()


@pytest.fixture
def slow(monkeypatch):
    """A fresh loader whose import waits for the test; released and joined after it."""
    load = _SlowImport()
    state = encodings_cpsat._Import(load)
    monkeypatch.setattr(encodings_cpsat, "_IMPORT", state)
    yield load, state
    load.release.set()
    if state.thread is not None:
        state.thread.join(120)


def _unknown_at_the_limit(result) -> None:
    assert result.status is Status.UNKNOWN
    assert not result.complete and result.count == 0 and not result.solutions
    assert "time limit" in result.message and "reached" in result.message


def test_a_deadline_cancelled_during_the_import_is_an_honest_unknown_then_solves(slow):
    load, state = slow
    deadline = Cancellable.of_limit(None)  # no time limit: only the cancel ends the wait
    load.on_enter = deadline.cancel  # as a race cancels a loser while it still imports
    backend = CpSatBackend()
    _unknown_at_the_limit(backend.solve(parse(PUZZLE), limit=2, time_limit=deadline))
    assert load.entered.is_set() and state.module is None  # the import still runs
    load.release.set()
    assert state.thread is not None
    state.thread.join(120)
    result = backend.solve(parse(PUZZLE), limit=2, time_limit=Deadline.after(600))
    assert result.status is Status.UNIQUE and result.complete
    assert load.calls == 1  # the later solve took the import that went on


def test_an_expired_limit_answers_at_once_and_leaves_the_import_running(slow):
    load, state = slow
    result = CpSatBackend(model="boolean").solve(parse(SMALL), limit=2,
                                                 time_limit=Deadline.after(0))
    _unknown_at_the_limit(result)
    assert state.thread is not None and state.thread.daemon
    assert load.entered.wait(120)  # started, not waited for
    assert state.thread.is_alive()
    load.release.set()
    state.thread.join(120)
    assert CpSatBackend(model="boolean").solve(parse(SMALL), limit=2).status is Status.UNIQUE


def test_a_limit_that_runs_out_while_the_import_is_held_is_an_unknown(slow):
    # The import cannot end before the test releases it, whatever the machine's speed.
    load, state = slow
    _unknown_at_the_limit(CpSatBackend().solve(parse(SMALL), limit=1, time_limit=0.01))
    load.release.set()
    state.thread.join(120)
    assert CpSatBackend().solve(parse(SMALL), limit=1, time_limit=600).status is Status.SOLVED


def test_callers_without_a_limit_wait_for_the_import_under_way_no_deadlock(slow):
    load, state = slow
    assert CpSatBackend().prepare(0) is False  # started in the background
    assert load.entered.wait(120)
    got = []
    waiters = [threading.Thread(target=lambda: got.append(encodings_cpsat.cp_model_within()))
               for _ in range(2)]
    for waiter in waiters:
        waiter.start()
    load.release.set()
    for waiter in waiters:
        waiter.join(120)
    assert not any(w.is_alive() for w in waiters)
    assert len(got) == 2 and got[0] is got[1] is state.module is not None
    assert load.calls == 1
    assert CpSatBackend().prepare(0) is True


def test_an_import_that_fails_is_raised_not_reported_as_a_time_limit(monkeypatch):
    def broken():
        raise ImportError("no OR-Tools here")

    monkeypatch.setattr(encodings_cpsat, "_IMPORT", encodings_cpsat._Import(broken))
    for time_limit in (600, None):
        with pytest.raises(ImportError, match="no OR-Tools here"):
            CpSatBackend().solve(parse(SMALL), limit=2, time_limit=time_limit)


@pytest.mark.slow  # two member processes
def test_a_race_with_a_cpsat_member_still_decides():
    with make_backend("race:native,cpsat") as race:
        for text in (SMALL, PUZZLE):
            result = race.solve(parse(text), limit=2, time_limit=600)
            assert result.status is Status.UNIQUE and result.complete


# -- the command line, with an import that never ends ----------------------------------------
_BLOCKED_RUN = """
import importlib.machinery, pathlib, sys, threading
mark = pathlib.Path(sys.argv[1])

class NeverLoaded:
    # Finds cp_model and never finishes running it: as a slow import, only that module's
    # lock is held (a finder that blocked in find_spec would hold the interpreter's import
    # lock, which no real import does, and any later import elsewhere would wait on it).
    def find_spec(self, name, path=None, target=None):
        if name == "ortools.sat.python.cp_model":
            return importlib.machinery.ModuleSpec(name, self)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        mark.write_text("importing")
        threading.Event().wait()

sys.meta_path.insert(0, NeverLoaded())
sys.argv = ["sudoku-csp", *sys.argv[2:]]
import runpy
runpy.run_module("sudoku_csp", run_name="__main__", alter_sys=True)
"""


def _in_a_terminal() -> None:
    # SIGINT at its default, as a shell starts a program (a background pytest ignores it).
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _blocked(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, Path]:
    mark = tmp_path / "importing"
    proc = subprocess.Popen([sys.executable, "-c", _BLOCKED_RUN, str(mark), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            start_new_session=True, preexec_fn=_in_a_terminal)
    return proc, mark


def _finish(proc: subprocess.Popen, what: str) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"{what}: still running while OR-Tools imports")
    return proc.returncode, out.decode(), err.decode()


def test_count_with_a_limit_ends_while_ortools_is_still_importing(tmp_path):
    proc, mark = _blocked(tmp_path, "count", PUZZLE, "-s", "cpsat", "-t", "0.05")
    code, out, err = _finish(proc, "count -s cpsat -t 0.05")
    # (The limit may pass before the solve starts the import: the mark is not looked at.)
    assert (code, err) == (5, "")
    assert "unknown" in out and "time limit of 0.05 s reached" in out


@pytest.mark.slow  # three solvers in a subprocess
def test_check_with_a_limit_ends_while_ortools_is_still_importing(tmp_path):
    proc, mark = _blocked(tmp_path, "check", PUZZLE, "-s", "native", "-s", "cpsat",
                          "-t", "0.05", "--json")
    code, out, err = _finish(proc, "check -s native -s cpsat -t 0.05")
    assert err == ""
    assert code == 5  # decided by native alone: not cross-checked
    assert '"status":"unique"' in out.replace(" ", "") and "unknown" in out


def test_ctrl_c_while_waiting_for_the_import_interrupts(tmp_path):
    # A guard of the wait (main's code imported in the main thread and was interrupted too).
    proc, mark = _blocked(tmp_path, "count", PUZZLE, "-s", "cpsat", "-t", "600")
    give_up = time.monotonic() + 120
    while not mark.exists() and proc.poll() is None and time.monotonic() < give_up:
        time.sleep(0.02)
    assert mark.exists(), proc.poll()
    os.killpg(proc.pid, signal.SIGINT)
    code, out, err = _finish(proc, "count -s cpsat -t 600 after Ctrl-C")
    assert (code, err, out) == (130, "interrupted\n", "")


def test_a_ctrl_c_inside_the_import_is_the_interrupt(monkeypatch):
    # A Ctrl-C in a compiled module's initialisation (pybind11's) comes out of the import as
    # ImportError("initialization failed") caused by it: a notebook's caller gets the
    # KeyboardInterrupt, as in a search; an ImportError of another cause stays one.
    def interrupted(name):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise ImportError("initialization failed") from exc

    def missing(name):
        raise ImportError("no module named ortools")

    monkeypatch.setattr(encodings_cpsat.importlib, "import_module", interrupted)
    with pytest.raises(KeyboardInterrupt):
        encodings_cpsat._import_cp_model()
    monkeypatch.setattr(encodings_cpsat.importlib, "import_module", missing)
    with pytest.raises(ImportError, match="no module named ortools"):
        encodings_cpsat._import_cp_model()
