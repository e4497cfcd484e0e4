"""The HTTP API and the lobby: sessions, creating and filling tables, starting, chat, spectators, records."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx2
import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import three_players
from ulti.bots.random_bot import RandomBot
from ulti.client import GameClient, ServerError
from ulti.engine.record import action_to_json, deal_from_record
from ulti.engine.view import SeatView

ME = {"kind": "me"}
OPEN = {"kind": "open"}


async def call(srv: ServerProcess, method: str, path: str, body: Any = None, token: str = "",
               raw: bytes | None = None) -> tuple[int, Any]:
    """An HTTP request; the status and the JSON answer (errors too)."""
    headers = {"authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(base_url=srv.base_url, timeout=10) as http:
        if raw is not None:
            response = await http.request(method, path, content=raw,
                                          headers={**headers, "content-type": "application/json"})
        else:
            response = await http.request(method, path, json=body, headers=headers)
    return response.status_code, response.json()


async def player(srv: ServerProcess, name: str, connect: bool = False) -> GameClient:
    client = GameClient(srv.base_url)
    await client.login(name)
    if connect:
        await client.connect()
    return client


async def refused(client: GameClient, method: str, path: str, body: Any = None) -> ServerError:
    """The error a request is refused with (fails if it is accepted)."""
    with pytest.raises(ServerError) as error:
        await client.http(method, path, body)
    return error.value


async def move(client: GameClient) -> None:
    """A random legal move for the client's seat (it must be its turn)."""
    assert client.state is not None and client.my_turn()
    await client.act(client.random_action())


async def play_until(clients: list[GameClient], done: Any, limit: int = 2000) -> None:
    """Whoever is on turn moves until ``done()``."""
    for _ in range(limit):
        if done():
            return
        await clients[0].wait_for(lambda: done() or any(c.my_turn() for c in clients), 10)
        for client in clients:
            if client.my_turn() and not done():
                await move(client)
                seq = client.seq
                await asyncio.gather(*(c.wait_for(lambda c=c, s=seq: c.seq >= s, 10) for c in clients))
                break
    assert done()


# ---------------------------------------------------------------- sessions


@pytest.mark.asyncio
async def test_sessions_and_bad_names(server: ServerProcess) -> None:
    status, body = await call(server, "POST", "/api/session", {"name": "  Éva  "})
    assert status == 200 and body["player"]["name"] == "Éva" and body["token"]
    status, me = await call(server, "GET", "/api/me", token=body["token"])
    assert status == 200 and me == {"id": body["player"]["id"], "name": "Éva", "kind": "guest"}
    # the cookie works as well as the bearer token
    async with httpx2.AsyncClient(base_url=server.base_url) as http:
        response = await http.post("/api/session", json={"name": "Cookie"})
        assert "ulti_session" in response.cookies
        assert (await http.get("/api/me")).json()["name"] == "Cookie"
    for bad in ("", "   ", "x" * 33, None, 17, ["Ann"]):
        status, body = await call(server, "POST", "/api/session", {"name": bad})
        assert status == 400 and body["error"]["code"] == "bad_name", bad
        assert "name" in body["error"]["message"]
    status, body = await call(server, "POST", "/api/session", raw=b"{not json")
    assert status >= 400 and body["error"]["code"] == "bad_json"
    status, body = await call(server, "POST", "/api/session", ["Ann"])
    assert status >= 400 and body["error"]["code"] == "bad_request" and "object" in body["error"]["message"]
    status, body = await call(server, "GET", "/api/me")
    assert status == 401 and body["error"]["code"] == "unauthorized"
    status, body = await call(server, "GET", "/api/me", token="abc.def")
    assert status == 401


# ---------------------------------------------------------------- creating, joining, leaving, bots, start


