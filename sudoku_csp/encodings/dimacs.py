"""DIMACS text of the encodings: written with a header that says what the formula is, and
read back.

The header (comment lines after ``c sudoku_csp CNF``) names the geometry (its
:func:`~sudoku_csp.variants.geometry_record`, the project's one serialised form), the
encoding, the at-most-one choice, the variable numbering of
:mod:`sudoku_csp.modeling.variables` and each family's clause count; a puzzle's file adds the
puzzle line. :func:`read_dimacs` gives all of that back, and reads plain DIMACS from any tool.
"""

from __future__ import annotations

import io
import itertools
import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO, TypeVar

from pysat.formula import CNF

from sudoku_csp.constraints import encoding_choices, refuse_constraints
from sudoku_csp.deadline import NEVER, Deadline, Limit
from sudoku_csp.encodings.cnf import (
    DEFAULT_AMO,
    DEFAULT_ENCODING,
    Encoding,
    Formula,
    Options,
    build,
    clue_reduced,
    encoding_of,
    givens,
    puzzle_clauses,
)
from sudoku_csp.errors import InputError
from sudoku_csp.geometry import Geometry, Grid
from sudoku_csp.io import parse, to_line
from sudoku_csp.modeling.variables import parts
from sudoku_csp.puzzle import Puzzle
from sudoku_csp.variants import (
    geometry_from_record,
    geometry_record,
    make_geometry,  # noqa: F401 - the doctests use it
)

__all__ = [
    "HEADER_TAG", "DimacsError", "DimacsFile", "empty_dimacs", "encode_puzzle_dimacs",
    "read_dimacs",
]


class DimacsError(InputError):
    """DIMACS text that cannot be read; the message starts with the line at fault
    (``line 7: ...``)."""


HEADER_TAG = "c sudoku_csp CNF"

T = TypeVar("T")


def _geometry_lines(geometry: Geometry) -> list[str]:
    """The geometry's record (:func:`~sudoku_csp.variants.geometry_record`) as comments."""
    record = geometry_record(geometry)
    lines = [f"c geometry: {record['name']}", f"c size: {record['size']}"]
    if record["box"]:
        lines.append(f"c box: {record['box']}")
    lines.append(f"c variants: {' '.join(record['variants']) or '-'}")
    if record["regions"] is not None:
        lines.append(f"c regions: {record['regions']}")
    return lines


def _geometry_of(info: dict[str, str]) -> Geometry:
    """The geometry written by :func:`_geometry_lines`, through the same record."""
    return geometry_from_record({
        "size": info["size"],
        "box": info.get("box"),
        "variants": [v for v in info.get("variants", "-").split() if v != "-"],
        "regions": info.get("regions"),
    })


def _numbering_lines(formula: Formula) -> list[str]:
    g, n, numbering = formula.geometry, formula.geometry.size, formula.vars
    x = numbering.x_count
    lines = [
        f"c numbering: x(cell, digit) = cell*{n} + digit + 1 for 0-based cell = {n}*row + "
        f"column and digit, i.e. {n * n}(r-1) + {n}(c-1) + d for 1-based r, c, d: "
        f"variables 1..{x}",
    ]
    if numbering.triad_count:
        p = parts(g)
        lines.append(f"c numbering: t(part, digit) = {x} + part*{n} + digit + 1 (digit "
                     f"lies in the part's cells): variables {numbering.triad(0, 0)}.."
                     f"{numbering.first_aux - 1}")
        lines.extend(f"c part {i}: {name}: cells {' '.join(map(str, cells))} (0-based)"
                     for i, (name, cells) in enumerate(zip(p.names, p.cells, strict=True)))
    if formula.nv >= numbering.first_aux:
        lines.append(f"c numbering: variables {numbering.first_aux}..{formula.nv} are "
                     f"auxiliary ({formula.amo} at-most-one encoding)")
    return lines


_WRITTEN_BETWEEN_CHECKS = 1 << 16  # clauses written between two looks at the deadline


def _dimacs(formula: Formula, clauses: Iterable[Sequence[int]], count: int,
            extra: Sequence[str], nv: int | None = None, deadline: Deadline = NEVER) -> str:
    """``nv``: the variables of ``clauses`` when they go beyond the formula's (a puzzle's
    typed constraints number their auxiliaries after it). ``deadline`` is looked at every
    :data:`_WRITTEN_BETWEEN_CHECKS` clauses (:class:`~sudoku_csp.deadline.Expired`)."""
    head = [HEADER_TAG, *_geometry_lines(formula.geometry),
            f"c encoding: {formula.encoding.value}", f"c amo: {formula.amo}",
            *_numbering_lines(formula),
            *(f"c family {s.name}: {s.count} clauses" for s in formula.families),
            *extra, f"p cnf {max(formula.nv, nv or 0)} {count}"]
    out = io.StringIO()
    out.write("\n".join(head))
    out.write("\n")
    lines = (" ".join(map(str, c)) + " 0\n" if c else "0\n" for c in clauses)
    while True:
        chunk = list(itertools.islice(lines, _WRITTEN_BETWEEN_CHECKS))
        if not chunk:
            return out.getvalue()
        deadline.check("writing the formula")
        out.writelines(chunk)


