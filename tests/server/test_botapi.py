"""The bot API (docs/bot-api.md) against a real server process: tokens, bot accounts, streams, acts, limits."""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.server.botapi_helpers import SCOPES, Reader, new_account, play_over_api
from tests.server.conftest import ServerProcess
from tests.server.test_no_leak import Watcher, card_strings, leaks, records_of, timeline
from ulti.client import GameClient, ServerError, play_randomly
from ulti.server.throttle import Quotas


async def host_table(base: str, seats: list[dict[str, Any]], **config: Any) -> tuple[GameClient, str]:
    """A guest host connected by WebSocket at a new table with ``seats`` (the host takes its "me" seat)."""
    host = GameClient(base)
    await host.login("Host")
    table = await host.http("POST", "/api/tables", {"deals": 6, "seats": seats, **config})
    await host.connect()
    await host.open_table(table["table_id"])
    return host, table["table_id"]


async def seq_of(base: str, table: str) -> int:
    """The table's latest event number, as a spectator reads it."""
    viewer = GameClient(base)
    await viewer.login("Viewer")
    return int((await viewer.http("GET", f"/api/tables/{table}"))["seq"])


# ---------------------------------------------------------------- tokens


@pytest.mark.asyncio
async def test_tokens_are_shown_once_stored_as_hashes_listed_and_revoked(server: ServerProcess, tmp_path: Path) -> None:
    robo = await new_account(server.base_url, "Robo", bot=False)
    async with robo.web(server.base_url) as web, robo.api(server.base_url) as api:
        listed = (await web.get("/api/account/tokens")).json()
        assert listed["bot"] is False
        [entry] = listed["tokens"]
        assert entry["id"] == robo.token_id and entry["name"] == "test" and entry["scopes"] == SCOPES
        assert "token" not in entry and entry["created_at"] > 0 and entry["last_used_at"] is None
        assert (await api.get("/api/bot/account")).json() == {
            "id": robo.player_id, "name": "Robo", "bot": False, "scopes": SCOPES
        }
        assert (await web.get("/api/account/tokens")).json()["tokens"][0]["last_used_at"] is not None
        # stored only as its SHA-256: the database file holds no token
        database = sqlite3.connect(tmp_path / "ulti.db")
        keys = [row[0] for row in database.execute("SELECT key FROM api_tokens")]
        database.close()
        assert keys == [hashlib.sha256(robo.token.encode()).hexdigest()]
        assert robo.token.encode() not in b"".join(p.read_bytes() for p in tmp_path.glob("ulti.db*"))
        # a token opens the bot API only: not the web routes, not token making, not the WebSocket
        assert (await api.get("/api/me")).status_code == 401
        assert (await api.post("/api/account/tokens", json={"name": "x", "scopes": SCOPES})).status_code == 401
        # bad requests for tokens
        for body in ({"name": "x", "scopes": ["admin"]}, {"name": "", "scopes": SCOPES}, {"name": "x", "scopes": []}):
            refused = await web.post("/api/account/tokens", json=body)
            assert (refused.status_code, refused.json()["error"]["code"]) == (400, "bad_request")
        # a stream of the token closes when it is revoked, and the token is refused from then on
        events = Reader(api, "/api/stream/event").start()
        await events.wait_for(lambda r: len(r.messages) >= 1)
        revoked = await web.delete(f"/api/account/tokens/{robo.token_id}")
        assert revoked.json() == {"ok": True, "streams_ended": 1}
        await events.wait_for(lambda r: r.ended, 10)
        assert events.messages[-1]["code"] == "token_revoked"
        refused = await api.get("/api/bot/account")
        assert (refused.status_code, refused.json()["error"]["code"]) == (401, "unauthorized")
        assert (await web.get("/api/account/tokens")).json()["tokens"] == []
        assert (await web.delete(f"/api/account/tokens/{robo.token_id}")).status_code == 404
    guest = GameClient(server.base_url)
    await guest.login("Guest")
    with pytest.raises(ServerError, match="not_account"):
        await guest.http("POST", "/api/account/tokens", {"name": "x", "scopes": SCOPES})


