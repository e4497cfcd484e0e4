"""The bot API on three processes behind the nginx configuration of docs/deploy.md (PostgreSQL, Redis)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.cluster.conftest import Cluster
from tests.server.botapi_helpers import FOREVER, Reader, new_account, play_over_api
from tests.server.conftest import ServerProcess
from tests.services import nginx_from_docs
from ulti.client import GameClient, play_randomly
from ulti.engine.record import score_record


@pytest.fixture
def three_behind_nginx(cluster: Cluster, tmp_path: Path) -> Iterator[tuple[str, list[ServerProcess]]]:
    """Three processes behind nginx: the proxy's URL and the processes (to reach one on purpose)."""
    processes = cluster.start(3)
    with nginx_from_docs([p.port for p in processes], tmp_path) as url:
        yield url, processes


@pytest.mark.asyncio
async def test_a_bots_streams_and_acts_work_whichever_process_they_reach(
    three_behind_nginx: tuple[str, list[ServerProcess]],
) -> None:
    proxy, processes = three_behind_nginx
    bot = await new_account(proxy, "Cluster Robo")
    auth = {"authorization": f"Bearer {bot.token}"}
    direct = [httpx2.AsyncClient(base_url=p.base_url, headers=auth, timeout=FOREVER) for p in processes]
    through = httpx2.AsyncClient(base_url=proxy, headers=auth, timeout=FOREVER)
    # the host's table is owned by process 2; the bot's event stream is served by process 0
    events = Reader(direct[0], "/api/stream/event").start()
    await events.wait_for(lambda r: len(r.messages) >= 1)
    host = GameClient(processes[2].base_url)
    await host.login("Host")
    seats = [{"kind": "me"}, {"kind": "invite"}, {"kind": "bot"}]
    table = (await host.http("POST", "/api/tables", {"deals": 6, "seats": seats, "seed": 31}))["table_id"]
    await host.connect()
    await host.open_table(table)
    await host.http("POST", f"/api/tables/{table}/invite_bot", {"seat": 1, "bot": "Cluster Robo"})
    await events.wait_for(lambda r: any(m["type"] == "invited" for m in r.messages), 15)
    invited = next(m for m in events.messages if m["type"] == "invited")
    joined = await direct[1].post(f"/api/bot/tables/{table}/join", json={"seat": 1, "invite": invited["invite"]})
    assert joined.json() == {"seat": 1}
    await host.http("POST", f"/api/tables/{table}/start", {})

    def mid_deal(state: dict[str, Any]) -> bool:
        deal = state["deal"]
        return bool(state["deal_index"] == 2 and deal and deal["phase"] == "play" and len(deal["log"]) >= 5)

    # the table stream on process 0, resumed through the proxy; the acts in turn to 1, 2, 0 and the proxy
    try:
        got, _ = await asyncio.wait_for(
            asyncio.gather(
                play_over_api(direct[0], table, 8, drop=mid_deal, act_via=[direct[1], direct[2], direct[0], through],
                              resume_via=through),
                play_randomly(host, 9, timeout=200),
            ),
            240,
        )
    except TimeoutError:
        # say whether the host's socket fell behind the table, or the table waits for a seat (a stalled player)
        view = await host.http("GET", f"/api/tables/{table}")
        deal = view.get("deal") or {}
        raise AssertionError(
            f"match stalled: table at event {view['seq']}, to move {deal.get('to_move')}; the host's socket "
            f"at event {host.seq}"
        ) from None
    seqs = [m["seq"] for m in got]
    assert got[0]["type"] == "sync" and seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    record = await host.http("GET", f"/api/tables/{table}/record")
    assert got[-1]["state"]["match"]["totals"] == score_record(record)["totals"]
    assert any(a["seat"] == 1 for deal in record["deals"] for a in deal["actions"])
    # the account stream on process 0 heard of the start (stored by process 2) and of the end
    await events.wait_for(lambda r: any(m["type"] == "match_finished" for m in r.messages), 15)
    assert {"type": "match_started", "table": table, "seat": 1} in events.messages
    # a token revoked through process 2 closes its stream on process 0 and is refused everywhere
    async with httpx2.AsyncClient(base_url=processes[2].base_url, timeout=30) as web:
        revoked = await web.delete(f"/api/account/tokens/{bot.token_id}",
                                   headers={"authorization": f"Bearer {bot.session}"})
        assert revoked.status_code == 200
    await events.wait_for(lambda r: r.ended, 15)
    assert events.messages[-1]["code"] == "token_revoked"
    for client in [*direct, through]:
        assert (await client.get("/api/bot/account")).status_code == 401
        await client.aclose()
    await host.close()
