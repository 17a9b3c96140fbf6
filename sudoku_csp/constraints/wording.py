"""Words for explanations, shared by the kinds'
:meth:`~sudoku_csp.constraints.base.Constraint.why_link` (and by :mod:`sudoku_csp.logic`):
cells, digits and sums as a solver writes them, and the reasonings several kinds share:
sums of groups of cells that must be equal (an arrow's shaft and circle, a little killer's
diagonal and its clue, a double arrow's ends and middle, a zipper's pairs, a region-sum
line's segments), values that increase along a line (thermometers), what cells keep.

Digits are ``0..N-1`` inside; words show the geometry's symbols for digits (``1``..``9``,
``A``..) and plain numbers for values in arithmetic (``1+2+3 = 6``).

>>> from sudoku_csp.variants import make_geometry
>>> g = make_geometry(9)
>>> cell_list(g, [10, 0, 10]), digit_list(g, [4, 0]), plus(g, [10, 0])
('A1, B2', '1/5', 'B2+A1')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sudoku_csp.geometry import Geometry, bits

__all__ = ["cell_list", "counted", "digit_list", "digits_of", "equal_sums", "gone_by_cell",
           "kept", "listed", "marked", "order", "plus", "seeing", "terms"]


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``3 arrows``, ``1 puzzle``: a number and its noun, plural unless the number is 1
    (``plural`` when adding an s will not do).

    >>> counted(1, "puzzle"), counted(0, "puzzle"), counted(3, "box", "boxes")
    ('1 puzzle', '0 puzzles', '3 boxes')
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def cell_list(geometry: Geometry, cells: Iterable[int]) -> str:
    """``A1, B4``: cells by label, in grid order, each once."""
    return ", ".join(geometry.label(c) for c in sorted(set(cells)))


def digit_list(geometry: Geometry, digits: Iterable[int]) -> str:
    """``3/7``: digits by symbol, smallest first, each once."""
    return "/".join(geometry.symbols[d] for d in sorted(set(digits)))


def digits_of(mask: int) -> list[int]:
    """The digits of a candidate mask, smallest first (:func:`~sudoku_csp.geometry.bits`)."""
    return bits(mask)


SHOWN = 6
"""Items of a list (digit sets, readings) words show before they say how many more."""


def listed(items: Sequence[str], most: int = SHOWN) -> str:
    """``a, b, c and 4 more``: the first ``most`` items, and how many more there are."""
    more = f" and {len(items) - most} more" if len(items) > most else ""
    return ", ".join(items[:most]) + more


def terms(mask: int) -> str:
    """``2+6``: the values of a set of digits, as a sum."""
    return "+".join(str(d + 1) for d in digits_of(mask))


def marked(geometry: Geometry, cell: int, mask: int) -> str:
    """``A1 (2/3)``: a cell and its candidates."""
    return f"{geometry.label(cell)} ({digit_list(geometry, digits_of(mask))})"


def plus(geometry: Geometry, cells: Sequence[int]) -> str:
    """``A1+A2+A3``: cells in the order given, as a sum."""
    return "+".join(geometry.label(c) for c in cells)


def seeing(geometry: Geometry, what: str, cells: Sequence[int]) -> str:
    """The words of a sum or a line read with its cells that see each other kept apart
    (a kind's joint link): ``what`` (the constraint's name), then those pairs.

    >>> from sudoku_csp.variants import make_geometry
    >>> seeing(make_geometry(9), "arrow at A1", (1, 2, 0))
    'arrow at A1, whose cells all see each other (so differ)'
    >>> seeing(make_geometry(9), "arrow at A1", (1, 2, 28))
    'arrow at A1, whose cells that see each other differ (A2/A3, A2/D2)'
    """
    pairs = [f"{geometry.label(a)}/{geometry.label(b)}" for i, a in enumerate(cells)
             for b in cells[i + 1:] if a != b and geometry.are_peers(a, b)]
    if len(pairs) == len(cells) * (len(cells) - 1) // 2:
        return f"{what}, whose cells all see each other (so differ)"
    return f"{what}, whose cells that see each other differ ({', '.join(pairs)})"


def gone_by_cell(gone: Iterable[tuple[int, int]]) -> dict[int, int]:
    """The eliminations ``(cell, digit)`` as a mask of digits per cell, in the order met."""
    found: dict[int, int] = {}
    for cell, digit in gone:
        found[cell] = found.get(cell, 0) | 1 << digit
    return found


def kept(geometry: Geometry, cells: Sequence[int], candidates: Sequence[int],
         gone: Iterable[tuple[int, int]]) -> str:
    """``A2 keeps 1/3, A4 keeps 7``: what the cells that lose candidates keep (the words a
    reading that fits no simpler phrase ends with)."""
    lost = gone_by_cell(gone)
    return ", ".join(f"{geometry.label(c)} keeps "
                     f"{digit_list(geometry, digits_of(candidates[c] & ~lost[c]))}"
                     for c in dict.fromkeys(cells) if c in lost)


def order(geometry: Geometry, cells: Sequence[int], after: Sequence[int],
          gone: Iterable[tuple[int, int]], strict: bool) -> str:
    """Why ``gone`` leave cells whose values increase along ``cells`` (never decrease, when
    not ``strict``): each cell that loses low values lies above the cell before at its
    least, one that loses high values below the cell after at its most (``after``: the
    cells' masks once narrowed).

    >>> from sudoku_csp.variants import make_geometry
    >>> order(make_geometry(9), (0, 1, 2), (0b10, 0b1100, 0b11000), [(1, 0), (1, 1), (2, 8)],
    ...       True)
    'A2 above A1 (at least 2)'
    """
    lost = gone_by_cell(gone)
    words = []
    above, below = ("above", "below") if strict else ("not below", "not above")
    for i, cell in enumerate(cells):
        if cell not in lost:
            continue
        low = (after[i] & -after[i]).bit_length()   # least value kept
        high = after[i].bit_length()                 # greatest value kept
        values = [d + 1 for d in digits_of(lost[cell])]
        said = []
        if i and any(v < low for v in values):
            prev = after[i - 1]
            said.append(f"{above} {geometry.label(cells[i - 1])} (at least "
                        f"{(prev & -prev).bit_length()})")
        if i + 1 < len(cells) and any(v > high for v in values):
            said.append(f"{below} {geometry.label(cells[i + 1])} (at most "
                        f"{after[i + 1].bit_length()})")
        if said:
            words.append(f"{geometry.label(cell)} {' and '.join(said)}")
    return ", ".join(words)


def _bounds(masks: Sequence[int], apart: bool) -> tuple[list[int], list[int]]:
    """The values that make the least and the greatest sum of cells with these candidate
    masks: each cell's own least and greatest, or when ``apart`` (the cells' digits differ)
    the smallest and largest of all their candidates, one each."""
    if apart and len(masks) > 1:
        union = 0
        for m in masks:
            union |= m
        values = [d + 1 for d in digits_of(union)]
        return values[:len(masks)], values[-len(masks):]
    return [(m & -m).bit_length() for m in masks], [m.bit_length() for m in masks]


def _terms(values: Sequence[int]) -> str:
    return "+".join(map(str, values))


def equal_sums(geometry: Geometry, groups: Sequence[Sequence[int]], total: int | None,
               candidates: Sequence[int], gone: Iterable[tuple[int, int]],
               apart: Sequence[bool] = ()) -> str:
    """Why ``gone`` leave cells whose ``groups`` all add up to one total (``total`` when the
    rule fixes it): the total's bounds that bind (a group's least and greatest sums), then
    each cell's bound from the total and the rest of its group. Digits repeat freely
    within a group unless ``apart`` says, per group, that they differ.

    >>> from sudoku_csp.variants import make_geometry
    >>> g, full = make_geometry(9), 0x1FF
    >>> cand = [full] * 81
    >>> equal_sums(g, [(1, 2, 3), (0,)], None, cand, [(0, 0), (0, 1)])
    'A2+A3+A4 = A1, at least 1+1+1 = 3, at most 9'
    >>> equal_sums(g, [(1, 2, 3), (0,)], None, cand, [(0, d) for d in range(5)], [True])
    'A2+A3+A4 = A1, at least 1+2+3 = 6, at most 9'
    >>> cand[1], cand[2] = 0b110, 0b1000    # A2 2/3, A3 4
    >>> equal_sums(g, [(1, 2), (0,)], None, cand, [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)])
    'A2+A3 = A1, at least 2+4 = 6, at most 3+4 = 7'
    >>> equal_sums(g, [(0, 9, 18)], 6, [full] * 81, [(0, d) for d in range(4, 9)])
    'A1+B1+C1 = 6: A1 at most 6 − 1 − 1 = 4'
    """
    flags = [i < len(apart) and apart[i] for i in range(len(groups))]
    sides = [_bounds([candidates[c] for c in group], flag)
             for group, flag in zip(groups, flags, strict=True)]
    lows = [sum(least) for least, _ in sides]
    highs = [sum(most) for _, most in sides]
    head = " = ".join(plus(geometry, group) for group in groups)
    bounds = []
    if total is not None:
        head += f" = {total}"
        low = high = total
    else:
        low, high = max(lows), min(highs)
        # The total's bounds, each from the group that sets it.
        setter = lows.index(low)
        if low > min(lows):
            terms = sides[setter][0]
            bounds.append(f"at least {_terms(terms)} = {low}" if len(terms) > 1
                          else f"at least {low}")
        setter = highs.index(high)
        if high < max(highs):
            terms = sides[setter][1]
            bounds.append(f"at most {_terms(terms)} = {high}" if len(terms) > 1
                          else f"at most {high}")
    text = head + (", " + ", ".join(bounds) if bounds else "")
    if low > high:
        return f"{text}: no total fits"
    words = []
    where = {c: i for i, group in enumerate(groups) for c in group}
    for cell, lost in gone_by_cell(gone).items():
        i = where[cell]
        rest = [candidates[c] for c in groups[i] if c != cell]
        if not rest:
            continue  # a group of one: the total's bounds say it
        rest_low, rest_high = _bounds(rest, flags[i])
        values = [d + 1 for d in digits_of(lost)]
        label = geometry.label(cell)
        top = high - sum(rest_low)
        bottom = low - sum(rest_high)
        if all(v > top for v in values):
            words.append(f"{label} at most {high} − {' − '.join(map(str, rest_low))} = {top}")
        elif all(v < bottom for v in values):
            words.append(f"{label} at least {low} − {' − '.join(map(str, rest_high))} = "
                         f"{bottom}")
        else:
            words.append(f"no total fits {digit_list(geometry, digits_of(lost))} in {label}")
    return text + (": " + "; ".join(words) if words else "")
