"""The applied-once benchmark (``benchmarks/act_once_bench.py``) plays a match both ways alike."""

from __future__ import annotations

from benchmarks.act_once_bench import play


def test_the_act_once_bench_times_both_ways_on_the_same_match() -> None:
    once: list[float] = []
    again: list[float] = []
    play(1, once, again)  # asserts that both tables played the same actions to the same end
    assert len(once) == len(again) > 100 and all(t > 0 for t in once + again)
