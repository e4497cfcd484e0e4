"""Hostile and broken clients: every bad message is refused by name and changes nothing for anyone.

One server and one table serve the whole property test: the clients live on an event loop in a
background thread, and each hypothesis example runs its coroutine there. Seat 0's client is the
attacker; seats 1 and 2 and a spectator watch that nothing reaches them and nothing changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import threading
import urllib.request
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx2
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.server.conftest import ServerProcess
from tests.server.helpers import three_players
from ulti.bots.random_bot import RandomBot
from ulti.engine.cards import card_str
from ulti.engine.contracts import BIDS, Part
from ulti.engine.record import action_to_json
from ulti.server.client import GameClient, ServerError
from ulti.server.tablestate import PRESET_PHRASES

T = TypeVar("T")
CARDS = [card_str(c) for c in range(32)]
BID_CODES = [b.code for b in BIDS]
PARTS = [p.value for p in Part]
KINDS = ["bid", "take", "pass", "trump", "give_up", "kontra", "play"]
KNOWN_TYPES = {"ping", "watch_lobby", "lobby_chat", "open_table", "act", "chat", "back"}
MAX_MESSAGE = 4096


def random_move(client: GameClient) -> dict[str, Any]:
    """A random legal action for the client's seat from its view (record form without the seat)."""
    assert client.state is not None
    action = action_to_json(RandomBot(random.Random(client.seq)).act(client.state["deal"]))
    action.pop("seat")
    return action


