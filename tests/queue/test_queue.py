"""The job queue of long work with real ``ulti worker`` processes on a real queue (docs/queue.md):
a killed worker's job is done by another, a slow one's result is applied once, the order of priorities."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.queue import pieces
from ulti.queue import runner as runner_module
from ulti.queue.botturns import LEASE as BOT_LEASE
from ulti.queue.botturns import QueueExecutor
from ulti.queue.jobs import DONE, LEASE_SECONDS, QueueSpec
from ulti.queue.pieces import UnknownPiece
from ulti.queue.runner import QueueRunner
from ulti.server.errors import CommandError
from ulti.server.longwork import PRIORITY

pytestmark = pytest.mark.asyncio

EXTRA = frozenset({pieces.SLOW, pieces.FAILING})
LEASE = 1.0


class Workers:
    """``ulti worker`` processes on one queue, each started and killed by the test."""

    def __init__(self, spec: QueueSpec) -> None:
        self.spec = spec
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self) -> subprocess.Popen[bytes]:
        line = [sys.executable, "-m", "ulti", "worker", "--queue", self.spec.url, "--lease-seconds",
                str(self.spec.lease_seconds)]
        for name in sorted(EXTRA):
            line += ["--allow-piece", name]
        process = subprocess.Popen(line, stdin=subprocess.DEVNULL)
        self.processes.append(process)
        return process

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.kill(process.pid, signal.SIGCONT)
                process.kill()
            process.wait()


@pytest.fixture
def spec(tmp_path: Path) -> QueueSpec:
    """A SQLite queue of its own with a short lease."""
    return QueueSpec(f"sqlite:{tmp_path / 'queue.db'}", lease_seconds=LEASE)


@pytest.fixture
def workers(spec: QueueSpec) -> Iterator[Workers]:
    group = Workers(spec)
    yield group
    group.stop()


async def started_by(folder: Path, label: str, timeout: float = 30.0) -> set[int]:
    """The processes that started piece ``label`` (waits for the first one)."""
    for _ in range(int(timeout / 0.02)):
        found = {int(p.stem.split("-")[1]) for p in folder.glob(f"{label}-*.started")}
        if found:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError(f"nobody started {label}")


def finished_by(folder: Path, label: str) -> set[int]:
    """The processes that finished piece ``label``."""
    return {int(p.stem.split("-")[1]) for p in folder.glob(f"{label}-*.finished")}


async def test_a_worker_killed_mid_job_has_its_job_done_once_by_another(
    spec: QueueSpec, workers: Workers, tmp_path: Path,
) -> None:
    runner = QueueRunner(spec, local_workers=0, extra=EXTRA, priority=PRIORITY.__getitem__)
    first = workers.start()
    job = asyncio.create_task(runner.run("analysis", pieces.slow, str(tmp_path), "job", 3.0))
    assert await started_by(tmp_path, "job") == {first.pid}
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    second = workers.start()
    (label, pid), ran = await asyncio.wait_for(job, 30)
    assert (label, pid) == ("job", second.pid)
    assert ran >= 3.0
    assert runner.requeued == 1
    assert finished_by(tmp_path, "job") == {second.pid}  # the killed worker never finished it
    runner.close()


async def test_a_slow_workers_late_result_is_not_applied_again(
    spec: QueueSpec, workers: Workers, tmp_path: Path,
) -> None:
    runner = QueueRunner(spec, local_workers=0, extra=EXTRA, priority=PRIORITY.__getitem__)
    slow = workers.start()
    job = asyncio.create_task(runner.run("analysis", pieces.slow, str(tmp_path), "job", 2.0))
    await started_by(tmp_path, "job")
    os.kill(slow.pid, signal.SIGSTOP)  # alive but silent: its lease runs out
    fast = workers.start()
    (_, pid), _ = await asyncio.wait_for(job, 30)
    assert pid == fast.pid
    os.kill(slow.pid, signal.SIGCONT)  # the first attempt goes on and finishes too
    for _ in range(500):
        if slow.pid in finished_by(tmp_path, "job"):
            break
        await asyncio.sleep(0.02)
    assert finished_by(tmp_path, "job") == {slow.pid, fast.pid}
    await asyncio.sleep(0.5)
    # the late result found the job done and left the marker the server put in place of the first one
    assert bytes(runner.queue.storage.peek_data(result_key_of(runner, "job"))) == DONE
    assert runner.requeued == 1
    runner.close()


def result_key_of(runner: QueueRunner, label: str) -> str:
    """The result key of the one job ``runner`` has run (its marker is the only result left)."""
    keys = [k if isinstance(k, str) else k.decode() for k in runner.queue.storage.result_items()]
    results = [k for k in keys if k.startswith("result:")]
    assert len(results) == 1, results
    return results[0]


async def test_someone_waiting_goes_before_a_queue_full_of_analysis(
    spec: QueueSpec, workers: Workers, tmp_path: Path,
) -> None:
    runner = QueueRunner(spec, local_workers=0, extra=EXTRA, priority=PRIORITY.__getitem__)
    # ten analysis pieces queued before any worker runs, then a hint
    background = [asyncio.create_task(runner.run("analysis", pieces.slow, str(tmp_path), f"a{i}", 0.2))
                  for i in range(10)]
    await asyncio.sleep(0.3)
    hint = asyncio.create_task(runner.run("hint", pieces.slow, str(tmp_path), "hint", 0.0))
    await asyncio.sleep(0.3)
    assert runner.depth == 11
    workers.start()
    await asyncio.wait_for(hint, 30)
    done = sum(1 for task in background if task.done())
    assert done <= 1, f"{done} analysis pieces ran before the hint"
    await asyncio.wait_for(asyncio.gather(*background), 60)
    runner.close()


async def test_a_workers_exception_reaches_the_asker(spec: QueueSpec, workers: Workers) -> None:
    runner = QueueRunner(spec, local_workers=0, extra=EXTRA)
    workers.start()
    with pytest.raises(ValueError, match="no such line"):
        await asyncio.wait_for(runner.run("whatif", pieces.failing, "no such line"), 30)
    runner.close()


async def test_a_function_not_on_the_list_is_refused_before_the_queue(spec: QueueSpec) -> None:
    runner = QueueRunner(spec, local_workers=0)
    with pytest.raises(UnknownPiece, match=r"tests\.queue\.pieces:slow"):
        await runner.run("analysis", pieces.slow, "/", "x", 0.0)
    assert runner.queue.depth() == 0
    runner.close()


async def test_the_servers_own_workers_run_at_the_lowest_priority_and_end_with_it(
    spec: QueueSpec, tmp_path: Path,
) -> None:
    runner = QueueRunner(spec, local_workers=2, extra=EXTRA)
    (_, pid), _ = await asyncio.wait_for(runner.run("analysis", pieces.slow, str(tmp_path), "job", 0.0), 60)
    assert pid in {p.pid for p in runner.workers.processes}
    assert len(runner.workers.processes) == 2
    assert os.getpriority(os.PRIO_PROCESS, pid) == 19
    runner.close()
    assert all(p.poll() is not None for p in runner.workers.processes) or not runner.workers.processes


async def test_a_bots_turn_goes_before_a_queue_full_of_analysis_nearest_deadline_first(
    spec: QueueSpec, workers: Workers, tmp_path: Path,
) -> None:
    runner = QueueRunner(spec, local_workers=0, extra=EXTRA, priority=PRIORITY.__getitem__)
    loop = asyncio.get_running_loop()
    background = [asyncio.create_task(runner.run("analysis", pieces.slow, str(tmp_path), f"a{i}", 0.2))
                  for i in range(10)]
    await asyncio.sleep(0.3)
    # two turns: the later one's deadline is nearer (a shorter budget), so it goes first
    later = loop.run_in_executor(QueueExecutor(runner, 10.0), pieces.slow, str(tmp_path), "far", 0.1)
    await asyncio.sleep(0.05)
    sooner = loop.run_in_executor(QueueExecutor(runner, 1.0), pieces.slow, str(tmp_path), "near", 0.1)
    await asyncio.sleep(0.3)
    assert runner.depth == 12
    workers.start()
    assert (await asyncio.wait_for(sooner, 30))[0] == "near"
    assert not later.done()
    assert (await asyncio.wait_for(later, 30))[0] == "far"
    assert sum(1 for task in background if task.done()) <= 1
    await asyncio.wait_for(asyncio.gather(*background), 60)
    runner.close()


async def test_a_bots_turn_given_up_is_not_waited_for(spec: QueueSpec, workers: Workers, tmp_path: Path) -> None:
    runner = QueueRunner(spec, local_workers=0, extra=EXTRA)
    loop = asyncio.get_running_loop()
    turn = loop.run_in_executor(QueueExecutor(runner, 1.0), pieces.slow, str(tmp_path), "turn", 0.0)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(turn, 0.2)  # no worker yet: the actor's budget runs out
    await asyncio.sleep(0.1)
    assert runner.awaiting == 0  # given up: the job is marked, and a worker skips it
    workers.start()
    await asyncio.sleep(2.0)
    assert not list(tmp_path.glob("turn-*.started"))
    runner.close()



async def test_a_job_awaited_while_the_queue_is_out_of_reach_is_still_answered(
    spec: QueueSpec, workers: Workers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    runner = QueueRunner(spec, local_workers=0, extra=EXTRA)
    storage = runner.queue.storage
    real = storage.peek_many
    failures: list[list[str]] = []

    def flaky(keys: list[str]) -> Any:
        if len(failures) < 2:
            failures.append(keys)
            raise OSError("the queue's storage is out of reach")
        return real(keys)

    monkeypatch.setattr(storage, "peek_many", flaky)
    workers.start()
    (label, _), _ = await asyncio.wait_for(runner.run("hint", pieces.slow, str(tmp_path), "job", 0.0), 30)
    assert label == "job" and len(failures) == 2
    runner.close()


async def test_a_worker_killed_between_taking_a_job_and_its_first_lease_has_it_done_by_another(
    spec: QueueSpec, workers: Workers, tmp_path: Path,
) -> None:
    runner = QueueRunner(spec, local_workers=0, extra=EXTRA, priority=PRIORITY.__getitem__)
    dying = subprocess.Popen([sys.executable, "-m", "tests.queue.dying_worker", spec.url, str(spec.lease_seconds)],
                             stdin=subprocess.DEVNULL)
    try:
        job = asyncio.create_task(runner.run("analysis", pieces.slow, str(tmp_path), "job", 0.0))
        assert await asyncio.to_thread(dying.wait, 30) == -signal.SIGKILL  # it took the job and died
        assert runner.queue.depth() == 0  # the job has left the queue, and nobody holds its lease
        second = workers.start()
        (label, pid), _ = await asyncio.wait_for(job, 30)
        assert (label, pid) == ("job", second.pid)
        assert runner.requeued == 1
    finally:
        if dying.poll() is None:
            dying.kill()
            dying.wait()
        runner.close()


async def test_a_job_no_worker_takes_is_refused_and_the_missing_workers_are_told(
    spec: QueueSpec, workers: Workers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runner_module, "NO_WORKER_SECONDS", 1.5)
    runner = QueueRunner(spec, local_workers=0, extra=EXTRA, priority=PRIORITY.__getitem__)
    loop = asyncio.get_running_loop()
    began = loop.time()
    with pytest.raises(CommandError) as refused:
        await asyncio.wait_for(runner.run("whatif", pieces.slow, str(tmp_path), "job", 0.0), 30)
    assert refused.value.code == "no_worker" and refused.value.params == {"seconds": 2}
    assert loop.time() - began >= 1.5
    assert runner.workers_missing and runner.refused == 1
    workers.start()  # a worker turns up: the refused job is skipped, and workers are no longer missing
    for _ in range(500):
        if not runner.workers_missing:
            break
        await asyncio.sleep(0.02)
    assert not runner.workers_missing
    (label, _), _ = await asyncio.wait_for(runner.run("whatif", pieces.slow, str(tmp_path), "next", 0.0), 30)
    assert label == "next"
    assert not list(tmp_path.glob("job-*.started"))
    runner.close()


async def test_busy_workers_are_not_missing_workers(
    spec: QueueSpec, workers: Workers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runner_module, "NO_WORKER_SECONDS", 1.0)
    runner = QueueRunner(spec, local_workers=0, extra=EXTRA, priority=PRIORITY.__getitem__)
    workers.start()
    long = asyncio.create_task(runner.run("analysis", pieces.slow, str(tmp_path), "long", 3.0))
    await started_by(tmp_path, "long")
    # the one worker is busy for three seconds: the next job waits untaken longer than the bound, not refused
    (label, _), _ = await asyncio.wait_for(runner.run("analysis", pieces.slow, str(tmp_path), "next", 0.0), 30)
    assert label == "next" and long.done() and runner.refused == 0
    runner.close()


async def test_a_bots_turn_whose_worker_is_killed_is_played_by_another_within_the_bots_budget(
    spec: QueueSpec, workers: Workers, tmp_path: Path,
) -> None:
    long_lease = QueueSpec(spec.url, lease_seconds=LEASE_SECONDS)  # long work's lease: the turn's is its own
    runner = QueueRunner(long_lease, local_workers=0, extra=EXTRA)
    first = workers.start()
    loop = asyncio.get_running_loop()
    turn = loop.run_in_executor(QueueExecutor(runner, LEASE_SECONDS), pieces.slow, str(tmp_path), "turn", 1.0)
    assert await started_by(tmp_path, "turn") == {first.pid}
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    killed = loop.time()
    second = workers.start()
    label, pid = await asyncio.wait_for(turn, LEASE_SECONDS)  # the bot's budget: it is played, not timed out
    assert (label, pid) == ("turn", second.pid)
    # taken again once its short lease ran out, long before long work's lease (and the bots' budget)
    assert loop.time() - killed < BOT_LEASE + 6.0 < LEASE_SECONDS
    assert runner.requeued == 1
    runner.close()
