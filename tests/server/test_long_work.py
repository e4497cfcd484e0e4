"""Long work at the server (docs/protocol/analysis.md §22.6): who starts it, its quotas, what is done once, and
that a table's bots never wait for it.

Real ``ulti serve`` processes (tests/server/conftest.py). What the server computed is read from its
``ulti_long_work_total`` counter (``GET /metrics``): the pieces of long work it started, by kind.
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import guest
from ulti.analysis.review import count_decisions
from ulti.client import GameClient
from ulti.server.analysis import CHUNK

RANDOM_BOTS = [{"kind": "bot", "level": "random"}] * 3
STRONG_BOTS = [{"kind": "bot", "level": "strong"}] * 3


def http_from(address: str) -> httpx2.AsyncClient:
    """An HTTP client whose requests come from ``address`` (all of 127/8 is this machine)."""
    return httpx2.AsyncClient(transport=httpx2.AsyncHTTPTransport(local_address=address), timeout=60)


async def get(srv: ServerProcess, path: str, client: GameClient | None = None,
              address: str = "127.0.0.1") -> tuple[int, Any, httpx2.Headers]:
    """GET ``path`` as ``client`` (None: no session) from ``address``: status, JSON answer, headers."""
    headers = {"authorization": f"Bearer {client.token}"} if client is not None else {}
    async with http_from(address) as http:
        response = await http.get(srv.base_url + path, headers=headers)
    return response.status_code, response.json(), response.headers


async def long_work(srv: ServerProcess) -> dict[str, float]:
    """The server's ``ulti_long_work_total`` by kind, and ``waiting``: the pieces waiting for a worker."""
    async with httpx2.AsyncClient(timeout=30) as http:
        text = (await http.get(srv.base_url + "/metrics")).text
    counts = {m[1]: float(m[2]) for m in re.finditer(r'^ulti_long_work_total\{kind="(\w+)"\} (\S+)$', text, re.M)}
    waiting = re.search(r"^ulti_long_work_waiting (\S+)$", text, re.M)
    counts["waiting"] = float(waiting[1]) if waiting else -1.0
    return counts


async def finished_match(srv: ServerProcess, host: GameClient, deals: int = 6) -> str:
    """A match of three random bots created by ``host``, played to its end (its analyses are public)."""
    config = {"deals": deals, "seats": RANDOM_BOTS, "move_seconds": 0}
    table_id: str = (await host.http("POST", "/api/tables", config))["table_id"]
    await host.http("POST", f"/api/tables/{table_id}/start", {})
    for _ in range(600):
        if (await host.http("GET", f"/api/tables/{table_id}"))["table"]["status"] == "finished":
            return table_id
        await asyncio.sleep(0.1)
    raise AssertionError("the match did not finish")


async def played_deal(srv: ServerProcess, table_id: str) -> tuple[int, int, dict[str, Any]]:
    """A deal of the table that was played out (not given up): its index, the first action of its play, its record."""
    for index in range(12):
        status, record, _ = await get(srv, f"/api/tables/{table_id}/deals/{index}/record")
        assert status == 200, record
        plays = [i for i, a in enumerate(record["actions"]) if a.get("action") == "play"]
        if len(plays) >= 6:
            return index, plays[0], record
    raise AssertionError("no deal was played out")


async def until_done(srv: ServerProcess, path: str, client: GameClient | None) -> dict[str, Any]:
    """Poll an analysis route until its analysis is stored."""
    for _ in range(1200):
        status, body, _ = await get(srv, path, client)
        assert status == 200, body
        if body["status"] == "done":
            answer: dict[str, Any] = body
            return answer
        await asyncio.sleep(0.1)
    raise AssertionError("the analysis was not done in time")


def refused(status: int, body: Any, headers: httpx2.Headers, code: str) -> int:
    """Check a refusal with ``code``; a quota's carries ``retry_after`` in the body and the header. Its wait."""
    assert body["error"]["code"] == code, body
    if code != "work_quota":
        return 0
    assert status == 429, body
    wait = body["error"]["args"]["retry_after"]
    assert isinstance(wait, int) and wait >= 1 and headers["retry-after"] == str(wait)
    return wait