@pytest.mark.asyncio
async def test_create_tables_with_each_seat_kind_and_refuse_bad_configs(server: ServerProcess) -> None:
    host = await player(server, "Host")
    seats = [ME, {"kind": "invite"}, {"kind": "bot", "level": "random"}]
    table = await host.http("POST", "/api/tables", {"deals": 9, "move_seconds": 30, "seats": seats})
    assert set(table["invites"]) == {"1"} and len(table["invites"]["1"]) >= 16
    view = await host.http("GET", f"/api/tables/{table['table_id']}")
    assert view["you"] == 0 and view["table"]["status"] == "open" and view["deal"] is None
    assert [s["kind"] for s in view["table"]["seats"]] == ["player", "invite", "bot"]
    assert view["table"]["seats"][0]["name"] == "Host"
    assert view["table"]["seats"][2]["level"] == "random"
    assert view["table"]["deals_planned"] == 9 and view["table"]["move_seconds"] == 30
    # nobody but the host (who may fetch it again) and the invited learns the invite token
    lobby = await host.http("GET", "/api/tables")
    assert view.pop("invites") == table["invites"]
    assert table["invites"]["1"] not in str(view) and table["invites"]["1"] not in str(lobby)
    # a table without "me": the host does not sit; a bot without a level is a heuristic bot
    other = await host.http("POST", "/api/tables", {"deals": 6, "seats": [OPEN, {"kind": "bot"}, OPEN]})
    view = await host.http("GET", f"/api/tables/{other['table_id']}")
    assert view["you"] is None
    assert [(s["kind"], s["level"]) for s in view["table"]["seats"]] == [("open", None), ("bot", "heuristic"),
                                                                        ("open", None)]
    lobby = await host.http("GET", "/api/tables")
    assert [t["table_id"] for t in lobby["tables"]] == [other["table_id"], table["table_id"]]

    bad_configs: list[tuple[dict[str, Any], str]] = [
        ({"deals": 7, "seats": [ME, OPEN, OPEN]}, "deals"),
        ({"deals": "6", "seats": [ME, OPEN, OPEN]}, "deals"),
        ({"seats": [ME, OPEN, OPEN]}, "deals"),
        ({"deals": 6, "move_seconds": -1, "seats": [ME, OPEN, OPEN]}, "move_seconds"),
        ({"deals": 6, "move_seconds": 601, "seats": [ME, OPEN, OPEN]}, "move_seconds"),
        ({"deals": 6, "move_seconds": 1.5, "seats": [ME, OPEN, OPEN]}, "move_seconds"),
        ({"deals": 6, "seats": [ME, OPEN, OPEN, OPEN, OPEN]}, "seats"),
        ({"deals": 6, "seats": [ME, OPEN, OPEN, OPEN]}, "deals"),  # a table of four plays 12 deals
        ({"deals": 6, "seats": [ME, OPEN]}, "seats"),
        ({"deals": 6, "seats": "me,open,open"}, "seats"),
        ({"deals": 6, "seats": [ME, {"kind": "robot"}, OPEN]}, "seats[1].kind"),
        ({"deals": 6, "seats": [ME, "open", OPEN]}, "seats[1].kind"),
        ({"deals": 6, "seats": [ME, OPEN, {"kind": "bot", "level": "genius"}]}, "seats[2].level"),
        ({"deals": 6, "seats": [ME, ME, OPEN]}, "me"),
        ({"deals": 6, "seats": [ME, OPEN, OPEN], "seed": -1}, "seed"),
        ({"deals": 6, "seats": [ME, OPEN, OPEN], "seed": "42"}, "seed"),
    ]
    for config, field in bad_configs:
        status, body = await call(server, "POST", "/api/tables", config, host.token)
        assert status >= 400 and body["error"]["code"] == "bad_config", config
        assert field in body["error"]["message"], (config, body)
    status, body = await call(server, "POST", "/api/tables", {"deals": 6, "seats": [ME, OPEN, OPEN]})
    assert status == 401
    # none of the refused requests made a table
    assert len((await host.http("GET", "/api/tables"))["tables"]) == 2


