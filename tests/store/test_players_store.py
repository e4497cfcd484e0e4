"""The store's reads for player pages and the leaderboard, over a real SQLite file.

The finished matches are written straight into ``match_results`` / ``match_players`` through the
models: these tests are about the reading side (sums, order, ranks), not about recording a match.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import orjson
import pytest
import pytest_asyncio
from sqlalchemy import insert

from ulti.accounts.names import name_key, name_skeleton
from ulti.store.eventstore import EventStore
from ulti.store.models import duplicate_event_tables, match_players, match_results, ratings
from ulti.store.players import RECENT_MATCHES

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def store(tmp_path: Path) -> AsyncIterator[EventStore]:
    """A migrated SQLite store."""
    opened = await EventStore.open(f"sqlite+aiosqlite:///{tmp_path / 'players.db'}")
    yield opened
    await opened.close()


async def account(store: EventStore, player_id: str, name: str) -> None:
    """An account with a dummy hash (no password is checked here)."""
    await store.create_account(player_id, name, name_key(name), "x", new_player=True, skeleton=name_skeleton(name))


def stats(
    deals: int = 6,
    declarer: tuple[int, int] = (0, 0),
    defender: tuple[int, int] = (0, 0),
    declared: dict[str, tuple[int, int, int]] | None = None,
    kontra: dict[str, tuple[int, int]] | None = None,
) -> dict[str, Any]:
    """One seat's statistics in the stored shape."""
    return {
        "deals": deals,
        "declarer_deals": declarer[0],
        "declarer_points": declarer[1],
        "defender_deals": defender[0],
        "defender_points": defender[1],
        "declared": {p: {"played": a, "made": b, "kontrad": c} for p, (a, b, c) in (declared or {}).items()},
        "kontra": {p: {"given": a, "won": b} for p, (a, b) in (kontra or {}).items()},
    }


async def finished(
    store: EventStore,
    table_id: str,
    at: int,
    seats: Sequence[tuple[str, str, int, int]],
    *,
    rated: bool = False,
    ratings_before_after: Sequence[tuple[int, int] | None] = (),
    seat_stats: Sequence[dict[str, Any]] = (),
    bots: Sequence[bool] = (),
) -> None:
    """A finished match: seats as (player_id, name, total, rank)."""
    async with store.engine.begin() as conn:
        await conn.execute(insert(match_results).values(table_id=table_id, finished_at=at, rated=rated, deals_played=6))
        for seat, (player_id, name, total, rank) in enumerate(seats):
            change = ratings_before_after[seat] if seat < len(ratings_before_after) else None
            await conn.execute(
                insert(match_players).values(
                    table_id=table_id,
                    seat=seat,
                    player_id=player_id,
                    name=name,
                    is_bot=bots[seat] if seat < len(bots) else False,
                    total=total,
                    rank=rank,
                    left=False,
                    won=rank == 1,
                    finished_at=at,
                    rated=rated,
                    rating_before=change[0] if change else None,
                    rating_after=change[1] if change else None,
                    stats=orjson.dumps(seat_stats[seat] if seat < len(seat_stats) else stats()).decode(),
                )
            )


async def set_rating(store: EventStore, player_id: str, mu: float, rated_matches: int) -> None:
    """A ratings row."""
    async with store.engine.begin() as conn:
        await conn.execute(
            insert(ratings).values(player_id=player_id, mu=mu, sigma=5.0, rated_matches=rated_matches, updated_at=0)
        )


async def test_an_account_is_found_by_its_key_whatever_the_case(store: EventStore) -> None:
    await account(store, "p1", "Zsófi <b>")
    assert await store.account_named(name_key("ZSÓFI <B>")) == ("p1", "Zsófi <b>", False)
    assert await store.account_named(name_key("nobody")) is None


