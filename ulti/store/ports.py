"""The store's narrow faces: one small protocol per consumer, and the values they carry.

Every consumer of storage depends on the protocol it uses, never on the store's implementation
(``EventStore`` and its parts, and ``PuzzleStore``, which only the composition root builds: the
lifespan of ``ulti.server.app``; an import-linter contract in pyproject holds this). The type checker
then proves a consumer calls nothing else, and a test can hand it another implementation (the
in-memory table log of ``tests/support/memory_log.py``). The protocols live here rather than beside
each consumer because their consumers sit in packages that may not import one another
(``ulti.server``, ``ulti.accounts``), and because the hub holds one ``ServerStore`` made of them all.
The API tokens' face, older, sits beside its one consumer (``ulti.accounts.apitokens.ApiTokenStoreLike``).

The value types (rows, results, conflicts) are defined next to the queries that build them and are
named here again, so that a consumer imports them from this module.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ulti.store.accounts import AlreadyAccount, NameTaken, StoredAccount
from ulti.store.analyses import AnalysisRow
from ulti.store.apitokens import TokenInfo, TokenOwner
from ulti.store.duplicates import TOURNAMENT_ROUND_PREFIX, DuplicateRow, ParJob
from ulti.store.players import (
    LEADERBOARD_SIZE,
    RECENT_MATCHES,
    PartCounts,
    PlayerProfile,
    PlayerStats,
    RatedPlayer,
    RecentMatch,
)
from ulti.store.puzzles import WHOLE_TABLE, AttemptRow, PlayerRating, PuzzleRater, PuzzleRow, RatedEnd
from ulti.store.puzzles import RatingChange as PuzzleRatingChange
from ulti.store.results import Rater, RatingChange, SeatResult, SkillRow
from ulti.store.tournaments import LoggedEvent, TournamentConflict, TournamentRow

__all__ = [
    "TOURNAMENT_ROUND_PREFIX",
    "WHOLE_TABLE",
    "AccountBook",
    "ActorStore",
    "AlreadyAccount",
    "AnalysisQueue",
    "AnalysisRow",
    "AttemptRow",
    "BotAccounts",
    "DuplicateBook",
    "DuplicateRow",
    "DuplicateRows",
    "Erasure",
    "HubStore",
    "LoggedEvent",
    "MatchResults",
    "NameTaken",
    "ParJob",
    "ParQueue",
    "PartCounts",
    "PlayerBook",
    "PlayerProfile",
    "PlayerRating",
    "PlayerReads",
    "PlayerStats",
    "PuzzleBook",
    "PuzzleRater",
    "PuzzleRatingChange",
    "PuzzleRow",
    "PuzzleSources",
    "RatedEnd",
    "RatedPlayer",
    "Rater",
    "RatingChange",
    "RecentMatch",
    "SeatResult",
    "SeqConflict",
    "ServerStore",
    "SettingBook",
    "SkillRow",
    "StoredAccount",
    "TableIndex",
    "TableLog",
    "TokenInfo",
    "TokenOwner",
    "TournamentBook",
    "TournamentConflict",
    "TournamentRow",
]


class SeqConflict(Exception):
    """An event with this (table, seq) is already stored: someone else appended it first."""


@runtime_checkable
class TableLog(Protocol):
    """A table's event log, as its actor uses it: append the next event, read the log, note the table's
    status and lobby summary. The actor's whole use of storage besides ``MatchResults``.
    """

    async def append(self, table_id: str, seq: int, body: Mapping[str, Any]) -> None:
        """Store event ``seq`` of ``table_id``; raise ``SeqConflict`` if that number is taken."""
        ...

    async def events(self, table_id: str, after: int = 0) -> list[dict[str, Any]]:
        """The events of ``table_id`` with seq > ``after``, in order."""
        ...

    async def save_table(self, table_id: str, status: str, summary: dict[str, Any]) -> None:
        """Create or update a table's lobby summary and status."""
        ...


