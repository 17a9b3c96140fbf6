"""The house keeps DESIGN.md's layers: every import of a module of sudoku_csp points to its own
layer or one below, and no modules import each other in a circle.

Every import statement counts, wherever it stands: at the top, under ``TYPE_CHECKING`` or
inside a function. The one exception is a notebook display hook (``_repr_svg_``,
``_repr_html_``), which may import the picture code lazily.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "sudoku_csp"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "interrupts", "extras", "deadline", "processes"),
    ("geometry", "variants", "canvas"),
    ("modeling",),
    ("constraints",),
    ("constraints.kinds",),
    ("puzzle",),
    ("io",),
    ("verify", "result", "render", "symmetry", "datasets"),
    ("native", "encodings", "satsolver", "satsession", "rup"),
    ("backends",),
    ("crosscheck", "batch", "certify", "canon", "study", "generate", "logic", "setter"),
    ("cli", "serve", "__init__", "__main__"),
)
"""DESIGN.md's layers, bottom first: a module's layer is that of the longest name here that
its dotted name (below ``sudoku_csp``) starts with."""

DISPLAY_HOOKS = ("_repr_svg_", "_repr_html_")


def _name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts)


def _layer(name: str) -> int:
    best, level = -1, None
    for i, layer in enumerate(LAYERS):
        for prefix in layer:
            if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > best:
                best, level = len(prefix), i
    if level is None:
        raise AssertionError(f"sudoku_csp.{name} is in no layer of LAYERS: add it")
    return level


MODULES = {_name(p): p for p in PACKAGE.rglob("*.py")}


def _resolve(target: str) -> str | None:
    """The module of ``sudoku_csp.<target>`` (a package resolves to its ``__init__``)."""
    if target in MODULES:
        return target
    if f"{target}.__init__" in MODULES:
        return f"{target}.__init__"
    return None


def imports(name: str) -> list[tuple[str, int]]:
    """The sudoku_csp modules that module ``name`` imports, with line numbers (display hooks
    left out)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    hooks = {n for fn in ast.walk(tree) if isinstance(fn, ast.FunctionDef)
             and fn.name in DISPLAY_HOOKS for n in ast.walk(fn)}
    package = name.rsplit(".", 1)[0] if "." in name else ""
    found = []
    for node in ast.walk(tree):
        if node in hooks:
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(["sudoku_csp", *base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            # `from sudoku_csp import io` names a module; `from x import name` a name of x.
            targets = [f"{module}.{a.name}" if _resolve(f"{module}.{a.name}"[11:]) else module
                       for a in node.names]
        for target in targets:
            if target == "sudoku_csp" or not target.startswith("sudoku_csp."):
                continue
            resolved = _resolve(target[len("sudoku_csp."):])
            if resolved is not None:
                found.append((resolved, node.lineno))
    return found


def _short(name: str) -> str:
    return name.removesuffix(".__init__") or "__init__"


def test_every_module_has_a_layer():
    for name in MODULES:
        _layer(_short(name))


@pytest.mark.parametrize("name", sorted(MODULES), ids=_short)
def test_imports_go_down_or_sideways(name):
    mine = _layer(_short(name))
    upward = [f"line {line}: {_short(target)}" for target, line in imports(name)
              if _layer(_short(target)) > mine and not _short(name).startswith("__")]
    assert not upward, f"sudoku_csp.{_short(name)} imports from a higher layer: {upward}"


def test_no_import_circles():
    graph = {name: {t for t, _ in imports(name) if t != name} for name in MODULES}
    # A package's __init__ re-exports its modules: an edge into a package is an edge into
    # what it re-exports, so a circle through an __init__ is a circle of the modules.
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        path.append(node)
        on_path.add(node)
        for nxt in sorted(graph[node]):
            if nxt in on_path:
                circles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in done:
                visit(nxt)
        on_path.discard(node)
        path.pop()
        done.add(node)

    for start in sorted(graph):
        if start not in done and not _short(start).startswith("__"):
            visit(start)
    assert not circles, [" -> ".join(map(_short, c)) for c in circles]