async def test_a_newcomer_has_no_rating_no_history_and_empty_stats(store: EventStore) -> None:
    await account(store, "p1", "Anna")
    profile = await store.player_profile("p1", "Anna")
    assert profile.mu is None and profile.rated_matches == 0 and profile.history == []
    assert (profile.rated_played, profile.casual_played) == (0, 0)
    assert profile.stats.deals == 0 and profile.stats.parts == {}
    assert profile.recent == []
    assert await store.rank_of("p1") is None


async def test_counts_history_and_stats_are_summed_over_rated_and_casual_matches(store: EventStore) -> None:
    for pid, name in (("a", "Anna"), ("b", "Béla"), ("c", "Cili")):
        await account(store, pid, name)
    # rated, Anna wins; rated, Anna second; casual, Anna wins (times out of order on purpose)
    await finished(
        store, "t2", 2000, [("a", "Anna", -4, 2), ("b", "Béla", 10, 1), ("c", "Cili", -6, 3)], rated=True,
        ratings_before_after=[(1540, 1530), (1460, 1490), (1500, 1480)],
        seat_stats=[stats(6, (2, -8), (4, 4), {"ulti": (1, 0, 1)}, {"simple": (2, 1)})],
    )
    await finished(
        store, "t1", 1000, [("a", "Anna", 12, 1), ("b", "Béla", -2, 2), ("c", "Cili", -10, 3)], rated=True,
        ratings_before_after=[(1500, 1540), (1500, 1460), (1500, 1500)],
        seat_stats=[stats(6, (3, 18), (3, -6), {"ulti": (1, 1, 0), "simple": (2, 2, 1)}, {"betli": (1, 0)})],
    )
    await finished(
        store, "t3", 3000, [("a", "Anna", 5, 1), ("b", "Béla", 0, 2), ("c", "Cili", -5, 3)],
        seat_stats=[stats(9, (1, 4), (8, 2), {"betli": (1, 1, 0)})],
    )
    profile = await store.player_profile("a", "Anna")
    assert profile.history == [(1000, 1540), (2000, 1530)]  # rating_after of rated matches, oldest first
    assert (profile.rated_played, profile.rated_won, profile.casual_played, profile.casual_won) == (2, 1, 1, 1)
    s = profile.stats
    assert (s.deals, s.declarer_deals, s.declarer_points, s.defender_deals, s.defender_points) == (21, 6, 14, 15, 0)
    assert s.parts["ulti"].declared == 2 and s.parts["ulti"].made == 1 and s.parts["ulti"].kontrad == 1
    assert s.parts["simple"].declared == 2 and s.parts["simple"].kontra_given == 2 and s.parts["simple"].kontra_won == 1
    assert s.parts["betli"].declared == 1 and s.parts["betli"].made == 1 and s.parts["betli"].kontra_given == 1
    # the last matches: newest first, with the three seats and the rating change
    assert [m.table_id for m in profile.recent] == ["t3", "t2", "t1"]
    t2 = profile.recent[1]
    assert (t2.rated, t2.total, t2.rank, t2.won, t2.rating_before, t2.rating_after) == (True, -4, 2, False, 1540, 1530)
    assert [(p.name, p.total, p.rank) for p in t2.seats] == [("Anna", -4, 2), ("Béla", 10, 1), ("Cili", -6, 3)]
    assert profile.recent[0].rating_before is None  # casual


async def test_only_the_last_twenty_matches_are_listed(store: EventStore) -> None:
    await account(store, "a", "Anna")
    for i in range(RECENT_MATCHES + 5):
        await finished(store, f"t{i:02d}", 1000 + i, [("a", "Anna", 1, 1), ("x", "Bot", 0, 2), ("y", "Bot 2", -1, 3)])
    profile = await store.player_profile("a", "Anna")
    assert profile.casual_played == RECENT_MATCHES + 5
    assert len(profile.recent) == RECENT_MATCHES
    assert profile.recent[0].table_id == f"t{RECENT_MATCHES + 4:02d}"
    assert profile.recent[-1].table_id == "t05"