@pytest.mark.asyncio
async def test_a_visitor_without_a_session_starts_no_work(server: ServerProcess) -> None:
    host = await guest(server.base_url, "Host")
    table_id = await finished_match(server, host)
    index, start, _ = await played_deal(server, table_id)
    paths = [f"/api/tables/{table_id}/deals/{index}/analysis", f"/api/tables/{table_id}/analysis",
             f"/api/tables/{table_id}/deals/{index}/whatif?at={start}"]
    for _ in range(3):
        for path in paths:
            status, body, _ = await get(server, path)
            assert status == 401 and body["error"]["code"] == "login_to_analyse", (path, body)
    before = await long_work(server)
    assert (before["analysis"], before["whatif"]) == (0, 0)

    # a session may: the what-if is computed once, and then served to the visitor too
    status, line, _ = await get(server, paths[2], host)
    assert status == 200
    status, again, _ = await get(server, paths[2])
    assert status == 200 and again == line
    assert (await long_work(server))["whatif"] == 1
    await host.close()


@pytest.mark.asyncio
async def test_a_deal_is_analysed_once_however_many_ask(server: ServerProcess) -> None:
    host = await guest(server.base_url, "Host")
    table_id = await finished_match(server, host)
    index, start, record = await played_deal(server, table_id)
    askers = [host, *[await guest(server.base_url, f"Asker {i}") for i in range(3)]]
    path = f"/api/tables/{table_id}/deals/{index}/analysis"
    answers = await asyncio.gather(*(get(server, path, askers[i % 4]) for i in range(12)))
    assert all(status == 200 for status, _, _ in answers)
    done = await until_done(server, path, askers[1])
    for client in askers:  # asked again by everybody, and by a visitor: served from the store
        assert (await until_done(server, path, client)) == done
    assert (await until_done(server, path, None)) == done
    # its decisions priced chunk by chunk, then assembled: once
    assert (await long_work(server))["analysis"] == math.ceil(count_decisions(record) / CHUNK) + 1

    line = f"/api/tables/{table_id}/deals/{index}/whatif?at={start}"
    answers = await asyncio.gather(*(get(server, line, askers[i % 2]) for i in range(6)))
    assert all(status == 200 for status, _, _ in answers)
    assert len({str(body) for _, body, _ in answers}) == 1
    assert (await long_work(server))["whatif"] == 1
    for client in askers:
        await client.close()


@pytest.mark.asyncio
async def test_quotas_per_account_and_address_refuse_with_retry_after(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    quotas = ["analysis_pending_per_player=1", "analysis_pending_per_address=2",
              "whatif_per_player=2/hour", "whatif_per_address=3/hour"]
    srv = server_factory(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}",
                         args=("--fast", *[f"--work-quota={q}" for q in quotas]))
    srv.start(tmp_path / "server.log")
    host = await guest(srv.base_url, "Host")
    table_id = await finished_match(srv, host)

    def deal(k: int) -> str:
        return f"/api/tables/{table_id}/deals/{k}/analysis"

    anna, bela, cili = host, await guest(srv.base_url, "Bela"), await guest(srv.base_url, "Cili")
    dora = GameClient(srv.base_url)
    await dora.login("Dora")

    # one analysis pending per account: Anna's second waits until her first is done
    assert (await get(srv, deal(0), anna))[0] == 200
    status, body, headers = await get(srv, deal(1), anna)
    assert "pending per account" in body["error"]["message"]
    refused(status, body, headers, "work_quota")
    status, body, _ = await get(srv, deal(1))  # nothing was queued for it
    assert status == 401 and body["error"]["code"] == "login_to_analyse"
    # two per address: Bela (same address) may queue one, Cili (same address) none, Dora (elsewhere) may
    assert (await get(srv, deal(1), bela))[0] == 200
    status, body, headers = await get(srv, deal(2), cili)
    assert "pending per address" in body["error"]["message"]
    refused(status, body, headers, "work_quota")
    assert (await get(srv, deal(2)))[0] == 401
    assert (await get(srv, deal(2), dora, "127.0.0.2"))[0] == 200
    # the match's route queues nothing over the quotas either: it answers with what is there
    status, body, _ = await get(srv, f"/api/tables/{table_id}/analysis", cili)
    assert status == 200 and body["status"] == "running"
    assert (await get(srv, deal(3)))[0] == 401

    # what-if lines: two an hour per account, three per address; a line already answered costs nothing
    index, start, _ = await played_deal(srv, table_id)

    def line(at: int) -> str:
        return f"/api/tables/{table_id}/deals/{index}/whatif?at={start + at}"

    before = (await long_work(srv))["whatif"]
    assert (await get(srv, line(0), anna))[0] == 200
    assert (await get(srv, line(1), anna))[0] == 200
    status, body, headers = await get(srv, line(2), anna)
    assert "per account" in body["error"]["message"]
    assert refused(status, body, headers, "work_quota") > 3000  # an hour's window
    assert (await get(srv, line(0), anna))[0] == 200  # remembered
    assert (await get(srv, line(2), bela))[0] == 200
    status, body, headers = await get(srv, line(3), bela)
    assert "per address" in body["error"]["message"]
    refused(status, body, headers, "work_quota")
    assert (await get(srv, line(3), dora, "127.0.0.2"))[0] == 200
    assert (await long_work(srv))["whatif"] == before + 4  # the refused ones computed nothing
    for client in (anna, bela, cili, dora):
        await client.close()
    srv.stop()
    assert "Traceback" not in (tmp_path / "server.log").read_text()


