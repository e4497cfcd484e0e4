"""Recording a finished match: its result, each seat's line and statistics, and (rated tables) the ratings.

Called by the table's actor right after the match's final event is stored, and again whenever a
table whose match is over is loaded by a process that takes it over or starts (``Hub._adopt``):
a process killed between the two finds the match unrecorded and records it then. The store records
a match once whoever calls (``ResultStore.record_match``), so calling again is always safe.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Sequence

from ulti.accounts.names import name_key, name_skeleton
from ulti.accounts.ratings import NEWCOMER, Skill, match_ranks, rate_match, shown_rating
from ulti.server.match_stats import match_stats
from ulti.server.tablestate import TableState
from ulti.store.ports import MatchResults, Rater, RatingChange, SeatResult, SkillRow

#: Test hook (tests/server/test_ratings.py): ``before_record`` or ``after_record`` makes the process
#: kill itself with SIGKILL at that point of the match end, exactly as ``kill -9`` would.
CRASH_ENV = "ULTI_TEST_CRASH_AT_MATCH_END"


def crash_point(where: str) -> None:
    """Die here like ``kill -9`` if the test hook asks for ``where`` (never set outside tests)."""
    if os.environ.get(CRASH_ENV) == where:
        os.kill(os.getpid(), signal.SIGKILL)


def seat_results(state: TableState) -> list[SeatResult]:
    """Each seat's line of the finished match of ``state``: ranks from the totals, leavers last."""
    match = state.match
    assert match is not None and match.is_over
    totals = match.totals()
    left = state.left_seats()
    ranks = match_ranks(totals, left)
    stats = match_stats(match)
    return [
        SeatResult(
            seat=i,
            player_id=seat.player_id or "",
            name=seat.name,
            is_bot=seat.kind == "bot",
            total=totals[i],
            rank=ranks[i],
            left=left[i],
            won=ranks[i] == 1 and not left[i],
            stats=json.dumps(stats[i], separators=(",", ":"), sort_keys=True),
        )
        for i, seat in enumerate(state.seats)
    ]


def rater_for(ranks: Sequence[int]) -> Rater:
    """The function that rates one match with these ranks (run by the store on the locked rows)."""

    def rate(current: Sequence[SkillRow | None]) -> list[RatingChange]:
        before = [NEWCOMER if row is None else Skill(row.mu, row.sigma) for row in current]
        after = rate_match(before, ranks)
        return [
            RatingChange(
                skill=SkillRow(new.mu, new.sigma, (0 if row is None else row.rated_matches) + 1),
                shown_before=shown_rating(old.mu),
                shown_after=shown_rating(new.mu),
            )
            for row, old, new in zip(current, before, after, strict=True)
        ]

    return rate


async def record_result(store: MatchResults, state: TableState) -> bool:
    """Store the result of the finished match of ``state`` (once); whether this call stored it.

    Bot seats play under the bot's own account ("Bot · strong" is player ``bot-strong``), made here
    on first use. On a rated table every seat gets a rating row first (a newcomer's), then the
    result and the new ratings are written in one transaction.
    """
    seats = seat_results(state)
    # the bots' own accounts are made here, by the server: the name rules for people (no "Bot") skip them
    bots = [(s.player_id, s.name, name_key(s.name), name_skeleton(s.name)) for s in seats if s.is_bot]
    await store.ensure_bot_accounts(bots)
    rater = None
    if state.rated:
        await store.ensure_ratings([s.player_id for s in seats], (NEWCOMER.mu, NEWCOMER.sigma))
        rater = rater_for([s.rank for s in seats])
    # the time of the final event, not of this call: a match recorded after a restart keeps its time
    ended = await store.last_event_at(state.table_id)
    finished_at = None if ended is None else int(ended * 1000)
    assert state.match is not None
    deals = sum(1 for d in state.match.deals if d.is_over)
    return await store.record_match(state.table_id, deals, seats, rater, finished_at)


async def record_if_unrecorded(store: MatchResults, state: TableState) -> bool:
    """Record the match of ``state`` if it is over and not yet recorded; whether it was recorded now."""
    if state.status != "finished" or state.match is None or await store.match_recorded(state.table_id):
        return False
    return await record_result(store, state)
