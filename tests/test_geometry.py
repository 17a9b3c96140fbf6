"""Geometry invariants for every size and variant.

Counts are derived here from first principles (formulas in the comments) and compared with
what :func:`make_geometry` builds; peers are also checked against an independent definition
by coordinates (same row, column, box, diagonal, window, knight or king move).
"""

from __future__ import annotations

import json
import pickle
from collections import Counter

import pytest
from cases import JIGSAW_MAP, slow_if

from sudoku_csp import Geometry, GeometryError, Unit, make_geometry
from sudoku_csp.geometry import default_box, row_label
from sudoku_csp.variants import (
    geometry_from_record,
    geometry_record,
    parse_regions,
    variant_name,
)

SHAPES = [(4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (9, (3, 3)), (10, (2, 5)), (12, (3, 4)),
          (16, (4, 4)), (25, (5, 5))]
SQUARE = [(n, box) for n, box in SHAPES if box[0] == box[1]]
SMALL_SHAPES = [(n, box) for n, box in SHAPES if n <= 16]
PAIR_VARIANTS = [[], ["diagonal"], ["anti-knight"], ["anti-king"], ["diagonal", "anti-knight"],
                 ["diagonal", "anti-king"]]


def shape_ids(shapes) -> list[str]:
    return [f"{n}x{n} ({box[0]}x{box[1]})" for n, box in shapes]


def variant_id(variants) -> str:
    return "+".join(variants) or "standard"


ids = shape_ids(SHAPES)


def rc(size: int, cell: int) -> tuple[int, int]:
    return divmod(cell, size)


def in_window(size: int, b: int, r: int, c: int) -> tuple[int, int] | None:
    """The window (windoku) holding (r, c): windows start at 1, 1 + (b+1), ... and there are
    b - 1 of them per side."""
    def index(x: int) -> int | None:
        k, offset = divmod(x - 1, b + 1)
        return k if x >= 1 and offset < b and k < b - 1 else None

    kr, kc = index(r), index(c)
    return None if kr is None or kc is None else (kr, kc)


def reference_peers(size: int, box: tuple[int, int] | None, variants, regions=None):
    """Peers of every cell by the rules' plain-language definitions, cell pair by cell pair."""
    br, bc = box or (0, 0)

    def differ(a: int, b: int) -> bool:
        (ra, ca), (rb, cb) = rc(size, a), rc(size, b)
        dr, dc = abs(ra - rb), abs(ca - cb)
        if dr == 0 or dc == 0:
            return True
        if regions is not None:
            if regions[a] == regions[b]:
                return True
        elif (ra // br, ca // bc) == (rb // br, cb // bc):
            return True
        if "diagonal" in variants and ((ra == ca and rb == cb)
                                       or (ra + ca == size - 1 and rb + cb == size - 1)):
            return True
        if "windoku" in variants:
            w = in_window(size, br, ra, ca)
            if w is not None and w == in_window(size, br, rb, cb):
                return True
        if "anti-knight" in variants and sorted((dr, dc)) == [1, 2]:
            return True
        return "anti-king" in variants and max(dr, dc) == 1

    cells = range(size * size)
    return [tuple(b for b in cells if b != a and differ(a, b)) for a in cells]


# -- standard grids -------------------------------------------------------------------------
@pytest.mark.parametrize(("size", "box"), SHAPES, ids=ids)
def test_standard_counts(size, box):
    g = make_geometry(size, box)
    br, bc = box
    assert g.ncells == size * size == len(g.peers) == len(g.boxes)
    assert len(g.units) == 3 * size  # N rows, N columns, N boxes
    assert Counter(u.kind for u in g.units) == {"row": size, "column": size, "box": size}
    assert g.extra_pairs == ()
    # Peers: N-1 in the row, N-1 in the column, and the box's cells outside both.
    expected = 2 * (size - 1) + (br - 1) * (bc - 1)
    assert {len(p) for p in g.peers} == {expected}
    assert all(len(us) == 3 for us in g.cell_units)


def test_nine_by_nine_is_norvigs():
    g = make_geometry(9)
    assert (g.ncells, len(g.units), {len(p) for p in g.peers}) == (81, 27, {20})
    assert g.box == (3, 3) and g.name == "9x9"


@pytest.mark.parametrize(("size", "box"), SHAPES, ids=ids)
def test_rows_columns_boxes_match_arithmetic(size, box):
    g = make_geometry(size, box)
    br, bc = box
    bands = size // bc  # boxes per band of rows
    rows, cols, boxes = (g.units_of_kind(k) for k in ("row", "column", "box"))
    for i in range(size):
        assert rows[i].cells == tuple(i * size + c for c in range(size))
        assert cols[i].cells == tuple(r * size + i for r in range(size))
        assert boxes[i].cells == tuple(
            cell for cell in range(size * size)
            if (cell // size // br) * bands + (cell % size) // bc == i)
        assert len(boxes[i].cells) == size
    for cell in range(size * size):
        r, c = rc(size, cell)
        assert g.boxes[cell] == (r // br) * bands + c // bc
        assert g.row(cell) == r and g.col(cell) == c
        assert cell in boxes[g.boxes[cell]].cells


@pytest.mark.parametrize(("size", "box"), SMALL_SHAPES, ids=shape_ids(SMALL_SHAPES))
@pytest.mark.parametrize("variants", PAIR_VARIANTS, ids=variant_id)
def test_peers_match_reference(size, box, variants):
    g = make_geometry(size, box, variants)
    assert list(g.peers) == reference_peers(size, box, variants)


@pytest.mark.parametrize("variants", slow_if([[], ["diagonal", "anti-knight"],
                                              ["windoku", "anti-king"]], lambda v: bool(v)),
                         ids=variant_id)
def test_peers_match_reference_25x25(variants):
    g = make_geometry(25, variants=variants)
    assert list(g.peers) == reference_peers(25, (5, 5), variants)


@pytest.mark.parametrize(("size", "box"), SHAPES, ids=ids)
@pytest.mark.parametrize("variants", PAIR_VARIANTS, ids=variant_id)
def test_peers_are_symmetric_and_cover_units_and_pairs(size, box, variants):
    g = make_geometry(size, box, variants)
    for cell, peers in enumerate(g.peers):
        assert cell not in peers
        assert list(peers) == sorted(set(peers))
        assert all(g.are_peers(p, cell) for p in peers)
    for unit in g.units:
        assert len(set(unit.cells)) == size
        for a in unit.cells:
            assert set(unit.cells) - {a} <= set(g.peers[a])
    for a, b in g.extra_pairs:
        assert a < b and g.are_peers(a, b)
        assert not any(a in u.cells and b in u.cells for u in g.units)


# -- variants: derived counts -----------------------------------------------------------------
@pytest.mark.parametrize(("size", "box"), SQUARE, ids=shape_ids(SQUARE))
def test_diagonal_counts(size, box):
    g = make_geometry(size, variants=["diagonal"])
    b = box[0]
    base = 2 * (size - 1) + (b - 1) ** 2
    assert len(g.units) == 3 * size + 2
    assert len(g.units_of_kind("diagonal")) == 2
    # A diagonal crosses each box it meets in b cells, so it adds N - b new peers to each of
    # its cells; the centre of an odd grid lies on both diagonals.
    on_both = size % 2
    expected = {base: size * size - (2 * size - on_both),
                base + size - b: 2 * size - 2 * on_both}
    if on_both:
        expected[base + 2 * (size - b)] = 1
    assert Counter(len(p) for p in g.peers) == expected


def test_diagonal_9x9_peer_histogram():
    g = make_geometry(9, variants=["x"])
    assert Counter(len(p) for p in g.peers) == {20: 64, 26: 16, 32: 1}
    assert len(g.peers[40]) == 32  # E5, on both diagonals


def knight_pairs_in_box(br: int, bc: int) -> int:
    # Offsets (1, ±2) fit (br-1)(bc-2) times each, offsets (2, ±1) fit (br-2)(bc-1) times each.
    return 2 * max(br - 1, 0) * max(bc - 2, 0) + 2 * max(br - 2, 0) * max(bc - 1, 0)


@pytest.mark.parametrize(("size", "box"), SHAPES, ids=ids)
def test_anti_knight_pair_count(size, box):
    g = make_geometry(size, box, ["anti-knight"])
    # Knight moves on an N×N board: 4(N-1)(N-2) unordered pairs; none shares a row or a
    # column, so the ones already peers are exactly those inside one box.
    total = 4 * (size - 1) * (size - 2)
    assert len(g.extra_pairs) == total - size * knight_pairs_in_box(*box)
    assert len(g.units) == 3 * size


@pytest.mark.parametrize(("size", "box"), SHAPES, ids=ids)
def test_anti_king_pair_count(size, box):
    g = make_geometry(size, box, ["anti-king"])
    # King moves that share no row or column are the diagonal steps: 2(N-1)^2 of them, of
    # which 2(br-1)(bc-1) lie inside each box.
    br, bc = box
    assert len(g.extra_pairs) == 2 * (size - 1) ** 2 - size * 2 * (br - 1) * (bc - 1)


def test_extra_pairs_9x9():
    assert len(make_geometry(9, variants=["anti-knight"]).extra_pairs) == 224 - 72 == 152
    assert len(make_geometry(9, variants=["anti-king"]).extra_pairs) == 128 - 72 == 56
    both = make_geometry(9, variants=["anti-king", "anti-knight"])
    assert len(both.extra_pairs) == 152 + 56


def test_combined_variants_count_pairs_once():
    # Knight moves never join two cells of one diagonal, so the diagonal takes none away.
    g = make_geometry(9, variants=["diagonal", "anti-knight"])
    assert (len(g.units), len(g.extra_pairs)) == (29, 152)
    # King steps along a diagonal that cross a box border ((3,3)-(4,4) style: two per
    # diagonal on 9×9) now share the diagonal unit, so they are no longer extra pairs.
    g = make_geometry(9, variants=["diagonal", "anti-king"])
    assert (len(g.units), len(g.extra_pairs)) == (29, 56 - 4)
    assert (2 * 9 + 2, 3 * 9 + 3) not in g.extra_pairs  # C3-D4: both on the main diagonal
    assert (2 * 9 + 1, 3 * 9 + 3) not in g.extra_pairs  # C2-D4: a knight move, not a king's


@pytest.mark.parametrize(("size", "box"), SQUARE, ids=shape_ids(SQUARE))
def test_windoku_window_count(size, box):
    g = make_geometry(size, variants=["windoku"])
    b = box[0]
    windows = g.units_of_kind("window")
    # Windows of side b start one cell in and leave one-cell gaps: b - 1 per side.
    assert len(windows) == (b - 1) ** 2
    assert len(g.units) == 3 * size + (b - 1) ** 2
    for w in windows:
        rows = {cell // size for cell in w.cells}
        cols = {cell % size for cell in w.cells}
        assert len(rows) == len(cols) == b
        assert min(rows) % (b + 1) == 1 and min(cols) % (b + 1) == 1


def test_windoku_known_counts():
    assert len(make_geometry(9, variants=["windoku"]).units_of_kind("window")) == 4
    assert len(make_geometry(16, variants=["hyper"]).units_of_kind("window")) == 9
    assert make_geometry(9, variants=["windoku"]).units_of_kind("window")[0].cells[:3] == (
        10, 11, 12)  # B2, B3, B4: the first window starts at B2


def test_windoku_matches_reference_9x9():
    g = make_geometry(9, variants=["windoku"])
    assert list(g.peers) == reference_peers(9, (3, 3), ["windoku"])
    assert Counter(len(p) for p in g.peers) == {20: 45, 23: 16, 24: 20}


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (2, 4)])
def test_windoku_needs_square_boxes(shape):
    with pytest.raises(GeometryError, match="square boxes"):
        make_geometry(shape[0] * shape[1], shape, ["windoku"])


# -- jigsaw ---------------------------------------------------------------------------------
def test_jigsaw_regions_replace_boxes():
    g = make_geometry(9, regions=JIGSAW_MAP)
    assert g.box is None and g.variants == ("jigsaw",) and g.name == "9x9 jigsaw"
    assert Counter(u.kind for u in g.units) == {"row": 9, "column": 9, "region": 9}
    letters = [ch for ch in JIGSAW_MAP if not ch.isspace()]
    for cell, region in enumerate(g.boxes):
        assert g.units_of_kind("region")[region].cells == tuple(
            c for c, ch in enumerate(letters) if ch == letters[cell])
    regions = [ord(ch) - ord("A") for ch in letters]
    assert list(g.peers) == reference_peers(9, None, [], regions)


def test_jigsaw_with_variants():
    g = make_geometry(9, variants=["diagonal", "anti-king"], regions=JIGSAW_MAP)
    regions = [ord(ch) - ord("A") for ch in JIGSAW_MAP if not ch.isspace()]
    assert list(g.peers) == reference_peers(9, None, ["diagonal", "anti-king"], regions)
    with pytest.raises(GeometryError, match="square boxes"):
        make_geometry(9, variants=["windoku"], regions=JIGSAW_MAP)


def test_region_maps_are_normalised():
    assert parse_regions("aabb aabb ccdd ccdd") == parse_regions("2211\n2211\n3344\n3344")
    assert parse_regions([5, 5, 7, 7, 5, 5, 7, 7, 1, 1, 0, 0, 1, 1, 0, 0]) == (
        0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3)
    assert make_geometry(4, regions="aabb aabb ccdd ccdd") == make_geometry(
        4, regions="xxyy\nxxyy\nzzww\nzzww")


@pytest.mark.parametrize(("regions", "message"), [
    ("aaaa bbbb cccc cccc", "3 regions"),
    ("aaaa abbb ccdd ccdd", "needs 4 cells: region a has 5; b has 3"),
    ("aabb aabb ccdd ccd", "15 cells; expected 16"),
    ("abcde abcde abcde abcde abcde", "25 cells; expected 16"),
])
def test_jigsaw_map_errors(regions, message):
    with pytest.raises(GeometryError, match=message):
        make_geometry(4, regions=regions)


def test_jigsaw_errors():
    with pytest.raises(GeometryError, match="region map"):
        make_geometry(9, variants=["jigsaw"])
    with pytest.raises(GeometryError, match="not both"):
        make_geometry(4, (2, 2), regions="aabb aabb ccdd ccdd")


# -- the geometry record: the one serialised form (puzzle JSON, certificates, DIMACS) --------
RECORDED = [
    {"size": 9}, {"size": 4}, {"size": 6}, {"size": 6, "box": (3, 2)}, {"size": 8, "box": (4, 2)},
    {"size": 10, "box": (5, 2), "variants": ["anti-king"]},
    {"size": 9, "variants": ["diagonal", "anti-knight"]}, {"size": 9, "variants": ["windoku"]},
    {"size": 9, "regions": JIGSAW_MAP}, {"size": 9, "regions": JIGSAW_MAP, "variants": ["x"]},
    {"size": 4, "regions": "aaab abbb cccd cddd"}, {"size": 7, "regions": "".join(
        str(r) * 7 for r in range(7))},
]


@pytest.mark.parametrize("options", RECORDED, ids=str)
def test_geometry_record_round_trip(options):
    options = dict(options)
    geometry = make_geometry(options.pop("size"), **options)
    record = geometry_record(geometry)
    assert record["name"] == geometry.name
    # as certificates store it (JSON) ...
    back = geometry_from_record(json.loads(json.dumps(record)))
    assert back == geometry and back.name == geometry.name
    # ... as DIMACS comments give it back (the size as a digit string) ...
    assert geometry_from_record({**record, "size": str(record["size"])}) == geometry
    # ... as puzzles' JSON holds it (only what differs from the defaults) ...
    assert geometry_from_record(geometry_record(geometry, compact=True)) == geometry
    # ... and as certificates of earlier versions wrote it (numbers in lists)
    old = {**record, "box": geometry.box if record["box"] else None,
           "regions": list(geometry.boxes) if record["regions"] else None}
    assert geometry_from_record(old) == geometry


def test_geometry_record_shape():
    assert geometry_record(make_geometry(4, regions="aabb aabb ccdd ccdd")) == {
        "size": 4, "box": None, "variants": [], "name": "4x4 jigsaw",
        "regions": "AABBAABBCCDDCCDD"}
    assert geometry_record(make_geometry(6, variants=["anti-knight"])) == {
        "size": 6, "box": "2x3", "variants": ["anti-knight"], "regions": None,
        "name": "6x6 anti-knight"}
    assert geometry_record(make_geometry(6, variants=["anti-knight"]), compact=True) == {
        "size": 6, "variants": ["anti-knight"]}


@pytest.mark.parametrize(("record", "message"), [
    ({}, "has no size"),
    ([9], "has no size"),
    ({"size": "nine"}, "size 'nine' is not a whole number"),
    ({"size": 9.5}, "size 9.5 is not a whole number"),
    ({"size": True}, "size True is not a whole number"),
    ({"size": 99}, "size must be between"),
    ({"size": 7}, "prime"),
    ({"size": 9, "box": [3]}, "box \\[3\\] is not two numbers"),
    ({"size": 9, "box": "3by3"}, "bad geometry record: box '3by3': expected ROWSxCOLS"),
    ({"size": 9, "box": 3}, "box 3 is not a list"),
    ({"size": 9, "box": [3, 4]}, "does not tile"),
    ({"size": 9, "variants": ["bogus"]}, "unknown variant 'bogus'"),
    ({"size": 9, "variants": "diagonal"}, "variants 'diagonal' is not a list"),
    ({"size": 9, "variants": ["jigsaw"]}, "needs a region map"),
    ({"size": 4, "regions": [0, 0, 1]}, "region map has 3 cells"),
    ({"size": 4, "regions": ["a"] * 16}, "region 'a' is not a whole number"),
    ({"size": 4, "box": [2, 2], "regions": [0, 0, 1, 1] * 4}, "not both"),
], ids=str)
def test_bad_geometry_record(record, message):
    with pytest.raises(GeometryError, match=message):
        geometry_from_record(record)
    with pytest.raises(GeometryError, match="not a square number"):
        parse_regions("aabbc")


def test_prime_size_works_as_jigsaw():
    # Five rows of a 5×5 "pentomino" map: each letter five times.
    g = make_geometry(5, regions="aaabb aabbb cccdd ccedd eeeed")
    assert g.size == 5 and len(g.units) == 15
    assert sorted(Counter(g.boxes).values()) == [5] * 5


# -- bad geometries ----------------------------------------------------------------------------
@pytest.mark.parametrize("size", [2, 3, 5, 7, 11, 13, 17, 23])
def test_prime_sizes_have_no_box(size):
    with pytest.raises(GeometryError, match="prime"):
        make_geometry(size)


@pytest.mark.parametrize(("size", "box"), [(9, (2, 4)), (10, (3, 3)), (12, (5, 2)),
                                           (9, (-3, -3)), (4, (0, 4)), (16, (2, 4))])
def test_bad_box_shapes(size, box):
    with pytest.raises(GeometryError, match="does not tile"):
        make_geometry(size, box)


@pytest.mark.parametrize("size", [0, 1, 36, 100])
def test_size_out_of_range(size):
    with pytest.raises(GeometryError, match="size must be between"):
        make_geometry(size)


def test_unknown_variant_and_aliases():
    with pytest.raises(GeometryError, match="unknown variant 'bogus'"):
        make_geometry(9, variants=["bogus"])
    assert [variant_name(v) for v in ("X", "hyper", "anti_knight", "antiking", "Anti-King")] == [
        "diagonal", "windoku", "anti-knight", "anti-king", "anti-king"]


def test_default_box_shapes():
    assert [default_box(n) for n in (4, 6, 8, 9, 10, 12, 16, 25)] == [
        (2, 2), (2, 3), (2, 4), (3, 3), (2, 5), (3, 4), (4, 4), (5, 5)]


def test_constructor_checks_its_parts():
    rows = [Unit("row", r, (2 * r, 2 * r + 1)) for r in range(2)]
    with pytest.raises(GeometryError, match="distinct cells"):
        Geometry(2, [*rows, Unit("column", 0, (0, 0))], boxes=[0, 0, 1, 1])
    with pytest.raises(GeometryError, match="a box for each"):
        Geometry(2, rows, boxes=[0, 0, 1])
    with pytest.raises(GeometryError, match="two different cells"):
        Geometry(2, rows, boxes=[0, 0, 1, 1], extra_pairs=[(3, 3)])
    with pytest.raises(GeometryError, match="two different cells"):
        Geometry(2, rows, boxes=[0, 0, 1, 1], extra_pairs=[(0, 4)])


def test_extra_pairs_inside_a_unit_are_dropped():
    rows = [Unit("row", r, (2 * r, 2 * r + 1)) for r in range(2)]
    g = Geometry(2, rows, boxes=[0, 0, 1, 1], extra_pairs=[(1, 0), (0, 3), (3, 0)])
    assert g.extra_pairs == ((0, 3),)
    assert g.peers == ((1, 3), (0,), (3,), (0, 2))


# -- identity ----------------------------------------------------------------------------------
def test_equality_hash_and_pickle():
    g = make_geometry(9, variants=["diagonal", "anti-knight"])
    copy = pickle.loads(pickle.dumps(g))
    assert copy is not g
    assert copy == g and hash(copy) == hash(g)
    assert copy.peers == g.peers and copy.name == g.name and copy.cell_units == g.cell_units
    assert make_geometry(9, variants=["anti-knight", "x", "diagonal"]) == g  # order, aliases
    assert make_geometry(9) == make_geometry(9, (3, 3))
    assert len({make_geometry(9), make_geometry(9, (3, 3)), copy, g}) == 2
    assert g != make_geometry(9, variants=["diagonal"])
    assert make_geometry(9) != make_geometry(9, regions="".join(
        "ABC"[c // 3] if r < 3 else "DEF"[c // 3] if r < 6 else "GHI"[c // 3]
        for r in range(9) for c in range(9)))  # same cells as the boxes, different kind
    assert make_geometry(10) != make_geometry(10, (5, 2))
    assert g != "9x9"


def test_a_geometry_unpickled_again_is_the_one_built_before():
    # Before: each puzzle a worker received rebuilt its geometry's tables (1 ms on 9x9).
    g = make_geometry(9, variants=["anti-king"])
    data = pickle.dumps(g)
    assert pickle.loads(data) is pickle.loads(data)


def test_jigsaw_pickles():
    g = make_geometry(9, regions=JIGSAW_MAP)
    copy = pickle.loads(pickle.dumps(g))
    assert copy == g and copy.boxes == g.boxes and copy.box is None


def test_names_and_repr():
    assert make_geometry(10).name == "10x10"
    assert make_geometry(10, (5, 2)).name == "10x10 (5x2 boxes)"
    assert make_geometry(9, variants=["anti-king", "windoku"]).name == "9x9 windoku anti-king"
    assert repr(make_geometry(9, variants=["anti-king"])) == (
        "<Geometry 9x9 anti-king: 27 units, 56 pairs>")


# -- labels and symbols ------------------------------------------------------------------------
def test_labels_9x9():
    g = make_geometry(9)
    assert [g.label(c) for c in (0, 1, 8, 9, 80)] == ["A1", "A2", "A9", "B1", "I9"]
    assert len({g.label(c) for c in range(81)}) == 81


def test_labels_25x25():
    g = make_geometry(25)
    assert [g.label(c) for c in (0, 24, 25, 624)] == ["A1", "A25", "B1", "Y25"]
    assert {g.label(r * 25)[0] for r in range(25)} == set("ABCDEFGHIJKLMNOPQRSTUVWXY")
    assert g.symbols == "123456789ABCDEFGHIJKLMNOP"


def test_row_labels_beyond_z():
    assert [row_label(i) for i in (0, 25, 26, 27, 51, 52)] == ["A", "Z", "AA", "AB", "AZ", "BA"]


def test_unit_names():
    g = make_geometry(4)
    assert [u.name for u in g.units[::4]] == ["row 1", "column 1", "box 1"]