async def test_malformed_stats_add_nothing(store: EventStore) -> None:
    await account(store, "a", "Anna")
    await finished(store, "t1", 1, [("a", "Anna", 1, 1)], seat_stats=[stats(6, (1, 5))])
    async with store.engine.begin() as conn:
        await conn.execute(
            insert(match_players).values(
                table_id="t2", seat=0, player_id="a", name="Anna", is_bot=False, total=0, rank=1, left=False,
                won=True, finished_at=2, rated=False, rating_before=None, rating_after=None, stats="not json",
            )
        )
    profile = await store.player_profile("a", "Anna")
    assert profile.casual_played == 2
    assert (profile.stats.deals, profile.stats.declarer_points) == (6, 5)


async def test_the_leaderboard_orders_rated_accounts_and_shares_ranks(store: EventStore) -> None:
    for pid, name, mu, n in (("a", "Anna", 27.0, 3), ("b", "Béla", 30.0, 12), ("c", "Cili", 27.0, 1),
                             ("d", "Dani", 20.0, 2), ("e", "Emma", 40.0, 0)):
        await account(store, pid, name)
        await set_rating(store, pid, mu, n)
    await account(store, "f", "Feri")  # never rated: not on the board
    board = await store.leaderboard()
    assert [(r.rank, r.name) for r in board] == [(1, "Béla"), (2, "Anna"), (2, "Cili"), (4, "Dani")]
    assert await store.rank_of("c") == 2
    assert await store.rank_of("d") == 4
    assert await store.rank_of("e") is None  # a ratings row without a rated match does not count
    assert await store.rank_of("f") is None
    assert [r.name for r in await store.leaderboard(limit=2)] == ["Béla", "Anna"]


async def test_a_bot_is_marked_by_its_account_and_its_seats(store: EventStore) -> None:
    await store.ensure_bot_accounts(
        [("bot-strong", "Bot · strong", name_key("Bot · strong"), name_skeleton("Bot · strong"))]
    )
    await account(store, "anna", "Anna")
    for pid in ("bot-strong", "anna"):
        await set_rating(store, pid, 26.0, 1)
    assert await store.account_named(name_key("BOT · STRONG")) == ("bot-strong", "Bot · strong", True)
    assert [(r.name, r.is_bot) for r in await store.leaderboard()] == [("Anna", False), ("Bot · strong", True)]
    # a player seen in a bot's seat is shown as a bot even without the account's mark
    await finished(store, "t1", 1, [("anna", "Anna", 1, 1)], bots=[True])
    assert (await store.player_profile("anna", "Anna")).is_bot
    assert not (await store.player_profile("anna", "Anna", recent=0)).recent


async def test_a_duplicate_event_table_shows_on_player_pages_only_once_the_whole_event_is_over(
    store: EventStore,
) -> None:
    for pid, name in (("a", "Anna"), ("b", "Béla"), ("c", "Cili")):
        await account(store, pid, name)
    async with store.engine.begin() as conn:
        for no, table_id in ((1, "e1"), (2, "e2")):
            await conn.execute(insert(duplicate_event_tables).values(event_id="ev", table_no=no, table_id=table_id))
    seats = [("a", "Anna", 8, 1), ("b", "Béla", -2, 2), ("c", "Cili", -6, 3)]
    await finished(store, "plain", 500, seats)
    await finished(store, "e1", 1000, seats)  # table 1 is done, table 2 still plays the same deals
    profile = await store.player_profile("a", "Anna")
    assert [m.table_id for m in profile.recent] == ["plain"] and profile.casual_played == 1
    await finished(store, "e2", 1500, [("x", "Xavér", 1, 1), ("y", "Ybl", 0, 2), ("z", "Zoé", -1, 3)])
    profile = await store.player_profile("a", "Anna")
    assert [m.table_id for m in profile.recent] == ["e1", "plain"] and profile.casual_played == 2
