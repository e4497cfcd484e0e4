"""The puzzle tables (migration 0009, ``ulti/store/puzzles.py``) on SQLite and PostgreSQL: the set kept by
id, "near my rating" by theme and phase, attempts moved and ended once with both ratings, the daily draw,
deals cut once, mistakes offered once."""

from __future__ import annotations

from typing import Any

import pytest

from ulti.puzzles.shipped import load
from ulti.store.eventstore import EventStore
from ulti.store.puzzles import NEW_MU, NEW_SIGMA, PlayerRating, PuzzleStore, RatedEnd, RatingChange

SHIPPED = load()


async def opened(db_url: str) -> tuple[EventStore, PuzzleStore]:
    """A migrated store with the players the tests name."""
    store = await EventStore.open(db_url)
    for player_id, name in (("anna", "Anna"), ("bela", "Béla")):
        await store.add_player(player_id, name)
    return store, PuzzleStore(store.engine)


def rated(puzzle: dict[str, Any], shown: int) -> dict[str, Any]:
    return {**puzzle, "rating": {"mu": 25.0 + (shown - 1500) / 40, "sigma": 8.333, "shown": shown}}


@pytest.mark.asyncio
async def test_puzzles_are_stored_once_by_id_and_read_back(db_url: str) -> None:
    store, puzzles = await opened(db_url)
    try:
        assert await puzzles.add_puzzles(SHIPPED[:10], "shipped", created_at=0) == [p["id"] for p in SHIPPED[:10]]
        assert await puzzles.add_puzzles(SHIPPED[5:12], "played") == [p["id"] for p in SHIPPED[10:12]]
        assert await puzzles.puzzle_count() == 12 and await puzzles.count_source("played") == 2
        row = await puzzles.puzzle(SHIPPED[0]["id"])
        assert row is not None and row.puzzle() == SHIPPED[0] and row.source == "shipped"
        assert await puzzles.puzzle("nope") is None
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_near_gives_the_closest_untried_puzzles_of_a_theme_and_phase(db_url: str) -> None:
    store, puzzles = await opened(db_url)
    try:
        items = [rated(p, 1300 + 100 * k) for k, p in enumerate(SHIPPED[:6])]
        await puzzles.add_puzzles(items, "shipped")
        near = await puzzles.near(1610, "anna", limit=2)
        assert [r.shown for r in near] == [1600, 1700]
        await puzzles.start_attempt("anna", near[0].id)
        assert [r.shown for r in await puzzles.near(1610, "anna", limit=2)] == [1700, 1500]  # tried: not again
        theme = items[2]["themes"][0]
        of_theme = await puzzles.near(1500, "bela", theme=theme)
        assert of_theme and all(theme in r.themes.split(",") for r in of_theme)
        phase = items[3]["phase"]
        assert {r.phase for r in await puzzles.near(1500, "bela", phase=phase)} == {phase}
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_an_attempt_moves_and_ends_once_and_rates_the_player_and_the_puzzle(db_url: str) -> None:
    store, puzzles = await opened(db_url)
    try:
        await puzzles.add_puzzles(SHIPPED[:1], "shipped")
        pid = SHIPPED[0]["id"]
        attempt = await puzzles.start_attempt("anna", pid)
        assert await puzzles.open_attempt("anna", pid) == attempt
        assert await puzzles.continue_attempt(attempt.id, ["AS"], 0)
        assert not await puzzles.continue_attempt(attempt.id, ["KS"], 0)  # a second answer to move 0: refused
        assert await puzzles.player_rating("anna") == PlayerRating()
        stored = await puzzles.puzzle(pid)
        assert stored is not None
        read: list[tuple[tuple[float, float], tuple[float, float]]] = []

        def rater(mine: tuple[float, float], theirs: tuple[float, float]) -> RatingChange:
            read.append((mine, theirs))
            return RatingChange((27.0, 7.5), (24.0, 8.0), (1500, 1580, 1500, 1460))

        assert await puzzles.finish_attempt(attempt.id, ["AS", "KH"], 1, True, rater) == RatedEnd(
            True, (1500, 1580, 1500, 1460))
        assert read == [((NEW_MU, NEW_SIGMA), (stored.mu, stored.sigma))]  # both read in the transaction
        assert await puzzles.finish_attempt(attempt.id, ["AS", "KH"], 1, False, rater) is None  # ended already
        mine = await puzzles.player_rating("anna")
        assert (mine.mu, mine.sigma, mine.attempts, mine.solved) == (27.0, 7.5, 1, 1)
        row = await puzzles.puzzle(pid)
        assert row is not None and (row.mu, row.sigma, row.shown, row.attempts, row.solved) == (24.0, 8.0, 1460, 1, 1)
        assert await puzzles.open_attempt("anna", pid) is None
        [done] = await puzzles.attempts_of("anna")
        assert done.to_json()["cards"] == ["AS", "KH"] and done.status == "solved" and done.rated
        assert (done.rating_before, done.rating_after) == (1500, 1580)
        # a second finished attempt at the same puzzle is not rated, and is the latest status
        again = await puzzles.start_attempt("anna", pid)
        assert await puzzles.finish_attempt(again.id, ["KS"], 0, False, rater) == RatedEnd(rated=False)
        assert len(read) == 1 and (await puzzles.player_rating("anna")).attempts == 1
        assert await puzzles.latest_status("anna", [pid]) == {pid: "failed"}
        assert await puzzles.latest_status("bela", [pid]) == {}
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_the_daily_draw_is_among_the_puzzles_stored_before_the_day(db_url: str) -> None:
    store, puzzles = await opened(db_url)
    try:
        assert await puzzles.daily(10, 3) is None
        await puzzles.add_puzzles(SHIPPED[:4], "shipped", created_at=0)
        await puzzles.add_puzzles(SHIPPED[4:8], "played", created_at=100)
        ids = sorted(p["id"] for p in SHIPPED[:4])
        for pick in range(8):
            row = await puzzles.daily(50, pick)
            assert row is not None and row.id == ids[pick % 4]
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_deal_is_cut_once_and_a_mistake_offered_once(db_url: str) -> None:
    store, puzzles = await opened(db_url)
    try:
        assert await puzzles.mark_source("t1", 0, "played")
        assert not await puzzles.mark_source("t1", 0, "played")
        assert await puzzles.mark_source("t1", 0, "mistake") and await puzzles.source_cut("t1", 0, "played")
        await puzzles.add_puzzles(SHIPPED[:2], "mistake")
        ids = [p["id"] for p in SHIPPED[:2]]
        assert await puzzles.add_mistakes("anna", ids, "t1", 0) == 2
        assert await puzzles.add_mistakes("anna", ids, "t1", 0) == 0
        assert {r.id for r in await puzzles.mistakes_of("anna")} == set(ids) and await puzzles.mistakes_of("bela") == []
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_deleted_accounts_puzzle_rating_attempts_and_mistakes_go_with_it(db_url: str) -> None:
    store, puzzles = await opened(db_url)
    try:
        await store.create_account("anna", "Anna", "anna", "hash", new_player=False, skeleton="skeleton-of-anna")
        await puzzles.add_puzzles(SHIPPED[:1], "mistake")
        pid = SHIPPED[0]["id"]
        await puzzles.add_mistakes("anna", [pid], "t1", 0)
        attempt = await puzzles.start_attempt("anna", pid)
        change = RatingChange((26.0, 8.0), (24.0, 8.0), (1500, 1540, 1500, 1460))
        assert await puzzles.finish_attempt(attempt.id, ["AS"], 0, True, lambda _mine, _theirs: change)
        assert (await puzzles.player_rating("anna")).mu == 26.0
        other = await puzzles.start_attempt("bela", pid)
        assert await store.delete_account("anna")
        assert await puzzles.attempts_of("anna") == [] and await puzzles.mistakes_of("anna") == []
        assert await puzzles.player_rating("anna") == PlayerRating()
        assert [a.id for a in await puzzles.attempts_of("bela")] == [other.id]  # nobody else's
        assert await puzzles.puzzle(pid) is not None  # the puzzle stays, with what attempts did to its rating
    finally:
        await store.close()
