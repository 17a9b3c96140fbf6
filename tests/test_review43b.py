"""Review of session 43's dots check (589d206): :meth:`Dots.violations` looks the negative
rules up in value pairs built once per grid size and rules (``_barred``) over a list of
neighbours of its own (``_neighbours``). It is the check that trusts no solver, so every
unmarked pair of neighbours a negative rule bars must still be reported, on every grid
size and box shape, for dots of any value.

The guard: random dots and grids against the rules read pair by pair, as the check read
them before (a pair barred only when its first cell holds a 1 under the ratio rule, which
every other test passes, is caught here).
"""

from __future__ import annotations

import random

from sudoku_csp.constraints.kinds.dots import Dots
from sudoku_csp.variants import make_geometry

SHAPES = ((4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (8, (4, 2)), (9, (3, 3)), (12, (3, 4)))


def _unmarked(dots: Dots, geometry, grid) -> list[str]:  # noqa: ANN001
    """The negative rules' messages, each pair of neighbours (right, then below) in turn."""
    n, label = geometry.size, geometry.label
    rules = set(dots.negative)
    differences = {v for *_, v in dots.difference} if "difference" in rules else set()
    differences |= {1} if dots.nonconsecutive else set()
    ratios = {2, *(v for *_, v in dots.ratio)} if "ratio" in rules else set()
    sums = {5, 10} if "xv" in rules else set()
    sums |= {v for *_, v in dots.sums} if "sum" in rules else set()
    kropki = {frozenset(d[:2]) for d in (*dots.difference, *dots.ratio)}
    summed = {frozenset(d[:2]) for d in (*dots.sums, *dots.xv)}
    out = []
    for a in range(n * n):
        for b in (a + 1, a + n):
            if b >= n * n or (b == a + 1 and b % n == 0):
                continue
            x, y = grid[a] + 1, grid[b] + 1
            low, high = sorted((x, y))
            if frozenset((a, b)) not in kropki:
                if high - low in differences:
                    out.append(f"{label(a)} and {label(b)} differ by {high - low} "
                               "but no kropki dot is between them")
                if high % low == 0 and high // low in ratios:
                    out.append(f"{label(a)} and {label(b)} are in ratio {high // low}:1 "
                               "but no kropki dot is between them")
            if frozenset((a, b)) not in summed and x + y in sums:
                out.append(f"{label(a)} and {label(b)} add up to {x + y} but no X, V or "
                           "sum dot is between them")
    return out


def _dots(rng: random.Random, n: int, low: int, high: int) -> tuple[tuple[int, int, int], ...]:
    """Up to five dots between neighbours, of values ``low..high``."""
    pairs = [(a, a + 1) for a in range(n * n) if (a + 1) % n]
    pairs += [(a, a + n) for a in range(n * n - n)]
    return tuple((*pair, rng.randint(low, high)) for pair in rng.sample(pairs, rng.randint(0, 5)))


def test_every_unmarked_pair_a_negative_rule_bars_is_reported():
    rng = random.Random(43)
    reported: set[str] = set()
    for _ in range(150):
        n, box = rng.choice(SHAPES)
        geometry = make_geometry(n, box)
        negative = rng.sample(("difference", "ratio", "sum", "xv"), rng.randint(1, 4))
        constraint = Dots(difference=_dots(rng, n, 1, n - 1), ratio=_dots(rng, n, 2, n),
                          sums=_dots(rng, n, 3, 2 * n),
                          xv=tuple((a, b, 5 * v) for a, b, v in _dots(rng, n, 1, 2)),
                          negative=tuple(sorted(negative)), nonconsecutive=rng.random() < 0.3)
        shift, digits = rng.randrange(1, n), rng.sample(range(n), n)
        grid = [digits[(r * shift + c) % n] for r in range(n) for c in range(n)] \
            if rng.random() < 0.5 else [rng.randrange(n) for _ in range(n * n)]
        got = [m for m in constraint.violations(geometry, grid) if "but no" in m]
        assert got == _unmarked(constraint, geometry, grid), (constraint, grid)
        reported.update(m.split()[3] for m in got)
    assert reported == {"differ", "are", "add"}  # pairs barred by every rule
