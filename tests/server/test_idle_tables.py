"""Memory that does not only grow: idle finished tables are unloaded, unstarted tables expire, and the
lobby is pushed as changes rather than as the whole list.

Every test runs a real ``ulti serve`` process (``--fast``) with short idle and expiry times given on
its command line (the production defaults are 120 s and 45 minutes, see ``Settings``).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import until
from ulti.client import GameClient, ServerError, apply_lobby_update

BOTS = [{"kind": "bot", "level": "random"}] * 3
ME, OPEN = {"kind": "me"}, {"kind": "open"}


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` in MiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS line")


async def loaded_tables(client: GameClient) -> int:
    """How many table actors the server holds in memory (``/healthz``)."""
    return int((await client.http("GET", "/healthz"))["tables"])


def no_tracebacks(srv: ServerProcess) -> None:
    """The server logged no traceback."""
    assert srv.log_path is not None
    log = srv.log_path.read_text()
    assert "Traceback" not in log, log[-3000:]


@pytest.fixture
def start(server_factory: type[ServerProcess], tmp_path: Path) -> Iterator[Any]:
    """Start a server with extra ``serve`` arguments (after ``--fast``); checked for tracebacks at the end."""
    started: list[ServerProcess] = []

    def run(*args: str) -> ServerProcess:
        srv = server_factory(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}", args=("--fast", *args))
        srv.start(tmp_path / f"server{len(started)}.log")
        started.append(srv)
        return srv

    yield run
    for srv in started:
        no_tracebacks(srv)


async def play_bot_matches(host: GameClient, count: int, at_once: int) -> list[str]:
    """Play ``count`` 6-deal matches of three random bots, ``at_once`` at a time; the finished tables' ids.

    The host creates and starts each table without sitting at it; a table that has left the lobby
    list (open and playing tables) after its start has finished.
    """
    created: list[str] = []
    while True:
        playing = len((await host.http("GET", "/api/tables"))["tables"])
        if len(created) - playing >= count:
            return created
        while playing < at_once and len(created) < count:
            table = await host.http("POST", "/api/tables", {"deals": 6, "seats": BOTS})
            await host.http("POST", f"/api/tables/{table['table_id']}/start", {})
            created.append(table["table_id"])
            playing += 1
        await asyncio.sleep(0.1)


# ---------------------------------------------------------------- memory


@pytest.mark.asyncio
async def test_a_thousand_finished_matches_leave_the_server_memory_where_it_started(start: Any) -> None:
    """1,000 whole matches (6 deals of three random bots, about 210 stored actions each) are played on
    one server, 30 at a time, with ``--unload-idle-seconds 0.5``. The server's resident memory (RSS
    from /proc) is measured after a warm-up of 30 matches (the first matches import the bots, fill
    SQLAlchemy's statement cache and grow the allocator's arenas to the working set of 30 live tables),
    and again once the 1,000 are finished and unloaded: it must not have grown by 20 MiB.

    Before idle tables were unloaded, ``Hub.actors`` kept every finished table (about 200-290 KB each):
    the same run grew the server by about 200 MiB. It takes about a minute on two cores.
    """
    srv = start("--unload-idle-seconds", "0.5")
    assert srv.proc is not None
    async with httpx2.AsyncClient(timeout=60) as http:
        host = GameClient(srv.base_url, http)
        await host.login("Host")
        await play_bot_matches(host, 30, at_once=30)
        await until(lambda: _equals(loaded_tables(host), 0), 10, "the warm-up tables unloaded")
        before = rss_mb(srv.proc.pid)
        started = time.monotonic()
        tables = await play_bot_matches(host, 1000, at_once=30)
        played = time.monotonic() - started
        await until(lambda: _equals(loaded_tables(host), 0), 10, "every finished table unloaded")
        after = rss_mb(srv.proc.pid)
        print(f"\n1000 matches in {played:.0f} s; server RSS {before:.1f} MiB -> {after:.1f} MiB")
        assert len(set(tables)) == 1000
        assert after - before < 20, f"the server grew from {before:.1f} to {after:.1f} MiB"
        # the matches really finished, and an unloaded one loads again from its log
        view = await host.http("GET", f"/api/tables/{tables[-1]}")
        assert view["table"]["status"] == "finished" and view["match"]["winner"] is not None
        assert len(view["match"]["results"]) >= 6


async def _equals(value: Any, expected: int) -> bool:
    return bool(await value == expected)


# ---------------------------------------------------------------- the lobby as changes


@pytest.mark.asyncio
async def test_the_lobby_push_after_one_change_is_under_2_kb_with_300_tables_open(start: Any) -> None:
    srv = start()
    async with httpx2.AsyncClient(timeout=60) as http:  # one player per HTTP client: it keeps their cookie
        host, guest, watcher = GameClient(srv.base_url, http), GameClient(srv.base_url), GameClient(srv.base_url)
        for client, name in ((host, "Host"), (guest, "Guest"), (watcher, "Watcher")):
            await client.login(name)
        ids = [(await host.http("POST", "/api/tables", {"deals": 6, "seats": [ME, OPEN, OPEN]}))["table_id"]
               for _ in range(300)]
        await watcher.connect()
        await watcher.send({"type": "watch_lobby"})
        await watcher.wait_for(lambda: watcher.lobby is not None, 10)
        full = next(m for m in watcher.received if m["type"] == "lobby")
        assert len(full["tables"]) == 300
        assert size(full) > 50_000  # the whole list: what every change used to cost every watcher
        count = len(watcher.received)

        await guest.http("POST", f"/api/tables/{ids[123]}/join", {"seat": 1})

        await watcher.wait_for(lambda: any(is_lobby(m) for m in watcher.received[count:]), 5)
        push = next(m for m in watcher.received[count:] if is_lobby(m))
        print(f"\nlobby with 300 tables: first answer {size(full)} bytes, push after one change {size(push)} bytes")
        assert size(push) < 2048, f"the push is {size(push)} bytes"
        assert push["type"] == "lobby_update" and push["removed"] == []
        assert [t["table_id"] for t in push["tables"]] == [ids[123]]
        assert push["tables"][0]["seats"][1]["name"] == "Guest"
        # the list folded from the updates is the list the server holds
        assert watcher.lobby == (await host.http("GET", "/api/tables"))["tables"]
        await watcher.close()


def is_lobby(message: dict[str, Any]) -> bool:
    """A lobby push (the whole list or the changes)."""
    return message.get("type") in ("lobby", "lobby_update")


def size(message: dict[str, Any]) -> int:
    """The message's size on the wire (compact JSON, as the server sends it), without the client's stamp."""
    body = {k: v for k, v in message.items() if k != "_t"}
    return len(json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode())


def test_a_lobby_update_replaces_adds_first_and_removes() -> None:
    tables = [{"table_id": "b", "v": 1}, {"table_id": "a", "v": 1}]
    update = {"tables": [{"table_id": "d", "v": 1}, {"table_id": "c", "v": 1}, {"table_id": "a", "v": 2}],
              "removed": ["b", "x"]}
    assert apply_lobby_update(tables, update) == [
        {"table_id": "d", "v": 1}, {"table_id": "c", "v": 1}, {"table_id": "a", "v": 2}
    ]


# ---------------------------------------------------------------- unstarted tables expire


@pytest.mark.asyncio
async def test_an_unstarted_table_expires_after_the_configured_time_and_leaves_the_lobby(start: Any) -> None:
    srv = start("--expire-unstarted-seconds", "1.5")
    host, watcher = GameClient(srv.base_url), GameClient(srv.base_url)
    await host.login("Host")
    await watcher.login("Watcher")
    await watcher.connect()
    await watcher.send({"type": "watch_lobby"})
    await watcher.wait_for(lambda: watcher.lobby is not None, 5)
    created = time.monotonic()
    idle = (await host.http("POST", "/api/tables", {"deals": 6, "seats": [ME, OPEN, OPEN]}))["table_id"]
    # the host sits at this one too but never opens it: the match waits for the host's first move
    playing = (await host.http("POST", "/api/tables", {"deals": 12, "seats": [ME, *BOTS[:2]]}))["table_id"]
    await host.http("POST", f"/api/tables/{playing}/start", {})
    await host.connect()
    await host.open_table(idle)

    await host.wait_for(lambda: host.state is not None and host.state["table"]["status"] == "expired", 10)
    waited = time.monotonic() - created
    assert 1.5 <= waited < 4, f"expired after {waited:.1f} s"
    expired = next(m for m in host.received if m["type"] == "event" and m["event"]["type"] == "expired")
    assert expired["event"] == {"type": "expired"}
    # it leaves every watcher's lobby as a change, and the list; a started match never expires
    await watcher.wait_for(lambda: any(m.get("removed") == [idle] for m in watcher.received), 5)
    assert [t["table_id"] for t in watcher.lobby or []] == [playing]
    assert [t["table_id"] for t in (await host.http("GET", "/api/tables"))["tables"]] == [playing]
    # nobody may sit down or start it any more; its page still opens and says what happened
    guest = GameClient(srv.base_url)
    await guest.login("Guest")
    for path, body in (("join", {"seat": 1}), ("start", {"fill_bots": True})):
        client = guest if path == "join" else host
        with pytest.raises(ServerError) as refused:
            await client.http("POST", f"/api/tables/{idle}/{path}", body)
        assert refused.value.code == "table_expired"
    assert (await guest.http("GET", f"/api/tables/{idle}"))["table"]["status"] == "expired"
    past = await host.http("GET", "/api/me/matches")
    assert {m["table_id"]: m["status"] for m in past["matches"]}[idle] == "expired"
    await host.close()
    await watcher.close()


@pytest.mark.asyncio
async def test_a_restart_does_not_give_an_unstarted_table_more_time(start: Any) -> None:
    """The expiry counts from the table's last stored event, which a restart does not change."""
    first = start("--expire-unstarted-seconds", "6")
    host = GameClient(first.base_url)
    await host.login("Host")
    table_id = (await host.http("POST", "/api/tables", {"deals": 6, "seats": [ME, OPEN, OPEN]}))["table_id"]
    first.stop()
    await asyncio.sleep(3)
    restarted = time.monotonic()
    second = start("--expire-unstarted-seconds", "6")
    host.base_url = second.base_url

    async def gone() -> bool:
        return not (await host.http("GET", "/api/tables"))["tables"]

    await until(gone, 15, "the table expired")
    # Due 6 s after its creation, about 3 s after the restart began (swept every 1.5 s). Counted from the
    # restart it could not go before 6 s after it; the margin is wide because a loaded CI machine may
    # take a few seconds to start the second server.
    after_restart = time.monotonic() - restarted
    assert after_restart < 6, f"expired {after_restart:.1f} s after the restart: the clock restarted with it"
    assert (await host.http("GET", f"/api/tables/{table_id}"))["table"]["status"] == "expired"


