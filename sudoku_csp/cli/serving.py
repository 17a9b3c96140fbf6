"""``sudoku-csp serve``: the solver as a local service, for the f-puzzles editor and a page.

Imported only for its own command (see :mod:`sudoku_csp.cli.app`); the service and its
server library (the ``serve`` extra) load when the command runs."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from sudoku_csp.cli.app import app
from sudoku_csp.cli.exits import Exit, guarded
from sudoku_csp.cli.output import out
from sudoku_csp.serve import DEFAULT_HOST, DEFAULT_PORT


@app.command()
def serve(
    port: Annotated[int, typer.Option(
        "--port", "-p", min=0, max=65535,
        help="Port to listen on; the f-puzzles userscript connects to 4545.")] = DEFAULT_PORT,
    host: Annotated[list[str] | None, typer.Option(
        "--host", metavar="ADDRESS",
        help="Address to listen on, repeatable (default: localhost only, IPv4 and IPv6). "
             "Another address lets other machines use the solver.")] = None,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-j", min=1,
        help="Worker processes: requests answered at once (default: one per core).")] = None,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", "-t", min=0.0,
        help="Seconds each request may take; past it the answer says 'undecided' (default: "
             "until it ends or is cancelled, as SudokuSolver does).")] = None,
    allow_origin: Annotated[list[str] | None, typer.Option(
        "--allow-origin", metavar="REGEX",
        help="Also let web pages of this origin connect (repeatable; f-puzzles and this "
             "machine's pages always may).")] = None,
) -> None:
    """Serve the solver to the f-puzzles editor and a page.

    Listens on ws://localhost:4545 (SudokuSolver's port), so that the f-puzzles userscript
    "Fpuzzles-SudokuSolver" (its Connect button) gets true candidates, solve, check, count,
    logical steps and estimates from this tool; http://localhost:4545/ is a page of its own
    (paste a puzzle or a link: its picture, each backend's verdict, true candidates, the
    conflict, the givens that make it unique, the logical path). Ctrl-C stops it.
    """

    def action() -> Exit:
        import asyncio

        from sudoku_csp.errors import InputError
        from sudoku_csp.serve.server import ORIGINS, run_service

        hosts = host or [DEFAULT_HOST]

        async def main() -> None:
            ready: asyncio.Future[list[tuple[str, int]]] = (
                asyncio.get_running_loop().create_future())

            def announce(done: asyncio.Future[list[tuple[str, int]]]) -> None:
                if done.cancelled() or done.exception():
                    return
                shown = sorted({p for _, p in done.result()})
                where = f"localhost:{shown[0]}" if hosts == [DEFAULT_HOST] and shown else \
                    ", ".join(f"{h}:{p}" for h, p in done.result())
                out.print(f"sudoku-csp serves on {where}: the page at http://{where}/, the "
                          f"f-puzzles userscript's Connect at ws://{where}; Ctrl-C stops it",
                          markup=False, highlight=False)

            ready.add_done_callback(announce)
            try:
                await run_service(hosts if len(hosts) > 1 else hosts[0], port,
                                  workers=workers or max(1, os.cpu_count() or 1),
                                  time_limit=time_limit,
                                  origins=(*ORIGINS, *(allow_origin or ())), ready=ready)
            except OSError as exc:
                raise InputError(f"cannot listen on port {port} ({exc.strerror or exc}): "
                                 "another program (SudokuSolver?) may hold it; --port "
                                 "chooses another") from None

        asyncio.run(main())
        return Exit.OK

    guarded(action)
