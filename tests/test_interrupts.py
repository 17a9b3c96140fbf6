"""Ctrl-C and SIGTERM: real signals sent to real runs (subprocesses), and the pieces in-process.

A run cut short must end with "interrupted" (130) or "terminated" (143) and nothing else on
stderr, keep every record it finished, write none for the search it cut ("unknown" is a
verdict, not "stopped"), and leave no process behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest
from cases import slow_if

import sudoku_csp
from sudoku_csp import interrupts, parse
from sudoku_csp.backends import make_backend
from sudoku_csp.backends.cpsat import TUNING
from sudoku_csp.encodings.cpsat import cp_model_within
from sudoku_csp.variants import make_geometry

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="signals and /proc as on Linux")

# The bundled 9x9 puzzles (unique; a few milliseconds each with every backend).
PUZZLES = [line for line in (Path(sudoku_csp.__file__).parent / "data" / "mixed9.txt")
           .read_text().splitlines() if line and not line.startswith("#")][:3]


def _in_a_terminal() -> None:
    """In a child before it starts: SIGINT at its default, as a shell starts a program in
    the foreground and Ctrl-C reaches it. The tests may run as a background job, where
    SIGINT is ignored, and a program keeps an ignored signal ignored (as sudoku-csp does:
    test_a_run_started_with_sigint_ignored_keeps_it_ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(autouse=True)
def _sigint_as_in_a_terminal():
    """Python's own SIGINT handler for each test here, given back after: the in-process
    tests send SIGINT to this process, which a background job would ignore."""
    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def _start(tmp_path: Path, args: list[str], copies: int) -> tuple[subprocess.Popen, str, Path]:
    """A run of ``sudoku-csp ARGS FILE --out records.jsonl`` in its own process group, on
    ``copies`` copies of the puzzles; its descendants carry a marker in their environment."""
    source = tmp_path / "puzzles.txt"
    source.write_text("\n".join(PUZZLES * copies) + "\n")
    out = tmp_path / "records.jsonl"
    marker = uuid.uuid4().hex
    env = {**os.environ, "SUDOKU_CSP_TEST_RUN": marker}
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_csp", *args, str(source), "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True,
        preexec_fn=_in_a_terminal)
    return proc, marker, out


