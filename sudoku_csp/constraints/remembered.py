"""What the native narrowings remember per candidate masks, and forgetting it.

A narrowing worked out from its cells' candidate masks (a sandwich's, a renban's, an
automaton's per state) is remembered: a search meets states again, and other puzzles meet
some of them. A puzzle solved again meets every state of its own again, which no new puzzle
does; :func:`forget_states` clears them all (what depends on shapes alone, clause templates,
digit-set tables and automata, stays), for a benchmark that times a puzzle met again as new
(:func:`~sudoku_csp.constraints.forget_puzzles`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from functools import _lru_cache_wrapper

__all__ = ["forget_states", "on_forget", "state_cache"]

_FORGET: list[Callable[[], object]] = []
_Result = TypeVar("_Result")


def on_forget(clear: Callable[[], object]) -> None:
    """Have :func:`forget_states` call ``clear`` (a memory of narrowings per candidate
    masks held somewhere else than a :func:`state_cache`: an automaton's per state)."""
    _FORGET.append(clear)


def state_cache(maxsize: int
                ) -> Callable[[Callable[..., _Result]], _lru_cache_wrapper[_Result]]:
    """``functools.lru_cache(maxsize)`` for what is worked out from candidate masks (a
    narrowing per state of the cells), which :func:`forget_states` clears. Such results
    help a search that meets a state again, and any puzzle that meets it; a puzzle solved
    again meets all of its own states again, which no new puzzle does.

    >>> @state_cache(maxsize=8)
    ... def fewest(masks): return min(masks)
    >>> fewest((3, 1)), fewest.cache_info().currsize
    (1, 1)
    >>> forget_states(); fewest.cache_info().currsize
    0
    """
    def remembered(function: Callable[..., _Result]) -> _lru_cache_wrapper[_Result]:
        cached = lru_cache(maxsize=maxsize)(function)
        on_forget(cached.cache_clear)
        return cached
    return remembered


def forget_states() -> None:
    """Clear every memory of narrowings per candidate masks (:func:`state_cache`,
    :func:`on_forget`): what depends on shapes alone (clause templates, digit-set tables,
    automata) is kept."""
    for clear in _FORGET:
        clear()
