"""HTTP routes of puzzles (docs/protocol/puzzles.md): next near my rating, the daily one, one by id, a move
judged, my history, my own mistakes.

A puzzle leaves here as its player's seat view only (``ulti.puzzles.attempt.view``: never another
hand) until the attempt is solved or failed; then the whole deal (``reveal``), every move's exact values
and the solver's line are shown. The server judges each card: the client never holds the answer.

Every request needs a session (a guest's will do): the attempt and the puzzle rating are the session's
player's. The first finished attempt of a player at a puzzle is rated (``ulti.puzzles.ratings``: the
player's and the puzzle's ratings both move); a retry is not.

Puzzles show no table: they are positions of finished deals of ordinary tables (never of a running
event's), so every route is ``shows_no_table``.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import random

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from ulti.engine.errors import IllegalAction, RecordError
from ulti.puzzles.attempt import Outcome, judge_card, reveal, view
from ulti.puzzles.ratings import Rating, attempt
from ulti.puzzles.themes import PHASES, THEMES
from ulti.server import sessions
from ulti.server.errors import CommandError
from ulti.server.inputs import check_id
from ulti.server.puzzleshapes import (
    History,
    Judged,
    Mistakes,
    MoveEnded,
    MoveOpen,
    PuzzlePlayer,
    PuzzleState,
    PuzzleSummary,
    RatingChange,
    Themes,
)
from ulti.server.visibility import shows_no_table
from ulti.store.ports import PlayerRating, PuzzleBook, PuzzleRater, PuzzleRatingChange, PuzzleRow, RatedEnd

router = APIRouter()

SHOWS = "a puzzle: a position of a finished deal of an ordinary table, from its player's seat only until solved"
#: how many of the closest unseen puzzles ``next`` draws from (two players of one rating differ)
PICK_AMONG = 5


class MoveBody(BaseModel):
    """``POST /api/puzzles/{id}/move``: the card, and optionally the move it answers (from 0)."""

    model_config = ConfigDict(extra="forbid")

    card: str = Field(min_length=2, max_length=2, description="a card code such as 'AS' or '7H'")
    move: int | None = Field(default=None, ge=0, le=20, description="the move this card answers (from 0)")


def puzzles_of(request: Request) -> PuzzleBook:
    """The app's puzzle store (``puzzle_growth.Puzzles``, made at start)."""
    store: PuzzleBook = request.app.state.puzzles.store
    return store


async def _puzzle_row(request: Request, puzzle_id: str) -> PuzzleRow:
    check_id(puzzle_id, "puzzle id")
    row = await puzzles_of(request).puzzle(puzzle_id)
    if row is None:
        raise CommandError("not_found", f"no puzzle {puzzle_id!r}")
    return row


def _player_json(rating: PlayerRating) -> PuzzlePlayer:
    return {
        "rating": Rating(rating.mu, rating.sigma).shown,
        "attempts": rating.attempts,
        "solved": rating.solved,
    }


def _summary(row: PuzzleRow) -> PuzzleSummary:
    """A puzzle as a list shows it: no position, no answer."""
    return {
        "id": row.id, "themes": [t for t in row.themes.split(",") if t], "phase": row.phase, "rating": row.shown,
        "source": row.source, "attempts": row.attempts, "solved": row.solved,
    }


async def _state(request: Request, row: PuzzleRow, player_id: str, daily: str | None = None) -> PuzzleState:
    """The puzzle as its solver sees it now: the view before their next move of the open attempt (or a new one);
    ``daily``: the daily puzzle's date, said last."""
    store = puzzles_of(request)
    puzzle = row.puzzle()
    open_attempt = await store.open_attempt(player_id, row.id)
    cards = open_attempt.cards if open_attempt is not None else []
    state: PuzzleState = {
        "puzzle": {**_summary(row), "seat": puzzle["seat"], "moves": len(puzzle["moves"])},
        "attempt": {"status": "open" if open_attempt is not None else "new", "move": len(cards), "cards": cards},
        "view": view(puzzle, cards),
        "player": _player_json(await store.player_rating(player_id)),
    }
    if daily is not None:
        state["daily"] = daily
    return state


