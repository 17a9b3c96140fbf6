"""What a user gets from ``pip install``: metadata, the files in the wheel, the public names
and the bundled puzzle sets (:mod:`sudoku_csp.datasets`)."""

from __future__ import annotations

import ast
import fnmatch
import importlib
import importlib.util
import pydoc
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import sudoku_csp
from sudoku_csp import datasets
from sudoku_csp.errors import InputError
from sudoku_csp.io import read_puzzles, to_line

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "sudoku_csp"


@pytest.fixture(scope="module")
def project() -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+; the checks are the same on 3.10
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


# -- metadata ------------------------------------------------------------------------------
def test_the_license_file_is_the_declared_license_and_ships(project):
    meta = project["project"]
    assert meta["license"] == "MIT"
    assert meta["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the sudoku_csp authors" in text


def test_classifiers_match_requires_python_and_the_typing_marker(project):
    meta = project["project"]
    classifiers = meta["classifiers"]
    assert meta["requires-python"] == ">=3.10"
    versions = sorted((int(m[1]), int(m[2])) for c in classifiers
                      if (m := re.fullmatch(r"Programming Language :: Python :: (\d)\.(\d+)", c)))
    assert versions == [(3, 10), (3, 11), (3, 12), (3, 13)]
    # PEP 639: a license expression replaces the License classifier (setuptools refuses both).
    assert not [c for c in classifiers if c.startswith("License ::")]
    assert "Typing :: Typed" in classifiers
    assert (PACKAGE / "py.typed").is_file()


def test_package_data_ships_py_typed_and_every_bundled_set(project):
    globs = project["tool"]["setuptools"]["package-data"]["sudoku_csp"]
    shipped = [p for p in PACKAGE.rglob("*")
               if p.is_file() and any(fnmatch.fnmatch(p.relative_to(PACKAGE).as_posix(), g)
                                      for g in globs)]
    names = {p.relative_to(PACKAGE).as_posix() for p in shipped}
    assert "py.typed" in names
    assert {f"data/{name}.txt" for name in datasets.names()} <= names


def test_no_project_url_is_made_up(project):
    # No public home is known yet; add [project.urls] when there is a real one.
    assert "urls" not in project["project"]


@pytest.mark.slow
def test_the_wheel_holds_the_license_the_typing_marker_and_the_puzzle_sets(tmp_path):
    source = tmp_path / "src"  # a copy: building in place would write build/ into the tree
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(PACKAGE, source / "sudoku_csp",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), source],
        capture_output=True, text=True, timeout=300)
    if run.returncode and "satisfies the requirement setuptools" in run.stderr:
        pytest.skip("no package index to fetch the build backend from")
    assert run.returncode == 0, run.stderr
    [wheel] = tmp_path.glob("sudoku_csp-*.whl")
    files = set(zipfile.ZipFile(wheel).namelist())
    assert any(re.fullmatch(r"sudoku_csp-[^/]+\.dist-info/licenses/LICENSE", f) for f in files)
    assert "sudoku_csp/py.typed" in files
    assert {f"sudoku_csp/data/{name}.txt" for name in datasets.names()} <= files


# -- the package's help and public names -------------------------------------------------------
def test_help_says_where_to_start_and_every_module_it_names_exists():
    text = pydoc.render_doc(sudoku_csp, renderer=pydoc.plaintext)
    assert "Where to start" in text
    doc = sudoku_csp.__doc__ or ""
    for needed in ("sudoku_csp.encodings.cnf", "sudoku_csp.encodings.cpsat", "sudoku_csp.batch",
                   "sudoku_csp.certify", "sudoku_csp.datasets"):
        assert needed in doc, needed
    for kind, target in re.findall(r":(mod|func|class):`~?([\w.]+)`", doc):
        if kind == "mod":
            importlib.import_module(target)
        elif "." in target:
            module, _, name = target.rpartition(".")
            assert hasattr(importlib.import_module(module), name), target
        else:
            assert hasattr(sudoku_csp, target), target


OWN_ALL = ["sudoku_csp", "sudoku_csp.datasets", "sudoku_csp.render", "sudoku_csp.symmetry",
           "sudoku_csp.rup", "sudoku_csp.verify", "sudoku_csp.crosscheck"]


@pytest.mark.parametrize("name", OWN_ALL)
def test_all_lists_public_names_that_exist(name):
    module = importlib.import_module(name)
    assert module.__all__ == sorted(set(module.__all__), key=module.__all__.index)  # no repeats
    for public in module.__all__:
        assert not public.startswith("_") and hasattr(module, public), public


