"""The one list of backends, and spec strings -> configured backends.

A spec is ``name`` or ``name:key=value,key=value`` (``native:rules=singles,branch=first``).
Backend modules are imported only when used, so a missing optional solver library breaks
only its own backend.
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from sudoku_csp.backends.base import Backend, BackendBase
from sudoku_csp.errors import SpecError

BACKENDS: dict[str, str] = {
    "native": "sudoku_csp.backends.native:NativeBackend",
    "sat": "sudoku_csp.backends.sat:SatBackend",
    "cpsat": "sudoku_csp.backends.cpsat:CpSatBackend",
}
"""Backend name -> ``module:class``. The only place a backend is listed."""

DEFAULT_SPEC = "native"
"""The spec used when none is named (library ``solve``/``count``, the CLI's ``--solver``)."""


def backend_class(name: str) -> type[BackendBase]:
    """The class of a backend by name (imports its module)."""
    if name not in BACKENDS:
        raise SpecError(f"unknown solver {name!r}; choose from {', '.join(BACKENDS)}")
    module, _, cls = BACKENDS[name].partition(":")
    return getattr(importlib.import_module(module), cls)


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"sat:solver=glucose4,amo=ladder"`` -> ``("sat", {"solver": "glucose4", ...})``.

    >>> parse_spec("native:rules=singles,branch=first")
    ('native', {'rules': 'singles', 'branch': 'first'})
    """
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise SpecError(f"{spec!r}: expected key=value options after ':', got {item!r}")
        if key.strip() in options:
            raise SpecError(f"{spec!r}: option {key.strip()!r} given twice")
        options[key.strip()] = value.strip()
    return name.strip(), options


def make_backend(spec: str) -> Backend:
    """A new backend configured by ``spec`` (SpecError on any unknown name or value)."""
    name, texts = parse_spec(spec)
    return backend_class(name)(**texts)  # the base checks and converts every option


@lru_cache(maxsize=64)
def get_backend(spec: str) -> Backend:
    """A backend shared within this process (solvers and templates are built once)."""
    return make_backend(spec)


def compare_specs() -> tuple[str, ...]:
    """The specs ``sudoku-csp compare`` runs when none is named: each registered backend's
    :attr:`~sudoku_csp.backends.base.BackendBase.COMPARE`, in registry order.

    >>> compare_specs()[:2]
    ('native', 'native:rules=singles')
    """
    return tuple(spec for cls in list_backends() for spec in cls.COMPARE)


def list_backends() -> list[type[BackendBase]]:
    """Every backend class whose library imports here."""
    found = []
    for name in BACKENDS:
        try:
            found.append(backend_class(name))
        except ImportError:
            continue
    return found
