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

from ulti.server.longwork import NICENESS, BotTurns, LongWork


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
        # the what-if and the hint (asked last) ran before the analysis chunk and the par decision
        assert started == ["par", "analysis", "whatif", "hint", "analysis", "par"]
    finally:
        work.close()
