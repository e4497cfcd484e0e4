"""An arena's wave is stored with the time it was decided at (docs/protocol/tournaments.md, "Arena").

The end rule ("nothing seated at or after the end") is judged by the log's times, so a wave decided just
before the end must not carry a later time because the database was slow to store it: under load on a
busy box a write can wait hundreds of milliseconds, and a restarted director reads the stored times.
Here a real SQLite store is made slow on purpose, and the director decides 150 ms before the end.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from ulti.server.arena import ends_at
from ulti.server.tournaments import Directors, Loaded
from ulti.store.eventstore import EventStore
from ulti.store.tournaments import TournamentRow

STORE_DELAY = 0.4  # seconds each tournament write waits, longer than the time left before the end


class SlowStore(EventStore):
    """The real store, its tournament writes delayed (once ``slow`` is set) like a database busy with
    other writers."""

    slow = False

    async def append_tournament_event(self, tournament_id: str, seq: int, body: Mapping[str, Any],
                                      at: int | None = None) -> int:
        if self.slow:
            await asyncio.sleep(STORE_DELAY)
        return await super().append_tournament_event(tournament_id, seq, body, at)


class TablesAside(Directors):
    """The director with table making set aside: this test looks at the log only."""

    async def _ensure_tables(self, tournament_id: str, loaded: Loaded, number: int) -> None:
        return None


@pytest.mark.asyncio
async def test_arena_wave_decided_before_the_end_is_stored_before_it(tmp_path: Path) -> None:
    store = await SlowStore.open(f"sqlite+aiosqlite:///{tmp_path / 'a.db'}")
    assert isinstance(store, SlowStore)
    try:
        now = int(time.time() * 1000) + 100  # the setting up below takes well under 100 ms
        start = now - 60_000 + 150  # a one-minute arena that ends 150 ms after ``now``
        created = {"type": "created", "settings": {"format": "arena", "minutes": 1, "deals_per_round": 6},
                   "bot_wait_seconds": 2}
        await store.add_tournament(TournamentRow("ar", "host", "Host", "Arena", "running", start - 1000), created)
        for seq, name in enumerate(["Anna", "Béla", "Cili"], start=1):
            await store.append_tournament_event("ar", seq, {"type": "registered", "name": name}, at=start - 500)
        await store.append_tournament_event("ar", 4, {"type": "round_seated", "round": 1, "tables": [[0, 1, 2]]},
                                            at=start)
        await store.append_tournament_event(
            "ar", 5, {"type": "result_recorded", "round": 1, "table": 1, "points": [2, 1, 0]}, at=start + 1000)
        store.slow = True
        directors = TablesAside(SimpleNamespace(commit_listeners=[]), store)  # type: ignore[arg-type]

        called_at = int(time.time() * 1000)
        await directors._seat_arena("ar")  # the three wait since their result: seated together again

        log = await store.tournament_log("ar")
        loaded = await directors.load("ar")
        end = ends_at(loaded, loaded.state())
        assert end == now + 150
        assert called_at < end  # the director was asked before the end (else this test shows nothing)
        waves = [e for e in log if e.body["type"] == "round_seated"]
        assert [w.body["tables"] for w in waves] == [[[0, 1, 2]], [[0, 1, 2]]]
        assert int(time.time() * 1000) >= end  # the write finished after the end...
        assert waves[-1].at < end  # ...and the wave carries the time it was decided at
    finally:
        await store.close()
