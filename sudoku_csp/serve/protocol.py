"""The wire: the messages of Rangsk's SudokuSolver listener, which the f-puzzles editor's
userscript ("Fpuzzles-SudokuSolver", its *Connect* button) speaks, read and written.

What the userscript sends (one JSON text per websocket message)::

    {"nonce": 7, "command": "truecandidates", "dataType": "fpuzzles", "data": "N4Ig..."}
    {"nonce": 8, "command": "cancel"}

``nonce`` counts up on every message, a ``cancel`` included; ``data`` is the editor's puzzle
as lz-string ``compressToBase64`` of its f-puzzles JSON, to which the userscript adds two
keys of its own: ``truecandidatesoptions`` (``"truecandidatesnumsolutions=8"``: count each
true candidate up to 8 solutions; ``"logical"``) and ``disabledlogic`` (the logic the setter
switched off: ``tuples``, ``pointing``, ``fishes``, ``wings``, ``aic``, ``contradictions``).
For ``truecandidates``, ``solve``, ``check`` and ``count`` only the givens count; for
``solvepath``, ``step`` and ``estimate`` the digits and centre marks the setter entered are
the starting state.

What comes back carries the request's ``nonce`` and a ``type``; the userscript drops any
reply whose nonce is not its latest, and ignores fields it does not know:

- ``truecandidates``: ``solutionsPerCandidate``, size×size×size numbers, cell-major
  (index ``(row·size + col)·size + digit − 1``): 0 no solution holds the digit there, else
  how many do, capped at the solution cap (1 unless the setter raised it);
- ``solved``: ``solution``, size×size digits, row by row;
- ``count``: ``count`` and ``inProgress`` (sent as the count grows, the last one
  ``inProgress: false``; ``check`` counts to 2);
- ``logical``: ``cells`` (each ``{"value": d}`` or ``{"value": 0, "candidates": [...]}``),
  ``message`` (the step, or the path, one line each) and ``isValid``;
- ``estimate``: ``estimate``, ``stderr``, ``iterations``, ``ci95_lower``, ``ci95_upper``,
  ``relErrPercent``, sent again and again as the estimate improves, until cancelled;
- ``invalid``: ``message`` (why: no solution and the parts that conflict, or what is wrong
  with the request);
- ``canceled``.

This module holds the message shapes and the reading of a request's puzzle, as pure
functions; :mod:`sudoku_csp.serve.jobs` answers requests and :mod:`sudoku_csp.serve.server`
carries them.

>>> request = read_request('{"nonce": 3, "command": "check", "dataType": "fpuzzles", '
...                        '"data": "N4Ig"}')
>>> request.nonce, request.command, request.givens_only
(3, 'check', True)
>>> reply(request.nonce, "count", count=1, inProgress=False)
{'nonce': 3, 'type': 'count', 'count': 1, 'inProgress': False}
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sudoku_csp.errors import InputError, ParseError, ReaderNote
from sudoku_csp.geometry import EMPTY
from sudoku_csp.puzzle import Puzzle

__all__ = ["COMMANDS", "DATA_TYPES", "DISABLED_LOGIC", "EXTRA_COMMANDS", "MAX_MESSAGE",
           "ProtocolError", "Request", "Settings", "cells_of", "logical_cells",
           "read_puzzle", "read_request", "reply", "solutions_per_candidate"]

PROTOCOL_COMMANDS = ("truecandidates", "solve", "check", "count", "solvepath", "step",
                     "estimate", "cancel")
"""The commands of SudokuSolver's listener, as the userscript sends them."""

EXTRA_COMMANDS = ("read", "verdicts", "conflict", "disambiguate")
"""This tool's own commands, which the userscript never sends (the page does): the puzzle as
read, with its picture and links; the verdict of each backend; the minimal conflict; the
givens that make it unique."""

COMMANDS = PROTOCOL_COMMANDS + EXTRA_COMMANDS

GIVENS_ONLY = ("truecandidates", "solve", "check", "count")
"""The commands that read the givens alone (as SudokuSolver does); the others start from the
digits and centre marks the setter entered."""

