"""The arena on a real ``ulti serve`` process (docs/protocol/tournaments.md, "Arena"): for a fixed time,
players who finish are seated again at once with waiting players of near score, bots fill a table after
the wait, points by place, nothing seated after the end, and a kill -9 mid-arena resumes from the log.

The two people here never connect: the director seats them all the same, and a bot plays each absent
seat after the table's grace, as at any table with a move limit.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import guest, until
from tests.server.test_tournament_restart import ARGS, stored_log
from tests.server.test_tournaments_api import refused, view_when
from ulti.client import GameClient
from ulti.server.arena import arena_status, ends_at, next_wave, waiting
from ulti.server.tournaments import Loaded
from ulti.tournaments.record import score_tournament
from ulti.tournaments.standings import places

ARENA = {"name": "Arena", "format": "arena", "minutes": 1, "bot_wait_seconds": 2, "deals_per_round": 6,
         "move_seconds": 5, "level": "random", "break_seconds": 0}


def timed_log(db: Path, tournament_id: str) -> list[tuple[dict[str, Any], int]]:
    """The tournament's stored events with the time each was stored (ms)."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT body, created_at FROM tournament_log WHERE tournament_id = ? ORDER BY seq",
                            (tournament_id,))
        return [(json.loads(body), at) for body, at in rows]


async def arena_of_bots_and_two_people(host: GameClient, base_url: str, bots: int) -> tuple[str, list[GameClient]]:
    tid = (await host.http("POST", "/api/tournaments", ARENA))["tournament_id"]
    people = []
    for name in ("Anna", "Bela"):
        person = await guest(base_url, name)
        await person.http("POST", f"/api/tournaments/{tid}/register", {})
        people.append(person)
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "add_bots", "count": bots})
    return tid, people


async def finished_view(host: GameClient, tid: str, timeout: float) -> dict[str, Any]:
    return await view_when(host, tid, lambda v: v["status"] == "finished", timeout,
                           "the arena reaches its end and its last tables finish")


def check_arena_log(log: list[tuple[dict[str, Any], int]], final: dict[str, Any]) -> None:
    """Seated only before the end, each player at one table at a time, standings by place."""
    ends_at = final["arena"]["ends_at"]
    seatings = [(body, at) for body, at in log if body["type"] == "round_seated"]
    assert ends_at == seatings[0][1] + 60_000
    assert all(at < ends_at for _, at in seatings)  # no new match starts after the end time
    tables = {(b["round"], t): table for b, _ in seatings for t, table in enumerate(b["tables"], start=1)}
    results = {(b["round"], b["table"]): (b["points"], at) for b, at in log if b["type"] == "result_recorded"}
    assert set(results) == set(tables)  # every table seated has its result
    assert any(at > ends_at for _, at in results.values())  # a match in progress at the end counts
    # players re-seated as they finish: someone played several matches, never two at once
    per_player: dict[int, list[tuple[int, int]]] = {}
    for (r, t), table in tables.items():
        seated_at = seatings[r - 1][1]
        for p in table:
            if p is not None:
                per_player.setdefault(p, []).append((seated_at, results[(r, t)][1]))
    assert max(len(v) for v in per_player.values()) >= 2
    for spans in per_player.values():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
    # the standings follow the places: 2, 1, 0 points per match by place, the leader first
    expected = {p: 0 for p in range(len(final["players"]))}
    for key, table in tables.items():
        for p, place in zip(table, places(results[key][0]), strict=True):
            if p is not None:
                expected[p] += (2, 1, 0)[place]
    assert {row["player"]: row["total"] for row in final["standings"]} == expected
    totals = [row["total"] for row in final["standings"]]
    assert totals == sorted(totals, reverse=True)


@pytest.mark.asyncio
async def test_arena_reseats_finishers_scores_by_place_and_seats_nothing_after_the_end(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    db = tmp_path / "a.db"
    server = server_factory(db_url=f"sqlite+aiosqlite:///{db}", args=ARGS)
    server.start(tmp_path / "server.log")
    host = await guest(server.base_url, "Director")
    tid, people = await arena_of_bots_and_two_people(host, server.base_url, 5)
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "start"})
    view = await people[0].http("GET", f"/api/tournaments/{tid}")
    assert view["status"] == "running" and view["arena"]["ends_at"] > view["arena"]["now"]
    # seven players: two tables of three, the seventh with bots at once (nobody waits at the start)
    assert [len([p for p in t["seats"] if p is not None]) for t in view["rounds"][0]["tables"]] == [3, 3, 1]
    assert view["you"]["table"] is not None and view["you"]["waiting"] is False
    final = await finished_view(host, tid, 240)
    check_arena_log(timed_log(db, tid), final)
    record = await host.http("GET", f"/api/tournaments/{tid}/record")
    assert score_tournament(record)["standings"] == final["standings"]
    with sqlite3.connect(db) as conn:
        made = conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
    assert made == sum(len(r["tables"]) for r in final["rounds"])
    for client in [host, *people]:
        await client.close()


