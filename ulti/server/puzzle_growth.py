"""The server's puzzle set: loaded from the shipped file at start, grown from the deals played here, and
each player's own mistakes cut from their analysed deals.

- **At start**, the shipped set (``ulti.puzzles.shipped``) is added to the ``puzzles`` table, each
  puzzle the store lacks by id (so a release that ships new puzzles adds them to an existing store),
  dated 0 so that it is in every day's daily draw (``puzzle_routes.daily_puzzle``).
- **The set grows** (``grow_once``, every ``grow_seconds``): the finished deals of finished ordinary
  tables (never a duplicate event's: its deals are hidden from other tables while it runs) are cut into
  puzzles (``ulti.puzzles.cut``) as long work of the lowest priority (``longwork.PRIORITY["puzzles"]``:
  below the bots' turns and below analyses), a few decisions per piece. A deal is claimed in the store
  before it is cut (``puzzle_sources``), so it is cut at most once, by one process, and a table whose
  deals are all cut is marked so that it is not read again; puzzles are kept by
  id, so the same position reached twice is one puzzle; at most ``MAX_PLAYED`` puzzles come from here
  and at most ``DEALS_PER_ROUND`` deals are cut per round.
- **Own mistakes** (``analysed``, called when a deal's analysis is stored): the card decisions the
  analysis labels a mistake or a blunder, of a seat a person played, are judged as puzzle moves
  (``cut_record`` at those positions: the only good card from what the player could know, not forced,
  not obvious); those that are puzzles are stored and offered to that player (``puzzle_mistakes``).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from ulti.puzzles.cut import card_decisions, cut_record
from ulti.puzzles.shipped import load
from ulti.server import tablerecords
from ulti.server.logs import log
from ulti.store.ports import WHOLE_TABLE, PuzzleSources

if TYPE_CHECKING:
    from ulti.server.hub import Hub

#: seconds between two rounds of growth (the first round too waits this long after the start);
#: ``ULTI_PUZZLE_GROW_SECONDS`` sets it, 0 turns growth off
GROW_SECONDS = 300.0
#: the most puzzles cut from the deals played here (the set stays a few thousand at most)
MAX_PLAYED = 3000
#: deals cut per round at most
DEALS_PER_ROUND = 20
#: card decisions judged per piece of long work (a judgment solves some 48 worlds: a piece stays short)
CHUNK = 4
#: the analysis labels of a decision that lost clearly
MISTAKE_LABELS = ("mistake", "blunder")

Runner = Callable[..., Awaitable[Any]]


def cut_part(record: dict[str, Any], indices: list[int]) -> list[dict[str, Any]]:
    """The puzzles of ``record`` starting at the card decisions before history ``indices`` (a worker's piece)."""
    return cut_record(record, at=set(indices))


def grow_seconds() -> float:
    """Seconds between rounds of growth (``ULTI_PUZZLE_GROW_SECONDS``, else ``GROW_SECONDS``; 0: off)."""
    text = os.environ.get("ULTI_PUZZLE_GROW_SECONDS")
    try:
        return max(0.0, float(text)) if text else GROW_SECONDS
    except ValueError:
        return GROW_SECONDS


class Puzzles:
    """The puzzle set of this server process (``app.state.puzzles``)."""

    def __init__(self, store: PuzzleSources, hub: Hub | None = None, run: Runner | None = None) -> None:
        """Puzzles in ``store``; deals read through ``hub``; ``run(fn, *args)`` computes a piece (by default
        in ``hub``'s long-work processes at the lowest priority)."""
        self.store = store
        self.hub = hub
        self._run = run
        self._task: asyncio.Task[None] | None = None

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` as a piece of background long work."""
        if self._run is not None:
            return await self._run(fn, *args)
        assert self.hub is not None
        return await self.hub.desk.work.call("puzzles", fn, *args)

    async def start(self, grow: float | None = None) -> None:
        """Add the shipped puzzles the store lacks, and grow the set every ``grow`` seconds (0: never)."""
        await self.load_shipped()
        every = grow_seconds() if grow is None else grow
        if every > 0 and self.hub is not None:
            self._task = asyncio.create_task(self._grow_forever(every))

    def close(self) -> None:
        """Stop growing (a deal being cut stays claimed: it is not cut again)."""
        if self._task is not None:
            self._task.cancel()

    async def load_shipped(self) -> int:
        """Add the shipped puzzles the store lacks (by id); how many were added."""
        items = await asyncio.to_thread(load)
        try:
            added = await self.store.add_puzzles(items, "shipped", created_at=0)
        except IntegrityError:
            return 0  # another process of the cluster loaded it at the same moment
        if added:
            log("puzzles loaded", count=len(added))
        return len(added)

    async def cut_deal(self, table_id: str, index: int, record: dict[str, Any]) -> int:
        """Cut one finished deal into puzzles unless it was cut before; how many new puzzles it gave."""
        if not await self.store.mark_source(table_id, index, "played"):
            return 0  # cut already (or being cut by another process)
        indices = await asyncio.to_thread(card_decisions, record)
        added = 0
        for first in range(0, len(indices), CHUNK):
            found: list[dict[str, Any]] = await self.run(cut_part, record, indices[first:first + CHUNK])
            added += len(await self.store.add_puzzles(found, "played"))
        return added

    async def grow_once(self, deals: int = DEALS_PER_ROUND) -> int:
        """One round: cut up to ``deals`` finished deals not cut yet; how many puzzles were added."""
        assert self.hub is not None
        added = 0
        done = await self.store.tables_cut("played")
        for table_id in await self.hub.store.table_ids(["finished"]):
            if deals <= 0 or await self.store.count_source("played") >= MAX_PLAYED:
                break
            if table_id in done:
                continue
            state = (await self.hub.source(table_id)).state
            if state.duplicate_id is None and state.match is not None:  # an event's deals stay with the event
                for index, deal in enumerate(state.match.deals):
                    if deals <= 0:
                        break
                    if not deal.is_over or await self.store.source_cut(table_id, index, "played"):
                        continue
                    deals -= 1
                    added += await self.cut_deal(table_id, index, tablerecords.deal_record(state, index))
                else:
                    await self.store.mark_source(table_id, WHOLE_TABLE, "played")
            else:
                await self.store.mark_source(table_id, WHOLE_TABLE, "played")
        return added

    async def _grow_forever(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                added = await self.grow_once()
                if added:
                    log("puzzles grown", added=added)
            except asyncio.CancelledError:
                raise
            except Exception:
                logging.getLogger("ulti").exception("puzzle growth failed")

    async def mistakes(
        self, table_id: str, index: int, record: dict[str, Any], analysis: dict[str, Any], players: dict[int, str]
    ) -> int:
        """Offer each player of ``players`` (seat → player id) the puzzles cut at their clear mistakes of the
        analysed deal; how many were offered."""
        by_seat: dict[int, list[int]] = {}
        for decision in analysis.get("decisions", []):
            seat = decision.get("seat")
            if decision.get("kind") == "play" and decision.get("label") in MISTAKE_LABELS and seat in players:
                by_seat.setdefault(int(seat), []).append(int(decision["index"]))
        if not by_seat or not await self.store.mark_source(table_id, index, "mistake"):
            return 0
        offered = 0
        for seat, indices in sorted(by_seat.items()):
            found: list[dict[str, Any]] = await self.run(cut_part, record, indices)
            mine = [p for p in found if p["seat"] == seat]
            await self.store.add_puzzles(mine, "mistake")
            offered += await self.store.add_mistakes(players[seat], [p["id"] for p in mine], table_id, index)
        return offered

    async def analysed(self, table_id: str, index: int, record: dict[str, Any], analysis: dict[str, Any]) -> None:
        """A deal's analysis was stored: cut its players' mistakes (an ordinary table's only)."""
        if self.hub is None:
            return
        try:
            state = (await self.hub.source(table_id)).state
            if state.duplicate_id is not None:
                return
            players = {
                s: seat.player_id
                for s, seat in enumerate(state.seats)
                if seat.kind == "player" and seat.player_id is not None and not seat.bot
            }
            if players:
                offered = await self.mistakes(table_id, index, record, analysis, players)
                if offered:
                    log("mistake puzzles offered", table=table_id, deal=index, count=offered)
        except asyncio.CancelledError:
            raise
        except Exception:
            # the analysis is stored and served whatever happens here: a failure costs the puzzles only
            logging.getLogger("ulti").exception("cutting mistake puzzles failed", extra={"fields": {"table": table_id}})
