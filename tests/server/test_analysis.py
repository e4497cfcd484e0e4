"""Deal analyses at the server (docs/protocol/analysis.md §22): who may see them, the queue, what-if lines, hints.

Real ``ulti serve`` processes (tests/server/conftest.py). The analysis route answers with the job's
status until the analysis is stored; the analysis it then serves is ``ulti analyse --json`` of the
downloaded record.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import play_first_deal_randomly
from tests.server.test_ratings import account_client
from ulti.analysis.review import discard_index
from ulti.analysis.whatif import parse_line, what_if
from ulti.client import GameClient, ServerError
from ulti.engine.cards import parse_card
from ulti.engine.record import deal_from_record
from ulti.store.eventstore import EventStore

BOTS = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]


async def get(srv: ServerProcess, path: str, client: GameClient | None = None) -> tuple[int, Any]:
    """GET ``path`` as ``client`` (None: with no session): the status and the JSON answer."""
    headers = {"authorization": f"Bearer {client.token}"} if client is not None else {}
    async with httpx2.AsyncClient(base_url=srv.base_url, timeout=30) as http:
        response = await http.get(path, headers=headers)
    return response.status_code, response.json()


async def table_with_finished_deal(srv: ServerProcess, name: str, learner: bool = False) -> tuple[GameClient, str]:
    """A table of ``name`` and two random bots whose deal 0 is over (``name`` plays random legal moves)."""
    host = GameClient(srv.base_url)
    await host.login(name)
    config: dict[str, Any] = {"deals": 6, "seats": [{"kind": "me"}, *BOTS], "move_seconds": 0}
    if learner:
        config["learner"] = True
    table_id = (await host.http("POST", "/api/tables", config))["table_id"]
    await host.connect()
    await host.open_table(table_id)
    await host.http("POST", f"/api/tables/{table_id}/start", {})
    await play_first_deal_randomly(host, 5)
    return host, table_id


async def analysis_when_done(srv: ServerProcess, path: str, client: GameClient | None) -> dict[str, Any]:
    """Poll the analysis route until it serves the analysis; the progress never goes back."""
    seen = -1
    for _ in range(600):
        status, body = await get(srv, path, client)
        assert status == 200, body
        assert body["status"] in ("queued", "running", "done"), body
        done = body["progress"]["done"]
        assert done >= seen and done <= body["progress"]["total"]
        seen = done
        if body["status"] == "done":
            analysis: dict[str, Any] = body["analysis"]
            return analysis
        await asyncio.sleep(0.1)
    raise AssertionError("the analysis was not done in time")


def cli_analysis(record: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    """``ulti analyse --json`` of ``record``."""
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    proc = subprocess.run(
        [sys.executable, "-m", "ulti.cli", "analyse", str(path), "--json"], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


@pytest.mark.asyncio
async def test_players_get_the_analysis_at_once_and_it_equals_the_command_line(
    server: ServerProcess, tmp_path: Path
) -> None:
    host, table_id = await table_with_finished_deal(server, "Anna")
    path = f"/api/tables/{table_id}/deals/0/analysis"

    # spectators (no session, or a session not seated here) and a player of another table: refused
    status, body = await get(server, path)
    assert status == 403 and body["error"]["code"] == "analysis_after_match"
    stranger, _ = await table_with_finished_deal(server, "Bela")  # seated, but at another table
    status, body = await get(server, path, stranger)
    assert status == 403 and body["error"]["code"] == "analysis_after_match"
    # a deal in progress has no analysis, like no record
    status, body = await get(server, f"/api/tables/{table_id}/deals/1/analysis", host)
    assert status == 404 and body["error"]["code"] == "not_found"

    analysis = await analysis_when_done(server, path, host)
    status, record = await get(server, f"/api/tables/{table_id}/deals/0/record")
    assert status == 200
    assert analysis == cli_analysis(record, tmp_path)
    deal = deal_from_record(record)
    discard = discard_index(deal)  # the declarer's last discard is priced too
    assert [d["index"] for d in analysis["decisions"]] == sorted(
        [i for i, a in enumerate(deal.history) if a.kind.value in ("play", "kontra", "trump", "give_up")]
        + ([discard] if discard is not None else [])
    )
    # stored once: asked again, the same analysis is served at once
    status, again = await get(server, path, host)
    assert status == 200 and again["status"] == "done" and again["analysis"] == analysis
    await host.close()
    await stranger.close()


@pytest.mark.asyncio
async def test_what_if_lines_are_solved_from_any_point_of_the_play(server: ServerProcess) -> None:
    host, table_id = await table_with_finished_deal(server, "Anna")
    _, record = await get(server, f"/api/tables/{table_id}/deals/0/record")
    deal = deal_from_record(record)
    base = f"/api/tables/{table_id}/deals/0/whatif"
    if deal.result is not None and deal.result.given_up:
        status, body = await get(server, f"{base}?at=0", host)
        assert status == 400 and body["error"]["code"] == "bad_line"
        return
    start = next(i for i in range(len(deal.history) + 1) if deal_from_record(
        {**record, "actions": record["actions"][:i]}).phase.value == "play")
    status, body = await get(server, f"{base}?at={start}", host)
    assert status == 200, body
    assert body == json.loads(json.dumps(what_if(deal, start, [])))
    other = [c for c in body["cards"] if c != record["actions"][start].get("card")]
    if other:
        status, line = await get(server, f"{base}?at={start}&line={other[0]}", host)
        assert status == 200 and line["line"] == [other[0]]
        assert line["value"] == body["cards"][other[0]]  # the value of a card is the value after it
    # a card the rules refuse is refused with the engine's rule
    held = set(body["hands"][body["to_move"]])
    foreign = next(c for c in ["7C", "7S", "7D", "7H", "AH", "AC"] if c not in held)
    status, refused = await get(server, f"{base}?at={start}&line={foreign}", host)
    assert status == 409 and refused["error"]["code"] == "illegal" and refused["error"]["rule"] == "card_not_held"
    status, refused = await get(server, f"{base}?at={start}", None)
    assert status == 403 and refused["error"]["code"] == "analysis_after_match"
    await host.close()


@pytest.mark.asyncio
async def test_a_what_if_line_with_an_unknown_card_code_is_refused_naming_the_field_and_the_code(
    server: ServerProcess,
) -> None:
    """An unknown code (letters, a non-ASCII letter, a NUL byte) in ``line`` is a 400 ``bad_line`` that
    names the field and the code, never a 500 (the ``server`` fixture also fails on any logged traceback)."""
    host, table_id = await table_with_finished_deal(server, "Anna")
    base = f"/api/tables/{table_id}/deals/0/whatif?at=0&line="
    for query, code in (("XX", "XX"), ("%C3%A9", "é"), ("%00", "\x00"), ("AS,ZZ", "ZZ"), ("AS,,7", "7")):
        status, body = await get(server, base + query, host)
        assert status == 400, (query, body)
        error = body["error"]
        assert error["code"] == "bad_line" and "args" not in error, error  # the message names what was wrong
        assert error["message"].startswith("line holds") and repr(code) in error["message"], error
    await host.close()


def test_what_if_reads_every_code_of_the_line_before_playing_any() -> None:
    """The engine side of the route: a bad code is a ``ValueError`` naming ``line`` and the code, not a
    ``RecordError`` escaping as a crash, and a good line still reads case-insensitively."""
    with pytest.raises(ValueError, match="line holds 'XX', which is not a card code"):
        parse_line(["AS", "XX"])
    assert parse_line(["as", "7H"]) == [parse_card("AS"), parse_card("7H")]


@pytest.mark.asyncio
async def test_a_restart_does_not_lose_queued_work(server_factory: type[ServerProcess], tmp_path: Path) -> None:
    db = tmp_path / "ulti.db"
    first = server_factory(db_url=f"sqlite+aiosqlite:///{db}")
    first.start(tmp_path / "first.log")
    host, table_id = await table_with_finished_deal(first, "Anna")
    status, body = await get(first, f"/api/tables/{table_id}/deals/0/analysis", host)
    assert status == 200 and body["status"] in ("queued", "running", "done")
    first.kill()  # kill -9 at once: the job is queued or half done
    await host.close()

    second = server_factory(db_url=f"sqlite+aiosqlite:///{db}")
    second.start(tmp_path / "second.log")
    # nobody asks again: the restarted server finds the job in the store and finishes it
    store = await EventStore.open(f"sqlite+aiosqlite:///{db}")
    try:
        deadline = time.monotonic() + 120
        row = await store.analysis(table_id, 0)
        while row is not None and row.status != "done" and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            row = await store.analysis(table_id, 0)
        assert row is not None and row.status == "done"
        assert row.done == row.total
        stored = row.result_json()
    finally:
        await store.close()
    _, record = await get(second, f"/api/tables/{table_id}/deals/0/record")
    assert stored == cli_analysis(record, tmp_path)


@pytest.mark.asyncio
async def test_everybody_sees_the_analysis_once_the_match_is_over(server: ServerProcess) -> None:
    host = GameClient(server.base_url)
    await host.login("Host")
    seats = [{"kind": "bot", "level": "random"}] * 3
    table_id = (await host.http("POST", "/api/tables", {"deals": 6, "seats": seats, "move_seconds": 0}))["table_id"]
    await host.http("POST", f"/api/tables/{table_id}/start", {})
    for _ in range(600):
        view = await host.http("GET", f"/api/tables/{table_id}")
        if view["table"]["status"] == "finished":
            break
        await asyncio.sleep(0.1)
    # a visitor without a session starts no work (docs/protocol/analysis.md §22.6); anybody with one may
    path = f"/api/tables/{table_id}/deals/2/analysis"
    status, body = await get(server, path)
    assert status == 401 and body["error"]["code"] == "login_to_analyse"
    stranger = GameClient(server.base_url)
    await stranger.login("Stranger")
    analysis = await analysis_when_done(server, path, stranger)
    assert analysis["format"] == "ulti-analysis/1"
    # once computed it is public: the visitor without a session is served the stored analysis
    assert await analysis_when_done(server, path, None) == analysis
    await host.close()
    await stranger.close()


@pytest.mark.asyncio
async def test_hints_are_for_seated_learners_at_casual_tables_only(server: ServerProcess) -> None:
    anna = await account_client(server.base_url, "Anna Rated")
    # learner mode is refused on a rated table
    with pytest.raises(ServerError) as refused:
        await anna.http("POST", "/api/tables", {"deals": 6, "rated": True, "learner": True,
                                                 "seats": [{"kind": "me"}, *BOTS]})
    assert refused.value.code == "learner_rated"
    # a hint at a rated table is refused
    rated = await anna.http("POST", "/api/tables", {"deals": 6, "rated": True, "seats": [{"kind": "me"}, *BOTS]})
    await anna.connect()
    await anna.open_table(rated["table_id"])
    await anna.http("POST", f"/api/tables/{rated['table_id']}/start", {})
    await anna.wait_for(lambda: anna.state is not None and anna.state["deal"] is not None, 20)
    await anna.send({"type": "hint", "id": "h1"})
    answer = await anna.wait_for_message(lambda m: m.get("id") == "h1", 30)
    assert answer["type"] == "error" and answer["code"] == "hint_rated"
    await anna.close()

    # a casual table without learner mode: refused too
    bela = GameClient(server.base_url)
    await bela.login("Bela")
    plain = await bela.http("POST", "/api/tables", {"deals": 6, "seats": [{"kind": "me"}, *BOTS]})
    await bela.connect()
    await bela.open_table(plain["table_id"])
    await bela.send({"type": "hint", "id": "h2"})
    answer = await bela.wait_for_message(lambda m: m.get("id") == "h2", 30)
    assert answer["type"] == "error" and answer["code"] == "hint_not_learner"
    await bela.close()

    # a learner table: the seat on turn gets the values of its alternatives and the bot's choice
    cili = GameClient(server.base_url)
    await cili.login("Cili")
    table = await cili.http("POST", "/api/tables", {"deals": 6, "learner": True, "seats": [{"kind": "me"}, *BOTS]})
    assert table["table_id"]
    await cili.connect()
    await cili.open_table(table["table_id"])
    await cili.http("POST", f"/api/tables/{table['table_id']}/start", {})
    assert cili.state is not None
    await cili.wait_for(lambda: cili.my_turn(), 30)
    await cili.send({"type": "hint", "id": "h3"})
    answer = await cili.wait_for_message(lambda m: m.get("id") == "h3", 60)
    assert answer["type"] == "hint", answer
    assert answer["kind"] in ("bid", "play", "kontra", "trump")
    await cili.close()


async def match_analysis_when_done(srv: ServerProcess, table_id: str, client: GameClient | None) -> dict[str, Any]:
    """Poll the match's analysis route until every finished deal is analysed."""
    for _ in range(1200):
        status, body = await get(srv, f"/api/tables/{table_id}/analysis", client)
        assert status == 200, body
        assert body["status"] in ("running", "done") and body["failed"] == 0, body
        if body["status"] == "done":
            answer: dict[str, Any] = body
            return answer
        await asyncio.sleep(0.1)
    raise AssertionError("the match's analyses were not done in time")


