"""CP-SAT models of a geometry: build them, never solve them.

Two models of the same rules, both read only the :class:`~sudoku_csp.geometry.Geometry`:

- ``alldiff``: one integer variable per cell, domain ``1..N`` (the digit shown, i.e. the
  internal digit + 1), ``add_all_different`` per unit, ``!=`` per extra pair.
- ``boolean``: one Boolean ``x(cell, digit)`` per cell and digit (the one-hot variables of
  the CNF), ``add_exactly_one`` per cell and per (unit, digit), and for each extra pair and
  digit the clause ``not x(a, d) or not x(b, d)``.

Each builder returns a :class:`CpSatModel`: the ``cp_model.CpModel`` plus the variables and a
way to read a grid back, so a research script can add its own constraints, solve with its
own parameters and decode the answer::

    >>> from ortools.sat.python import cp_model
    >>> from sudoku_csp import Puzzle, format_line
    >>> from sudoku_csp import parse
    >>> m = build_model(parse("3.1...4.2......."), "alldiff")
    >>> solver = cp_model.CpSolver()
    >>> solver.parameters.num_workers = 1
    >>> solver.solve(m.model) == cp_model.OPTIMAL
    True
    >>> format_line(m.geometry, m.read(solver))
    '3412124321344321'

Givens are fixed by narrowing variable domains (not by extra constraints), so a model built
once for the empty grid can be reused for many puzzles: :meth:`CpSatModel.fix_givens`
narrows, :meth:`CpSatModel.release` widens again. The CP-SAT backend works that way, and
gives a puzzle with typed constraints a :meth:`CpSatModel.copy` of that template to add
them to (CP-SAT cannot remove a constraint once added).

:func:`export_models` writes the empty 9×9 model of each kind as a text proto into the
top-level ``encodings/`` folder (see ``encodings/CPSAT.md`` there).

OR-Tools is imported when a model is built, not when this module is imported, and only
through :func:`cp_model_within`: importing it (it loads pandas) takes 0.2-1 s, which a caller
with a time limit waits for only as long as its limit allows.
"""

from __future__ import annotations

import atexit
import importlib
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from sudoku_csp.deadline import Deadline, Limit
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Geometry
from sudoku_csp.interrupts import requested, stoppable
from sudoku_csp.modeling.cpsat_model import AllDiffModel, BooleanModel, CpSatModel, ReadBackError
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import make_geometry

if TYPE_CHECKING:  # only for annotations: importing ortools costs ~0.5 s
    from ortools.sat.python import cp_model


EXPORT_SIZES = (9,)
"""Sizes of the standard empty grid exported by :func:`export_models`."""


# -- importing OR-Tools ------------------------------------------------------------------------
CP_MODEL = "ortools.sat.python.cp_model"
"""The module every CP-SAT model and solver comes from."""


def _import_cp_model() -> ModuleType:
    try:
        return importlib.import_module(CP_MODEL)
    except ImportError as exc:
        # A Ctrl-C inside a compiled module's initialisation comes out of the import as
        # ImportError ("initialization failed") caused by it: the caller gets the interrupt.
        if isinstance(exc.__cause__, KeyboardInterrupt):
            raise exc.__cause__ from None
        raise


class _Import:
    """The one import of :data:`CP_MODEL` in this process (by ``load``): what it gave (the
    module, or the exception it raised), and the daemon thread that runs it for callers
    with a limit."""

    def __init__(self, load: Callable[[], ModuleType] = _import_cp_model) -> None:
        self.load = load
        self.cond = threading.Condition()
        self.module: ModuleType | None = None
        self.error: BaseException | None = None
        self.thread: threading.Thread | None = None

    def run(self) -> None:
        try:
            module = self.load()
        except BaseException as exc:  # noqa: BLE001 - handed to every caller, raised there
            with self.cond:
                self.error = exc
                self.cond.notify_all()
            return
        with self.cond:
            self.module = module
            self.cond.notify_all()

    def wake(self) -> None:
        """Make the callers waiting look again (the deadline passed, a signal came)."""
        with self.cond:
            self.cond.notify_all()