def _wait_for_records(out: Path, proc: subprocess.Popen, at_least: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_text().count("\n") >= at_least:
            return
        time.sleep(0.02)
    pytest.fail(f"the run made no {at_least} records (exit {proc.poll()})")


def _survivors(marker: str) -> list[int]:
    """Processes still alive that the run started (its environment marker)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if f"SUDOKU_CSP_TEST_RUN={marker}".encode() in environ.split(b"\0") and state != "Z":
            alive.append(int(entry.name))
    return alive


def _finish(proc: subprocess.Popen, marker: str) -> tuple[int, str]:
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the run did not stop")
    deadline = time.monotonic() + 60  # a generous bound on an event, left at once
    while _survivors(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _survivors(marker)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes left behind: {left}"
    return proc.returncode, err.decode()


def _records(out: Path) -> list[dict]:
    return [json.loads(line) for line in out.read_text().splitlines()]


@pytest.mark.parametrize("jobs", slow_if(["1", "2"], lambda jobs: jobs == "2"))
def test_ctrl_c_stops_check_cleanly_and_resume_finishes(tmp_path, jobs):
    copies = 60  # 540 records; the Ctrl-C comes after the first 30
    proc, marker, out = _start(tmp_path, ["check", "--jobs", jobs], copies)
    _wait_for_records(out, proc, 30)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the whole process group
    code, err = _finish(proc, marker)
    assert (code, err) == (130, "interrupted\n")
    done = _records(out)
    assert 0 < len(done) < 3 * 3 * copies
    assert all(r["status"] != "unknown" for r in done)
    resumed = subprocess.run(
        [sys.executable, "-m", "sudoku_csp", "check", str(tmp_path / "puzzles.txt"),
         "--out", str(out), "--resume", "--jobs", jobs], capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    records = _records(out)
    assert len(records) == 3 * 3 * copies  # three backends per puzzle, none twice
    assert len({(r["index"], r["spec"]) for r in records}) == len(records)
    assert {r["status"] for r in records} == {"unique"}


def test_sigterm_stops_every_process_of_a_parallel_run(tmp_path):
    proc, marker, out = _start(tmp_path, ["check", "--jobs", "2"], 400)
    _wait_for_records(out, proc, 30)
    proc.send_signal(signal.SIGTERM)  # the main process only, as a job scheduler does
    code, err = _finish(proc, marker)
    assert (code, err) == (143, "terminated\n")
    assert all(r["status"] != "unknown" for r in _records(out))


def test_stopping_a_pool_ends_a_half_written_result():
    # A worker terminated while it wrote its result leaves half a message in the results
    # pipe; the pool's manager thread then waits in recv() for bytes no one will write, and
    # joining it hung a SIGTERM'd `check --jobs 2` now and then. Here the half message is
    # written by hand: stopping the pool must still end its manager thread.
    import struct
    from concurrent.futures import ProcessPoolExecutor

    from sudoku_csp.batch import runner

    # Its worker born with SIGTERM blocked, as one still starting is (interrupts.deferred):
    # terminating does not end it, so stopping kills it.
    with interrupts.deferred():
        pool = ProcessPoolExecutor(1, mp_context=runner._mp_context())
        assert pool.submit(abs, -3).result(timeout=60) == 3
    manager = pool._executor_manager_thread
    writer = pool._result_queue._writer
    os.write(writer.fileno(), struct.pack("!i", 100) + b"abc")  # 3 bytes of 100
    stopper = threading.Thread(target=runner._stop_pool, args=(pool,), daemon=True)
    stopper.start()
    stopper.join(30)
    assert not stopper.is_alive() and manager is not None and not manager.is_alive()


@pytest.mark.parametrize("delay", slow_if([0.05, 0.3], lambda delay: delay > 0.1))
def test_ctrl_c_while_workers_start_prints_no_traceback(tmp_path, delay):
    proc, marker, out = _start(tmp_path, ["count", "--jobs", "2"], 400)
    deadline = time.monotonic() + 30
    while not out.exists() and time.monotonic() < deadline:
        time.sleep(0.005)  # the records file is opened as the workers are started
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGINT)
    code, err = _finish(proc, marker)
    assert code in (0, 130) and err in ("", "interrupted\n"), err


@pytest.mark.parametrize("spec", slow_if(["native", "sat", "sat:solver=glucose4", "cpsat",
                                          "cpsat:model=boolean", "auto"],
                                         lambda s: s != "native"))
def test_ctrl_c_in_a_long_search_stops_it(spec):
    # Counting every solution of the empty 9x9 never ends: only the interrupt stops it.
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_csp", "count", "." * 81, "--limit", "0", "-s", spec],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=_in_a_terminal)
    # Deep in the search, however busy the machine: the CPU time it has used, not the wall
    # clock, says so (starting takes about half a second of CPU).
    _wait_for_cpu(proc, 1.5)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail(f"{spec}: Ctrl-C did not stop the search")
    assert (proc.returncode, err.decode(), out.decode()) == (130, "interrupted\n", "")


@pytest.mark.slow  # two members that search for a second and a half of CPU
def test_ctrl_c_stops_a_race_and_every_member():
    # The members block Ctrl-C (the race stops them); the race kills the ones still
    # searching and ends as every command does. The members' CPU time says the search is
    # deep (the race itself only waits).
    marker = uuid.uuid4().hex
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_csp", "count", "." * 81, "--limit", "0", "-s",
         "race:native,sat"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        env={**os.environ, "SUDOKU_CSP_TEST_RUN": marker}, preexec_fn=_in_a_terminal)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        members = [pid for pid in _survivors(marker) if pid != proc.pid]
        if len(members) >= 2 and sum(_cpu(SimpleNamespace(pid=pid)) for pid in members) >= 1.5:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"the members never searched (exit {proc.poll()})")
    os.killpg(proc.pid, signal.SIGINT)
    code, err = _finish(proc, marker)
    assert (code, err) == (130, "interrupted\n")


@pytest.mark.slow
def test_sigterm_stops_a_long_search_by_a_solver_without_interrupt(tmp_path):
    # CaDiCaL has no interrupt(): the search runs in slices, so that SIGTERM (which PySAT's
    # own handler does not catch) still ends it. An empty 25x25 keeps it busy.
    empty = tmp_path / "empty25.txt"
    empty.write_text("." * 625 + "\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_csp", "study", str(empty), "-e", "minimal",
         "--no-reduced", "--no-native", "--no-probing", "-s", "cadical195"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=_in_a_terminal)
    _wait_for_cpu(proc, 3.0)
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("SIGTERM did not stop the search")
    # The study's note that such a search is out of reach comes first, then the signal's.
    assert proc.returncode == 143 and err.decode().endswith("\nterminated\n")
    assert "Traceback" not in err.decode()


def _cpu(proc: subprocess.Popen) -> float:
    """The CPU time ``proc`` has used (user + system, all its threads), in seconds."""
    fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def _wait_for_cpu(proc: subprocess.Popen, seconds: float) -> None:
    """Until ``proc`` has used ``seconds`` of CPU (user + system, all its threads)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if _cpu(proc) >= seconds:
            return
        time.sleep(0.05)
    pytest.fail(f"the run used no {seconds} s of CPU (exit {proc.poll()})")


@pytest.mark.parametrize("after", slow_if([0.0, 0.05, 0.15, 0.3], lambda after: after > 0.1))
@pytest.mark.parametrize("entry", ["module", "script"])
def test_ctrl_c_while_the_program_starts_is_an_interrupt_not_a_traceback(after, entry):
    # Whenever the signal lands after the entry point's first line (loading the command
    # line, the solvers, or searching an empty grid that never ends), the program says
    # "interrupted" and exits 130. That first line installs a SIGTERM handler, which
    # /proc shows: the test waits for it, as a signal before it (Python still starting,
    # a loaded machine stretches that) is the interpreter's to take.
    script = Path(sys.executable).with_name("sudoku-csp")
    if entry == "script" and not script.exists():
        pytest.skip("no sudoku-csp script beside this Python")
    command = [sys.executable, "-m", "sudoku_csp"] if entry == "module" else [str(script)]
    proc = subprocess.Popen([*command, "count", "." * 81, "--limit", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_in_a_terminal)
    _wait_for_handler(proc, signal.SIGTERM)
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, err.decode(), out.decode()) == (130, "interrupted\n", "")


def test_an_interrupt_caught_inside_exec_leaves_the_exit_code_the_programs(tmp_path):
    # CPython notes a KeyboardInterrupt that leaves source text run by exec() or eval() (a
    # dataclass or a named tuple being made when Ctrl-C lands), caught or not, and under
    # `python -m` then ends the process by SIGINT after the program chose its code: the
    # start-up test above failed so about once in a hundred runs (exit -2 after
    # "interrupted"). The entry point clears that note: a command that catches such an
    # interrupt as it ends, run through the entry point, exits with its own code.
    (tmp_path / "caught.py").write_text(
        "import sys\n"
        "import sudoku_csp.cli\n"
        "def command():\n"
        "    try:\n"
        "        exec('raise KeyboardInterrupt')\n"
        "    except KeyboardInterrupt:\n"
        "        pass\n"
        "    raise SystemExit(3)\n"
        "if sys.argv[1] == 'entry':\n"
        "    sudoku_csp.cli.main = command\n"
        "    from sudoku_csp.__main__ import main\n"
        "    main()\n"
        "command()\n")

    def run(how: str) -> int:
        return subprocess.run([sys.executable, "-m", "caught", how], cwd=tmp_path,
                              capture_output=True, preexec_fn=_in_a_terminal).returncode

    if run("alone") != -signal.SIGINT:
        pytest.skip("this Python does not end by SIGINT after an interrupt caught in exec")
    assert run("entry") == 3


def _wait_for_handler(proc: subprocess.Popen, signum: int) -> None:
    """Until ``proc`` catches ``signum`` (its SigCgt mask in /proc)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        status = Path(f"/proc/{proc.pid}/status").read_text()
        caught = int(next(line.split()[1] for line in status.splitlines()
                          if line.startswith("SigCgt:")), 16)
        if caught >> (signum - 1) & 1:
            return
        time.sleep(0.002)
    pytest.fail(f"the program never caught signal {signum} (exit {proc.poll()})")


# -- the pieces, in this process ----------------------------------------------------------
def _signal_soon(signum: int, after: float) -> threading.Timer:
    timer = threading.Timer(after, os.kill, (os.getpid(), signum))
    timer.start()
    return timer


def _signal_after_cpu(signum: int, seconds: float) -> threading.Thread:
    """Send ``signum`` to this process once it has used ``seconds`` more of CPU time (all
    its threads): after that much work, however busy the machine."""
    until = time.process_time() + seconds

    def wait_then_send() -> None:
        while time.process_time() < until:
            time.sleep(0.01)
        os.kill(os.getpid(), signum)

    thread = threading.Thread(target=wait_then_send, daemon=True)
    thread.start()
    return thread


def test_ctrl_c_while_a_solver_is_built_waits_until_it_is_whole(monkeypatch):
    # A PySAT solver whose construction Ctrl-C cut short complained from its __del__ at
    # exit ("Exception ignored ... no attribute 'minisat'") after "interrupted" (found by
    # the start-up test above, under load): the signal now lands once the solver is whole.
    from pysat import solvers

    from sudoku_csp import satsolver

    built = []
    original = solvers.Minisat22.__init__

    def interrupted(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        built.append(self)
        signal.raise_signal(signal.SIGINT)  # Ctrl-C before the solver has its handle
        original(self, *args, **kwargs)

    def stop(signum, frame):  # noqa: ANN001, ANN202 - also when pytest runs with SIGINT ignored
        raise KeyboardInterrupt

    monkeypatch.setattr(solvers.Minisat22, "__init__", interrupted)
    previous = signal.signal(signal.SIGINT, stop)
    try:
        with pytest.raises(KeyboardInterrupt):
            satsolver._new_solver("minisat22")
    finally:
        signal.signal(signal.SIGINT, previous)
    # Built whole (its handle set, then freed by its own __del__ as the interrupt unwound),
    # where an interrupt inside the constructor leaves it without one.
    assert built and hasattr(built[0], "minisat")


def test_a_search_that_returns_after_a_signal_is_not_reported():
    # The handler seen before is given back.
    before = signal.getsignal(signal.SIGINT)
    stopped = threading.Event()
    with pytest.raises(KeyboardInterrupt), interrupts.handling():
        with interrupts.stoppable(stopped.set):
            _signal_soon(signal.SIGINT, 0.05)
            assert stopped.wait(10)  # the watcher thread called the stop function
            # ... and the search "returns normally": leaving the block still raises.
    assert signal.getsignal(signal.SIGINT) is before


def test_sigterm_raises_terminated_and_handlers_are_restored():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(interrupts.Terminated), interrupts.handling():
        _signal_soon(signal.SIGTERM, 0.01).join()
        time.sleep(5)
    assert signal.getsignal(signal.SIGTERM) == before
    assert interrupts.requested() is None


def test_cpsat_never_catches_the_signal_itself():
    assert TUNING["catch_sigint_signal"] is False
    backend = make_backend("cpsat")
    assert backend.parameters(enumerate_all=False, time_limit=None)["catch_sigint_signal"] \
        is False


@pytest.mark.parametrize("spec", slow_if(["cpsat", "sat", "sat:solver=glucose4", "native"],
                                         lambda spec: spec not in ("cpsat", "native")))
def test_an_interrupted_backend_solves_again(spec):
    # A notebook interrupts a cell, then goes on with the same (cached) backend.
    backend = make_backend(spec)
    empty = parse("." * 256, geometry=make_geometry(16))
    if spec == "cpsat":
        # imported first: the signal must meet the search, not the import of OR-Tools (which
        # took longer than the timer when this test ran first in its process)
        cp_model_within()
    with pytest.raises(KeyboardInterrupt), interrupts.handling():
        _signal_after_cpu(signal.SIGINT, 0.3)  # past loading (under 0.1 s of CPU): searching
        backend.solve(empty, limit=None)
    assert backend.solve(parse(PUZZLES[0]), limit=2).status.value == "unique"


# -- a closed pipe ----------------------------------------------------------------------------
@pytest.mark.parametrize("args", slow_if([
    ["solve", "{file}"], ["count", "{file}"], ["check", "{file}"], ["compare", "{file}", "--json"],
    ["minimal", "{file}"], ["generate", "--count", "20", "--size", "4"],
    ["show", "-c", PUZZLES[0]], ["solve", PUZZLES[0]], ["--help"], ["solvers"],
], lambda args: args[0] != "check"))  # one in the inner loop
def test_a_closed_pipe_stops_quietly(tmp_path, args):
    # `sudoku-csp ... | head -1` where head has gone before the first line is written: the
    # Unix convention is to stop at once, with no message (141 is what a shell reports).
    source = tmp_path / "puzzles.txt"
    source.write_text("\n".join(PUZZLES * 5) + "\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_csp", *(a.format(file=source) for a in args)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the program writes anything
    err = proc.stderr.read().decode()
    assert (proc.wait(timeout=60), err) == (141, "")


def test_an_error_a_ctrl_c_caused_is_reported_as_the_interrupt(capsys):
    """A Ctrl-C inside the import of a compiled module surfaces as ImportError
    ("initialization failed"): the command still says "interrupted", exit 130."""
    import typer

    from sudoku_csp.cli.exits import Exit, guarded

    def action() -> Exit:
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        except KeyboardInterrupt:
            raise ImportError("initialization failed") from None
        return Exit.OK

    with pytest.raises(typer.Exit) as exit_info:
        guarded(action)
    assert exit_info.value.exit_code == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_the_entry_point_ends_a_signal_as_the_commands_do():
    # sudoku_csp.__main__ cannot import cli.exits before its handlers are in place.
    from sudoku_csp.__main__ import _EXITS
    from sudoku_csp.cli.exits import Exit

    assert _EXITS == {signal.SIGINT: ("interrupted", Exit.INTERRUPTED),
                      signal.SIGTERM: ("terminated", Exit.TERMINATED)}


def test_handling_leaves_an_ignored_sigint_ignored():
    # A job a shell starts in the background has SIGINT ignored: Ctrl-C in that terminal is
    # meant for the foreground job, and every Unix program keeps the signal ignored.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with interrupts.handling():
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL  # still owned
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def test_a_run_started_with_sigint_ignored_keeps_it_ignored():
    def in_the_background() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_csp", "count", "." * 81, "--limit", "0", "-s", "native"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=in_the_background)
    try:
        _wait_for_cpu(proc, 1.0)
        os.killpg(proc.pid, signal.SIGINT)
        used = _cpu(proc)
        _wait_for_cpu(proc, used + 0.5)  # still counting: the SIGINT was ignored
        assert proc.poll() is None
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, err.decode()) == (143, "terminated\n")