@pytest.mark.asyncio
async def test_arena_bad_input_names_the_field(server: ServerProcess) -> None:
    host = await guest(server.base_url, "Director")
    bad = ((ARENA | {"minutes": None}, "minutes"), (ARENA | {"minutes": 0}, "minutes"),
           (ARENA | {"bot_wait_seconds": 0}, "bot_wait_seconds"), (ARENA | {"format": "lichess"}, "format"))
    for body, field in bad:
        error = await refused(host.http("POST", "/api/tournaments", body), "bad_request", field)
        assert error.params["field"] == field
    await host.close()


@pytest.mark.asyncio
async def test_arena_kill_9_mid_arena_resumes_with_nothing_lost(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    db = tmp_path / "k.db"
    server = server_factory(db_url=f"sqlite+aiosqlite:///{db}", args=ARGS)
    server.start(tmp_path / "server.log")
    host = await guest(server.base_url, "Director")
    tid, people = await arena_of_bots_and_two_people(host, server.base_url, 7)
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "start"})

    async def some_result() -> bool:
        view = await host.http("GET", f"/api/tournaments/{tid}")
        return any(t["result"] is not None for r in view["rounds"] for t in r["tables"])

    await until(some_result, 60, "a first arena table finishes")
    server.kill()
    before = stored_log(db, tid)
    server.start(tmp_path / "server.log")  # the same database and port
    final = await finished_view(host, tid, 240)
    assert stored_log(db, tid)[: len(before)] == before  # nothing stored before the kill is lost or changed
    check_arena_log(timed_log(db, tid), final)
    ids = [t["table_id"] for r in final["rounds"] for t in r["tables"]]
    with sqlite3.connect(db) as conn:
        made = conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
    assert made == len(ids) == len(set(ids))  # each table seated was made once
    for client in [host, *people]:
        await client.close()


def arena_loaded(players: int, events: list[tuple[dict[str, Any], int]]) -> Loaded:
    settings = {"format": "arena", "minutes": 10}
    created: dict[str, Any] = {"type": "created", "settings": settings, "bot_wait_seconds": 30}
    bodies: list[dict[str, Any]] = [created, *({"type": "registered", "name": f"P{i}"} for i in range(players))]
    return Loaded([*bodies, *(b for b, _ in events)], [0] * len(bodies) + [at for _, at in events])


def test_arena_waiting_player_sits_with_bots_only_after_the_wait_and_nothing_after_the_end() -> None:
    seated = {"type": "round_seated", "round": 1, "tables": [[0, 1, 2], [3, 4, 5]], "table_ids": ["a", "b"]}
    done = {"type": "result_recorded", "round": 1, "table": 1, "points": [4, 0, -4]}
    loaded = arena_loaded(6, [(seated, 1_000), (done, 5_000)])
    state = loaded.state()
    assert waiting(loaded, state) == [(0, 5_000), (1, 5_000), (2, 5_000)]
    # three wait: seated together again at once (nobody else waits), best score first
    assert next_wave(loaded, state, 5_001, 30) == [(0, 1, 2)]
    again = {"type": "round_seated", "round": 2, "tables": [[0, 1, 2]], "table_ids": ["c"]}
    other = {"type": "result_recorded", "round": 1, "table": 2, "points": [1, 1, -2]}
    loaded = arena_loaded(6, [(seated, 1_000), (done, 5_000), (again, 5_001), (other, 9_000)])
    state = loaded.state()
    assert next_wave(loaded, state, 9_000 + 29_999, 30) == [(3, 4, 5)]  # three wait: no bots needed
    withdrew = {"type": "withdrew", "player": 4}
    loaded = arena_loaded(6, [(seated, 1_000), (done, 5_000), (again, 5_001), (other, 9_000), (withdrew, 9_100)])
    state = loaded.state()
    assert next_wave(loaded, state, 9_000 + 29_999, 30) == []  # two wait, not long enough for bots
    assert next_wave(loaded, state, 9_000 + 30_000, 30) == [(3, 5, None)]  # bots fill the third seat
    assert ends_at(loaded, state) == 1_000 + 600_000
    assert next_wave(loaded, state, 601_000, 30) == []  # the end: no new match
    assert arena_status(loaded, state, 601_000) == "running"  # tables still playing count
