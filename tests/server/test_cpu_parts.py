"""The server's CPU per action by part (``benchmarks/cpu_parts.py``, ``load_bench --parts``)."""

from __future__ import annotations

import asyncio
import gc
import os
import re
import sys
import types

import pytest

from benchmarks import cpu_parts
from benchmarks.load_bench import cpu_seconds, cpu_split, run_load


def test_a_timed_function_still_answers_and_raises_and_its_calls_and_cpu_are_counted() -> None:
    module = types.ModuleType("timed_for_test")

    def work(n: int) -> int:
        if n < 0:
            raise ValueError("negative")
        return sum(i * i for i in range(n))

    module.work = work  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    try:
        timers = cpu_parts.PartTimers()
        timers.wrap("work", "timed_for_test:work")
        assert module.work(20_000) == work(20_000)
        with pytest.raises(ValueError, match="negative"):
            module.work(-1)
        figures = timers.snapshot()["work"]
        assert figures["calls"] == 2
        assert figures["ns"] > 0
    finally:
        del sys.modules[module.__name__]


def test_the_collectors_passes_are_counted_with_their_cpu() -> None:
    timers = cpu_parts.PartTimers()
    callback = timers.time_collector("collector")
    try:
        garbage = [[i] for i in range(200_000)]
        del garbage
        gc.collect()
        gc.collect()
        figures = timers.snapshot()["collector"]
        assert figures["calls"] >= 2
        assert figures["ns"] > 0
    finally:
        gc.callbacks.remove(callback)


def test_a_load_run_with_parts_prints_each_part_per_action() -> None:
    """A real server timed by part: every action passes the rules' check once, and is broadcast."""
    lines: list[str] = []
    result = asyncio.run(run_load(1, 3.0, 0.0, 0, lines))
    assert result["actions_per_s"] > 0
    by_label = {line[:42].strip(): line for line in lines}
    assert set(by_label) == {label.strip() for label in cpu_parts.PARTS} | {cpu_parts.COLLECTOR}
    calls = re.search(r"([\d.]+) calls/action", by_label["check the action (rules)"])
    assert calls is not None and 0.9 <= float(calls.group(1)) <= 1.5
    spent = re.search(r"= +([\d.]+) us/action", by_label["broadcast (views, patches, writes)"])
    assert spent is not None and float(spent.group(1)) > 0
    # the server's sockets cost it kernel time, a part of its CPU and not all of it
    assert 0 < result["cpu_servers_kernel"] < result["cpu_servers"]


def test_a_process_cpu_is_split_into_its_own_code_and_the_kernels_work() -> None:
    """Computing counts as the process's own (user) time, writing a file as the kernel's (system) time."""
    user, kernel = cpu_split(os.getpid())
    assert abs(cpu_seconds(os.getpid()) - (user + kernel)) < 0.05
    sum(i * i for i in range(3_000_000))
    busy_user, busy_kernel = cpu_split(os.getpid())
    assert busy_user - user >= 0.05
    with open(os.devnull, "wb") as sink:
        block = b"x" * 4096
        for _ in range(300_000):  # many small system calls: their time is spent in the kernel
            sink.write(block)
            sink.flush()
    assert cpu_split(os.getpid())[1] - busy_kernel >= 0.02
