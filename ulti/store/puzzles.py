"""The store's part for puzzles: the set, each puzzle's and each player's puzzle rating, every attempt.

Tables (migration 0009):

- ``puzzles``: one ``ulti-puzzle/1`` object per row (``body``, opaque JSON: the store never reads the
  engine), with what the server selects on beside it: its themes (``",a,b,"`` so that one theme is a
  ``LIKE``), phase, rating (openskill's mu and sigma, and the shown number, indexed for "near my
  rating") and where it came from (``shipped``, ``played``: cut from a deal played here, ``mistake``:
  cut from a player's own analysed deal);
- ``puzzle_mistakes``: which puzzles are a player's own mistakes (the position of their deal where they
  played another card), offered to them under "from my own mistakes";
- ``puzzle_players``: each player's puzzle rating, keyed by player id: an account keeps its own, a
  guest's belongs to its guest session's player (and stays with it if the guest registers);
- ``puzzle_attempts``: every attempt: who, which puzzle, the cards played so far, its status (``open``
  while the player is between moves, ``solved`` or ``failed``), whether it was rated, the ratings
  before and after, when it started and ended;
- ``puzzle_sources``: the finished deals already cut (``table_id``, ``deal_index``, ``kind``): a deal is
  cut at most once per kind; a row of ``deal_index`` -1 marks a whole table as done (not read again).

A player's rows (rating, attempts, mistakes) go with the player's row (a deleted account): the foreign
keys cascade. The rating arithmetic is the caller's (``ulti.puzzles.ratings``); the store keeps numbers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from ulti.store.clock import now_ms
from ulti.store.inserts import insert_ignore
from ulti.store.models import metadata

puzzles = Table(
    "puzzles",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("body", Text, nullable=False),
    Column("themes", String(256), nullable=False),
    Column("phase", String(16), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("shown", Integer, nullable=False),
    Column("source", String(16), nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Index("ix_puzzles_shown", "shown"),
)

puzzle_mistakes = Table(
    "puzzle_mistakes",
    metadata,
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("puzzle_id", String(32), primary_key=True),
    Column("table_id", String(32), nullable=False),
    Column("deal_index", Integer, nullable=False),
    Column("created_at", BigInteger, nullable=False),
)

puzzle_players = Table(
    "puzzle_players",
    metadata,
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
)

puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("puzzle_id", String(32), nullable=False),
    Column("cards", Text, nullable=False),
    Column("moves", Integer, nullable=False),  # how many cards: a move is stored only onto the one before
    Column("status", String(16), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("rating_before", Integer, nullable=True),
    Column("rating_after", Integer, nullable=True),
    Column("puzzle_before", Integer, nullable=True),
    Column("puzzle_after", Integer, nullable=True),
    Column("started_at", BigInteger, nullable=False),
    Column("finished_at", BigInteger, nullable=True),
    Index("ix_puzzle_attempts_player", "player_id", "started_at"),
    Index("ix_puzzle_attempts_player_puzzle", "player_id", "puzzle_id"),
)

puzzle_sources = Table(
    "puzzle_sources",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("deal_index", Integer, primary_key=True),
    Column("kind", String(16), primary_key=True),
    Column("puzzles", Integer, nullable=False),
    Column("created_at", BigInteger, nullable=False),
)

#: The ``deal_index`` of a ``puzzle_sources`` row that marks a whole table as cut (none of its deals is left).
WHOLE_TABLE = -1
#: What a player or puzzle is rated at before any attempt (openskill's newcomer; ``ulti.puzzles.difficulty``).
NEW_MU = 25.0
NEW_SIGMA = 25.0 / 3.0


@dataclass(frozen=True)
class PuzzleRow:
    """A stored puzzle: its ``ulti-puzzle/1`` object and the columns the server selects on."""

    id: str
    body: str
    themes: str
    phase: str
    mu: float
    sigma: float
    shown: int
    source: str
    attempts: int
    solved: int

    def puzzle(self) -> dict[str, Any]:
        """The ``ulti-puzzle/1`` object with its current rating."""
        out: dict[str, Any] = json.loads(self.body)
        out["rating"] = {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3), "shown": self.shown}
        return out


@dataclass(frozen=True)
class PlayerRating:
    """A player's puzzle rating and counts."""

    mu: float = NEW_MU
    sigma: float = NEW_SIGMA
    attempts: int = 0
    solved: int = 0