@dataclass
class Arena:
    """The server, a table with three seated clients (seat 0 attacks) and a spectator, and their event loop."""

    server: ServerProcess
    loop: asyncio.AbstractEventLoop
    table_id: str = ""
    players: list[GameClient] = field(default_factory=list)
    spectator: GameClient | None = None
    used_ids: list[str] = field(default_factory=list)  # command ids the attacker already used
    fresh: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    http: httpx2.AsyncClient | None = None  # one HTTP client for the checks (GameClient.http opens one per call)

    async def view(self, client: GameClient) -> dict[str, Any]:
        """``client``'s view of the table, over HTTP."""
        if self.http is None:
            self.http = httpx2.AsyncClient(base_url=self.server.base_url, timeout=30)
        headers = {"authorization": f"Bearer {client.token}"}
        response = await self.http.get(f"/api/tables/{self.table_id}", headers=headers)
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()
        return view

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 60) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    @property
    def attacker(self) -> GameClient:
        return self.players[0]

    @property
    def watchers(self) -> list[GameClient]:
        assert self.spectator is not None
        return [*self.players, self.spectator]

    async def new_table(self) -> None:
        """A fresh 12-deal match (the clients of an earlier table are closed)."""
        for client in self.watchers if self.players else []:
            await client.close()
        self.table_id, self.players = await three_players(self.server.base_url, deals=12)
        self.spectator = GameClient(self.server.base_url)
        await self.spectator.login("Spectator")
        await self.spectator.connect()
        await self.spectator.open_table(self.table_id)
        await self.players[0].http("POST", f"/api/tables/{self.table_id}/start", {})
        await self.settle()
        ack = await self.attacker.request({"type": "chat", "phrase": "hello"})
        self.used_ids.append(ack["id"])
        await self.settle()

    async def settle(self) -> None:
        """Wait until every watcher has seen the table's latest event and a deal is in progress."""
        async with asyncio.timeout(30):
            while True:
                view = await self.view(self.attacker)
                seq = view["seq"]
                for client in self.watchers:
                    await client.wait_for(lambda c=client, s=seq: c.seq >= s, 10)
                if view["deal"] is not None and view["deal"]["phase"] != "done":
                    return
                await asyncio.sleep(0.01)

    def on_turn(self) -> GameClient:
        """The client of the seat the table waits for."""
        (client,) = [c for c in self.players if c.my_turn()]
        return client

    async def move(self) -> None:
        """The seat on turn makes a random legal move; it is accepted."""
        client = self.on_turn()
        ack = await client.act(random_move(client))
        assert ack["type"] == "ack" and isinstance(ack["seq"], int)
        if client is self.attacker:
            self.used_ids.append(ack["id"])
        await self.settle()

    async def attacker_has_choices(self, wanted: bool) -> None:
        """Play legal moves until the attacker has something to do (or nothing), whichever is wanted."""
        for _ in range(60):
            if self.players[0].match_over():
                await self.new_table()
            assert self.attacker.state is not None
            if (self.attacker.state["deal"]["choices"] is not None) == wanted:
                return
            await self.move()
        raise AssertionError("the attacker's turn never came")

    async def snapshot(self) -> list[Any]:
        """Every seat's and the spectator's view of the table, without who is connected."""
        views = await asyncio.gather(*(self.view(c) for c in self.watchers))
        for view in views:
            view.pop("deadline")
            for seat in view["table"]["seats"]:
                seat.pop("connected")
        return list(views)


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    tmp = tmp_path_factory.mktemp("bad_input")
    server = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp / 'ulti.db'}")
    server.start(tmp / "server.log")
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    arena = Arena(server, loop)
    try:
        arena.run(arena.new_table())
        yield arena
    finally:
        async def close_all() -> None:
            for client in arena.watchers:
                await client.close()
            if arena.http is not None:
                await arena.http.aclose()

        with contextlib.suppress(Exception):
            arena.run(close_all(), 10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        server.stop()
    log = (tmp / "server.log").read_text()
    assert "Traceback" not in log, log[-3000:]


# ---------------------------------------------------------------- the bad messages


@dataclass
class Bad:
    """A bad message: what is sent, and the error codes (with a word of the message) that name its fault."""

    frame: str | bytes
    codes: set[str]
    word: str = ""
    id: Any = None


def fresh_id(arena: Arena) -> str:
    return f"h{next(arena.fresh)}"


non_object_json = st.one_of(
    st.integers(), st.floats(allow_nan=False), st.text(max_size=20), st.booleans(), st.none(),
    st.lists(st.integers(), max_size=5),
)
#: what the draws depend on must not depend on the table's state (hypothesis replays draws): pick by index
PICK = st.integers(0, 2**16)
junk = st.one_of(st.none(), st.integers(), st.text(max_size=10), st.lists(st.integers(), max_size=3))


def illegal_actions(choices: dict[str, Any], hand: list[str]) -> list[dict[str, Any]]:
    """Actions the seat with ``choices`` certainly may not take now."""
    out: list[dict[str, Any]] = [{"action": "play", "card": c} for c in CARDS if c not in choices["cards"]]
    if not choices["may_pass"]:
        out.append({"action": "pass"})
    if not choices["may_take"]:
        out.append({"action": "take"})
    if not choices["may_give_up"]:
        out.append({"action": "give_up"})
    out += [{"action": "bid", "bid": b} for b in BID_CODES if b not in choices["bids"]]
    for b in choices["bids"]:
        if choices["must_discard"]:
            out.append({"action": "bid", "bid": b})  # no discard
            out += [{"action": "bid", "bid": b, "discard": [c, c]} for c in hand]  # the same card twice
        else:
            out += [{"action": "bid", "bid": b, "discard": hand[:2]}]  # a discard without the talon
    out += [{"action": "trump", "suit": s} for s in "CSDH" if s not in choices["trumps"]]
    allowed = choices["kontra"]["parts"] if choices["kontra"] else []
    out += [{"action": "kontra", "parts": [p]} for p in PARTS if p not in allowed]
    return out


@st.composite
def bad_messages(draw: st.DrawFn, arena: Arena, category: str) -> Bad:
    """A bad message of ``category`` for the attacker's current situation."""
    state = arena.attacker.state
    assert state is not None
    choices = state["deal"]["choices"]
    has_choices = choices is not None
    turn_refusal = {"not_your_turn"}
    if category == "binary":
        return Bad(draw(st.binary(max_size=200)), {"bad_message"}, "text")
    if category == "not_json":
        text = draw(st.text(max_size=200))
        try:
            parsed = json.loads(text)
        except ValueError:
            return Bad(text, {"bad_json"}, "JSON")
        assume(not isinstance(parsed, dict))
        return Bad(text, {"bad_message"}, "object")
    if category == "not_object":
        return Bad(json.dumps(draw(non_object_json)), {"bad_message"}, "object")
    if category == "unknown_type":
        kind = draw(st.one_of(st.text(max_size=20), st.integers(), st.none()))
        assume(kind not in KNOWN_TYPES)
        message: dict[str, Any] = {"type": kind, "id": fresh_id(arena)}
        if draw(st.booleans()):
            message.pop("type")
        return Bad(json.dumps(message), {"unknown_type"}, "type", message["id"])
    if category == "too_large":
        # even a legal action is refused when it comes wrapped in too many bytes
        action = random_move(arena.attacker) if has_choices else {"action": "pass"}
        size = draw(st.integers(MAX_MESSAGE + 1, 60_000))
        message = {"type": "act", "id": fresh_id(arena), "action": action, "pad": ""}
        message["pad"] = "x" * max(0, size - len(json.dumps(message)))
        frame = json.dumps(message)
        assert len(frame.encode()) > MAX_MESSAGE
        return Bad(frame, {"too_large"}, str(MAX_MESSAGE))
    if category == "bad_id":
        client_id = draw(st.one_of(st.text(min_size=65, max_size=100), st.lists(st.integers(), max_size=3),
                                   st.floats(allow_nan=False), st.dictionaries(st.text(max_size=3), st.integers())))
        kind = draw(st.sampled_from(["ping", "act", "chat"]))
        return Bad(json.dumps({"type": kind, "id": client_id, "phrase": "hello"}), {"bad_message"}, "id")
    if category == "no_id":
        kind = draw(st.sampled_from(["act", "chat", "back"]))
        return Bad(json.dumps({"type": kind, "action": {"action": "pass"}, "phrase": "hello"}), {"bad_message"}, "id")
    if category == "other_seat":
        assume(not has_choices)
        mover = arena.on_turn()
        action = {**random_move(mover), "seat": arena.players.index(mover)}
        message = {"type": "act", "id": fresh_id(arena), "action": action}
        return Bad(json.dumps(message), turn_refusal, "turn", message["id"])
    if category == "illegal":
        assume(has_choices)
        options = illegal_actions(choices, state["deal"]["hands"]["0"])
        action = options[draw(PICK) % len(options)]
        message = {"type": "act", "id": fresh_id(arena), "action": action}
        return Bad(json.dumps(message), {"illegal", "chain_open"}, "", message["id"])
    if category == "unknown_card":
        card = draw(st.one_of(st.text(max_size=4), st.integers(), st.none(), st.sampled_from(["ZZ", "1S", "AX"])))
        assume(not (isinstance(card, str) and card.upper() in CARDS))
        message = {"type": "act", "id": fresh_id(arena), "action": {"action": "play", "card": card}}
        return Bad(json.dumps(message), {"bad_action"} if has_choices else turn_refusal, "", message["id"])
    if category == "wrong_kind":
        kind = draw(st.one_of(st.text(max_size=12), st.integers(), st.none()))
        assume(kind not in KINDS)
        message = {"type": "act", "id": fresh_id(arena), "action": {"action": kind, "card": "AS"}}
        return Bad(json.dumps(message), {"bad_action"} if has_choices else turn_refusal, "", message["id"])
    if category == "not_an_action":
        message = {"type": "act", "id": fresh_id(arena)}
        if draw(st.booleans()):
            message["action"] = draw(st.one_of(junk, st.just("play AS")))
        return Bad(json.dumps(message), {"bad_message"} if has_choices else turn_refusal, "", message["id"])
    if category == "replayed_id":
        recent = arena.used_ids[-50:]
        client_id = recent[draw(PICK) % len(recent)]
        if draw(st.booleans()) and has_choices:
            message = {"type": "act", "id": client_id, "action": random_move(arena.attacker)}  # legal, but replayed
        else:
            message = {"type": "chat", "id": client_id, "phrase": "thanks"}
        return Bad(json.dumps(message), {"duplicate_id"}, "already used", client_id)
    if category == "chat_text":
        message = {"type": "chat", "id": fresh_id(arena), "text": draw(st.text(max_size=300))}
        return Bad(json.dumps(message), {"chat_closed"}, "preset", message["id"])
    if category == "bad_phrase":
        phrase = draw(st.one_of(st.text(max_size=20), st.integers(), st.lists(st.integers(), max_size=2)))
        assume(not isinstance(phrase, str) or phrase not in PRESET_PHRASES)
        message = {"type": "chat", "id": fresh_id(arena), "phrase": phrase}
        return Bad(json.dumps(message), {"bad_chat"}, "phrase", message["id"])
    if category == "lobby_chat":
        text = draw(st.one_of(st.just(""), st.just("   "), st.text(min_size=301, max_size=400), junk))
        assume(not (isinstance(text, str) and text.strip() and len(text) <= 300))
        message = {"type": "lobby_chat", "id": fresh_id(arena), "text": text}
        return Bad(json.dumps(message), {"bad_chat"}, "text", message["id"])
    if category == "open_unknown":
        table = draw(st.one_of(st.text(max_size=40), junk))
        assume(table != arena.table_id)
        message = {"type": "open_table", "id": fresh_id(arena), "table": table}
        if isinstance(table, str):
            return Bad(json.dumps(message), {"not_found"}, "no table", message["id"])
        return Bad(json.dumps(message), {"bad_message"}, "table", message["id"])
    raise AssertionError(category)


CATEGORIES = [
    "binary", "not_json", "not_object", "unknown_type", "too_large", "bad_id", "no_id", "other_seat", "illegal",
    "unknown_card", "wrong_kind", "not_an_action", "replayed_id", "chat_text", "bad_phrase", "lobby_chat",
    "open_unknown",
]


def healthz(arena: Arena) -> dict[str, Any]:
    with urllib.request.urlopen(arena.server.base_url + "/healthz", timeout=5) as response:
        assert response.status == 200
        answer: dict[str, Any] = json.loads(response.read())
        return answer


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    category=st.sampled_from([*CATEGORIES, "illegal", "illegal", "other_seat"]),  # the game's own rules weigh more
    attacker_on_turn=st.booleans(),
    data=st.data(),
)
def test_every_bad_message_is_refused_by_name_and_changes_nothing(
    arena: Arena, category: str, attacker_on_turn: bool, data: st.DataObject
) -> None:
    if category == "illegal":
        attacker_on_turn = True
    if category == "other_seat":
        attacker_on_turn = False
    arena.run(arena.attacker_has_choices(attacker_on_turn))
    bad = data.draw(bad_messages(arena, category))
    before = arena.run(arena.snapshot())
    seq = arena.attacker.seq
    counts = [len(c.received) for c in arena.watchers]

    async def attack() -> list[dict[str, Any]]:
        attacker = arena.attacker
        assert attacker.ws is not None
        await attacker.ws.send(bad.frame)
        # a connection's messages are handled in order: whatever the bad message caused has been sent
        # to everyone once each client's ping is answered
        for client in arena.watchers:
            await client.request({"type": "ping"}, 10)
        return [m for c, n in zip(arena.watchers, counts, strict=True) for m in c.received[n:]]

    new = arena.run(attack())
    attacker_new = arena.attacker.received[counts[0]:]
    assert [m["type"] for m in attacker_new] == ["error", "pong"], attacker_new
    error = attacker_new[0]
    event(f"{category}: {error['code']}")
    assert error["code"] in bad.codes | {"rate_limited"}, (bad, error)
    assert isinstance(error["message"], str) and error["message"].strip()
    assert bad.word.lower() in error["message"].lower(), (bad, error)
    assert error["id"] == bad.id
    # nobody was told anything, nothing changed
    assert [m["type"] for m in new] == ["error"] + ["pong"] * len(arena.watchers)
    assert arena.run(arena.snapshot()) == before
    assert arena.attacker.seq == seq
    assert healthz(arena)["ok"] is True
    # and the table goes on: the next legal move is accepted
    arena.run(arena.move())
    assert arena.attacker.seq > seq


