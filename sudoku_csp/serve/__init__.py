"""``sudoku-csp serve``: the solver as a local service, where setters work.

The f-puzzles editor's userscript "Fpuzzles-SudokuSolver" (by Rangsk, its *Connect* button)
talks to a solver listening on ``ws://localhost:4545``; this package speaks the same
protocol, so that a setter who uses it switches solver by starting this one instead, and
serves a page of its own on the same port.

- :mod:`~sudoku_csp.serve.protocol`: the messages, and the reading of a request's puzzle;
- :mod:`~sudoku_csp.serve.jobs`: the answers, from the library (true candidates, solve,
  check, count, logical steps, estimates; verdicts, conflicts, disambiguation);
- :mod:`~sudoku_csp.serve.workers`: the worker processes that do the work, killed when
  their request is cancelled;
- :mod:`~sudoku_csp.serve.server`: the websocket and the page, with aiohttp (the ``serve``
  extra);
- :mod:`~sudoku_csp.serve.pictures`: the page's pictures, from the project's renderer;
- ``static/``: the page (HTML, CSS and JavaScript, no build step, nothing from the network).

This module itself imports nothing: the command line reads its defaults from here.
"""

DEFAULT_PORT = 4545
"""The port the userscript connects to (``ws://localhost:4545``)."""

DEFAULT_HOST = "localhost"
"""Where the service listens unless told otherwise: this machine only (every address
``localhost`` names, IPv4 and IPv6, as a browser may try either)."""

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT"]