@pytest.mark.asyncio
async def test_the_match_accuracy_pools_the_analysed_deals(server: ServerProcess) -> None:
    host, table_id = await table_with_finished_deal(server, "Anna")
    # before the match is over only the table's players see it
    status, body = await get(server, f"/api/tables/{table_id}/analysis")
    assert status == 403 and body["error"]["code"] == "analysis_after_match"
    # nobody asked for deal 0's analysis: the match's route queues it, and answers with it once done
    match = await match_analysis_when_done(server, table_id, host)
    finished = len(host.state["match"]["results"])  # type: ignore[index]
    assert match["deals"] == finished and match["analysed"] == list(range(finished))
    deals = [await analysis_when_done(server, f"/api/tables/{table_id}/deals/{k}/analysis", host)
             for k in range(finished)]
    for seat in range(3):
        figures = match["seats"][seat]
        decisions = sum(a["seats"][seat]["decisions"] for a in deals)
        accurate = sum(a["seats"][seat]["accurate"] for a in deals)
        assert (figures["seat"], figures["decisions"], figures["accurate"]) == (seat, decisions, accurate)
        # a seat with no priced decision (a deal given up before play) has no accuracy figure
        expected = pytest.approx(100 * accurate / decisions, abs=1e-3) if decisions else None
        assert figures["accuracy"] == expected
        assert figures["cost"] == pytest.approx(sum(a["seats"][seat]["cost"] for a in deals), abs=1e-2)
    await host.close()


