"""``python -m sudoku_csp`` and the ``sudoku-csp`` command.

The entry point owns Ctrl-C and SIGTERM from its first line: the command line and the
solvers are imported after the handler is in place, so a signal while they load ends the
program as one during a command does ("interrupted", exit 130; "terminated", 143), not
with a traceback from inside an import. A command installs its own handlers while it runs
(:func:`sudoku_csp.interrupts.handling`) and gives these back when it ends.

The objects the imports make (modules, functions, classes: about 100,000) live as long as
the process, so the garbage collector is kept from walking them (issue 34: start-up): off
while the command line loads, then those objects frozen (:func:`gc.freeze`) before it
runs, and everything frozen again when it ends, which spares the interpreter's final
collection at exit (about 10 ms of a ``count``). What is garbage is still freed as it dies
(reference counts), and a long command's cycles are still collected.

The exit code is the program's own even when Ctrl-C landed inside source text that
``exec`` or ``eval`` runs (a dataclass or a named tuple being made while a command imports
what it needs): CPython remembers a ``KeyboardInterrupt`` that left such text, caught or
not, and under ``python -m`` then ends the process by SIGINT in place of the code chosen
(about once in a hundred Ctrl-C's at start-up). :func:`_forget_caught_interrupts`.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import signal
import sys
from types import FrameType

# The words and codes of cli.exits (Exit.INTERRUPTED, Exit.TERMINATED), written out: that
# module is part of what these handlers cover while it loads (test_interrupts holds both).
_EXITS = {signal.SIGINT: ("interrupted", 130), signal.SIGTERM: ("terminated", 143)}
_received: list[int] = []


def _stop(signum: int, frame: FrameType | None) -> None:
    _received.append(signum)
    raise SystemExit(_EXITS[signal.Signals(signum)][1])


def _end() -> None:
    message, code = _EXITS[signal.Signals(_received[0])]
    sys.stderr.write(f"{message}\n")
    raise SystemExit(code)


def main() -> None:
    """Console-script entry point: the clock and the handlers first, then the command
    line."""
    gc.disable()
    from sudoku_csp.deadline import mark_start

    mark_start()  # a command's time limit counts from here: starting up is part of it
    for signum in _EXITS:
        # A signal the caller set to be ignored (SIGINT of a job a shell started in the
        # background) stays ignored, as every Unix program keeps it.
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _stop)
    try:
        from sudoku_csp.cli import main as run

        gc.freeze()
        gc.enable()
        run()
    except BaseException:
        # A signal can surface as another error inside a compiled module's import
        # ("initialization failed"); what was received decides.
        if _received:
            _end()
        raise
    finally:
        gc.enable()
        gc.freeze()
        _forget_caught_interrupts()
        _end_beside_an_import(sys.exc_info()[1])


def _forget_caught_interrupts() -> None:
    """Clear CPython's note that a ``KeyboardInterrupt`` left source text run by ``exec``
    or ``eval``: every interrupt is handled here, and the note would have ``python -m``
    end the process by SIGINT after the program chose its exit code (CPython's
    ``pymain_run_module`` and ``Py_RunMain``). Each run of source text clears the note
    before it starts, so running an empty one does; nothing else reaches it from Python."""
    exec("None")


def _end_beside_an_import(ending: BaseException | None) -> None:
    """End the process now, its exit code that of ``ending`` (a ``SystemExit``, or None),
    when a CP-SAT solve gave up on importing OR-Tools at its time limit and the import still
    runs in its thread: the interpreter's shutdown must not run beside it (a crash), and
    waiting for it (``finish_import``) would hold the exit past the limit. Standard output
    and error are flushed and the exit handlers run first (a race's members stopped), as
    in a normal exit."""
    loader = sys.modules.get("sudoku_csp.encodings.cpsat")
    if loader is None or not loader.importing():
        return
    code = ending.code if isinstance(ending, SystemExit) else 0 if ending is None else "?"
    if not (code is None or isinstance(code, int)):
        return  # a message or a traceback to print: the ordinary way (waits for the import)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed pipe
            stream.flush()
    atexit.unregister(loader.finish_import)
    atexit._run_exitfuncs()
    os._exit(code or 0)


if __name__ == "__main__":  # worker processes that re-import this module must not run it
    main()
