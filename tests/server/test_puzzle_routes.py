"""The puzzle API over a real server process (docs/protocol/puzzles.md): solving as a guest, a wrong card
explained, an account's rating moving and kept across a restart, the daily puzzle, no hidden hand before
the end, bad input refused with a 400 naming the field or rule."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import guest
from tests.server.test_ratings import account_client
from ulti.client import GameClient, ServerError
from ulti.engine.dealviews import hands_open
from ulti.puzzles.attempt import legal_codes, position
from ulti.puzzles.shipped import load
from ulti.server.puzzle_routes import daily_pick, utc_day

SHIPPED = load()
ONE_MOVE = next(p for p in SHIPPED if len(p["moves"]) == 1)
TWO_MOVES = next(p for p in SHIPPED if len(p["moves"]) >= 2)
BY_ID = {p["id"]: p for p in SHIPPED}


def wrong_card(puzzle: dict[str, Any], cards: list[str] | None = None) -> str:
    """A legal card of the puzzle's next move that is not in its answer."""
    pos = position(puzzle, cards or [])
    answer = puzzle["moves"][pos.move]["answer"]
    return next(c for c in legal_codes(pos.deal) if pos.known_as(c) not in answer)


def only_shown_hands(state: dict[str, Any], puzzle: dict[str, Any], cards: list[str]) -> None:
    """The view after the player's ``cards`` holds the player's own hand and no other (the others' sizes only),
    unless the rules lay every hand open there (an open contract after trick 1: ``dealviews.hands_open``; a
    dozen of the shipped puzzles, one of them a day's daily puzzle); nothing of the solution is revealed."""
    shown = ["0", "1", "2"] if hands_open(position(puzzle, cards).deal) else [str(puzzle["seat"])]
    assert list(state["view"]["hands"]) == shown, state["view"]["hands"]
    assert "reveal" not in state and "open_values" not in state


def only_shown_hands_of_the_attempt(state: dict[str, Any]) -> None:
    """``only_shown_hands`` for a puzzle's state as the server gives it (which puzzle, how far the attempt is)."""
    only_shown_hands(state, BY_ID[state["puzzle"]["id"]], state["attempt"]["cards"])


async def refusal(client: GameClient | None, srv: ServerProcess, method: str, path: str, body: Any = None) -> Any:
    """The status and error object of a refused request."""
    headers = {"authorization": f"Bearer {client.token}"} if client is not None else {}
    async with httpx2.AsyncClient(base_url=srv.base_url, timeout=30) as http:
        response = await http.request(method, path, json=body, headers=headers)
    assert response.status_code >= 400, response.text
    return response.status_code, response.json()["error"]


@pytest.mark.asyncio
async def test_a_guest_solves_a_puzzle_and_then_sees_the_whole_deal(server: ServerProcess) -> None:
    anna = await guest(server.base_url, "Anna")
    state = await anna.http("GET", f"/api/puzzles/{ONE_MOVE['id']}")
    assert state["puzzle"]["id"] == ONE_MOVE["id"] and state["attempt"] == {"status": "new", "move": 0, "cards": []}
    only_shown_hands(state, ONE_MOVE, [])
    assert state["player"]["rating"] == 1500
    card = ONE_MOVE["moves"][0]["answer"][-1]  # any card of the answer's class is right
    answer = await anna.http("POST", f"/api/puzzles/{ONE_MOVE['id']}/move", {"card": card, "move": 0})
    assert answer["correct"] and answer["status"] == "solved"
    assert answer["line"][0] == card and set(answer["values"]) == set(ONE_MOVE["moves"][0]["values"])
    assert sorted(answer["reveal"]["hands"]) == ["0", "1", "2"]
    assert answer["rating"]["rated"] and answer["rating"]["change"] > 0
    assert answer["player"]["rating"] == answer["rating"]["after"] > 1500
    history = await anna.http("GET", "/api/puzzles/history")
    assert history["attempts"][0]["puzzle"] == ONE_MOVE["id"] and history["attempts"][0]["status"] == "solved"
    assert history["player"]["solved"] == 1