@runtime_checkable
class MatchResults(Protocol):
    """Recording a finished match once (``ulti.server.results``): the bots' accounts, the rating rows,
    the time of the final event and the result with its rating changes.
    """

    async def ensure_bot_accounts(self, bots: Sequence[tuple[str, str, str, str]]) -> None:
        """Make sure each bot ``(player_id, name, name_key, name_skeleton)`` has a player and an account."""
        ...

    async def ensure_ratings(self, player_ids: Sequence[str], newcomer: tuple[float, float]) -> None:
        """Give each of ``player_ids`` that is a stored player a rating row (a newcomer's) if it has none."""
        ...

    async def match_recorded(self, table_id: str) -> bool:
        """Whether the match of ``table_id`` has its result stored."""
        ...

    async def record_match(
        self,
        table_id: str,
        deals_played: int,
        seats: Sequence[SeatResult],
        rater: Rater | None,
        finished_at: int | None = None,
    ) -> bool:
        """Store the result of the finished match of ``table_id`` once; whether this call stored it."""
        ...

    async def last_event_at(self, table_id: str) -> float | None:
        """When the latest event of ``table_id`` was stored (epoch seconds), None if it has none."""
        ...


@runtime_checkable
class TableIndex(Protocol):
    """The tables as a list: which are stored and in what status, their lobby summaries, who sat where."""

    async def table_ids(self, statuses: Sequence[str] | None = None) -> list[str]:
        """Ids of the stored tables (optionally only those with one of ``statuses``), oldest first."""
        ...

    async def table_summaries(self, statuses: Sequence[str]) -> list[dict[str, Any]]:
        """The lobby summaries of the tables with one of ``statuses``, newest first."""
        ...

    async def table_summaries_of(self, table_ids: Collection[str], statuses: Sequence[str]) -> list[dict[str, Any]]:
        """The lobby summaries of those of ``table_ids`` that have one of ``statuses``, newest first."""
        ...

    async def add_table_player(self, table_id: str, player_id: str, seat: int) -> None:
        """Remember that ``player_id`` sat at ``seat`` of ``table_id`` (for the past-matches list)."""
        ...

    async def tables_of_player(self, player_id: str) -> list[dict[str, Any]]:
        """The tables ``player_id`` sat at, newest first, with their summaries."""
        ...


@runtime_checkable
class PlayerBook(Protocol):
    """Guest players: registering one and reading a name."""

    async def add_player(self, player_id: str, name: str) -> None:
        """Register a guest player."""
        ...

    async def player_name(self, player_id: str) -> str | None:
        """A player's name, or None if unknown."""
        ...


@runtime_checkable
class SettingBook(Protocol):
    """Settings kept in the store (the session secret is written once by whichever process starts first)."""

    async def get_setting(self, key: str) -> str | None:
        """A stored setting (e.g. the session secret)."""
        ...

    async def set_setting_once(self, key: str, value: str) -> str:
        """Store ``value`` under ``key`` unless one is there; return the stored value."""
        ...