DATA_TYPES = ("fpuzzles", "text")
"""``fpuzzles``: the protocol's payload, lz-string base64 of f-puzzles JSON; ``text``: this
tool's own, any puzzle text :func:`sudoku_csp.io.parse` reads (a plain line, a grid, an
f-puzzles or SudokuPad link, JSON)."""

MAX_MESSAGE = 4_000_000
"""The longest message read, in characters: a puzzle's payload takes a few thousand; the
bounded decoder (:mod:`sudoku_csp.io.lzdecode`) then refuses what decodes past its own
limit."""

DISABLED_LOGIC: dict[str, tuple[str, ...]] = {
    "tuples": ("direct_hidden_pair", "direct_hidden_triple", "naked_pair", "hidden_pair",
               "naked_triple", "hidden_triple", "naked_quad", "hidden_quad", "rule_naked_pair",
               "rule_naked_triple", "rule_naked_quad"),
    "pointing": ("direct_pointing", "direct_claiming", "pointing", "claiming", "rule_pointing",
                 "rule_cell_forcing"),
    "fishes": ("x_wing", "swordfish", "jellyfish", "turbot_fish", "rule_fish", "rule_fish3"),
    "wings": ("xy_wing", "xyz_wing", "wxyz_wing", "vwxyz_wing", "uvwxyz_wing",
              "tuvwxyz_wing", "w_wing", "three_strong_links", "four_strong_links",
              "five_strong_links", "six_strong_links"),
    "aic": ("x_chain", "xy_chain", "aic"),
    "contradictions": ("nishio", "forcing_chain", "cell_region_forcing",
                       "dynamic_forcing_chain", "forcing_chain_plus"),
}
"""The logic the userscript's settings switch off (``disabledlogic``), as the techniques of
:data:`sudoku_csp.logic.TECHNIQUES` each name stands for (a test holds every key to the
ladder)."""


class ProtocolError(InputError):
    """A message this service cannot answer but with ``invalid``: not JSON, no command it
    knows, a puzzle that does not read. ``nonce``: the message's, when it had one."""

    def __init__(self, message: str, nonce: int | None = None) -> None:
        super().__init__(message)
        self.nonce = nonce


@dataclass(frozen=True)
class Request:
    """One message: ``nonce``, ``command``, ``data_type`` and ``data`` as sent; ``extra``:
    the fields beyond the protocol's, which the page sends (``pictures``: SVG pictures in
    the replies; ``cap``: the solution cap, when no ``truecandidatesoptions`` says it;
    ``samples``: the descents an ``estimate`` makes before its last reply)."""

    nonce: int | None
    command: str
    data_type: str = "fpuzzles"
    data: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def givens_only(self) -> bool:
        return self.command in GIVENS_ONLY

    @property
    def pictures(self) -> bool:
        return self.extra.get("pictures") is True


def read_request(text: str | bytes) -> Request:
    """The request a message holds; :class:`ProtocolError` saying what is wrong (with the
    nonce, when the message has a readable one).

    >>> read_request('{"nonce": 1, "command": "cancel"}').command
    'cancel'
    >>> read_request('{"nonce": 2, "command": "fly"}')
    Traceback (most recent call last):
    ...
    sudoku_csp.serve.protocol.ProtocolError: unknown command 'fly': expected one of ...
    """
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(f"a message of {len(text):,} characters, more than any puzzle "
                            f"needs ({MAX_MESSAGE:,}): refused")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError) as exc:
        where = (f" at line {exc.lineno}, column {exc.colno}"
                 if isinstance(exc, json.JSONDecodeError) else "")
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "too deep"
        raise ProtocolError(f"not a JSON message{where}: {reason}") from None
    if not isinstance(message, dict):
        raise ProtocolError("expected a JSON object with nonce and command")
    nonce = message.get("nonce")
    if isinstance(nonce, bool) or not isinstance(nonce, int):
        raise ProtocolError(f"expected a whole number as nonce, got {nonce!r}")
    command = message.get("command")
    if command not in COMMANDS:
        raise ProtocolError(f"unknown command {command!r}: expected one of "
                            f"{', '.join(COMMANDS)}", nonce)
    if command == "cancel":
        return Request(nonce, command)
    data_type = message.get("dataType")
    if data_type not in DATA_TYPES:
        raise ProtocolError(f"unknown dataType {data_type!r}: expected "
                            f"{' or '.join(DATA_TYPES)}", nonce)
    data = message.get("data")
    if not isinstance(data, str) or not data.strip():
        raise ProtocolError("expected the puzzle as a string in data", nonce)
    known = {"nonce", "command", "dataType", "data"}
    extra = {k: v for k, v in message.items() if k not in known}
    return Request(nonce, command, data_type, data, extra)


