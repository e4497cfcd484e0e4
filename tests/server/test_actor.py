"""The table actor in-process, over a real SQLite store, hosted by a small recording host (the
``seam.TableHost`` interface): events are stored before they are reported, refusals store and
report nothing, retried commands are idempotent, and bots play a match to its end by themselves."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field

import pytest

from ulti.bots.random_bot import RandomBot
from ulti.engine.record import action_to_json
from ulti.server.actor import TableActor
from ulti.server.config import Settings
from ulti.server.errors import CommandError
from ulti.server.events import Event, SeatSpec, parse_event
from ulti.server.seam import Filtered
from ulti.server.tablestate import TableState
from ulti.store import EventStore

HOST = "host0000"


@dataclass
class RecordingHost:
    """A ``TableHost`` that remembers what the actor reported (and checks each report is stored)."""

    store: EventStore
    committed: list[tuple[int, Event]] = field(default_factory=list)
    views: list[Filtered] = field(default_factory=list)
    lobby: list[str] = field(default_factory=list)
    presence: list[tuple[int, bool]] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    executor: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(2))
    stored_when_reported: list[bool] = field(default_factory=list)

    @property
    def clustered(self) -> bool:
        return False

    def filter_event(self, actor: TableActor, seq: int, event: Event) -> Filtered:
        return seq, {seat: actor.state.public_event(event, seat) for seat in (0, 1, 2, None)}

    async def events_committed(
        self, actor: TableActor, outgoing: list[Filtered], stored: list[tuple[int, Event]]
    ) -> None:
        in_store = await self.store.events(actor.table_id)
        self.stored_when_reported.extend(event in in_store for _, event in stored)
        self.committed.extend(stored)
        self.views.extend(outgoing)

    def lobby_changed(self, table_id: str) -> None:
        self.lobby.append(table_id)

    def action_stored(self, by: str) -> None:
        self.actions.append(by)

    async def presence_changed(self, actor: TableActor, seat: int, connected: bool) -> None:
        self.presence.append((seat, connected))

    def presence_soon(self, actor: TableActor, seat: int, connected: bool) -> None:
        self.presence.append((seat, connected))

    async def lost_table(self, table_id: str) -> None:
        self.lost.append(table_id)

    def bot_executor(self, level: str) -> Executor:
        return self.executor


def new_actor(store: EventStore, host: RecordingHost, table_id: str = "t1") -> TableActor:
    settings = Settings.for_tests(db_url="sqlite://")
    return TableActor(host, TableState(table_id), store, settings)


async def create(actor: TableActor, seats: list[SeatSpec], seed: int = 11) -> None:
    async def command() -> None:
        await actor.emit({"type": "created", "host": HOST, "deals": 6, "move_seconds": 0, "seed": seed,
                          "chosen_seed": True, "seats": seats})

    await actor.run(command)


async def start(actor: TableActor) -> None:
    async def command() -> None:
        for event in actor.state.start_events(HOST, True):
            await actor.emit(event)
        await actor.emit(actor.state.next_deal_event())

    await actor.run(command)


async def stop(actor: TableActor, host: RecordingHost) -> None:
    """Cancel the actor's pending bot moves and wait for the bot threads, before the test's loop closes
    (a bot thread finishing after it would fail in its own thread, during whichever test runs then)."""
    actor.close()
    await asyncio.get_running_loop().run_in_executor(None, host.executor.shutdown, True)


async def rebuilt(store: EventStore, table_id: str) -> TableState:
    state = TableState(table_id)
    for event in await store.events(table_id):
        state.apply(parse_event(event))
    return state


@pytest.mark.asyncio
async def test_every_event_is_stored_before_it_is_reported(store: EventStore) -> None:
    host = RecordingHost(store)
    actor = new_actor(store, host)
    await create(actor, [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}])

    # three people (no bots): nothing is pending once the command is done, so what was reported is all
    for seat, player in enumerate((HOST, "p1", "p2")):
        async def sit(seat: int = seat, player: str = player) -> None:
            await actor.emit(actor.state.join_event(player, f"Player {seat}", seat, None))

        await actor.run(sit)
    await start(actor)
    assert host.stored_when_reported and all(host.stored_when_reported)
    assert [seq for seq, _ in host.committed] == list(range(1, len(host.committed) + 1))
    assert [e for _, e in host.committed] == await store.events("t1")
    # each viewer's version of the deal event hides the others' hands
    deal_views = host.views[-1][1]
    assert all("hands" not in view for view in deal_views.values())
    assert host.lobby.count("t1") >= 5  # created, three sits and the start change the lobby
    await stop(actor, host)


@pytest.mark.asyncio
async def test_a_refused_command_stores_and_reports_nothing(store: EventStore) -> None:
    host = RecordingHost(store)
    actor = new_actor(store, host)
    await create(actor, [{"kind": "open"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}])
    before = await store.events("t1")
    reported = len(host.committed)

    async def bad_start() -> None:
        for event in actor.state.start_events("someone else", True):
            await actor.emit(event)

    with pytest.raises(CommandError) as refused:
        await actor.run(bad_start)
    assert refused.value.code == "not_host"
    assert await store.events("t1") == before and len(host.committed) == reported


@pytest.mark.asyncio
async def test_a_retried_command_is_answered_with_its_first_event(store: EventStore) -> None:
    host = RecordingHost(store)
    actor = new_actor(store, host)
    settings_free: list[SeatSpec] = [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}]
    await create(actor, settings_free)
    for seat, player in enumerate(("p0", "p1", "p2")):
        async def sit(seat: int = seat, player: str = player) -> None:
            await actor.emit(actor.state.join_event(player, f"Player {seat}", seat, None))

        await actor.run(sit)

    async def begin() -> None:
        for event in actor.state.start_events(HOST, False):
            await actor.emit(event)
        await actor.emit(actor.state.next_deal_event())

    await actor.run(begin)
    deal = actor.state.deal
    assert deal is not None
    seat = deal.to_move
    move = action_to_json(RandomBot(random.Random(3)).act(deal.seat_view(seat)))
    move.pop("seat")
    first = await actor.act(seat, move, command_id="p:c1")
    again = await actor.act(seat, move, command_id="p:c1")
    assert first == again == actor.state.seq
    assert sum(1 for e in await store.events("t1") if e.get("cid") == "p:c1") == 1
    assert host.actions == ["player"]


@pytest.mark.asyncio
async def test_bots_play_the_match_to_its_end_and_the_log_rebuilds_it(store: EventStore) -> None:
    host = RecordingHost(store)
    actor = new_actor(store, host)
    bots: list[SeatSpec] = [{"kind": "bot", "level": "random"}] * 3
    await create(actor, bots)
    await start(actor)
    async with asyncio.timeout(120):
        while actor.state.status != "finished":
            await asyncio.sleep(0.02)
    await stop(actor, host)
    assert actor.state.match is not None and actor.state.match.winner() is not None
    replayed = await rebuilt(store, "t1")
    assert replayed.match is not None
    assert replayed.match.totals() == actor.state.match.totals()
    assert replayed.seq == actor.state.seq
    assert set(host.actions) == {"bot"} and len(host.actions) == sum(
        1 for e in await store.events("t1") if e["type"] == "action"
    )
    assert host.lost == [] and all(host.stored_when_reported)