@router.get("/api/puzzles/themes", response_model=dict[str, object])
@shows_no_table("the names of the puzzles' themes and phases")
async def puzzle_themes() -> Themes:
    """Every theme and phase a player may choose, named in English and Hungarian."""
    return {
        "themes": [{"name": k, "en": en, "hu": hu} for k, (en, hu) in THEMES.items()],
        "phases": [{"name": k, "en": en, "hu": hu} for k, (en, hu) in PHASES.items()],
    }


@router.get("/api/puzzles/next", response_model=dict[str, object])
@shows_no_table(SHOWS)
async def next_puzzle(request: Request, theme: str | None = None, phase: str | None = None) -> PuzzleState:
    """A puzzle the player has not tried, near their puzzle rating, of ``theme`` and ``phase`` if given."""
    if theme is not None and theme not in THEMES:
        raise CommandError("bad_request", f"theme: must be one of {', '.join(THEMES)}")
    if phase is not None and phase not in PHASES:
        raise CommandError("bad_request", f"phase: must be one of {', '.join(PHASES)}")
    who = await sessions.identity_of(request)
    store = puzzles_of(request)
    mine = await store.player_rating(who.player_id)
    rows = await store.near(Rating(mine.mu, mine.sigma).shown, who.player_id, theme, phase, PICK_AMONG)
    if not rows:
        raise CommandError("not_found", "you have tried every puzzle of this choice: choose another theme or phase")
    return await _state(request, random.choice(rows), who.player_id)


def utc_day(now: datetime.datetime | None = None) -> tuple[str, int]:
    """Today's UTC date (``YYYY-MM-DD``) and its midnight in epoch milliseconds."""
    now = now or datetime.datetime.now(datetime.UTC)
    midnight = datetime.datetime(now.year, now.month, now.day, tzinfo=datetime.UTC)
    return midnight.date().isoformat(), int(midnight.timestamp() * 1000)


def daily_pick(day: str) -> int:
    """The day's draw: a number from a digest of the date, the same in every process."""
    return int.from_bytes(hashlib.sha256(f"ulti-daily-puzzle:{day}".encode()).digest()[:8], "big")


@router.get("/api/puzzles/daily", response_model=dict[str, object])
@shows_no_table(SHOWS)
async def daily_puzzle(request: Request) -> PuzzleState:
    """The daily puzzle: the same for everyone on a UTC day (drawn among the puzzles stored before it began)."""
    who = await sessions.identity_of(request)
    day, midnight = utc_day()
    row = await puzzles_of(request).daily(midnight, daily_pick(day))
    if row is None:
        raise CommandError("not_found", "no puzzle is stored yet")
    return await _state(request, row, who.player_id, daily=day)


@router.get("/api/puzzles/history", response_model=dict[str, object])
@shows_no_table("the session's own puzzle attempts and rating")
async def puzzle_history(request: Request) -> History:
    """The player's latest attempts (newest first) and their puzzle rating."""
    who = await sessions.identity_of(request)
    store = puzzles_of(request)
    attempts = await store.attempts_of(who.player_id)
    return {
        "player": _player_json(await store.player_rating(who.player_id)),
        "attempts": [a.to_json() for a in attempts],
    }


@router.get("/api/puzzles/mistakes", response_model=dict[str, object])
@shows_no_table("the puzzles cut from the session's own analysed deals")
async def my_mistakes(request: Request) -> Mistakes:
    """The puzzles cut from the player's own mistakes in their analysed deals, newest first, and which of
    them the player has solved since."""
    who = await sessions.identity_of(request)
    store = puzzles_of(request)
    rows = await store.mistakes_of(who.player_id)
    done = await store.latest_status(who.player_id, [r.id for r in rows])
    return {"puzzles": [{**_summary(r), "status": done.get(r.id, "new")} for r in rows]}


