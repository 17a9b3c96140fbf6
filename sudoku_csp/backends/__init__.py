"""Backends: one module per solver, all behind :class:`~sudoku_csp.backends.base.Backend`."""

from sudoku_csp.backends.base import Backend, Option
from sudoku_csp.backends.registry import (
           BACKENDS,
           get_backend,
           list_backends,
           make_backend,
           parse_spec,
)
from sudoku_csp.errors import SpecError

__all__ = ["BACKENDS", "Backend", "Option", "SpecError", "get_backend", "list_backends",
           "make_backend", "parse_spec"]
