"""A table log in memory: the actor's protocol (``ActorStore``) without a database, for unit tests.

It keeps what the SQLite store keeps and refuses what it refuses: an event number stored twice for a
table raises ``SeqConflict``, a body JSON cannot hold is refused before anything is stored, a match is
recorded once and its ratings change with it. Bodies are kept as JSON text, so a caller that changes
an event after appending it cannot change the log (as with the real store).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from ulti.store import SeqConflict
from ulti.store.ports import Rater, RatingChange, SeatResult, SkillRow


@dataclass(frozen=True)
class RecordedMatch:
    """A match recorded in memory: its deals, seats and (rated) rating changes, and when it ended (ms)."""

    deals_played: int
    seats: tuple[SeatResult, ...]
    changes: tuple[RatingChange | None, ...]
    finished_at: int


@dataclass
class MemoryTableLog:
    """Tables' event logs, statuses and match results held in this process (nothing survives it)."""

    #: table id -> seq -> the event's JSON text
    logs: dict[str, dict[int, bytes]] = field(default_factory=dict)
    #: table id -> when its latest event was appended (epoch seconds)
    appended_at: dict[str, float] = field(default_factory=dict)
    #: table id -> (status, lobby summary) as last saved
    tables: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    #: player id -> name: the players known here (the bots' accounts, and any a test adds)
    players: dict[str, str] = field(default_factory=dict)
    ratings: dict[str, SkillRow] = field(default_factory=dict)
    results: dict[str, RecordedMatch] = field(default_factory=dict)

    # ---------------------------------------------------------------- TableLog

    async def append(self, table_id: str, seq: int, body: Mapping[str, Any]) -> None:
        """Store event ``seq`` of ``table_id``; raise ``SeqConflict`` if that number is taken."""
        text = orjson.dumps(body)  # refuses what the real store refuses (text UTF-8 cannot hold)
        log = self.logs.setdefault(table_id, {})
        if seq in log:
            raise SeqConflict(f"event {seq} of table {table_id} already stored")
        log[seq] = text
        self.appended_at[table_id] = time.time()

    async def events(self, table_id: str, after: int = 0) -> list[dict[str, Any]]:
        """The events of ``table_id`` with seq > ``after``, in order (fresh copies)."""
        log = self.logs.get(table_id, {})
        return [orjson.loads(log[seq]) for seq in sorted(log) if seq > after]

    async def save_table(self, table_id: str, status: str, summary: dict[str, Any]) -> None:
        """Create or update a table's lobby summary and status."""
        self.tables[table_id] = (status, orjson.loads(orjson.dumps(summary)))

    # ---------------------------------------------------------------- MatchResults

    async def ensure_bot_accounts(self, bots: Sequence[tuple[str, str, str, str]]) -> None:
        """Make sure each bot ``(player_id, name, name_key, name_skeleton)`` is a known player."""
        for player_id, name, _key, _skeleton in bots:
            self.players.setdefault(player_id, name)

    async def ensure_ratings(self, player_ids: Sequence[str], newcomer: tuple[float, float]) -> None:
        """Give each of ``player_ids`` that is a known player a rating row (a newcomer's) if it has none."""
        for player_id in player_ids:
            if player_id in self.players and player_id not in self.ratings:
                self.ratings[player_id] = SkillRow(newcomer[0], newcomer[1], 0)

    async def match_recorded(self, table_id: str) -> bool:
        """Whether the match of ``table_id`` has its result stored."""
        return table_id in self.results

    async def record_match(
        self,
        table_id: str,
        deals_played: int,
        seats: Sequence[SeatResult],
        rater: Rater | None,
        finished_at: int | None = None,
    ) -> bool:
        """Store the result of the finished match of ``table_id`` once; whether this call stored it.

        As the real store does: ``rater`` turns the seats' current skills into new ones, and a seat
        without a rating row keeps none.
        """
        if table_id in self.results:
            return False
        changes: Sequence[RatingChange | None] = [None] * len(seats)
        if rater is not None:
            changes = rater([self.ratings.get(s.player_id) for s in seats])
            for seat, change in zip(seats, changes, strict=True):
                if change is not None and seat.player_id in self.ratings:
                    self.ratings[seat.player_id] = change.skill
        finished = finished_at if finished_at is not None else int(time.time() * 1000)
        self.results[table_id] = RecordedMatch(deals_played, tuple(seats), tuple(changes), finished)
        return True

    async def last_event_at(self, table_id: str) -> float | None:
        """When the latest event of ``table_id`` was appended (epoch seconds), None if it has none."""
        return self.appended_at.get(table_id)

    # ---------------------------------------------------------------- what tests read

    def status_of(self, table_id: str) -> str | None:
        """The status last saved for ``table_id``, or None if it was never saved."""
        saved = self.tables.get(table_id)
        return None if saved is None else saved[0]
