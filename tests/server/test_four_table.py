"""Tables of four on a real server: four seats, 12 deals, each deal's dealer sitting out as a spectator.

Scripted players (``ulti.client``) and built-in bots play whole matches; every message a player receives
is checked against the deal records for hidden cards, with the seat each player held in each deal (none
while it sat out), and the stored match record is the four-player record ``ulti score`` checks.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.server.botapi_helpers import Reader, new_account, play_over_api
from tests.server.conftest import ServerProcess
from tests.server.helpers import until
from tests.server.test_no_leak import Watcher, leaks, spectator, timeline
from ulti.botclient import my_turn
from ulti.bots.random_bot import RandomBot
from ulti.client import GameClient, ServerError, play_randomly
from ulti.engine.fourmatch import FourMatch
from ulti.engine.record import action_to_json, score_record
from ulti.server import tablerules, tableviews
from ulti.server.tablestate import TableState


async def four_players(base_url: str, seed: int, **config: Any) -> tuple[str, list[GameClient]]:
    """A table of four with four logged-in, connected players in seats 0..3 (not started)."""
    clients = [GameClient(base_url) for _ in range(4)]
    for i, client in enumerate(clients):
        await client.login(f"Four {i}")
    body = {"deals": 12, "seed": seed, "seats": [{"kind": "me"}] + [{"kind": "open"}] * 3, **config}
    table_id = (await clients[0].http("POST", "/api/tables", body))["table_id"]
    for i in (1, 2, 3):
        await clients[i].http("POST", f"/api/tables/{table_id}/join", {"seat": i})
    for client in clients:
        await client.connect()
        await client.open_table(table_id)
    return table_id, clients


@pytest.mark.asyncio
async def test_a_table_of_four_plays_twelve_deals_the_dealer_sitting_out_and_sees_no_hidden_card(
    server: ServerProcess, tmp_path: Path
) -> None:
    table_id, clients = await four_players(server.base_url, seed=404)
    watch = await spectator(server.base_url, "Watcher Four", table_id)
    try:
        await clients[0].http("POST", f"/api/tables/{table_id}/start", {})
        await asyncio.wait_for(asyncio.gather(*(play_randomly(c, 40 + i, 240) for i, c in enumerate(clients))), 300)
        await watch.wait_for(watch.match_over, 10)
        state = clients[0].state
        assert state is not None
        match = state["match"]
        assert match["seats"] == 4 and match["deals_planned"] == 12 and match["deals_played"] >= 12
        assert len(match["totals"]) == 4 and sum(match["totals"]) == 0
        assert all(len(row) == 4 and sum(row) == 0 for row in match["sheet"])
        rule = FourMatch(first_dealer=match["first_dealer"])
        assert match["sits_out"] == [rule.sits_out(k) for k in range(match["deals_played"])]
        assert match["deal_seats"] == [list(rule.rotation(k).positions) for k in range(match["deals_played"])]
        # each player sat out three of the twelve planned deals
        assert sorted(match["sits_out"][:12]) == sorted([0, 1, 2, 3] * 3)

        # the stored match record is the four-player record; `ulti score` checks it and agrees with the sheet
        record = await clients[1].http("GET", f"/api/tables/{table_id}/record")
        assert record["seats"] == 4 and [d["sits_out"] for d in record["deals"]] == match["sits_out"]
        path = tmp_path / "four.json"
        path.write_text(json.dumps(record))
        proc = subprocess.run([sys.executable, "-m", "ulti.cli", "score", str(path)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        scored = json.loads(proc.stdout)
        assert scored["totals"] == match["totals"] and scored["winner"] == match["winner"]
        assert [d["table_scores"] for d in scored["deals"]] == [
            [b - a for a, b in zip([0, 0, 0, 0] if k == 0 else match["sheet"][k - 1], row, strict=True)]
            for k, row in enumerate(match["sheet"])
        ]

        # no message showed anyone a card they could not see then: the one sitting out sees what a spectator does
        watchers = [Watcher(c, table_id, i) for i, c in enumerate(clients)] + [Watcher(watch, table_id, None)]
        positions = timeline(watchers)
        deals = [dict(d) for d in record["deals"]]
        for watcher in watchers:
            seat = watcher.seat

            def deal_seat(k: int, seat: int | None = seat) -> int | None:
                return None if seat is None else rule.engine_seat_of(k, seat)

            assert leaks(watcher, positions, deals, deal_seat) == []
        # and each sat-out deal really was watched: the view then had no hand and no choices
        for i, client in enumerate(clients):
            out_views = [
                m["state"] for m in client.received
                if m.get("type") == "event" and m["state"].get("four") and m["state"]["four"]["sits_out"] == i
                and m["state"]["deal"] is not None and m["state"]["deal"]["phase"] != "done"
            ]
            assert out_views, f"seat {i} never saw a deal it sat out"
            assert all(v["four"]["you_play"] is None and "choices" not in v["deal"] for v in out_views)
            assert all(v["deal"]["seat"] is None for v in out_views)  # the deal seen from no seat: a spectator's
            assert all(v["deal"]["hands"] == {} for v in out_views if v["deal"]["phase"] == "auction")
    finally:
        for client in [*clients, watch]:
            await client.close()


@pytest.mark.asyncio
async def test_the_player_sitting_out_cannot_act_but_chats_and_sees_the_sheet(server: ServerProcess) -> None:
    table_id, clients = await four_players(server.base_url, seed=7)
    try:
        await clients[0].http("POST", f"/api/tables/{table_id}/start", {})
        host = clients[0]
        await host.wait_for(lambda: host.state is not None and host.state.get("four") is not None, 10)
        assert host.state is not None
        out = host.state["four"]["sits_out"]
        sitter = clients[out]
        await sitter.wait_for(lambda: sitter.state is not None and sitter.state.get("four") is not None, 10)
        assert sitter.state is not None and sitter.state["four"]["you_play"] is None
        assert sitter.state["match"]["seats"] == 4 and sitter.state["match"]["sits_out"] == [out]
        with pytest.raises(ServerError) as info:
            await sitter.act({"action": "pass"})
        assert info.value.code == "not_your_turn"
        await sitter.request({"type": "chat", "phrase": "good_luck"})

        def said() -> bool:
            return any(line.get("phrase") == "good_luck" for line in (host.state or {}).get("chat", []))

        await host.wait_for(said, 10)
        assert host.state is not None
        assert host.state["chat"][-1]["seat"] == out
        # the one on the dealer's left opens: the deal's seat 0 is played by the next table seat
        assert host.state["four"]["seats"] == [(out + 1) % 4, (out + 2) % 4, (out + 3) % 4]
    finally:
        for client in clients:
            await client.close()


@pytest.mark.asyncio
async def test_a_table_of_four_takes_twelve_deals_and_four_seats(server: ServerProcess) -> None:
    host = GameClient(server.base_url)
    await host.login("Four host")
    try:
        seats = [{"kind": "me"}] + [{"kind": "open"}] * 3
        with pytest.raises(ServerError) as info:
            await host.http("POST", "/api/tables", {"deals": 9, "seats": seats})
        assert info.value.code == "bad_config" and "deals must be 12 at a table of four" in str(info.value)
        with pytest.raises(ServerError) as info:
            await host.http("POST", "/api/tables", {"deals": 12, "seats": [*seats, {"kind": "open"}]})
        assert info.value.code == "bad_config" and "seats must list 3 seats (or 4" in str(info.value)
        table_id = (await host.http("POST", "/api/tables", {"deals": 12, "seats": seats}))["table_id"]
        other = GameClient(server.base_url)
        await other.login("Fourth")
        await other.http("POST", f"/api/tables/{table_id}/join", {"seat": 3})
        with pytest.raises(ServerError) as info:
            await other.http("POST", f"/api/tables/{table_id}/join", {"seat": 4})
        assert info.value.code == "bad_request"
        assert "seat must be 0, 1 or 2 (or 3 at a table of four)" in str(info.value)
        await host.connect()
        await host.open_table(table_id)
        assert host.state is not None
        assert [s["kind"] for s in host.state["table"]["seats"]] == ["player", "open", "open", "player"]
        await other.close()
    finally:
        await host.close()


@pytest.mark.asyncio
async def test_bots_play_the_deal_seat_of_their_table_seat_and_a_resigned_player_is_played_to_the_end(
    server: ServerProcess,
) -> None:
    person = GameClient(server.base_url)
    await person.login("With three bots")
    seats = [{"kind": "me"}, {"kind": "bot", "level": "heuristic"}, {"kind": "bot", "level": "random"},
             {"kind": "bot", "level": "heuristic"}]
    table_id = (await person.http("POST", "/api/tables", {"deals": 12, "seats": seats, "seed": 12}))["table_id"]
    await person.connect()
    await person.open_table(table_id)
    watch = await spectator(server.base_url, "Watcher Bots", table_id)
    try:
        await person.http("POST", f"/api/tables/{table_id}/start", {})

        def in_deal(k: int) -> bool:
            state = person.state
            return state is not None and (state["deal_index"] or 0) >= k

        # the person plays two deals (sitting out one of them at least once), then resigns
        while not in_deal(2):
            await person.wait_for(lambda: in_deal(2) or person.my_turn() or person.must_ready(), 60)
            if person.must_ready():
                try:
                    await person.ready()
                except ServerError as exc:
                    assert exc.code == "not_between_deals"
                continue
            if person.my_turn():
                await person.act(person.random_action(3))
        await person.http("POST", f"/api/tables/{table_id}/resign", {})
        await watch.wait_for(watch.match_over, 120)
        state = watch.state
        assert state is not None
        assert state["table"]["seats"][0]["resigned"] is True and state["table"]["status"] == "finished"
        assert state["match"]["winner"] is not None and len(state["match"]["totals"]) == 4
        # every action of a deal was by the table seat the rotation gave its deal seat
        acted: dict[int, set[int]] = {}
        deal_index = -1
        for message in watch.received:
            event = message.get("event") if message.get("type") == "event" else None
            if event is None:
                continue
            if event["type"] == "deal":
                deal_index = event["index"]
            elif event["type"] == "action":
                acted.setdefault(deal_index, set()).add(event["action"]["seat"])
        rule = FourMatch(first_dealer=state["match"]["first_dealer"])
        for k, deal_seats in acted.items():
            assert deal_seats <= {0, 1, 2}
            assert state["match"]["deal_seats"][k] == list(rule.rotation(k).positions)
        # the player who resigned ranks as one who left; the result is recorded for four seats
        past = await person.http("GET", "/api/me/matches")
        assert [m["table_id"] for m in past["matches"]] == [table_id]
    finally:
        for client in (person, watch):
            await client.close()


@pytest.mark.asyncio
async def test_at_a_table_of_four_a_timed_out_player_is_played_by_a_bot_in_its_deal_seat(
    server: ServerProcess,
) -> None:
    person = GameClient(server.base_url)
    await person.login("Too slow")
    seats = [{"kind": "bot", "level": "random"}, {"kind": "me"}, {"kind": "bot", "level": "random"},
             {"kind": "bot", "level": "random"}]
    body = {"deals": 12, "seats": seats, "seed": 5, "move_seconds": 1}
    table_id = (await person.http("POST", "/api/tables", body))["table_id"]
    await person.connect()
    await person.open_table(table_id)
    try:
        await person.http("POST", f"/api/tables/{table_id}/start", {})
        # the person never acts: on its first turn its time runs out and a bot plays seat 1 from then on
        await person.wait_for(lambda: person.state is not None and person.state["table"]["seats"][1]["away"], 30)
        await person.wait_for(person.match_over, 180)
        state = person.state
        assert state is not None and state["table"]["status"] == "finished"
        assert len(state["match"]["totals"]) == 4 and sum(state["match"]["totals"]) == 0
        by_bot = [
            m["event"]["action"]["seat"] for m in person.received
            if m.get("type") == "event" and m["event"]["type"] == "action" and m["event"].get("by") == "bot"
        ]
        assert by_bot, "no action was played by a bot for the person"
        record = await person.http("GET", f"/api/tables/{table_id}/record")
        marked = [k for k, d in enumerate(record["deals"]) if any(a.get("by") == "bot" for a in d["actions"])]
        # the deals whose record marks actions played by a bot for the person are deals seat 1 played
        assert marked and all(record["deals"][k]["sits_out"] != 1 for k in marked)
        assert score_record(record)["totals"] == state["match"]["totals"]
    finally:
        await person.close()


def test_the_next_deal_does_not_wait_for_the_player_who_sat_the_deal_out() -> None:
    state = TableState("t4")
    state.apply({"type": "created", "host": "p0", "deals": 12, "move_seconds": 0, "seed": 3, "chosen_seed": True,
                 "seats": [{"kind": "open"}] * 4})
    for seat in range(4):
        state.apply(tablerules.join_event(state, f"p{seat}", f"Player {seat}", seat, None))
    for event in tablerules.start_events(state, "p0", False):
        state.apply(event)
    state.apply(tablerules.next_deal_event(state))
    assert tableviews.four_view(state, None) == {"sits_out": 0, "seats": [1, 2, 3], "you_play": None}
    seen = tableviews.view(state, 2)
    four, shown = seen.get("four"), seen["deal"]
    assert four is not None and shown is not None
    assert four["you_play"] == 1 and shown["seat"] == 1
    rng = random.Random(9)
    deal = state.deal
    assert deal is not None
    while (deal_seat := deal.to_move) is not None:  # None: the deal is over
        move = action_to_json(RandomBot(rng).act(deal.seat_view(deal_seat)))
        move.pop("seat")
        state.apply(tablerules.action_event(state, state.table_seat(deal_seat), move, "player"))
    assert state.waiting_for_ready() == [1, 2, 3]  # seat 0 dealt and watched: the next deal does not wait for it
    for seat in (1, 2, 3):
        ready = tablerules.ready_event(state, seat)
        assert ready is not None
        state.apply(ready)
    assert state.waiting_for_ready() == []


@pytest.mark.asyncio
async def test_a_rated_table_of_four_rates_its_four_players_by_their_totals(server: ServerProcess) -> None:
    host = await new_account(server.base_url, "Four rater", bot=False)
    seats = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "heuristic"},
             {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "heuristic"}]
    async with host.web(server.base_url) as web:
        made = await web.post("/api/tables", json={"deals": 12, "seats": seats, "rated": True, "move_seconds": 5})
        assert made.status_code == 200, made.text
        table_id = made.json()["table_id"]
        assert (await web.post(f"/api/tables/{table_id}/start", json={})).status_code == 200

        async def finished() -> bool:
            view = (await web.get(f"/api/tables/{table_id}")).json()
            return bool(view["table"]["status"] == "finished")

        await until(finished, 120, "the table of four's match is over")
        view = (await web.get(f"/api/tables/{table_id}")).json()
    totals = view["match"]["totals"]
    path = server.db_url.split(":///", 1)[1]

    def rows() -> list[tuple[Any, ...]]:
        with sqlite3.connect(path) as conn:
            return conn.execute("SELECT seat, total, rank, rated, rating_before, rating_after FROM match_players "
                                "WHERE table_id = ? ORDER BY seat", (table_id,)).fetchall()

    await until(lambda: _true(len(rows()) == 4), 20, "the result is stored")
    stored = rows()
    assert [r[0] for r in stored] == [0, 1, 2, 3] and [r[1] for r in stored] == totals
    best = max(totals)
    assert [r[2] == 1 for r in stored] == [t == best for t in totals]
    assert all(r[3] and r[4] is not None and r[5] is not None for r in stored)
    assert (stored[totals.index(best)][5] - stored[totals.index(best)][4]) > 0  # the winner gained


async def _true(value: bool) -> bool:
    return value


@pytest.mark.asyncio
async def test_a_bot_api_client_plays_seat_3_of_a_table_of_four_to_the_end(server: ServerProcess) -> None:
    # no move limit: had the bot missed a turn (its deal seat is not its table seat), the match would hang
    bot = await new_account(server.base_url, "Fourth Robo")
    host = GameClient(server.base_url)
    await host.login("Four API host")
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "heuristic"},
             {"kind": "invite"}]
    table_id = (await host.http("POST", "/api/tables", {"deals": 12, "seats": seats, "seed": 39}))["table_id"]
    await host.connect()
    await host.open_table(table_id)
    async with bot.api(server.base_url) as api:
        events = Reader(api, "/api/stream/event").start()
        try:
            # the invitation goes only to a stream already open: its welcome line says it is
            await events.wait_for(lambda r: len(r.messages) >= 1)
            await host.http("POST", f"/api/tables/{table_id}/invite_bot", {"seat": 3, "bot": "Fourth Robo"})
            await events.wait_for(lambda r: any(m["type"] == "invited" for m in r.messages))
            invited = next(m for m in events.messages if m["type"] == "invited")
            joined = await api.post(f"/api/bot/tables/{table_id}/join", json={"seat": 3, "invite": invited["invite"]})
            assert joined.json() == {"seat": 3}
            await host.http("POST", f"/api/tables/{table_id}/start", {})
            seen, _ = await asyncio.wait_for(
                asyncio.gather(play_over_api(api, table_id, seed=39), play_randomly(host, 5, 280)), 300
            )
            record = await host.http("GET", f"/api/tables/{table_id}/record")
        finally:
            await events.stop()
            await host.close()
    states = [m["state"] for m in seen if "state" in m]
    final = states[-1]
    assert final["you"] == 3 and final["match"]["winner"] is not None and final["match"]["deals_played"] >= 12
    assert len(final["match"]["totals"]) == 4 and sum(final["match"]["totals"]) == 0
    # the bot's turns came in deal seats other than its table seat, and none while it sat out
    turns = {(s["deal_index"], s["deal"]["seat"]) for s in states if my_turn(s)}
    assert {seat for _, seat in turns} - {3}, "the bot never played a deal seat other than 3"
    sat_out = {k for k, out in enumerate(final["match"]["sits_out"]) if out == 3}
    assert len(sat_out) >= 3 and not sat_out & {k for k, _ in turns}
    rule = FourMatch(first_dealer=final["match"]["first_dealer"])
    assert all(rule.engine_seat_of(k, 3) == seat for k, seat in turns)
    # every action of the bot's deal seats was its own (none played for it by the built-in bot)
    for k, deal in enumerate(record["deals"]):
        mine = rule.engine_seat_of(k, 3)
        if mine is not None:
            assert all(a.get("by") != "bot" for a in deal["actions"] if a["seat"] == mine)
