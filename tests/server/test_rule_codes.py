"""Refusals on the wire: a stable code, the engine's rule and its values, and the page's words for each.

Every rule code of the engine, every error code the server can answer with and every chat phrase
has an English and a Hungarian wording in web/js/i18n/ (en.js, hu.js) that names only values the refusal carries;
an illegal action reaches a client as ``{"code": "illegal", "rule", "args", "message"}`` over the
WebSocket and the table commands' refusals carry their values as ``args`` over HTTP too.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Callable, Iterator
from string import Formatter
from typing import Any

import httpx2
import pytest

from tests.engine.test_refusal_codes import CASES
from tests.server.conftest import ServerProcess
from tests.server.helpers import three_players
from tests.server.refusal_codes import (
    CLIENT_CODES,
    ERROR_ARGS,
    I18N,
    PROTOCOL,
    i18n_dictionary,
    placeholders,
    protocol_error_codes,
    server_error_codes,
)
from ulti.bots.random_bot import RandomBot
from ulti.client import GameClient
from ulti.engine.errors import CARD_HINTS, RULES, IllegalAction
from ulti.engine.record import action_to_json
from ulti.engine.view import SeatView
from ulti.server import tablerules, tableviews
from ulti.server.errors import CommandError
from ulti.server.inputs import MAX_DEPTH, BadInput, decode_json
from ulti.server.tablestate import PRESET_PHRASES, TableState
from ulti.server.throttle import Quotas, Throttle

HOST, ANNA = "host0000", "anna0000"
EN, HU = i18n_dictionary("en"), i18n_dictionary("hu")


def template_fields(template: str) -> set[str]:
    """The fields of an engine template (``{card:label}`` names ``card``)."""
    return {name for _, name, _, _ in Formatter().parse(template) if name}


# ---------------------------------------------------------------- the page words every code


def test_every_rule_code_is_worded_in_english_and_hungarian() -> None:
    for rule in RULES:
        en, hu = EN.get(f"rule.{rule}"), HU.get(f"rule.{rule}")
        assert en and hu and en != hu, rule
        # the page names only values the refusal carries (the engine test of each rule gives them)
        carried = set(CASES[rule][1])
        assert placeholders(en) <= carried and placeholders(hu) <= carried, rule


def test_the_protocol_lists_every_rule_code_with_its_values() -> None:
    text = PROTOCOL.read_text()
    section = text.split("### 16.1 Rule codes", 1)[1].split("\n### ", 1)[0]
    rows = re.findall(r"^\| `([a-z_0-9]+)` \| ([^|]*) \|", section, flags=re.MULTILINE)
    rows = [(rule, args) for rule, args in rows if rule != "rule"]  # not the header
    assert [rule for rule, _ in rows] == list(RULES)
    for rule, args in rows:
        assert set(re.findall(r"`(\w+)`", args)) == set(CASES[rule][1]), rule


def test_every_refused_card_rule_is_worded_in_english_and_hungarian() -> None:
    for rule, template in CARD_HINTS.items():
        en, hu = EN.get(f"refuse.{rule}"), HU.get(f"refuse.{rule}")
        assert en and hu and en != hu, rule
        assert placeholders(en) <= template_fields(template) and placeholders(hu) <= template_fields(template)


def test_every_server_error_code_is_worded_in_english_and_hungarian() -> None:
    codes = server_error_codes()
    assert {"illegal", "seat_taken", "not_your_turn", "chat_closed", "bad_chat", "too_large", "internal"} <= codes
    assert codes <= protocol_error_codes(), "docs/protocol/errors.md §16 lists every error code"
    for code in codes | protocol_error_codes() | CLIENT_CODES:
        en, hu = EN.get(f"error.{code}"), HU.get(f"error.{code}")
        assert en and hu and en != hu, code
        args = ERROR_ARGS.get(code, set())
        assert placeholders(en) <= args and placeholders(hu) <= args, code


def test_every_chat_phrase_is_worded_in_english_and_hungarian() -> None:
    for key, english in PRESET_PHRASES.items():
        assert EN[f"chat.phrase.{key}"] == english
        assert HU[f"chat.phrase.{key}"] not in ("", english)
    listed = re.search(r"export const PHRASES = (\[[^\]]*\]);", I18N.read_text())
    assert listed is not None and json.loads(listed.group(1)) == list(PRESET_PHRASES)  # the page's buttons


# ---------------------------------------------------------------- the table's refusals


def started_table() -> TableState:
    """HOST (seat 0) and two bots; the first deal is dealt (seed 5)."""
    state = TableState("t1")
    state.apply({"type": "created", "host": HOST, "deals": 6, "move_seconds": 0, "seed": 5, "chosen_seed": True,
                 "practice": False, "seats": [{"kind": "open"}] * 3})
    state.apply(tablerules.join_event(state, HOST, "Host", 0, None))
    for event in tablerules.start_events(state, HOST, True):
        state.apply(event)
    state.apply(tablerules.next_deal_event(state))
    return state


def test_an_illegal_action_is_refused_with_the_engine_rule_and_its_values() -> None:
    state = started_table()
    deal = state.deal
    assert deal is not None
    opener = deal.to_move
    assert opener is not None  # the deal is not over
    with pytest.raises(CommandError) as error:
        tablerules.action_event(state, opener, {"action": "pass"}, "player")
    exc = error.value
    assert (exc.code, exc.rule, exc.params) == ("illegal", "opener_must_bid", {"seat": opener})
    message = f"seat {opener} cannot pass: the opener must discard 2 and bid"
    assert exc.to_json() == {"code": "illegal", "message": message, "rule": "opener_must_bid", "args": {"seat": opener}}
    assert CommandError.from_json(exc.to_json()).to_json() == exc.to_json()  # across processes (hub.py)
    other = (opener + 1) % 3
    with pytest.raises(CommandError) as error:
        tablerules.action_event(state, other, {"action": "pass"}, "player")
    assert error.value.to_json() == {"code": "not_your_turn", "message": f"it is not seat {other}'s turn",
                                     "args": {"seat": other}}


def test_table_commands_carry_their_values() -> None:
    state = TableState("t2")
    state.apply({"type": "created", "host": HOST, "deals": 6, "move_seconds": 0, "seed": 5, "chosen_seed": True,
                 "practice": False, "seats": [{"kind": "open"}, {"kind": "invite", "invite": "tok"}, {"kind": "open"}]})
    state.apply(tablerules.join_event(state, ANNA, "Anna", 0, None))
    for call, code, params in (
        (lambda: tablerules.join_event(state, HOST, "Host", 0, None), "seat_taken", {"seat": 0}),
        (lambda: tablerules.join_event(state, HOST, "Host", 1, "wrong"), "reserved", {"seat": 1}),
        (lambda: tablerules.join_event(state, ANNA, "Anna", 2, None), "already_seated", {"seat": 0}),
        (lambda: tablerules.join_event(state, HOST, "anna", 2, None), "name_taken", {"name": "anna"}),
        (lambda: tablerules.start_events(state, HOST, True), "invite_pending", {"seats": [1]}),
    ):
        with pytest.raises(CommandError) as error:
            call()
        assert (error.value.code, error.value.params) == (code, params)
        assert error.value.to_json()["args"] == params
        assert set(params) == ERROR_ARGS[code]


def test_edge_refusals_carry_the_limit_they_enforce() -> None:
    """Size, depth, rate and socket quotas name their limit in ``args``, so the page can say it."""
    refusals: list[CommandError] = []
    parses: tuple[Callable[[], object], ...] = (
        lambda: decode_json(b"[" + b"1," * 40 + b"1]", 64),
        lambda: decode_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), 4096),
    )
    for call in parses:
        with pytest.raises(BadInput) as error:
            call()
        refusals.append(error.value)
    throttle = Throttle(Quotas(sessions_per_address="1/minute", connections_per_player=1))
    throttle.new_session("10.0.0.1")
    throttle.open_connection("p1", "10.0.0.1")
    for call in (lambda: throttle.new_session("10.0.0.1"), lambda: throttle.open_connection("p1", "10.0.0.2")):
        with pytest.raises(BadInput) as error:
            call()
        refusals.append(error.value)
    too_large, too_deep, rate_limited, too_many = refusals
    assert too_large.params == {"max_bytes": 64} and too_deep.params == {"max_depth": MAX_DEPTH}
    assert too_many.params == {"limit": 1}
    assert set(rate_limited.params) == {"retry_after"} and 1 <= rate_limited.params["retry_after"] <= 60
    for refusal in refusals:
        assert set(refusal.to_json()["args"]) == ERROR_ARGS[refusal.code], refusal.code


def test_chat_is_limited_per_player_and_the_refusal_says_when_to_try_again() -> None:
    throttle = Throttle(Quotas())
    for _ in range(4):
        throttle.chat_line("talker")
    with pytest.raises(BadInput) as error:
        throttle.chat_line("talker")
    assert error.value.code == "rate_limited" and 1 <= error.value.params["retry_after"] <= 8
    throttle.chat_line("somebody else")  # one player's quota is theirs alone


def test_chat_phrases_are_stored_as_keys_and_old_english_phrases_still_load() -> None:
    state = started_table()
    event = tablerules.chat_event(state, 0, "Host", None, "good_luck")
    assert event == {"type": "chat", "seat": 0, "name": "Host", "phrase": "good_luck"}
    state.apply(event)
    state.apply({"type": "chat", "seat": 1, "name": "Old", "text": "Well played!"})  # stored by an older version
    state.apply({"type": "chat", "seat": 2, "name": "Free", "text": "Well played, really"})
    assert tableviews.view(state, None)["chat"][-3:] == [
        {"seat": 0, "name": "Host", "phrase": "good_luck"},
        {"seat": 1, "name": "Old", "phrase": "well_played"},
        {"seat": 2, "name": "Free", "text": "Well played, really"},
    ]


# ---------------------------------------------------------------- on the wire


@pytest.fixture
def served(server: ServerProcess) -> Iterator[ServerProcess]:
    """The server; whatever the test does, it logs no traceback."""
    yield server
    assert server.log_path is not None
    log = server.log_path.read_text()
    assert "Traceback" not in log, log[-3000:]


async def answer(client: GameClient, message: dict[str, Any]) -> dict[str, Any]:
    """The server's answer (``ack`` or ``error``) to a raw ``message`` with a fresh id."""
    client_id = f"r{random.getrandbits(40)}"
    await client.send({**message, "id": client_id})
    found = await client.wait_for_message(lambda m: m.get("id") == client_id and m["type"] in ("ack", "error"))
    return {k: v for k, v in found.items() if k != "_t"}


