"""Hardening: text that cannot be encoded, chosen seeds, oversize and malformed requests, forms from
other sites, abusive names, and quotas. Each test failed on the server as it was before the fix."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.server.conftest import ServerProcess
from tests.server.helpers import three_players
from ulti.client import GameClient, ServerError, play_randomly
from ulti.engine.cards import card_str, iter_cards
from ulti.engine.dealing import deal_hands

SURROGATE_CHAT = '{"type": "chat", "id": "s1", "text": "hi \\ud800"}'  # the JSON escape of a lone surrogate
# A server as in production (quotas, rate limits, secret seeds), but with no waiting.
LIVE_ARGS = ("--bot-delay", "0", "--between-deals", "0", "--disconnect-grace", "60")


@pytest.fixture
def live(server_factory: type[ServerProcess], tmp_path: Path) -> Iterator[ServerProcess]:
    """A server with production settings (no --fast), bots acting at once; its log must hold no traceback."""
    srv = server_factory(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}", args=LIVE_ARGS)
    srv.start(tmp_path / "server.log")
    yield srv
    assert "Traceback" not in (tmp_path / "server.log").read_text()


async def call(srv: ServerProcess, method: str, path: str, *, token: str = "", **kwargs: Any) -> httpx2.Response:
    """One raw HTTP request."""
    headers = kwargs.pop("headers", {})
    if token:
        headers["authorization"] = f"Bearer {token}"
    async with httpx2.AsyncClient(base_url=srv.base_url, timeout=10) as http:
        return await http.request(method, path, headers=headers, **kwargs)


def error_code(response: httpx2.Response) -> str:
    """The error code of a JSON error answer."""
    code: str = response.json()["error"]["code"]
    return code


async def raw_ws(client: GameClient) -> Any:
    """A second raw WebSocket of ``client``'s player."""
    return await connect(client.base_url.replace("http", "ws", 1) + f"/ws?token={client.token}")


async def next_of_type(ws: Any, kind: str, timeout: float = 5) -> dict[str, Any]:
    """The next message of ``kind`` on a raw socket."""
    async with asyncio.timeout(timeout):
        while True:
            message: dict[str, Any] = json.loads(await ws.recv())
            if message["type"] == kind:
                return message


# ---------------------------------------------------------------- 1. text that cannot be encoded


@pytest.mark.asyncio
async def test_a_surrogate_chat_line_is_refused_and_the_table_still_opens_and_plays_after_a_restart(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}"
    srv = server_factory(db_url=db, args=("--fast", "--disconnect-grace", "60"))
    srv.start(tmp_path / "server.log")
    table_id, clients = await three_players(srv.base_url, deals=6, seed=3)
    spectator = GameClient(srv.base_url)
    await spectator.login("Spectator")
    await spectator.connect()
    await spectator.open_table(table_id)
    # before the match: a player and a spectator send the line
    for sender in (clients[1], spectator):
        assert sender.ws is not None
        await sender.ws.send(SURROGATE_CHAT.replace("s1", f"s-{sender.player_id}"))
        # unparsable, so its id is unknown: the error carries none
        error = await sender.wait_for_message(lambda m: m["type"] == "error")
        assert error["type"] == "error" and error["code"] == "bad_json" and "surrogate" in error["message"]
    # everybody is still connected and served
    for client in [*clients, spectator]:
        assert (await client.request({"type": "ping"}))["type"] == "pong"
    response = await call(srv, "GET", f"/api/tables/{table_id}", token=clients[0].token)
    assert response.status_code == 200 and response.json()["chat"] == []
    # the lobby chat refuses it too, and the lobby still works
    assert spectator.ws is not None
    await spectator.ws.send('{"type": "lobby_chat", "id": "l1", "text": "\\udfff lobby"}')
    error = await spectator.wait_for_message(lambda m: m["type"] == "error" and "low surrogate" not in m["message"])
    assert error["code"] == "bad_json" and error["id"] is None
    assert (await spectator.request({"type": "lobby_chat", "text": "still fine"}))["type"] == "ack"
    # text that is valid JSON but holds controls or direction overrides is refused by name
    for text in ("a\u0000b", "\u202eevil", "\u200b\u200b"):
        with pytest.raises(ServerError) as refused:
            await clients[0].request({"type": "chat", "text": text})
        assert refused.value.code == "bad_chat"
    # restart: the table opens and its match plays to the end
    await asyncio.gather(*(c.close() for c in [*clients, spectator]))
    srv.stop()
    again = server_factory(db_url=db, args=("--fast", "--disconnect-grace", "60"))
    again.start(tmp_path / "server2.log")
    for client in clients:
        client.base_url = again.base_url
        await client.connect()
        await client.open_table(table_id)
    await clients[0].http("POST", f"/api/tables/{table_id}/start", {})
    await asyncio.wait_for(asyncio.gather(*(play_randomly(c, 70 + i) for i, c in enumerate(clients))), 300)
    assert clients[0].match_over()
    for log in ("server.log", "server2.log"):
        assert "Traceback" not in (tmp_path / log).read_text()


