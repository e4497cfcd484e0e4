"""The long-work dispatcher (``ulti/server/longwork.py``): a bot's turn first, then whoever waits for an
answer, then background jobs; and the workers run at the lowest CPU priority.

Real worker processes (spawned: the first call takes about a second).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time

import pytest

from ulti.server import longwork
from ulti.server.longwork import NICENESS, BotTurns, LongWork, PeopleAtPlay


def niceness() -> int:
    """This process's niceness (called in a worker)."""
    return os.nice(0)


@pytest.mark.asyncio
async def test_a_piece_of_long_work_waits_while_a_bot_turn_thinks() -> None:
    started: list[str] = []
    turns = BotTurns()
    work = LongWork(1, started.append, turns)
    try:
        assert await work.call("analysis", niceness) == NICENESS  # the workers give way to everything else
        turns.started()  # a strong bot's turn is handed to its worker
        hint = asyncio.create_task(work.call("hint", niceness))
        for _ in range(20):
            await asyncio.sleep(0)  # every step the call could take without waiting
        assert started == ["analysis"] and not hint.done()
        threading.Thread(target=turns.ended).start()  # the turn ends (told from the executor's thread)
        assert await asyncio.wait_for(hint, 60) == NICENESS
        assert started == ["analysis", "hint"]
    finally:
        work.close()


@pytest.mark.asyncio
async def test_someone_waiting_for_an_answer_goes_before_background_jobs() -> None:
    started: list[str] = []
    work = LongWork(1, started.append)
    try:
        await work.call("par", niceness)  # the worker is up
        busy = asyncio.create_task(work.call("analysis", time.sleep, 0.5))  # the one worker is busy
        await asyncio.sleep(0)
        queued = [asyncio.create_task(work.call(kind, niceness)) for kind in ("analysis", "par", "whatif", "hint")]
        for _ in range(20):
            await asyncio.sleep(0)
        assert work.waiting == 4
        await asyncio.wait_for(asyncio.gather(busy, *queued), 60)
        # the hint and the what-if (asked last) ran before the analysis chunk and the par decision, the
        # learner's hint first
        assert started == ["par", "analysis", "hint", "whatif", "analysis", "par"]
    finally:
        work.close()


@pytest.mark.asyncio
async def test_long_work_waits_for_a_pause_in_peoples_play_but_a_hint_does_not() -> None:
    started: list[str] = []
    people = PeopleAtPlay(quiet=1.0)
    work = LongWork(1, started.append, people=people)
    try:
        await work.call("par", niceness)  # the worker is up
        people.acted()  # a person plays a card
        analysis = asyncio.create_task(work.call("analysis", niceness))
        await asyncio.sleep(0.5)
        assert started == ["par"] and not analysis.done()  # still within the person's quiet second
        assert await asyncio.wait_for(work.call("hint", niceness), 60) == NICENESS  # the learner's hint goes
        people.acted()  # and the person plays on: the analysis waits on
        await asyncio.sleep(0.6)
        assert not analysis.done()
        await asyncio.wait_for(analysis, 60)  # a second without a person's action: it runs
        assert started == ["par", "hint", "analysis"]
    finally:
        work.close()


@pytest.mark.asyncio
async def test_people_who_never_pause_delay_long_work_but_do_not_starve_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(longwork, "PEOPLE_PATIENCE", 1.0)
    people = PeopleAtPlay(quiet=0.3)
    starts: list[float] = []
    work = LongWork(2, lambda kind: starts.append(time.monotonic()), people=people)
    try:
        await asyncio.gather(work.call("par", niceness), work.call("par", niceness))  # both workers are up
        starts.clear()

        async def play_without_pause() -> None:
            while True:
                people.acted()
                await asyncio.sleep(0.05)

        player = asyncio.create_task(play_without_pause())
        began = time.monotonic()
        calls = [work.call(kind, niceness) for kind in ("whatif", "analysis", "par")]
        assert await asyncio.wait_for(asyncio.gather(*calls), 60) == [NICENESS] * 3
        player.cancel()
        assert people.playing()
        # each waited its patience out, then ran beside the play, one per second although two workers were free
        assert starts[0] - began >= 1.0
        assert starts[1] - starts[0] >= 0.95 and starts[2] - starts[1] >= 0.95
    finally:
        work.close()


@pytest.mark.asyncio
async def test_the_piece_passing_beside_people_who_never_pause_is_the_first_by_priority(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(longwork, "PEOPLE_PATIENCE", 0.6)
    people = PeopleAtPlay(quiet=0.3)
    started: list[str] = []
    work = LongWork(4, started.append, people=people)
    try:
        await asyncio.gather(*(work.call("par", niceness) for _ in range(4)))  # the workers are up
        started.clear()

        async def play_without_pause() -> None:
            while True:
                people.acted()
                await asyncio.sleep(0.05)

        player = asyncio.create_task(play_without_pause())
        background = [asyncio.create_task(work.call(kind, niceness)) for kind in ("puzzles", "par", "analysis")]
        await asyncio.sleep(0.3)
        whatif = asyncio.create_task(work.call("whatif", niceness))  # asked last, while the others wait
        await asyncio.wait_for(asyncio.gather(whatif, *background), 60)
        player.cancel()
        assert people.playing()
        # one piece per patience, by priority (a what-if before background work), the oldest among equals
        assert started == ["whatif", "par", "analysis", "puzzles"]
    finally:
        work.close()


def test_one_table_orders_long_work_and_says_which_kinds_run_beside_people() -> None:
    assert not hasattr(longwork, "PEOPLE_WAIT_FOR")
    beside = sorted(kind for kind, level in longwork.PRIORITY.items() if level <= longwork.BESIDE_PEOPLE)
    assert beside == ["hint"]
