"""Server settings, from the command line and the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ulti.server.throttle import Quotas
from ulti.server.workquota import WorkQuotas

#: quotas for tests and load runs: every client comes from one address and makes many sessions
TEST_QUOTAS = Quotas(
    sessions_per_address="100000/minute",
    connects_per_address="100000/minute",
    connects_per_player="100000/minute",
    tables_per_player="100000/hour",
    chat_per_player="100000/minute",
    connections_per_player=8,
    connections_per_address=100000,
    api_per_token="100000/minute",
)
#: long-work quotas for tests and load runs (a test that checks a quota sets it: ``ulti serve --work-quota``)
TEST_WORK = WorkQuotas(
    analysis_pending_per_player=100000,
    analysis_pending_per_address=100000,
    analysis_per_player="100000/hour",
    analysis_per_address="100000/hour",
    whatif_pending_per_player=100000,
    whatif_pending_per_address=100000,
    whatif_per_player="100000/hour",
    whatif_per_address="100000/hour",
    hint_pending_per_player=100000,
    hint_pending_per_address=100000,
    hint_per_player="100000/hour",
    hint_per_address="100000/hour",
    requests_per_player="100000/second",
    requests_per_address="100000/second",
)


@dataclass
class Settings:
    """Everything the server needs to know at start."""

    db_url: str = "sqlite+aiosqlite:///data/ulti.db"
    #: Redis URL shared by several server processes (None: a single process)
    redis_url: str | None = None
    #: seconds a table's ownership lease lasts unless its owner renews it
    lease_seconds: float = 5.0
    secret: str | None = field(default_factory=lambda: os.environ.get("ULTI_SECRET"))
    #: seconds from a bot's turn to its move (its pacing), so that people can follow the play; the bot
    #: thinks meanwhile, and a move whose thinking takes longer is sent when found
    bot_delay: float = 0.7
    #: seconds a finished trick stays on every screen before a bot leads the next one (the "normal"
    #: pace; the seated people may ask for a faster or slower one, see actor.PACE_FACTORS): the page
    #: shows the trick that long, then moves it to its taker, and only then may a bot's card come
    trick_pause: float = 1.8
    #: seconds between the end of a deal and the next deal when nobody has to click "Next deal"
    #: (only bots and absent players at the table), or at least, once everybody has clicked
    between_deals: float = 4.0
    #: seconds a deal's result waits for the people at the table to click "Next deal" before the
    #: match goes on anyway (counted from the end of the deal, and again after a restart)
    result_seconds: float = 120.0
    #: seconds a disconnected player's seat waits before a bot plays for it, at a table with a time limit
    disconnect_grace: float = 20.0
    #: at a table without a time limit a disconnected player's seat waits for them; after this many
    #: seconds the others may agree to let a bot play for them (the ``let_bot`` message)
    let_bot_after: float = 60.0
    #: largest client message accepted, in bytes
    max_message_bytes: int = 4096
    #: largest HTTP request body accepted, in bytes
    max_body_bytes: int = 16384
    #: sessions, connections and tables one address or player may make (see throttle.py)
    quotas: Quotas = field(default_factory=Quotas)
    #: whether a table's creator may choose its seed at any table (tests only: the seed fixes the
    #: deals, so whoever knows it knows every hand); without it only at a practice table
    allow_chosen_seeds: bool = False
    #: messages per second a connection may send (a burst of twice this is allowed)
    rate_per_second: float = 20.0
    #: extra origins allowed to open the WebSocket (the server's own origin always is)
    allowed_origins: tuple[str, ...] = ()
    #: seconds a bot may think before a random legal action is played for it
    bot_budget: float = 10.0
    #: worker processes for the strong bots: one per core this process may run on, since one process
    #: queues every table's turns behind its longest decision while the other cores sit idle
    bot_processes: int = field(default_factory=lambda: len(os.sched_getaffinity(0)))
    #: low-priority worker processes for long work (analyses, par replays, what-if lines, hints):
    #: at most this many pieces run at once, always below the bots (``longwork.py``)
    long_work_processes: int = 1
    #: the job queue long work runs on (docs/queue.md): ``sqlite:<path>`` or a ``redis://`` URL; None: the
    #: Redis of ``redis_url`` if set, else a SQLite file beside the store; ``pool``: no queue, this
    #: process's own pool (``longwork.py``)
    long_work_queue: str | None = None
    #: whether the server starts ``long_work_processes`` workers of its own on that queue (off: the work is
    #: done by ``ulti worker``s on other machines)
    long_work_local: bool = True
    #: whether the strong bots' turns are jobs on that queue (highest priority, nearest deadline first)
    #: rather than calls to this process's own bot processes (``ulti/queue/botturns.py``; off: on one
    #: machine the queue costs a turn more than it earns, docs/queue.md)
    bots_on_queue: bool = False
    #: how much long work each account and address may ask for (``workquota.py``)
    work: WorkQuotas = field(default_factory=WorkQuotas)
    #: worker threads for bots
    bot_threads: int = 2
    #: serve GET /metrics (Prometheus); a process reachable from outside without a proxy may turn it off
    metrics: bool = True
    #: seconds a table out of the lobby (finished, expired) stays in memory after its last event,
    #: request or watcher; then it is unloaded and reloaded from the store when someone asks for it
    unload_idle_seconds: float = 120.0
    #: seconds an unstarted table waits after its last event (created, a seat taken or left, a chat
    #: line) before it expires and leaves the lobby
    expire_unstarted_seconds: float = 2700.0

    @classmethod
    def for_tests(cls, db_url: str) -> Settings:
        """Settings with no waiting, for scripted clients."""
        return cls(
            db_url=db_url,
            bot_delay=0.0,
            trick_pause=0.0,
            between_deals=0.0,
            result_seconds=0.5,
            disconnect_grace=1.0,
            let_bot_after=1.0,
            rate_per_second=500.0,
            quotas=TEST_QUOTAS,
            work=TEST_WORK,
            allow_chosen_seeds=True,
        )