@dataclass(frozen=True)
class RatingChange:
    """What ``PuzzleRater`` returns: the player's and the puzzle's new (mu, sigma), and the shown ratings
    (player before, player after, puzzle before, puzzle after)."""

    player: tuple[float, float]
    puzzle: tuple[float, float]
    shown: tuple[int, int, int, int]


#: turns the player's and the puzzle's (mu, sigma), read in the attempt's transaction, into the change
PuzzleRater = Callable[[tuple[float, float], tuple[float, float]], RatingChange]


@dataclass(frozen=True)
class RatedEnd:
    """An attempt ended: whether it was rated, and if so the shown ratings before and after (as in
    ``RatingChange.shown``)."""

    rated: bool
    shown: tuple[int, int, int, int] | None = None


@dataclass(frozen=True)
class AttemptRow:
    """One attempt as stored (``cards``: the player's cards so far, in order)."""

    id: int
    player_id: str
    puzzle_id: str
    cards: list[str]
    status: str
    rated: bool
    rating_before: int | None
    rating_after: int | None
    puzzle_before: int | None
    puzzle_after: int | None
    started_at: int
    finished_at: int | None

    def to_json(self) -> dict[str, Any]:
        """The attempt as the history route shows it."""
        return {
            "id": self.id,
            "puzzle": self.puzzle_id,
            "cards": self.cards,
            "status": self.status,
            "rated": self.rated,
            "rating_before": self.rating_before,
            "rating_after": self.rating_after,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
        }


_PUZZLE_COLUMNS = (
    puzzles.c.id, puzzles.c.body, puzzles.c.themes, puzzles.c.phase, puzzles.c.mu, puzzles.c.sigma,
    puzzles.c.shown, puzzles.c.source, puzzles.c.attempts, puzzles.c.solved,
)
_ATTEMPT_COLUMNS = (
    puzzle_attempts.c.id, puzzle_attempts.c.player_id, puzzle_attempts.c.puzzle_id, puzzle_attempts.c.cards,
    puzzle_attempts.c.status, puzzle_attempts.c.rated, puzzle_attempts.c.rating_before,
    puzzle_attempts.c.rating_after, puzzle_attempts.c.puzzle_before, puzzle_attempts.c.puzzle_after,
    puzzle_attempts.c.started_at, puzzle_attempts.c.finished_at,
)


def _puzzle(row: Any) -> PuzzleRow:
    return PuzzleRow(*row)


def _attempt(row: Any) -> AttemptRow:
    values = list(row)
    values[3] = json.loads(values[3])
    values[5] = bool(values[5])
    return AttemptRow(*values)


def _puzzle_row(puzzle: dict[str, Any], source: str, now: int) -> dict[str, Any]:
    rating = puzzle["rating"]
    body = {k: v for k, v in puzzle.items() if k != "rating"}
    return {
        "id": puzzle["id"],
        "body": json.dumps(body, separators=(",", ":")),
        "themes": "," + ",".join(puzzle["themes"]) + ",",
        "phase": puzzle["phase"],
        "mu": float(rating["mu"]),
        "sigma": float(rating["sigma"]),
        "shown": int(rating["shown"]),
        "source": source,
        "attempts": 0,
        "solved": 0,
        "created_at": now,
    }