@router.get("/api/puzzles/{puzzle_id}", response_model=dict[str, object])
@shows_no_table(SHOWS)
async def puzzle_by_id(request: Request, puzzle_id: str) -> PuzzleState:
    """Puzzle ``puzzle_id`` as the player sees it before their next move."""
    who = await sessions.identity_of(request)
    row = await _puzzle_row(request, puzzle_id)
    return await _state(request, row, who.player_id)


def _outcome_json(outcome: Outcome) -> Judged:
    out: Judged = {
        "correct": outcome.correct,
        "card": outcome.card,
        "answer": outcome.answer,
        "values": outcome.values,
        "replies": outcome.replies,
        "line": outcome.line,
    }
    if outcome.finished:
        out["open_values"] = outcome.open_values  # exact with all hands open: only once nothing is hidden
    return out


def _rater(solved: bool) -> PuzzleRater:
    """The rating change of a first finished attempt, from the ratings its transaction reads."""

    def rate(mine: tuple[float, float], theirs: tuple[float, float]) -> PuzzleRatingChange:
        before, puzzle_before = Rating(*mine), Rating(*theirs)
        after, puzzle_after = attempt(before, puzzle_before, solved)
        return PuzzleRatingChange((after.mu, after.sigma), (puzzle_after.mu, puzzle_after.sigma),
                            (before.shown, after.shown, puzzle_before.shown, puzzle_after.shown))

    return rate


def _rating_json(end: RatedEnd, player: PlayerRating) -> RatingChange:
    """The rating change an ended attempt reports (an unrated one: no change)."""
    if end.shown is None:
        now = Rating(player.mu, player.sigma).shown
        return {"rated": False, "before": now, "after": now, "change": 0}
    mine_before, mine_after, puzzle_before, puzzle_after = end.shown
    return {"rated": True, "before": mine_before, "after": mine_after, "change": mine_after - mine_before,
            "puzzle_before": puzzle_before, "puzzle_after": puzzle_after}


@router.post("/api/puzzles/{puzzle_id}/move", response_model=dict[str, object])
@shows_no_table(SHOWS)
async def puzzle_move(request: Request, puzzle_id: str, body: MoveBody) -> MoveOpen | MoveEnded:
    """Judge the player's card at their next move of the puzzle; see docs/protocol/puzzles.md for the answer."""
    who = await sessions.identity_of(request)
    row = await _puzzle_row(request, puzzle_id)
    store = puzzles_of(request)
    attempt_row = await store.open_attempt(who.player_id, row.id) or await store.start_attempt(who.player_id, row.id)
    move = len(attempt_row.cards)
    if body.move is not None and body.move != move:
        raise CommandError("bad_request", f"move: this attempt is at move {move}, not {body.move}")
    puzzle = row.puzzle()
    try:
        # the solver's line after a wrong card: a few milliseconds, off the event loop all the same
        outcome = await asyncio.to_thread(judge_card, puzzle, attempt_row.cards, body.card)
    except IllegalAction as exc:
        # the rule that forbids the card (must follow suit, not held, …): the page words it
        raise CommandError("bad_request", f"card: {exc.message}", rule=exc.rule, params=exc.params) from None
    except RecordError as exc:
        raise CommandError("bad_request", f"card: {exc}") from None
    cards = [*attempt_row.cards, outcome.card]
    answer = _outcome_json(outcome)
    if not outcome.finished:
        if not await store.continue_attempt(attempt_row.id, cards, move):
            raise CommandError("bad_request", f"move: another request answered move {move} first")
        return {
            **answer, "status": "open", "move": move + 1, "view": view(puzzle, cards),
            "player": _player_json(await store.player_rating(who.player_id)),
        }
    end = await store.finish_attempt(attempt_row.id, cards, move, outcome.correct, _rater(outcome.correct))
    if end is None:
        raise CommandError("bad_request", f"move: another request answered move {move} first")
    player = await store.player_rating(who.player_id)
    return {
        **answer,
        "status": "solved" if outcome.correct else "failed",
        "move": move + 1,
        "rating": _rating_json(end, player),
        "reveal": reveal(puzzle),
        "player": _player_json(player),
    }
