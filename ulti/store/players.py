"""The store's part for player pages and the leaderboard: read-only views of finished matches.

A mixin of ``EventStore``. The rows it reads (``ratings``, ``match_players``) are written when a match
ends; this module only sums them. A rating leaves here as the model's ``mu`` and the count of rated
matches: the shown number and "provisional" are the accounts package's words (the store never imports it).

Speed: a player's page reads every ``match_players`` row of the player once, through the index on
(``player_id``, ``finished_at``), and sums the statistics in that one pass; the last matches' other
seats come in one more query by table id. ``benchmarks/player_bench.py`` measures it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import and_, exists, func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from ulti.store.models import accounts, duplicate_event_tables, match_players, match_results, ratings

#: how many of a player's last matches the page lists
RECENT_MATCHES = 20
#: how many players the leaderboard shows
LEADERBOARD_SIZE = 100


@dataclass(frozen=True)
class PartCounts:
    """One contract family (an engine part code) from one player's side, summed over matches."""

    declared: int = 0
    made: int = 0
    kontrad: int = 0
    kontra_given: int = 0
    kontra_won: int = 0


@dataclass(frozen=True)
class PlayerStats:
    """A player's statistics summed over every finished match (rated and casual)."""

    deals: int = 0
    declarer_deals: int = 0
    declarer_points: int = 0
    defender_deals: int = 0
    defender_points: int = 0
    parts: dict[str, PartCounts] = field(default_factory=dict)


@dataclass(frozen=True)
class MatchSeat:
    """One seat of a finished match as its end showed it."""

    seat: int
    player_id: str
    name: str
    is_bot: bool
    total: int
    rank: int
    left: bool


@dataclass(frozen=True)
class RecentMatch:
    """One of a player's last matches: their own result and the three seats."""

    table_id: str
    finished_at: int
    rated: bool
    seat: int
    total: int
    rank: int
    won: bool
    left: bool
    rating_before: int | None
    rating_after: int | None
    seats: list[MatchSeat]


@dataclass(frozen=True)
class PlayerProfile:
    """Everything a player's page shows, as stored (the rating as ``mu``: see the module's note)."""

    player_id: str
    name: str
    is_bot: bool
    mu: float | None  # None: never rated (a newcomer)
    rated_matches: int
    #: (finished_at, rating_after) of every rated match, oldest first
    history: list[tuple[int, int]]
    rated_played: int
    rated_won: int
    casual_played: int
    casual_won: int
    stats: PlayerStats
    recent: list[RecentMatch]


@dataclass(frozen=True)
class RatedPlayer:
    """A row of the leaderboard: ``rank`` is 1 + how many rated accounts have a higher ``mu``."""

    rank: int
    player_id: str
    name: str
    mu: float
    rated_matches: int
    is_bot: bool


#: where each stored count goes in a ``_Sums`` part row: (index, key) per section of ``match_players.stats``
_DECLARED = ((0, "played"), (1, "made"), (2, "kontrad"))
_KONTRA = ((3, "given"), (4, "won"))


class _Sums:
    """The statistics of many ``match_players.stats`` texts, added up in one pass."""

    SCALARS = ("deals", "declarer_deals", "declarer_points", "defender_deals", "defender_points")

    def __init__(self) -> None:
        self.scalars = dict.fromkeys(self.SCALARS, 0)
        self.parts: dict[str, list[int]] = {}

    def _part(self, part: str) -> list[int]:
        counts = self.parts.get(part)
        if counts is None:
            counts = self.parts[part] = [0, 0, 0, 0, 0]
        return counts

    def add(self, text: str) -> None:
        """Add one seat's statistics (JSON text); a malformed one, or a malformed field, adds nothing.

        The hot loop of a player's page (once per finished match): ``type(v) is int`` rather than a
        helper call per field, since booleans are ints to ``isinstance``.
        """
        try:
            data = orjson.loads(text)
        except orjson.JSONDecodeError:
            return
        if type(data) is not dict:
            return
        scalars = self.scalars
        for key in self.SCALARS:
            value = data.get(key)
            if type(value) is int:
                scalars[key] += value
        for section, fields in (("declared", _DECLARED), ("kontra", _KONTRA)):
            by_part = data.get(section)
            if type(by_part) is not dict:
                continue
            for part, counted in by_part.items():
                if type(counted) is not dict:
                    continue
                counts = self.parts.get(part) or self._part(part)
                for index, key in fields:
                    value = counted.get(key)
                    if type(value) is int:
                        counts[index] += value

    def result(self) -> PlayerStats:
        """The sums as a ``PlayerStats``."""
        return PlayerStats(
            **self.scalars, parts={part: PartCounts(*counts) for part, counts in self.parts.items()}
        )


