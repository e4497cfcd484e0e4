"""The store's accounts and sessions on SQLite and PostgreSQL (migration 0002)."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import inspect

from ulti.store import AlreadyAccount, EventStore, NameTaken, StoredAccount


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
        await store.create_account("guest1", "Anna", "anna", "$argon2id$h1", new_player=False)
        assert await store.player_name("guest1") == "Anna"  # the tables show the account's name now
        assert await store.player_identity("guest1") == ("Anna", True)
        assert await store.account_by_key("anna") == StoredAccount("guest1", "Anna", "$argon2id$h1")
        assert await store.account_of("guest1") == StoredAccount("guest1", "Anna", "$argon2id$h1")
        with pytest.raises(NameTaken):
            await store.create_account("new1", "ANNA", "anna", "$argon2id$h2", new_player=True)
        assert await store.player_identity("new1") is None  # the refused registration left no player
        with pytest.raises(AlreadyAccount):
            await store.create_account("guest1", "Other", "other", "$argon2id$h3", new_player=False)
        with pytest.raises(AlreadyAccount):
            await store.create_account("nobody", "Other", "other", "$argon2id$h3", new_player=False)
        await store.create_account("new2", "Béla", "béla", "$argon2id$h4", new_player=True)
        assert await store.player_identity("new2") == ("Béla", True)
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_sessions_live_until_ended_expired_or_the_password_changes(db_url: str) -> None:
    store = await EventStore.open(db_url)
    try:
        await store.create_account("p1", "Anna", "anna", "h1", new_player=True)
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
        await store.create_account("p1", "Anna", "anna", "h1", new_player=True)
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
        await store.create_account("p2", "anna", "anna", "h2", new_player=True)
    finally:
        await store.close()
