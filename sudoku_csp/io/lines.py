"""The lines of a puzzle source, numbered and bounded: what every puzzle file and stream is
read through (:mod:`sudoku_csp.io.files`).

A line is at most :data:`MAX_LINE` characters, refused as it is read (one line of gigabytes,
or ``/dev/zero``, is never read whole); line ends and a leading byte order mark are dropped;
bytes that are not UTF-8 are a :class:`~sudoku_csp.errors.ParseError` naming the line, and
its column where it can be found.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence

from sudoku_csp.errors import ParseError
from sudoku_csp.geometry import MAX_SIZE

__all__ = ["MAX_LINE", "Lines"]

MAX_LINE = 65536
"""The longest line a puzzle file may hold, in characters (a puzzle, its separators and a
comment after it fit many times over); a longer line is refused as it is read."""


class Lines:
    """The lines of a source as ``(number, text)``: numbered from 1, line ends and a leading
    byte order mark dropped, with read-ahead lines pushed back by :meth:`unread`. Bytes that
    are not UTF-8 become a :class:`ParseError` naming the line."""

    def __init__(self, handle: Iterable[str]) -> None:
        self._handle = handle
        readline = getattr(handle, "readline", None)
        # A file is read a bounded line at a time: one line of gigabytes (or /dev/zero) is
        # refused after MAX_LINE characters instead of being read whole.
        self._lines = (iter(lambda: readline(MAX_LINE + 1), "") if callable(readline)
                       else iter(handle))
        self._back: list[tuple[int, str]] = []
        self.taken = 0
        self.source = _source_name(handle)

    def __iter__(self) -> Iterator[tuple[int, str]]:
        return self

    def __next__(self) -> tuple[int, str]:
        if self._back:
            return self._back.pop()
        try:
            raw = next(self._lines)
        except UnicodeDecodeError as exc:
            self._lines = self._after_decode_error(exc)
            raw = next(self._lines)
        self.taken += 1
        if len(raw) > MAX_LINE:
            raise ParseError(f"the line is longer than {MAX_LINE} characters: not a puzzle "
                             f"line (a {MAX_SIZE}x{MAX_SIZE} puzzle written as numbers needs "
                             f"fewer)", line=self.taken)
        text = raw.rstrip("\r\n")
        return self.taken, text.removeprefix("\ufeff") if self.taken == 1 else text

    def unread(self, entries: Sequence[tuple[int, str]]) -> None:
        """Push back lines read ahead; they come out again in the order given."""
        self._back.extend(reversed(entries))

    def _after_decode_error(self, exc: UnicodeDecodeError) -> Iterator[str]:
        # A text file decodes a chunk of some 8 KB at a time, so the bad byte may lie many
        # lines ahead of the line asked for. With the path at hand, go on from the same line
        # decoding one line at a time: the lines before the bad one are still read, and the
        # error names the exact line and column.
        name = getattr(self._handle, "name", None)
        if isinstance(name, str) and os.path.isfile(name):
            return _utf8_lines(name, self.taken)
        # A stream (standard input): everything before the chunk's current line has been
        # read, so count the line ends before the bad byte within the chunk.
        data = bytes(exc.object)
        before = data[:exc.start]
        column = None
        if b"\n" in before:
            column = len(before[before.rindex(b"\n") + 1:].decode("utf-8", "replace")) + 1
        raise ParseError(_not_utf8(self.source, data[exc.start]),
                         line=self.taken + 1 + before.count(b"\n"), column=column) from None


def _utf8_lines(path: str, skip: int) -> Iterator[str]:
    """The lines of the file at ``path`` after the first ``skip``, decoded one at a time."""
    with open(path, "rb") as handle:
        for number, data in enumerate(handle, start=1):
            if number <= skip:
                continue
            try:
                yield data.decode("utf-8")
            except UnicodeDecodeError as exc:
                text = data[:exc.start].decode("utf-8", "replace")
                if number == 1:
                    text = text.removeprefix("\ufeff")
                raise ParseError(_not_utf8(path, data[exc.start]), line=number,
                                 column=len(text) + 1) from None


def _not_utf8(source: str | None, byte: int) -> str:
    return (f"{source or 'the input'} is not UTF-8 text: byte 0x{byte:02X} cannot be "
            "decoded (save it as UTF-8)")


def _source_name(handle: object) -> str | None:
    name = getattr(handle, "name", None)
    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    if name == "<stdin>":
        return "standard input"
    return name if isinstance(name, str) else None
