"""The command path's benchmark (``benchmarks/command_path_bench.py``) plays legal actions through the server's
message handler, across deals, and counts each action it sent."""

from __future__ import annotations

import asyncio

import pytest

from benchmarks.command_path_bench import one_round


def test_the_command_path_bench_sends_legal_actions_across_deals() -> None:
    # 2 tables, 150 actions: past the first deal of each (a deal of the load run's random play is 10 to 60
    # actions), so the result's pause and the next deal are in it; a refused action makes the round raise
    figures = asyncio.run(one_round(2, 150, 7))
    assert figures["actions"] == 150
    assert figures["us_per_action"] > 0


def test_the_command_path_bench_stops_when_every_match_has_ended() -> None:
    # one table holds 12 deals of at most 60 actions each: a round asking for more raises instead of waiting
    # for a deal that never comes
    with pytest.raises(ValueError, match="every table's match ended"):
        asyncio.run(one_round(1, 1000, 7))
