"""Counting over digit planes for :mod:`sudoku_csp.native.planes`: where a digit's places in
a group of cells are (:func:`places`, :func:`once`), and the masks of locked candidates over
boxes (:class:`LockedMasks`), all planes at once. Integer arithmetic on N³-bit ints only: a
group is a set of *starts* (one bit per group, its first cell) and the *shifts* from a start
to the group's other cells.

>>> places(0b0110, starts=0b0001, shifts=(0, 1, 2))   # cells 1 and 2 of the group at 0
(1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["Direction", "LockedMasks", "once", "places", "spread"]


def spread(offsets: Sequence[int]) -> int:
    """One bit at each offset: multiplying a mask of group starts by it fills the groups."""
    return sum(1 << s for s in offsets)


class LockedMasks:
    """Masks for pointing and claiming over R×C boxes, for every plane at once.

    A *row segment* is a box's cells in one row (C cells), a *column segment* its cells in
    one column (R cells). A digit whose places in a box lie in one row segment leaves the
    rest of that row (pointing); one whose places in a row lie in one segment leaves the
    rest of that segment's box (claiming); the same for columns. Segments are represented
    by their first cell.
    """

    def __init__(self, n: int, box: tuple[int, int], repeat: int, nc: int) -> None:
        rows, cols = box
        stacks, bands = range(0, n, cols), range(0, n, rows)

        def everywhere(cells: Iterable[int]) -> int:
            return sum(1 << c for c in cells) * repeat

        down = [r * n for r in range(rows)]          # a column segment's cells from its first
        along = list(range(cols))                    # a row segment's
        self.box_starts = everywhere(r * n + c for r in bands for c in stacks)
        self.box_fill = spread([r * n + c for r in range(rows) for c in range(cols)])
        self.directions = (
            Direction(  # row segments
                segments=everywhere(r * n + c for r in range(n) for c in stacks),
                inside=along, across_box=down,
                line_starts=everywhere(r * n for r in range(n)), across_line=list(stacks),
                line_fill=spread(range(n)),
                to_line=[(c, everywhere(r * n + c for r in range(n))) for c in stacks],
                to_box=[(i * n, everywhere(r * n + c for r in range(i, n, rows)
                                           for c in range(n))) for i in range(rows)]),
            Direction(  # column segments
                segments=everywhere(r * n + c for r in bands for c in range(n)),
                inside=down, across_box=along,
                line_starts=everywhere(range(n)), across_line=[r * n for r in bands],
                line_fill=spread([r * n for r in range(n)]),
                to_line=[(r * n, everywhere(r * n + c for c in range(n))) for r in bands],
                to_box=[(j, everywhere(r * n + c for r in range(n)
                                       for c in range(j, n, cols))) for j in range(cols)]),
        )

    def eliminations(self, p: int) -> int:
        """Every candidate bit pointing or claiming removes from ``P``."""
        out = 0
        box_starts, box_fill = self.box_starts, self.box_fill
        for d in self.directions:
            f = p  # segments holding the digit (d.inside starts at 0)
            for shift in d.inside[1:]:
                f |= p >> shift
            f &= d.segments
            # Pointing: a box's only segment (in this direction) holding the digit; the
            # digit leaves the rest of the segment's line.
            point = (once(f, box_starts, d.across_box) * d.across_box_fill) & f
            if point:
                lines = 0
                for shift, part in d.to_line:
                    lines |= (point & part) >> shift
                out |= (lines * d.line_fill) & ~(point * d.fill)
            # Claiming: a line's only segment holding the digit; it leaves the rest of the
            # segment's box.
            claim = (once(f, d.line_starts, d.across_line) * d.across_line_fill) & f
            if claim:
                boxes = 0
                for shift, part in d.to_box:
                    boxes |= ((claim & part) >> shift) * box_fill
                out |= boxes & ~(claim * d.fill)
        return out


class Direction:
    """The masks of one direction of segments (see :class:`LockedMasks`).

    ``inside``: offsets of a segment's cells from its first; ``across_box``: offsets of a
    box's segments from the box's first; ``across_line``: offsets of a line's segments from
    the line's first cell; ``to_line`` / ``to_box``: (shift, segments) pairs, the shift
    taking those segments' firsts to the first cell of their line / box.
    """

    __slots__ = ("segments", "inside", "fill", "across_box", "across_box_fill",
                 "line_starts", "across_line", "across_line_fill", "line_fill",
                 "to_line", "to_box")

    def __init__(self, *, segments: int, inside: list[int], across_box: list[int],
                 line_starts: int, across_line: list[int], line_fill: int,
                 to_line: list[tuple[int, int]], to_box: list[tuple[int, int]]) -> None:
        self.segments, self.inside, self.fill = segments, tuple(inside), spread(inside)
        self.across_box, self.across_box_fill = tuple(across_box), spread(across_box)
        self.line_starts, self.line_fill = line_starts, line_fill
        self.across_line, self.across_line_fill = tuple(across_line), spread(across_line)
        self.to_line, self.to_box = tuple(to_line), tuple(to_box)


def places(f: int, starts: int, shifts: Sequence[int]) -> tuple[int, int]:
    """``(seen, twice)``: the group starts (bits of ``starts``) where at least one, and
    where two or more, of the bits of ``f`` at the group's ``shifts`` (0 first) are set."""
    # Counted at every bit and kept at the starts only at the end: at a start, each shift
    # brings one of its group's bits, whatever the other bits hold.
    seen, twice = f, 0
    for shift in shifts[1:]:
        b = f >> shift
        twice |= seen & b
        seen |= b
    return seen & starts, twice & starts


def once(f: int, starts: int, shifts: Sequence[int]) -> int:
    """The group starts where exactly one bit of ``f`` is set (see :func:`places`)."""
    seen, twice = places(f, starts, shifts)
    return seen & ~twice
