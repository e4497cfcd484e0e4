"""GET /api/tables/{id}/deals/{k}/replay: the engine's replay frames of a finished deal, nothing else."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import play_first_deal_randomly
from ulti.client import GameClient
from ulti.engine.cards import parse_card
from ulti.engine.record import deal_from_record
from ulti.engine.replay import replay_frames


async def get(srv: ServerProcess, path: str) -> tuple[int, Any]:
    """GET ``path`` with no session, as the routes allow: the status and the JSON answer."""
    async with httpx2.AsyncClient(base_url=srv.base_url, timeout=10) as http:
        response = await http.get(path)
    return response.status_code, response.json()


@pytest.mark.asyncio
async def test_replay_route_serves_the_engine_frames_of_finished_deals_only(server: ServerProcess) -> None:
    host = GameClient(server.base_url)
    await host.login("Anna")
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table_id = (await host.http("POST", "/api/tables", {"deals": 6, "seats": seats, "move_seconds": 0}))["table_id"]
    path = f"/api/tables/{table_id}"
    await host.connect()
    await host.open_table(table_id)
    await host.http("POST", f"{path}/start", {})
    await host.wait_for(lambda: host.state is not None and host.state["deal"] is not None, 10)

    # deal 0 is being played: no replay (it would show the hidden hands), like the record
    for index in (0, 1, -1):
        status, body = await get(server, f"{path}/deals/{index}/replay")
        assert status == 404 and body["error"]["code"] == "not_found", (index, body)
    status, body = await get(server, f"{path}/deals/x/replay")
    assert status == 400 and body["error"]["code"] == "bad_request"
    status, body = await get(server, f"/api/tables/{'x' * 65}/deals/0/replay")
    assert status == 400 and body["error"]["code"] == "bad_id"
    status, body = await get(server, "/api/tables/nosuchtable/deals/0/replay")
    assert status == 404 and body["error"]["code"] == "not_found"

    # seat 0 plays random legal moves (the bots play theirs) until deal 0 is over
    await play_first_deal_randomly(host, 5)
    shown = host.state["match"]["results"][0]  # type: ignore[index]

    status, record = await get(server, f"{path}/deals/0/record")
    assert status == 200
    status, replay = await get(server, f"{path}/deals/0/replay")
    assert status == 200 and list(replay) == ["frames"]
    frames = replay["frames"]
    # exactly the engine's frames of the recorded deal, through JSON
    assert frames == json.loads(json.dumps(replay_frames(deal_from_record(record))))
    assert len(frames) == len(record["actions"]) + 1
    assert frames[0]["hands"] == [sorted(h, key=parse_card) for h in record["hands"]]
    # the last frame's result is the one the players were shown
    assert frames[-1]["view"]["result"] == shown
    await host.close()
