"""kill -9 the server mid-round: the restarted server's director resumes the tournament from its log
with nothing lost (the round's tables are the ones the log named, each played once, to a winner)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import until
from tests.server.test_tournaments_api import view_when
from ulti.client import GameClient
from ulti.server.results import CRASH_ENV
from ulti.tournaments.record import score_tournament

# a grace long enough that round 1 is still being played when the server is killed
ARGS = ("--fast", "--disconnect-grace", "3")


def stored_log(db: Path, tournament_id: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT body FROM tournament_log WHERE tournament_id = ? ORDER BY seq", (tournament_id,))
        return [r[0] for r in rows]


@pytest.mark.asyncio
async def test_tournament_kill_9_mid_round_resumes_with_nothing_lost(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    db = tmp_path / "t.db"
    server = server_factory(db_url=f"sqlite+aiosqlite:///{db}", args=ARGS)
    server.start(tmp_path / "server.log")
    host = GameClient(server.base_url)
    await host.login("Director")
    tid = (await host.http("POST", "/api/tournaments", {
        "name": "Crash cup", "format": "everyone", "rounds": 4, "deals_per_round": 6, "move_seconds": 5,
        "level": "random", "break_seconds": 0,
    }))["tournament_id"]
    players = []
    for i in range(9):
        player = GameClient(server.base_url)
        await player.login(f"Player {i}")
        await player.http("POST", f"/api/tournaments/{tid}/register", {})
        players.append(player)
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "start"})
    view = await host.http("GET", f"/api/tournaments/{tid}")
    assert view["round"] == 1 and all(t["result"] is None for t in view["rounds"][0]["tables"])
    round_1 = [t["table_id"] for t in view["rounds"][0]["tables"]]
    assert len(round_1) == 3
    server.kill()
    before = stored_log(db, tid)

    server.start(tmp_path / "server.log")  # the same database and port
    final: dict[str, Any] = {}

    async def over() -> bool:
        nonlocal final
        final = await host.http("GET", f"/api/tournaments/{tid}")
        return bool(final["status"] == "finished")

    await until(over, 300, "the tournament resumes and finishes")
    after = stored_log(db, tid)
    assert after[: len(before)] == before  # nothing stored before the kill is lost or changed
    assert [t["table_id"] for t in final["rounds"][0]["tables"]] == round_1  # no table made twice
    assert [len(r["tables"]) for r in final["rounds"]] == [3, 3, 3, 3]
    # everyone met everyone exactly once over the 4 rounds of 9 players
    met = [frozenset((a, b)) for r in final["rounds"] for t in r["tables"] for a in t["seats"] for b in t["seats"]
           if a is not None and b is not None and a < b]
    assert len(met) == len(set(met)) == 36
    record = await host.http("GET", f"/api/tournaments/{tid}/record")
    assert score_tournament(record)["standings"] == final["standings"]
    with sqlite3.connect(db) as conn:
        tables = conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
    assert tables == 12
    for client in [host, *players]:
        await client.close()


async def one_round_of_six_bots(host: GameClient, name: str) -> str:
    """A one-round tournament of six built-in bots (two tables), not started; its id."""
    tid = str((await host.http("POST", "/api/tournaments", {
        "name": name, "rounds": 1, "deals_per_round": 6, "move_seconds": 5, "level": "random",
        "break_seconds": 0,
    }))["tournament_id"])
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "add_bots", "count": 6})
    return tid


@pytest.mark.asyncio
async def test_round_seated_but_no_table_made_before_a_crash_gets_its_tables_on_restart(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    """The log names a round's tables before any exists: a director killed right after storing the seating
    (simulated by writing that event while the server is down) makes exactly those tables when it resumes."""
    db = tmp_path / "t.db"
    server = server_factory(db_url=f"sqlite+aiosqlite:///{db}", args=ARGS)
    server.start(tmp_path / "server.log")
    host = GameClient(server.base_url)
    await host.login("Director")
    tid = await one_round_of_six_bots(host, "Half seated")
    server.kill()
    seated = {"type": "round_seated", "round": 1, "tables": [[0, 1, 2], [3, 4, 5]],
              "table_ids": ["halfseated000001", "halfseated000002"]}
    with sqlite3.connect(db) as conn:
        seq = conn.execute("SELECT MAX(seq) FROM tournament_log WHERE tournament_id = ?", (tid,)).fetchone()[0]
        conn.execute("INSERT INTO tournament_log VALUES (?, ?, ?, ?)", (tid, seq + 1, json.dumps(seated), 0))
        conn.execute("UPDATE tournaments SET status = 'running' WHERE id = ?", (tid,))
    server.start(tmp_path / "server.log")
    final: dict[str, Any] = {}

    async def over() -> bool:
        nonlocal final
        final = await host.http("GET", f"/api/tournaments/{tid}")
        return bool(final["status"] == "finished")

    await until(over, 120, "the resumed director makes the named tables and the round ends")
    assert [t["table_id"] for t in final["rounds"][0]["tables"]] == seated["table_ids"]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 2
    await host.close()


async def started_until_the_crash(
    server_factory: type[ServerProcess], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, crash_at: str
) -> tuple[ServerProcess, GameClient, str]:
    """A server on ``tmp_path/t.db`` that kills itself at the crash point ``crash_at``, and a one-round
    tournament of six bots started on it; returns once the server has died (the server, the host, the id)."""
    server = server_factory(db_url=f"sqlite+aiosqlite:///{tmp_path / 't.db'}", args=ARGS)
    monkeypatch.setenv(CRASH_ENV, crash_at)
    server.start(tmp_path / "server.log")
    monkeypatch.delenv(CRASH_ENV)
    host = GameClient(server.base_url)
    await host.login("Director")
    tid = await one_round_of_six_bots(host, crash_at)
    with contextlib.suppress(Exception):  # the server dies while it answers
        await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "start"})
    assert server.proc is not None
    async with asyncio.timeout(30):
        while server.proc.poll() is None:
            await asyncio.sleep(0.05)
    return server, host, tid


@pytest.mark.asyncio
async def test_a_table_killed_between_its_first_event_and_its_row_is_taken_from_its_log_on_restart(
    server_factory: type[ServerProcess], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server dies by SIGKILL right after a round's first table stored its first event, before its
    row in ``tables``: the resumed director finds the id's log begun, plays that table from its log (not
    an empty one in its place) and the round ends with exactly the tables the log named."""
    db = tmp_path / "t.db"
    server, host, tid = await started_until_the_crash(server_factory, tmp_path, monkeypatch, "table_begun")
    with sqlite3.connect(db) as conn:
        # the round's tables are made side by side: one or both first events share the commit
        begun = dict(conn.execute("SELECT table_id, body FROM events WHERE seq = 1").fetchall())
        assert begun and conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 0
    server.start(tmp_path / "server.log")
    final = await view_when(host, tid, lambda v: v["status"] == "finished", 120,
                            "the resumed director plays the begun table and the round ends")
    ids = [t["table_id"] for t in final["rounds"][0]["tables"]]
    assert set(begun) <= set(ids)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == len(ids) == 2
        kept = dict(conn.execute("SELECT table_id, body FROM events WHERE seq = 1").fetchall())
    assert {t: kept[t] for t in begun} == begun  # their first events, as stored before the kill
    await host.close()