class ActionClock:
    """Watches a table and notes when each of its action events arrives."""

    def __init__(self, client: GameClient) -> None:
        """Times of the action events ``client`` (watching the table) receives."""
        self.client = client
        self.times: list[float] = []

    def seen(self) -> int:
        """Action events received so far (their arrival times noted)."""
        events = [m for m in self.client.received if m.get("type") == "event" and m["event"]["type"] == "action"]
        while len(self.times) < len(events):
            self.times.append(time.monotonic())
        return len(events)

    async def pace(self, actions: int) -> float:
        """Seconds the next ``actions`` actions take, from the next one on."""
        await self.client.wait_for(lambda: self.seen() > 0, 300)
        first = self.seen()
        await self.client.wait_for(lambda: self.seen() > first + actions, 300)
        return self.times[first + actions] - self.times[first]


@pytest.mark.asyncio
async def test_a_table_of_strong_bots_keeps_its_pace_with_analyses_queued(server: ServerProcess) -> None:
    host = await guest(server.base_url, "Host")
    tables = [await finished_match(server, host) for _ in range(4)]
    config = {"deals": 12, "seats": STRONG_BOTS, "move_seconds": 0}
    table_id = (await host.http("POST", "/api/tables", config))["table_id"]
    await host.connect()
    await host.open_table(table_id)
    clock = ActionClock(host)
    await host.http("POST", f"/api/tables/{table_id}/start", {})
    quiet = await clock.pace(40)
    # every deal of four matches queued for analysis: far more work than the measurement lasts
    for finished in tables:
        status, body, _ = await get(server, f"/api/tables/{finished}/analysis", host)
        assert status == 200 and body["status"] == "running", body
    busy = await clock.pace(40)
    # the analyses were there all along: the last match's are not all done yet
    status, body, _ = await get(server, f"/api/tables/{tables[-1]}/analysis", host)
    assert status == 200 and body["status"] == "running", body
    # before, each bot move queued behind an analysis chunk in the bots' own process: several times slower
    assert busy <= 2.0 * quiet + 1.0, (quiet, busy)
    await host.close()


@pytest.mark.asyncio
async def test_hints_have_a_quota_and_a_position_asked_again_costs_nothing(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    srv = server_factory(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}",
                         args=("--fast", "--work-quota=hint_per_player=1/hour"))
    srv.start(tmp_path / "server.log")
    cili = await guest(srv.base_url, "Cili")
    seats = [{"kind": "me"}, *RANDOM_BOTS[:2]]
    table_id = (await cili.http("POST", "/api/tables", {"deals": 6, "learner": True, "seats": seats}))["table_id"]
    await cili.connect()
    await cili.open_table(table_id)
    await cili.http("POST", f"/api/tables/{table_id}/start", {})
    await cili.wait_for(lambda: cili.my_turn(), 30)
    hints = []
    for n in (1, 2):  # the same position twice: computed once, counted once
        await cili.send({"type": "hint", "id": f"h{n}"})
        hints.append(await cili.wait_for_message(lambda m, n=n: m.get("id") == f"h{n}", 60))
    assert hints[0]["type"] == "hint" and {**hints[0], "id": "", "_t": 0} == {**hints[1], "id": "", "_t": 0}
    assert (await long_work(srv))["hint"] == 1
    await cili.act(cili.random_action())
    while not cili.my_turn():  # the next position where Cili decides (after "Next deal" if the deal ended)
        await cili.wait_for(lambda: cili.my_turn() or cili.must_ready(), 30)
        if cili.must_ready():
            await cili.ready()
    # a new position: over the quota of one an hour, and nothing computed
    await cili.send({"type": "hint", "id": "h3"})
    answer = await cili.wait_for_message(lambda m: m.get("id") == "h3", 60)
    assert answer["type"] == "error" and answer["code"] == "work_quota", answer
    assert answer["args"]["kind"] == "hint" and answer["args"]["retry_after"] > 3000
    assert (await long_work(srv))["hint"] == 1
    await cili.close()
    srv.stop()
    assert "Traceback" not in (tmp_path / "server.log").read_text()


