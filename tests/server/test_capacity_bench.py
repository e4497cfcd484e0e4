"""The capacity run (``benchmarks/capacity_bench.py``) measures what it says.

A bot's lateness is its answer's arrival less when its turn began (the event before, or the trick
pause after a trick taken) less its pacing: checked on made-up event streams, then against a real
server, where the server never answers before the pacing, so no lateness can be below zero by more
than the jitter of the events' delivery.
"""

from __future__ import annotations

import argparse
import math
import statistics
from typing import Any

from benchmarks.capacity_bench import BOT_DELAY, TRICK_PAUSE, Step, TableLog, quantile, run_step, verdict

WINDOW = (0.0, 1000.0)


def event(at: float, kind: str, action: str | None = None, by: str = "player", done: bool = False) -> dict[str, Any]:
    """An event message as the person's socket holds it: arrival ``_t``, the event, the view it made."""
    body: dict[str, Any] = {"type": kind}
    if action is not None:
        body.update(action={"action": action}, by=by)
    return {"_t": at, "event": body, "_state": {"deal": {"phase": "done" if done else "play"}}}


def test_bot_lateness_counts_from_the_event_before_its_turn() -> None:
    log = TableLog()
    log.see(event(10.0, "deal"), WINDOW)
    log.see(event(10.0 + BOT_DELAY + 0.05, "action", "bid", by="bot"), WINDOW)
    log.see(event(13.0, "action", "pass"), WINDOW)  # the person's action: no lateness
    log.see(event(13.0 + BOT_DELAY, "action", "pass", by="bot"), WINDOW)
    assert [round(x, 6) for x in log.lateness] == [0.05, 0.0]


def test_bot_lateness_after_a_trick_counts_from_the_trick_pause() -> None:
    log = TableLog()
    log.see(event(0.0, "deal"), WINDOW)
    log.see(event(1.0, "action", "play"), WINDOW)
    log.see(event(2.0, "action", "play"), WINDOW)
    log.see(event(3.0, "action", "play"), WINDOW)  # the third card takes the trick
    # the bot leads once the trick has been shown for the trick pause, then its pacing
    log.see(event(3.0 + TRICK_PAUSE + BOT_DELAY + 0.1, "action", "play", by="bot"), WINDOW)
    assert [round(x, 6) for x in log.lateness] == [0.1]


def test_deals_played_count_cards_and_finished_deals() -> None:
    log = TableLog()
    log.see(event(0.0, "deal"), WINDOW)
    for i in range(15):
        log.see(event(1.0 + i, "action", "play"), WINDOW)
    log.see(event(20.0, "action", "give_up", done=True), WINDOW)  # the deal ends early: it counts whole
    log.see(event(30.0, "deal"), WINDOW)
    for i in range(6):
        log.see(event(31.0 + i, "action", "play"), WINDOW)
    assert log.deals == 1 + 6 / 30


def test_quantile_of_few_values() -> None:
    assert quantile([0.2], 0.95) == 0.2
    assert quantile(list(range(101)), 0.99) == 99
    assert math.isnan(quantile([], 0.5))


def test_capacity_step_measures_real_bots_never_early() -> None:
    """One table of a person and two strong bots on a real server with the production pacing."""
    args = argparse.Namespace(think=0.15, warmup=3.0, seconds=25.0, profile=True)
    step = run_step(1, "strong", 2, args)  # two bot processes: the server takes --bot-processes
    assert len(step.lateness) >= 10 and step.acks
    # the server sends no answer before the pacing (nor before the trick pause): none may be early by more
    # than an event's delivery on a busy machine (a pause counted that the server does not make would show
    # as an answer early by 0.7 s or 1.8 s)
    assert min(step.lateness) > -0.25, sorted(step.lateness)[:5]
    # one table leaves room to spare even on a shared machine: most answers come on time
    assert statistics.median(step.lateness) < 0.5, sorted(step.lateness)
    assert step.deals > 0 and step.cpu_per_deal_per_bot > 0
    assert step.cores["bot workers"] > 0


def step_using(workers: int, bots: float, loop: float = 0.05, others: float = 0.05) -> Step:
    """A step that did not hold (lateness 2 s), its CPU in cores by part."""
    cores = {"server loop": loop, "bot workers": bots, "long work": 0.0, "load generator": 0.01,
             "rest of machine": others}
    return Step(tables=32, workers=workers, lateness=[2.0] * 20, acks=[0.005] * 20, deals=10.0,
                cpu_per_deal_per_bot=0.5, cores=cores, profile=[])


def test_capacity_verdict_names_what_held_the_step_back() -> None:
    # one worker half busy on a two-core box: the turns queue behind one another, not behind the CPU
    assert "queue behind one another in 1 worker process" in verdict(step_using(1, 0.45), cores=2)
    assert "busy (0.95 cores of 1)" in verdict(step_using(1, 0.95), cores=2)
    assert "nearly full" in verdict(step_using(2, 1.45), cores=2)
    assert "other processes took 1.50" in verdict(step_using(2, 0.3, others=1.5), cores=2)
    assert "event loop is busy" in verdict(step_using(2, 0.3, loop=0.9), cores=4)
    assert not step_using(1, 0.45).holds