@pytest.mark.asyncio
async def test_a_table_killed_between_its_start_and_its_first_deal_is_dealt_on_restart(
    server_factory: type[ServerProcess], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server dies by SIGKILL right after a table's start is stored, before its first deal: the
    restarted server deals that deal (the start deals at once otherwise, so nothing else would), the
    table plays to its end and the round ends. The CI symptom without it: an arena never finished."""
    db = tmp_path / "t.db"
    server, host, tid = await started_until_the_crash(server_factory, tmp_path, monkeypatch, "table_started")
    with sqlite3.connect(db) as conn:
        last = dict(conn.execute("SELECT table_id, body FROM events e WHERE seq = "
                                 "(SELECT MAX(seq) FROM events WHERE table_id = e.table_id)").fetchall())
    started = [t for t, body in last.items() if json.loads(body)["type"] == "start"]
    assert started  # a table stored its start and no deal
    server.start(tmp_path / "server.log")
    final = await view_when(host, tid, lambda v: v["status"] == "finished", 120,
                            "the restarted server deals the started table's first deal and the round ends")
    assert set(started) <= {t["table_id"] for t in final["rounds"][0]["tables"]}
    with sqlite3.connect(db) as conn:
        for table_id in started:
            kinds = [json.loads(b)["type"] for (b,) in conn.execute(
                "SELECT body FROM events WHERE table_id = ? ORDER BY seq", (table_id,))]
            assert kinds.count("start") == 1 and kinds[kinds.index("start") + 1] == "deal"
            assert kinds.count("deal") >= 6  # a match of six deals (and its tie-break deals, if any)
    await host.close()
