"""CONTRIBUTING.md stays true: every file and table it names exists where it says."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from sudoku_csp.backends.registry import BACKENDS

ROOT = Path(__file__).resolve().parents[1]
TEXT = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
ROWS = [line for line in TEXT.splitlines() if line.startswith("| ") and "---" not in line][1:]


def _module(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def test_every_named_file_exists():
    paths = set(re.findall(r"`((?:sudoku_csp|tests|examples|encodings|docs)/[\w/.]*?)`", TEXT))
    assert {"sudoku_csp/variants.py", "sudoku_csp/backends/registry.py"} <= paths
    missing = [p for p in paths if "NAME" not in p and not (ROOT / p).exists()]
    assert not missing, missing


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.split("|")[1].strip()[:40])
def test_every_table_named_in_a_row_lives_in_the_module_the_row_names(row):
    cells = [c.strip() for c in row.strip("|").split("|")]
    modules = [_module(p) for p in re.findall(r"`(sudoku_csp/[\w/]+\.py)`", row)]
    tables = [t for t in re.findall(r"`([A-Z][A-Z_]+)`", cells[2]) if t != "NAME"]
    loaded = [importlib.import_module(m) for m in modules]
    for table in tables:
        assert any(hasattr(m, table) for m in loaded), (table, modules)


def test_every_default_named_is_defined_once():
    names = re.findall(r"`(DEFAULT_[A-Z_]+)`", TEXT)
    assert len(names) >= 6
    sources = list((ROOT / "sudoku_csp").rglob("*.py"))
    for name in names:
        homes = [p for p in sources
                 if re.search(rf"^{name}\s*(:[^=]*)?=", p.read_text(encoding="utf-8"), re.M)]
        assert len(homes) == 1, (name, homes)


def test_the_three_backends_are_registered():
    assert {"native", "sat", "cpsat"} <= BACKENDS.keys()


@pytest.mark.parametrize("name", list(BACKENDS))
def test_every_registered_backend_follows_the_backend_row(name):
    from sudoku_csp.backends.base import Backend, BackendBase
    from sudoku_csp.backends.registry import backend_class, make_backend

    cls = backend_class(name)
    assert issubclass(cls, BackendBase) and cls.name == name and cls.description
    for option in cls.all_options():  # every declared default passes the base's own check
        assert option.value(name, option.default) == option.default
    backend = make_backend(name)
    assert isinstance(backend, Backend) and backend.spec == name


def test_the_package_imports_only_its_declared_dependencies():
    # A plain `pip install .` has only these (optional extras load through require_extra):
    # a module imported by name beyond them breaks the README's first command, while the
    # test extra's packages would hide it here (click came with dask, not with typer).
    import ast
    import sys

    declared = {"pysat", "ortools", "typer", "rich", "lzstring"}
    found: dict[str, str] = {}
    for path in (ROOT / "sudoku_csp").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.module
                     and not node.level else [])
            for name in names:
                top = name.split(".")[0]
                if top != "sudoku_csp" and top not in sys.stdlib_module_names:
                    found.setdefault(top, str(path.relative_to(ROOT)))
    assert set(found) <= declared, {k: v for k, v in found.items() if k not in declared}
