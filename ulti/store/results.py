"""The store's part for finished matches: their results, each seat's line, and ratings.

A mixin of ``EventStore`` (one engine, one pool). The rating model is not known here: the caller
hands ``record_match`` a function that turns the seats' current skills into new ones, and the store
runs it inside the transaction that records the match, on rows it has locked. What the store
guarantees is that a match is recorded, and its ratings changed, exactly once: the primary key of
``match_results`` decides between two processes (or a restart) recording the same table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import BigInteger, Float, Integer, insert, literal, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ulti.store.clock import now_ms
from ulti.store.inserts import insert_ignore
from ulti.store.models import accounts, match_players, match_results, players, ratings
from ulti.store.players import MatchSeat


@dataclass(frozen=True)
class SkillRow:
    """A stored rating: the model's ``mu`` and ``sigma`` and how many rated matches are behind it."""

    mu: float
    sigma: float
    rated_matches: int


@dataclass(frozen=True)
class RatingChange:
    """One seat's rating after a match: the new skill, and the shown numbers before and after."""

    skill: SkillRow
    shown_before: int
    shown_after: int


#: the seats' skills now (None: no rating row, e.g. a player whose account is gone) -> their changes
Rater = Callable[[Sequence[SkillRow | None]], Sequence[RatingChange]]


@dataclass(frozen=True)
class SeatResult(MatchSeat):
    """One seat's line of a finished match to record (``match_players`` without what the store adds):
    the seat as match pages show it, and what only the recording needs."""

    won: bool
    stats: str  # JSON text




class ResultStore:
    """Match results and ratings over the store's engine (``EventStore`` has these methods)."""

    engine: AsyncEngine

    async def ensure_bot_accounts(self, bots: Sequence[tuple[str, str, str, str]]) -> None:
        """Make sure each bot ``(player_id, name, name_key, name_skeleton)`` has a player and an account.

        A bot account has no password (an empty hash matches nothing): nobody can log in as a bot.
        Several processes may do this at once: the first insert wins and the others change nothing.
        """
        if not bots:
            return
        now = now_ms()
        async with self.engine.begin() as conn:
            await insert_ignore(conn, players, [{"id": p, "name": n, "created_at": now} for p, n, _, _ in bots])
            await insert_ignore(
                conn,
                accounts,
                [
                    {"player_id": p, "name": n, "name_key": k, "name_skeleton": s, "password_hash": "",
                     "created_at": now, "password_changed_at": now}
                    for p, n, k, s in bots
                ],
            )

    async def ensure_ratings(self, player_ids: Sequence[str], newcomer: tuple[float, float]) -> None:
        """Give each of ``player_ids`` that is a stored player a rating row (a newcomer's) if it has none."""
        if not player_ids:
            return
        # One statement (INSERT … SELECT): no read-then-write window for another writer to slip into.
        source = select(
            players.c.id,
            literal(newcomer[0], Float),
            literal(newcomer[1], Float),
            literal(0, Integer),
            literal(now_ms(), BigInteger),
        ).where(players.c.id.in_(list(player_ids)))
        columns = ["player_id", "mu", "sigma", "rated_matches", "updated_at"]
        async with self.engine.begin() as conn:
            make = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
            await conn.execute(make(ratings).from_select(columns, source).on_conflict_do_nothing())

    async def skill_of(self, player_id: str) -> SkillRow | None:
        """The stored rating of ``player_id``, or None (never rated)."""
        query = select(ratings.c.mu, ratings.c.sigma, ratings.c.rated_matches).where(ratings.c.player_id == player_id)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else SkillRow(float(row[0]), float(row[1]), int(row[2]))

    async def match_recorded(self, table_id: str) -> bool:
        """Whether the match of ``table_id`` has its result stored."""
        query = select(match_results.c.table_id).where(match_results.c.table_id == table_id)
        async with self.engine.connect() as conn:
            return (await conn.execute(query)).first() is not None

    async def record_match(
        self,
        table_id: str,
        deals_played: int,
        seats: Sequence[SeatResult],
        rater: Rater | None,
        finished_at: int | None = None,
    ) -> bool:
        """Store the result of the finished match of ``table_id`` once; whether this call stored it.

        With ``rater`` (a rated match) the seats' ratings change in the same transaction: their rows
        (made beforehand by ``ensure_ratings``) are locked in player-id order (``SELECT … FOR
        UPDATE`` on PostgreSQL, so that two matches sharing a player cannot both read the old rating
        and one update be lost; SQLite's single writer serialises them anyway), ``rater`` turns the
        skills into new ones, and both are written with the result. If the result is already stored
        (another process, or this one before a restart), nothing at all changes and False is returned.
        """
        finished = finished_at if finished_at is not None else now_ms()
        rated = rater is not None
        try:
            async with self.engine.begin() as conn:
                # First, so that a second recorder stops here (on PostgreSQL it waits for the first to commit).
                await conn.execute(
                    insert(match_results).values(
                        table_id=table_id, finished_at=finished, rated=rated, deals_played=deals_played
                    )
                )
                changes: Sequence[RatingChange | None] = [None] * len(seats)
                if rater is not None:
                    changes = await self._rate(conn, seats, rater, finished)
                await conn.execute(
                    insert(match_players),
                    [
                        {
                            "table_id": table_id,
                            "seat": s.seat,
                            "player_id": s.player_id,
                            "name": s.name,
                            "is_bot": s.is_bot,
                            "total": s.total,
                            "rank": s.rank,
                            "left": s.left,
                            "won": s.won,
                            "finished_at": finished,
                            "rated": rated,
                            "rating_before": None if change is None else change.shown_before,
                            "rating_after": None if change is None else change.shown_after,
                            "stats": s.stats,
                        }
                        for s, change in zip(seats, changes, strict=True)
                    ],
                )
        except IntegrityError:
            if await self.match_recorded(table_id):
                return False  # recorded before: by another process, or before a restart
            raise
        return True

    async def _rate(
        self, conn: AsyncConnection, seats: Sequence[SeatResult], rater: Rater, now: int
    ) -> Sequence[RatingChange]:
        ids = sorted({s.player_id for s in seats})
        query = (
            select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.rated_matches)
            .where(ratings.c.player_id.in_(ids))
            .order_by(ratings.c.player_id)
            .with_for_update()
        )
        current = {r[0]: SkillRow(float(r[1]), float(r[2]), int(r[3])) for r in await conn.execute(query)}
        changes = rater([current.get(s.player_id) for s in seats])
        for seat, change in zip(seats, changes, strict=True):
            if seat.player_id in current:  # a player without a row (gone meanwhile) keeps nothing
                await conn.execute(
                    update(ratings)
                    .where(ratings.c.player_id == seat.player_id)
                    .values(
                        mu=change.skill.mu,
                        sigma=change.skill.sigma,
                        rated_matches=change.skill.rated_matches,
                        updated_at=now,
                    )
                )
        return changes

    async def erase_match_names(self, player_id: str, name: str) -> None:
        """Show ``name`` instead of the name ``player_id`` had in its finished matches (account erasure)."""
        async with self.engine.begin() as conn:
            await conn.execute(update(match_players).where(match_players.c.player_id == player_id).values(name=name))
