"""The tournaments' store (migration 0010) on SQLite and PostgreSQL: rows, the log, and its numbering."""

from __future__ import annotations

import pytest

from ulti.store.eventstore import EventStore
from ulti.store.tournaments import TournamentConflict, TournamentRow
from ulti.tournaments.log import replay
from ulti.tournaments.standings import standings

CREATED = {"type": "created", "settings": {"format": "standings", "rounds": 1, "deals_per_round": 6}}


@pytest.mark.asyncio
async def test_tournament_log_is_appended_in_order_and_replays_to_the_standings(db_url: str) -> None:
    store = await EventStore.open(db_url)
    try:
        await store.add_tournament(TournamentRow("t1", "host", "Host", "Cup", "registering", 1000), CREATED)
        for seq, name in enumerate(["Anna", "Béla", "Cili"], start=1):
            await store.append_tournament_event("t1", seq, {"type": "registered", "name": name})
        await store.append_tournament_event("t1", 4, {"type": "round_seated", "round": 1, "tables": [[0, 1, 2]]})
        await store.append_tournament_event(
            "t1", 5, {"type": "result_recorded", "round": 1, "table": 1, "points": [4, -6, 2]}
        )
        log = await store.tournament_log("t1")
        assert [e.seq for e in log] == [0, 1, 2, 3, 4, 5]
        assert [e.seq for e in await store.tournament_log("t1", after=3)] == [4, 5]
        state = replay([e.body for e in log])
        assert [line["name"] for line in standings(state)] == ["Anna", "Cili", "Béla"]
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_tournament_event_number_taken_is_a_conflict(db_url: str) -> None:
    store = await EventStore.open(db_url)
    try:
        await store.add_tournament(TournamentRow("t2", "host", "Host", "Cup", "registering", 1000), CREATED)
        await store.append_tournament_event("t2", 1, {"type": "registered", "name": "Anna"})
        with pytest.raises(TournamentConflict):
            await store.append_tournament_event("t2", 1, {"type": "registered", "name": "Béla"})
        assert [e.body.get("name") for e in await store.tournament_log("t2")] == [None, "Anna"]
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_tournament_rows_list_by_status_newest_first(db_url: str) -> None:
    store = await EventStore.open(db_url)
    try:
        await store.add_tournament(TournamentRow("a", "h", "H", "First", "registering", 1000), CREATED)
        await store.add_tournament(TournamentRow("b", "h", "H", "Second", "registering", 2000), CREATED)
        await store.set_tournament_status("a", "running")
        assert [r.tournament_id for r in await store.tournaments()] == ["b", "a"]
        assert [r.tournament_id for r in await store.tournaments(["running"])] == ["a"]
        row = await store.tournament("a")
        assert row is not None and row.status == "running" and row.name == "First"
        assert await store.tournament("missing") is None
        with pytest.raises(ValueError, match="status must be one of"):
            await store.set_tournament_status("a", "nonsense")
    finally:
        await store.close()