@pytest.mark.asyncio
async def test_refusals_carry_code_rule_and_args_over_websocket_and_http(served: ServerProcess) -> None:
    server = served
    table_id, clients = await three_players(server.base_url, deals=6, seed=5, start=True)
    await asyncio.gather(*(c.wait_for(lambda c=c: bool(c.state and c.state["deal"])) for c in clients))
    assert clients[0].state is not None
    opener = clients[0].state["deal"]["to_move"]
    error = await answer(clients[opener], {"type": "act", "action": {"action": "pass"}})
    message = f"seat {opener} cannot pass: the opener must discard 2 and bid"
    assert error == {"type": "error", "id": error["id"], "code": "illegal", "rule": "opener_must_bid",
                     "args": {"seat": opener}, "message": message}
    other = (opener + 1) % 3
    error = await answer(clients[other], {"type": "act", "action": {"action": "pass"}})
    assert (error["code"], error["args"], "rule" in error) == ("not_your_turn", {"seat": other}, False)
    error = await answer(clients[other], {"type": "chat", "text": "my hand is great"})
    assert (error["code"], "args" in error, "rule" in error) == ("chat_closed", False, False)

    # Play on until a seat holds a card it may not play, then play it: the rule is the card's rule.
    rng = random.Random(7)
    for _ in range(400):
        mover = next((c for c in clients if c.my_turn()), None)
        if mover is None:
            await clients[0].wait_for(lambda: any(c.my_turn() for c in clients), 10)
            continue
        assert mover.state is not None
        choices = mover.state["deal"]["choices"]
        if choices["refused"]:
            card = sorted(choices["refused"])[0]
            error = await answer(mover, {"type": "act", "action": {"action": "play", "card": card}})
            assert error["code"] == "illegal" and error["rule"] == choices["refused_rules"][card]
            assert error["args"]["seat"] == mover.state["you"]
            assert error["message"] == str(IllegalAction(error["rule"], **error["args"]))
            break
        action = action_to_json(RandomBot(rng).act(SeatView.from_json(mover.state["deal"])))
        action.pop("seat")
        seq = mover.seq
        await mover.act(action)
        await asyncio.gather(*(c.wait_for(lambda c=c, s=seq: c.seq > s, 10) for c in clients))
    else:
        pytest.fail("no refused card came up")

    # HTTP: the same shape under "error"
    async with httpx2.AsyncClient(base_url=server.base_url, timeout=10) as http:
        response = await http.post(f"/api/tables/{table_id}/join", json={"seat": 1},
                                   headers={"authorization": f"Bearer {clients[1].token}"})
    assert response.status_code == 409
    assert response.json() == {"error": {"code": "table_started",
                                         "message": "this table's match has started: seats are fixed"}}
    for client in clients:
        await client.close()