def empty_dimacs(geometry: Geometry, encoding: str | Encoding = DEFAULT_ENCODING,
                 amo: str = DEFAULT_AMO) -> str:
    """DIMACS text of the empty grid, with a comment header naming the geometry, encoding,
    numbering and family counts (read back by :func:`read_dimacs`).

    >>> text = empty_dimacs(make_geometry(4), "minimal")
    >>> [line for line in text.splitlines() if line.startswith("p ")]
    ['p cnf 64 304']
    """
    formula = build(geometry, encoding, amo)
    return _dimacs(formula, formula.clauses, len(formula.clauses), [])


def encode_puzzle_dimacs(puzzle: Puzzle, encoding: str | Encoding = DEFAULT_ENCODING,
                         amo: str = DEFAULT_AMO, reduce: bool = False,
                         extra_clauses: Sequence[Sequence[int]] = (),
                         notes: Sequence[str] = (), options: Options = None,
                         time_limit: Limit = None) -> str:
    """DIMACS text for one puzzle: the empty-grid formula plus one unit clause per given
    and the clauses of its typed constraints (:func:`~sudoku_csp.encodings.cnf.encode` of
    the puzzle; ``options`` are the kinds' encoding options, named in the header), or
    (``reduce=True``, plain puzzles only)
    the clue-reduced formula of :func:`clue_reduced`, whose header also says which
    variables the givens fix and how to decode a model (``c fixed:``, ``c decode:``, as in
    ``encodings/README.md``); then ``extra_clauses`` (a certificate's exclusion clause),
    described by the comment lines ``notes``. The header records the puzzle (its killer
    line or JSON when it has constraints), so :func:`read_dimacs` gives it back.
    ``time_limit`` (seconds, or a :class:`~sudoku_csp.deadline.Deadline`) is looked at
    after building and while writing: :class:`~sudoku_csp.deadline.Expired` once past.

    >>> p = parse("3.1...4.2.......")
    >>> encode_puzzle_dimacs(p).splitlines()[-1]
    '34 0'
    >>> read_dimacs(encode_puzzle_dimacs(p, reduce=True)).givens == p.givens
    True
    >>> killer = encode_puzzle_dimacs(parse("AABB" "CCDD" "EEFF" "GGHH 3,7,7,3,4,6,6,4"))
    >>> [line for line in killer.splitlines() if line.startswith(("c constraints", "p "))]
    ... # doctest: +NORMALIZE_WHITESPACE
    ['c constraints: 8 cage (sums: combos, seers: uncovered, house_cages: on, hidden: on, leftovers:
      on, required: on, line_order: on, cell_orders: shared, line_sums: cells, arrow_rows: cells,
      double_arrows: totals, zipper_sums: totals, region_sums: sets, lockout_order: on,
      sum_bounds: on, bounds_ends: segments, bounds_rows: loosest, sandwich_cnf: crusts,
      skyscrapers: lines, renban_runs: on, renban_seers: on): 48 clauses after the givens',
     'p cnf 64 496']
    """
    if reduce and puzzle.constraints:
        refuse_constraints(puzzle, "the clue-reduced DIMACS form")
    deadline = Deadline.of(time_limit)
    chosen = encoding_choices(options)  # checked even where no constraint uses them
    formula = build(puzzle.geometry, encoding, amo, deadline=deadline)
    # The givens alone: the header's other lines (size, box, variants, regions) say the
    # geometry, as encodings/README.md documents.
    line = f"c puzzle: {to_line(puzzle, standalone=False)}"
    nv = None
    if reduce:
        clauses = [*clue_reduced(puzzle, encoding, amo, deadline=deadline).clauses,
                   *extra_clauses]
        # A solver may print anything for a variable in no clause (CaDiCaL prints many of
        # them true), so the header says which ones to ignore: every variable the givens
        # fix, not just the given cells'. encodings/README.md gives the same recipe, and
        # tests/test_dimacs_recipe.py decodes models by following it.
        given_lines = [
            "c givens: clue-reduced (Kwon & Jain): clauses satisfied by the givens dropped, "
            "literals they falsify removed",
            "c fixed: for each given digit d in cell c, every x(c, *) and x(p, d) for every "
            "peer p of c (a cell sharing a unit with c, or paired with it by a variant such as "
            "anti-knight); these are exactly the variables of "
            f"1..{formula.vars.x_count} that occur in no clause",
            "c decode: a given cell holds its given digit, any other cell c the d of its one "
            "true x(c, d) that is not fixed; ignore a model's values of fixed variables",
        ]
    else:
        clauses, nv = puzzle_clauses(puzzle, encoding, amo, options, deadline=deadline)
        added = len(clauses) - len(formula.clauses)
        clauses += extra_clauses
        units = len(givens(puzzle))
        given_lines = [f"c givens: {units} unit clauses after the empty-grid clauses"]
        if puzzle.constraints:
            kinds = Counter(c.kind for c in puzzle.constraints)
            added -= units
            named = ", ".join(f"{k}: {v}" for k, v in chosen.items())
            given_lines.append(
                "c constraints: " + ", ".join(f"{k} {kind}" for kind, k in kinds.items())
                + (f" ({named})" if named else "") + f": {added} clauses after the givens")
    deadline.check("building the formula")
    return _dimacs(formula, clauses, len(clauses), [line, *given_lines, *notes], nv, deadline)