def reply(nonce: int | None, kind: str, **fields: Any) -> dict[str, Any]:
    """A reply: the request's nonce, its ``type``, then its fields."""
    return {"nonce": nonce, "type": kind, **fields}


# -- the request's puzzle -----------------------------------------------------------------------
@dataclass(frozen=True)
class Settings:
    """What the userscript adds to the puzzle: the solution cap of true candidates
    (``truecandidatesnumsolutions``, 1 when absent), whether it asked for logical candidates,
    and the logic switched off (names of :data:`DISABLED_LOGIC`)."""

    cap: int = 1
    logical: bool = False
    disabled: tuple[str, ...] = ()

    def techniques(self) -> list[str] | None:
        """The technique keys left on, or None for all of them."""
        if not self.disabled:
            return None
        from sudoku_csp.logic import TECHNIQUES

        off = {key for name in self.disabled for key in DISABLED_LOGIC.get(name, ())}
        return [key for key in TECHNIQUES if key not in off]


def _settings(document: dict[str, Any]) -> Settings:
    options = document.get("truecandidatesoptions") or []
    disabled = document.get("disabledlogic") or []
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise ParseError("truecandidatesoptions: expected a list of strings")
    if not isinstance(disabled, list) or not all(isinstance(o, str) for o in disabled):
        raise ParseError("disabledlogic: expected a list of strings")
    cap, logical = 1, False
    for option in options:
        name, _, value = option.partition("=")
        if name.lower() == "truecandidatesnumsolutions":
            if not value.strip().isdigit() or int(value) < 1:
                raise ParseError(f"truecandidatesoptions: {option!r}: expected a whole "
                                 "number of solutions, at least 1")
            cap = int(value)
        elif name.lower() == "logical":
            logical = True
        elif name.lower() == "colored":  # the userscript's old flag: a cap of 8
            cap = max(cap, 8)
    names = tuple(n.lower() for n in disabled if n.lower() in DISABLED_LOGIC)
    return Settings(cap, logical, names)


def _as_sent(document: dict[str, Any], entered: bool) -> dict[str, Any]:
    """``document`` with the editor's ``"value": 0`` (an empty cell, to SudokuSolver) left
    out; with ``entered``, the digits the setter entered made givens and the centre marks of
    each cell without a digit made the cell's pencil marks (``givenPencilMarks``): where a
    solver stands, as SudokuSolver reads the grid for ``step`` and ``solvepath``."""
    rows = document.get("grid")
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        return document  # the reader says what is wrong
    changed = []
    for row in rows:
        new_row = []
        for cell in row:
            if isinstance(cell, dict):
                cell = dict(cell)
                if cell.get("value") == 0 and not isinstance(cell["value"], bool):
                    del cell["value"]
                if entered:
                    if cell.get("value") not in (None, ""):
                        cell["given"] = True
                    elif cell.get("centerPencilMarks"):
                        cell["givenPencilMarks"] = cell["centerPencilMarks"]
                    cell.pop("centerPencilMarks", None)
            new_row.append(cell)
        changed.append(new_row)
    return {**document, "grid": changed}