_IMPORT = _Import()


def cp_model_within(time_limit: Limit = None) -> ModuleType | None:
    """OR-Tools' ``cp_model`` module, imported on the first call: None when ``time_limit``
    (seconds, or the caller's :class:`~sudoku_csp.deadline.Deadline`) passes first.

    With a limit, the import runs in a daemon thread that this call waits for until the
    deadline (or its cancellation, or Ctrl-C: ``KeyboardInterrupt``, as for any search);
    the import goes on after a call that gave up, and a later call takes the module it
    gave. Without a limit, the calling thread imports it (or waits for that thread). An
    import that fails raises its error here, in every call.

    >>> cp_model_within(60).__name__
    'ortools.sat.python.cp_model'
    """
    state = _IMPORT
    if state.module is not None:
        return state.module
    deadline = Deadline.of(time_limit)
    with state.cond:
        if state.thread is None and state.error is None and not deadline.limited:
            direct = True
        else:
            direct = False
            if state.thread is None and state.error is None:
                # A daemon thread, so that nothing waits for it but finish_import: a
                # process must not shut down while it runs the libraries' C code (a
                # crash), so at exit it is waited for; the command line ends at once
                # instead (sudoku_csp.__main__).
                state.thread = threading.Thread(target=state.run, name="import-ortools",
                                                daemon=True)
                state.thread.start()
                atexit.register(finish_import)
    if not direct and deadline.expired() and state.error is None:
        return state.module  # a start in the background (prepare): nothing to wait for
    if direct:
        # No limit: as any import, in this thread (no thread left behind to fork beside).
        module = state.load()
        with state.cond:
            state.module = module
        return module
    # The watch wakes this wait at the deadline or when the deadline is cancelled (a race's
    # loser), stoppable when a signal comes while this is not the main thread (the main
    # thread gets KeyboardInterrupt inside the wait itself); leaving its block then raises.
    with stoppable(state.wake), deadline.watch(state.wake), state.cond:
        while (state.module is None and state.error is None and not deadline.expired()
               and requested() is None):
            left = deadline.remaining()
            state.cond.wait(None if left is None else min(left, threading.TIMEOUT_MAX))
    if state.error is not None:
        raise state.error
    return state.module


def importing() -> bool:
    """Whether the import of OR-Tools is under way in its thread (a caller gave up on it)."""
    thread = _IMPORT.thread
    return thread is not None and thread.is_alive()


def finish_import() -> None:
    """Wait until an import of OR-Tools under way has ended: registered to run at exit once
    the thread starts, since the interpreter's shutdown beside a thread running the import's
    C code can crash (segmentation fault)."""
    thread = _IMPORT.thread
    if thread is not None:
        thread.join()


def _cp_model() -> ModuleType:
    """``cp_model`` for building a model (no limit: the caller checks its deadline after)."""
    module = cp_model_within(None)
    assert module is not None  # only a limit makes it None
    return module


# -- builders ---------------------------------------------------------------------------------
def _new_model(geometry: Geometry, kind: str) -> cp_model.CpModel:
    model = _cp_model().CpModel()
    model.name = f"sudoku {geometry.name} {kind}"
    return model


def build_alldiff(geometry: Geometry, givens: Sequence[int] | None = None) -> AllDiffModel:
    """Integer model: ``x[cell]`` in ``1..N``, AllDifferent per unit, ``!=`` per extra pair.

    Variables are created first and in cell order, so ``x[cell]`` has proto index ``cell``;
    constraints follow in ``geometry.units`` order, then the extra pairs. ``givens`` (digits
    ``0..N-1`` or ``EMPTY``), if given, are fixed through the domains.

    >>> m = build_alldiff(make_geometry(4))
    >>> len(m.model.proto.variables), len(m.model.proto.constraints)
    (16, 12)
    """
    n = geometry.size
    model = _new_model(geometry, "alldiff")
    cells = [model.new_int_var(1, n, geometry.label(c)) for c in range(geometry.ncells)]
    for unit in geometry.units:
        model.add_all_different([cells[c] for c in unit.cells]).with_name(unit.name)
    for a, b in geometry.extra_pairs:
        model.add(cells[a] != cells[b])
    built = AllDiffModel(geometry, model, cells)
    if givens is not None:
        built.fix_givens(givens)
    return built