@pytest.mark.asyncio
async def test_join_leave_taken_and_reserved_seats(server: ServerProcess) -> None:
    host, ann, bob, cid = [await player(server, n) for n in ("Host", "Ann", "Bob", "Cid")]
    table = await host.http("POST", "/api/tables", {"deals": 6, "seats": [ME, OPEN, {"kind": "invite"}]})
    table_id, invite = table["table_id"], table["invites"]["2"]
    path = f"/api/tables/{table_id}"
    assert (await ann.http("POST", f"{path}/join", {"seat": 1})) == {"seat": 1}
    assert (await refused(bob, "POST", f"{path}/join", {"seat": 1})).code == "seat_taken"
    assert (await refused(bob, "POST", f"{path}/join", {"seat": 0})).code == "seat_taken"
    assert (await refused(ann, "POST", f"{path}/join", {"seat": 2, "invite": invite})).code == "already_seated"
    for bad_seat in (3, -1, "1", None, 1.0, True):
        error = await refused(bob, "POST", f"{path}/join", {"seat": bad_seat})
        assert error.code == "bad_request" and "seat" in str(error)
    # the reserved seat needs its invite token
    for wrong in (None, "", "nope", invite + "x"):
        error = await refused(bob, "POST", f"{path}/join", {"seat": 2, "invite": wrong})
        assert error.code == "reserved" and "invite" in str(error)
    status, _ = await call(server, "POST", f"{path}/join", {"seat": 2}, bob.token)
    assert status == 403
    assert (await refused(bob, "POST", "/api/tables/nosuchtable/join", {"seat": 1})).code == "not_found"
    assert (await bob.http("POST", f"{path}/join", {"seat": 2, "invite": invite})) == {"seat": 2}
    view = await host.http("GET", path)
    assert [s["name"] for s in view["table"]["seats"]] == ["Host", "Ann", "Bob"]
    # leaving frees the seat for someone else
    assert (await refused(cid, "POST", f"{path}/leave", {})).code == "not_seated"
    await ann.http("POST", f"{path}/leave", {})
    assert (await ann.http("GET", path))["you"] is None
    assert (await cid.http("POST", f"{path}/join", {"seat": 1})) == {"seat": 1}
    view = await host.http("GET", path)
    assert [s["name"] for s in view["table"]["seats"]] == ["Host", "Cid", "Bob"]
    # after the start seats are fixed
    await host.http("POST", f"{path}/start", {})
    assert (await refused(bob, "POST", f"{path}/leave", {})).code == "table_started"
    assert (await refused(ann, "POST", f"{path}/join", {"seat": 1})).code == "table_started"


@pytest.mark.asyncio
async def test_only_the_host_adds_bots_and_starts_and_empty_seats_need_fill_bots(server: ServerProcess) -> None:
    host, guest = await player(server, "Host"), await player(server, "Guest")
    table = await host.http("POST", "/api/tables", {"deals": 6, "seats": [ME, OPEN, OPEN]})
    path = f"/api/tables/{table['table_id']}"
    await guest.http("POST", f"{path}/join", {"seat": 1})
    error = await refused(guest, "POST", f"{path}/bot", {"seat": 2, "level": "random"})
    assert error.code == "not_host" and "host" in str(error)
    status, _ = await call(server, "POST", f"{path}/bot", {"seat": 2}, guest.token)
    assert status == 403
    assert (await refused(host, "POST", f"{path}/bot", {"seat": 1})).code == "seat_taken"
    assert (await refused(host, "POST", f"{path}/bot", {"seat": 2, "level": "god"})).code == "bad_request"
    assert (await refused(host, "POST", f"{path}/bot", {"seat": 5})).code == "bad_request"
    assert (await refused(guest, "POST", f"{path}/start", {})).code == "not_host"
    error = await refused(host, "POST", f"{path}/start", {})
    assert error.code == "seats_empty" and "[2]" in str(error)
    view = await host.http("GET", path)
    assert view["table"]["status"] == "open" and view["seq"] == 3  # created, sit, sit: nothing else happened
    await host.http("POST", f"{path}/bot", {"seat": 2, "level": "random"})
    await host.http("POST", f"{path}/start", {})
    view = await host.http("GET", path)
    assert view["table"]["status"] == "playing" and view["deal_index"] == 0
    assert (await refused(host, "POST", f"{path}/start", {})).code == "table_started"
    assert (await refused(host, "POST", f"{path}/bot", {"seat": 2})).code == "table_started"
    # fill_bots: the open seats get heuristic bots at the start; a seat kept for an invited friend
    # does not (the start is refused) unless the host seats a bot there
    table = await host.http("POST", "/api/tables", {"deals": 6, "seats": [OPEN, ME, {"kind": "invite"}]})
    path = f"/api/tables/{table['table_id']}"
    error = await refused(host, "POST", f"{path}/start", {"fill_bots": True})
    assert error.code == "invite_pending" and "[2]" in str(error)
    view = await host.http("GET", path)
    assert view["table"]["status"] == "open" and view["table"]["seats"][2]["kind"] == "invite"
    await host.http("POST", f"{path}/bot", {"seat": 2, "level": "strong"})
    await host.http("POST", f"{path}/start", {"fill_bots": True})
    view = await host.http("GET", path)
    assert view["table"]["status"] == "playing"
    assert [(s["kind"], s["level"]) for s in view["table"]["seats"]] == [("bot", "heuristic"), ("player", None),
                                                                        ("bot", "strong")]


# ---------------------------------------------------------------- the live lobby and its chat