def bot_bids(client: GameClient) -> list[dict[str, Any]]:
    """The action events of bots' bids the client received."""
    return [
        m["event"] for m in client.received
        if m.get("type") == "event" and m["event"]["type"] == "action"
        and m["event"]["by"] == "bot" and m["event"]["action"]["action"] == "bid"
    ]


async def watch_first_auction(srv: ServerProcess, learner: bool) -> GameClient:
    """A spectating host of a table of a heuristic, a strong and a heuristic bot, until deal 0's auction ends."""
    host = GameClient(srv.base_url)
    await host.login("Watcher")
    seats = [{"kind": "bot", "level": "heuristic"}, {"kind": "bot", "level": "strong"},
             {"kind": "bot", "level": "heuristic"}]
    config: dict[str, Any] = {"deals": 6, "seats": seats, "move_seconds": 0, "learner": learner}
    table_id = (await host.http("POST", "/api/tables", config))["table_id"]
    await host.connect()
    await host.open_table(table_id)
    await host.http("POST", f"/api/tables/{table_id}/start", {})
    await host.wait_for(
        lambda: host.state is not None and host.state["deal"] is not None
        and host.state["deal"]["phase"] not in ("auction",), 120
    )
    return host


@pytest.mark.asyncio
async def test_bots_bids_are_explained_at_learner_tables_only(server: ServerProcess) -> None:
    learner = await watch_first_auction(server, learner=True)
    bids = bot_bids(learner)
    assert bids  # the opener is a bot, and must bid
    state = learner.state
    assert state is not None
    log = state["deal"]["log"] if state["deal_index"] == 0 else None
    notes: dict[str, Any] = state["bot_notes"] if state["deal_index"] == 0 else {}
    for event in bids:
        note = event.get("note")
        seat = event["action"]["seat"]
        level = state["table"]["seats"][seat]["level"]
        if level == "strong":
            assert note is not None and note["basis"] == "simulation", event
            assert 1 <= note["worlds"] <= 8 and 0 <= note["made"] <= note["worlds"]
        elif event["action"]["bid"].startswith(("M-", "H-")):  # the heuristic bot explains its trump bids
            assert note is not None and note["basis"] == "strength", event
            assert note["suit"] in "CSDH" and note["strength"] > 0
    assert any("note" in e for e in bids)
    if log is not None:
        # the table view keeps them by the index of the action in the deal's log: a late joiner sees them too
        noted = [e for e in bids if "note" in e]
        assert len(notes) == len(noted)
        for index, note in notes.items():
            entry = log[int(index)]
            assert entry["action"] == "bid" and state["table"]["seats"][entry["seat"]]["kind"] == "bot"
            assert note in [e["note"] for e in noted]
    # a passing bot explains nothing
    passes = [m["event"] for m in learner.received if m.get("type") == "event"
              and m["event"]["type"] == "action" and m["event"]["action"]["action"] in ("pass", "take")]
    assert all("note" not in e for e in passes)
    await learner.close()

    plain = await watch_first_auction(server, learner=False)
    assert bot_bids(plain) and all("note" not in e for e in bot_bids(plain))
    assert plain.state is not None and "bot_notes" not in plain.state
    await plain.close()


