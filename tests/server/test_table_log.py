"""The actor's table log (``ulti.store.ports.ActorStore``) behaves the same in memory and on SQLite.

Every test here runs against both implementations: the in-memory log the actor's unit tests use
(``tests/support/memory_log.py``) and the real store. An event number is stored once, whoever asks
first; an actor holding a stale state is refused by the log; bots play a whole match on either.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.server.test_actor import HOST, RecordingHost, create, new_actor, rebuilt, start, stop
from tests.support.memory_log import MemoryTableLog
from ulti.server import tablerules
from ulti.server.events import SeatSpec
from ulti.store import ActorStore, MatchResults, SeqConflict, TableLog
from ulti.store.eventstore import EventStore


@pytest_asyncio.fixture(params=["memory", "sqlite"])
async def log(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[ActorStore]:
    """The in-memory table log, then a real migrated SQLite store."""
    if request.param == "memory":
        yield MemoryTableLog()
        return
    store = await EventStore.open(f"sqlite+aiosqlite:///{tmp_path / 'log.db'}")
    yield store
    await store.close()


def test_both_logs_offer_the_actors_protocol(log: ActorStore) -> None:
    assert isinstance(log, ActorStore) and isinstance(log, TableLog) and isinstance(log, MatchResults)


@pytest.mark.asyncio
async def test_a_taken_event_number_is_refused_and_the_first_event_stays(log: ActorStore) -> None:
    await log.append("t1", 1, {"type": "first"})
    await log.append("t1", 2, {"type": "second"})
    with pytest.raises(SeqConflict):
        await log.append("t1", 1, {"type": "late"})
    await log.append("t2", 1, {"type": "other table"})  # numbers are per table
    assert await log.events("t1") == [{"type": "first"}, {"type": "second"}]
    assert await log.events("t1", after=1) == [{"type": "second"}]
    assert await log.events("t2") == [{"type": "other table"}]
    assert await log.events("nowhere") == []


@pytest.mark.asyncio
async def test_of_two_writers_racing_for_one_number_exactly_one_stores_it(log: ActorStore) -> None:
    outcomes = await asyncio.gather(
        log.append("t1", 1, {"by": "a"}), log.append("t1", 1, {"by": "b"}), return_exceptions=True
    )
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(refused) == 1 and isinstance(refused[0], SeqConflict)
    winner = "a" if outcomes[0] is None else "b"
    assert await log.events("t1") == [{"by": winner}]


@pytest.mark.asyncio
async def test_an_actor_with_a_stale_state_is_refused_by_the_log(log: ActorStore) -> None:
    host = RecordingHost(log)
    first = new_actor(log, host)
    await create(first, [{"kind": "open"}] * 3)
    # a second process loaded the table too, then the first one stored the next event
    stale = new_actor(log, RecordingHost(log))
    stale.state = await rebuilt(log, "t1")
    seq = stale.state.seq

    async def host_sits() -> None:
        await first.emit(tablerules.join_event(first.state, HOST, "Host", 0, None))

    async def late_sit() -> None:
        await stale.emit(tablerules.join_event(stale.state, "p1", "Player", 1, None))

    await first.run(host_sits)
    with pytest.raises(SeqConflict):
        await stale.run(late_sit)
    assert stale.state.seq == seq  # nothing applied that the log refused
    stored = await log.events("t1", after=seq)
    assert len(stored) == 1 and stored[0]["type"] == "sit" and stored[0]["player"] == HOST
    await stop(first, host)


@pytest.mark.asyncio
async def test_bots_play_a_match_to_its_end_on_the_log_and_it_is_recorded_once(log: ActorStore) -> None:
    host = RecordingHost(log)
    actor = new_actor(log, host)
    bots: list[SeatSpec] = [{"kind": "bot", "level": "random"}] * 3
    await create(actor, bots)
    await start(actor)
    async with asyncio.timeout(120):
        # the table is "finished" in memory as its last event is applied; the match is recorded just after
        # (TableActor._match_over), so wait for the record too before stopping the actor
        while actor.state.status != "finished" or not await log.match_recorded("t1"):
            await asyncio.sleep(0.02)
    await stop(actor, host)
    assert actor.state.match is not None and actor.state.match.is_over
    replayed = await rebuilt(log, "t1")
    assert replayed.seq == actor.state.seq and replayed.status == "finished"
    assert replayed.match is not None and replayed.match.totals() == actor.state.match.totals()
    assert await log.match_recorded("t1")
    assert await log.last_event_at("t1") is not None
    assert host.lost == [] and all(host.stored_when_reported)
