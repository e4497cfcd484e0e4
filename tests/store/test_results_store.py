"""Match results and ratings in the store, on SQLite and PostgreSQL (migration 0003): a match is recorded,
and its ratings changed, exactly once; concurrent matches sharing a player lose no update."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence

import pytest
import sqlalchemy as sa
from sqlalchemy import inspect

from tests.services import Postgres
from ulti.store import RatingChange, SeatResult, SkillRow
from ulti.store.eventstore import EventStore
from ulti.store.models import match_players, match_results

NEWCOMER = (25.0, 25.0 / 3)


def seats(*player_ids: str) -> list[SeatResult]:
    return [
        SeatResult(seat=i, player_id=p, name=p.title(), is_bot=p.startswith("bot-"), total=10 - 10 * i,
                   rank=i + 1, left=False, won=i == 0, stats="{}")
        for i, p in enumerate(player_ids)
    ]


def plus_one(current: Sequence[SkillRow | None]) -> list[RatingChange]:
    """A stand-in model: mu + 1 for everybody (the model itself is tested in tests/accounts)."""
    out = []
    for row in current:
        assert row is not None
        after = SkillRow(row.mu + 1, row.sigma, row.rated_matches + 1)
        out.append(RatingChange(after, round(row.mu), round(row.mu + 1)))
    return out


async def skills(store: EventStore, *player_ids: str) -> list[SkillRow | None]:
    return [await store.skill_of(p) for p in player_ids]


@pytest.mark.asyncio
async def test_migration_0003_creates_the_result_tables(db_url: str) -> None:
    store = await EventStore.open(db_url)
    try:
        async with store.engine.connect() as conn:
            names, indexes = await conn.run_sync(
                lambda sync: (set(inspect(sync).get_table_names()), inspect(sync).get_indexes("match_players"))
            )
        assert {"ratings", "match_results", "match_players"} <= names
        assert any(i["column_names"] == ["player_id", "finished_at"] for i in indexes)
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_match_is_recorded_once_and_bot_accounts_are_made_once(db_url: str) -> None:
    store = await EventStore.open(db_url)
    try:
        for p in ("anna", "bela"):
            await store.add_player(p, p.title())
        bot = [("bot-strong", "Bot · strong", "bot · strong", "skeleton of bot · strong")]
        await asyncio.gather(store.ensure_bot_accounts(bot), store.ensure_bot_accounts(bot))
        assert await store.player_identity("bot-strong") == ("Bot · strong", True)
        await store.ensure_ratings(["anna", "bela", "bot-strong", "nobody"], NEWCOMER)
        await store.ensure_ratings(["anna"], NEWCOMER)  # again: nothing changes
        assert await skills(store, "anna", "nobody") == [SkillRow(*NEWCOMER, 0), None]

        lines = seats("anna", "bela", "bot-strong")
        first = await store.record_match("t1", 6, lines, plus_one, finished_at=1000)
        again = await store.record_match("t1", 6, lines, plus_one, finished_at=2000)
        assert (first, again) == (True, False)
        assert await skills(store, "anna", "bot-strong") == [SkillRow(26.0, NEWCOMER[1], 1)] * 2
        assert await store.match_recorded("t1")
        async with store.engine.connect() as conn:
            rows = (await conn.execute(sa.select(match_players).order_by(match_players.c.seat))).all()
            result = (await conn.execute(sa.select(match_results))).one()
        assert [(r.seat, r.player_id, r.rank, r.rating_before, r.rating_after, r.finished_at) for r in rows] == [
            (0, "anna", 1, 25, 26, 1000), (1, "bela", 2, 25, 26, 1000), (2, "bot-strong", 3, 25, 26, 1000),
        ]
        assert (result.table_id, result.rated, result.deals_played, result.finished_at) == ("t1", True, 6, 1000)

        # a casual match: recorded, nobody's rating moves
        assert await store.record_match("t2", 7, lines, None)
        assert await skills(store, "anna") == [SkillRow(26.0, NEWCOMER[1], 1)]

        # a deleted player's rating goes with them; their match lines stay, under the erased name
        await store.delete_account("anna")
        await store.erase_match_names("anna", "deleted player")
        assert await skills(store, "anna", "bela") == [None, SkillRow(26.0, NEWCOMER[1], 1)]
        async with store.engine.connect() as conn:
            query = sa.select(match_players.c.name).where(match_players.c.player_id == "anna")
            names = (await conn.execute(query)).all()
        assert [n[0] for n in names] == ["deleted player", "deleted player"]
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_two_processes_recording_at_once_record_once_and_lose_no_shared_update(postgres: Postgres) -> None:
    """Two stores on one PostgreSQL database stand for two server processes (several processes share
    PostgreSQL; SQLite serves one process, whose one-connection pool serialises): the primary key
    keeps a match to one result, ``SELECT … FOR UPDATE`` keeps every update of a shared player."""
    db_url = postgres.create_database(f"results_{uuid.uuid4().hex[:12]}")
    one, two = await EventStore.open(db_url), await EventStore.open(db_url)
    try:
        players = ["anna", *(f"p{i}" for i in range(16))]
        for p in players:
            await one.add_player(p, p.title())
        await one.ensure_ratings(players, NEWCOMER)
        # the same match, five times from each process
        same = seats("anna", "p0", "p1")
        done = await asyncio.gather(*(store.record_match("same", 6, same, plus_one) for store in [one, two] * 5))
        assert sorted(done) == [False] * 9 + [True]
        # seven more matches at once, every one with anna: each must see the rating the one before left
        tables = [seats("anna", f"p{2 * i + 2}", f"p{2 * i + 3}") for i in range(7)]
        stores = [one, two] * 4
        done = await asyncio.gather(
            *(stores[i].record_match(f"m{i}", 6, lines, plus_one) for i, lines in enumerate(tables))
        )
        assert all(done)
        assert await skills(one, "anna") == [SkillRow(25.0 + 8, NEWCOMER[1], 8)]  # 1 + 7 matches, none lost
    finally:
        await one.close()
        await two.close()
