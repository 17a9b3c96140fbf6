"""SudokuPad's own puzzle payloads (``scl``/``ctc``) decoded to the puzzle object they carry.

A SudokuPad link ``https://sudokupad.app/scl<payload>`` (also ``ctc<payload>``, or
``sudokupad.app/?puzzleid=scl...``) carries the lz-string ``compressToBase64`` of a JSON
object, the puzzle format of Sam Cappleman-Lynes' CtC tool that SudokuPad uses (what the
object means, and which of it this tool reads, is :mod:`sudoku_csp.io.sudokupad`'s). The JSON
may be "zipped" by SudokuPad's PuzzleZipper: keys unquoted and shortened (``ce`` for
``cells``), ``t``/``f`` for true/false, colours without ``#`` and quotes, ``'`` for ``"``,
``{}`` left out between commas. SudokuPad also takes the JSON itself, uncompressed.
"""

from __future__ import annotations

import json
import re
from typing import Any

from sudoku_csp.errors import ParseError
from sudoku_csp.io.lzdecode import link_payload, link_text

__all__ = ["MAX_DEPTH", "SUDOKUPAD_PREFIXES", "ZIPPED_KEYS", "sudokupad_json", "unzip"]

SUDOKUPAD_PREFIXES = ("scl", "ctc")
"""The payload prefixes of SudokuPad's own format (``ctc`` is an alias of ``scl``)."""

ZIPPED_KEYS = {"c": "color", "ca": "cages", "ct": "center", "c1": "borderColor",
               "c2": "backgroundColor", "ce": "cells", "cs": "cellSize", "a": "arrows",
               "o": "overlays", "u": "underlays", "w": "width", "h": "height", "v": "value",
               "vd": "videos", "l": "lines", "r": "rounded", "re": "regions",
               "fs": "fontSize", "th": "thickness", "hl": "headLength", "wp": "wayPoints",
               "t": "title", "te": "text", "d": "duration"}
"""PuzzleZipper's short keys and the keys they stand for."""

_HEX6 = re.compile(r"^[0-9a-fA-F]{6}$")


# -- decoding ---------------------------------------------------------------------------------
def sudokupad_json(data: str, line: int = 1) -> dict[str, Any]:
    """The puzzle object of an ``scl``/``ctc`` payload (prefix included or not): lz-string
    base64, then plain or PuzzleZipper JSON. ParseError when it does not decode."""
    data = data.strip()
    for prefix in SUDOKUPAD_PREFIXES:
        data = data.removeprefix(prefix)
    data = link_payload(data)
    texts = []
    text = link_text(data, line)
    if text:
        texts.append(text)
    texts.append(data)  # SudokuPad also takes the JSON itself, uncompressed
    for text in texts:
        if not text.lstrip().startswith("{"):
            continue
        for read in (json.loads, lambda t: json.loads(unzip(t))):
            try:
                document = read(text)
            except (ValueError, RecursionError):
                continue
            if isinstance(document, dict):
                if _depth(document) > MAX_DEPTH:
                    raise ParseError(f"the SudokuPad puzzle is nested more than {MAX_DEPTH} "
                                     "levels deep: no puzzle is", line=line)
                return _unzipped_keys(document) if read is not json.loads else document
    raise ParseError("the SudokuPad scl/ctc payload does not decode (lz-string base64 of a "
                     "SudokuPad JSON object expected)", line=line)


MAX_DEPTH = 64
"""The deepest nesting of lists and objects a SudokuPad puzzle may have (a cell's given sits
four levels down; the readers below walk the puzzle recursively)."""


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (found without recursion)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth + 1)
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict)
                                                   else item))
    return deepest


def unzip(text: str) -> str:
    """The JSON text of PuzzleZipper's zipped text (keys still short: see
    :func:`_unzipped_keys`).

    >>> unzip("{ce:[[{v:1},],],c:FFCCAA,r:t}")
    '{"ce":[[{"v":1},{}],{}],"c":"#FFCCAA","r":true}'
    """
    if '"' not in text:  # zipped quotes: ' for ", \\' for '
        text = text.replace("\\'", "\0").replace("'", '"').replace("\0", "'")
    text = re.sub(r'([,{\[])([a-zA-Z0-9]+):', r'\1"\2":', text)
    text = re.sub(r"([,{\[])(?=[,}\]])", r"\1_", text)  # an empty object left out
    text = text.replace("{_}", "{}")
    text = re.sub(r"([,{\[])_", r"\1{}", text)
    for short, full in (("f", "false"), ("t", "true"), ("#0", '"#000000"'),
                        ("#F", '"#FFFFFF"')):
        text = re.sub(rf":{re.escape(short)}(?=[,}}\]])", ":" + full, text)
    text = re.sub(r"([:,\[])#([0-9a-fA-F]{3,8})(?=[,}\]])", r'\1"#\2"', text)  # #rgb(a)
    return re.sub(r":([0-9a-fA-F]{6})(?=[,}\]])", r':"#\1"', text)


def _unzipped_keys(value: Any) -> Any:
    """A zipped puzzle object with its long keys back and its bare colours given their
    ``#``."""
    if isinstance(value, list):
        return [_unzipped_keys(v) for v in value]
    if isinstance(value, dict):
        return {ZIPPED_KEYS.get(k, k): _unzipped_keys(v) for k, v in value.items()}
    if isinstance(value, str) and _HEX6.match(value):
        return "#" + value
    return value