# ---------------------------------------------------------------- floods, origins, tokens


@pytest.mark.asyncio
async def test_a_flood_is_rate_limited_while_another_client_is_served(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    srv = server_factory(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}", args=("--bot-delay", "0",
                                                                                      "--between-deals", "0"))
    srv.start(tmp_path / "server.log")
    flooder, other = GameClient(srv.base_url), GameClient(srv.base_url)
    await flooder.login("Flooder")
    await other.login("Other")
    seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]
    table_id = (await other.http("POST", "/api/tables", {"deals": 6, "seats": seats}))["table_id"]
    await flooder.http("POST", f"/api/tables/{table_id}/join", {"seat": 1})
    for client in (flooder, other):
        await client.connect()
        await client.open_table(table_id)
    seq = other.seq
    try:
        # 200 messages at once: table chat (each one an event everybody is sent) and pings
        assert flooder.ws is not None
        flood = [
            {"type": "chat", "id": f"f{i}", "text": f"spam {i}"} if i % 2 else {"type": "ping", "id": f"f{i}"}
            for i in range(200)
        ]
        await asyncio.gather(*(flooder.ws.send(json.dumps(m)) for m in flood))

        def answered() -> list[dict[str, Any]]:
            return [m for m in flooder.received if str(m.get("id") or "").startswith("f")]

        # meanwhile the other connection is served as usual
        for i in range(5):
            assert (await other.request({"type": "ping"}))["type"] == "pong"
            assert (await other.request({"type": "chat", "text": f"still here {i}"}))["type"] == "ack"
        await flooder.wait_for(lambda: len(answered()) == 200, 10)
        limited = [m for m in answered() if m["type"] == "error"]
        assert {m["code"] for m in limited} == {"rate_limited"}
        assert "per second" in limited[0]["message"]
        served = [m for m in answered() if m["type"] != "error"]
        assert len(limited) >= 100 and 20 <= len(served) <= 100  # a burst of 40 and some refill get through
        # only the chat lines that were served became events
        chats = sum(1 for m in served if m["type"] == "ack")
        await other.wait_for(lambda: other.seq == seq + chats + 5, 5)
        spam = [m for m in other.received if m["type"] == "event" and m["event"].get("text", "").startswith("spam")]
        assert len(spam) == chats
        # the flooder itself is served again once it slows down
        await asyncio.sleep(0.2)
        assert (await flooder.request({"type": "ping"}))["type"] == "pong"
    finally:
        await flooder.close()
        await other.close()
    assert "Traceback" not in (tmp_path / "server.log").read_text()