@pytest.mark.asyncio
async def test_lobby_watchers_see_tables_change_and_chat(server: ServerProcess) -> None:
    ann, bob, host, guest = [await player(server, n, connect=True) for n in ("Ann", "Bob", "Host", "Guest")]
    for watcher in (ann, bob):
        await watcher.send({"type": "watch_lobby"})
        await watcher.wait_for(lambda w=watcher: any(m["type"] == "lobby" for m in w.received))
    first = next(m for m in ann.received if m["type"] == "lobby")
    assert first["tables"] == [] and first["chat"] == []

    def latest(client: GameClient) -> list[dict[str, Any]]:
        # the first `lobby` message, then each `lobby_update` applied to it (GameClient.lobby)
        assert client.lobby is not None
        return client.lobby

    table = await host.http("POST", "/api/tables", {"deals": 6, "seats": [ME, OPEN, OPEN]})
    table_id = table["table_id"]
    await ann.wait_for(lambda: [t["table_id"] for t in latest(ann)] == [table_id], 5)
    assert latest(ann)[0]["seats"][0]["name"] == "Host"
    await guest.http("POST", f"/api/tables/{table_id}/join", {"seat": 2})
    await bob.wait_for(lambda: latest(bob) and latest(bob)[0]["seats"][2]["name"] == "Guest", 5)
    await host.http("POST", f"/api/tables/{table_id}/start", {"fill_bots": True})
    await ann.wait_for(lambda: latest(ann)[0]["status"] == "playing", 5)
    assert latest(ann)[0]["seats"][1]["kind"] == "bot"
    # chat lines reach every lobby watcher (not the others), and a late watcher gets the history
    await ann.request({"type": "lobby_chat", "text": "  anyone for a 9-deal match?  "})
    await bob.wait_for(lambda: any(m["type"] == "lobby_chat" for m in bob.received), 5)
    line = next(m for m in bob.received if m["type"] == "lobby_chat")["line"]
    assert line == {"name": "Ann", "text": "anyone for a 9-deal match?"}
    await host.request({"type": "ping"})
    assert not any(m["type"] in ("lobby", "lobby_chat") for m in host.received)
    await host.send({"type": "watch_lobby"})
    await host.wait_for(lambda: any(m["type"] == "lobby" for m in host.received), 5)
    assert next(m for m in host.received if m["type"] == "lobby")["chat"] == [line]
    with pytest.raises(ServerError) as error:
        await bob.request({"type": "lobby_chat", "text": "x" * 301})
    assert error.value.code == "bad_chat"
    for client in (ann, bob, host, guest):
        await client.close()


# ---------------------------------------------------------------- table chat, spectators


@pytest.mark.asyncio
async def test_table_chat_is_free_before_the_match_and_phrases_only_during_a_deal(server: ServerProcess) -> None:
    table_id, clients = await three_players(server.base_url, deals=6, seed=5)
    watcher = await player(server, "Watcher", connect=True)
    await watcher.open_table(table_id)
    ack = await clients[1].request({"type": "chat", "text": "Shall we start?"})
    await watcher.wait_for(lambda: watcher.seq >= ack["seq"], 5)
    assert watcher.state is not None
    assert watcher.state["chat"][-1] == {"seat": 1, "name": "Player 1", "text": "Shall we start?"}
    chat_event = next(m for m in watcher.received if m["type"] == "event" and m["event"]["type"] == "chat")
    assert chat_event["event"]["text"] == "Shall we start?"
    for bad in ("", "   ", "y" * 301, 5):
        with pytest.raises(ServerError) as error:
            await clients[1].request({"type": "chat", "text": bad})
        assert error.value.code == "bad_chat"
    await clients[0].http("POST", f"/api/tables/{table_id}/start", {})
    await asyncio.gather(*(c.wait_for(lambda c=c: c.state is not None and c.state["deal"] is not None)
                           for c in clients))
    seq = clients[0].seq
    for client in (*clients, watcher):
        with pytest.raises(ServerError) as error:
            await client.request({"type": "chat", "text": "I have the ace of hearts"})
        assert error.value.code == "chat_closed" and "phrase" in str(error.value)
    with pytest.raises(ServerError) as error:
        await clients[2].request({"type": "chat", "phrase": "my_hand_is_great"})
    assert error.value.code == "bad_chat" and "well_played" in str(error.value)
    assert (await clients[0].http("GET", f"/api/tables/{table_id}"))["seq"] == seq
    ack = await clients[2].request({"type": "chat", "phrase": "good_luck"})
    assert ack["seq"] == seq + 1
    await clients[0].wait_for(lambda: clients[0].seq == seq + 1, 5)
    assert clients[0].state is not None
    assert clients[0].state["chat"][-1] == {"seat": 2, "name": "Player 2", "phrase": "good_luck"}  # a key, no English
    for client in (*clients, watcher):
        await client.close()