@pytest.mark.asyncio
async def test_a_table_stored_with_a_surrogate_by_an_older_version_still_loads(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    path = tmp_path / "ulti.db"
    srv = server_factory(db_url=f"sqlite+aiosqlite:///{path}", args=("--fast",))
    srv.start(tmp_path / "server.log")
    table_id, clients = await three_players(srv.base_url, deals=6, seed=9)
    await asyncio.gather(*(c.close() for c in clients))
    srv.stop()
    # what the old server stored: json.dumps escapes the surrogate, so SQLite holds it happily
    with sqlite3.connect(path) as db:
        (seq,) = db.execute("SELECT max(seq) FROM events WHERE table_id = ?", (table_id,)).fetchone()
        body = json.dumps({"type": "chat", "seat": 0, "name": "Player 0", "text": "hi \ud800"})
        db.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (table_id, seq + 1, body, 0))
    again = server_factory(db_url=f"sqlite+aiosqlite:///{path}", args=("--fast",))
    again.start(tmp_path / "server2.log")
    response = await call(again, "GET", f"/api/tables/{table_id}", token=clients[0].token)
    assert response.status_code == 200
    assert response.json()["chat"][-1]["text"] == "hi ?"
    clients[0].base_url = again.base_url
    await clients[0].connect()
    await clients[0].open_table(table_id)
    assert clients[0].state is not None and clients[0].state["chat"][-1]["text"] == "hi ?"
    await clients[0].close()


@pytest.mark.asyncio
async def test_names_and_table_ids_that_cannot_be_encoded_get_a_clear_4xx(live: ServerProcess) -> None:
    response = await call(live, "POST", "/api/session", content=b'{"name": "Eve \\ud800"}',
                          headers={"content-type": "application/json"})
    assert response.status_code == 400 and error_code(response) == "bad_json"
    client = GameClient(live.base_url)
    await client.login("Ann")
    for bad_id in ("%ED%A0%80", "%FF%FE", "caf%C3%A9", "a" * 65, "x%00y"):
        response = await call(live, "GET", f"/api/tables/{bad_id}", token=client.token)
        assert response.status_code in (400, 404) and error_code(response) in ("bad_id", "not_found"), bad_id
        response = await call(live, "POST", f"/api/tables/{bad_id}/join", token=client.token, json={"seat": 1})
        assert response.status_code in (400, 404), bad_id
    await client.connect()
    with pytest.raises(ServerError) as refused:
        await client.request({"type": "open_table", "table": "t\u00e9ble"})
    assert refused.value.code == "bad_id"
    await client.close()


# ---------------------------------------------------------------- 2. the host cannot know the hands