def read_puzzle(request: Request) -> tuple[Puzzle, Settings, tuple[str, ...]]:
    """The puzzle of a request, the userscript's settings, and the reader's notes (what it
    left out: decoration, digits entered without ``given``); :class:`ProtocolError` with the
    reader's one-line error when it does not read. A payload is decoded by the bounded
    decoder (:func:`sudoku_csp.io.lzdecode.link_text`), which refuses a decompression bomb.

    >>> import lzstring
    >>> doc = '{"size": 4, "grid": [[{"value": 1, "given": true}, {"value": 2}, {}, {}],' \\
    ...       ' [{}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}, {}]]}'
    >>> data = lzstring.LZString().compressToBase64(doc)
    >>> puzzle, settings, notes = read_puzzle(Request(1, "solve", "fpuzzles", data))
    >>> puzzle.givens[:2], settings.cap, notes
    ((0, -1), 1, ("ignored 1 digit entered without 'given'",))
    >>> read_puzzle(Request(1, "step", "fpuzzles", data))[0].givens[:2]
    (0, 1)
    """
    from sudoku_csp.io import parse
    from sudoku_csp.io.fpuzzles import read_fpuzzles
    from sudoku_csp.io.lzdecode import link_text
    from sudoku_csp.io.options import ReadOptions

    settings = Settings()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ReaderNote)
        try:
            if request.data_type == "text":
                puzzle = parse(request.data.strip())
            else:
                text = link_text(request.data.strip())
                if text is None:
                    raise ParseError("the data is not lz-string base64 (the f-puzzles "
                                     "editor's export) of a puzzle")
                try:
                    document = json.loads(text)
                except (ValueError, RecursionError):
                    raise ParseError("the data does not decode to f-puzzles JSON") from None
                if not isinstance(document, dict):
                    raise ParseError("the data does not decode to an f-puzzles JSON object")
                settings = _settings(document)
                document = _as_sent(document, entered=not request.givens_only)
                puzzle = read_fpuzzles(json.dumps(document), ReadOptions())
        except ParseError as exc:
            words = str(exc) if request.data_type == "text" else exc.reason
            raise ProtocolError(words, request.nonce) from None
        except InputError as exc:
            raise ProtocolError(str(exc), request.nonce) from None
    cap = request.extra.get("cap")
    if isinstance(cap, int) and not isinstance(cap, bool) and cap >= 1:
        settings = Settings(cap, settings.logical, settings.disabled)
    notes = tuple(str(w.message) for w in caught if issubclass(w.category, ReaderNote))
    return puzzle, settings, notes


# -- replies' fields ------------------------------------------------------------------------------
def solutions_per_candidate(counts: Sequence[Sequence[int]]) -> list[int]:
    """The protocol's flat list of a puzzle's candidate counts (``counts[cell][digit]``),
    cell-major.

    >>> solutions_per_candidate([(0, 2), (2, 0)])
    [0, 2, 2, 0]
    """
    return [k for row in counts for k in row]


def cells_of(masks: Sequence[int], placed: int, size: int) -> list[dict[str, Any]]:
    """The protocol's ``cells`` of a grid of candidate masks: ``{"value": d}`` for a cell
    whose digit is placed (bit ``cell`` of ``placed``), ``{"value": 0, "candidates": [...]}``
    otherwise, a single candidate included, as SudokuSolver sends them (the userscript
    shows those as pencil marks, and sends them back as such). Digits are 1-based.

    >>> cells_of([0b01, 0b10, 0b11], 0b001, 2)
    [{'value': 1}, {'value': 0, 'candidates': [2]}, {'value': 0, 'candidates': [1, 2]}]
    """
    return [{"value": mask.bit_length()} if placed >> cell & 1
            else {"value": 0, "candidates": [d + 1 for d in range(size) if mask >> d & 1]}
            for cell, mask in enumerate(masks)]


def logical_cells(puzzle: Puzzle, masks: Sequence[int] | None = None, placed: int = 0
                  ) -> list[dict[str, Any]]:
    """:func:`cells_of` the candidate ``masks`` with ``placed`` cells; the puzzle's givens
    alone (placed, every other cell open) when ``masks`` is None."""
    if masks is None:
        masks = [(1 << puzzle.size) - 1 if d == EMPTY else 1 << d for d in puzzle.givens]
        placed = sum(1 << cell for cell, d in enumerate(puzzle.givens) if d != EMPTY)
    return cells_of(masks, placed, puzzle.size)
