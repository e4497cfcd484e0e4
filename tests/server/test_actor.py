"""The table actor in-process, over the in-memory table log (``tests/support/memory_log.py``; the
same log on SQLite in ``test_table_log.py``), hosted by a small recording host (the
``seam.TableHost`` interface): events are stored before they are reported, refusals store and
report nothing, retried commands are idempotent, and bots play a match to its end by themselves."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.support.memory_log import MemoryTableLog
from ulti.bots.random_bot import RandomBot
from ulti.engine.record import action_to_json
from ulti.server import tablerules, tableviews
from ulti.server.actor import PACE_FACTORS, TableActor
from ulti.server.config import Settings
from ulti.server.errors import CommandError
from ulti.server.events import Event, SeatSpec, parse_event
from ulti.server.seam import Filtered
from ulti.server.tablestate import TableState
from ulti.store import ActorStore

HOST = "host0000"


@pytest.fixture
def store() -> MemoryTableLog:
    """The actor's log, in memory: these tests need no database (this overrides conftest's SQLite store)."""
    return MemoryTableLog()


@dataclass
class RecordingHost:
    """A ``TableHost`` that remembers what the actor reported (and checks each report is stored)."""

    store: ActorStore
    committed: list[tuple[int, Event]] = field(default_factory=list)
    views: list[Filtered] = field(default_factory=list)
    lobby: list[str] = field(default_factory=list)
    presence: list[tuple[int, bool]] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    waiting: list[list[dict[str, Any]]] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    executor: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(2))
    stored_when_reported: list[bool] = field(default_factory=list)
    stand_ins: list[str] = field(default_factory=list)

    @property
    def clustered(self) -> bool:
        return False

    def filter_event(self, actor: TableActor, seq: int, event: Event) -> Filtered:
        return seq, {seat: tableviews.public_event(actor.state, event, seat) for seat in (0, 1, 2, None)}

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

    def waiting_changed(self, actor: TableActor) -> None:
        self.waiting.append(actor.waiting)

    async def lost_table(self, table_id: str) -> None:
        self.lost.append(table_id)

    def bot_executor(self, level: str) -> Executor:
        return self.executor

    async def level_for_people(self, player_ids: Sequence[str]) -> str:
        self.stand_ins.extend(player_ids)
        return "heuristic"


def new_actor(store: ActorStore, host: RecordingHost, table_id: str = "t1") -> TableActor:
    settings = Settings.for_tests(db_url="sqlite://")
    return TableActor(host, TableState(table_id), store, settings)


async def create(actor: TableActor, seats: list[SeatSpec], seed: int = 11) -> None:
    async def command() -> None:
        await actor.emit({"type": "created", "host": HOST, "deals": 6, "move_seconds": 0, "seed": seed,
                          "chosen_seed": True, "seats": seats})

    await actor.run(command)


async def start(actor: TableActor) -> None:
    async def command() -> None:
        for event in tablerules.start_events(actor.state, HOST, True):
            await actor.emit(event)
        await actor.emit(tablerules.next_deal_event(actor.state))

    await actor.run(command)


async def stop(actor: TableActor, host: RecordingHost) -> None:
    """Cancel the actor's pending bot moves and wait for the bot threads, before the test's loop closes
    (a bot thread finishing after it would fail in its own thread, during whichever test runs then)."""
    actor.close()
    await asyncio.get_running_loop().run_in_executor(None, host.executor.shutdown, True)


async def rebuilt(store: ActorStore, table_id: str) -> TableState:
    state = TableState(table_id)
    for event in await store.events(table_id):
        state.apply(parse_event(event))
    return state


@pytest.mark.asyncio
async def test_every_event_is_stored_before_it_is_reported(store: ActorStore) -> None:
    host = RecordingHost(store)
    actor = new_actor(store, host)
    await create(actor, [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}])

    # three people (no bots): nothing is pending once the command is done, so what was reported is all
    for seat, player in enumerate((HOST, "p1", "p2")):
        async def sit(seat: int = seat, player: str = player) -> None:
            await actor.emit(tablerules.join_event(actor.state, player, f"Player {seat}", seat, None))

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
async def test_a_refused_command_stores_and_reports_nothing(store: ActorStore) -> None:
    host = RecordingHost(store)
    actor = new_actor(store, host)
    await create(actor, [{"kind": "open"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}])
    before = await store.events("t1")
    reported = len(host.committed)

    async def bad_start() -> None:
        for event in tablerules.start_events(actor.state, "someone else", True):
            await actor.emit(event)

    with pytest.raises(CommandError) as refused:
        await actor.run(bad_start)
    assert refused.value.code == "not_host"
    assert await store.events("t1") == before and len(host.committed) == reported


@pytest.mark.asyncio
async def test_a_retried_command_is_answered_with_its_first_event(store: ActorStore) -> None:
    host = RecordingHost(store)
    actor = new_actor(store, host)
    settings_free: list[SeatSpec] = [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}]
    await create(actor, settings_free)
    for seat, player in enumerate(("p0", "p1", "p2")):
        async def sit(seat: int = seat, player: str = player) -> None:
            await actor.emit(tablerules.join_event(actor.state, player, f"Player {seat}", seat, None))

        await actor.run(sit)

    async def begin() -> None:
        for event in tablerules.start_events(actor.state, HOST, False):
            await actor.emit(event)
        await actor.emit(tablerules.next_deal_event(actor.state))

    await actor.run(begin)
    deal = actor.state.deal
    assert deal is not None and deal.to_move is not None
    seat = deal.to_move
    move = action_to_json(RandomBot(random.Random(3)).act(deal.seat_view(seat)))
    move.pop("seat")
    first = await actor.act(seat, move, command_id="p:c1")
    again = await actor.act(seat, move, command_id="p:c1")
    assert first == again == actor.state.seq
    assert sum(1 for e in await store.events("t1") if e.get("cid") == "p:c1") == 1
    assert host.actions == ["player"]


@pytest.mark.asyncio
async def test_bots_play_the_match_to_its_end_and_the_log_rebuilds_it(store: ActorStore) -> None:
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


def actor_with(store: ActorStore, host: RecordingHost, table_id: str, **settings: float) -> TableActor:
    """An actor whose settings differ from the fast ones by ``settings`` (say, a long result time limit)."""
    config = Settings.for_tests(db_url="sqlite://")
    for name, value in settings.items():
        setattr(config, name, value)
    return TableActor(host, TableState(table_id), store, config)


async def two_people_and_a_bot(actor: TableActor) -> None:
    """Seats 0 and 1 are people (HOST, p1), seat 2 a random bot; the first deal is dealt."""
    await create(actor, [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "level": "random"}])
    for seat, player in enumerate((HOST, "p1")):
        async def sit(seat: int = seat, player: str = player) -> None:
            await actor.emit(tablerules.join_event(actor.state, player, f"Player {seat}", seat, None))

        await actor.run(sit)
    await start(actor)


async def finish_deal(actor: TableActor, seed: int = 5) -> None:
    """The people make random legal moves (the bot moves by itself) until the current deal is over."""
    rng = random.Random(seed)
    async with asyncio.timeout(30):
        while True:
            deal = actor.state.deal
            assert deal is not None
            if deal.is_over:
                return
            seat = deal.to_move
            assert seat is not None  # the deal is not over
            if seat == 2:
                await asyncio.sleep(0.005)
                continue
            move = action_to_json(RandomBot(rng).act(deal.seat_view(seat)))
            move.pop("seat")
            await actor.act(seat, move)


def deals_dealt(actor: TableActor) -> int:
    return len(actor.state.match.deals) if actor.state.match else 0


@pytest.mark.asyncio
async def test_the_next_deal_waits_for_every_person_and_the_readiness_survives_a_restart(
    store: ActorStore,
) -> None:
    host = RecordingHost(store)
    actor = actor_with(store, host, "t1", result_seconds=60.0)
    await two_people_and_a_bot(actor)
    await finish_deal(actor)
    await asyncio.sleep(0.3)  # nothing happens by itself: the result waits for both people
    assert deals_dealt(actor) == 1 and actor.state.waiting_for_ready() == [0, 1]
    assert actor.deadline is not None and actor.deadline > time.time() + 50  # the time limit
    first = await actor.ready(0, command_id="host:r1")
    assert await actor.ready(0, command_id="host:r1") == first  # a retried command: answered, not stored again
    assert await actor.ready(0) == first  # said twice: nothing more is stored
    await asyncio.sleep(0.2)
    assert deals_dealt(actor) == 1 and actor.state.waiting_for_ready() == [1]
    stored = await store.events("t1")
    assert [e for e in stored if e["type"] == "ready"] == [{"type": "ready", "seat": 0, "cid": "host:r1"}]

    # the server restarts between the two clicks: the readiness is rebuilt from the stored events
    await stop(actor, host)
    host2 = RecordingHost(store)
    state = await rebuilt(store, "t1")
    resumed = TableActor(host2, state, store, actor.settings)
    assert state.ready == {0} and state.waiting_for_ready() == [1]
    resumed.schedule()
    await asyncio.sleep(0.2)
    assert deals_dealt(resumed) == 1  # still waiting for seat 1
    with pytest.raises(CommandError) as refused:
        await resumed.act(0, {"action": "pass"})
    assert refused.value.code == "no_deal"
    await resumed.ready(1)
    async with asyncio.timeout(5):
        while deals_dealt(resumed) < 2:
            await asyncio.sleep(0.01)
    assert resumed.state.ready == set()
    assert [e["type"] for e in await store.events("t1")][-2:] == ["ready", "deal"]
    with pytest.raises(CommandError) as refused:
        await resumed.ready(1)
    assert refused.value.code == "not_between_deals"
    await stop(resumed, host2)


@pytest.mark.asyncio
async def test_absent_players_are_ready_at_once_and_the_time_limit_deals_anyway(store: ActorStore) -> None:
    host = RecordingHost(store)
    actor = actor_with(store, host, "t1", result_seconds=0.6)
    await two_people_and_a_bot(actor)
    await finish_deal(actor)
    # seat 1 went away (a bot plays for it): only seat 0 is waited for
    async def away() -> None:
        await actor.emit({"type": "away", "seat": 1, "away": True})

    await actor.run(away)
    assert actor.state.waiting_for_ready() == [0]
    await asyncio.sleep(0.2)
    assert deals_dealt(actor) == 1
    # nobody clicks: the time limit (counted from the deal's end) deals the next deal anyway
    async with asyncio.timeout(3):
        while deals_dealt(actor) < 2:
            await asyncio.sleep(0.01)
    assert not any(e["type"] == "ready" for e in await store.events("t1"))
    await stop(actor, host)


@pytest.mark.asyncio
async def test_the_next_deal_comes_at_once_when_everybody_is_ready(store: ActorStore) -> None:
    host = RecordingHost(store)
    actor = actor_with(store, host, "t1", result_seconds=60.0)
    await two_people_and_a_bot(actor)
    await finish_deal(actor)
    await actor.ready(1)
    await actor.ready(0)
    async with asyncio.timeout(2):  # between_deals is 0 here: no need to wait for the 60 s limit
        while deals_dealt(actor) < 2:
            await asyncio.sleep(0.01)
    await stop(actor, host)


@dataclass
class FailingLog(MemoryTableLog):
    """The in-memory log, refusing to store action events while ``failing`` (a full disk, a lost database)."""

    failing: bool = False

    async def append(self, table_id: str, seq: int, body: Any) -> None:
        if self.failing and body.get("type") == "action":
            raise OSError("the store is unavailable")
        await super().append(table_id, seq, body)


@pytest.mark.asyncio
async def test_a_failed_store_leaves_the_tables_deal_untouched() -> None:
    store = FailingLog()
    host = RecordingHost(store)
    actor = actor_with(store, host, "t1", result_seconds=60.0)
    await two_people_and_a_bot(actor)
    deal = actor.state.deal
    assert deal is not None
    async with asyncio.timeout(10):
        while deal.to_move == 2:  # the bot's turn: it moves by itself
            await asyncio.sleep(0.005)
    seat = deal.to_move
    assert seat is not None  # the deal is not over
    move = action_to_json(RandomBot(random.Random(3)).act(deal.seat_view(seat)))
    move.pop("seat")
    seq, history, stored = actor.state.seq, list(deal.history), await store.events("t1")
    views = [tableviews.view(actor.state, s) for s in (0, 1, 2, None)]
    store.failing = True
    with pytest.raises(OSError):
        await actor.act(seat, move)
    # nothing stored, so nothing changed: the same deal, its history, every view
    assert actor.state.seq == seq and actor.state.deal is deal and deal.history == history
    assert [tableviews.view(actor.state, s) for s in (0, 1, 2, None)] == views
    assert await store.events("t1") == stored
    store.failing = False
    await actor.act(seat, move)  # the store is back: the move is stored and applied, once
    now = await store.events("t1")  # (the bot may move next, by itself)
    assert now[len(stored)]["action"] == {**move, "seat": seat}
    assert actor.state.deal is deal and deal.history[: len(history)] == history
    assert action_to_json(deal.history[len(history)]) == now[len(stored)]["action"]
    await stop(actor, host)


@pytest.mark.asyncio
async def test_a_bot_plays_an_away_players_seat_at_the_level_their_host_names(store: ActorStore) -> None:
    host = RecordingHost(store)
    actor = actor_with(store, host, "t1")
    await two_people_and_a_bot(actor)

    async def away() -> None:
        await actor.emit({"type": "away", "seat": 1, "away": True})

    await actor.run(away)
    # seat 1's player is away: its stand-in plays with the bot in seat 2 while seat 0 acts
    rng = random.Random(3)
    async with asyncio.timeout(30):
        while (deal := actor.state.deal) is not None and not deal.is_over:
            if deal.to_move == 0:
                move = action_to_json(RandomBot(rng).act(deal.seat_view(0)))
                move.pop("seat")
                await actor.act(0, move)
            else:
                await asyncio.sleep(0.005)
    assert deal is not None and sum(1 for a in deal.history if a.seat == 1) > 1
    # the level is the host's choice for that player (the hub's: nearest their rating), asked once
    assert host.stand_ins == ["p1"]
    # the seated bot keeps its own level: the host is never asked about it
    assert await actor._level_at(2) == "random" and host.stand_ins == ["p1"]
    await stop(actor, host)


def test_the_trick_pause_follows_the_paces_asked_for_and_who_plays(store: MemoryTableLog) -> None:
    actor = new_actor(store, RecordingHost(store))
    actor.settings.trick_pause = 2.0
    state = actor.state
    state.apply({"type": "created", "host": "p0", "deals": 6, "move_seconds": 0, "seed": 3, "chosen_seed": True,
                 "seats": [{"kind": "open"}] * 3})
    for seat, player in enumerate(("p0", "p1", "p2")):
        state.apply(tablerules.join_event(state, player, player.upper(), seat, None))
    assert actor.trick_pause == 2.0  # nobody asked: "normal" (its answer is kept until something changes)
    actor.set_pace(1, "slow")
    assert actor.trick_pause == round(2.0 * PACE_FACTORS["slow"], 3)
    state.apply({"type": "away", "seat": 1, "away": True})  # a bot plays for the slow player: their pace goes
    assert actor.trick_pause == 2.0
    actor.set_pace(0, "fast")
    state.apply({"type": "away", "seat": 1, "away": False})
    assert actor.trick_pause == round(2.0 * PACE_FACTORS["slow"], 3)  # the slowest of those playing
    actor.settings.trick_pause = 1.0
    assert actor.trick_pause == round(1.0 * PACE_FACTORS["slow"], 3)