@pytest.mark.asyncio
async def test_a_live_table_refuses_a_chosen_seed_and_deals_from_secret_randomness(
    live: ServerProcess, tmp_path: Path
) -> None:
    host = GameClient(live.base_url)
    await host.login("Host")
    open_seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "level": "random"}]
    with pytest.raises(ServerError) as refused:
        await host.http("POST", "/api/tables", {"deals": 6, "seats": open_seats, "seed": 7})
    assert refused.value.code == "seed_not_allowed" and "practice" in str(refused.value)
    # Two tables made by identical requests are dealt differently, and the hands are not those the
    # table's stored seed would give: nothing the creator sent or received predicts them.
    bots = [{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    hands = []
    for _ in range(2):
        table_id = (await host.http("POST", "/api/tables", {"deals": 6, "seats": bots}))["table_id"]
        await host.http("POST", f"/api/tables/{table_id}/start", {})
        hands.append(await first_deal_hands(tmp_path / "ulti.db", table_id))
        view = await host.http("GET", f"/api/tables/{table_id}")
        assert "seed" not in json.dumps(view)
    assert hands[0] != hands[1]
    for table_id, dealt in zip(await table_ids(tmp_path / "ulti.db"), hands, strict=True):
        seed, dealer = await seed_and_dealer(tmp_path / "ulti.db", table_id)
        from_seed = [[card_str(c) for c in iter_cards(h)] for h in deal_hands(random.Random(f"{seed}:0"), dealer)]
        assert dealt != from_seed
    await host.close()


@pytest.mark.asyncio
async def test_a_practice_table_may_choose_its_seed_but_nobody_else_may_sit_there(live: ServerProcess) -> None:
    host, stranger = GameClient(live.base_url), GameClient(live.base_url)
    await host.login("Host")
    await stranger.login("Stranger")
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table_id = (await host.http("POST", "/api/tables", {"deals": 6, "seats": seats, "seed": 7}))["table_id"]
    # the host stands up: the seat opens, but only the host may take it back
    await host.http("POST", f"/api/tables/{table_id}/leave", {})
    with pytest.raises(ServerError) as refused:
        await stranger.http("POST", f"/api/tables/{table_id}/join", {"seat": 0})
    assert refused.value.code == "practice_table"
    assert (await host.http("POST", f"/api/tables/{table_id}/join", {"seat": 0}))["seat"] == 0


async def table_ids(path: Path) -> list[str]:
    """The store's table ids, oldest first."""
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute("SELECT id FROM tables ORDER BY created_at")]


async def first_deal_hands(path: Path, table_id: str) -> list[list[str]]:
    """The hands of a table's first deal, as stored."""
    with sqlite3.connect(path) as db:
        for (body,) in db.execute("SELECT body FROM events WHERE table_id = ? ORDER BY seq", (table_id,)):
            event = json.loads(body)
            if event["type"] == "deal":
                hands: list[list[str]] = event["hands"]
                return hands
    raise AssertionError("no deal stored")


async def seed_and_dealer(path: Path, table_id: str) -> tuple[int, int]:
    """A table's stored seed and first dealer."""
    seed = dealer = -1
    with sqlite3.connect(path) as db:
        for (body,) in db.execute("SELECT body FROM events WHERE table_id = ? ORDER BY seq", (table_id,)):
            event = json.loads(body)
            if event["type"] == "created":
                seed = event["seed"]
            if event["type"] == "start":
                dealer = event["first_dealer"]
    return seed, dealer


# ---------------------------------------------------------------- 5. errors that cost more than the request


@pytest.mark.asyncio
async def test_deep_wide_and_huge_input_gets_a_clear_error_and_no_traceback(live: ServerProcess) -> None:
    client = GameClient(live.base_url)
    await client.login("Prober")
    await client.connect()
    assert client.ws is not None
    deep = "[" * 1500 + "]" * 1500  # under 4 KB, deeper than Python's recursion limit
    await client.ws.send('{"type": "ping", "id": "d1", "x": ' + deep + "}")
    error = await client.wait_for_message(lambda m: m.get("type") == "error" and m.get("code") != "rate_limited")
    assert error["code"] in ("too_deep", "bad_json") and "nest" in error["message"] + "depth"
    # an id wider than 64 bits is refused by name, and the socket stays open
    await client.ws.send('{"type": "ping", "id": 123456789012345678901234567890}')
    error = await client.wait_for_message(lambda m: "64" in str(m.get("message", "")))
    assert error["code"] == "bad_message"
    assert (await client.request({"type": "ping"}))["type"] == "pong"
    # over HTTP: deep bodies, a 20 MiB body, non-ASCII and huge tokens
    response = await call(live, "POST", "/api/session", content=('{"name": ' + deep + "}").encode(),
                          headers={"content-type": "application/json"})
    assert response.status_code == 400 and error_code(response) in ("too_deep", "bad_json")
    started = time.monotonic()
    response = await call(live, "POST", "/api/tables", token=client.token, content=b"x" * (20 * 2**20),
                          headers={"content-type": "application/json"})
    assert response.status_code == 413 and error_code(response) == "too_large"
    assert time.monotonic() - started < 5
    for token in ("caf\u00e9.abc", "x" * 10240):
        response = await call(live, "GET", "/api/me", headers={"authorization": f"Bearer {token}".encode()})
        assert response.status_code == 401 and error_code(response) == "unauthorized"
    # a 10 KiB token in the WebSocket handshake is refused at once (it used to hang)
    started = time.monotonic()
    with pytest.raises(InvalidStatus) as handshake:
        async with asyncio.timeout(5):
            await connect(live.base_url.replace("http", "ws", 1) + "/ws?token=" + "a" * 10240)
    assert handshake.value.response.status_code in (400, 403, 414)
    assert time.monotonic() - started < 5
    await client.close()
    log = live.log_path.read_text() if live.log_path else ""
    assert "Traceback" not in log and "RecursionError" not in log


# ---------------------------------------------------------------- 6. forms from other sites


@pytest.mark.asyncio
async def test_cookie_requests_need_json_and_this_sites_origin(live: ServerProcess) -> None:
    host = GameClient(live.base_url)
    await host.login("Host")
    table_id = (await host.http("POST", "/api/tables", {"deals": 6, "seats": [{"kind": "me"}, {"kind": "open"},
                                                                               {"kind": "open"}]}))["table_id"]
    async with httpx2.AsyncClient(base_url=live.base_url, timeout=10) as browser:
        # the victim's browser holds a session cookie
        response = await browser.post("/api/session", json={"name": "Victim"}, headers={"origin": live.base_url})
        assert response.status_code == 200
        path = f"/api/tables/{table_id}/join"
        # a form of another site: text/plain, no preflight
        response = await browser.post(path, content=b'{"seat": 1}', headers={"content-type": "text/plain",
                                                                             "origin": "https://evil.example"})
        assert response.status_code == 415 and error_code(response) == "bad_content_type"
        # JSON from another origin, or with no origin at all
        for headers in ({"origin": "https://evil.example"}, {}):
            response = await browser.post(path, json={"seat": 1}, headers=headers)
            assert response.status_code == 403 and error_code(response) == "bad_origin"
        # an Authorization that is not a bearer token (a proxy's Basic credentials, which browsers
        # attach by themselves) leaves the cookie in charge: the origin is still checked
        response = await browser.post(path, json={"seat": 1}, headers={"origin": "https://evil.example",
                                                                       "authorization": "Basic eDp5"})
        assert response.status_code == 403 and error_code(response) == "bad_origin"
        # the cookie spelled with a space before '=' is still the cookie
        cookie = browser.cookies["ulti_session"]
        async with httpx2.AsyncClient(base_url=live.base_url, timeout=10) as raw:
            response = await raw.post(path, json={"seat": 1}, headers={"origin": "https://evil.example",
                                                                       "cookie": f"ulti_session ={cookie}"})
        assert response.status_code == 403 and error_code(response) == "bad_origin"
        view = await host.http("GET", f"/api/tables/{table_id}")
        assert view["table"]["seats"][1]["kind"] == "open"  # nobody was seated
        # from this site, the same request is served
        response = await browser.post(path, json={"seat": 1}, headers={"origin": live.base_url})
        assert response.status_code == 200 and response.json() == {"seat": 1}


# ---------------------------------------------------------------- 7. names people can abuse


@pytest.mark.asyncio
async def test_names_are_normalised_and_abusive_ones_refused(live: ServerProcess) -> None:
    for bad in ("Ann\u0000", "\u202eTrebor", "\u200b\u200c", "\u200bAnn", "KS", "10H", "\u2660 Ace", "Bot (strong)",
                "bot", "Deleted player", "   ", "x" * 33, "..."):
        response = await call(live, "POST", "/api/session", json={"name": bad})
        assert response.status_code == 400 and error_code(response) == "bad_name", bad
        assert "name" in response.json()["error"]["message"]
    response = await call(live, "POST", "/api/session", json={"name": "  E\u0301va   Kiss "})  # decomposed É
    assert response.status_code == 200 and response.json()["player"]["name"] == "\u00c9va Kiss"
    # a name that reads as a seated player's (Cyrillic А for Latin A, or the same name) cannot sit beside it
    host, twin, same = GameClient(live.base_url), GameClient(live.base_url), GameClient(live.base_url)
    await host.login("Anna")
    await twin.login("\u0410nna")
    await same.login("anna")
    seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]
    table_id = (await host.http("POST", "/api/tables", {"deals": 6, "seats": seats}))["table_id"]
    for other in (twin, same):
        with pytest.raises(ServerError) as refused:
            await other.http("POST", f"/api/tables/{table_id}/join", {"seat": 1})
        assert refused.value.code == "name_taken"