@runtime_checkable
class AccountBook(Protocol):
    """Accounts and sessions (``ulti.accounts.service``)."""

    async def create_account(
        self, player_id: str, name: str, name_key: str, password_hash: str, *, new_player: bool, skeleton: str
    ) -> None:
        """Store an account for ``player_id`` (a new player, or an existing guest who keeps their id)."""
        ...

    async def account_by_key(self, name_key: str) -> StoredAccount | None:
        """The account whose name has ``name_key``, or None."""
        ...

    async def account_by_skeleton(self, skeleton: str) -> StoredAccount | None:
        """The account whose name reads as one with this ``skeleton`` (``names.name_skeleton``), or None."""
        ...

    async def account_of(self, player_id: str) -> StoredAccount | None:
        """The account of ``player_id``, or None (a guest or an unknown player)."""
        ...

    async def set_password_hash(self, player_id: str, password_hash: str, *, end_sessions: bool) -> list[str]:
        """Replace the password hash; with ``end_sessions``, every session and API token of the account ends."""
        ...

    async def add_session(self, key: str, player_id: str, expires_at_ms: int) -> None:
        """Store a session of ``player_id`` under ``key`` (the hash of its token)."""
        ...

    async def session_player(self, key: str) -> tuple[str, str] | None:
        """``(player_id, name)`` of the live session stored under ``key``, or None (unknown, ended, expired)."""
        ...

    async def end_session(self, key: str) -> bool:
        """End the session stored under ``key``; whether there was one."""
        ...

    async def end_sessions_of(self, player_id: str) -> int:
        """End every session of ``player_id``; how many there were."""
        ...

    async def prune_sessions(self) -> int:
        """Forget the expired sessions (they are refused anyway); how many went."""
        ...

    async def delete_account(self, player_id: str) -> bool:
        """Delete the account of ``player_id``, its sessions and its player (its tables' rows stay)."""
        ...

    async def player_identity(self, player_id: str) -> tuple[str, bool] | None:
        """``(name, has_account)`` of a player, or None if there is no such player."""
        ...


@runtime_checkable
class Erasure(Protocol):
    """What erasing an account rewrites besides the account itself (``ulti.server.account_erasure``)."""

    async def replace_events(self, table_id: str, bodies: Mapping[int, Mapping[str, Any]]) -> None:
        """Overwrite stored events of ``table_id`` by number, in one transaction."""
        ...

    async def erase_match_names(self, player_id: str, name: str) -> None:
        """Show ``name`` instead of the name ``player_id`` had in its finished matches (account erasure)."""
        ...


@runtime_checkable
class BotAccounts(Protocol):
    """Bot accounts as the bot API and the hub see them: who is a bot, who owns it, who may seat it."""

    async def api_token_exists(self, token_id: str) -> bool:
        """Whether token ``token_id`` is still stored (an open stream checks it now and then)."""
        ...

    async def is_bot_account(self, player_id: str) -> bool:
        """Whether ``player_id`` is a bot account (it plays through the bot API only)."""
        ...

    async def has_sat_at_a_table(self, player_id: str) -> bool:
        """Whether ``player_id`` ever took a seat (an account that has played cannot become a bot)."""
        ...

    async def set_bot_owner(self, bot_id: str, owner_id: str) -> None:
        """``owner_id`` owns the bot account ``bot_id`` from now on (it proved it holds one of its tokens)."""
        ...

    async def set_bot_challenges(self, bot_id: str, accept: bool) -> None:
        """Whether the bot account ``bot_id`` offers itself to every host."""
        ...

    async def bots_for_host(self, host_id: str) -> list[tuple[str, str, bool]]:
        """``(player_id, name, mine)`` of the bots ``host_id`` owns or that accept challenges, its own first."""
        ...

    async def make_bot_account(self, player_id: str) -> None:
        """Mark the account of ``player_id`` as a bot account (again: nothing changes)."""
        ...