@pytest.mark.asyncio
async def test_requests_to_long_work_routes_have_a_rate_per_address_and_account(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    quotas = ["requests_per_address=4/minute", "requests_per_player=3/minute"]
    srv = server_factory(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}",
                         args=("--fast", *[f"--work-quota={q}" for q in quotas]))
    srv.start(tmp_path / "server.log")
    host = await guest(srv.base_url, "Host")
    table_id = await finished_match(srv, host)
    analysis = f"/api/tables/{table_id}/analysis"
    # the account's three requests a minute, answered; the fourth refused, saying when to ask again
    for _ in range(3):
        status, body, _ = await get(srv, analysis, host)
        assert status == 200, body
    status, body, headers = await get(srv, analysis, host)
    assert refused(status, body, headers, "work_quota") > 0 and body["error"]["args"]["kind"] == "request"
    # the address counted all four (it is counted before the session is read, so a refused flood costs no
    # store read): a visitor without a session from it is refused too, on every long-work route
    for path in (analysis, f"/api/tables/{table_id}/deals/0/whatif?at=0", f"/api/tables/{table_id}/deals/0/analysis"):
        status, body, headers = await get(srv, path)
        assert refused(status, body, headers, "work_quota") > 0 and body["error"]["args"]["kind"] == "request"
    status, body, _ = await get(srv, analysis, address="127.0.0.9")
    assert status == 200, body


async def long_work_times(srv: ServerProcess, kind: str) -> dict[str, float]:
    """The count and sum of the server's ``ulti_long_work_wait_seconds`` and ``ulti_long_work_run_seconds``
    for ``kind``: ``wait_count``, ``wait_sum``, ``run_count``, ``run_sum``."""
    async with httpx2.AsyncClient(timeout=30) as http:
        text = (await http.get(srv.base_url + "/metrics")).text
    found = {}
    for what in ("wait", "run"):
        for part in ("count", "sum"):
            match = re.search(rf'^ulti_long_work_{what}_seconds_{part}\{{kind="{kind}"\}} (\S+)$', text, re.M)
            assert match is not None, (what, part, kind)
            found[f"{what}_{part}"] = float(match[1])
    return found


@pytest.mark.asyncio
async def test_long_work_wait_and_run_times_are_metrics(server: ServerProcess) -> None:
    host = await guest(server.base_url, "Host")
    table_id = await finished_match(server, host)
    index, start, _ = await played_deal(server, table_id)
    assert await long_work_times(server, "whatif") == {"wait_count": 0, "wait_sum": 0, "run_count": 0, "run_sum": 0}
    began = time.monotonic()
    status, _, _ = await get(server, f"/api/tables/{table_id}/deals/{index}/whatif?at={start}", host)
    took = time.monotonic() - began
    assert status == 200
    times = await long_work_times(server, "whatif")
    # the one piece that ran: it waited and ran, together no longer than the request took
    assert times["wait_count"] == times["run_count"] == 1
    assert times["run_sum"] > 0 and times["wait_sum"] >= 0 and times["wait_sum"] + times["run_sum"] <= took
    # asked again, the line is remembered: nothing waits or runs
    status, _, _ = await get(server, f"/api/tables/{table_id}/deals/{index}/whatif?at={start}", host)
    assert status == 200 and (await long_work_times(server, "whatif")) == times
    await host.close()
