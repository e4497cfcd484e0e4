"""Resign and rematch: a player who resigns hands the seat to a bot for good and ranks as one who left;
the rematch of a finished match is a new table with the same seats, each person taking theirs."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from tests.server.botapi_helpers import new_account
from tests.server.conftest import ServerProcess
from tests.server.test_actor import RecordingHost, new_actor, stop
from tests.server.test_ratings import add_account, begin, create_rated, seat_rows, sit, until_recorded
from ulti.client import GameClient, ServerError
from ulti.server import tableviews
from ulti.server.errors import CommandError
from ulti.server.events import SeatSpec
from ulti.store.eventstore import EventStore

BOTS = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "heuristic"}]


async def finished(client: GameClient, table_id: str, timeout: float = 90) -> dict[str, Any]:
    """The view of ``table_id`` once its match is over."""
    deadline = time.monotonic() + timeout
    while True:
        view: dict[str, Any] = await client.http("GET", f"/api/tables/{table_id}")
        if view["table"]["status"] == "finished":
            return view
        assert time.monotonic() < deadline, "the match did not finish"
        await asyncio.sleep(0.2)


async def refused(code: str, call: Any) -> None:
    with pytest.raises(ServerError) as caught:
        await call
    assert caught.value.code == code


# ---------------------------------------------------------------- in process


@pytest.mark.asyncio
async def test_a_resigned_player_is_ranked_last_and_cannot_take_the_seat_back(store: EventStore) -> None:
    await add_account(store, "acc-anna", "Anna")
    host = RecordingHost(store)
    actor = new_actor(store, host)
    bot: SeatSpec = {"kind": "bot", "level": "random"}
    await create_rated(actor, [{"kind": "open"}, bot, bot])
    await sit(actor, 0, "acc-anna", "Anna")
    await begin(actor)
    await actor.resign("acc-anna")
    assert actor.state.seats[0].resigned and actor.state.seats[0].away
    assert tableviews.view(actor.state, None)["table"]["seats"][0]["resigned"] is True
    await actor.back(0)  # opening the table again does not take the seat back from the bot
    assert actor.state.seats[0].away
    with pytest.raises(CommandError) as again:
        await actor.resign("acc-anna")
    assert again.value.code == "resigned"
    await until_recorded(actor, store)
    await stop(actor, host)
    anna = (await seat_rows(store, "t1"))[0]
    assert anna["left"] and not anna["won"] and anna["rank"] == 3  # ranked as a player who left
    assert all(e["type"] != "away" or e["away"] for _, e in host.committed)  # never handed back to her


# ---------------------------------------------------------------- over HTTP


@pytest.mark.asyncio
async def test_resign_hands_the_seat_to_a_bot_and_refuses_the_players_moves(server: ServerProcess) -> None:
    anna, eve = GameClient(server.base_url), GameClient(server.base_url)
    await anna.login("Anna")
    await eve.login("Eve")
    table = await anna.http("POST", "/api/tables", {"deals": 6, "seats": [{"kind": "me"}, *BOTS]})
    table_id = table["table_id"]
    await refused("not_playing", anna.http("POST", f"/api/tables/{table_id}/resign", {}))
    await anna.connect()
    await anna.open_table(table_id)
    await anna.http("POST", f"/api/tables/{table_id}/start", {})
    await refused("not_seated", eve.http("POST", f"/api/tables/{table_id}/resign", {}))
    assert await anna.http("POST", f"/api/tables/{table_id}/resign", {}) == {"ok": True}
    await anna.wait_for(lambda: anna.state is not None and anna.state["table"]["seats"][0].get("resigned"))
    await refused("resigned", anna.http("POST", f"/api/tables/{table_id}/resign", {}))
    view = await finished(anna, table_id)
    seat = view["table"]["seats"][0]
    assert seat["resigned"] and seat["away"] and seat["name"] == "Anna"
    assert view["match"]["deals_played"] >= 6
    await anna.close()


@pytest.mark.asyncio
async def test_a_rematch_with_bots_starts_at_once_with_the_same_seats(server: ServerProcess) -> None:
    anna = GameClient(server.base_url)
    await anna.login("Anna")
    table = await anna.http("POST", "/api/tables", {"deals": 6, "move_seconds": 30,
                                                    "seats": [*BOTS[:1], {"kind": "me"}, *BOTS[1:]]})
    old = table["table_id"]
    await anna.http("POST", f"/api/tables/{old}/start", {})
    await refused("match_not_over", anna.http("POST", f"/api/tables/{old}/rematch", {}))
    await anna.http("POST", f"/api/tables/{old}/resign", {})
    await finished(anna, old)
    new = (await anna.http("POST", f"/api/tables/{old}/rematch", {}))["table_id"]
    assert new != old
    view = await anna.http("GET", f"/api/tables/{new}")
    assert view["table"]["status"] == "playing" and view["you"] == 1
    assert view["table"]["move_seconds"] == 30 and view["table"]["deals_planned"] == 6
    assert [(s["kind"], s["level"]) for s in view["table"]["seats"]] == [
        ("bot", "random"), ("player", None), ("bot", "heuristic"),
    ]
    assert (await anna.http("GET", f"/api/tables/{old}"))["rematch"] == {"table": new, "seat": 1}
    # asked again: the same rematch, not another table
    assert (await anna.http("POST", f"/api/tables/{old}/rematch", {}))["table_id"] == new


@pytest.mark.asyncio
async def test_a_rematch_keeps_each_persons_seat_until_they_accept(server: ServerProcess) -> None:
    anna, bela, eve = (GameClient(server.base_url) for _ in range(3))
    for client, name in ((anna, "Anna"), (bela, "Bela"), (eve, "Eve")):
        await client.login(name)
    table = await anna.http("POST", "/api/tables", {"deals": 6, "seats": [{"kind": "me"}, {"kind": "open"}, BOTS[0]]})
    old = table["table_id"]
    await bela.http("POST", f"/api/tables/{old}/join", {"seat": 1})
    await anna.http("POST", f"/api/tables/{old}/start", {})
    await anna.http("POST", f"/api/tables/{old}/resign", {})
    await bela.http("POST", f"/api/tables/{old}/resign", {})
    await finished(anna, old)
    await refused("not_seated", eve.http("POST", f"/api/tables/{old}/rematch", {}))
    new = (await bela.http("POST", f"/api/tables/{old}/rematch", {}))["table_id"]
    waiting = await bela.http("GET", f"/api/tables/{new}")
    assert waiting["table"]["status"] == "open"
    assert [s["kind"] for s in waiting["table"]["seats"]] == ["invite", "player", "bot"]
    # the kept seat takes nobody but its player: a stranger cannot join it without the invite
    await refused("reserved", eve.http("POST", f"/api/tables/{new}/join", {"seat": 0}))
    assert (await anna.http("POST", f"/api/tables/{old}/rematch", {}))["table_id"] == new
    started = await anna.http("GET", f"/api/tables/{new}")
    assert started["table"]["status"] == "playing" and started["you"] == 0
    assert [s["name"] for s in started["table"]["seats"][:2]] == ["Anna", "Bela"]


@pytest.mark.asyncio
async def test_a_bot_account_is_not_seated_by_a_rematch_request(server: ServerProcess) -> None:
    anna = GameClient(server.base_url)
    await anna.login("Anna")
    table = await anna.http("POST", "/api/tables", {"deals": 6, "seats": [{"kind": "me"}, *BOTS]})
    old = table["table_id"]
    await anna.http("POST", f"/api/tables/{old}/start", {})
    await anna.http("POST", f"/api/tables/{old}/resign", {})
    await finished(anna, old)
    robot = await new_account(server.base_url, "Robo Rematch")
    async with robot.web(server.base_url) as web:
        answer = await web.post(f"/api/tables/{old}/rematch", json={})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "bot_account"
