"""SudokuPad's own puzzles (``scl``/``ctc`` links), read where their meaning is typed: the
puzzle object a payload carries (decoded by :mod:`sudoku_csp.io.sudokupad_payload`) mapped to
an f-puzzles document.

The object: ``cells`` (rows of cell objects, ``value`` on a given), ``regions`` (lists of
``[row, col]``, from 0), ``cages`` (``cells``, a ``value`` such as ``15`` or ``"title: ..."``,
``unique``), ``lines``, ``arrows`` (``wayPoints`` in grid units, a cell's centre at
``row + 0.5, col + 0.5``, ``color``), ``overlays``/``underlays`` (``center``, ``width``,
``height``, ``rounded``, colours, ``text``) and ``global`` (``antiknight``, ...).

Read: the grid size, the givens, the regions, killer cages (a cage with cells and a whole
number value, or ``unique`` cells without one), arrows whose tail sits in a single-cell
circle, and the ``global`` rules named above. A cage without a value or ``unique`` is
decoration (noted, never a rule), as f-puzzles' ``cage`` is. Everything that carries its
meaning only in colour or rules text (lines, overlays, underlays, other arrows, styled
cages) is refused with an error naming the element; ``--treat-line COLOUR=KIND`` says what
the lines of a colour are and ``--ignore lines`` (``overlays``, ``underlays``, ``arrows``,
...) leaves a SudokuPad element kind out, noted. The puzzle is built as an f-puzzles
document and read by :func:`sudoku_csp.io.fpuzzles.fpuzzles_document`, so both formats
share one envelope and one registry of kinds.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from sudoku_csp.errors import ParseError
from sudoku_csp.io.options import ReadOptions
from sudoku_csp.io.sudokupad_payload import sudokupad_json

__all__ = ["sudokupad_fpuzzles", "sudokupad_fpuzzles_json"]

ELEMENTS = ("lines", "arrows", "overlays", "underlays")
"""SudokuPad's drawn elements: rules only where their meaning is typed."""

SETTINGS = ("id", "cellSize", "metadata", "settings", "videos", "title", "author", "rules",
            "solution")
"""Top-level keys that are no rule: the puzzle's id, drawing size, and words."""

CELL_KEYS = {"value": "value", "centremarks": "centerPencilMarks",
             "pencilMarks": "cornerPencilMarks", "pencilmarks": "cornerPencilMarks"}
"""Keys of a cell: the given digit, and a setter's marks (f-puzzles' names for them)."""

GLOBALS = {"antiknight": "antiknight", "antiking": "antiking",
           "nonconsecutive": "nonconsecutive"}
"""Named global rules and the f-puzzles key of each (true/false flags)."""

_META = re.compile(r"^\s*([A-Za-z]+)\s*:\s*(.*)$", re.DOTALL)


# -- reading ----------------------------------------------------------------------------------
def sudokupad_fpuzzles_json(data: str, options: ReadOptions, line: int = 1) -> str:
    """The f-puzzles JSON of an ``scl``/``ctc`` payload (see :func:`sudokupad_fpuzzles`)."""
    return json.dumps(sudokupad_fpuzzles(sudokupad_json(data, line), options, line))


def sudokupad_fpuzzles(puzzle: Mapping[str, Any], options: ReadOptions, line: int = 1
                       ) -> dict[str, Any]:
    """The f-puzzles document of a SudokuPad puzzle object, holding what it types.

    Lines whose colour ``options.treat_line`` names go in as f-puzzles ``line`` decoration of
    that colour, which the f-puzzles reader turns into the kind named; the element kinds in
    ``options.ignore`` go in under their SudokuPad name, which it notes as ignored. Anything
    else without a typed meaning is a ParseError at ``line`` naming it.
    """
    reader = _Reader(puzzle, options, line)
    return reader.document()


