"""Optional dependencies: one import helper, so that a missing extra is one clear input error.

The core needs python-sat, ortools, typer and rich; plotting (``plot``), Dask (``cluster``)
and pandas (``data``) are extras that only some functions load, through
:func:`require_extra`.

>>> require_extra("json", "data", "a doctest").__name__
'json'
"""

from __future__ import annotations

import importlib
from types import ModuleType

from sudoku_csp.errors import InputError

__all__ = ["MissingExtraError", "require_extra"]


class MissingExtraError(InputError, ImportError):
    """An optional dependency (an extra such as ``cluster`` or ``plot``) is not installed:
    an input error (the user can install it; the CLI exits 6), and an ``ImportError``."""


def require_extra(module: str, extra: str, purpose: str) -> ModuleType:
    """Import an optional dependency (``module``, installed by the package's ``extra``), or
    raise :class:`MissingExtraError` saying which extra installs it, for ``purpose``."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"{purpose} needs {module.split('.')[0]}: pip install 'sudoku_csp[{extra}]'"
        ) from exc