@pytest.mark.asyncio
async def test_a_wrong_card_is_explained_with_each_cards_value_and_the_line(server: ServerProcess) -> None:
    bela = await guest(server.base_url, "Béla")
    card = wrong_card(ONE_MOVE)
    answer = await bela.http("POST", f"/api/puzzles/{ONE_MOVE['id']}/move", {"card": card})
    move = ONE_MOVE["moves"][0]
    assert not answer["correct"] and answer["status"] == "failed"
    assert answer["answer"] == move["answer"]
    assert answer["values"][card] < answer["values"][move["answer"][0]]  # why: the value of each card
    assert answer["open_values"][card] < answer["open_values"][move["answer"][0]]
    assert answer["line"][0] == card and len(answer["line"]) > 1  # the solver's line after the wrong card
    assert answer["rating"]["change"] < 0 and answer["player"]["rating"] < 1500
    # a retry is not rated; the puzzle is offered again by id
    again = await bela.http("POST", f"/api/puzzles/{ONE_MOVE['id']}/move", {"card": move["answer"][0]})
    assert again["correct"] and again["rating"] == {"rated": False, "before": answer["player"]["rating"],
                                                    "after": answer["player"]["rating"], "change": 0}


@pytest.mark.asyncio
async def test_an_account_rating_moves_and_persists_across_a_restart(tmp_path: Path) -> None:
    srv = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}")
    srv.start(tmp_path / "server.log")
    try:
        cili = await account_client(srv.base_url, "Cili Puzzler")
        right = {"card": ONE_MOVE["moves"][0]["answer"][0]}
        solved = await cili.http("POST", f"/api/puzzles/{ONE_MOVE['id']}/move", right)
        after = solved["rating"]["after"]
        assert after > 1500
        srv.stop()
        srv.start(tmp_path / "server.log")
        history = await cili.http("GET", "/api/puzzles/history")
        assert history["player"]["rating"] == after and history["player"]["attempts"] == 1
        # the next puzzle is one not tried yet, near the new rating
        nxt = await cili.http("GET", "/api/puzzles/next")
        assert nxt["puzzle"]["id"] != ONE_MOVE["id"] and nxt["player"]["rating"] == after
    finally:
        srv.stop()
    assert "Traceback" not in (tmp_path / "server.log").read_text()


@pytest.mark.asyncio
async def test_the_daily_puzzle_is_the_same_for_everyone_on_a_utc_day(server: ServerProcess) -> None:
    dora, erik = await guest(server.base_url, "Dóra"), await guest(server.base_url, "Erik")
    first = await dora.http("GET", "/api/puzzles/daily")
    second = await erik.http("GET", "/api/puzzles/daily")
    assert first["puzzle"]["id"] == second["puzzle"]["id"] and first["daily"] == second["daily"] == utc_day()[0]
    only_shown_hands_of_the_attempt(first)
    # the draw depends on the date alone; another day draws another number
    noon = datetime.datetime(2026, 3, 1, 12, tzinfo=datetime.UTC)
    late = datetime.datetime(2026, 3, 1, 23, 59, tzinfo=datetime.UTC)
    assert utc_day(noon) == utc_day(late) and daily_pick(utc_day(noon)[0]) != daily_pick("2026-03-02")