@pytest.mark.asyncio
async def test_a_token_without_bot_play_cannot_act_join_or_upgrade(server: ServerProcess) -> None:
    bot = await new_account(server.base_url, "Player Robo")
    reader = await new_account(server.base_url, "Reader", scopes=["table:read"], bot=False)
    host, table = await host_table(server.base_url, [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}])
    async with bot.api(server.base_url) as api, reader.api(server.base_url) as read_only:
        assert (await api.post(f"/api/bot/tables/{table}/join", json={"seat": 1})).json() == {"seat": 1}
        await host.http("POST", f"/api/tables/{table}/start", {})
        for path, body in ((f"/api/bot/tables/{table}/act", {"action": {"action": "pass"}}),
                           (f"/api/bot/tables/{table}/join", {"seat": 1}),
                           (f"/api/bot/tables/{table}/chat", {"phrase": "hello"}),
                           ("/api/bot/account/upgrade", {})):
            refused = await read_only.post(path, json=body)
            assert (refused.status_code, refused.json()["error"]["code"]) == (403, "missing_scope"), path
        # table:read may watch (here as a spectator: it holds no seat)
        stream = Reader(read_only, f"/api/bot/tables/{table}/stream").start()
        await stream.wait_for(lambda r: len(r.messages) >= 1)
        assert stream.status == 200 and stream.messages[0]["type"] == "sync"
        assert stream.messages[0]["state"]["you"] is None
        await stream.stop()
    await host.close()


# ---------------------------------------------------------------- bot accounts


@pytest.mark.asyncio
async def test_a_bot_account_plays_through_the_api_only_and_carries_the_bot_mark(server: ServerProcess) -> None:
    bot = await new_account(server.base_url, "Marked Robo")
    host, table = await host_table(server.base_url, [{"kind": "me"}, {"kind": "invite"}, {"kind": "open"}])
    async with bot.api(server.base_url) as api, bot.web(server.base_url) as web:
        assert (await web.get("/api/account/tokens")).json()["bot"] is True
        # as a person (its session) it may not sit down, nor host a table with its own seat
        refused = await web.post(f"/api/tables/{table}/join", json={"seat": 2})
        assert (refused.status_code, refused.json()["error"]["code"]) == (403, "bot_account")
        refused = await web.post("/api/tables", json={"deals": 6, "seats": [{"kind": "me"}] + [{"kind": "bot"}] * 2})
        assert refused.json()["error"]["code"] == "bot_account"
        # the host invites it by name: the invitation reaches its event stream, with the seat's invite
        events = Reader(api, "/api/stream/event").start()
        await events.wait_for(lambda r: len(r.messages) >= 1)
        assert events.messages[0] == {"type": "welcome", "player": {"id": bot.player_id, "name": "Marked Robo",
                                                                    "bot": True}}
        await host.http("POST", f"/api/tables/{table}/invite_bot", {"seat": 1, "bot": "marked robo"})
        with pytest.raises(ServerError, match="not_found"):
            await host.http("POST", f"/api/tables/{table}/invite_bot", {"seat": 1, "bot": "Host"})
        await events.wait_for(lambda r: len(r.messages) >= 2)
        invited = events.messages[1]
        assert invited["type"] == "invited" and invited["table"] == table and invited["seat"] == 1
        wrong = await api.post(f"/api/bot/tables/{table}/join", json={"seat": 1})
        assert wrong.json()["error"]["code"] == "reserved"
        joined = await api.post(f"/api/bot/tables/{table}/join", json={"seat": 1, "invite": invited["invite"]})
        assert joined.json() == {"seat": 1}
        await host.wait_for(lambda: bool(host.state and host.state["table"]["seats"][1].get("bot")))
        assert host.state is not None
        assert host.state["table"]["seats"][1] == {"kind": "player", "name": "Marked Robo", "level": None,
                                                   "away": False, "bot": True, "connected": False}
        assert "bot" not in host.state["table"]["seats"][0]
        lobby = await host.http("GET", "/api/tables")
        assert next(t for t in lobby["tables"] if t["table_id"] == table)["seats"][1]["bot"] is True
        await host.http("POST", f"/api/tables/{table}/start", {"fill_bots": True})
        await events.wait_for(lambda r: any(m["type"] == "match_started" for m in r.messages))
        assert events.messages[2] == {"type": "match_started", "table": table, "seat": 1}
        await events.stop()
    await host.close()
    # an account that has sat at a table cannot become a bot account
    player = await new_account(server.base_url, "Human", bot=False)
    async with player.web(server.base_url) as web, player.api(server.base_url) as api:
        other, other_table = await host_table(server.base_url, [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}])
        assert (await web.post(f"/api/tables/{other_table}/join", json={"seat": 1})).status_code == 200
        refused = await api.post("/api/bot/account/upgrade", json={})
        assert (refused.status_code, refused.json()["error"]["code"]) == (409, "bot_upgrade_refused")
        not_bot = await api.post(f"/api/bot/tables/{other_table}/act", json={"action": {"action": "pass"}})
        assert (not_bot.status_code, not_bot.json()["error"]["code"]) == (403, "not_bot_account")
        await other.close()


# ---------------------------------------------------------------- acting


