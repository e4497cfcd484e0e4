"""Duplicate events against real ``ulti serve`` processes: same cards everywhere, no peeking, kill -9.

docs/protocol/duplicate.md §23. Each test drives the server over HTTP and WebSockets as a client would.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import guest, until
from ulti.client import GameClient, ServerError
from ulti.duplicates import duplicate_hands


async def create_event(host: GameClient, tables: int, deals: int = 6, level: str = "heuristic") -> dict[str, Any]:
    event: dict[str, Any] = await host.http("POST", "/api/events", {"deals": deals, "tables": tables, "level": level})
    return event


async def event_over(client: GameClient, event_id: str, timeout: float = 240) -> dict[str, Any]:
    view: dict[str, Any] = {}

    async def over() -> bool:
        nonlocal view
        view = await client.http("GET", f"/api/events/{event_id}")
        return bool(view["event"]["status"] == "finished")

    await until(over, timeout, "the event is over")
    return view


async def refused(call: Any, code: str) -> None:
    with pytest.raises(ServerError) as error:
        await call
    assert error.value.code == code, error.value


async def play_until_deal(client: GameClient, stop_at: int, seed: int, timeout: float = 120) -> None:
    """Play random legal actions for the client's seat until its table has dealt deal ``stop_at``."""

    def dealt() -> bool:
        return bool(client.state and client.state["deal_index"] is not None and client.state["deal_index"] >= stop_at)

    async def step() -> None:
        while not dealt():
            if client.must_ready():
                try:
                    await client.ready()
                except ServerError as exc:
                    if exc.code != "not_between_deals":
                        raise
                await client.wait_for(lambda: dealt() or client.my_turn() or not client.must_ready(), timeout)
                continue
            if not client.my_turn():
                await client.wait_for(lambda: dealt() or client.my_turn() or client.must_ready(), timeout)
                continue
            await client.act(client.random_action(seed))

    await asyncio.wait_for(step(), timeout)


def cards_of(record: dict[str, Any]) -> tuple[int, list[list[str]]]:
    return record["dealer"], [sorted(hand) for hand in record["hands"]]


