"""A bounded lz-string decoder: the text of a link's payload, refused past a size no puzzle
reaches.

f-puzzles and SudokuPad links carry their puzzle as lz-string's ``compressToBase64`` (or
``compressToEncodedURIComponent``) of its JSON. The ``lzstring`` package writes these
payloads (:func:`~sudoku_csp.io.fpuzzles.fpuzzles_url`), but it decodes a whole payload
before returning, however large it grows: a 45 KB link can stand for 200 million
characters and 627 MB, and what reads the text after it (JSON, SudokuPad's zipped form)
takes seconds to minutes more. :func:`decompress` reads the same format and stops as soon
as the text passes ``limit`` characters.

The format, as this decoder reads it: every payload character carries six bits (its place
in the alphabet ``A-Z a-z 0-9 + /``; the URI-safe form writes ``-`` for ``/``; the padding
``=`` or ``$`` carries zeros), most significant bit first. Those bits form a stream of codes,
each read least significant bit first, as wide as the bit length of the size of the
dictionary so far. The dictionary starts with three reserved codes: ``0`` (a new character
follows in 8 bits), ``1`` (the same in 16 bits) and ``2`` (the end of the text). A new
character is added to the dictionary as it comes. Every code then stands for a dictionary
entry, or for the one entry about to be made (the previous entry followed by its own first
character); after the first, each entry written adds one more to the dictionary: the
previous entry followed by the first character of this one.

>>> import lzstring
>>> decompress(lzstring.LZString().compressToBase64('{"size": 9}'))
'{"size": 9}'
>>> decompress("not base64!") is None
True
"""

from __future__ import annotations

import re

from sudoku_csp.errors import InputError, ParseError

__all__ = ["MAX_DECODED", "MAX_ITEMS", "DecodedTooLongError", "decompress", "link_payload",
           "link_text"]

MAX_DECODED = 4_000_000
"""The most characters a link's payload may decode to. Published puzzles take a few
thousand (under 6,000 in the development corpus of 36 variant puzzles); this leaves room
for ones drawn in thousands of lines and overlays."""

MAX_ITEMS = 100_000
"""The most JSON values a link's puzzle may hold, counted by their commas and opening
brackets (cheaply, before any JSON is read). Published puzzles hold some hundreds (under
800 in the development corpus); a text
of millions of empty values (SudokuPad's zipped form writes ``{}`` as nothing between two
commas) would cost seconds and hundreds of megabytes to read."""

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_BITS = 6


def _reversed_bits(value: int) -> int:
    return int(f"{value:0{_BITS}b}"[::-1], 2)


# Each character's six bits in reading order, first bit lowest: the stream is then the
# characters' values laid side by side, and a code is a slice of it.
_STREAM_VALUE = {ch: _reversed_bits(i) for i, ch in enumerate(_ALPHABET)}
_STREAM_VALUE.update({"-": _STREAM_VALUE["/"], "=": 0, "$": 0})

_LITERAL_8, _LITERAL_16, _END = 0, 1, 2


class DecodedTooLongError(InputError):
    """A payload that decodes to more than the characters allowed (see :data:`MAX_DECODED`)."""

    def __init__(self, limit: int, read: int, total: int) -> None:
        self.limit, self.read, self.total = limit, read, total
        super().__init__(f"the link's data decodes to more than {limit:,} characters, more "
                         f"than any puzzle needs: refused after reading {read:,} of its "
                         f"{total:,} characters")


def decompress(payload: str, limit: int = MAX_DECODED) -> str | None:
    """The text of an lz-string base64 payload (standard or URI-safe alphabet), or None when
    it is not one (a character outside the alphabet, a code the dictionary does not hold, or
    no end mark). Text past ``limit`` characters raises :class:`DecodedTooLongError` at once,
    so the work and memory stay within a small multiple of ``limit``.

    >>> decompress("IY1lA===")
    'aaaaaaaaaaaa'
    >>> decompress("IY1lA===", limit=10)
    Traceback (most recent call last):
    ...
    sudoku_csp.io.lzdecode.DecodedTooLongError: the link's data decodes to more than 10 ...
    """
    try:
        values = [_STREAM_VALUE[ch] for ch in payload]
    except KeyError:
        return None
    stream = _Stream(values)
    entries = ["", "", ""]  # the three reserved codes
    pieces: list[str] = []
    written = 0
    previous = ""
    while True:
        code = stream.read(len(entries).bit_length())
        if code == _END:
            return "".join(pieces)
        if code in (_LITERAL_8, _LITERAL_16):
            char = stream.read(8 if code == _LITERAL_8 else 16)
            if char is None:
                return None
            entries.append(chr(char))
            code = len(entries) - 1
        if code is None or code < _END:
            return None
        if code < len(entries):
            entry = entries[code]
            if previous:
                entries.append(previous + entry[0])
        elif code == len(entries) and previous:
            entry = previous + previous[0]
            entries.append(entry)  # the entry this code names is the one it makes
        else:
            return None
        pieces.append(entry)  # the entry itself, not a copy: memory grows with the text
        written += len(entry)
        if written > limit:
            raise DecodedTooLongError(limit, stream.taken, len(values))
        previous = entry


def link_payload(data: str) -> str:
    """A link's payload without what a browser adds: the link's settings after ``?``, ``&``
    or ``#`` (no payload character) are dropped, and a space (a ``+`` that URL decoding
    turned into one) is a ``+`` again.

    >>> link_payload("N4Ig a+b?setting-nogrid=1")
    'N4Ig+a+b'
    """
    return re.split(r"[?&#]", data.strip(), maxsplit=1)[0].replace(" ", "+")


def link_text(payload: str, line: int = 1) -> str | None:
    """:func:`decompress` of a link's payload (see :func:`link_payload`); a
    :class:`~sudoku_csp.errors.ParseError` at ``line`` past :data:`MAX_DECODED` characters
    or :data:`MAX_ITEMS` values."""
    try:
        text = decompress(link_payload(payload))
    except DecodedTooLongError as exc:
        raise ParseError(str(exc), line=line) from None
    if text is not None:
        items = text.count(",") + text.count("{") + text.count("[")
        if items > MAX_ITEMS:
            raise ParseError(f"the link's data holds {items:,} commas and brackets, more "
                             f"than any puzzle's {MAX_ITEMS:,}: refused", line=line)
    return text


class _Stream:
    """Codes read off the payload's bits, a character at a time as they are needed."""

    def __init__(self, values: list[int]) -> None:
        self.values = values
        self.taken = 0  # characters read so far
        self.bits = 0  # bits read but not yet used, first bit lowest
        self.held = 0  # how many

    def read(self, width: int) -> int | None:
        """The next ``width`` bits as a number, first bit lowest; None past the end."""
        while self.held < width:
            if self.taken == len(self.values):
                return None
            self.bits |= self.values[self.taken] << self.held
            self.taken += 1
            self.held += _BITS
        code = self.bits & ((1 << width) - 1)
        self.bits >>= width
        self.held -= width
        return code