# ---------------------------------------------------------------- idle tables are unloaded


@pytest.mark.asyncio
async def test_an_idle_finished_table_is_unloaded_and_opens_again_from_the_store(start: Any) -> None:
    srv = start("--unload-idle-seconds", "0.5")
    host = GameClient(srv.base_url)
    await host.login("Host")
    waiting = (await host.http("POST", "/api/tables", {"deals": 6, "seats": [ME, OPEN, OPEN]}))["table_id"]
    table_id = (await host.http("POST", "/api/tables", {"deals": 6, "seats": BOTS}))["table_id"]
    await host.connect()
    await host.open_table(table_id)
    await host.http("POST", f"/api/tables/{table_id}/start", {})
    await host.wait_for(host.match_over, 60)
    view = await host.http("GET", f"/api/tables/{table_id}")
    match = await host.http("GET", f"/api/tables/{table_id}/record")
    deal = await host.http("GET", f"/api/tables/{table_id}/deals/2/record")

    # watched: it stays loaded however long it is idle
    await asyncio.sleep(1.5)
    assert await loaded_tables(host) == 2
    # nobody watches it any more: it is unloaded; the unstarted table (in the lobby) stays
    await host.close()
    await until(lambda: _equals(loaded_tables(host), 1), 5, "the finished table unloaded")
    assert [t["table_id"] for t in (await host.http("GET", "/api/tables"))["tables"]] == [waiting]

    # everything about it comes back from its log
    assert await host.http("GET", f"/api/tables/{table_id}") == view
    assert await host.http("GET", f"/api/tables/{table_id}/record") == match
    assert await host.http("GET", f"/api/tables/{table_id}/deals/2/record") == deal
    await until(lambda: _equals(loaded_tables(host), 1), 5, "unloaded again after the requests")
    again = GameClient(srv.base_url)
    again.token, again.player_id = host.token, host.player_id
    await again.connect()
    await again.open_table(table_id)
    assert again.state is not None
    assert again.state == {k: v for k, v in view.items() if k != "invites"}  # the host's extra key
    # and it takes commands again: a chat line after the match is stored as its next event
    await again.request({"type": "chat", "text": "good game"})
    assert again.state["chat"][-1]["text"] == "good game"
    assert again.seq == view["seq"] + 1
    await again.close()
    await until(lambda: _equals(loaded_tables(host), 1), 5, "unloaded again after its watcher left")
