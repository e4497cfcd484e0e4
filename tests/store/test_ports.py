"""The concrete stores offer every narrow protocol their consumers are typed with (``ulti.store.ports``).

The type checker proves it where the composition root hands the store over; this checks it again at
run time, protocol by protocol, so that a method renamed on one side is named here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ulti.store import ports
from ulti.store.eventstore import EventStore
from ulti.store.puzzles import PuzzleStore

STORE_PORTS = (
    ports.TableLog, ports.MatchResults, ports.ActorStore, ports.TableIndex, ports.PlayerBook, ports.SettingBook,
    ports.AccountBook, ports.Erasure, ports.BotAccounts, ports.AnalysisQueue, ports.DuplicateBook, ports.ParQueue,
    ports.TournamentBook, ports.PlayerReads, ports.HubStore, ports.ServerStore,
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


def test_the_hubs_port_is_its_actors_the_tables_index_and_a_duplicates_row() -> None:
    # what the hub itself calls: its actors' port, the tables' index (lobby, ownership, seats), the row a
    # duplicate's visibility is read from, whether a player is a bot account, and a player's rating (the
    # level of the bots chosen for them: bot_choice); nothing a route uses
    members = {name for name in [*dir(ports.HubStore), *ports.HubStore.__annotations__] if not name.startswith("_")}
    actor = {name for name in dir(ports.ActorStore) if not name.startswith("_")}
    index = {name for name in dir(ports.TableIndex) if not name.startswith("_")}
    assert members == actor | index | {"duplicate", "is_bot_account", "on_commit", "rating_of"}


def test_only_the_request_accessor_names_the_whole_store() -> None:
    # every other module of the server takes the face it uses (``bodies.store_of`` hands it over)
    server = Path(ports.__file__).resolve().parents[1] / "server"
    naming = sorted(
        path.name for path in server.glob("*.py")
        if any(isinstance(node, ast.Name | ast.alias) and "ServerStore" in (getattr(node, "id", None),
               getattr(node, "name", None)) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
    )
    assert naming == ["bodies.py"]