class _Reader:
    def __init__(self, puzzle: Mapping[str, Any], options: ReadOptions, line: int) -> None:
        self.puzzle = puzzle
        self.ignore = set(options.ignore)
        self.treat = {c.strip().upper() for c, _ in options.treat_line}
        self.line = line
        self.size = 0

    def fail(self, message: str) -> ParseError:
        return ParseError(message, line=self.line)

    def document(self) -> dict[str, Any]:
        p = self.puzzle
        unknown = [k for k in p if k not in ("cells", "regions", "cages", "global", *ELEMENTS,
                                             *SETTINGS) and k not in self.ignore]
        if unknown:
            raise self.fail(f"SudokuPad {', '.join(map(str, unknown))}: not a rule this tool "
                            "knows; it is refused rather than skipped (skip it with --ignore "
                            "KEY)")
        doc: dict[str, Any] = {}
        rows = self.cells()
        self.regions(rows)
        doc["size"] = self.size
        doc["grid"] = rows
        doc.update(self.globals())
        title = self.title()
        killer, decoration = self.cages()
        if killer:
            doc["killercage"] = killer
        if decoration:
            doc["cage"] = decoration
        circles_used, arrows = self.arrows()
        if arrows:
            doc["arrow"] = arrows
        lines = self.lines()
        if lines:
            doc["line"] = lines
        self.drawn(circles_used)
        found = p.get("metadata")
        meta: Mapping[str, Any] = found if isinstance(found, dict) else {}
        for key in sorted(self.ignore):
            if key in p or key in meta:  # the f-puzzles reader notes "ignored as asked: KEY"
                doc[key] = p[key] if key in p else meta[key]
        if title:
            doc["title"] = title
        return doc

    # the grid
    def cells(self) -> list[list[dict[str, Any]]]:
        rows = self.puzzle.get("cells")
        if (not isinstance(rows, list) or not rows
                or not all(isinstance(row, list) for row in rows)):
            raise self.fail("SudokuPad cells: expected rows of cell objects")
        size = len(rows)
        if not all(len(row) == size for row in rows):
            raise self.fail(f"SudokuPad cells: expected a square grid, got {size} rows of "
                            f"{sorted({len(r) for r in rows})} cells")
        self.size = size
        out: list[list[dict[str, Any]]] = []
        for r, row in enumerate(rows):
            out.append([])
            for c, cell in enumerate(row):
                if cell is None:
                    cell = {}
                if not isinstance(cell, dict):
                    raise self.fail(f"SudokuPad cells[{r}][{c}]: expected a cell object")
                mine: dict[str, Any] = {}
                for key, value in cell.items():
                    if key not in CELL_KEYS:
                        raise self.fail(f"SudokuPad cells[{r}][{c}].{key}: not a cell key "
                                        "this tool knows")
                    if key == "value":
                        if value in (None, ""):
                            continue
                        digit = _whole(value)
                        if digit is None or not 1 <= digit <= size:
                            raise self.fail(f"SudokuPad cells[{r}][{c}].value: expected a "
                                            f"digit 1..{size}, got {value!r}")
                        mine.update(value=digit, given=True)
                    elif value:
                        mine[CELL_KEYS[key]] = value
                out[-1].append(mine)
        return out

    def regions(self, rows: list[list[dict[str, Any]]]) -> None:
        regions = self.puzzle.get("regions")
        n = self.size
        if not isinstance(regions, list) or not regions:
            raise self.fail("SudokuPad regions: none given; a grid without regions is no "
                            "sudoku this tool reads")
        seen: dict[tuple[int, int], int] = {}
        for i, region in enumerate(regions):
            if not isinstance(region, list):
                raise self.fail(f"SudokuPad regions[{i}]: expected a list of [row, col]")
            for j, rc in enumerate(region):
                cell = self.rc(rc, f"regions[{i}][{j}]")
                if cell in seen:
                    raise self.fail(f"SudokuPad regions[{i}][{j}]: R{cell[0] + 1}C"
                                    f"{cell[1] + 1} is already in region {seen[cell] + 1}")
                seen[cell] = i
        if len(regions) != n or len(seen) != n * n:
            raise self.fail(f"SudokuPad regions: expected {n} regions covering the {n}x{n} "
                            f"grid, got {len(regions)} covering {len(seen)} cells")
        for (r, c), i in seen.items():
            rows[r][c]["region"] = i

    def rc(self, value: object, where: str) -> tuple[int, int]:
        """A ``[row, col]`` from 0 inside the grid."""
        if (isinstance(value, list) and len(value) == 2
                and all(_whole(v) is not None for v in value)):
            r, c = (_whole(v) for v in value)
            assert r is not None and c is not None
            if 0 <= r < self.size and 0 <= c < self.size:
                return r, c
        raise self.fail(f"SudokuPad {where}: expected [row, col] of a cell of the "
                        f"{self.size}x{self.size} grid (from 0), got {value!r}")

    def name(self, cell: tuple[int, int]) -> str:
        return f"R{cell[0] + 1}C{cell[1] + 1}"

    def globals(self) -> dict[str, bool]:
        rules = self.puzzle.get("global", [])
        if not isinstance(rules, list):
            raise self.fail("SudokuPad global: expected a list of rule names")
        out = {}
        for rule in rules:
            if rule not in GLOBALS:
                raise self.fail(f"SudokuPad global rule {rule!r}: not a rule this tool reads "
                                f"(it reads {', '.join(GLOBALS)})")
            out[GLOBALS[rule]] = True
        return out

    def title(self) -> str:
        """The title and author (from ``metadata`` or meta cages such as
        ``"title: ..."``)."""
        meta = self.puzzle.get("metadata")
        words: dict[str, str] = {}
        if isinstance(meta, dict):
            if meta.get("bgimage") and "bgimage" not in self.ignore:
                raise self.fail("SudokuPad background image (metadata bgimage) may draw rules "
                                "this tool cannot see: it is refused rather than guessed "
                                "(skip it with --ignore bgimage)")
            words.update({str(k).lower(): str(v) for k, v in meta.items()})
        for cage in self.puzzle.get("cages") or []:
            if isinstance(cage, dict) and _is_meta(cage):
                match = _META.match(str(cage.get("value")))
                assert match is not None
                words.setdefault(match[1].lower(), match[2])
        return " ".join(words[k] for k in ("title", "author") if words.get(k))

    # typed elements
    def cages(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        cages = self.puzzle.get("cages") or []
        if not isinstance(cages, list):
            raise self.fail("SudokuPad cages: expected a list of cage objects")
        if "cages" in self.ignore:
            return [], []
        killer: list[dict[str, Any]] = []
        decoration: list[dict[str, Any]] = []
        for i, cage in enumerate(cages, 1):
            if not isinstance(cage, dict):
                raise self.fail(f"SudokuPad cage {i}: expected a cage object")
            if _is_meta(cage):
                continue
            typed = [k for k in ("style", "type", "hidden") if cage.get(k)]
            if typed:
                raise self.fail(f"SudokuPad cage {i} ({typed[0]} {cage[typed[0]]!r}) is "
                                "not a rule this tool reads (skip all cages with --ignore "
                                "cages)")
            raw = cage.get("cells")
            if not isinstance(raw, list) or not raw:
                raise self.fail(f"SudokuPad cage {i}: expected cells [[row, col], ...]")
            cells = [self.name(self.rc(rc, f"cage {i} cell {j}"))
                     for j, rc in enumerate(raw, 1)]
            value, total = cage.get("value"), cage.get("sum")
            if value in (None, "") and total is not None:
                value = total
            if value in (None, ""):
                if cage.get("unique") is True:
                    killer.append({"cells": cells})
                else:
                    decoration.append({"cells": cells})
                continue
            number = _whole(value)
            if number is None or number < 1:
                raise self.fail(f"SudokuPad cage {i}: value {value!r} is no sum; a cage "
                                "with a clue that is not a whole number is not read")
            if total is not None and _whole(total) != number:
                raise self.fail(f"SudokuPad cage {i}: value {value!r} and sum {total!r} "
                                "disagree")
            if cage.get("unique") is False:
                raise self.fail(f"SudokuPad cage {i}: a sum whose digits may repeat "
                                "(unique false) is no killer cage; it is not read")
            killer.append({"cells": cells, "value": str(number)})
        return killer, decoration

    def arrows(self) -> tuple[set[int], list[dict[str, Any]]]:
        """Arrows whose tail sits in a single-cell circle (an overlay or underlay, rounded,
        as wide as high, less than a cell, without text, centred on the cell) and whose
        other points are cell centres; the indices of the circles they use (``overlays``
        first, then ``underlays``)."""
        arrows = self.puzzle.get("arrows") or []
        if not arrows or "arrows" in self.ignore:
            return set(), []
        circles: dict[tuple[int, int], list[int]] = {}  # cell -> indices of its circles
        shapes = [*(self.puzzle.get("overlays") or []), *(self.puzzle.get("underlays") or [])]
        for k, shape in enumerate(shapes):
            cell = _circle_cell(shape)
            if cell is not None:
                circles.setdefault(cell, []).append(k)
        used: set[int] = set()
        by_bulb: dict[tuple[int, int], list[list[str]]] = {}
        for i, arrow in enumerate(arrows, 1):
            where = f"SudokuPad arrow {i}"
            colour = arrow.get("color", "?") if isinstance(arrow, dict) else "?"
            points = _points(arrow.get("wayPoints") if isinstance(arrow, dict) else None)
            refusal = self.fail(f"{where} (colour {colour}) is not an arrow from a "
                                "single-cell circle through cell centres, so its meaning is "
                                "not typed (skip arrows with --ignore arrows)")
            if points is None or len(points) < 2:
                raise refusal
            tail = (math.floor(points[0][0]), math.floor(points[0][1]))
            centre = (tail[0] + 0.5, tail[1] + 0.5)
            mine = circles.get(tail, [])
            if len(mine) != 1 or not _on_ray(centre, points[0], points[1]):
                raise refusal
            path = self.path([centre, *points[1:]], refusal)
            if len(path) < 2:
                raise refusal
            used.add(mine[0])
            by_bulb.setdefault(tail, []).append([self.name(c) for c in path])
        out = [{"cells": [self.name(bulb)], "lines": paths} for bulb, paths in by_bulb.items()]
        return used, out

    def path(self, points: Sequence[tuple[float, float]], refusal: ParseError
             ) -> list[tuple[int, int]]:
        """The cells of a path through cell centres, straight runs between points filled in
        (rows, columns, diagonals)."""
        cells: list[tuple[int, int]] = []
        for r, c in points:
            if not (_centre(r) and _centre(c)):
                raise refusal
            cell = (round(r - 0.5), round(c - 0.5))
            if not (0 <= cell[0] < self.size and 0 <= cell[1] < self.size):
                raise refusal
            if cells:
                dr, dc = cell[0] - cells[-1][0], cell[1] - cells[-1][1]
                steps = max(abs(dr), abs(dc))
                if steps == 0 or (dr and dc and abs(dr) != abs(dc)):
                    raise refusal
                for _ in range(steps - 1):
                    cells.append((cells[-1][0] + dr // steps, cells[-1][1] + dc // steps))
            cells.append(cell)
        return cells

    def lines(self) -> list[dict[str, Any]]:
        """The lines of a colour ``treat_line`` names, as f-puzzles decoration lines."""
        lines = self.puzzle.get("lines") or []
        if not isinstance(lines, list):
            raise self.fail("SudokuPad lines: expected a list of line objects")
        out = []
        for i, item in enumerate(lines, 1):
            colour = str(item.get("color", "")) if isinstance(item, dict) else ""
            if colour.strip().upper() not in self.treat:
                if "lines" in self.ignore:
                    continue
                raise self.fail(f"SudokuPad line {i} (colour {colour or 'none'}) has no typed "
                                f"meaning: say what it is with --treat-line "
                                f"{colour or 'COLOUR'}=KIND, or skip lines with --ignore "
                                "lines")
            refusal = self.fail(f"SudokuPad line {i} (colour {colour}) does not run through "
                                "cell centres in steps along rows, columns or diagonals")
            points = _points(item.get("wayPoints"))
            if points is None or len(points) < 2:
                raise refusal
            cells = self.path(points, refusal)
            out.append({"lines": [[self.name(c) for c in cells]], "outlineC": colour})
        return out

    def drawn(self, circles_used: set[int]) -> None:
        """Refuse the overlays and underlays no typed element accounts for."""
        start = 0
        for key in ("overlays", "underlays"):
            items = self.puzzle.get(key) or []
            if not isinstance(items, list):
                raise self.fail(f"SudokuPad {key}: expected a list")
            if key not in self.ignore:
                for k, item in enumerate(items):
                    if start + k in circles_used:
                        continue
                    item = item if isinstance(item, dict) else {}
                    colour = item.get("backgroundColor") or item.get("borderColor") or "none"
                    text = f", text {item['text']!r}" if item.get("text") not in (None, "") \
                        else ""
                    raise self.fail(f"SudokuPad {key[:-1]} {k + 1} (colour {colour}{text}) "
                                    f"has no typed meaning: it is refused rather than "
                                    f"guessed (skip {key} with --ignore {key})")
            start += len(items)


def _whole(value: object) -> int | None:
    """A whole number from an int or a string of digits, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 6:
        return int(value.strip())
    return None


def _is_meta(cage: Mapping[str, Any]) -> bool:
    """A cage that carries words (``"title: ..."``) and no cells."""
    return not cage.get("cells") and _META.match(str(cage.get("value", ""))) is not None


def _points(value: object) -> list[tuple[float, float]] | None:
    if not isinstance(value, list):
        return None
    out = []
    for p in value:
        if (not isinstance(p, list) or len(p) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                           and math.isfinite(v) for v in p)):
            return None
        out.append((float(p[0]), float(p[1])))
    return out


def _centre(x: float) -> bool:
    return abs(x - math.floor(x) - 0.5) < 1e-6


def _circle_cell(shape: object) -> tuple[int, int] | None:
    """The cell a shape is a bare single-cell circle on, if it is one."""
    if not isinstance(shape, dict) or shape.get("rounded") is not True:
        return None
    if shape.get("text") not in (None, ""):
        return None
    width, height = shape.get("width"), shape.get("height")
    centre = _points([shape.get("center")])
    if (centre is None or not isinstance(width, (int, float)) or width != height
            or not 0.5 <= width < 1):
        return None
    r, c = centre[0]
    if not (_centre(r) and _centre(c)):
        return None
    return round(r - 0.5), round(c - 0.5)


def _on_ray(centre: tuple[float, float], tail: tuple[float, float],
            head: tuple[float, float]) -> bool:
    """Whether ``tail`` lies inside the circle's cell on the way from its centre toward
    ``head`` (as an arrow leaving the circle's rim starts)."""
    tr, tc = tail[0] - centre[0], tail[1] - centre[1]
    hr, hc = head[0] - centre[0], head[1] - centre[1]
    if max(abs(tr), abs(tc)) >= 0.5 or (hr, hc) == (0, 0):
        return False
    cross = tr * hc - tc * hr
    return abs(cross) < 0.05 * math.hypot(hr, hc) and tr * hr + tc * hc >= 0
