"""The puzzle sets bundled with the package, by name: every ``sudoku_csp/data/NAME.txt``.

Each set is a puzzle file (one puzzle per line, ``#`` comments, text after a tab kept as
the puzzle's metadata; see :func:`sudoku_csp.puzzle.read_puzzles`) that this project made
with its own generator; its header gives the commands and seeds. A new set needs no code:
drop the file into ``sudoku_csp/data/`` and its stem becomes a name here.

>>> names()
['mixed9', 'sixteen']
>>> puzzles = load("sixteen")
>>> len(puzzles), puzzles[0].size, puzzles[0].metadata
(10, 16, 'generated seed=2026 #1: 93 clues, minimal')
>>> path("mixed9").name
'mixed9.txt'
>>> load("top95")
Traceback (most recent call last):
...
sudoku_csp.datasets.UnknownDatasetError: no bundled puzzle set 'top95'; choose from mixed9, sixteen
"""

from __future__ import annotations

import atexit
import contextlib
from importlib import resources
from pathlib import Path

from sudoku_csp.errors import InputError
from sudoku_csp.io import read_puzzles
from sudoku_csp.puzzle import Puzzle

__all__ = ["SUFFIX", "UnknownDatasetError", "load", "names", "path"]

SUFFIX = ".txt"
"""The file extension of a bundled set; a name is the file name without it."""


class UnknownDatasetError(InputError):
    """A name that is not one of the bundled puzzle sets; the message lists those there are."""


def _folder():  # a Traversable: a real directory, or a folder inside a zip the package runs from
    return resources.files("sudoku_csp") / "data"


def names() -> list[str]:
    """The names of the bundled puzzle sets, sorted: what :func:`path` and :func:`load` take.

    >>> "mixed9" in names()
    True
    """
    return sorted(entry.name.removesuffix(SUFFIX) for entry in _folder().iterdir()
                  if entry.name.endswith(SUFFIX) and entry.is_file())


# A package imported from a zip has no files on disk: as_file() copies a set to a temporary
# file, which must outlive this call. The stack keeps those copies until the interpreter
# exits (installed packages are plain directories, so nothing is copied there).
_copies = contextlib.ExitStack()
atexit.register(_copies.close)
_paths: dict[str, Path] = {}


def path(name: str) -> Path:
    """The file of the bundled set ``name``, as a path any file API (or the CLI) can open.

    Valid for the life of the process. Raises :class:`UnknownDatasetError` (an
    :class:`~sudoku_csp.errors.InputError`) for a name :func:`names` does not list.

    >>> path("sixteen").read_text(encoding="utf-8").startswith("# 10 unique minimal 16x16")
    True
    """
    if name not in _paths:
        # Checked against names() rather than by opening the file: "../x" or "a/b" must not
        # reach files outside the data folder.
        if name not in names():
            raise UnknownDatasetError(
                f"no bundled puzzle set {name!r}; choose from {', '.join(names())}")
        resource = _folder() / f"{name}{SUFFIX}"
        _paths[name] = _copies.enter_context(resources.as_file(resource))
    return _paths[name]


def load(name: str) -> list[Puzzle]:
    """Every puzzle of the bundled set ``name``, in file order, each size inferred from its
    line. Raises :class:`UnknownDatasetError` for a name :func:`names` does not list.

    >>> [p.size for p in load("mixed9")[:2]]
    [9, 9]
    """
    return list(read_puzzles(path(name)))
