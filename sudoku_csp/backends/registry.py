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

PORTFOLIOS: dict[str, str] = {
    "race": "sudoku_csp.backends.race:RaceBackend",
    "first": "sudoku_csp.backends.first:FirstBackend",
    "auto": "sudoku_csp.backends.auto:AutoBackend",
}
"""Backends made of the backends above, named by a spec of theirs (``race:sat,cpsat``):
kept apart from :data:`BACKENDS`, the solvers ``check`` cross-checks by default, since
their verdicts are those of their members."""

DEFAULT_SPEC = "auto"
"""The spec used when none is named (library ``solve``/``count``, the CLI's ``--solver``):
:class:`~sudoku_csp.backends.auto.AutoBackend`, the native solver under a small node budget
then SAT to solve or decide uniqueness, the native solver to look for more solutions. The
native solver itself, unbounded, is ``native``."""


def backend_names() -> tuple[str, ...]:
    """The names of the solvers (:data:`BACKENDS`)."""
    return tuple(BACKENDS)


def names_a_solver(spec: str) -> bool:
    """Whether ``spec`` names a solver of :data:`BACKENDS` (not a portfolio): what a race's
    member process can make again from its name.

    >>> names_a_solver("sat:solver=g4"), names_a_solver("race:sat,cpsat")
    (True, False)
    """
    try:
        return parse_spec(spec)[0] in BACKENDS
    except SpecError:
        return False


def backend_class(name: str) -> type[BackendBase]:
    """The class of a backend or a portfolio by name (imports its module)."""
    where = BACKENDS.get(name) or PORTFOLIOS.get(name)
    if where is None:
        raise SpecError(f"unknown solver {name!r}; choose from "
                        f"{', '.join([*BACKENDS, *PORTFOLIOS])}")
    module, _, cls = where.partition(":")
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


def member_specs(text: str, default: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The member specs of a portfolio spec's options: a new member at each item that is
    not ``key=value``, or that holds a ``:`` (``name:key=value``); ``default`` when none.

    >>> member_specs("native,sat:solver=g4,encoding=minimal,cpsat")
    ('native', 'sat:solver=g4,encoding=minimal', 'cpsat')
    >>> member_specs("", ("sat", "cpsat"))
    ('sat', 'cpsat')
    """
    members: list[str] = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        if members and "=" in item and ":" not in item:
            members[-1] += "," + item
        else:
            members.append(item)
    return tuple(members) or default


def check_members(portfolio: str, specs: tuple[str, ...]) -> None:
    """Refuse (:class:`SpecError`) members a ``portfolio`` cannot hold: a name that is not a
    solver of :data:`BACKENDS` (a portfolio among them), or a member named twice."""
    for spec in specs:
        name, _ = parse_spec(spec)
        if name not in BACKENDS:
            raise SpecError(f"{portfolio}: {name!r} is not a backend to run; choose from "
                            f"{', '.join(backend_names())}")
    if len(set(specs)) != len(specs):
        raise SpecError(f"{portfolio}: a member named twice in {','.join(specs)}")


def make_backend(spec: str) -> Backend:
    """A new backend configured by ``spec`` (SpecError on any unknown name or value); a
    portfolio's options are its members' specs (``race:sat,cpsat:model=boolean``)."""
    name, _, members = spec.strip().partition(":")
    if name.strip() in PORTFOLIOS:
        portfolio = backend_class(name.strip())
        return portfolio(*member_specs(members, getattr(portfolio, "default_members", ())))
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


def list_backends(portfolios: bool = False) -> list[type[BackendBase]]:
    """Every backend class whose library imports here (and with ``portfolios``, those of
    :data:`PORTFOLIOS`)."""
    found = []
    for name in [*BACKENDS, *(PORTFOLIOS if portfolios else ())]:
        try:
            found.append(backend_class(name))
        except ImportError:
            continue
    return found