def build_boolean(geometry: Geometry, givens: Sequence[int] | None = None) -> BooleanModel:
    """One-hot model: ``x[cell][digit]``, exactly one per cell and per (unit, digit).

    Variable ``x[cell][digit]`` has proto index ``cell * N + digit``. Constraints: the
    cells' exactly-ones in cell order, then one exactly-one per unit and digit in
    ``geometry.units`` order, then per extra pair and digit the clause
    ``not x[a][d] or not x[b][d]``. ``givens`` are fixed through the domains.

    >>> m = build_boolean(make_geometry(4))
    >>> len(m.model.proto.variables), len(m.model.proto.constraints)
    (64, 64)
    """
    n = geometry.size
    model = _new_model(geometry, "boolean")
    literals = [[model.new_bool_var(f"{geometry.label(c)}={d + 1}") for d in range(n)]
                for c in range(geometry.ncells)]
    for row in literals:
        model.add_exactly_one(row)
    for unit in geometry.units:
        for d in range(n):
            model.add_exactly_one([literals[c][d] for c in unit.cells]).with_name(
                f"{unit.name} has {d + 1}")
    for a, b in geometry.extra_pairs:
        for d in range(n):
            model.add_bool_or([~literals[a][d], ~literals[b][d]])
    built = BooleanModel(geometry, model, literals)
    if givens is not None:
        built.fix_givens(givens)
    return built


BUILDERS: dict[str, Callable[..., CpSatModel]] = {
    "alldiff": build_alldiff,
    "boolean": build_boolean,
}
"""Model kind -> its builder; the order is the order choices are listed in."""

MODELS = tuple(BUILDERS)
"""The model kinds, in the order :func:`build_model` accepts them."""


def build_model(puzzle: Puzzle | Geometry, kind: str = "alldiff") -> CpSatModel:
    """The ``kind`` model (``alldiff`` or ``boolean``) of a puzzle (givens fixed) or of the
    empty grid of a geometry.

    >>> build_model(make_geometry(9), "boolean")
    <CpSatModel boolean 9x9: 729 variables, 324 constraints>
    """
    if kind not in BUILDERS:
        raise InputError(f"unknown CP-SAT model {kind!r}; choose from {', '.join(MODELS)}")
    if isinstance(puzzle, Puzzle):
        return BUILDERS[kind](puzzle.geometry, puzzle.givens)
    return BUILDERS[kind](puzzle)


# -- exported artifacts -----------------------------------------------------------------------
def export_name(kind: str, size: int) -> str:
    """File name of an exported empty-grid model: ``cpsat_alldiff_9x9.pb.txt``."""
    return f"cpsat_{kind}_{size}x{size}.pb.txt"


def export_models(folder: str | Path, sizes: Iterable[int] = EXPORT_SIZES) -> list[Path]:
    """Write the empty standard grid's model of each kind as a text proto into ``folder``.

    These are the files kept in the repository's top-level ``encodings/`` folder; a test
    regenerates them and fails when they differ. Returns the paths written.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for size in sizes:
        geometry = make_geometry(size)
        for kind in MODELS:
            path = folder / export_name(kind, size)
            # export_to_file writes text format because the name ends in "txt".
            if not build_model(geometry, kind).model.export_to_file(str(path)):
                raise OSError(f"CP-SAT could not write {path}")
            written.append(path)
    return written


__all__ = [
    "BUILDERS",
    "EXPORT_SIZES",
    "MODELS",
    "AllDiffModel",
    "BooleanModel",
    "CP_MODEL",
    "CpSatModel",
    "ReadBackError",
    "build_alldiff",
    "build_boolean",
    "build_model",
    "cp_model_within",
    "finish_import",
    "importing",
    "export_models",
    "export_name",
]
