"""Real bot processes through the bot API: ``ulti bot`` and examples/bot.py play a match against a scripted player."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.server.botapi_helpers import new_account
from tests.server.conftest import ServerProcess
from ulti.client import GameClient, ServerError, play_randomly
from ulti.engine.record import score_record

ROOT = Path(__file__).resolve().parents[2]
#: the fields of an action everybody sees (a discard is the discarding seat's secret until the deal ends)
PUBLIC = ("seat", "action", "bid", "card", "suit", "parts")


def public(entry: dict[str, Any]) -> dict[str, Any]:
    """The fields of an action that every seat is shown."""
    return {k: entry[k] for k in PUBLIC if k in entry}


def actions_by_deal(events: list[tuple[int, dict[str, Any] | None]]) -> list[list[dict[str, Any]]]:
    """The actions each deal showed, from (seq, event) pairs in stream order."""
    deals: list[list[dict[str, Any]]] = []
    for _, event in events:
        if event is None:
            continue
        if event["type"] == "deal":
            deals.append([])
        elif event["type"] == "action":
            deals[-1].append(public(event["action"]))
    return deals


def start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:
        return subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})


async def invite_until_seated(host: GameClient, table: str, seat: int, bot: str) -> None:
    """Invite ``bot`` to ``seat`` again and again until it sits there (its event stream may not be open yet)."""
    for _ in range(200):
        try:
            await host.http("POST", f"/api/tables/{table}/invite_bot", {"seat": seat, "bot": bot})
        except ServerError as exc:
            # not a bot account yet (``ulti bot --upgrade`` is starting), or the seat is taken: by the bot
            assert exc.code in ("not_found", "bad_request")
        state = host.state
        if state is not None and state["table"]["seats"][seat]["kind"] == "player":
            return
        await asyncio.sleep(0.25)
    raise AssertionError(f"{bot} never took seat {seat}")


@pytest.mark.asyncio
async def test_ulti_bot_and_the_example_bot_play_a_whole_match_against_a_scripted_player(
    server: ServerProcess, tmp_path: Path
) -> None:
    ours = await new_account(server.base_url, "Ulti Process", bot=False)  # `ulti bot --upgrade` makes it a bot
    example = await new_account(server.base_url, "Example Robo")
    record = tmp_path / "record"
    processes = [
        start([sys.executable, "-m", "ulti.cli", "bot", "--server", server.base_url, "--token", ours.token,
               "--level", "heuristic", "--upgrade", "--record", str(record), "--tables", "1"],
              tmp_path / "ulti-bot.log"),
        start([sys.executable, str(ROOT / "examples" / "bot.py"), server.base_url, example.token, "1"],
              tmp_path / "example.log"),
    ]
    try:
        host = GameClient(server.base_url)
        await host.login("Scripted")
        seats = [{"kind": "me"}, {"kind": "invite"}, {"kind": "invite"}]
        table = (await host.http("POST", "/api/tables", {"deals": 6, "seats": seats, "seed": 2024}))["table_id"]
        await host.connect()
        await host.open_table(table)
        await asyncio.wait_for(asyncio.gather(invite_until_seated(host, table, 1, "Ulti Process"),
                                              invite_until_seated(host, table, 2, "Example Robo")), 60)
        assert host.state is not None
        assert [s.get("bot", False) for s in host.state["table"]["seats"]] == [False, True, True]
        for seat in (1, 2):  # each bot follows the table's stream (its seat is present) before the start
            await host.wait_for_message(lambda m, s=seat: m.get("type") == "presence" and m["seat"] == s
                                        and m["connected"], 30)
        await host.http("POST", f"/api/tables/{table}/start", {})
        await asyncio.wait_for(play_randomly(host, 77, timeout=200), 220)
        for proc in processes:
            assert await asyncio.to_thread(proc.wait, 60) == 0
    finally:
        for proc in processes:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    match = await host.http("GET", f"/api/tables/{table}/record")
    totals = score_record(match)["totals"]
    truth = [[public(a) for a in deal["actions"]] for deal in match["deals"]]
    assert len(truth) >= 6
    # what `ulti bot` was shown (every line of its table stream)
    lines = [json.loads(line) for line in (record / f"{table}.ndjson").read_text().splitlines()]
    seqs = [m["seq"] for m in lines]
    assert lines[0]["type"] == "sync" and seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    assert lines[-1]["state"]["match"]["totals"] == totals
    assert lines[-1]["state"]["you"] == 1
    assert actions_by_deal([(m["seq"], m.get("event")) for m in lines]) == truth
    # what the example bot was shown (it prints each line's number and event)
    printed = [line.split(" ", 2) for line in (tmp_path / "example.log").read_text().splitlines()]
    shown = [(int(seq), json.loads(event)) for t, seq, event in printed if t == table and seq.isdigit()]
    assert [s for s, _ in shown] == list(range(shown[0][0], shown[0][0] + len(shown)))
    assert actions_by_deal(shown) == truth
    assert "refused" not in (tmp_path / "example.log").read_text()
    # the two bots really played their seats themselves
    for seat in (1, 2):
        assert any(a["seat"] == seat for deal in truth for a in deal)
    await host.close()
