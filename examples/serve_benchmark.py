"""Time ``sudoku-csp serve`` as the f-puzzles userscript uses it, beside the command line.

    python examples/serve_benchmark.py PUZZLE_FILE [--rounds 3] [--cancels 5]

PUZZLE_FILE holds one puzzle per line in any form the tool reads, or corpus lines such as
``fpuzzles_dev.jsonl`` (objects with ``title`` and ``url`` or ``fpuzzles``). The script
starts the service as a setter would (``sudoku-csp serve``, here on a free port of
127.0.0.1, two workers), connects as the userscript does, and per puzzle sends the
userscript's ``truecandidates`` message (the editor's export: lz-string base64 of the
f-puzzles JSON; no solution cap set, so cap 1) and times request to reply; the baseline,
in the same run, asks the command line the same question, ``sudoku-csp candidates PUZZLE
--cap 1 --json`` (a new process each time, as a setter at a terminal would). Both answers
are compared: the same true candidates, or the script says which puzzle differs.

Then ``--cancels`` times: a count on the empty 9x9 grid (billions of solutions), and once
its first progress reply has come, a ``cancel``: the time from the cancel to its
``canceled`` reply, whose worker process is gone by then.

Prints per puzzle both times, then the medians and their ratio. The machine is shared:
figures are noisy; the ratio is taken within the run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402  (the serve extra)
import lzstring  # noqa: E402
from fpuzzles_benchmark import entries  # noqa: E402  (the corpus reader, same folder)

from sudoku_csp import parse  # noqa: E402
from sudoku_csp.errors import InputError, ReaderNote  # noqa: E402
from sudoku_csp.io.fpuzzles import fpuzzles_object  # noqa: E402

EMPTY9 = {"size": 9, "grid": [[{} for _ in range(9)] for _ in range(9)]}


def editor_payload(text: str) -> tuple[str, str]:
    """(the editor's export of the puzzle, a link the command line reads as it): an
    f-puzzles link's own payload, else the puzzle as read, written as f-puzzles JSON."""
    found = re.search(r"[?&]load=(\S+)", text)
    if found:
        return found[1], text
    document = json.loads(text) if text.lstrip().startswith("{") else fpuzzles_object(
        parse(text))
    data = lzstring.LZString().compressToBase64(json.dumps(document))
    return data, "https://f-puzzles.com/?load=" + data


def start_service() -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen([sys.executable, "-m", "sudoku_csp", "serve", "--host",
                             "127.0.0.1", "--port", "0", "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env={**os.environ, "COLUMNS": "200"})
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"127\.0\.0\.1:(\d+)", line)
    if not found:
        proc.kill()
        raise SystemExit(f"the service did not start: {line!r}")
    return proc, int(found[1])


def cli_candidates(link: str) -> tuple[float, list[int] | str | None]:
    """Seconds for ``sudoku-csp candidates LINK --cap 1 --json``, and its answer as the
    protocol lays it out ("none" for no solution, None when it gave no answer)."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "sudoku_csp", "candidates", link, "--cap",
                           "1", "--json"], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    try:
        record = json.loads(proc.stdout)
    except ValueError:
        return seconds, None
    if record["status"] == "none":
        return seconds, "none"
    size = int(len(record["candidates"]) ** 0.5)
    flat = [int(d + 1 in record["candidates"][f"R{c // size + 1}C{c % size + 1}"])
            for c in range(size * size) for d in range(size)]
    return seconds, flat


async def measure(port: int, puzzles: list[tuple[str, str, str]], rounds: int,
                  cancels: int) -> int:
    served: list[float] = []
    asked: list[float] = []
    differ = 0
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"http://127.0.0.1:{port}/", max_msg_size=0)
        nonce = 0

        async def final(wanted: int) -> dict:
            while True:
                reply = json.loads((await ws.receive(timeout=600)).data)
                if reply["nonce"] == wanted and not reply.get("inProgress"):
                    return reply

        print(f"{'#':>3} {'puzzle':40} {'serve ms':>9} {'cli ms':>9} {'ratio':>6}")
        for index, (name, data, link) in enumerate(puzzles, 1):
            best = float("inf")
            reply: dict = {}
            for _ in range(rounds):
                nonce += 1
                start = time.perf_counter()
                await ws.send_str(json.dumps({"nonce": nonce, "command": "truecandidates",
                                              "dataType": "fpuzzles", "data": data}))
                reply = await final(nonce)
                best = min(best, time.perf_counter() - start)
            cli, flat = min(cli_candidates(link) for _ in range(rounds))
            served.append(best)
            asked.append(cli)
            # no solution: invalid, naming the conflict, as the command line's record does
            same = (reply.get("solutionsPerCandidate") == flat if flat != "none"
                    else reply.get("status") == "none")
            differ += not same
            print(f"{index:>3} {name[:40]:40} {best * 1000:>9.1f} {cli * 1000:>9.1f} "
                  f"{cli / best:>5.1f}x" + ("" if same else
                                            f"  DIFFERENT ({reply.get('type')})"))

        waits = []
        for _ in range(cancels):
            nonce += 1
            await ws.send_str(json.dumps({"nonce": nonce, "command": "count",
                                          "dataType": "fpuzzles",
                                          "data": editor_payload(json.dumps(EMPTY9))[0]}))
            while True:
                reply = json.loads((await ws.receive(timeout=600)).data)
                if reply["nonce"] == nonce and reply.get("inProgress"):
                    break
            nonce += 1
            start = time.perf_counter()
            await ws.send_str(json.dumps({"nonce": nonce, "command": "cancel"}))
            reply = await final(nonce)
            waits.append(time.perf_counter() - start)
            assert reply["type"] == "canceled"
        await ws.close()
    print()
    if served:
        s, c = statistics.median(served), statistics.median(asked)
        print(f"true candidates, median over {len(served)} puzzles: {s * 1000:.1f} ms over "
              f"the websocket, {c * 1000:.1f} ms from the command line ({c / s:.1f}x)")
    if waits:
        print(f"cancel of a running count, median of {len(waits)}: "
              f"{statistics.median(waits) * 1000:.1f} ms (max {max(waits) * 1000:.1f} ms) to "
              "the 'canceled' reply, its worker gone")
    if differ:
        print(f"{differ} puzzle(s) answered differently")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--rounds", type=int, default=1, help="best of this many, each side")
    parser.add_argument("--cancels", type=int, default=3)
    args = parser.parse_args()
    puzzles = []
    for name, text, _ in entries(args.file):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ReaderNote)
                data, link = editor_payload(text)
        except (InputError, ValueError) as exc:
            print(f"    {name}: skipped ({exc})")
            continue
        puzzles.append((name, data, link))
    proc, port = start_service()
    try:
        return asyncio.run(measure(port, puzzles, args.rounds, args.cancels))
    finally:
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    sys.exit(main())