async def _welcome(url: str, **kwargs: Any) -> dict[str, Any]:
    async with connect(url, **kwargs) as ws:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 5))
        return message


@pytest.mark.asyncio
async def test_the_websocket_checks_origin_and_token(server: ServerProcess) -> None:
    client = GameClient(server.base_url)
    await client.login("Origin tester")
    url = server.base_url.replace("http", "ws", 1) + "/ws"
    with_token = f"{url}?token={client.token}"
    # no Origin (tools, scripts) and the server's own origin are accepted
    assert (await _welcome(with_token))["type"] == "welcome"
    assert (await _welcome(with_token, origin=server.base_url))["player"]["id"] == client.player_id
    # a foreign page may not open the socket with the player's cookie or token
    for origin in ("http://evil.example", f"http://127.0.0.1.evil.example:{server.port}", "null"):
        with pytest.raises(InvalidStatus) as refused:
            await _welcome(with_token, origin=origin)
        assert refused.value.response.status_code == 403
    # a missing, forged or tampered token is refused
    tampered = client.token[:-2] + ("AA" if not client.token.endswith("AA") else "BB")
    for url_with in (url, f"{url}?token=nonsense", f"{url}?token={tampered}"):
        with pytest.raises(InvalidStatus) as refused:
            await _welcome(url_with)
        assert refused.value.response.status_code == 403
    # and the HTTP API refuses it too
    forged = GameClient(server.base_url)
    forged.token = tampered
    with pytest.raises(ServerError) as error:
        await forged.http("GET", "/api/me")
    assert error.value.code == "unauthorized"
