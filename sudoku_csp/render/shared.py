"""What the pictures of one page have in common, defined once: :class:`SharedDefs`.

A page of many pictures of one puzzle (:mod:`sudoku_csp.logic.html`) passes one to every
picture: what they share (the grid's lines, coordinates and constraint marks, the givens,
each cell's plain candidates) is then defined once, in one hidden ``<svg>`` of the page, and
each picture refers to it with ``<use>``.
"""

from __future__ import annotations

__all__ = ["SharedDefs"]


class SharedDefs:
    """The parts that several pictures of one page have in common, each defined once.

    :meth:`use` returns a ``<use>`` element that draws ``content`` (SVG elements), defining
    it on first use; :meth:`svg` is the hidden ``<svg>`` holding the definitions, which must
    come before or after the pictures in the same HTML document. ``prefix`` starts every id
    (a letter, then letters, digits or ``-``): pages shown together (a notebook) need
    different prefixes unless their definitions are the same. A drawn ``<use>`` inherits
    fill, font and alignment from where it stands, so a definition holds only what differs
    between its elements.

    >>> shared = SharedDefs("p")
    >>> shared.use('<circle r="2"/>'), shared.use('<circle r="2"/>'), shared.use("<g/>")
    ('<use href="#p0"/>', '<use href="#p0"/>', '<use href="#p1"/>')
    """

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self._ids: dict[str, str] = {}

    def use(self, content: str) -> str:
        ident = self._ids.get(content)
        if ident is None:
            ident = self._ids[content] = f"{self.prefix}{len(self._ids):x}"
        return f'<use href="#{ident}"/>'

    def __len__(self) -> int:
        return len(self._ids)

    def svg(self) -> str:
        """The definitions, in a zero-sized ``<svg>`` that takes no room on the page."""
        parts = "".join(f'<g id="{ident}">{content}</g>' for content, ident in self._ids.items())
        return ('<svg xmlns="http://www.w3.org/2000/svg" class="sudoku-defs" width="0" '
                'height="0" aria-hidden="true" style="position:absolute;overflow:hidden">'
                f"<defs>{parts}</defs></svg>")
