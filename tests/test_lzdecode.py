"""The bounded lz-string decoder (sudoku_csp.io.lzdecode): the same text as the ``lzstring``
package on every payload it decodes, and a payload that grows past the limit refused early,
through every reader of links."""

from __future__ import annotations

import json
import tracemalloc
from functools import cache
from pathlib import Path

import lzstring
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sudoku_csp.cli import Exit, app
from sudoku_csp.errors import ParseError
from sudoku_csp.io import parse
from sudoku_csp.io.lzdecode import MAX_DECODED, MAX_ITEMS, DecodedTooLongError, decompress

CODER = lzstring.LZString()
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


@cache
def bomb(runs: int, char: str = "a") -> str:
    """An lz-string base64 payload of ``"{"`` and then ``char`` repeated ``(runs + 1) *
    (runs + 2) / 2`` times: after the two characters, each code names the entry it makes
    (the last one and its first character again), so every code writes one more ``"a"``
    than the one before. 20,000 runs: 44.6 KB that stand for 200 million characters."""
    bits: list[int] = []

    def put(value: int, width: int) -> None:  # a code, first bit lowest
        bits.extend((value >> i) & 1 for i in range(width))

    put(0, 2)  # an 8-bit character follows; the dictionary holds 3 codes (2 bits)
    put(ord("{"), 8)
    put(0, 3)
    put(ord(char), 8)
    size = 6  # the 3 reserved codes, "{", char, "{" + char
    for _ in range(runs):
        put(size, size.bit_length())
        size += 1
    put(2, size.bit_length())  # the end
    bits.extend([0] * (6 - len(bits) % 6))
    text = "".join(BASE64[int("".join(map(str, bits[i:i + 6])), 2)]
                   for i in range(0, len(bits), 6))
    return text + "=" * (-len(text) % 4)


def bomb_text(runs: int, char: str = "a") -> str:
    return "{" + char * ((runs + 1) * (runs + 2) // 2)


@pytest.mark.parametrize("runs", [0, 1, 7, 300])
def test_the_bomb_is_a_payload_the_package_reads(runs):
    assert CODER.decompressFromBase64(bomb(runs)) == bomb_text(runs)
    assert decompress(bomb(runs)) == bomb_text(runs)
    assert decompress(bomb(runs, ",")) == bomb_text(runs, ",")


# -- the same text as the package -------------------------------------------------------------
BMP = st.characters(max_codepoint=0xFFFF)  # lz-string writes UTF-16 code units


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(BMP, max_size=300), st.text("ab{}", max_size=2000),
                 st.text(st.characters(max_codepoint=127), max_size=600)))
def test_decompress_reads_what_the_package_writes(text):
    assert decompress(CODER.compressToBase64(text)) == text
    assert decompress(CODER.compressToEncodedURIComponent(text)) == text


def containers(inner: st.SearchStrategy) -> st.SearchStrategy:
    return st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=5)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    containers, max_leaves=40)


@settings(max_examples=50, deadline=None)
@given(JSON)
def test_decompress_reads_json_as_the_package_does(value):
    payload = CODER.compressToBase64(json.dumps(value))
    assert decompress(payload) == CODER.decompressFromBase64(payload)


@settings(max_examples=300, deadline=None)
@given(st.text(BASE64 + "=-$", max_size=40))
def test_on_any_payload_the_package_reads_the_text_is_the_same(payload):
    try:
        expected = CODER.decompressFromBase64(payload)
    except Exception:  # noqa: BLE001 - the package raises anything on a bad payload
        return
    assert decompress(payload) == expected


def test_real_puzzles_read_the_same():
    lines = (Path(__file__).parent / "fpuzzles_fixtures.jsonl").read_text(encoding="utf-8")
    texts = [json.dumps(json.loads(line)["fpuzzles"]) for line in lines.splitlines()]
    texts += [line for line in (Path(__file__).parent / "constrained_cases.jsonl")
              .read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(texts) > 5
    for text in texts:
        payload = CODER.compressToBase64(text)
        assert decompress(payload) == CODER.decompressFromBase64(payload) == text


@pytest.mark.parametrize("payload", ["", "A", "not base64!", "N4Ig", "////", "$$$$"])
def test_what_is_no_payload_decodes_to_none(payload):
    assert decompress(payload) in (None, "")


# -- a payload past the limit ------------------------------------------------------------------
def test_a_payload_past_the_limit_is_refused_after_reading_a_little_of_it():
    payload = bomb(20_000)  # 200 million characters
    tracemalloc.start()
    try:
        with pytest.raises(DecodedTooLongError) as caught:
            decompress(payload)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert caught.value.limit == MAX_DECODED
    assert caught.value.read < len(payload) // 8  # it stopped early
    assert peak < 4 * MAX_DECODED  # a small multiple of the text it allows, not of the bomb


def test_the_limit_is_the_text_allowed():
    text = bomb_text(100)
    assert decompress(bomb(100), limit=len(text)) == text
    with pytest.raises(DecodedTooLongError, match=f"more than {len(text) - 1:,} characters"):
        decompress(bomb(100), limit=len(text) - 1)


LINKS = ["https://f-puzzles.com/?load=", "https://sudokupad.app/fpuzzles",
         "https://sudokupad.app/fpuz", "https://sudokupad.app/scl",
         "https://beta.sudokupad.app/sudoku/ctc", "sudokupad.app/?puzzleid=scl"]


@pytest.mark.parametrize("prefix", LINKS)
def test_every_link_refuses_the_bomb(prefix):
    with pytest.raises(ParseError, match="decodes to more than 4,000,000 characters") as caught:
        parse(prefix + bomb(20_000), line=3)
    assert caught.value.line == 3


@pytest.mark.parametrize("prefix", LINKS)
def test_every_link_refuses_millions_of_empty_values(prefix):
    # SudokuPad's zipped form writes an empty object as nothing between two commas: well
    # under the characters allowed, 101,926 commas would be as many objects to build.
    assert len(bomb_text(450, ",")) < MAX_DECODED // 30
    with pytest.raises(ParseError, match=f"holds 101,927 commas and brackets, more than any "
                                         f"puzzle's {MAX_ITEMS:,}: refused"):
        parse(prefix + bomb(450, ","))


def test_the_bomb_through_the_cli_is_an_input_error(tmp_path):
    path = tmp_path / "bomb.txt"
    path.write_text("https://sudokupad.app/scl" + bomb(10_000) + "\n")
    result = CliRunner().invoke(app, ["count", str(path)])
    assert result.exit_code == Exit.INPUT, result.output
    assert "line 1: the link's data decodes to more than 4,000,000" in result.stderr
    assert "Traceback" not in result.output
