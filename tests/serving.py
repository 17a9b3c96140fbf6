"""A running ``sudoku-csp serve`` for the tests, and a client that plays the userscript.

The service runs as the command line starts it, in a process of its own, on a free port of
127.0.0.1 (``--port 0``): the tests read the port from its first line. Waits are bounded by
events (a line, a reply) with generous deadlines, never by how fast the machine is.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import aiohttp
import lzstring

WAIT = 120.0
"""Seconds any one event may take before a test gives up: generous on a busy machine."""


@contextmanager
def running_service(*args: str) -> Iterator[tuple[int, subprocess.Popen[str]]]:
    """``sudoku-csp serve --host 127.0.0.1 --port 0 ARGS`` running: (port, process)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_csp", "serve", "--host", "127.0.0.1", "--port", "0",
         *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "COLUMNS": "200"})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # the announcement, once it listens
        found = re.search(r"127\.0\.0\.1:(\d+)", line)
        assert found, (line, proc.stderr.read() if proc.poll() is not None else "")
        yield int(found[1]), proc
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def payload(document: dict[str, Any]) -> str:
    """The editor's export of an f-puzzles document: lz-string base64 of its JSON."""
    return lzstring.LZString().compressToBase64(json.dumps(document))


def grid_document(size: int, givens: dict[tuple[int, int], int] | None = None,
                  **keys: Any) -> dict[str, Any]:
    """An f-puzzles document of a ``size`` grid with ``givens`` ((row, col) 0-based: digit)."""
    rows: list[list[dict[str, Any]]] = [[{} for _ in range(size)] for _ in range(size)]
    for (r, c), digit in (givens or {}).items():
        rows[r][c] = {"value": digit, "given": True}
    return {"size": size, "grid": rows, **keys}


def message(nonce: int, command: str, document: dict[str, Any] | None = None,
            **extra: Any) -> dict[str, Any]:
    """A request exactly as the userscript sends it (``cancel``: nonce and command only)."""
    if command == "cancel":
        return {"nonce": nonce, "command": "cancel"}
    assert document is not None
    return {"nonce": nonce, "command": command, "dataType": "fpuzzles",
            "data": payload(document), **extra}


class Client:
    """One websocket, as the userscript holds it: send, and read replies as they come."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws

    async def send(self, value: dict[str, Any] | str) -> None:
        await self.ws.send_str(value if isinstance(value, str) else json.dumps(value))

    async def next(self) -> dict[str, Any]:
        received = await self.ws.receive(timeout=WAIT)
        assert received.type == aiohttp.WSMsgType.TEXT, received
        return json.loads(received.data)

    async def final(self, nonce: int) -> dict[str, Any]:
        """The final reply to ``nonce`` (progress replies and older nonces' skipped)."""
        while True:
            reply = await self.next()
            if reply["nonce"] == nonce and not (reply["type"] == "count" and reply["inProgress"]):
                return reply

    async def ask(self, value: dict[str, Any]) -> dict[str, Any]:
        await self.send(value)
        return await self.final(value["nonce"])


def session(port: int):
    """Run ``body(client)`` (a coroutine function) on a new connection to the service."""

    def run(body, *, connections: int = 1, origin: str | None = None):
        async def main():
            headers = {"Origin": origin} if origin else {}
            async with aiohttp.ClientSession() as http:
                sockets = [await http.ws_connect(f"http://127.0.0.1:{port}/", headers=headers,
                                                 max_msg_size=0)
                           for _ in range(connections)]
                try:
                    clients = [Client(ws) for ws in sockets]
                    return await body(*clients)
                finally:
                    for ws in sockets:
                        await ws.close()

        return asyncio.run(main())

    return run


def gone(pid: int) -> bool:
    """Whether no process has this pid any longer (the worker was killed and reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def wait_until(condition, what: str) -> None:
    """Poll ``condition`` until it holds (an event elsewhere), within :data:`WAIT`."""
    end = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < end, f"never happened: {what}"
        time.sleep(0.02)