@pytest.mark.asyncio
async def test_no_other_hand_is_shown_before_the_puzzle_is_solved_or_failed(server: ServerProcess) -> None:
    feri = await guest(server.base_url, "Feri")
    for path in (f"/api/puzzles/{TWO_MOVES['id']}", "/api/puzzles/next", "/api/puzzles/daily"):
        state = await feri.http("GET", path)
        only_shown_hands_of_the_attempt(state)
    path = f"/api/puzzles/{TWO_MOVES['id']}/move"
    first = await feri.http("POST", path, {"card": TWO_MOVES["moves"][0]["answer"][0]})
    assert first["correct"] and first["status"] == "open" and first["move"] == 1
    only_shown_hands(first, TWO_MOVES, first["line"][:1])
    assert first["replies"] == TWO_MOVES["moves"][0]["replies"] and "rating" not in first
    # the attempt resumes where it stands, still from the player's seat only
    resumed = await feri.http("GET", f"/api/puzzles/{TWO_MOVES['id']}")
    assert resumed["attempt"]["status"] == "open" and resumed["attempt"]["move"] == 1
    assert resumed["view"] == first["view"]
    only_shown_hands_of_the_attempt(resumed)
    stale = await refusal(feri, server, "POST", path, {"card": "AS", "move": 0})
    assert stale[0] == 400 and stale[1]["code"] == "bad_request" and stale[1]["message"].startswith("move:")
    last = await feri.http("POST", path, {"card": wrong_card(TWO_MOVES, first["line"][:1])})
    assert last["status"] == "failed" and sorted(last["reveal"]["hands"]) == ["0", "1", "2"]


@pytest.mark.asyncio
async def test_bad_input_is_refused_with_a_400_naming_the_field_or_rule(server: ServerProcess) -> None:
    gizi = await guest(server.base_url, "Gizi")
    path = f"/api/puzzles/{ONE_MOVE['id']}/move"
    status, error = await refusal(gizi, server, "POST", path, {"card": "ZZ"})
    assert status == 400 and error["code"] == "bad_request"
    assert error["message"].startswith("card:") and "ZZ" in error["message"]
    held = set(position(ONE_MOVE, []).deal.seat_view(ONE_MOVE["seat"]).to_json()["hands"][str(ONE_MOVE["seat"])])
    other = next(c for c in ("AS", "AH", "AC", "AD", "7S", "7H", "7C", "7D") if c not in held)
    status, error = await refusal(gizi, server, "POST", path, {"card": other})
    assert status == 400 and error["code"] == "bad_request" and error["rule"] == "card_not_held", error
    for body in ({}, {"card": 7}, {"card": "AS", "extra": 1}, {"card": "AS", "move": -1}):
        status, error = await refusal(gizi, server, "POST", path, body)
        assert status == 400 and error["code"] == "bad_request" and error["message"].startswith("body."), error
    status, error = await refusal(gizi, server, "GET", "/api/puzzles/next?theme=chess")
    assert status == 400 and error["code"] == "bad_request" and error["message"].startswith("theme:")
    status, error = await refusal(gizi, server, "GET", "/api/puzzles/next?phase=late")
    assert status == 400 and error["code"] == "bad_request" and error["message"].startswith("phase:")
    status, error = await refusal(gizi, server, "GET", "/api/puzzles/0000000000000000")
    assert status == 404 and error["code"] == "not_found"
    status, error = await refusal(gizi, server, "GET", "/api/puzzles/a%20b")
    assert status == 400 and error["code"] == "bad_id"
    status, error = await refusal(None, server, "GET", "/api/puzzles/daily")
    assert status == 401 and error["code"] == "unauthorized"


@pytest.mark.asyncio
async def test_next_keeps_to_the_chosen_theme_and_phase_and_never_repeats(server: ServerProcess) -> None:
    hedi = await guest(server.base_url, "Hedi")
    seen = set()
    for _ in range(3):
        state = await hedi.http("GET", "/api/puzzles/next?theme=catch_seven&phase=endgame")
        assert "catch_seven" in state["puzzle"]["themes"] and state["puzzle"]["phase"] == "endgame"
        puzzle = next(p for p in SHIPPED if p["id"] == state["puzzle"]["id"])
        await hedi.http("POST", f"/api/puzzles/{puzzle['id']}/move", {"card": wrong_card(puzzle)})
        assert puzzle["id"] not in seen
        seen.add(puzzle["id"])
    themes = await hedi.http("GET", "/api/puzzles/themes")
    assert {t["name"] for t in themes["themes"]} >= {"catch_seven", "opening_lead"}
    with pytest.raises(ServerError):
        await GameClient(server.base_url).http("GET", "/api/puzzles/next")