@pytest.mark.asyncio
async def test_bad_json_unknown_actions_and_out_of_turn_actions_are_refused_and_change_nothing(
    server: ServerProcess,
) -> None:
    bot = await new_account(server.base_url, "Careful Robo")
    host, table = await host_table(server.base_url, [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}], seed=3)
    async with bot.api(server.base_url) as api:
        await api.post(f"/api/bot/tables/{table}/join", json={"seat": 1})
        await host.http("POST", f"/api/tables/{table}/start", {})
        stream = Reader(api, f"/api/bot/tables/{table}/stream").start()
        await stream.wait_for(lambda r: len(r.messages) >= 1)
        state = stream.messages[0]["state"]
        before = await seq_of(server.base_url, table)
        mine = state["deal"]["to_move"] == 1
        act = f"/api/bot/tables/{table}/act"
        cases: list[tuple[bytes | dict[str, Any], int, str]] = [
            (b'{"action": {"action": "pass"', 400, "bad_json"),
            (b"[1, 2]", 400, "bad_request"),
            ({"action": {"action": "fly"}, "id": "a1"}, *((400, "bad_action") if mine else (409, "not_your_turn"))),
            ({"action": "pass", "id": "a2"}, 400, "bad_message"),
            ({"action": {"action": "pass"}, "id": "a3", "extra": 1}, 400, "bad_message"),
            ({"action": {"action": "play", "card": "AS"}, "id": "a4"}, 409, "illegal" if mine else "not_your_turn"),
        ]
        if not mine:
            cases.append(({"action": {"action": "pass"}, "id": "a5"}, 409, "not_your_turn"))
        for body, status, code in cases:
            if isinstance(body, bytes):
                answer = await api.post(act, content=body, headers={"content-type": "application/json"})
            else:
                answer = await api.post(act, json=body)
            assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), body
        chat = await api.post(f"/api/bot/tables/{table}/chat", json={"text": "my hand is great"})
        assert chat.json()["error"]["code"] == "chat_closed"
        unknown = await api.post(f"/api/bot/tables/{table}/chat", json={"phrase": "cheat"})
        assert unknown.json()["error"]["code"] == "bad_chat"
        assert await seq_of(server.base_url, table) == before
        assert [m["type"] for m in stream.messages] == ["sync"]  # no event was made
        said = await api.post(f"/api/bot/tables/{table}/chat", json={"phrase": "good_luck", "id": "c1"})
        again = await api.post(f"/api/bot/tables/{table}/chat", json={"phrase": "good_luck", "id": "c1"})
        assert said.json() == again.json() == {"seq": before + 1}  # the same id is done once
        await stream.wait_for(lambda r: len(r.messages) >= 2)
        assert stream.messages[1]["event"] == {"type": "chat", "seat": 1, "name": "Careful Robo", "phrase": "good_luck"}
        await stream.stop()
    await host.close()


# ---------------------------------------------------------------- streams


@pytest.mark.asyncio
async def test_a_stream_resumed_with_since_loses_and_repeats_no_event_and_shows_no_hidden_card(
    server: ServerProcess,
) -> None:
    bot = await new_account(server.base_url, "Steady Robo")
    host, table = await host_table(server.base_url, [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}], seed=11)
    async with bot.api(server.base_url) as api, bot.api(server.base_url) as watching:
        await api.post(f"/api/bot/tables/{table}/join", json={"seat": 1})
        # the same seat's stream held open throughout: what the resumed one must equal
        steady = Reader(watching, f"/api/bot/tables/{table}/stream").start()
        await steady.wait_for(lambda r: len(r.messages) >= 1)
        await host.http("POST", f"/api/tables/{table}/start", {})

        def mid_deal(state: dict[str, Any]) -> bool:
            deal = state["deal"]
            return bool(state["deal_index"] == 1 and deal and deal["phase"] == "play" and len(deal["log"]) >= 6)

        got, _ = await asyncio.wait_for(
            asyncio.gather(play_over_api(api, table, 5, drop=mid_deal), play_randomly(host, 6, timeout=120)), 150
        )
        await steady.wait_for(lambda r: bool(r.messages[-1]["state"]["match"]["winner"] is not None), 10)
    # one sync, then every event after it exactly once, in order, across the hang-up
    assert got[0]["type"] == "sync" and all(m["type"] == "event" for m in got[1:])
    seqs = [m["seq"] for m in got]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    resumed_at = next(i for i, m in enumerate(got) if i and mid_deal(got[i - 1]["state"]))
    assert 0 < resumed_at < len(got) - 1
    reference = {m["seq"]: m["event"] for m in steady.messages if m["type"] == "event"}
    assert {m["seq"]: m["event"] for m in got[1:]} == {s: e for s, e in reference.items() if s > seqs[0]}
    assert max(reference) == seqs[-1]
    # the leak check of the WebSocket, applied to the streams: nothing a seat may not see
    records = await records_of(host, table)
    clients = []
    for messages in (got, steady.messages):
        client = GameClient("http://unused")
        client.received.extend(messages)
        clients.append(client)
    watchers = [Watcher(host, table, 0), Watcher(clients[0], table, 1), Watcher(clients[1], table, 1)]
    positions = timeline(watchers)
    for watcher in watchers:
        assert leaks(watcher, positions, records) == []
    shown = {c for m in got for c in card_strings(m)}
    assert len(shown) == 32  # not vacuous: the bot saw its hands and every played card
    await host.close()


