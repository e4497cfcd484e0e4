"""The rate limits' moving windows (ulti/movingwindows.py) against a plain model, on a fake clock."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st
from limits import parse

from ulti import movingwindows as windows
from ulti.movingwindows import MovingWindows


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def time(self) -> float:
        return self.now


@given(steps=st.lists(st.tuples(st.floats(0, 40), st.integers(1, 3), st.booleans()), max_size=60))
def test_a_window_counts_exactly_the_hits_of_its_last_length_of_time(
    steps: list[tuple[float, int, bool]],
) -> None:
    clock = Clock()
    item = parse("5/minute")
    counter = MovingWindows(clock.time)
    model: list[float] = []
    for wait, cost, do_hit in steps:
        clock.now += wait
        live = [t for t in model if t > clock.now - 60]
        assert counter.test(item, "k", cost=cost) == (len(live) + cost <= 5)
        stats = counter.get_window_stats(item, "k")
        assert stats.remaining == max(0, 5 - len(live))
        assert stats.reset_time == (live[0] + 60 if live else clock.now)
        if do_hit:
            counter.hit(item, "k", cost=cost)
            model.extend([clock.now] * cost)


def test_keys_are_counted_apart_and_forgotten_once_their_hits_expire() -> None:
    clock = Clock()
    item = parse("2/second")
    counter = MovingWindows(clock.time)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(windows, "SWEEP_EVERY", 10)
        counter.hit(item, "a", cost=2)
        assert not counter.test(item, "a") and counter.test(item, "b")
        clock.now += 5
        for n in range(10):
            counter.hit(item, f"other-{n}")  # the tenth hit sweeps: "a" has no live hit left
        assert len(counter._hits) == 10


def test_counting_starts_no_thread() -> None:
    counter = MovingWindows()
    before = threading.active_count()
    for n in range(100):
        counter.hit(parse("1000/minute"), f"key-{n % 7}")
    assert threading.active_count() == before
