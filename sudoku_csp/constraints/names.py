"""The names of a constraint kind, declared once: :class:`Names`.

A kind is known by a name in messages (``little killer``), by the fields of the tool's
JSON it owns (``little_killers``), by the keys of f-puzzles it reads (``littlekillersum``),
and by what a piece of it is called (``little killers``). Its class declares all of them in
one value, ``names = Names(...)``, and everything else that names the kind is derived from
it: :attr:`~sudoku_csp.constraints.base.Constraint.kind`, the JSON readers' and writers'
fields, the f-puzzles reader's table of keys, the name options take and listings print
(:attr:`Names.name`), and the words of its messages.

Options (``generate --kind``, ``--treat-line COLOUR=KIND``) take a kind's name or one of its
f-puzzles keys alike, in any case, with spaces, ``-`` and ``_`` alike (:func:`spelling`);
:func:`~sudoku_csp.constraints.registry.kind_named` looks them up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Names", "spelling"]

_SEPARATORS = re.compile(r"[\s_-]+")


def spelling(text: str) -> str:
    """``text`` as a kind's names are compared: lower case, without spaces, ``-`` or ``_``.

    >>> spelling("Little-Killer"), spelling(" little killer "), spelling("x_sum")
    ('littlekiller', 'littlekiller', 'xsum')
    """
    return _SEPARATORS.sub("", text).lower()


@dataclass(frozen=True)
class Names:
    """Every name of one constraint kind, declared on its class (``names = Names(...)``).

    - ``kind``: what messages, pictures and explanations call the kind (``little killer``);
      its :attr:`name` is the word options take and listings print;
    - ``json``: the fields of the tool's JSON the kind reads and writes, each owned by one
      kind (the fields written never change: files written before read the same); a
      registered kind has at least one;
    - ``fpuzzles``: the top-level f-puzzles keys it reads (``littlekillersum``), each read by
      one kind; ``fpuzzles_cell``: keys of an f-puzzles grid cell it reads
      (``givenPencilMarks``); ``fpuzzles_negative``: the words of f-puzzles' ``negative``
      list it honours (``ratio``);
    - ``fpuzzles_as``: for a kind f-puzzles has no key of its own for, the :attr:`name` of
      the kind whose keys it is written in, and read back as (kropki dots are written as
      f-puzzles' difference and ratio dots: ``dots``). The f-puzzles writer invents no key:
      a kind with neither keys nor ``fpuzzles_as`` is refused there, with an error naming it;
    - ``noun`` and ``plural``: what one piece of the kind is called, and several
      (``whispers line``, ``whispers lines``); the kind's name, and the noun with an ``s``,
      unless given;
    - ``aliases``: older spellings options still accept (``thermo`` for thermometers).

    >>> names = Names("little killer", json=("little_killers",), fpuzzles=("littlekillersum",))
    >>> names.name, names.plural, names.spellings()
    ('little-killer', 'little killers', ('littlekiller',))
    """

    kind: str
    json: tuple[str, ...]
    fpuzzles: tuple[str, ...] = ()
    fpuzzles_cell: tuple[str, ...] = ()
    fpuzzles_negative: tuple[str, ...] = ()
    fpuzzles_as: str | None = None
    noun: str = ""
    plural: str = ""
    aliases: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.kind.strip():
            raise ValueError("a kind's names start with its name")
        if self.fpuzzles_as is not None and (self.fpuzzles or self.fpuzzles_cell):
            raise ValueError(f"{self.kind}: a kind with f-puzzles keys of its own is written "
                             "in them, not as another kind")
        if not self.noun:
            object.__setattr__(self, "noun", self.kind)
        if not self.plural:
            object.__setattr__(self, "plural", self.noun + "s")

    @property
    def name(self) -> str:
        """The word options take and listings print: the kind's name in lower case, ``-``
        for spaces (``little-killer``, ``x-sum``)."""
        return "-".join(self.kind.split()).lower()

    def spellings(self) -> tuple[str, ...]:
        """The kind's name and aliases as :func:`spelling` compares them, each once."""
        return tuple(dict.fromkeys(spelling(s) for s in (self.kind, *self.aliases)))

    def fpuzzles_keys(self) -> tuple[str, ...]:
        """Every f-puzzles key the kind reads: top-level keys, then keys of a grid cell."""
        return (*self.fpuzzles, *self.fpuzzles_cell)