@runtime_checkable
class AnalysisQueue(Protocol):
    """The queue and results of deal analyses (``ulti.server.analysis``)."""

    async def queue_analysis(self, table_id: str, deal_index: int, record: str, worlds: int, total: int) -> bool:
        """Queue the analysis of a deal unless it is already there (queued, running or done); True if queued now."""
        ...

    async def analysis(self, table_id: str, deal_index: int) -> AnalysisRow | None:
        """The job or result of a deal's analysis, if one was ever queued."""
        ...

    async def analyses_of(self, table_id: str) -> list[AnalysisRow]:
        """Every analysis job of a table's deals (queued, running, done or failed), in deal order."""
        ...

    async def analysis_statuses(self, table_id: str) -> dict[int, str]:
        """The status of every analysis job of a table's deals, by deal index (no records or results read)."""
        ...

    async def analysis_results(self, table_id: str, indices: list[int]) -> list[dict[str, Any]]:
        """The stored analyses of the table's deals ``indices`` that are done, in deal order."""
        ...

    async def pending_analyses(self, stale_seconds: float) -> list[AnalysisRow]:
        """Jobs to run, oldest first: queued ones, and running ones silent for ``stale_seconds`` (worker gone)."""
        ...

    async def claim_analysis(self, table_id: str, deal_index: int, stale_seconds: float) -> bool:
        """Take a pending job for this worker; False if another worker holds it or it is done."""
        ...

    async def analysis_progress(self, table_id: str, deal_index: int, done: int) -> None:
        """Record how many decisions a running job has priced (and that its worker is alive)."""
        ...

    async def requeue_failed_analysis(self, table_id: str, deal_index: int, reason_prefix: str) -> bool:
        """Queue a failed job again if its stored reason starts with ``reason_prefix``; True if queued now."""
        ...

    async def finish_analysis(self, table_id: str, deal_index: int, status: str, result: str) -> None:
        """Store a job's outcome: ``done`` with the analysis JSON, or ``failed`` with a message."""
        ...


@runtime_checkable
class DuplicateRows(Protocol):
    """Reading one duplicate's row: the visibility policy's whole use of duplicates (who may see its tables)."""

    async def duplicate(self, duplicate_id: str) -> DuplicateRow | None:
        """The duplicate ``duplicate_id`` with its tables, or None."""
        ...


@runtime_checkable
class DuplicateBook(DuplicateRows, Protocol):
    """Duplicates and their tables (``ulti.server.duplicate_routes``, the tournament director)."""

    async def add_duplicate(self, row: DuplicateRow) -> None:
        """Store a new duplicate and its tables in one transaction."""
        ...

    async def mark_duplicate_started(self, duplicate_id: str) -> None:
        """Note that the host started the duplicate (its tables' logs say so too; this is for listing)."""
        ...

    async def duplicates_of_player(self, player_id: str) -> list[str]:
        """The ids of the duplicates at whose tables ``player_id`` sat (from the tables' seat list)."""
        ...

    async def recent_duplicates(self, limit: int = 20) -> list[DuplicateRow]:
        """The newest duplicates, newest first (the lobby lists them)."""
        ...


@runtime_checkable
class ParQueue(Protocol):
    """The queue of par replays of duplicate deals (``ulti.server.duplicate``)."""

    async def queue_par(self, table_id: str, deal_index: int, spec: str) -> bool:
        """Queue a par replay unless it is already there; True if queued now."""
        ...

    async def par_job_status(self, table_id: str, deal_index: int) -> str | None:
        """A par job's status (queued, running, done), or None if it was never queued."""
        ...

    async def pending_par_jobs(self, stale_seconds: float) -> list[ParJob]:
        """Jobs to run, oldest first: queued ones, and running ones silent for ``stale_seconds`` (worker gone)."""
        ...

    async def claim_par_job(self, table_id: str, deal_index: int, stale_seconds: float) -> bool:
        """Take a pending job for this worker; False if another worker holds it or it is done."""
        ...

    async def touch_par_job(self, table_id: str, deal_index: int) -> None:
        """A running job's worker is alive (called after each decision)."""
        ...

    async def finish_par_job(self, table_id: str, deal_index: int) -> None:
        """The par replay is in the table's log: the job is done."""
        ...

    async def par_jobs_of(self, table_ids: Sequence[str]) -> dict[tuple[str, int], str]:
        """The status of every par job of ``table_ids``."""
        ...


