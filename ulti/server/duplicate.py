"""Solo duplicate: every deal of a duplicate table is played again by bots, the strong bot in the player's seat.

A table created with ``"duplicate": true`` (one person, two bots) gets, for each finished deal, a *par*:
the same cards and dealer played by the strong bot in the person's seat and the table's own bots in
theirs. The person's score beside the par's, and their difference, make the score sheet; the match
is won or lost on the sum of the differences (``TableState.duplicate_view``).

The replay never blocks the table: it is a job in the store's ``par_jobs`` queue, played one decision
at a time in the long-work processes (``Hub.desk``: low-priority workers of their own, so no table's
bot waits for it, and a what-if line or a hint waits for one decision at most), and its record goes to the table's log
as a ``par`` event through the table's owner (so a restart, or another process taking the table over,
finds it there). The store is the queue: a restarted server finds the queued jobs, and the running
one of a killed process, there; a job that ran twice stores its par once (the ``par`` operation
ignores a deal that has one).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypedDict

import orjson

from ulti.engine.actions import Action
from ulti.engine.cards import parse_card
from ulti.engine.deal import Deal
from ulti.engine.record import deal_to_record
from ulti.engine.view import SeatView
from ulti.server.commands import StorePar
from ulti.server.events import Event, Par
from ulti.server.logs import log
from ulti.server.tablebots import bot_action
from ulti.server.tablestate import TableState
from ulti.store.ports import ParQueue

if TYPE_CHECKING:
    from ulti.server.hub import Hub

#: the bot whose play is the par
PAR_LEVEL = "strong"
#: A running job whose worker reported nothing for this long belongs to a process that is gone.
STALE_SECONDS = 60.0
#: How often the queue and the loaded tables are looked at when nothing woke the runner.
IDLE_SCAN_SECONDS = 20.0


class ParSpec(TypedDict):
    """What a par replay needs, as its job stores it: the deal's hands and dealer, the player's seat, each
    seat's bot level (the par's for the player's), and the seed the bots' seeds come from."""

    hands: list[list[str]]
    dealer: int
    seat: int
    levels: list[str]
    seed: str


def par_spec(state: TableState, index: int) -> ParSpec | None:
    """What the par replay of finished deal ``index`` needs (None: no par for this deal or table)."""
    seat = state.duplicate_seat()
    match = state.match
    if not state.duplicate or seat is None or match is None or index >= len(match.deals):
        return None
    deal = match.deals[index]
    if not deal.is_over:
        return None
    record = deal_to_record(deal)
    levels = [s.level or "heuristic" for s in state.seats]
    levels[seat] = PAR_LEVEL
    # The bots' seeds come from the table's secret seed, so a replay that runs again plays the same par.
    return {"hands": record["hands"], "dealer": record["dealer"], "seat": seat, "levels": levels,
            "seed": f"{state.seed}:par:{index}"}


def par_event(index: int, spec: ParSpec, deal: Deal) -> Par:
    """The ``par`` event of a finished replay."""
    assert deal.result is not None
    result = deal.result.to_json()
    return {"type": "par", "index": index, "seat": spec["seat"], "level": PAR_LEVEL, "record": deal_to_record(deal),
            "scores": list(deal.result.scores), "bid": result.get("bid"), "declarer": result.get("declarer")}


async def play_par(spec: ParSpec, think: Callable[[str, SeatView, str], Awaitable[Action]],
                   alive: Callable[[], Any] | None = None) -> Deal:
    """Play the deal of ``spec`` to its end, each decision by its seat's bot: ``think(level, view, seed)``."""
    deal = Deal([[parse_card(c) for c in hand] for hand in spec["hands"]], spec["dealer"])
    while (seat := deal.to_move) is not None:
        level = spec["levels"][seat]
        seed = f"{spec['seed']}:{len(deal.history)}"
        # one decision per call: a what-if line or a hint queued behind it waits for one decision only
        action = await think(level, deal.seat_view(seat), seed)
        deal.apply(action)
        if alive is not None:
            await alive()
    return deal


class ParJobs:
    """The par replays of this server process (the store holds the queue; this runs it)."""

    def __init__(self, store: ParQueue, hub: Hub) -> None:
        """Jobs stored in ``store``, played in ``hub``'s bot workers, their results sent to the tables' owners."""
        self.store = store
        self.hub = hub
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._queued: set[tuple[str, int]] = set()
        hub.commit_listeners.append(self._on_commit)

    def start(self) -> None:
        """Start working through the stored queue (jobs left by a previous run first)."""
        self._task = asyncio.create_task(self.run_forever())

    def close(self) -> None:
        """Stop; a job cut short stays in the store and is taken up again after the restart."""
        for task in [self._task, *self._tasks]:
            if task is not None:
                task.cancel()

    # ---------------------------------------------------------------- queueing

    def _on_commit(self, state: TableState, stored: list[tuple[int, Event]]) -> None:
        """Told by the table's owner of each command's events: a duplicate deal that ended gets its job."""
        if not state.duplicate or not any(event["type"] == "action" for _, event in stored):
            return
        task = asyncio.ensure_future(self.queue_missing(state))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def queue_missing(self, state: TableState) -> None:
        """Queue the par of every finished deal of ``state`` that has none (once per deal)."""
        if not state.duplicate or state.match is None:
            return
        for index, deal in enumerate(state.match.deals):
            key = (state.table_id, index)
            if not deal.is_over or index in state.par or key in self._queued:
                continue
            spec = par_spec(state, index)
            if spec is None:
                continue
            self._queued.add(key)
            if await self.store.queue_par(state.table_id, index, orjson.dumps(spec).decode()):
                log("par replay queued", table=state.table_id, deal=index)
            self._wake.set()

    # ---------------------------------------------------------------- running

    async def run_forever(self) -> None:
        """Run the pending jobs oldest first; then wait for a new one (or look again in a while)."""
        while True:
            self._wake.clear()  # before the scan: a job queued during it wakes the next one
            try:
                # a deal that ended just before a kill may have no job yet: the loaded tables are looked at
                for actor in list(self.hub.actors.values()):
                    await self.queue_missing(actor.state)
                for job in await self.store.pending_par_jobs(STALE_SECONDS):
                    await self._run(job.table_id, job.deal_index, job.spec)
            except asyncio.CancelledError:
                raise
            except Exception:
                logging.getLogger("ulti").exception("par queue failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), IDLE_SCAN_SECONDS)

    async def _run(self, table_id: str, index: int, spec_text: str) -> None:
        if not await self.store.claim_par_job(table_id, index, STALE_SECONDS):
            return  # another process took it, or it is done
        spec = orjson.loads(spec_text)
        deal = await play_par(spec, self._think, lambda: self.store.touch_par_job(table_id, index))
        await self.hub.execute(table_id, StorePar(index, par_event(index, spec, deal)))
        await self.store.finish_par_job(table_id, index)
        log("par replay stored", table=table_id, deal=index)

    async def _think(self, level: str, view: SeatView, seed: str) -> Action:
        """One decision of a par replay, in the low-priority long-work workers (never before a bot's turn)."""
        return await self.hub.desk.work.call("par", bot_action, level, view, seed)