@pytest.mark.asyncio
async def test_a_slow_bot_is_played_by_the_built_in_bot_for_that_turn_only(server: ServerProcess) -> None:
    bot = await new_account(server.base_url, "Slow Robo")
    host, table = await host_table(
        server.base_url, [{"kind": "bot"}, {"kind": "open"}, {"kind": "bot"}], seed=21, move_seconds=1
    )
    async with bot.api(server.base_url) as api:
        await api.post(f"/api/bot/tables/{table}/join", json={"seat": 1})
        stream = Reader(api, f"/api/bot/tables/{table}/stream").start()
        await stream.wait_for(lambda r: len(r.messages) >= 1)
        host_http = host  # the host is a spectator here; only it may start
        await host_http.http("POST", f"/api/tables/{table}/start", {})

        def played_for_seat_1(r: Reader) -> bool:
            return any(
                m["type"] == "event" and m["event"]["type"] == "action" and m["event"]["action"]["seat"] == 1
                for m in r.messages
            )

        await stream.wait_for(played_for_seat_1, 30)
        action = next(m for m in stream.messages if m["type"] == "event" and m["event"]["type"] == "action"
                      and m["event"]["action"]["seat"] == 1)
        assert action["event"]["by"] == "bot"
        # not "away": the next turn is the bot account's own again
        assert not any(m["type"] == "event" and m["event"]["type"] == "away" for m in stream.messages)
        assert action["state"]["table"]["seats"][1]["away"] is False
        await stream.stop()
    await host.close()


@pytest.mark.asyncio
async def test_an_idle_stream_sends_keep_alive_lines_and_streams_per_token_are_limited(server: ServerProcess) -> None:
    bot = await new_account(server.base_url, "Idle Robo")
    async with bot.api(server.base_url) as api:
        events = Reader(api, "/api/stream/event").start()
        await events.wait_for(lambda r: None in r.lines, 10)
        limit = Quotas().streams_per_token
        more = [Reader(api, "/api/stream/event").start() for _ in range(limit - 1)]
        for reader in more:
            await reader.wait_for(lambda r: len(r.messages) >= 1)
        refused = await api.get("/api/stream/event")
        assert refused.status_code == 429
        assert refused.json()["error"] == {
            "code": "too_many_connections", "message": f"at most {limit} open streams per token: close one first",
            "args": {"limit": limit},
        }
        for reader in [events, *more]:
            await reader.stop()
        # a closed stream frees its place
        await asyncio.sleep(0.3)
        again = Reader(api, "/api/stream/event").start()
        await again.wait_for(lambda r: len(r.messages) >= 1)
        await again.stop()


@pytest.mark.asyncio
async def test_requests_over_a_tokens_rate_get_429_with_retry_after(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    db_url = f"sqlite+aiosqlite:///{tmp_path / 'rate.db'}"
    srv = server_factory(db_url=db_url, args=("--fast", "--api-rate", "5/minute"))
    srv.start(tmp_path / "rate.log")
    bot = await new_account(srv.base_url, "Eager Robo")  # the upgrade is the first request
    other = await new_account(srv.base_url, "Other Robo")
    async with bot.api(srv.base_url) as api, other.api(srv.base_url) as other_api:
        answers = [await api.get("/api/bot/account") for _ in range(5)]
        assert [a.status_code for a in answers] == [200, 200, 200, 200, 429]
        limited = answers[-1]
        assert limited.json()["error"]["code"] == "rate_limited"
        wait = int(limited.headers["retry-after"])
        assert 1 <= wait <= 60 and limited.json()["error"]["args"] == {"retry_after": wait}
        assert (await other_api.get("/api/bot/account")).status_code == 200  # per token


def test_the_documented_example_bot_is_the_one_in_examples() -> None:
    """docs/bot-api.md shows examples/bot.py in full, and it stays about 70 lines."""
    root = Path(__file__).resolve().parents[2]
    example = (root / "examples" / "bot.py").read_text()
    assert example in (root / "docs" / "bot-api.md").read_text()
    assert len(example.splitlines()) <= 95  # some 70 lines of code, with blank lines and comments