@pytest.mark.asyncio
async def test_seat_refusals_carry_the_seat_over_http(served: ServerProcess) -> None:
    server = served
    host = GameClient(server.base_url)
    await host.login("Host")
    guest = GameClient(server.base_url)
    await guest.login("Guest")
    table = await host.http("POST", "/api/tables", {"deals": 6, "seats": [{"kind": "me"}, {"kind": "open"},
                                                                           {"kind": "open"}]})
    async with httpx2.AsyncClient(base_url=server.base_url, timeout=10) as http:
        response = await http.post(f"/api/tables/{table['table_id']}/join", json={"seat": 0},
                                   headers={"authorization": f"Bearer {guest.token}"})
        assert response.status_code == 409
        assert response.json() == {"error": {"code": "seat_taken", "message": "seat 0 is taken", "args": {"seat": 0}}}
        response = await http.post(f"/api/tables/{table['table_id']}/start", json={},
                                   headers={"authorization": f"Bearer {host.token}"})
        assert response.json()["error"]["args"] == {"seats": [1, 2]}


@pytest.mark.parametrize("letter", ["a", "é", "€", "🂡"])
def test_a_message_over_its_byte_limit_is_too_large_whatever_its_letters(letter: str) -> None:
    """The limit counts UTF-8 bytes, not letters: a text just at it is read, one letter more is refused."""
    width = len(letter.encode())
    limit = 64 * width + len('[""]')
    assert decode_json('["' + letter * 64 + '"]', limit) == [letter * 64]
    with pytest.raises(BadInput) as error:
        decode_json('["' + letter * 65 + '"]', limit)
    assert error.value.code == "too_large"
