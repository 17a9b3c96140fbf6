"""Exit codes, and the one place where an exception becomes a line on stderr and a code.

:class:`Exit` is the documented table: ``sudoku-csp --help``, docs/commands.md and the tests all
read it from here. :func:`guarded` runs a command body: the user's bad input exits 6
(:class:`~sudoku_csp.errors.InputError`, unreadable files), a failure inside the library
exits 1 as an internal error (:class:`~sudoku_csp.errors.BackendError` or anything
unexpected), Ctrl-C exits 130, a time limit reached by a command that has nothing partial
to show (:class:`~sudoku_csp.deadline.Expired`: certify, encode) exits 5 — each with one
line on stderr, never a traceback.
"""

from __future__ import annotations

import enum
import os
import select
import sys
import warnings
from collections.abc import Callable
from typing import Any

import typer

from sudoku_csp.cli.console import LazyConsole, silence_stdout
from sudoku_csp.errors import BackendError, InputError, ReaderNote
from sudoku_csp.extras import MissingExtraError
from sudoku_csp.result import Status


class Exit(enum.IntEnum):
    """The documented exit codes; ``meaning`` is the text of the help table."""

    meaning: str

    def __new__(cls, code: int, meaning: str) -> Exit:
        member = int.__new__(cls, code)
        member._value_ = code
        member.meaning = meaning
        return member

    OK = 0, "solved / unique (files: every puzzle was processed)"
    INTERNAL = 1, "internal error: a backend failed or returned a wrong answer (a bug)"
    USAGE = 2, "usage error (unknown option, missing argument), from typer"
    MULTIPLE = 3, "multiple solutions"
    NONE = 4, "no solution (including clashing givens)"
    UNKNOWN = 5, ("unknown: time limit reached (or propagation, or explain, could not finish; "
                  "check: fewer than two solvers decided, so nothing was cross-checked)")
    INPUT = 6, ("input error: bad puzzle text, file, geometry, solver spec or option; "
                 "generate found no puzzle meeting the request")
    DISAGREEMENT = 7, "the solvers disagreed (check, compare)"
    INVALID = 8, "an invalid certificate (verify-certificate)"
    NOT_MINIMAL = 9, "unique but not minimal (minimal)"
    INTERRUPTED = 130, "interrupted (Ctrl-C): the records written so far are kept"
    PIPE = 141, "the output was closed early (e.g. piped into head): stopped quietly"
    TERMINATED = 143, "terminated (SIGTERM): the records written so far are kept"


STATUS_EXIT = {
    Status.SOLVED: Exit.OK,
    Status.UNIQUE: Exit.OK,
    Status.MULTIPLE: Exit.MULTIPLE,
    Status.NONE: Exit.NONE,
    Status.UNKNOWN: Exit.UNKNOWN,
}
"""The exit code of a puzzle's verdict."""


def exit_help() -> str:
    """One paragraph for ``--help``, generated from :class:`Exit`.

    >>> exit_help().split("; ")[0]
    'Exit codes: 0 solved / unique (files: every puzzle was processed)'
    """
    return "Exit codes: " + "; ".join(f"{e.value} {e.meaning}" for e in Exit) + "."


err = LazyConsole(stderr=True)
"""Where errors, progress bars and notes go (no emoji codes: see ``output.out``; rich loaded
when needed: :mod:`sudoku_csp.cli.console`)."""


def guarded(action: Callable[[], Exit]) -> None:
    """Run a command body and exit with the code it returns; turn every exception into one
    line on stderr and its documented code (see the module docstring). Ctrl-C and SIGTERM
    are owned by :func:`~sudoku_csp.interrupts.handling` meanwhile: the solver running is
    stopped, cleanup runs (worker processes terminated, the records file closed), then
    "interrupted" (130) or "terminated" (143)."""
    # Here, not at the top: sudoku_csp.interrupts loads PySAT's solvers, which --help and
    # a usage error do without.
    from sudoku_csp.deadline import Expired
    from sudoku_csp.interrupts import Terminated, handling, raise_requested, reraise_pysat

    try:
        with handling(), warnings.catch_warnings():
            warnings.simplefilter("always", ReaderNote)
            warnings.showwarning = _show_note
            try:
                code = action()
                sys.stdout.flush()  # buffered record lines: a closed pipe shows here
            except Exception:
                raise_requested()  # an error the signal caused: report the signal
                raise
    except (typer.Exit, typer.Abort, typer.BadParameter):
        raise  # typer's own exits and usage errors keep their codes (typer vendors click)
    except BrokenPipeError:
        silence_stdout()
        raise typer.Exit(int(Exit.PIPE)) from None
    except (InputError, OSError, UnicodeDecodeError, MissingExtraError) as exc:
        _fail(f"error: {exc}", Exit.INPUT)
    except BackendError as exc:
        _fail(f"internal error: {exc}", Exit.INTERNAL)
    except Expired as exc:
        _fail(f"unknown: {exc}", Exit.UNKNOWN)
    except Terminated:
        _fail("terminated", Exit.TERMINATED)
    except KeyboardInterrupt:
        _fail("interrupted", Exit.INTERRUPTED)
    except Exception as exc:  # noqa: BLE001 - a bug anywhere still ends in one line, exit 1
        try:
            reraise_pysat(exc)  # PySAT's report of a Ctrl-C inside a solver
        except KeyboardInterrupt:
            _fail("interrupted", Exit.INTERRUPTED)
        _fail(f"internal error: {type(exc).__name__}: {exc}", Exit.INTERNAL)
    raise typer.Exit(int(code))


def _show_note(message: Warning | str, category: type[Warning], filename: str, lineno: int,
               file: Any = None, line: str | None = None) -> None:
    """A reader's note as one line on stderr; other warnings as Python shows them."""
    if issubclass(category, ReaderNote):
        err.print(f"note: {message}", markup=False)
    else:
        warnings._showwarnmsg_impl(warnings.WarningMessage(  # type: ignore[attr-defined]
            message, category, filename, lineno, file, line))


def stdout_identity(path: str | None = None) -> tuple[int, int] | None:
    """(device, inode) of standard output (or of ``path``), None when there is none."""
    try:
        st = os.stat(path) if path is not None else os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return st.st_dev, st.st_ino


def stdout_reader_gone() -> bool:
    """Whether standard output is a pipe whose reading end has been closed."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(event & select.POLLERR for _, event in poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def _fail(line: str, code: Exit) -> None:
    err.print(line, markup=False)
    raise typer.Exit(int(code)) from None
