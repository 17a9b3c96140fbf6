"""The killer line: a puzzle of killer cages (and givens) on one line.

The cage map (``N²`` characters, one per cell: the same symbol for the cells of one cage,
``.`` for a cell in no cage), a space, the cage sums separated by commas in the order each
symbol first appears in the map (``?`` for a cage without a sum), and optionally a second
space and the givens in the usual one-line form::

    AABBBCCDD... 3,15,22,...  [....5....]

Symbols are ``A-Z``, then ``a-z``, then ``0-9``, then the punctuation of
:data:`CAGE_SYMBOLS`; any other character but space, ``.``, ``,``, ``|`` and ``+`` also names
a cage when read. A puzzle with more cages than :data:`CAGE_SYMBOLS` holds, or with other
constraints, is written as JSON (:mod:`sudoku_csp.io.record`). Every error is a
:class:`~sudoku_csp.errors.ParseError` naming the line and column, and what was expected.

A format of cages, so the one reader or writer that names the cage kind: the cages
themselves are the kind's own (:class:`~sudoku_csp.constraints.Cage`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sudoku_csp.constraints import Constraint, ConstraintError
from sudoku_csp.errors import ParseError
from sudoku_csp.geometry import EMPTY, Geometry, GeometryError, check_size
from sudoku_csp.io.grid import format_line, parse_grid
from sudoku_csp.io.options import ReadOptions
from sudoku_csp.puzzle import Puzzle

if TYPE_CHECKING:
    from sudoku_csp.constraints.kinds.cage import Cage

__all__ = ["CAGE_SYMBOLS", "killer_line", "killer_tokens", "parse_killer", "writes"]

CAGE_SYMBOLS = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                "!#$%&()*-/:;<=>@[]^_{}~")
"""The symbols the killer line gives cages, in order (85)."""

NOT_CAGE = frozenset(".,|+")
_SUMS = re.compile(r"^(\d+|\?)(,(\d+|\?))*$")
_TOKEN = re.compile(r"\S+")


MAX_SUM_DIGITS = 6
"""Digits a cage sum may have in a killer line: the largest cage (35 different digits of a
35x35 grid) sums to 630, so a longer number is refused as such, not converted."""


def killer_tokens(text: str) -> list[re.Match[str]] | None:
    """The map, sums (and givens) tokens of a killer line, or None when ``text`` is not one.

    >>> [m.group() for m in killer_tokens("AABB" * 4 + " 3,7,7,3")]
    ['AABBAABBAABBAABB', '3,7,7,3']
    """
    tokens = list(_TOKEN.finditer(text))
    if len(tokens) not in (2, 3):
        return None
    first, sums = tokens[0].group(), tokens[1].group()
    if "," in first or not _SUMS.match(sums):
        return None
    side = math.isqrt(len(first))
    square = side >= 2 and side * side == len(first)
    # Sums of several cages (a comma) mark a killer line even when the map has the wrong
    # length: that is then the error to report, not an unknown puzzle symbol.
    return tokens if square or ("," in sums and not first.isdigit()) else None


def parse_killer(text: str, tokens: list[re.Match[str]], options: ReadOptions, line: int = 1,
                 metadata: str = "") -> Puzzle:
    """The puzzle of a killer line (its :func:`killer_tokens`)."""
    mapping, sums = tokens[0], tokens[1]
    side = math.isqrt(len(mapping.group()))
    if side * side != len(mapping.group()):
        raise ParseError(f"the cage map has {len(mapping.group())} characters: expected one "
                         "per cell, a square number (16, 36, 81, ... for 4x4, 6x6, 9x9)",
                         line=line, column=mapping.end() + 1)
    wanted = options.geometry.size if options.geometry is not None else options.size
    if wanted is not None and wanted != side:
        raise ParseError(f"the cage map has {len(mapping.group())} characters, a {side}x{side} "
                         f"grid; expected {wanted * wanted} for a {wanted}x{wanted} puzzle",
                         line=line, column=mapping.start() + 1)
    geometry = options.geometry
    if geometry is None:
        try:
            check_size(side)
        except GeometryError as exc:
            raise ParseError(str(exc), line=line, column=mapping.start() + 1) from None
        geometry = options.build(side, line)
    cells: dict[str, list[int]] = {}
    for cell, ch in enumerate(mapping.group()):
        if ch in NOT_CAGE:
            if ch != ".":
                raise ParseError(f"{ch!r} cannot name a cage: expected a letter, a digit or "
                                 "another symbol, or '.' for a cell in no cage",
                                 line=line, column=mapping.start() + cell + 1)
            continue
        cells.setdefault(ch, []).append(cell)
    entries = list(re.finditer(r"[^,]+", sums.group()))
    if len(entries) != len(cells):
        raise ParseError(f"the cage map has {len(cells)} cages but {len(entries)} sums are "
                         "given: expected one sum per cage, in the order each cage's symbol "
                         "first appears in the map", line=line, column=sums.start() + 1)
    # The kind is imported by the reader that makes one: a command reading other puzzles
    # starts without it (issue 34: start-up).
    from sudoku_csp.constraints.kinds.cage import Cage

    cages: list[Constraint] = []
    for (symbol, members), entry in zip(cells.items(), entries, strict=True):
        if len(entry.group()) > MAX_SUM_DIGITS:  # before int(): Python refuses 4300 digits
            raise ParseError(f"cage {symbol!r}: a sum of {len(entry.group())} digits is beyond "
                             f"any cage of a {side}x{side} grid", line=line,
                             column=sums.start() + entry.start() + 1)
        total = None if entry.group() == "?" else int(entry.group())
        cage = Cage(tuple(members), total)
        try:
            cage.validate(geometry)
        except ConstraintError as exc:
            column = sums.start() + entry.start() + 1 if exc.part == "sum" \
                else mapping.start() + members[0] + 1
            raise ParseError(f"cage {symbol!r}: {exc.reason}", line=line, column=column) from None
        cages.append(cage)
    givens = (EMPTY,) * geometry.ncells
    if len(tokens) == 3:
        text_givens = tokens[2]
        try:
            givens = parse_grid(text_givens.group(), ReadOptions(geometry=geometry), line).givens
        except ParseError as exc:
            column = text_givens.start() + (exc.column or 1)
            raise ParseError(f"givens: {exc.reason}", line=line, column=column) from None
    return Puzzle(geometry, givens, metadata, tuple(cages))


def writes(puzzle: Puzzle) -> bool:
    """Whether a killer line can hold ``puzzle``: cages only, symbols enough for them."""
    from sudoku_csp.constraints.kinds.cage import Cage

    return (all(isinstance(c, Cage) for c in puzzle.constraints)
            and len(puzzle.constraints) <= len(CAGE_SYMBOLS))


def killer_line(geometry: Geometry, cages: Sequence[Cage], givens: Sequence[int]) -> str:
    """The killer line of ``cages`` (and ``givens``, left out when there are none).

    >>> from sudoku_csp import make_geometry
    >>> from sudoku_csp.constraints import Cage
    >>> killer_line(make_geometry(4), [Cage((0, 1), 3)], [EMPTY] * 16)
    'AA.............. 3'
    """
    owner = ["."] * geometry.ncells
    ordered = sorted(cages, key=lambda c: min(c.cells))  # symbols in order of first appearance
    for symbol, cage in zip(CAGE_SYMBOLS, ordered, strict=False):
        for cell in cage.cells:
            owner[cell] = symbol
    sums = ",".join("?" if c.total is None else str(c.total) for c in ordered)
    line = f"{''.join(owner)} {sums}"
    if any(d != EMPTY for d in givens):
        line += " " + format_line(geometry, givens)
    return line
