"""Server settings, from the command line and the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass
class Settings:
    """Everything the server needs to know at start."""

    db_url: str = "sqlite+aiosqlite:///data/ulti.db"
    #: Redis URL shared by several server processes (None: a single process)
    redis_url: str | None = None
    #: seconds a table's ownership lease lasts unless its owner renews it
    lease_seconds: float = 5.0
    secret: str | None = field(default_factory=lambda: os.environ.get("ULTI_SECRET"))
    #: seconds a bot waits before acting, so that people can follow the play
    bot_delay: float = 0.7
    #: seconds between the end of a deal and the next deal
    between_deals: float = 4.0
    #: seconds a disconnected player's seat waits before a bot plays for it
    disconnect_grace: float = 20.0
    #: largest client message accepted, in bytes
    max_message_bytes: int = 4096
    #: messages per second a connection may send (a burst of twice this is allowed)
    rate_per_second: float = 20.0
    #: extra origins allowed to open the WebSocket (the server's own origin always is)
    allowed_origins: tuple[str, ...] = ()
    #: seconds a bot may think before a random legal action is played for it
    bot_budget: float = 10.0
    #: worker processes for the strong bots
    bot_processes: int = 1
    #: worker threads for bots
    bot_threads: int = 2

    @classmethod
    def for_tests(cls, db_url: str) -> Settings:
        """Settings with no waiting, for scripted clients."""
        return cls(db_url=db_url, bot_delay=0.0, between_deals=0.0, disconnect_grace=1.0, rate_per_second=500.0)
