"""SudokuPad's own payloads (scl/ctc): read where the meaning is typed, refused elsewhere
(sudoku_csp.io.sudokupad_payload and sudoku_csp.io.sudokupad, through sudoku_csp.io.fpuzzles)."""

from __future__ import annotations

import json
import warnings

import lzstring
import pytest

from sudoku_csp.errors import ParseError, ReaderNote
from sudoku_csp.io import parse
from sudoku_csp.io.sudokupad_payload import sudokupad_json, unzip


def boxes(n: int = 4, high: int = 2) -> list[list[list[int]]]:
    wide = n // high
    return [[[r, c] for r in range(n) for c in range(n)
             if (r // high) * high + c // wide == b] for b in range(n)]


def scl(size: int = 4, **keys: object) -> dict:
    return {"cellSize": 50, "cells": [[{} for _ in range(size)] for _ in range(size)],
            "regions": boxes(size), **keys}


def nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


def link(puzzle: dict | str, prefix: str = "https://sudokupad.app/scl") -> str:
    text = puzzle if isinstance(puzzle, str) else json.dumps(puzzle)
    return prefix + lzstring.LZString().compressToBase64(text)


def read(text: str, **options: object):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReaderNote)
        return parse(text, **options)


def test_givens_regions_and_a_killer_cage_are_read():
    puzzle = scl(cells=[[{"value": 1}, {}, {}, {}], [{}, {}, {"value": "3"}, {}],
                        [{}, {}, {}, {}], [{}, {}, {}, {}]],
                 cages=[{"value": "title: Small"}, {"value": "author: Me"},
                        {"cells": [[3, 0], [3, 1]], "value": 7, "unique": True}])
    p = read(link(puzzle))
    assert p.givens[0] == 0 and p.givens[6] == 2
    assert [c.kind for c in p.constraints] == ["cage"]
    assert p.metadata == "Small Me"
    # the same puzzle from every form of the link
    for prefix in ("https://sudokupad.app/ctc", "sudokupad.app/?puzzleid=scl",
                   "https://app.crackingthecryptic.com/sudoku/scl"):
        assert read(link(puzzle, prefix)) == p


def test_irregular_regions_are_read_as_a_jigsaw():
    regions = [[[0, 0], [0, 1], [0, 2], [1, 0]], [[0, 3], [1, 1], [1, 2], [1, 3]],
               [[2, 0], [2, 1], [3, 0], [3, 1]], [[2, 2], [2, 3], [3, 2], [3, 3]]]
    p = read(link(scl(regions=regions)))
    assert "jigsaw" in p.geometry.variants
    assert p.geometry.boxes[4] == 0 and p.geometry.boxes[3] == 1


def test_a_cage_without_value_is_decoration_unless_unique():
    cages = [{"cells": [[0, 0], [0, 1]]}, {"cells": [[3, 3], [3, 2]], "unique": True}]
    with warnings.catch_warnings(record=True) as noted:
        warnings.simplefilter("always", ReaderNote)
        p = parse(link(scl(cages=cages)))
    assert [(c.kind, c.total) for c in p.constraints] == [("cage", None)]
    assert p.notes[0].startswith("ignored decoration: 1 cage")
    assert [str(w.message) for w in noted] == list(p.notes)


def test_a_coloured_line_is_refused_and_read_when_told_what_it_is():
    line = {"color": "#c54b8b", "thickness": 8,
            "wayPoints": [[0.5, 0.5], [0.5, 1.5], [0.5, 3.5]]}  # a straight run: R1C1..R1C4
    text = link(scl(lines=[{"color": "#000000", "wayPoints": [[1.5, 0.5], [2.5, 0.5]]},
                           line]))
    with pytest.raises(ParseError, match=r"SudokuPad line 1 \(colour #000000\) has no typed "
                                         r"meaning: say what it is with --treat-line "
                                         r"#000000=KIND"):
        read(text)
    with pytest.raises(ParseError, match="SudokuPad line 2 .colour #c54b8b."):
        read(text, treat_line={"#000000": "renban"})
    p = read(text, treat_line={"#000000": "renban", "#C54B8B": "thermometer"})
    kinds = sorted((c.kind, c.cells) for c in p.constraints)
    assert kinds == [("renban", (4, 8)), ("thermometer", (0, 1, 2, 3))]
    p = read(text, treat_line={"#C54B8B": "renban"}, ignore=["lines"])
    assert [c.cells for c in p.constraints] == [(0, 1, 2, 3)]
    assert "ignored as asked: lines" in p.notes


def test_an_overlay_is_refused_unless_ignored():
    dot = {"center": [0.5, 1], "width": 0.3, "height": 0.3, "rounded": True,
           "backgroundColor": "#000000", "borderColor": "#000000"}
    with pytest.raises(ParseError, match=r"SudokuPad overlay 1 \(colour #000000\) has no "
                                         "typed meaning"):
        read(link(scl(overlays=[dot])))
    assert read(link(scl(overlays=[dot])), ignore=["overlays"]).constraints == ()


def test_an_arrow_from_a_circle_is_read_and_a_bare_arrow_refused():
    circle = {"center": [0.5, 0.5], "width": 0.83, "height": 0.83, "rounded": True,
              "borderColor": "#a1a1a1", "backgroundColor": "#ffffff", "text": ""}
    arrow = {"color": "#a1a1a1", "headLength": 0.3, "thickness": 5,
             "wayPoints": [[0.9, 0.5], [1.5, 0.5], [2.5, 0.5]]}
    p = read(link(scl(overlays=[circle], arrows=[arrow])))
    assert [c.kind for c in p.constraints] == ["arrow"]
    with pytest.raises(ParseError, match="SudokuPad arrow 1 .colour #a1a1a1. is not an arrow"):
        read(link(scl(arrows=[arrow])))


def test_puzzlezipper_text_is_read():
    zipped = ("{cs:50,ce:[[{v:2},,,],[,,,],[,,,],[,,,]],"
              "re:" + json.dumps(boxes()).replace(" ", "") + ","
              "ca:[{ce:[[1,0],[1,1]],v:5,unique:t},{v:'title: Zipped'}],"
              "l:[{wp:[[2.5,0.5],[2.5,1.5],[2.5,2.5]],c:FFCCAA,th:8}]}")
    assert json.loads(unzip("{a:[,],c:#0,b:f}")) == {"a": [{}, {}], "c": "#000000", "b": False}
    assert sudokupad_json("scl" + lzstring.LZString().compressToBase64(zipped))["lines"] == [
        {"wayPoints": [[2.5, 0.5], [2.5, 1.5], [2.5, 2.5]], "color": "#FFCCAA",
         "thickness": 8}]
    p = read(link(zipped), treat_line={"#ffccaa": "whispers"})
    assert p.givens[0] == 1 and p.metadata == "Zipped"
    assert sorted(c.kind for c in p.constraints) == ["cage", "whispers"]


@pytest.mark.parametrize("puzzle, words", [
    ("not json at all", "scl/ctc payload does not decode"),
    (scl(regions=boxes()[:3]), "expected 4 regions covering the 4x4 grid"),
    (scl(cells=[[{}] * 4] * 3), "expected a square grid"),
    (scl(cells=[[{"value": 7}, {}, {}, {}]] + [[{}] * 4] * 3), "cells[0][0].value: expected"),
    (scl(cages=[{"cells": [[0, 0], [0, 1]], "value": "?"}]), "SudokuPad cage 1: value '?'"),
    (scl(cages=[{"cells": [[0, 0], [9, 1]], "value": 3}]), "cage 1 cell 2: expected [row"),
    (scl(cages=[{"cells": [[0, 0], [0, 1]], "value": 4, "unique": False}]), "may repeat"),
    (scl(cages=[{"cells": [[0, 0]], "value": 1, "style": "extraregion"}]),
     "cage 1 (style 'extraregion') is not a rule this tool reads"),
    (scl(foglight=[[0, 0]]), "SudokuPad foglight: not a rule this tool knows"),
    (scl(**{"global": ["antiwhatever"]}), "global rule 'antiwhatever'"),
    # nested past any puzzle, zipped or not: an input error, not Python's recursion limit
    ("{ce:" + "[" * 300 + "]" * 300 + "}", "nested more than 64 levels deep"),
    ("{ce:" + "[{a:" * 400 + "1" + "}]" * 400 + "}", "nested more than 64 levels deep"),
    (scl(metadata={"words": nested(70)}), "nested more than 64 levels deep"),
])
def test_bad_payloads_name_what_is_wrong(puzzle, words):
    with pytest.raises(ParseError) as caught:
        read(link(puzzle))
    assert words in str(caught.value)


def test_global_rules_are_read():
    p = read(link(scl(**{"global": ["antiknight", "nonconsecutive"]})))
    assert "anti-knight" in p.geometry.variants
    assert [c.kind for c in p.constraints] == ["nonconsecutive"]


# "Parity Fish" by Marty Sears, the SudokuPad link the Sudoku-Bench README (SakanaAI/Sudoku-Bench)
# gives as an example of an encoded puzzle: PuzzleZipper text, its red lines in a background
# image, its dots as overlays.
PARITY_FISH = "https://sudokupad.app/" + """
sclN4SwJgXA5AzgHjAtgfQLIEMBOAXAngZQFMsZkBWADgAYBjANgDMwAjV9ATmYeasIHYAjOkID2VACziGVAExhxNKABpEhb
OjDp1EYDAD2AV0w1C0fAbB6A1gYAEGK4Uy2AbjNlkAdLM8zxAWhoaBjJ0CjpldANsAAs9TGgMHFxbIhJlTAMAG0IYaAA5eMR
0LNsYC2s7TJyYW3QAB3qs3ABuWwYQLNLYwlsAc0xwWwB3EFjbHtswED6x2oF/djK9CZitKZm5qb0AOwAdKGxbTEJ64iOQHbq
dlMw9YaVbGj0sg0Qdx/QdsFtizEcfgBmOCA2zMPRwTx7HYAFWGKxMXVqGgAVugTDsjiVdn06sdCD8spdeogDDAjs9MehLrZd
r1CC5CFdprMsd9aTtenowD8WWMobD4U9CEinrtOTRsASwSl0CMYmNepYKbt1DTKTBCDRoiBGRtWTABXCESKsrVKRKpT9mLKw
Vl0VZtiqqTS+dhasMYk4uZzbCBapYDMwcqsuT1MJ5lPpXtgQLtoBQyOJAXR2AI+DJ2Hw6DIyAIKIDxAIZIW+BR2GQ6EWKxQS
3Q+JXy4C+OIZMXmwJxHQyOwKGXK+xWwIU2na83xGRCzJBI32MpmLNin1TFAYthsPU8gB6LcgTwgRB9IyeZ6ILc7QEgADy2HE
+U8KLOfXni/Qy709XRY1wEAESmw0AAApYN+tgAGL+jEUAAL5KCYEAANoIUoKGoShAC6SjIWhqGYdhOFKHhBEYVhxGEaRxFEZ
RFEEVRtGYSciFIVQShUHhLECOxSgyHhf5sVhf6cQJ3F4TIrGiUoQkIWJPF4QhLGAlx4hcWQvFKIpwnKcJqlYWJGnSUoWkGap
cksXQXF8FxFBqeZwmWcJ1m6UotkGfZBnWXJgLiVhXlSV5PFYeI3kIUFUlBQFCFkMFUVSVFslYQhXn6V5RleTpIXqXhQVGUF6
VRfpUVGVFJkJV5LleW5XmORlLlBW5QXVVFLlRW5UUeQldDBZ1UmdRFfDBf1Un9RFFDBaNUmjfFSGdfpnVGZ16X9fp/VGf16W
jfpo1GaNJXTc5eGdW5nXVf1Ln9W5/XVaNLmjW5o0eZheiIcAkqIYCnhtZhwwQFQniFkoMQ/X9QWxL+vijVK0DKDQEAAMQsQk
2BwTIcNgXBAhw1QsEvQBIUfUojnfb9/2A8TIOAwI4P/iu0OY0oiPI6j6OY9jr2RfjhNAyTXPk2DMgQzTcF0wzNAo7DaM0Bj8
Os7j4j40JRPAwDPP/hTVOQ1AtPw/TEBI6LTOSyzSg44hk0fV9Kuk0roOU/z1NQ0L2si2LEtS1jxts/1v06Yr3Nk6rfMCw7MN
O7rjPi8z0se7jfHm0ovtBVb/02+rgshwjYf6xHhtRybCF0Pj9kJ8r/sp3bGtaxnesu5H7t5wXMUW/7Se87bQea47Vfh67Rt5
xQHNN0rLcB239sd+nOvVwbbsy4hfD4z7lsq2X7eV5P3e17PCF/u9i/N8vavl2nwuZzXOd157SheHvQ8H4HY9r870+92zYkN4
PfvW4fq+d+vWc97nNm3sRLxyXqXb+D9f5P2zjPaOiE/xyxvp/ZOECK5QNPs/QBuNfJx19l5JOXk0EhzRtAi+2DC4f3wVzQhx
8I6kK3jJXB1CS5/RocHJm9C4EIX7nFShLDARsPHhwjBWDTZKHnkgqhxNBFaxISIrG6FoJAA""".replace("\n", "")


def test_a_published_sudokupad_link_decodes_and_its_untyped_rules_are_refused():
    puzzle = sudokupad_json(PARITY_FISH.removeprefix("https://sudokupad.app/"))
    assert puzzle["metadata"]["title"] == "Parity Fish" and len(puzzle["cells"]) == 9
    with pytest.raises(ParseError, match="background image"):
        read(PARITY_FISH)
    with pytest.raises(ParseError, match=r"SudokuPad overlay 1 \(colour #FFFFFF\)"):
        read(PARITY_FISH, ignore=["bgimage"])
    p = read(PARITY_FISH, ignore=["bgimage", "overlays"])
    assert p.metadata == "Parity Fish Marty Sears" and p.geometry.size == 9
    assert p.notes == ("ignored as asked: bgimage, overlays",)
