"""``sudoku-csp serve`` over a real websocket: a client playing the f-puzzles userscript's
part sends exactly its messages and gets SudokuSolver's answers; cancels kill the worker
doing the work; bad messages get ``invalid`` and the service keeps serving.

Every wait is for an event (a reply, a process gone), with a generous bound; nothing here
depends on how fast the machine is."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from cases import published, slow_if
from serving import (
    Client,
    gone,
    grid_document,
    message,
    payload,
    running_service,
    session,
    wait_until,
)
from test_lzdecode import bomb

EMPTY9 = grid_document(9)  # billions of solutions: a count that never ends by itself
UNIQUE4 = grid_document(4, {(0, 0): 3, (0, 2): 1, (1, 2): 4, (2, 0): 2})
CLASH4 = grid_document(4, {(0, 0): 1, (0, 3): 1})


@pytest.fixture(scope="module")
def service():
    with running_service("--workers", "2") as (port, proc):
        yield port, proc


@pytest.fixture
def run(service):
    return session(service[0])


def _solution(entry: dict) -> list[int]:
    """The published solution, or (for the three puzzles published without one) the
    library's, found in this process."""
    if entry["solution"]:
        return [int(ch) for ch in entry["solution"]]
    from sudoku_csp import parse, solve

    digits = solve(parse(json.dumps(entry["fpuzzles"])), "sat").digits
    assert digits is not None
    return list(digits)


def _solution_checks(entry: dict, replies: dict[str, dict]) -> None:
    size = entry["fpuzzles"]["size"]
    solution = _solution(entry)
    tc = replies["truecandidates"]
    assert tc["type"] == "truecandidates"
    assert tc["solutionsPerCandidate"] == [int(solution[cell] == d + 1)
                                           for cell in range(size * size) for d in range(size)]
    assert replies["solve"] == {**replies["solve"], "type": "solved", "solution": solution}
    assert (replies["check"]["type"], replies["check"]["count"]) == ("count", 1)
    assert replies["check"]["inProgress"] is False
    assert (replies["count"]["count"], replies["count"]["inProgress"]) == (1, False)
    for command in ("solvepath", "step"):
        reply = replies[command]
        assert reply["type"] == "logical" and reply["isValid"] is True
        assert len(reply["cells"]) == size * size and reply["message"].endswith("\n")
        for shown, digit in zip(reply["cells"], solution, strict=True):
            # every digit placed is the solution's, every cell keeps the solution's digit
            assert shown["value"] in (0, digit) and (shown["value"] or digit in
                                                     shown["candidates"])
    assert replies["step"]["message"] == "Initial candidates.\n"
    used = {step["technique"] for step in replies["solvepath"]["steps"]}
    assert not used & {"aic", "x_chain", "xy_chain", "nishio", "forcing_chain",
                       "cell_region_forcing", "dynamic_forcing_chain"}


PROTOCOL = ("truecandidates", "solve", "check", "count", "solvepath", "step")
CHEAP = ('"Dotween"',)  # the inner loop's; the others run in the full suite
SETTINGS = {"disabledlogic": ["aic", "contradictions"], "truecandidatesoptions": []}
"""What the userscript adds to every puzzle it sends when the setter has unticked AIC and
Contradictions among its Logical Solve Settings (the chains: seconds on some of these)."""


@pytest.mark.parametrize("entry", slow_if(published(), lambda e: not e["title"].startswith(
    CHEAP)), ids=lambda e: e["title"][:30])
def test_every_command_of_the_protocol_on_published_puzzles(run, entry):
    document = {**entry["fpuzzles"], **SETTINGS}

    async def body(client: Client) -> dict[str, dict]:
        replies = {}
        for nonce, command in enumerate(PROTOCOL, 1):
            replies[command] = await client.ask(message(nonce, command, document))
            assert replies[command]["nonce"] == nonce
        return replies

    _solution_checks(entry, run(body))


@pytest.mark.slow
def test_the_whole_logic_by_default(run):
    entry = published("Dotween")[0]

    async def body(client: Client) -> dict:
        return await client.ask(message(1, "solvepath", entry["fpuzzles"]))

    reply = run(body)
    assert reply["isValid"] and reply["verdict"] == "unique"
    assert reply["message"].startswith(reply["steps"][0]["text"])


def test_no_solution_is_invalid_with_the_conflict_and_count_zero(run):
    async def body(client: Client) -> list[dict]:
        return [await client.ask(message(n, c, CLASH4))
                for n, c in enumerate(["truecandidates", "solve", "check", "count",
                                       "solvepath"], 1)]

    tc, solve, check, count, path = run(body)
    for reply in (tc, solve):
        assert reply["type"] == "invalid"
        assert reply["message"] == ("no solution: these 2 parts conflict: given R1C1=1, "
                                    "given R1C4=1")
    assert (check["count"], count["count"]) == (0, 0)
    assert path["type"] == "logical" and path["isValid"] is False


