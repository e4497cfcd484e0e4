"""A command re-sent with its id is never carried out twice, and is answered the same way before and
after a restart (docs/protocol/connection.md §5.3): a command the table carried out gets an ``ack`` with its
original event number; the id of a refused command is ``duplicate_id`` while the process remembers it,
and after a restart that command is simply checked again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import three_players
from ulti.client import GameClient

# A long grace: the restart must not make anyone "away" (a bot would then act and move the table on).
ARGS = ("--fast", "--disconnect-grace", "60")


async def answer(client: GameClient, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` as it is (its own id) and return the ``ack`` or ``error`` that answers it."""
    start = len(client.received)

    def found() -> dict[str, Any] | None:
        return next(
            (m for m in client.received[start:] if m.get("id") == message["id"] and m["type"] in ("ack", "error")),
            None,
        )

    await client.send(message)
    await client.wait_for(lambda: found() is not None, 10)
    reply = found()
    assert reply is not None
    return reply


async def quiet(clients: list[GameClient]) -> list[int]:
    """Each client's latest event number once a ping has gone round (anything sent before it has come)."""
    for client in clients:
        await client.request({"type": "ping"})
    return [client.seq for client in clients]


async def started_table(srv: ServerProcess) -> tuple[str, list[GameClient], GameClient, GameClient]:
    """A started table of three players, the one on turn, and one who is not."""
    table_id, clients = await three_players(srv.base_url, start=True)
    for client in clients:
        await client.wait_for(lambda c=client: c.state is not None and c.state["deal"] is not None, 10)
    await clients[0].wait_for(lambda: any(c.my_turn() for c in clients), 10)
    on_turn = next(c for c in clients if c.my_turn())
    return table_id, clients, on_turn, next(c for c in clients if c is not on_turn)


@pytest.mark.asyncio
async def test_a_resent_command_is_acked_with_its_first_event_and_a_refused_ones_id_is_a_duplicate(
    server: ServerProcess,
) -> None:
    _, clients, on_turn, _ = await started_table(server)
    act = {"type": "act", "id": "x1", "action": on_turn.random_action()}
    first = await answer(on_turn, act)
    assert first["type"] == "ack"
    before = await quiet(clients)
    again = await answer(on_turn, act)
    assert again == {**first, "_t": again["_t"]}  # the same ack: the original event number
    assert await quiet(clients) == before  # and nothing happened: no event for anybody
    # an id whose command was refused stays used: re-sent, it is a duplicate, and nothing is done
    waiting = next(c for c in clients if not c.my_turn())
    refused = {"type": "act", "id": "y1", "action": {"action": "pass"}}
    assert (await answer(waiting, refused))["code"] == "not_your_turn"
    assert (await answer(waiting, refused))["code"] == "duplicate_id"
    assert await quiet(clients) == before
    for client in clients:
        await client.close()


@pytest.mark.asyncio
async def test_after_a_restart_a_resent_command_is_acked_with_its_first_event_and_never_runs_twice(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    srv = server_factory(db_url=f"sqlite+aiosqlite:///{tmp_path / 'ulti.db'}", args=ARGS)
    srv.start(tmp_path / "server.log")
    table_id, clients, on_turn, _ = await started_table(srv)
    act = {"type": "act", "id": "r1", "action": on_turn.random_action()}
    first = await answer(on_turn, act)
    assert first["type"] == "ack"
    before = await quiet(clients)
    waiting = next(c for c in clients if not c.my_turn())
    refused = {"type": "act", "id": "r2", "action": {"action": "pass"}}
    assert (await answer(waiting, refused))["code"] == "not_your_turn"

    srv.kill()  # kill -9: the process's memory of used ids is gone, the stored events are not
    srv.start(tmp_path / "server.log")
    for client in clients:
        await client.close()
        await client.connect()
        await client.open_table(table_id)
    assert await quiet(clients) == before

    again = await answer(on_turn, act)
    assert again["type"] == "ack" and again["seq"] == first["seq"]  # the table itself remembers the command
    assert await quiet(clients) == before  # carried out once only
    # the refused command was never carried out: after the restart it is checked again, as a new one
    assert (await answer(waiting, refused))["code"] == "not_your_turn"
    assert await quiet(clients) == before
    for client in clients:
        await client.close()
    assert "Traceback" not in (tmp_path / "server.log").read_text()
