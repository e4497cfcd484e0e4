"""The concrete stores offer every narrow protocol their consumers are typed with (``ulti.store.ports``).

The type checker proves it where the composition root hands the store over; this checks it again at
run time, protocol by protocol, so that a method renamed on one side is named here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ulti.store import ports
from ulti.store.eventstore import EventStore
from ulti.store.puzzles import PuzzleStore

STORE_PORTS = (
    ports.TableLog, ports.MatchResults, ports.ActorStore, ports.TableIndex, ports.PlayerBook, ports.SettingBook,
    ports.AccountBook, ports.Erasure, ports.BotAccounts, ports.AnalysisQueue, ports.DuplicateBook, ports.ParQueue,
    ports.TournamentBook, ports.PlayerReads, ports.ServerStore,
)


@pytest.mark.asyncio
@pytest.mark.parametrize("port", STORE_PORTS, ids=lambda p: p.__name__)
async def test_the_event_store_offers_every_port(tmp_path: Path, port: type) -> None:
    store = await EventStore.open(f"sqlite+aiosqlite:///{tmp_path / 'ports.db'}")
    try:
        assert isinstance(store, port)
    finally:
        await store.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("port", (ports.PuzzleSources, ports.PuzzleBook), ids=lambda p: p.__name__)
async def test_the_puzzle_store_offers_its_ports(tmp_path: Path, port: type) -> None:
    store = await EventStore.open(f"sqlite+aiosqlite:///{tmp_path / 'ports.db'}")
    try:
        assert isinstance(PuzzleStore(store.engine), port)
    finally:
        await store.close()


def test_the_actors_port_is_a_handful_of_methods() -> None:
    # the actor's whole use of storage: its log (3) and recording its match (5)
    methods = {name for name in dir(ports.ActorStore) if not name.startswith("_")}
    assert methods == {
        "append", "events", "save_table",
        "ensure_bot_accounts", "ensure_ratings", "match_recorded", "record_match", "last_event_at",
    }