def test_the_solution_cap_colours_true_candidates(run):
    document = {**grid_document(4, {(0, 0): 1, (1, 2): 1, (2, 1): 1, (3, 3): 1}),
                "truecandidatesoptions": ["truecandidatesnumsolutions=8"]}

    async def body(client: Client) -> dict:
        return await client.ask(message(1, "truecandidates", document))

    reply = run(body)
    per = reply["solutionsPerCandidate"]
    assert len(per) == 64 and max(per) == 8 and 1 <= min(k for k in per if k) < 8


def test_cancel_in_the_middle_of_a_long_count_kills_its_worker(run):
    async def body(client: Client) -> tuple[dict, list[dict]]:
        await client.send(message(1, "count", EMPTY9))
        progress = await client.next()  # the count is running: a worker is busy with it
        assert progress == {**progress, "nonce": 1, "type": "count", "inProgress": True}
        await client.send(message(2, "cancel"))
        replies = [await client.final(1), await client.final(2)]
        return progress, replies

    progress, replies = run(body)
    assert [(r["nonce"], r["type"]) for r in replies] == [(1, "canceled"), (2, "canceled")]
    assert gone(progress["worker"])  # killed and reaped before the cancel was answered


def test_a_new_request_cancels_the_one_in_flight(run):
    async def body(client: Client) -> list[dict]:
        await client.send(message(1, "count", EMPTY9))
        progress = await client.next()
        await client.send(message(2, "truecandidates", UNIQUE4))
        return [progress, await client.final(1), await client.final(2)]

    progress, first, second = run(body)
    assert first["type"] == "canceled" and gone(progress["worker"])
    assert second["type"] == "truecandidates"


def test_connections_are_served_side_by_side(run):
    async def body(a: Client, b: Client) -> tuple[dict, dict, dict]:
        await a.send(message(1, "count", EMPTY9))
        progress = await a.next()
        answer = await b.ask(message(1, "truecandidates", UNIQUE4))  # while a counts
        more = await a.next()  # a's count goes on meanwhile, cancelled by nobody
        await a.send(message(2, "cancel"))
        await a.final(2)
        return progress, answer, more

    progress, answer, more = run(body, connections=2)
    assert answer["type"] == "truecandidates" and answer["worker"] != progress["worker"]
    assert (more["nonce"], more["type"], more["inProgress"]) == (1, "count", True)
    assert more["count"] >= progress["count"]


def test_closing_the_connection_stops_its_work(run, service):
    async def body(client: Client) -> dict:
        await client.send(message(1, "count", EMPTY9))
        return await client.next()

    progress = run(body)  # the connection closes here, the count still running

    async def after(client: Client) -> dict:
        return await client.ask(message(1, "truecandidates", UNIQUE4))

    assert run(after)["type"] == "truecandidates"
    wait_until(lambda: gone(progress["worker"]), "the closed connection's worker stopped")


BAD = [
    ("not json", None, "not a JSON message"),
    (json.dumps({"nonce": 3, "command": "fly"}), 3, "unknown command 'fly'"),
    (json.dumps({"nonce": 4, "command": "solve", "dataType": "fpuzzles", "data": "@@@"}), 4,
     "not lz-string base64"),
    (json.dumps({"nonce": 5, "command": "solve", "dataType": "fpuzzles",
                 "data": bomb(20_000)}), 5, "decodes to more than 4,000,000 characters"),
    (json.dumps({"nonce": 6, "command": "truecandidates", "dataType": "fpuzzles",
                 "data": payload(grid_document(4, antigravity=True))}), 6,
     "antigravity: not a rule this tool knows"),
    (json.dumps({"nonce": 7, "command": "count", "dataType": "fpuzzles",
                 "data": payload({"size": 4, "grid": []})}), 7, "expected 4 rows"),
]


def test_bad_messages_get_invalid_and_the_service_keeps_serving(run):
    async def body(client: Client) -> list[dict]:
        replies = []
        for text, _, _ in BAD:
            await client.send(text)
            reply = await client.next()
            replies.append(reply)
        replies.append(await client.ask(message(8, "truecandidates", UNIQUE4)))
        return replies

    replies = run(body)
    for (_, nonce, words), reply in zip(BAD, replies, strict=False):
        assert (reply["nonce"], reply["type"]) == (nonce, "invalid")
        assert words in reply["message"] and "\n" not in reply["message"]
    assert replies[-1]["type"] == "truecandidates"


