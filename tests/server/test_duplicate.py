"""Solo duplicate against real ``ulti serve`` processes: each deal's par is a real deal on the same cards.

docs/protocol/duplicate.md §23.5. The person plays random legal actions; the par replays (the strong bot in
their seat) run in the server's bot workers in the background, and their records are checked with
``ulti score``, as anyone could check a downloaded one.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import until
from ulti.client import GameClient, ServerError, play_randomly

SEATS = [{"kind": "me"}, {"kind": "bot", "level": "heuristic"}, {"kind": "bot", "level": "heuristic"}]


async def duplicate_table(base_url: str, name: str = "Solo") -> tuple[str, GameClient]:
    client = GameClient(base_url)
    await client.login(name)
    table = await client.http("POST", "/api/tables", {"deals": 6, "seats": SEATS, "duplicate": True})
    await client.http("POST", f"/api/tables/{table['table_id']}/start", {})
    await client.connect()
    await client.open_table(table["table_id"])
    return table["table_id"], client


async def all_pars(client: GameClient, table_id: str, timeout: float = 240) -> dict[str, Any]:
    view: dict[str, Any] = {}

    async def done() -> bool:
        nonlocal view
        view = await client.http("GET", f"/api/tables/{table_id}")
        dup = view["match"]["duplicate"] if view["match"] else None
        return bool(view["table"]["status"] == "finished" and dup and dup["pending"] == 0)

    await until(done, timeout, "every par replay is in")
    return view


def ulti_score(path: Path) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-m", "ulti.cli", "score", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


@pytest.mark.asyncio
async def test_a_duplicate_table_seats_one_person_and_two_bots(server: ServerProcess) -> None:
    client = GameClient(server.base_url)
    await client.login("Solo")
    for seats in ([{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}], [{"kind": "bot"}] * 3):
        with pytest.raises(ServerError) as error:
            await client.http("POST", "/api/tables", {"deals": 6, "seats": seats, "duplicate": True})
        assert error.value.code == "bad_config"


@pytest.mark.asyncio
async def test_over_a_match_each_par_is_a_real_deal_played_on_the_same_cards(
    server: ServerProcess, tmp_path: Path
) -> None:
    table_id, client = await duplicate_table(server.base_url)
    await asyncio.wait_for(play_randomly(client, seed=21), 240)
    view = await all_pars(client, table_id)
    await client.close()
    dup = view["match"]["duplicate"]
    seat = dup["seat"]
    assert seat == 0 and len(dup["deals"]) == view["match"]["deals_played"] >= 6
    for row in dup["deals"]:
        k = row["index"]
        played = await client.http("GET", f"/api/tables/{table_id}/deals/{k}/record")
        par = await client.http("GET", f"/api/tables/{table_id}/deals/{k}/par")
        assert par["status"] == "done"
        # the same cards and the same dealer as the deal the person played
        assert (par["record"]["dealer"], par["record"]["hands"]) == (played["dealer"], played["hands"])
        # a real deal: `ulti score` replays every action and scores it as the sheet shows
        path = tmp_path / f"par{k}.json"
        path.write_text(json.dumps(par["record"]))
        scored = ulti_score(path)
        assert scored["complete"] and scored["scores"] == par["scores"]
        assert row["par"] == scored["scores"][seat]
        assert row["you"] == view["match"]["results"][k]["scores"][seat]
        assert row["diff"] == row["you"] - row["par"]
    assert dup["diff_total"] == sum(r["diff"] for r in dup["deals"])
    assert dup["you_total"] - dup["par_total"] == dup["diff_total"]
    want = "won" if dup["diff_total"] > 0 else "lost" if dup["diff_total"] < 0 else "level"
    assert dup["verdict"] == want


@pytest.mark.asyncio
async def test_a_par_pending_at_a_kill_9_is_played_after_the_restart(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}"
    first = server_factory(db_url=db, args=("--fast",))
    first.start(tmp_path / "first.log")
    table_id, client = await duplicate_table(first.base_url)
    play = asyncio.create_task(play_randomly(client, seed=3))
    await client.wait_for(lambda: bool(client.state and client.state["match"]["duplicate"]["deals"]), 120)
    assert client.state is not None
    pending = client.state["match"]["duplicate"]["pending"]
    first.kill()
    play.cancel()
    await client.close()
    second = server_factory(db_url=db, port=first.port, args=("--fast",))
    second.start(tmp_path / "second.log")
    again = GameClient(second.base_url)
    again.token, again.player_id = client.token, client.player_id
    await again.connect()
    await again.open_table(table_id)
    await asyncio.wait_for(play_randomly(again, seed=4), 240)
    view = await all_pars(again, table_id)
    await again.close()
    assert pending >= 1  # the kill came while the first par was still being played
    dup = view["match"]["duplicate"]
    assert [r["index"] for r in dup["deals"]] == list(range(view["match"]["deals_played"]))
    assert all(r["par"] is not None for r in dup["deals"])
    for log in ("first.log", "second.log"):
        assert "Traceback" not in (tmp_path / log).read_text()