@dataclass(frozen=True)
class DimacsFile:
    """A DIMACS formula read back, with what its header says (``None`` where it says
    nothing: a file from another tool)."""

    cnf: CNF
    geometry: Geometry | None
    encoding: Encoding | None
    amo: str | None
    givens: Grid | None
    reduced: bool
    comments: tuple[str, ...]


def read_dimacs(source: str | os.PathLike | TextIO) -> DimacsFile:
    """Read DIMACS from text (a ``str``), a file path (a :class:`pathlib.Path` or other
    ``os.PathLike``) or an open text file. The header written by this module gives the
    geometry, encoding, amo and puzzle back; a line ``%`` ends the formula (as in SATLIB
    files). Raises :class:`DimacsError`, naming the line, on malformed input: a token that
    is not an integer, a bad ``p`` line, a clause count that differs from it, or a header
    value (geometry, encoding, puzzle) that cannot be used.

    >>> d = read_dimacs(empty_dimacs(make_geometry(9, variants=["diagonal"]), "augmented"))
    >>> d.geometry.name, d.encoding, len(d.cnf.clauses), d.cnf.nv
    ('9x9 diagonal', <Encoding.AUGMENTED: 'augmented'>, 18486, 1269)
    >>> read_dimacs("p cnf 2 1\\n1 x 0\\n")
    Traceback (most recent call last):
    ...
    sudoku_csp.encodings.dimacs.DimacsError: line 2: 'x' is not a literal (an integer)
    """
    if isinstance(source, os.PathLike):
        text = Path(source).read_text(encoding="utf-8")
    elif isinstance(source, str):
        text = source
    else:
        text = source.read()
    comments: list[str] = []
    header: dict[str, tuple[int, str]] = {}  # key -> (line number, value), first one wins
    clauses: list[list[int]] = []
    declared: tuple[int, int, int] | None = None  # variables, clauses, line number
    pending: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("%"):
            break
        if line.startswith("c"):
            comments.append(line)
            key, sep, value = line[1:].partition(":")
            if sep:
                header.setdefault(key.strip(), (number, value.strip()))
        elif line.startswith("p"):
            if declared is not None:
                raise DimacsError(f"line {number}: a second 'p' line (the first is line "
                                  f"{declared[2]})")
            declared = (*_problem_line(line, number), number)
        else:
            for token in line.split():
                try:
                    lit = int(token)
                except ValueError:
                    raise DimacsError(f"line {number}: {token!r} is not a literal "
                                      "(an integer)") from None
                if lit:
                    pending.append(lit)
                else:
                    clauses.append(pending)
                    pending = []
    if pending:
        clauses.append(pending)
    cnf = CNF(from_clauses=clauses, by_ref=True)  # read here: no deep copy needed
    if declared is not None:
        if declared[1] != len(clauses):
            raise DimacsError(f"line {declared[2]}: the header declares {declared[1]} "
                              f"clauses, the file has {len(clauses)}")
        cnf.nv = max(cnf.nv, declared[0])
    cnf.comments = comments
    return _described(cnf, comments, header)


def _problem_line(line: str, number: int) -> tuple[int, int]:
    """The variable and clause counts of a ``p cnf V C`` line."""
    fields = line.split()
    if (len(fields) == 4 and fields[:2] == ["p", "cnf"]
            and all(f.isdigit() for f in fields[2:])):
        return int(fields[2]), int(fields[3])
    raise DimacsError(f"line {number}: expected 'p cnf VARIABLES CLAUSES', got {line!r}")


def _described(cnf: CNF, comments: list[str], header: dict[str, tuple[int, str]]
               ) -> DimacsFile:
    """``cnf`` with what a header written by this module says about it (nothing for another
    tool's file: its comments need not mean what ours do)."""
    if HEADER_TAG not in comments:
        return DimacsFile(cnf, None, None, None, None, False, tuple(comments))
    values = {key: value for key, (_, value) in header.items()}

    def read(key: str, what: str, convert: Callable[[dict[str, str]], T]) -> T | None:
        """``convert(values)`` if the header has ``key``; its errors name ``key``'s line."""
        if key not in values:
            return None
        try:
            return convert(values)
        except ValueError as exc:  # InputError (GeometryError, ParseError) is one
            raise DimacsError(f"line {header[key][0]}: {what}: {exc}") from exc

    geometry = read("size", "geometry", _geometry_of)
    puzzle = (read("puzzle", "puzzle", lambda v: parse(v["puzzle"], geometry=geometry))
              if geometry else None)
    return DimacsFile(cnf=cnf, geometry=geometry,
                      encoding=read("encoding", "encoding", lambda v: encoding_of(v["encoding"])),
                      amo=values.get("amo"), givens=puzzle.givens if puzzle else None,
                      reduced="clue-reduced" in values.get("givens", ""),
                      comments=tuple(comments))