def test_every_name_the_project_imports_from_these_modules_is_in_their_all():
    # __all__ is the public surface: a name another module or a test needs must be on it.
    missing = []
    for path in [*PACKAGE.rglob("*.py"), *(ROOT / "tests").rglob("*.py"),
                 *(ROOT / "examples").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module in OWN_ALL and not node.level:
                module = importlib.import_module(node.module)
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    if (alias.name.startswith("_") or alias.name in module.__all__
                            or (hasattr(module, "__path__")  # a package: maybe a submodule
                                and importlib.util.find_spec(submodule) is not None)):
                        continue
                    missing.append((path.relative_to(ROOT).as_posix(), submodule))
    assert not missing, missing


def test_the_package_keeps_every_name_it_exported_before():
    before = {"EMPTY", "BackendError", "InputError", "VARIANTS", "Backend", "Geometry",
              "GeometryError", "InvalidPuzzleError", "ParseError", "Puzzle", "Result",
              "SpecError", "Status", "Unit", "WrongSolutionError", "count", "format_grid",
              "format_line", "get_backend", "is_solution", "make_backend", "make_geometry",
              "parse", "read_puzzles", "solve", "violations"}
    assert before <= set(sudoku_csp.__all__)
    assert "datasets" in sudoku_csp.__all__ and sudoku_csp.datasets is datasets


# -- bundled puzzle sets ---------------------------------------------------------------------
def test_names_are_the_files_in_the_data_folder():
    assert datasets.names() == sorted(p.stem for p in (PACKAGE / "data").glob("*.txt"))
    assert {"mixed9", "sixteen"} <= set(datasets.names())


@pytest.mark.parametrize("name", datasets.names())
def test_every_bundled_set_loads_from_its_file_without_clashing_givens(name):
    path = datasets.path(name)
    assert path.resolve() == (PACKAGE / "data" / f"{name}.txt").resolve()
    puzzles = datasets.load(name)
    assert puzzles
    assert [to_line(p) for p in puzzles] == [to_line(p) for p in read_puzzles(path)]
    assert not [p.metadata for p in puzzles if p.clashes()]


def test_load_reads_every_line_of_a_one_puzzle_per_line_set():
    lines = [line for line in datasets.path("mixed9").read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert [p.metadata for p in datasets.load("mixed9")] == [
        line.partition("\t")[2] for line in lines]


@pytest.mark.parametrize("name", ["top95", "mixed9.txt", "../pyproject", "data/mixed9", ""])
def test_an_unknown_name_is_an_input_error_listing_the_sets(name):
    with pytest.raises(datasets.UnknownDatasetError) as caught:
        datasets.load(name)
    assert isinstance(caught.value, InputError)
    assert "mixed9, sixteen" in str(caught.value)


def test_path_gives_a_real_file_when_the_package_runs_from_a_zip(tmp_path):
    archive = tmp_path / "sudoku_csp.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for file in PACKAGE.rglob("*"):
            if file.is_file() and "__pycache__" not in file.parts:
                z.write(file, file.relative_to(ROOT).as_posix())
    script = ("import sys; sys.path.insert(0, sys.argv[1])\n"
              "from sudoku_csp import datasets\n"
              "assert datasets.__file__.startswith(sys.argv[1]), datasets.__file__\n"
              "p = datasets.path('sixteen')\n"
              "assert p.is_file() and datasets.path('sixteen') == p\n"
              "print(p, len(datasets.load('sixteen')))\n")
    run = subprocess.run([sys.executable, "-c", script, str(archive)], capture_output=True,
                         text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    copy, count = run.stdout.split()
    assert count == "10"
    assert not Path(copy).exists()  # the temporary copy went away with the process


def test_the_lazy_names_are_the_ones_type_checkers_see_and_all_lists():
    # sudoku_csp/__init__.py names its exports twice: the table that loads them when first
    # used, and the imports under TYPE_CHECKING. They must not drift apart.
    source = (Path(sudoku_csp.__file__)).read_text(encoding="utf-8")
    block = next(node for node in ast.parse(source).body if isinstance(node, ast.If)
                 and getattr(node.test, "id", None) == "TYPE_CHECKING")
    seen = {(node.module, alias.name) for node in block.body
            if isinstance(node, ast.ImportFrom) for alias in node.names}
    lazy = {(module, name) for module, names in sudoku_csp._EXPORTS.items() for name in names}
    assert seen == lazy
    assert set(sudoku_csp.__all__) == {name for _, name in lazy} | {"solve", "count"}
    # Importing the package loads none of them until asked.
    code = ("import sys, sudoku_csp; "
            "print(sorted(m for m in sys.modules if m.startswith('sudoku_csp')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert loaded == "['sudoku_csp']"


def test_every_public_entry_point_taking_a_puzzle_takes_its_text_too(tmp_path):
    from sudoku_csp.canon import canonicalize
    from sudoku_csp.certify import certify
    from sudoku_csp.crosscheck import crosscheck
    from sudoku_csp.logic import explain, hint

    text = "3.1...4.2......."
    puzzle = sudoku_csp.parse(text)
    assert sudoku_csp.solve(text).solutions == sudoku_csp.solve(puzzle).solutions
    assert sudoku_csp.count(text).status is sudoku_csp.Status.UNIQUE
    assert explain(text).lines() == explain(puzzle).lines()
    assert hint(text) == hint(puzzle)
    assert crosscheck(text, ["native"]).solution == crosscheck(puzzle, ["native"]).solution
    assert certify(text, tmp_path / "c").puzzle == puzzle
    assert sudoku_csp.canonical(text) == sudoku_csp.canonical(puzzle)
    assert canonicalize(text).puzzle == sudoku_csp.canonical(puzzle)
    assert sudoku_csp.equivalent(text, "....2.1.......43") is not None
