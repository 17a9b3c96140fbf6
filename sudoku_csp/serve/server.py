"""The service: SudokuSolver's websocket protocol and the page, on one port (aiohttp).

``ws://localhost:4545/`` answers the f-puzzles userscript (:mod:`sudoku_csp.serve.protocol`);
``http://localhost:4545/`` is the page (``static/``, package data: plain HTML, CSS and
JavaScript), which speaks the same protocol, with this tool's own commands besides.

Each connection has at most one request in flight, answered in a worker process
(:mod:`sudoku_csp.serve.workers`): a new request from the connection cancels it, as does a
``cancel`` or the connection closing, and the cancelled request's worker is killed at once.
Every request gets exactly one final reply (its answer, ``invalid`` or ``canceled``), after
any progress replies; a message that cannot be read gets ``invalid`` and leaves the request
in flight alone. Connections are served side by side, as many at once as the pool has
workers (the rest wait their turn).

Only pages of f-puzzles and of this service, or clients that send no ``Origin`` (not a
browser), may connect: a page elsewhere cannot make the machine count for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Sequence
from importlib import resources
from typing import Any

from sudoku_csp.extras import require_extra
from sudoku_csp.serve import DEFAULT_HOST, DEFAULT_PORT
from sudoku_csp.serve.protocol import ProtocolError, Request, read_request, reply
from sudoku_csp.serve.workers import Pool, WorkerDied

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "ORIGINS", "Service", "make_app", "run_service"]

ORIGINS = (r"https?://([\w-]+\.)*f-puzzles\.com", r"https?://localhost(:\d+)?",
           r"https?://127\.0\.0\.1(:\d+)?", r"https?://\[::1\](:\d+)?")
"""The web pages allowed to connect (patterns of the ``Origin`` header): the f-puzzles
editor, where the userscript runs, and pages served from this machine."""

MAX_FRAME = 16 * 1024 * 1024
"""The largest websocket message aiohttp accepts at all; past
:data:`~sudoku_csp.serve.protocol.MAX_MESSAGE` characters a message gets ``invalid``."""

log = logging.getLogger("sudoku_csp.serve")


def _web() -> Any:
    return require_extra("aiohttp.web", "serve", "sudoku-csp serve")


class Connection:
    """One websocket: its replies go out in order through one writer, and at most one
    request is in flight."""

    def __init__(self, ws: Any, pool: Pool) -> None:
        self.ws = ws
        self.pool = pool
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.current: tuple[asyncio.Task[None], int | None] | None = None
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.put_nowait(message)

    async def _write(self) -> None:
        while True:
            message = await self.outbox.get()
            if message is None:
                return
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.ws.send_str(json.dumps(message, separators=(",", ":")))

    async def receive(self, text: str) -> None:
        """Handle one message."""
        try:
            request = read_request(text)
        except ProtocolError as exc:
            self.send(reply(exc.nonce, "invalid", message=str(exc)))
            return
        await self.cancel()
        if request.command == "cancel":
            self.send(reply(request.nonce, "canceled"))
            return
        task = asyncio.get_running_loop().create_task(self._answer(request))
        self.current = (task, request.nonce)

    async def _answer(self, request: Request) -> None:
        nonce = request.nonce
        try:
            fields = await self.pool.run(
                request, lambda event: self.send({"nonce": nonce, **event}))
        except WorkerDied as exc:
            fields = {"type": "invalid", "message": str(exc)}
        except Exception as exc:  # noqa: BLE001 - a bug: said, and the service goes on
            log.exception("request %s failed", nonce)
            fields = {"type": "invalid", "message": f"internal error: {exc}"}
        # No await between the answer and its reply: a cancel that comes after the reply
        # finds the task done, one that comes before it replies ``canceled`` instead.
        self.send({"nonce": nonce, **fields})

    async def cancel(self) -> None:
        """Cancel the request in flight, if any: its worker killed, its reply
        ``canceled`` (sent here: a task cancelled before it ran never runs a line)."""
        current, self.current = self.current, None
        if current is None:
            return
        task, nonce = current
        if not task.done():
            task.cancel()
            await asyncio.wait([task])
            self.send(reply(nonce, "canceled"))

    async def close(self) -> None:
        await self.cancel()
        self.outbox.put_nowait(None)  # the writer ends after what is queued
        await self.writer


class Service:
    """The aiohttp application's state: the worker pool and the origins allowed."""

    def __init__(self, pool: Pool, origins: Sequence[str] = ORIGINS) -> None:
        self.pool = pool
        self.origins = [re.compile(pattern, re.IGNORECASE) for pattern in origins]
        self.connections: set[Connection] = set()

    def allowed(self, origin: str | None) -> bool:
        return origin is None or any(p.fullmatch(origin) for p in self.origins)

    async def root(self, request: Any) -> Any:
        """``/``: the websocket (an upgrade request), else the page."""
        web = _web()
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME, autoping=True)
        if not ws.can_prepare(request).ok:
            return web.FileResponse(_static() / "index.html")
        origin = request.headers.get("Origin")
        if not self.allowed(origin):
            return web.Response(status=403, text=f"origin {origin} may not connect")
        await ws.prepare(request)
        connection = Connection(ws, self.pool)
        self.connections.add(connection)
        try:
            async for message in ws:
                if message.type == web.WSMsgType.TEXT:
                    await connection.receive(message.data)
                elif message.type == web.WSMsgType.BINARY:
                    await connection.receive(message.data.decode("utf-8", "replace"))
        finally:
            self.connections.discard(connection)
            await connection.close()
        return ws


def _static() -> Any:
    """The page's files (package data)."""
    return resources.files("sudoku_csp.serve") / "static"


def make_app(service: Service) -> Any:
    """The aiohttp application of ``service``: ``/`` (websocket or page) and ``/static/``."""
    web = _web()
    app = web.Application()
    app.router.add_get("/", service.root)
    app.router.add_static("/static/", str(_static()))

    async def closing(app: Any) -> None:
        for connection in list(service.connections):
            with contextlib.suppress(Exception):
                await connection.ws.close()

    app.on_shutdown.append(closing)
    return app


async def run_service(host: str | Sequence[str] = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
                      workers: int = 2, time_limit: float | None = None,
                      origins: Sequence[str] = ORIGINS,
                      ready: asyncio.Future[list[tuple[str, int]]] | None = None,
                      stop: asyncio.Event | None = None) -> None:
    """Serve until ``stop`` is set (or the task is cancelled): the port opened first (a
    port in use fails at once), then the workers started; ``ready`` gets the addresses
    listened on (host, port: port 0 picks a free one) once both are."""
    web = _web()
    pool = Pool(workers, time_limit)
    service = Service(pool, origins)
    runner = web.AppRunner(make_app(service), handle_signals=False, access_log=None)
    try:
        await runner.setup()
        site = web.TCPSite(runner, host=host, port=port, reuse_address=True)
        await site.start()
        await pool.start()
        if ready is not None:
            ready.set_result([tuple(a[:2]) for a in runner.addresses])
        await (stop.wait() if stop is not None else asyncio.Event().wait())
    finally:
        await runner.cleanup()
        await pool.close()