class PlayerStore:
    """Player pages and the leaderboard over the store's engine (``EventStore`` has these methods)."""

    engine: AsyncEngine

    async def account_named(self, name_key: str) -> tuple[str, str, bool] | None:
        """``(player_id, name, is_bot)`` of the account whose name has ``name_key`` (NFKC casefold), or None.

        A bot's account is the one without a password (``ResultStore.ensure_bot_accounts``).
        """
        query = select(accounts.c.player_id, accounts.c.name, accounts.c.password_hash == "").where(
            accounts.c.name_key == name_key
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else (str(row[0]), str(row[1]), bool(row[2]))

    async def rating_of(self, player_id: str) -> tuple[float, int] | None:
        """``(mu, rated_matches)`` of ``player_id``, or None if the player was never rated."""
        query = select(ratings.c.mu, ratings.c.rated_matches).where(ratings.c.player_id == player_id)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else (float(row[0]), int(row[1]))

    async def player_profile(
        self, player_id: str, name: str, *, is_bot: bool = False, recent: int = RECENT_MATCHES
    ) -> PlayerProfile:
        """What the page of ``player_id`` (shown as ``name``) shows: rating, history, counts, stats, last matches.

        ``is_bot``: known to be a bot (its account); a player who sat in a bot's seat is one too.
        """
        own = (
            select(
                match_players.c.table_id,
                match_players.c.seat,
                match_players.c.finished_at,
                match_players.c.rated,
                match_players.c.won,
                match_players.c.rating_after,
                match_players.c.stats,
                match_players.c.is_bot,
                match_players.c.total,
                match_players.c.rank,
                match_players.c.left,
                match_players.c.rating_before,
            )
            .where(match_players.c.player_id == player_id, match_players.c.table_id.not_in(_running_event_tables()))
            .order_by(match_players.c.finished_at, match_players.c.table_id)
        )
        rating = select(ratings.c.mu, ratings.c.rated_matches).where(ratings.c.player_id == player_id)
        async with self.engine.connect() as conn:
            rating_row = (await conn.execute(rating)).first()
            rows = (await conn.execute(own)).all()
            last = rows[-recent:] if recent > 0 else []
            seat_rows = (
                (await conn.execute(_seats_of([r[0] for r in last]))).all() if last else []
            )
        sums = _Sums()
        history: list[tuple[int, int]] = []
        counts = [0, 0, 0, 0]  # rated played, rated won, casual played, casual won
        for _table_id, _seat, finished_at, rated, won, rating_after, stats, bot, *_rest in rows:
            base = 0 if rated else 2
            counts[base] += 1
            counts[base + 1] += 1 if won else 0
            if rated and rating_after is not None:
                history.append((int(finished_at), int(rating_after)))
            sums.add(stats)
            is_bot = is_bot or bool(bot)
        return PlayerProfile(
            player_id=player_id,
            name=name,
            is_bot=is_bot,
            mu=None if rating_row is None else float(rating_row[0]),
            rated_matches=0 if rating_row is None else int(rating_row[1]),
            history=history,
            rated_played=counts[0],
            rated_won=counts[1],
            casual_played=counts[2],
            casual_won=counts[3],
            stats=sums.result(),
            recent=_recent(last, seat_rows),
        )

    async def leaderboard(self, limit: int = LEADERBOARD_SIZE) -> list[RatedPlayer]:
        """The ``limit`` accounts with the highest ``mu`` among those with a rated match, best first."""
        query = (
            select(accounts.c.player_id, accounts.c.name, ratings.c.mu, ratings.c.rated_matches, _bot_flag())
            .join(ratings, ratings.c.player_id == accounts.c.player_id)
            .where(ratings.c.rated_matches > 0)
            .order_by(ratings.c.mu.desc(), accounts.c.name_key)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        board: list[RatedPlayer] = []
        for index, (player_id, name, mu, rated_matches, bot) in enumerate(rows):
            # competition ranks: equal mu shares the rank of the first of them
            rank = board[-1].rank if board and board[-1].mu == mu else index + 1
            board.append(RatedPlayer(rank, str(player_id), str(name), float(mu), int(rated_matches), bool(bot)))
        return board

    async def rank_of(self, player_id: str) -> int | None:
        """The leaderboard rank of ``player_id``: 1 + the rated accounts with a higher ``mu``; None if unrated."""
        mine = select(ratings.c.mu).where(and_(ratings.c.player_id == player_id, ratings.c.rated_matches > 0))
        async with self.engine.connect() as conn:
            mu = (await conn.execute(mine)).scalar_one_or_none()
            if mu is None:
                return None
            above = (
                select(func.count())
                .select_from(ratings.join(accounts, accounts.c.player_id == ratings.c.player_id))
                .where(and_(ratings.c.rated_matches > 0, ratings.c.mu > mu))
            )
            return 1 + int((await conn.execute(above)).scalar_one())


def _running_event_tables() -> Any:
    """The tables of duplicate events that are not over (a table of theirs has no result yet).

    A finished table's total and statistics would tell its players' results on deals that other
    tables of the event have not played yet (no peeking, docs/protocol/duplicate.md §23): they show on player
    pages once the whole event is over.
    """
    unfinished = (
        select(duplicate_event_tables.c.event_id)
        .where(~exists().where(match_results.c.table_id == duplicate_event_tables.c.table_id))
    )
    return select(duplicate_event_tables.c.table_id).where(duplicate_event_tables.c.event_id.in_(unfinished))


def _bot_flag() -> Any:
    """Whether an account is a bot's: it has no password (``ResultStore.ensure_bot_accounts``)."""
    return accounts.c.password_hash == ""


def _seats_of(table_ids: list[str]) -> Any:
    return select(
        match_players.c.table_id,
        match_players.c.seat,
        match_players.c.player_id,
        match_players.c.name,
        match_players.c.is_bot,
        match_players.c.total,
        match_players.c.rank,
        match_players.c.left,
    ).where(match_players.c.table_id.in_(table_ids))


def _recent(last: Sequence[Any], seat_rows: Sequence[Any]) -> list[RecentMatch]:
    """The last matches, newest first, each with its seats in seat order."""
    seats: dict[str, list[MatchSeat]] = {}
    for table_id, seat, pid, name, bot, total, rank, left in seat_rows:
        seats.setdefault(str(table_id), []).append(
            MatchSeat(int(seat), str(pid), str(name), bool(bot), int(total), int(rank), bool(left))
        )
    return [
        RecentMatch(
            table_id=str(table_id),
            finished_at=int(finished_at),
            rated=bool(rated),
            seat=int(seat),
            total=int(total),
            rank=int(rank),
            won=bool(won),
            left=bool(left),
            rating_before=None if before is None else int(before),
            rating_after=None if after is None else int(after),
            seats=sorted(seats.get(str(table_id), []), key=lambda s: s.seat),
        )
        for table_id, seat, finished_at, rated, won, after, _stats, _bot, total, rank, left, before in reversed(last)
    ]
