"""The store's accounts and sessions on SQLite and PostgreSQL (migrations 0002 and 0007)."""

from __future__ import annotations

import asyncio
import time

import pytest
from sqlalchemy import insert, inspect, select

from ulti.accounts.names import name_skeleton
from ulti.store import AlreadyAccount, NameTaken, StoredAccount
from ulti.store.eventstore import EventStore, make_engine
from ulti.store.migrate import upgrade
from ulti.store.models import accounts, players


@pytest.mark.asyncio
async def test_migration_0002_creates_the_account_tables_with_a_unique_name_key(db_url: str) -> None:
    store = await EventStore.open(db_url)
    try:
        async with store.engine.connect() as conn:
            names, uniques = await conn.run_sync(
                lambda sync: (
                    set(inspect(sync).get_table_names()),
                    inspect(sync).get_unique_constraints("accounts") + [
                        i for i in inspect(sync).get_indexes("accounts") if i["unique"]],
                )
            )
        assert {"accounts", "account_sessions"} <= names
        assert any(u["column_names"] == ["name_key"] for u in uniques)
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_an_account_keeps_a_guests_id_and_one_name_key_has_one_account(db_url: str) -> None:
    store = await EventStore.open(db_url)
    try:
        await store.add_player("guest1", "Guest")
        await store.create_account("guest1", "Anna", "anna", "$argon2id$h1", new_player=False, skeleton="anna")
        assert await store.player_name("guest1") == "Anna"  # the tables show the account's name now
        assert await store.player_identity("guest1") == ("Anna", True)
        assert await store.account_by_key("anna") == StoredAccount("guest1", "Anna", "$argon2id$h1")
        assert await store.account_of("guest1") == StoredAccount("guest1", "Anna", "$argon2id$h1")
        with pytest.raises(NameTaken):
            await store.create_account("new1", "ANNA", "anna", "$argon2id$h2", new_player=True, skeleton="anna")
        assert await store.player_identity("new1") is None  # the refused registration left no player
        with pytest.raises(AlreadyAccount):
            await store.create_account("guest1", "Other", "other", "$argon2id$h3", new_player=False, skeleton="other")
        with pytest.raises(AlreadyAccount):
            await store.create_account("nobody", "Other", "other", "$argon2id$h3", new_player=False, skeleton="other")
        await store.create_account("new2", "Béla", "béla", "$argon2id$h4", new_player=True, skeleton="béla")
        assert await store.player_identity("new2") == ("Béla", True)
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_sessions_live_until_ended_expired_or_the_password_changes(db_url: str) -> None:
    store = await EventStore.open(db_url)
    try:
        await store.create_account("p1", "Anna", "anna", "h1", new_player=True, skeleton="anna")
        later = int((time.time() + 3600) * 1000)
        for key in ("k1", "k2", "k3"):
            await store.add_session(key, "p1", later)
        await store.add_session("old", "p1", int((time.time() - 1) * 1000))
        assert await store.session_player("k1") == ("p1", "Anna")
        assert await store.session_player("old") is None  # expired
        assert await store.prune_sessions() == 1
        assert await store.end_session("k1") is True
        assert await store.end_session("k1") is False
        assert await store.session_player("k1") is None and await store.session_player("k2") == ("p1", "Anna")
        await store.set_password_hash("p1", "h2", end_sessions=False)
        assert await store.session_player("k2") == ("p1", "Anna")
        await store.set_password_hash("p1", "h3", end_sessions=True)
        assert await store.session_player("k2") is None and await store.session_player("k3") is None
        assert (await store.account_of("p1")) == StoredAccount("p1", "Anna", "h3")
        await store.add_session("k4", "p1", later)
        assert await store.end_sessions_of("p1") == 1
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_deleting_an_account_removes_it_its_sessions_and_its_player_but_not_its_tables(db_url: str) -> None:
    store = await EventStore.open(db_url)
    try:
        await store.create_account("p1", "Anna", "anna", "h1", new_player=True, skeleton="anna")
        await store.add_session("k1", "p1", int((time.time() + 3600) * 1000))
        await store.save_table("t1", "finished", {"seats": []})
        await store.add_table_player("t1", "p1", 0)
        await store.append("t1", 1, {"type": "sit", "seat": 0, "player": "p1", "name": "Anna"})
        await store.replace_events("t1", {1: {"type": "sit", "seat": 0, "player": "p1", "name": "deleted player"}})
        assert await store.delete_account("p1") is True
        assert await store.delete_account("p1") is False
        assert await store.session_player("k1") is None
        assert await store.player_identity("p1") is None and await store.account_by_key("anna") is None
        assert [t["table_id"] for t in await store.tables_of_player("p1")] == ["t1"]
        assert await store.events("t1") == [{"type": "sit", "seat": 0, "player": "p1", "name": "deleted player"}]
        # the name is free again
        await store.create_account("p2", "anna", "anna", "h2", new_player=True, skeleton="anna")
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_migration_0007_backfills_the_name_skeleton_and_keeps_accounts_that_already_read_alike(
    db_url: str,
) -> None:
    engine = make_engine(db_url)
    await upgrade(engine, "0006")
    rows = [  # made before the rule: the Cyrillic і one after the Latin one
        ("p1", "Victim", "victim", 1), ("p2", "V\u0456ctim", "v\u0456ctim", 2), ("bot-strong", "Bot · strong",
                                                                                  "bot · strong", 3),
    ]
    async with engine.begin() as conn:
        for player_id, name, key, created in rows:
            await conn.execute(insert(players).values(id=player_id, name=name, created_at=created))
            await conn.execute(insert(accounts).values(player_id=player_id, name=name, name_key=key, password_hash="h",
                                                       created_at=created, password_changed_at=created))
    await upgrade(engine)
    async with engine.connect() as conn:
        stored = dict((await conn.execute(select(accounts.c.player_id, accounts.c.name_skeleton))).all())
        uniques = await conn.run_sync(lambda sync: [i for i in inspect(sync).get_indexes("accounts") if i["unique"]])
    await engine.dispose()
    assert stored == {"p1": name_skeleton("Victim"), "p2": "dup-p2", "bot-strong": name_skeleton("Bot · strong")}
    assert any(i["column_names"] == ["name_skeleton"] for i in uniques)
    store = await EventStore.open(db_url)
    try:
        # both old accounts still log in by their own keys; nobody new may take a name that reads like theirs
        assert (await store.account_by_key("v\u0456ctim")) is not None
        assert (await store.account_by_skeleton(name_skeleton("VICTIM"))) == StoredAccount("p1", "Victim", "h")
        with pytest.raises(NameTaken):
            await store.create_account("p3", "Vict\u0456m", "vict\u0456m", "h", new_player=True,
                                       skeleton=name_skeleton("Vict\u0456m"))
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_two_registrations_of_names_that_read_alike_racing_one_wins(db_url: str) -> None:
    store = await EventStore.open(db_url)
    try:
        names = ["Victim", "V\u0456ctim", "VICT\u0406M", "Vict\u0456m"]
        results = await asyncio.gather(
            *(store.create_account(f"p{i}", name, name.casefold(), "h", new_player=True, skeleton=name_skeleton(name))
              for i, name in enumerate(names)),
            return_exceptions=True,
        )
        assert sum(r is None for r in results) == 1
        assert all(isinstance(r, NameTaken) for r in results if r is not None)
    finally:
        await store.close()
