"""The event store on SQLite and PostgreSQL: migrations, ordered append, exactly-once, players, tables."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from ulti.store import SeqConflict
from ulti.store.eventstore import EventStore


@pytest.mark.asyncio
async def test_migrations_create_the_schema_and_are_idempotent(db_url: str) -> None:
    store = await EventStore.open(db_url)
    await store.close()
    store = await EventStore.open(db_url)  # a second start finds the schema at head
    assert await store.table_ids() == []
    await store.close()


@pytest.mark.asyncio
async def test_events_come_back_in_order_and_survive_a_reopen(db_url: str) -> None:
    store = await EventStore.open(db_url)
    for seq in range(1, 21):
        await store.append("t1", seq, {"type": "x", "n": seq, "text": "é ♠"})
    await store.append("t2", 1, {"type": "other"})
    await store.close()
    store = await EventStore.open(db_url)
    events = await store.events("t1")
    assert [e["n"] for e in events] == list(range(1, 21))
    assert events[0]["text"] == "é ♠"
    assert [e["n"] for e in await store.events("t1", after=15)] == [16, 17, 18, 19, 20]
    assert await store.events("t2") == [{"type": "other"}]
    await store.close()


@pytest.mark.asyncio
async def test_an_event_number_is_stored_once_exactly(db_url: str) -> None:
    store = await EventStore.open(db_url)
    await store.append("t", 1, {"a": 1})
    with pytest.raises(SeqConflict):
        await store.append("t", 1, {"a": 2})
    # two writers racing for the same number: exactly one wins
    results = await asyncio.gather(
        store.append("t", 2, {"w": "first"}), store.append("t", 2, {"w": "second"}), return_exceptions=True
    )
    assert sum(1 for r in results if isinstance(r, SeqConflict)) == 1
    assert len(await store.events("t")) == 2
    assert (await store.events("t"))[0] == {"a": 1}
    await store.close()


@pytest.mark.asyncio
async def test_tables_players_and_settings(db_url: str) -> None:
    store = await EventStore.open(db_url)
    await store.save_table("a", "open", {"n": 1})
    await store.save_table("b", "playing", {"n": 2})
    await store.save_table("a", "finished", {"n": 3})
    assert set(await store.table_ids()) == {"a", "b"}
    assert await store.table_ids(["open", "playing"]) == ["b"]
    await store.add_player("p1", "Anna")
    assert await store.player_name("p1") == "Anna"
    assert await store.player_name("nobody") is None
    await store.add_table_player("a", "p1", 2)
    await store.add_table_player("a", "p1", 2)  # idempotent
    mine = await store.tables_of_player("p1")
    created_at = mine[0].pop("created_at")
    assert isinstance(created_at, int) and created_at > 1_700_000_000_000  # epoch milliseconds
    assert mine == [{"table_id": "a", "status": "finished", "summary": {"n": 3}, "seat": 2}]
    first = await store.set_setting_once("secret", "s1")
    assert first == "s1"
    assert await store.set_setting_once("secret", "s2") == "s1"  # generated once, kept
    await store.close()


@pytest.mark.asyncio
async def test_a_lobby_push_reads_only_the_changed_tables_and_the_last_event_time(db_url: str) -> None:
    store = await EventStore.open(db_url)
    for name, status in (("a", "open"), ("b", "playing"), ("c", "open"), ("d", "finished")):
        await store.save_table(name, status, {"table_id": name})
        await asyncio.sleep(0.002)  # distinct creation times: newest first is a defined order
    wanted = ["a", "c", "d", "missing"]
    assert await store.table_summaries_of(wanted, ["open", "playing"]) == [{"table_id": "c"}, {"table_id": "a"}]
    assert await store.table_summaries_of([], ["open"]) == []
    assert await store.last_event_at("a") is None
    before = time.time()
    await store.append("a", 1, {"type": "created"})
    await store.append("a", 2, {"type": "chat"})
    stored = await store.last_event_at("a")
    assert stored is not None and before - 0.01 <= stored <= time.time() + 0.01
    await store.close()


@pytest.mark.asyncio
async def test_several_processes_starting_together_migrate_once(db_url: str) -> None:
    stores = await asyncio.gather(*(EventStore.open(db_url) for _ in range(3)))
    await stores[0].append("t", 1, {"ok": True})
    assert await stores[2].events("t") == [{"ok": True}]
    for store in stores:
        await store.close()


@pytest.mark.asyncio
async def test_a_connection_returned_with_an_open_write_is_rolled_back(tmp_path: Path) -> None:
    # SQLite's pool resets a returned connection only when the driver has a transaction open (issue
    # 18): a write left uncommitted on the driver (which SQLAlchemy does not see) must still be undone,
    # and must not hold the database's one write lock nor be committed by the next user.
    store = await EventStore.open(f"sqlite+aiosqlite:///{tmp_path / 'store.db'}")
    async with store.engine.connect() as conn:
        driver = (await conn.get_raw_connection()).driver_connection
        assert driver is not None
        await driver.execute("INSERT INTO kv (key, value) VALUES ('left', 'uncommitted')")
        assert driver.in_transaction
    # the same (single) pooled connection serves the next write at once, and the first is gone
    await asyncio.wait_for(store.append("t", 1, {"after": "reset"}), timeout=5)
    assert await store.get_setting("left") is None
    assert await store.events("t") == [{"after": "reset"}]
    await store.close()


@pytest.mark.asyncio
async def test_a_failed_batch_of_events_leaves_nothing_behind(db_url: str) -> None:
    # appends made at the same moment are committed together; one taken number sends the batch to
    # the one-by-one path, where only that event fails and the others are stored
    store = await EventStore.open(db_url)
    await store.append("t", 2, {"n": 2})
    results = await asyncio.gather(
        *(store.append("t", seq, {"n": seq}) for seq in (1, 2, 3)), return_exceptions=True
    )
    assert [isinstance(r, SeqConflict) for r in results] == [False, True, False]
    assert [e["n"] for e in await store.events("t")] == [1, 2, 3]
    await store.close()


@pytest.mark.asyncio
async def test_events_appended_in_the_next_turns_of_the_loop_join_the_group_commit(db_url: str) -> None:
    # a command whose message the loop reads a turn after another's was stored with it, in one commit
    store = await EventStore.open(db_url)
    commits: list[int] = []
    store.on_commit = lambda _seconds, events: commits.append(events)

    async def later(turns: int, table: str) -> None:
        for _ in range(turns):
            await asyncio.sleep(0)
        await store.append(table, 1, {"n": turns})

    await asyncio.gather(store.append("a", 1, {"n": 0}), later(1, "b"))
    assert commits == [2]
    commits.clear()
    # an event appended long after waits for nobody: its own commit
    await store.append("c", 1, {"n": 0})
    assert commits == [1]
    assert [await store.events(t) for t in ("a", "b", "c")] == [[{"n": 0}], [{"n": 1}], [{"n": 0}]]
    await store.close()


@pytest.mark.asyncio
async def test_sqlite_events_are_written_on_the_loops_thread_and_checkpointed_on_the_drivers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hot writes skip the trip to the driver's thread; the log's checkpoint, which waits for the disk, takes it."""
    import sqlite3
    import threading

    from ulti.store import eventstore

    threads: dict[str, set[int]] = {"write": set(), "checkpoint": set()}
    insert, checkpoint = eventstore._insert_and_commit, eventstore._checkpoint

    def spy_insert(connection: sqlite3.Connection, params: list[tuple[str, int, str, int]]) -> None:
        threads["write"].add(threading.get_ident())
        insert(connection, params)

    def spy_checkpoint(connection: sqlite3.Connection, params: None) -> None:
        threads["checkpoint"].add(threading.get_ident())
        checkpoint(connection, params)

    monkeypatch.setattr(eventstore, "_insert_and_commit", spy_insert)
    monkeypatch.setattr(eventstore, "_checkpoint", spy_checkpoint)
    path = tmp_path / "store.db"
    store = await EventStore.open(f"sqlite+aiosqlite:///{path}")
    text = "x" * 20_000
    for seq in range(1, 61):  # 1.2 MB of events: past one checkpoint's worth
        await store.append("t", seq, {"n": seq, "text": text})
    await store.save_table("t", "playing", {"n": 1})
    assert threads["write"] == {threading.get_ident()}
    assert len(threads["checkpoint"]) == 1 and threading.get_ident() not in threads["checkpoint"]
    await store.close()
    # what the checkpoint copied into the database and what stayed in the log: every event is there
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM events").fetchone() == (60,)