@runtime_checkable
class TournamentBook(Protocol):
    """Tournaments: their rows and the director's log (``ulti.server.tournaments``, its routes)."""

    async def add_tournament(self, row: TournamentRow, created: Mapping[str, Any]) -> None:
        """Store a new tournament: its row and event 0 of its log (``created``), in one transaction."""
        ...

    async def tournament(self, tournament_id: str) -> TournamentRow | None:
        """The row of ``tournament_id``, or None."""
        ...

    async def tournaments(self, statuses: Sequence[str] | None = None, limit: int = 50) -> list[TournamentRow]:
        """Tournaments, newest first (only those with one of ``statuses`` when given)."""
        ...

    async def append_tournament_event(self, tournament_id: str, seq: int, body: Mapping[str, Any],
                                      at: int | None = None) -> int:
        """Store event ``seq`` of the log at time ``at`` (ms; now when None); ``TournamentConflict`` if that
        number is taken; the time stored."""
        ...

    async def tournament_log(self, tournament_id: str, after: int = -1) -> list[LoggedEvent]:
        """The tournament's events numbered above ``after`` (all of them by default), in order."""
        ...

    async def set_tournament_status(self, tournament_id: str, status: str) -> None:
        """Copy the status the log reached onto the row (for listing)."""
        ...

    async def table_statuses(self, table_ids: Sequence[str]) -> dict[str, str]:
        """The stored status of each of ``table_ids`` that exists (open, playing, finished, expired)."""
        ...


@runtime_checkable
class RatingRead(Protocol):
    """A player's rating as stored: what choosing a bot level by rating reads (``ulti.server.bot_choice``)."""

    async def rating_of(self, player_id: str) -> tuple[float, int] | None:
        """``(mu, rated_matches)`` of ``player_id``, or None if the player was never rated."""
        ...


@runtime_checkable
class PlayerReads(RatingRead, Protocol):
    """What player pages, the leaderboard and seeding read about players and their ratings."""

    async def account_named(self, name_key: str) -> tuple[str, str, bool] | None:
        """``(player_id, name, is_bot)`` of the account whose name has ``name_key`` (NFKC casefold), or None."""
        ...

    async def player_profile(
        self, player_id: str, name: str, *, is_bot: bool = False, recent: int = RECENT_MATCHES
    ) -> PlayerProfile:
        """What the page of ``player_id`` (shown as ``name``) shows: rating, history, counts, stats, last matches."""
        ...

    async def leaderboard(self, limit: int = LEADERBOARD_SIZE) -> list[RatedPlayer]:
        """The ``limit`` accounts with the highest ``mu`` among those with a rated match, best first."""
        ...

    async def rank_of(self, player_id: str) -> int | None:
        """The leaderboard rank of ``player_id``: 1 + the rated accounts with a higher ``mu``; None if unrated."""
        ...

    async def skill_of(self, player_id: str) -> SkillRow | None:
        """The stored rating of ``player_id``, or None (never rated)."""
        ...



@runtime_checkable
class PuzzleSources(Protocol):
    """Growing the puzzle set: the shipped puzzles, the ones cut from played deals and mistakes."""

    async def puzzle_count(self) -> int:
        """How many puzzles are stored."""
        ...

    async def add_puzzles(self, items: list[dict[str, Any]], source: str, created_at: int | None = None) -> list[str]:
        """Store the ``ulti-puzzle/1`` objects not stored yet (by id); the ids added now."""
        ...

    async def add_mistakes(self, player_id: str, puzzle_ids: list[str], table_id: str, deal_index: int) -> int:
        """Offer the stored puzzles ``puzzle_ids`` to ``player_id`` as their own mistakes; how many were new."""
        ...

    async def mark_source(self, table_id: str, deal_index: int, kind: str, count: int = 0) -> bool:
        """Note that a finished deal was cut (``kind``: ``played`` or ``mistake``); False if it already was."""
        ...

    async def source_cut(self, table_id: str, deal_index: int, kind: str) -> bool:
        """Whether the deal was already cut for ``kind``."""
        ...

    async def tables_cut(self, kind: str) -> set[str]:
        """The tables marked as wholly cut for ``kind`` (their row of ``deal_index`` -1)."""
        ...

    async def count_source(self, source: str) -> int:
        """How many puzzles came from ``source`` (``shipped``, ``played``, ``mistake``)."""
        ...


