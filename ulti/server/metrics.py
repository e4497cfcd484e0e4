"""Operational metrics in the Prometheus text format (``GET /metrics``), one registry per app.

The other modules call the small methods of ``Metrics`` (``action_done``, ``command_done``,
``refused``, ``bad_input``, ``store_committed``); the gauges of connections and loaded tables are
read from the hub at scrape time, so nothing has to keep them up to date. Every app (and so every
test server made in one process) has its own ``CollectorRegistry``: the global default registry
would refuse a second metric of the same name.

Names and meanings are documented in docs/deploy.md ("Metrics").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sized
from typing import TYPE_CHECKING, Protocol

import prometheus_client
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

from ulti.server.hothistogram import HistogramCounts, HotHistogram
from ulti.server.inputs import BadInput
from ulti.server.longwork import PRIORITY
from ulti.server.tablestate import CommandError

if TYPE_CHECKING:
    from ulti.server.longwork import LongWork

# A ``*_created`` series per counter and histogram child doubles the output for a timestamp that
# Prometheus does not need (it detects counter resets itself). This switch is process-wide, and
# nothing else in the process exports Prometheus metrics.
prometheus_client.disable_created_metrics()  # type: ignore[no-untyped-call]

CONTENT_TYPE = CONTENT_TYPE_LATEST

#: from 1 ms (an action on an idle server) to 5 s (a stalled store): the latency the players feel
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: a group commit on SQLite in WAL mode takes well under a millisecond when idle
COMMIT_BUCKETS = (0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: a piece of long work waits from nothing (an idle server) to a minute (busy bots, people who never pause)
LONG_WAIT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0)
#: a piece of long work is small: a hint or a what-if line, a few decisions of an analysis
LONG_RUN_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
#: events per group commit: 1 when idle, more under load (how much the grouping saves)
BATCH_BUCKETS = (1, 2, 5, 10, 20, 50, 100, 200, 500)

#: error codes that name malformed or abusive input rather than a move the rules forbid; whatever
#: raises them (``BadInput`` or a plain ``CommandError``), they count as bad input as well
BAD_INPUT_CODES = frozenset(
    {
        "bad_json",
        "bad_message",
        "bad_request",
        "bad_content_type",
        "bad_origin",
        "too_large",
        "too_deep",
        "rate_limited",
        "unknown_type",
    }
)

#: WebSocket close codes that mean the client sent something the server could not take
CLOSE_CODES = {1002: "ws_protocol", 1007: "ws_bad_data", 1009: "ws_too_large"}


class CommitTimed(Protocol):
    """A store that reports how long each commit took (``EventStore.on_commit``)."""

    on_commit: Callable[[float, int], None] | None


class Watched(Protocol):
    """What the metrics read of a hub at scrape time (a protocol: the metrics import no hub)."""

    @property
    def connections(self) -> Sized:
        """The open connections."""
        ...

    @property
    def actors(self) -> Sized:
        """The tables this process acts for."""
        ...

    @property
    def replicas(self) -> Sized:
        """The tables other processes own that this one follows."""
        ...

    @property
    def store(self) -> CommitTimed:
        """The store, timed at each commit."""
        ...


class Metrics:
    """The metric objects of one server app, in their own registry."""

    def __init__(self, process: bool = True) -> None:
        """Metrics in a fresh registry; ``process`` adds the process, GC and platform collectors."""
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        self.connections = Gauge("ulti_connections", "Open WebSocket connections to this process", registry=registry)
        self.tables = Gauge(
            "ulti_tables_loaded",
            "Tables held in memory by this process: owner = its live actors, replica = copies of tables"
            " owned by another process that clients here watch",
            ["role"],
            registry=registry,
        )
        self.actions = Counter(
            "ulti_actions", "Game actions stored by this process (bids, plays, kontras...)", ["by"], registry=registry
        )
        # observed after every command and every group commit: counted in plain Python (hothistogram.py)
        self.command_latency = HotHistogram(
            "ulti_command_latency_seconds",
            "Seconds from a WebSocket command's arrival to its events queued for every watcher (accepted commands)",
            LATENCY_BUCKETS,
            registry,
            ["kind"],
        )
        # the labelled children of the per-action metrics, looked up once: ``labels()`` costs more
        # than the increment itself, after every action
        self._action_counters: dict[str, Counter] = {}
        self._command_latencies: dict[str, HistogramCounts] = {}
        self.refusals = Counter(
            "ulti_refusals", "Error answers to commands and requests, by error code", ["code", "via"], registry=registry
        )
        self.bad_inputs = Counter(
            "ulti_bad_input",
            "Malformed or abusive input (counted here instead of logged): refusals with a bad-input code,"
            " refused sockets and requests uvicorn could not parse",
            ["kind"],
            registry=registry,
        )
        self.store_commit = HotHistogram(
            "ulti_store_commit_seconds",
            "Seconds per group commit of table events (including the wait for a database connection)",
            COMMIT_BUCKETS,
            registry,
        )
        self.store_commit_events = HotHistogram(
            "ulti_store_commit_events", "Events per group commit", BATCH_BUCKETS, registry
        )
        self.long_work = Counter(
            "ulti_long_work",
            "Pieces of long work started in the low-priority workers, by kind (analysis: one chunk of a deal's"
            " analysis; par: one decision of a par replay; whatif; hint)",
            ["kind"],
            registry=registry,
        )
        self.long_work_waiting = Gauge(
            "ulti_long_work_waiting", "Pieces of long work waiting for a low-priority worker", registry=registry
        )
        self.long_work_queue_depth = Gauge(
            "ulti_long_work_queue_depth",
            "Jobs on the long-work queue not yet taken by a worker, every server's (docs/queue.md; 0 without a"
            " queue)",
            registry=registry,
        )
        self.long_work_requeued = Counter(
            "ulti_long_work_requeued",
            "Jobs of this process enqueued again because their worker stopped renewing its lease (killed)",
            registry=registry,
        )
        self.long_work_workers_missing = Gauge(
            "ulti_long_work_workers_missing",
            "1 while jobs of this process wait on the long-work queue and no worker has shown itself for"
            " NO_WORKER_SECONDS (docs/queue.md): such jobs are refused with no_worker; else 0",
            registry=registry,
        )
        self.long_work_wait = Histogram(
            "ulti_long_work_wait_seconds",
            "Seconds a piece of long work waited before it started (a pause in people's play, a free worker,"
            " the bots' turns, its place on the job queue), by kind",
            ["kind"],
            buckets=LONG_WAIT_BUCKETS,
            registry=registry,
        )
        self.long_work_run = Histogram(
            "ulti_long_work_run_seconds",
            "Seconds a piece of long work ran in its worker, by kind (on the job queue: as the worker timed it;"
            " else until its answer came back or its asker gave up, the first piece with the worker's start)",
            ["kind"],
            buckets=LONG_RUN_BUCKETS,
            registry=registry,
        )
        # Series that exist from the start read 0 instead of missing: rate() then has a first point.
        for kind in PRIORITY:
            self.long_work.labels(kind)
            self.long_work_wait.labels(kind)
            self.long_work_run.labels(kind)
        for by in ("player", "bot"):
            self.actions.labels(by)
        for kind in ("act", "chat", "back", "ready"):
            self.command_latency.labels(kind)
        if process:
            # Memory, CPU, open files (from /proc), garbage collections and the Python version:
            # read at scrape time only, so they cost nothing between scrapes.
            ProcessCollector(registry=registry)
            GCCollector(registry=registry)
            PlatformCollector(registry=registry)

    def watch(self, hub: Watched) -> None:
        """Read connections and loaded tables from ``hub`` at scrape time, and time its store's commits."""
        self.connections.set_function(lambda: len(hub.connections))
        self.tables.labels("owner").set_function(lambda: len(hub.actors))
        self.tables.labels("replica").set_function(lambda: len(hub.replicas))
        # The store may not import the server (import-linter): it calls back through this attribute.
        hub.store.on_commit = self.store_committed

    def watch_long_work(self, work: LongWork) -> None:
        """Read the pieces of long work waiting for a worker and the job queue's depth from ``work`` at scrape
        time, time each piece, count the jobs enqueued again."""
        self.long_work_waiting.set_function(lambda: work.waiting)
        work.timed = self.long_work_timed
        queue = work.queue
        if queue is not None:
            self.long_work_queue_depth.set_function(lambda: queue.depth)
            self.long_work_workers_missing.set_function(lambda: float(queue.workers_missing))
            queue.on_requeue = self.long_work_requeued.inc

    # ---------------------------------------------------------------- what the other modules call

    def long_work_started(self, kind: str) -> None:
        """A piece of long work of ``kind`` started in a low-priority worker."""
        self.long_work.labels(kind).inc()

    def long_work_timed(self, kind: str, waited: float, ran: float) -> None:
        """A piece of long work of ``kind`` waited ``waited`` seconds to start, then ran ``ran`` seconds."""
        self.long_work_wait.labels(kind).observe(waited)
        self.long_work_run.labels(kind).observe(ran)

    def action_done(self, by: str) -> None:
        """A game action was stored (``by``: player or bot); Prometheus makes a rate of it."""
        child = self._action_counters.get(by)
        if child is None:
            child = self._action_counters[by] = self.actions.labels(by)
        child.inc()

    def command_done(self, kind: str, started: float) -> None:
        """A WebSocket command of ``kind`` (act, chat, back) was accepted and its events queued.

        ``started`` is the ``time.perf_counter()`` taken when the command was received.
        """
        child = self._command_latencies.get(kind)
        if child is None:
            child = self._command_latencies[kind] = self.command_latency.labels(kind)
        child.observe(time.perf_counter() - started)

    def refusal(self, code: str, via: str) -> None:
        """An error answer with ``code`` went out over ``via`` (``ws`` or ``http``)."""
        self.refusals.labels(code, via).inc()

    def refused(self, exc: CommandError, via: str) -> None:
        """``exc`` was answered over ``via``: a refusal, and bad input too when it names bad input."""
        self.refusal(exc.code, via)
        if isinstance(exc, BadInput) or exc.code in BAD_INPUT_CODES:
            self.bad_input(exc.code)

    def refused_code(self, code: str, via: str = "http") -> None:
        """``refused`` for a refusal known only by its code (the HTTP guard, the framework's errors)."""
        self.refused(CommandError(code, ""), via)

    def bad_input(self, kind: str) -> None:
        """Malformed or abusive input of ``kind`` was refused: counted, never logged line by line."""
        self.bad_inputs.labels(kind).inc()

    def socket_closed(self, code: object) -> None:
        """A WebSocket closed with ``code``: a frame too large or a protocol violation is bad input."""
        kind = CLOSE_CODES.get(code) if isinstance(code, int) else None
        if kind is not None:
            self.bad_input(kind)

    def store_committed(self, seconds: float, events: int) -> None:
        """The store committed ``events`` table events in one transaction that took ``seconds``."""
        self.store_commit.observe(seconds)
        self.store_commit_events.observe(events)

    # ---------------------------------------------------------------- the scrape

    def exposition(self) -> bytes:
        """Every metric in the Prometheus text format (serve with ``CONTENT_TYPE``)."""
        return generate_latest(self.registry)