@pytest.mark.asyncio
async def test_sqlite_events_are_written_through_a_connection_of_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hot writes do not check the pool's one connection out (SQLAlchemy's async checkout cost more than
    the write): they have a connection of their own, and what they write is read through the pool's."""
    import sqlite3

    from ulti.store import eventstore

    used: list[sqlite3.Connection] = []
    insert = eventstore._insert_and_commit

    def spy_insert(connection: sqlite3.Connection, params: list[tuple[str, int, str, int]]) -> None:
        used.append(connection)
        insert(connection, params)

    monkeypatch.setattr(eventstore, "_insert_and_commit", spy_insert)
    store = await EventStore.open(f"sqlite+aiosqlite:///{tmp_path / 'store.db'}")
    for seq in range(1, 4):
        await store.append("t", seq, {"n": seq})
    async with store.engine.connect() as conn:
        pooled = (await conn.get_raw_connection()).driver_connection
        assert pooled is not None
    assert used and all(c is not pooled._conn for c in used) and len(set(map(id, used))) == 1
    assert [e["n"] for e in await store.events("t")] == [1, 2, 3]
    await store.close()


@pytest.mark.asyncio
async def test_a_hot_write_meeting_the_pools_open_write_waits_for_it_off_the_loop(tmp_path: Path) -> None:
    """While another part of the store holds SQLite's write lock between its statements, an event is not
    waited for on the event loop's thread (whose coroutines that transaction needs): it is written through the
    pool's connection once the transaction ends, and both are stored."""
    store = await EventStore.open(f"sqlite+aiosqlite:///{tmp_path / 'store.db'}")
    await store.append("t", 1, {"n": 1})  # the hot connection is open
    async with store.engine.begin() as conn:
        driver = (await conn.get_raw_connection()).driver_connection
        assert driver is not None
        await driver.execute("INSERT INTO kv (key, value) VALUES ('held', 'lock')")
        assert driver.in_transaction
        appending = asyncio.create_task(store.append("t", 2, {"n": 2}))
        await asyncio.sleep(0.2)  # the loop runs on: the append waits for the pool, not in SQLite's busy handler
        assert not appending.done()
    await asyncio.wait_for(appending, timeout=5)
    assert await store.get_setting("held") == "lock"
    assert [e["n"] for e in await store.events("t")] == [1, 2]
    await store.append("t", 3, {"n": 3})  # and the hot connection writes again
    assert [e["n"] for e in await store.events("t", after=2)] == [3]
    await store.close()
