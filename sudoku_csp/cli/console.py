"""Standard output and standard error as rich consoles that load rich when something needs it.

Every command prints through rich (grids in colour, tables, progress bars), but most print a
verdict, a grid or a note to a pipe, where rich writes the text as it is: importing rich's
console costs about 15 ms of each command's start (issue 34). A :class:`LazyConsole` writes
such text itself, byte for byte as rich's console would, and makes rich's console the first
time anything else is asked of it: a style to show (a terminal, ``FORCE_COLOR``,
``TTY_COMPATIBLE``, a notebook), markup to read, a table, a progress bar, any other
attribute. tests/test_startup.py holds both paths to rich's own output.
"""

from __future__ import annotations

import builtins
import os
import re
import sys
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

__all__ = ["LazyConsole", "Styled", "silence_stdout"]

_AS_RICH_WRITES = re.compile(r"[^\t\x07\x08\x0b\x0c\r]*")
"""Text rich's console writes unchanged (soft wrap, no emoji codes, no highlighting): none of
the control codes it strips, no tab (expanded)."""

_LINE_END_SPACE = re.compile(r"\s\n|\s\Z")
"""Whitespace ending a line, which rich cuts past the console's width."""


class Styled:
    """Text in pieces, each with a rich style (``""`` for none): rich's
    :class:`~rich.text.Text` of those pieces (``__rich__``), which a :class:`LazyConsole`
    writes without rich where no style shows.

    >>> grid = Styled()
    >>> grid.append("1", "bold"); grid.append(" "); grid.append("2", "cyan")
    >>> grid.plain, grid.__rich__().spans[1].style
    ('1 2', 'cyan')
    """

    def __init__(self) -> None:
        self.pieces: list[tuple[str, str]] = []

    def append(self, text: str, style: str = "") -> None:
        """Add ``text`` in ``style`` at the end."""
        self.pieces.append((text, style))

    @property
    def plain(self) -> str:
        """The text without its styles."""
        return "".join(text for text, _ in self.pieces)

    def __rich__(self) -> Text:
        from rich.text import Text

        text = Text()
        for piece, style in self.pieces:
            text.append(piece, style=style)
        return text


class LazyConsole:
    """``rich.console.Console(stderr=stderr, highlight=False, soft_wrap=True, emoji=False)``,
    made the first time it is needed (see the module's docstring); until then, :meth:`print`
    of one text (a ``str``, or :class:`Styled`) to a file that is no terminal writes it
    itself."""

    def __init__(self, *, stderr: bool = False) -> None:
        self.stderr = stderr
        self._console: Console | None = None

    @property
    def console(self) -> Console:
        """rich's console, made now if it was not."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=self.stderr, highlight=False, soft_wrap=True,
                                    emoji=False)
        return self._console

    def _file(self) -> TextIO | None:
        """Where rich's console would write (past a progress bar's proxy of it)."""
        file = sys.stderr if self.stderr else sys.stdout
        return getattr(file, "rich_proxied_file", file)

    def _colourless(self) -> bool:
        """Whether rich's console would write no style, nor be asked anything: not made yet,
        its file no terminal, and nothing says otherwise (``FORCE_COLOR`` or
        ``TTY_COMPATIBLE`` set at all, IPython's ``get_ipython``). Anything in doubt is
        rich's to decide."""
        if self._console is not None or "FORCE_COLOR" in os.environ \
                or "TTY_COMPATIBLE" in os.environ or hasattr(builtins, "get_ipython"):
            return False
        try:
            return self._file().isatty() is False  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            return False

    @property
    def is_terminal(self) -> bool:
        """rich's ``Console.is_terminal``."""
        return False if self._colourless() else self.console.is_terminal

    def print(self, *objects: Any, markup: bool | None = None, **options: Any) -> None:
        """rich's ``Console.print``."""
        text = objects[0] if len(objects) == 1 and not options else None
        if type(text) is Styled:
            text = text.plain
        elif type(text) is not str or (markup is not False and "[" in text):
            text = None
        if text is not None and _AS_RICH_WRITES.fullmatch(text) \
                and not _LINE_END_SPACE.search(text) and self._colourless():
            self._write(text + "\n")
        else:
            self.console.print(*objects, markup=markup, **options)

    def _write(self, text: str) -> None:
        """Write and flush ``text`` as rich's console does, a closed pipe too: standard
        output pointed at /dev/null, then exit 1 (which the command line reports as the
        reader's doing: :func:`sudoku_csp.cli.main`)."""
        file = self._file()
        assert file is not None
        try:
            file.write(text)
            file.flush()
        except UnicodeEncodeError as error:
            error.reason = (f"{error.reason}\n*** You may need to add PYTHONIOENCODING=utf-8 "
                            "to your environment ***")  # rich's words for it
            raise
        except BrokenPipeError:
            silence_stdout()
            raise SystemExit(1) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.console, name)


def silence_stdout() -> None:
    """Point standard output at /dev/null once its reader is gone, so that nothing written
    later (the interpreter's final flush included) fails again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor (a test's captured output)
        pass
