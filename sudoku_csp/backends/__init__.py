"""Backends: one module per solver, all behind :class:`~sudoku_csp.backends.base.Backend`."""

from sudoku_csp.backends.base import Backend, Option, SpecError
from sudoku_csp.backends.registry import (
           BACKENDS,
           get_backend,
           list_backends,
           make_backend,
           parse_spec,
)

__all__ = ["BACKENDS", "Backend", "Option", "SpecError", "get_backend", "list_backends",
           "make_backend", "parse_spec"]
