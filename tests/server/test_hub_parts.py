"""The hub's collaborators run on their own, built with only what they use: a registry and callables."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, cast

from ulti.server.broadcast import Broadcaster
from ulti.server.connections import Attendance
from ulti.server.hubcore import Connection, Replica, TableRegistry
from ulti.server.lobby import Lobby
from ulti.server.seeks import Matchmaker, SeatingHub
from ulti.server.tablestate import TableState
from ulti.store.ports import TableIndex, TableLog

ANNA, BELA = "p-anna", "p-bela"


def seated_table() -> TableState:
    """Table t1 with Anna at seat 0 and Bela at seat 1."""
    state = TableState("t1")
    state.apply({"type": "created", "host": ANNA, "deals": 6, "move_seconds": 0, "seed": 5,
                 "chosen_seed": True, "practice": False,
                 "seats": [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}]})
    state.apply({"type": "sit", "seat": 0, "player": ANNA, "name": "Anna"})
    state.apply({"type": "sit", "seat": 1, "player": BELA, "name": "Bela"})
    return state


def watching(tables: TableRegistry, player_id: str, name: str, table_id: str | None) -> Connection:
    """An open connection of ``player_id`` watching ``table_id``."""
    conn = Connection(player_id, name)
    tables.connections.add(conn)
    tables.connections.set_table(conn, table_id)
    return conn


class Untouched:
    """Stands for a store port a part must not read in the case tested: any use fails the test."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the store was read ({name}) where the registry answers")


def no_spawn(coro: Awaitable[None]) -> None:
    """A spawn function for parts that must start nothing in the background here."""
    raise AssertionError(f"nothing should be spawned: {coro!r}")


def test_attendance_tells_the_owner_only_when_a_seated_players_last_connection_closes() -> None:
    tables = TableRegistry()
    tables.replicas["t1"] = Replica("t1", seated_table())
    closed_seeks: list[Connection] = []
    left: list[tuple[str, str]] = []

    async def seek_closed(conn: Connection) -> None:
        closed_seeks.append(conn)

    async def player_left(table_id: str, player_id: str) -> None:
        left.append((table_id, player_id))

    attendance = Attendance(tables, None, seek_closed, player_left)
    first, second = watching(tables, ANNA, "Anna", "t1"), watching(tables, ANNA, "Anna", "t1")
    onlooker = watching(tables, "p-cili", "Cili", "t1")

    async def scenario() -> None:
        assert await attendance.is_present("t1", ANNA)
        await attendance.disconnected(first)
        assert left == []  # Anna is still there on her other connection
        await attendance.disconnected(onlooker)
        assert left == []  # an onlooker holds no seat
        await attendance.disconnected(second)
        assert left == [("t1", ANNA)]
        assert not await attendance.is_present("t1", ANNA)

    asyncio.run(scenario())
    assert closed_seeks == [first, onlooker, second] and len(tables.connections) == 0
    assert attendance.seen_client_id(ANNA, "c1") is False and attendance.seen_client_id(ANNA, "c1") is True


def test_lobby_chat_reaches_the_lobby_watchers_only_and_is_kept_for_newcomers() -> None:
    tables = TableRegistry()
    in_lobby, at_table = watching(tables, ANNA, "Anna", None), watching(tables, BELA, "Bela", "t1")
    tables.connections.watch_lobby(in_lobby)
    index = cast(TableIndex, Untouched())  # one process: the lobby reads its tables from the registry
    lobby = Lobby(tables, index, None, no_spawn, lambda players: None)
    asyncio.run(lobby.lobby_message(at_table, "hello"))
    line = {"name": "Bela", "text": "hello"}
    assert in_lobby.outbox.get_nowait() == {"type": "lobby_chat", "line": line}
    assert at_table.outbox.empty()
    assert list(lobby.chat) == [line]


def test_broadcaster_views_mark_who_is_connected_from_its_source() -> None:
    tables = TableRegistry()
    replica = Replica("t1", seated_table(), present={0})
    tables.replicas["t1"] = replica
    log = cast(TableLog, Untouched())  # nothing to catch up on: the replica is current
    broadcaster = Broadcaster(tables, log, None, no_spawn)
    view = broadcaster.table_view(replica, 0)
    assert [s["connected"] for s in view["table"]["seats"]] == [True, False, None]
    conn = watching(tables, ANNA, "Anna", "t1")
    asyncio.run(broadcaster.presence_changed(replica, 1, True))
    assert conn.outbox.get_nowait() == {"type": "presence", "seat": 1, "connected": True}


class LobbyOnlyHub:
    """A hub for the matchmaker's tick: connections and no cluster; seating anybody fails the test."""

    def __init__(self, tables: TableRegistry) -> None:
        """The matchmaker's view of ``tables``."""
        self.connections = tables.connections
        self.cluster = None


def test_the_matchmaker_counts_people_only_while_someone_watches_the_lobby() -> None:
    tables = TableRegistry()
    matchmaker = Matchmaker(cast(SeatingHub, LobbyOnlyHub(tables)), lambda conn: False)
    anna = watching(tables, ANNA, "Anna", None)
    counted: list[int] = []
    counting = matchmaker.people

    async def people() -> tuple[int, int]:
        counted.append(1)
        return await counting()

    matchmaker.people = people  # type: ignore[method-assign]

    async def scenario() -> None:
        await matchmaker.tick()
        assert counted == [] and anna.outbox.empty()  # nobody watches the lobby: no look at every socket
        tables.connections.watch_lobby(anna)
        await matchmaker.tick()
        assert anna.outbox.get_nowait() == {"type": "lobby_people", "online": 1, "playing": 0, "seeks": []}
        await matchmaker.tick()
        assert anna.outbox.empty()  # nothing changed
        tables.connections.discard(anna)
        bela = watching(tables, BELA, "Bela", None)
        await matchmaker.tick()  # nobody watches again
        tables.connections.watch_lobby(bela)  # Bela came in when one person was online, as Anna saw last
        await matchmaker.tick()
        assert bela.outbox.get_nowait() == {"type": "lobby_people", "online": 1, "playing": 0, "seeks": []}
        assert list(tables.connections.lobby_watchers()) == [bela]

    asyncio.run(scenario())