def test_a_flood_of_messages_gets_one_final_reply_each(run, service):
    document = published()[0]["fpuzzles"]
    sent: list[int] = []
    killed: list[int] = []

    async def body(client: Client) -> dict[int, list[dict]]:
        finals: dict[int, list[dict]] = {}
        broken = 0

        def keep(reply: dict) -> None:
            nonlocal broken
            if reply["nonce"] is None:
                broken += 1
            elif not (reply["type"] == "count" and reply["inProgress"]):
                finals.setdefault(reply["nonce"], []).append(reply)

        for nonce in range(1, 61):
            kind = nonce % 6
            if kind == 5:
                await client.send("{broken")  # no nonce: answered with null
                continue
            command = ("truecandidates", "check", "count", "cancel", "solve")[kind - 1 if kind
                                                                               else 4]
            await client.send(message(nonce, command, EMPTY9 if command == "count"
                                      else document))
            sent.append(nonce)
            if nonce % 12 == 3:  # now and then, a count seen running before the next one
                while True:
                    reply = await client.next()
                    if reply["nonce"] == nonce and reply["type"] == "count":
                        killed.append(reply["worker"])
                        break
                    keep(reply)
        while len(finals) < len(sent) or broken < 10:
            keep(await client.next())
        return finals

    finals = run(body)
    assert sorted(finals) == sent and all(len(r) == 1 for r in finals.values())
    assert finals[sent[-1]][0]["type"] == "solved"  # the one left in flight: answered
    for reply, in finals.values():
        assert reply["type"] in ("canceled", "truecandidates", "count", "solved"), reply
    assert len(killed) == 5 and all(gone(pid) for pid in killed)

    async def after(client: Client) -> dict:
        return await client.ask(message(1, "truecandidates", UNIQUE4))

    assert run(after)["type"] == "truecandidates"


def test_estimate_streams_until_cancelled(run):
    async def body(client: Client) -> tuple[list[dict], dict]:
        await client.send(message(1, "estimate", EMPTY9))
        estimates = [await client.next() for _ in range(2)]
        await client.send(message(2, "cancel"))
        return estimates, await client.final(2)

    estimates, cancelled = run(body)
    for reply in estimates:
        assert reply["type"] == "estimate" and reply["nonce"] == 1
        assert {"estimate", "stderr", "iterations", "ci95_lower", "ci95_upper",
                "relErrPercent"} <= set(reply)
    assert estimates[1]["iterations"] > estimates[0]["iterations"] >= 1
    assert cancelled["type"] == "canceled" and gone(estimates[-1]["worker"])


def test_pages_elsewhere_may_not_connect(service):
    async def connect(origin: str) -> int:
        async with aiohttp.ClientSession() as http:
            try:
                async with http.ws_connect(f"http://127.0.0.1:{service[0]}/",
                                           headers={"Origin": origin}):
                    return 101
            except aiohttp.WSServerHandshakeError as exc:
                return exc.status

    assert asyncio.run(connect("https://evil.example")) == 403
    assert asyncio.run(connect("https://www.f-puzzles.com")) == 101
    assert asyncio.run(connect(f"http://localhost:{service[0]}")) == 101


def test_the_page_and_its_files_are_served(service):
    import urllib.request

    base = f"http://127.0.0.1:{service[0]}"
    with urllib.request.urlopen(base + "/") as page:
        html = page.read().decode()
    assert 'id="puzzle-input"' in html and "/static/page.js" in html
    for name in ("page.js", "page.css"):
        with urllib.request.urlopen(f"{base}/static/{name}") as served:
            assert served.status == 200 and served.read()


@pytest.mark.slow  # a service of its own
def test_the_service_stops_its_workers_when_it_ends():
    import signal

    with running_service("--workers", "1") as (port, proc):
        async def body(client: Client) -> dict:
            await client.send(message(1, "count", EMPTY9))
            progress = await client.next()
            proc.send_signal(signal.SIGTERM)  # while the connection holds a running count
            while (await client.ws.receive(timeout=120)).type not in (
                    aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                    aiohttp.WSMsgType.CLOSING):
                pass
            return progress

        worker = session(port)(body)["worker"]
        proc.wait(timeout=120)
    assert proc.returncode == 143  # "terminated", as every command ends on SIGTERM
    assert gone(worker)


@pytest.mark.slow  # a command line of its own
def test_a_port_in_use_is_an_input_error():
    import socket
    import subprocess
    import sys

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run([sys.executable, "-m", "sudoku_csp", "serve", "--host",
                               "127.0.0.1", "--port", str(port)],
                              capture_output=True, text=True, timeout=120)
    assert proc.returncode == 6, proc.stderr
    assert f"cannot listen on port {port}" in proc.stderr and "--port" in proc.stderr
    assert "Traceback" not in proc.stderr