@runtime_checkable
class PuzzleBook(Protocol):
    """Puzzles as the player meets them: picking one, attempts, the puzzle rating."""

    async def puzzle(self, puzzle_id: str) -> PuzzleRow | None:
        """The stored puzzle ``puzzle_id``."""
        ...

    async def near(
        self,
        shown: int,
        player_id: str,
        theme: str | None = None,
        phase: str | None = None,
        limit: int = 5,
    ) -> list[PuzzleRow]:
        """Up to ``limit`` untried puzzles closest to the rating ``shown``, of ``theme`` and ``phase`` if given."""
        ...

    async def daily(self, before_ms: int, pick: int) -> PuzzleRow | None:
        """The puzzle number ``pick`` (modulo their count), by id, of the public ones stored before ``before_ms``."""
        ...

    async def mistakes_of(self, player_id: str) -> list[PuzzleRow]:
        """The puzzles cut from ``player_id``'s own mistakes, newest first."""
        ...

    async def player_rating(self, player_id: str) -> PlayerRating:
        """``player_id``'s puzzle rating (a newcomer's if they never finished a rated attempt)."""
        ...

    async def open_attempt(self, player_id: str, puzzle_id: str) -> AttemptRow | None:
        """``player_id``'s attempt at ``puzzle_id`` that is between moves, if any."""
        ...

    async def latest_status(self, player_id: str, puzzle_ids: list[str]) -> dict[str, str]:
        """The status (``solved``, ``failed``) of ``player_id``'s latest finished attempt at each of ``puzzle_ids``."""
        ...

    async def start_attempt(self, player_id: str, puzzle_id: str) -> AttemptRow:
        """A new open attempt (no card played yet)."""
        ...

    async def continue_attempt(self, attempt_id: int, cards: list[str], previous: int) -> bool:
        """Store the cards of an open attempt that had ``previous`` cards; False if another request moved it."""
        ...

    async def finish_attempt(
        self, attempt_id: int, cards: list[str], previous: int, solved: bool, rater: PuzzleRater
    ) -> RatedEnd | None:
        """End an open attempt that had ``previous`` cards, solved or failed; None if it was not open at that move."""
        ...

    async def attempts_of(self, player_id: str, limit: int = 50) -> list[AttemptRow]:
        """``player_id``'s latest attempts, newest first."""
        ...


@runtime_checkable
class ActorStore(TableLog, MatchResults, Protocol):
    """What a table's actor uses: its log, and recording its match when the match ends."""


@runtime_checkable
class HubStore(ActorStore, TableIndex, DuplicateRows, RatingRead, Protocol):
    """What the hub uses: its actors' logs and results, the tables' index (lobby, ownership, seats taken),
    a duplicate's row (the visibility policy it asks), whether a player is a bot account, a player's rating
    (the level of the bots chosen for them), and the commit timer its metrics set.

    Everything else a route or a service needs it takes from the app's store through its own face.
    """

    #: told (seconds, events) after each group commit (the server's metrics set it)
    on_commit: Callable[[float, int], None] | None

    async def is_bot_account(self, player_id: str) -> bool:
        """Whether ``player_id`` is a bot account (it plays through the bot API only)."""
        ...


@runtime_checkable
class ServerStore(
    HubStore,
    PlayerBook,
    SettingBook,
    AccountBook,
    Erasure,
    BotAccounts,
    AnalysisQueue,
    DuplicateBook,
    ParQueue,
    TournamentBook,
    PlayerReads,
    Protocol,
):
    """Every face at once: what the composition root opens and hands, each narrowed to its own face, to
    the hub (``HubStore``), the services and the routes (``app.state.store``, read by each router as
    its face).
    """

    async def close(self) -> None:
        """Release the connections."""
        ...