# ---------------------------------------------------------------- 3. quotas


@pytest.mark.asyncio
async def test_sessions_connections_and_tables_are_limited_with_a_time_to_retry(live: ServerProcess) -> None:
    statuses = [(await call(live, "POST", "/api/session", json={"name": f"Guest {i}"})) for i in range(31)]
    assert all(r.status_code == 200 for r in statuses[:30])
    assert statuses[30].status_code == 429 and error_code(statuses[30]) == "rate_limited"
    assert "try again in" in statuses[30].json()["error"]["message"]
    token = statuses[0].json()["token"]
    client = GameClient(live.base_url)
    client.token = token
    # eight sockets per player; the ninth is told why and closed
    sockets = [await raw_ws(client) for _ in range(8)]
    extra = await raw_ws(client)
    refusal = await next_of_type(extra, "error")
    assert refusal["code"] == "too_many_connections"
    await extra.close()
    await sockets.pop().close()
    await asyncio.sleep(0.2)
    replacement = await raw_ws(client)
    assert (await next_of_type(replacement, "welcome"))["player"]["id"] == statuses[0].json()["player"]["id"]
    for ws in [*sockets, replacement]:
        await ws.close()
    # tables: 20 an hour per player
    bots = [{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    codes = []
    for _ in range(21):
        response = await call(live, "POST", "/api/tables", token=token, json={"deals": 6, "seats": bots})
        codes.append(response.status_code)
    assert codes[:20] == [200] * 20 and codes[20] == 429