@pytest.mark.asyncio
async def test_spectators_see_the_table_but_cannot_act(server: ServerProcess) -> None:
    table_id, clients = await three_players(server.base_url, deals=6, seed=8)
    await clients[0].http("POST", f"/api/tables/{table_id}/start", {})
    watcher = await player(server, "Watcher", connect=True)
    await watcher.open_table(table_id)
    assert watcher.state is not None and watcher.state["you"] is None
    assert watcher.state["deal"]["hands"] == {} and "choices" not in watcher.state["deal"]
    await asyncio.gather(*(c.wait_for(lambda c=c: c.seq == watcher.seq) for c in clients))
    (mover,) = [c for c in clients if c.my_turn()]
    assert mover.state is not None
    legal = action_to_json(RandomBot(random.Random(1)).act(SeatView.from_json(mover.state["deal"])))
    legal.pop("seat")
    for action in (legal, {**legal, "seat": mover.state["you"]}):
        with pytest.raises(ServerError) as error:
            await watcher.act(action)
        assert error.value.code == "not_seated" and "spectator" in str(error.value)
    with pytest.raises(ServerError) as error:
        await watcher.request({"type": "back"})
    assert error.value.code == "not_seated"
    assert (await watcher.http("GET", f"/api/tables/{table_id}"))["seq"] == watcher.seq
    # the seated player's same move is accepted
    await mover.act(legal)
    await watcher.wait_for(lambda: watcher.seq == mover.seq, 5)
    # and a player who has not opened the table cannot act either
    stranger = await player(server, "Stranger", connect=True)
    with pytest.raises(ServerError) as error:
        await stranger.act(legal)
    assert error.value.code == "no_table"
    for client in (*clients, watcher, stranger):
        await client.close()


# ---------------------------------------------------------------- records and past matches


@pytest.mark.asyncio
async def test_records_hold_finished_deals_only_and_players_find_their_tables(server: ServerProcess) -> None:
    table_id, clients = await three_players(server.base_url, deals=6, seed=21)
    path = f"/api/tables/{table_id}"
    status, body = await call(server, "GET", f"{path}/record")
    assert status == 404 and body["error"]["code"] == "not_found"
    await clients[0].http("POST", f"{path}/start", {})
    await clients[0].wait_for(lambda: clients[0].state is not None and clients[0].state["deal"] is not None)
    for index in (0, 1, -1, 99):
        status, body = await call(server, "GET", f"{path}/deals/{index}/record")
        assert status == 404 and "not finished" in body["error"]["message"], index
    status, body = await call(server, "GET", f"{path}/deals/x/record")
    assert status == 400 and body["error"]["code"] == "bad_request" and "index" in body["error"]["message"]
    record = await clients[0].http("GET", f"{path}/record")
    assert record["deals"] == [] and record["deals_planned"] == 6
    assert record["players"] == ["Player 0", "Player 1", "Player 2"]

    def second_deal_begun() -> bool:
        return all(c.state is not None and c.state["deal_index"] == 1 for c in clients)

    await play_until(clients, second_deal_begun)
    record = await clients[0].http("GET", f"{path}/record")
    assert len(record["deals"]) == 1
    deal_record = await clients[1].http("GET", f"{path}/deals/0/record")
    assert record["deals"][0] == deal_record
    assert deal_from_record(deal_record).is_over
    status, body = await call(server, "GET", f"{path}/deals/1/record")
    assert status == 404
    status, body = await call(server, "GET", "/api/tables/nosuchtable/record")
    assert status == 404 and body["error"]["code"] == "not_found"
    # each player finds the table among theirs, with its seat; others do not
    for seat, client in enumerate(clients):
        mine = (await client.http("GET", "/api/me/matches"))["matches"]
        assert [(m["table_id"], m["seat"], m["status"]) for m in mine] == [(table_id, seat, "playing")]
    stranger = await player(server, "Stranger")
    assert (await stranger.http("GET", "/api/me/matches")) == {"matches": []}
    other = await clients[1].http("POST", "/api/tables", {"deals": 9, "seats": [OPEN, ME, OPEN]})
    mine = (await clients[1].http("GET", "/api/me/matches"))["matches"]
    assert [(m["table_id"], m["seat"]) for m in mine] == [(other["table_id"], 1), (table_id, 1)]
    assert mine[0]["summary"]["deals_planned"] == 9 and mine[0]["status"] == "open"
    status, _ = await call(server, "GET", "/api/me/matches")
    assert status == 401
    for client in clients:
        await client.close()