@pytest.mark.asyncio
async def test_two_tables_of_an_event_receive_identical_cards_for_every_deal(
    server: ServerProcess, tmp_path: Path
) -> None:
    host = await guest(server.base_url, "Host")
    event = await create_event(host, tables=2)
    await host.http("POST", f"/api/events/{event['event_id']}/start", {})
    view = await event_over(host, event["event_id"])
    assert [t["status"] for t in view["tables"]] == ["finished", "finished"]
    records = [await host.http("GET", f"/api/tables/{t}/record") for t in event["tables"]]
    assert len(records[0]["deals"]) >= 6 and len(records[1]["deals"]) >= 6
    record = await host.http("GET", f"/api/events/{event['event_id']}/record")
    for index in range(6):
        a, b = records[0]["deals"][index], records[1]["deals"][index]
        assert cards_of(a) == cards_of(b)
        # and they are the event's seed's deal (the seed is shown once the event is over)
        dealer, hands = duplicate_hands(record["seed"], index)
        assert cards_of(a) == (dealer, [sorted(h) for h in hands])
    # the downloaded record passes `ulti score`, which recomputes the matchpoints
    path = tmp_path / "event.json"
    path.write_text(json.dumps(record))
    proc = subprocess.run([sys.executable, "-m", "ulti.cli", "score", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    scored = json.loads(proc.stdout)
    assert scored["matchpoints"] == record["matchpoints"] and scored["standings"] == view["standings"]
    assert [d["results"] for d in view["deals"]] == [
        [{**line, "matchpoints": mp} for line, mp in zip(d["results"], record["matchpoints"][i], strict=True)]
        for i, d in enumerate(view["deals"])
    ]


@pytest.mark.asyncio
async def test_a_player_who_has_not_finished_deal_3_sees_nothing_of_deal_3_at_another_table(
    server: ServerProcess,
) -> None:
    host = await guest(server.base_url, "Host")
    anna = await guest(server.base_url, "Anna")
    outsider = await guest(server.base_url, "Olga")
    event = await create_event(host, tables=2)
    event_id, (own, other) = event["event_id"], event["tables"]
    joined = await anna.http("POST", f"/api/events/{event_id}/join", {"table": 1})
    assert (joined["table"], joined["table_id"]) == (1, own)
    # an event's table is joined through its event only
    await refused(outsider.http("POST", f"/api/tables/{own}/join", {"seat": 1}), "event_table")
    await host.http("POST", f"/api/events/{event_id}/start", {})
    await anna.connect()
    await anna.open_table(own)
    await play_until_deal(anna, 3, seed=5)  # deals 0, 1, 2 finished at table 1; deal 3 waits for Anna
    # table 2 (all bots) finishes its match meanwhile
    await until(lambda: _finished(host, event_id, 2), 240, "table 2 finished")

    deal3 = f"/api/tables/{other}/deals/3"
    for path in (f"{deal3}/record", f"{deal3}/replay", f"{deal3}/analysis", f"{deal3}/whatif?at=0",
                 f"{deal3}/par"):
        await refused(anna.http("GET", path), "event_hidden")
    # deal 2 she has finished: its record at table 2 is hers to see
    seen = await anna.http("GET", f"/api/tables/{other}/deals/2/record")
    assert seen["format"] == "ulti-deal/1"
    # the match's analysis counts the deals she finished only
    assert (await anna.http("GET", f"/api/tables/{other}/analysis"))["deals"] == 3
    # the match record keeps the deals she finished
    match = await anna.http("GET", f"/api/tables/{other}/record")
    assert len(match["deals"]) == 3
    # watching table 2 is refused over HTTP and the WebSocket; her own table is still hers
    await refused(anna.http("GET", f"/api/tables/{other}"), "event_hidden")
    await refused(anna.request({"type": "open_table", "table": other}), "event_hidden")
    assert anna.state is not None and anna.state["table"]["table_id"] == own
    # no chat between tables: not the lobby chat, not as a spectator
    await refused(anna.request({"type": "lobby_chat", "text": "deal 3 is a good one"}), "event_chat_closed")
    # the cross-table: deals 0-2 with every table's result, deal 3 and later without any
    cross = await anna.http("GET", f"/api/events/{event_id}")
    assert cross["you"]["table"] == 1 and cross["visible_deals"] == 3
    assert [d["visible"] for d in cross["deals"]] == [True, True, True, False, False, False]
    assert all(len(d["results"]) == 2 for d in cross["deals"][:3])
    assert all("results" not in d and "dealer" not in d for d in cross["deals"][3:])
    assert all(line["deals"] == 3 for line in cross["standings"])
    # the event record waits for the end; the lobby shows no totals of an event's table
    await refused(anna.http("GET", f"/api/events/{event_id}/record"), "event_not_over")
    lobby = await anna.http("GET", "/api/tables")
    assert all(t["totals"] is None for t in lobby["tables"] if t.get("event") == event_id)
    # nothing Anna received over the socket names table 2 but the refusals
    for message in anna.received:
        assert other not in json.dumps(message) or message["type"] == "error"

    # an outsider may not watch an event's table live; a deal is shown to everybody once every table has
    # finished it (deals 0-2 here: table 1 is at deal 3), as a bridge club delays its broadcast
    await refused(outsider.http("GET", f"/api/tables/{other}/deals/3/record"), "event_hidden")
    assert (await outsider.http("GET", f"/api/tables/{other}/deals/2/record"))["format"] == "ulti-deal/1"
    assert len((await outsider.http("GET", f"/api/tables/{other}/record"))["deals"]) == 3
    await refused(outsider.http("GET", f"/api/tables/{other}"), "event_hidden")
    outside = await outsider.http("GET", f"/api/events/{event_id}")
    assert outside["you"] is None and [d["visible"] for d in outside["deals"]] == [True] * 3 + [False] * 3
    assert all(len(d["results"]) == 2 for d in outside["deals"][:3])
    await outsider.connect()
    await refused(outsider.request({"type": "open_table", "table": other}), "event_hidden")

    # once the event is over, everything is open
    await anna.close()  # she leaves: a bot plays for her, and her result still counts
    final = await event_over(host, event_id)
    assert any(line["name"] == "Anna" and not line["bot"] for line in final["standings"])
    assert all(d["visible"] for d in (await outsider.http("GET", f"/api/events/{event_id}"))["deals"])
    hidden = await outsider.http("GET", f"{deal3}/record")
    await outsider.close()
    # no message Anna received while deal 3 was unfinished held another seat's deal-3 hand
    for seat in (1, 2):
        hand = set(hidden["hands"][seat])
        for message in anna.received:
            assert all(set(cards) != hand for cards in _card_lists(message)), message.get("type")


def _card_lists(value: Any) -> list[list[str]]:
    """Every list of 10 or more strings anywhere in ``value`` (hands, however a message spells them)."""
    found: list[list[str]] = []
    if isinstance(value, dict):
        for item in value.values():
            found.extend(_card_lists(item))
    elif isinstance(value, list):
        if len(value) >= 10 and all(isinstance(c, str) for c in value):
            found.append(value)
        for item in value:
            found.extend(_card_lists(item))
    return found


async def _finished(client: GameClient, event_id: str, table: int) -> bool:
    # from the event page: nobody but its own players watches an event's table while the event runs
    view = await client.http("GET", f"/api/events/{event_id}")
    return bool(view["tables"][table - 1]["status"] == "finished")


@pytest.mark.asyncio
async def test_an_event_survives_kill_9_with_its_standings_unchanged(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}"
    # bots slow enough that the kill lands in the middle of the event
    args = ("--fast", "--bot-delay", "0.02")
    first = server_factory(db_url=db, args=args)
    first.start(tmp_path / "first.log")
    host = await guest(first.base_url, "Host")
    event = await create_event(host, tables=2)
    event_id = event["event_id"]
    await host.http("POST", f"/api/events/{event_id}/join", {"table": 2})
    await host.http("POST", f"/api/events/{event_id}/start", {})
    await host.connect()
    await host.open_table(event["tables"][1])
    await host.close()  # the host leaves: a bot plays for them, their results count

    async def some_deals() -> bool:
        view = await host.http("GET", f"/api/events/{event_id}")
        return bool(2 <= view["visible_deals"] < 6)

    await until(some_deals, 120, "two deals of the host's table finished")
    before = await host.http("GET", f"/api/events/{event_id}")
    first.kill()
    second = server_factory(db_url=db, port=first.port, args=args)
    second.start(tmp_path / "second.log")
    after = await host.http("GET", f"/api/events/{event_id}")  # the session survives the restart
    assert after["event"] == before["event"] and after["tables"][0]["table_id"] == before["tables"][0]["table_id"]
    for index in range(before["visible_deals"]):
        assert after["deals"][index]["visible"]
        # every result seen before the kill is there, unchanged (results are never lost or replayed)
        kept = {r["table"]: r for r in after["deals"][index]["results"]}
        for line in before["deals"][index]["results"]:
            assert {k: v for k, v in kept[line["table"]].items() if k != "matchpoints"} == {
                k: v for k, v in line.items() if k != "matchpoints"}
            if len(before["deals"][index]["results"]) == 2:
                assert kept[line["table"]]["matchpoints"] == line["matchpoints"]
    final = await event_over(host, event_id)
    record = await host.http("GET", f"/api/events/{event_id}/record")
    assert record["standings"] == final["standings"]
    assert any(line["name"] == "Host" and not line["bot"] and line["deals"] == 6 for line in final["standings"])
    for log in ("first.log", "second.log"):
        assert "Traceback" not in (tmp_path / log).read_text()