@pytest.mark.asyncio
async def test_the_learners_bid_hint_names_the_two_cards_to_lay_away(server: ServerProcess) -> None:
    # seed 3: the first dealer drawn from it is seat 2, so the learner in seat 0 opens holding 12 cards
    dora = GameClient(server.base_url)
    await dora.login("Dora")
    table = await dora.http("POST", "/api/tables", {"deals": 6, "learner": True, "seed": 3,
                                                    "seats": [{"kind": "me"}, *BOTS]})
    await dora.connect()
    await dora.open_table(table["table_id"])
    await dora.http("POST", f"/api/tables/{table['table_id']}/start", {})
    await dora.wait_for(lambda: dora.my_turn(), 30)
    assert dora.state is not None
    choices = dora.state["deal"]["choices"]
    assert choices["must_discard"]  # the opener holds the talon: a bid lays two cards away
    await dora.send({"type": "hint", "id": "h4"})
    answer = await dora.wait_for_message(lambda m: m.get("id") == "h4", 60)
    assert answer["type"] == "hint" and answer["kind"] == "bid", answer
    hand = set(dora.state["deal"]["hands"]["0"])
    assert len(answer["discard"]) == 2 and set(answer["discard"]) <= hand
    assert answer["discard"] == answer["action"]["discard"]
    await dora.close()