class PuzzleStore:
    """Puzzles, puzzle ratings and attempts over a migrated engine (``EventStore.engine``)."""

    def __init__(self, engine: AsyncEngine) -> None:
        """The puzzle tables of ``engine``'s database (migration 0009 applied)."""
        self.engine = engine

    # ---------------------------------------------------------------- the set

    async def puzzle_count(self) -> int:
        """How many puzzles are stored."""
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(puzzles))).scalar_one())

    async def add_puzzles(self, items: list[dict[str, Any]], source: str, created_at: int | None = None) -> list[str]:
        """Store the ``ulti-puzzle/1`` objects not stored yet (by id); the ids added now. ``created_at``
        (epoch ms, now by default): the shipped set is dated 0, so that it is in every day's daily draw."""
        if not items:
            return []
        now = now_ms() if created_at is None else created_at
        ids = [p["id"] for p in items]
        added: list[str] = []
        async with self.engine.begin() as conn:
            known = {r[0] for r in await conn.execute(select(puzzles.c.id).where(puzzles.c.id.in_(ids)))}
            rows = []
            for p in items:
                if p["id"] in known:
                    continue
                known.add(p["id"])
                rows.append(_puzzle_row(p, source, now))
                added.append(p["id"])
            # another process cutting the same position this moment: its row stands, this one is skipped
            await insert_ignore(conn, puzzles, rows)
        return added

    async def puzzle(self, puzzle_id: str) -> PuzzleRow | None:
        """The stored puzzle ``puzzle_id``."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(*_PUZZLE_COLUMNS).where(puzzles.c.id == puzzle_id))).first()
        return None if row is None else _puzzle(row)

    async def near(
        self,
        shown: int,
        player_id: str,
        theme: str | None = None,
        phase: str | None = None,
        limit: int = 5,
    ) -> list[PuzzleRow]:
        """Up to ``limit`` puzzles closest to the rating ``shown`` that ``player_id`` has not tried, of
        ``theme`` and ``phase`` when given."""
        tried = select(puzzle_attempts.c.puzzle_id).where(puzzle_attempts.c.player_id == player_id)
        query = select(*_PUZZLE_COLUMNS).where(puzzles.c.id.not_in(tried))
        if theme is not None:
            query = query.where(puzzles.c.themes.like(f"%,{theme},%"))
        if phase is not None:
            query = query.where(puzzles.c.phase == phase)
        query = query.order_by(func.abs(puzzles.c.shown - shown), puzzles.c.id).limit(limit)
        async with self.engine.connect() as conn:
            return [_puzzle(r) for r in await conn.execute(query)]

    async def daily(self, before_ms: int, pick: int) -> PuzzleRow | None:
        """The puzzle number ``pick`` (modulo their count), by id, of the public puzzles stored before
        ``before_ms``: the same for everyone while the day's pick and cut-off are the same."""
        where = puzzles.c.created_at < before_ms
        async with self.engine.connect() as conn:
            count = int((await conn.execute(select(func.count()).select_from(puzzles).where(where))).scalar_one())
            if count == 0:
                return None
            query = select(*_PUZZLE_COLUMNS).where(where).order_by(puzzles.c.id).offset(pick % count).limit(1)
            row = (await conn.execute(query)).first()
        return None if row is None else _puzzle(row)

    async def add_mistakes(self, player_id: str, puzzle_ids: list[str], table_id: str, deal_index: int) -> int:
        """Offer the stored puzzles ``puzzle_ids`` to ``player_id`` as their own mistakes; how many were new."""
        now = now_ms()
        async with self.engine.begin() as conn:
            offered = select(puzzle_mistakes.c.puzzle_id).where(
                puzzle_mistakes.c.player_id == player_id, puzzle_mistakes.c.puzzle_id.in_(puzzle_ids)
            )
            known = {r[0] for r in await conn.execute(offered)}
            new = [i for i in dict.fromkeys(puzzle_ids) if i not in known]  # the same position reached twice: once
            await insert_ignore(conn, puzzle_mistakes, [
                {"player_id": player_id, "puzzle_id": i, "table_id": table_id, "deal_index": deal_index,
                 "created_at": now}
                for i in new
            ])
        return len(new)

    async def mistakes_of(self, player_id: str) -> list[PuzzleRow]:
        """The puzzles cut from ``player_id``'s own mistakes, newest first."""
        query = (
            select(*_PUZZLE_COLUMNS)
            .join(puzzle_mistakes, puzzle_mistakes.c.puzzle_id == puzzles.c.id)
            .where(puzzle_mistakes.c.player_id == player_id)
            .order_by(puzzle_mistakes.c.created_at.desc(), puzzles.c.id)
        )
        async with self.engine.connect() as conn:
            return [_puzzle(r) for r in await conn.execute(query)]

    async def mark_source(self, table_id: str, deal_index: int, kind: str, count: int = 0) -> bool:
        """Note that a finished deal was cut (``kind``: ``played`` or ``mistake``); False if it already was."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    insert(puzzle_sources).values(
                        table_id=table_id, deal_index=deal_index, kind=kind, puzzles=count, created_at=now_ms()
                    )
                )
        except IntegrityError:
            return False
        return True

    async def source_cut(self, table_id: str, deal_index: int, kind: str) -> bool:
        """Whether the deal was already cut for ``kind``."""
        query = select(puzzle_sources.c.table_id).where(
            puzzle_sources.c.table_id == table_id,
            puzzle_sources.c.deal_index == deal_index,
            puzzle_sources.c.kind == kind,
        )
        async with self.engine.connect() as conn:
            return (await conn.execute(query)).first() is not None

    async def tables_cut(self, kind: str) -> set[str]:
        """The tables marked as wholly cut for ``kind`` (their row of ``deal_index`` -1)."""
        query = select(puzzle_sources.c.table_id).where(
            puzzle_sources.c.deal_index == WHOLE_TABLE, puzzle_sources.c.kind == kind
        )
        async with self.engine.connect() as conn:
            return {r[0] for r in await conn.execute(query)}

    async def count_source(self, source: str) -> int:
        """How many puzzles came from ``source`` (``shipped``, ``played``, ``mistake``)."""
        query = select(func.count()).select_from(puzzles).where(puzzles.c.source == source)
        async with self.engine.connect() as conn:
            return int((await conn.execute(query)).scalar_one())

    # ---------------------------------------------------------------- players

    async def player_rating(self, player_id: str) -> PlayerRating:
        """``player_id``'s puzzle rating (a newcomer's if they never finished a rated attempt)."""
        query = select(
            puzzle_players.c.mu, puzzle_players.c.sigma, puzzle_players.c.attempts, puzzle_players.c.solved
        ).where(puzzle_players.c.player_id == player_id)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return PlayerRating() if row is None else PlayerRating(float(row[0]), float(row[1]), int(row[2]), int(row[3]))

    # ---------------------------------------------------------------- attempts

    async def open_attempt(self, player_id: str, puzzle_id: str) -> AttemptRow | None:
        """``player_id``'s attempt at ``puzzle_id`` that is between moves, if any."""
        query = select(*_ATTEMPT_COLUMNS).where(
            puzzle_attempts.c.player_id == player_id,
            puzzle_attempts.c.puzzle_id == puzzle_id,
            puzzle_attempts.c.status == "open",
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else _attempt(row)

    async def latest_status(self, player_id: str, puzzle_ids: list[str]) -> dict[str, str]:
        """The status (``solved``, ``failed``) of ``player_id``'s latest finished attempt at each of
        ``puzzle_ids`` they finished (a puzzle failed and then solved on a retry is solved)."""
        query = (
            select(puzzle_attempts.c.puzzle_id, puzzle_attempts.c.status)
            .where(puzzle_attempts.c.player_id == player_id, puzzle_attempts.c.puzzle_id.in_(puzzle_ids),
                   puzzle_attempts.c.status != "open")
            .order_by(puzzle_attempts.c.id.desc())
        )
        latest: dict[str, str] = {}
        async with self.engine.connect() as conn:
            for puzzle_id, status in await conn.execute(query):
                latest.setdefault(str(puzzle_id), str(status))
        return latest

    async def start_attempt(self, player_id: str, puzzle_id: str) -> AttemptRow:
        """A new open attempt (no card played yet)."""
        now = now_ms()
        async with self.engine.begin() as conn:
            result = await conn.execute(
                insert(puzzle_attempts).values(
                    player_id=player_id, puzzle_id=puzzle_id, cards="[]", moves=0, status="open", rated=False,
                    started_at=now,
                )
            )
            key: Any = result.inserted_primary_key
            attempt_id = int(key[0])
        return AttemptRow(attempt_id, player_id, puzzle_id, [], "open", False, None, None, None, None, now, None)

    async def continue_attempt(self, attempt_id: int, cards: list[str], previous: int) -> bool:
        """Store the cards of an open attempt that had ``previous`` cards; False if another request moved it."""
        query = (
            update(puzzle_attempts)
            .where(
                puzzle_attempts.c.id == attempt_id,
                puzzle_attempts.c.status == "open",
                puzzle_attempts.c.moves == previous,
            )
            .values(cards=json.dumps(cards), moves=len(cards))
        )
        async with self.engine.begin() as conn:
            return bool((await conn.execute(query)).rowcount)

    async def finish_attempt(
        self, attempt_id: int, cards: list[str], previous: int, solved: bool, rater: PuzzleRater
    ) -> RatedEnd | None:
        """End an open attempt that had ``previous`` cards, solved or failed; None if it was not open at that
        move (another request moved or ended it).

        In the same transaction: if it is the player's first finished attempt at the puzzle, the player's and
        the puzzle's ratings are read (locked, in that order), ``rater`` turns them into the new ones, and
        both are written, so that two attempts ending together (two players at the daily puzzle, two tabs
        of one player) each rate from what the other wrote. A later attempt is not rated.
        """
        now = now_ms()
        async with self.engine.begin() as conn:
            row = (await conn.execute(
                select(puzzle_attempts.c.player_id, puzzle_attempts.c.puzzle_id).where(
                    puzzle_attempts.c.id == attempt_id, puzzle_attempts.c.status == "open",
                    puzzle_attempts.c.moves == previous,
                )
            )).first()
            if row is None:
                return None
            player_id, puzzle_id = str(row[0]), str(row[1])
            earlier = select(puzzle_attempts.c.id).where(
                puzzle_attempts.c.player_id == player_id, puzzle_attempts.c.puzzle_id == puzzle_id,
                puzzle_attempts.c.status != "open",
            )
            rated = (await conn.execute(earlier.limit(1))).first() is None
            values: dict[str, Any] = {
                "cards": json.dumps(cards), "moves": len(cards), "status": "solved" if solved else "failed",
                "rated": rated, "finished_at": now,
            }
            ended = await conn.execute(
                update(puzzle_attempts)
                .where(puzzle_attempts.c.id == attempt_id, puzzle_attempts.c.status == "open",
                       puzzle_attempts.c.moves == previous)
                .values(**values)
            )
            if not ended.rowcount:
                return None
            if not rated:
                return RatedEnd(rated=False)
            await insert_ignore(conn, puzzle_players, [{
                "player_id": player_id, "mu": NEW_MU, "sigma": NEW_SIGMA, "attempts": 0, "solved": 0,
                "updated_at": now,
            }])
            mine = (await conn.execute(
                select(puzzle_players.c.mu, puzzle_players.c.sigma)
                .where(puzzle_players.c.player_id == player_id).with_for_update()
            )).one()
            theirs = (await conn.execute(
                select(puzzles.c.mu, puzzles.c.sigma).where(puzzles.c.id == puzzle_id).with_for_update()
            )).one()
            change = rater((float(mine[0]), float(mine[1])), (float(theirs[0]), float(theirs[1])))
            won = 1 if solved else 0
            await conn.execute(
                update(puzzle_players).where(puzzle_players.c.player_id == player_id).values(
                    mu=change.player[0], sigma=change.player[1], attempts=puzzle_players.c.attempts + 1,
                    solved=puzzle_players.c.solved + won, updated_at=now,
                )
            )
            await conn.execute(
                update(puzzles).where(puzzles.c.id == puzzle_id).values(
                    mu=change.puzzle[0], sigma=change.puzzle[1], shown=change.shown[3],
                    attempts=puzzles.c.attempts + 1, solved=puzzles.c.solved + won,
                )
            )
            await conn.execute(
                update(puzzle_attempts).where(puzzle_attempts.c.id == attempt_id).values(
                    rating_before=change.shown[0], rating_after=change.shown[1],
                    puzzle_before=change.shown[2], puzzle_after=change.shown[3],
                )
            )
        return RatedEnd(rated=True, shown=change.shown)

    async def attempts_of(self, player_id: str, limit: int = 50) -> list[AttemptRow]:
        """``player_id``'s latest attempts, newest first."""
        query = (
            select(*_ATTEMPT_COLUMNS)
            .where(puzzle_attempts.c.player_id == player_id)
            .order_by(puzzle_attempts.c.started_at.desc(), puzzle_attempts.c.id.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [_attempt(r) for r in await conn.execute(query)]
