"""Limits on what one player or one address may cost the server: sessions, connections, tables.

Rates are the ``limits`` library's, counted in moving windows in this process's memory (behind several
processes each keeps its own count, which bounds a client by the number of processes at worst).
Open-connection caps are plain counters: they go up at accept and down at close.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field

from limits import RateLimitItem, parse, parse_many

from ulti.movingwindows import MovingWindows
from ulti.server.inputs import BadInput

#: players whose message allowance is remembered before idle ones are forgotten
MAX_BUCKETS = 10000


@dataclass
class Quotas:
    """How much each player and each address may use (``Settings`` holds the configured values)."""

    sessions_per_address: str = "30/minute"
    connects_per_address: str = "120/minute"
    connects_per_player: str = "30/minute"
    tables_per_player: str = "20/hour"
    #: chat lines (table and lobby, free text and phrases): the page shows the same limit before it is hit
    chat_per_player: str = "4 per 8 seconds"
    connections_per_player: int = 8
    connections_per_address: int = 64
    #: requests of one API token to the bot API (docs/bot-api.md): acts, chat, streams opened, …
    api_per_token: str = "20/second;600/minute"
    #: NDJSON streams one API token may hold open at once (in each process)
    streams_per_token: int = 8


@dataclass
class MessageBucket:
    """A player's WebSocket message allowance: ``rate`` a second, bursts of twice that.

    One bucket per player, shared by all their sockets and kept after they close: a new socket
    brings no fresh burst, so hanging up and reconnecting buys a flooder nothing.
    """

    rate: float
    tokens: float = 0.0
    last_refill: float = field(default_factory=time.monotonic)
    last_refusal: float = 0.0  # when the player was last told they send too fast

    def __post_init__(self) -> None:
        """Start full."""
        self.tokens = 2 * self.rate

    def take(self) -> bool:
        """Spend one message; False (and nothing spent) when over the rate."""
        now = time.monotonic()
        self.tokens = min(2 * self.rate, self.tokens + (now - self.last_refill) * self.rate)
        self.last_refill = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def should_answer(self) -> bool:
        """Whether a dropped message is answered (at most one refusal a second)."""
        now = time.monotonic()
        if now - self.last_refusal < 1.0:
            return False
        self.last_refusal = now
        return True

    def pause(self) -> float:
        """Seconds not to read after a dropped message: a quarter of a message's allowance.

        A flooding socket is then read at most four times the rate (80 frames a second by default):
        a few hundred microseconds of the server's time a second, while a client that stops
        flooding has its backlog drained within seconds.
        """
        return 0.25 / self.rate

    def no_credit(self) -> None:
        """The pause just taken earns no allowance."""
        self.last_refill = time.monotonic()


@dataclass
class Throttle:
    """The counters behind ``Quotas``; every check raises ``BadInput`` naming when to try again."""

    quotas: Quotas
    message_rate: float = 20.0
    _buckets: dict[str, MessageBucket] = field(default_factory=dict)
    _limiter: MovingWindows = field(default_factory=MovingWindows)  # no timer thread (ulti/movingwindows.py)
    _open_by_player: Counter[str] = field(default_factory=Counter)
    _open_by_address: Counter[str] = field(default_factory=Counter)

    def new_session(self, address: str) -> None:
        """A guest session is about to be made from ``address``."""
        self._hit(self.quotas.sessions_per_address, "session", address, "new sessions from your address")

    def new_table(self, player_id: str) -> None:
        """``player_id`` is about to create a table."""
        self._hit(self.quotas.tables_per_player, "table", player_id, "tables created by you")

    def chat_line(self, player_id: str) -> None:
        """``player_id`` is about to say a chat line (at a table or in the lobby)."""
        self._hit(self.quotas.chat_per_player, "chat", player_id, "chat lines")

    def api_request(self, token_id: str) -> None:
        """A bot API request made with token ``token_id``."""
        for item in parse_many(self.quotas.api_per_token):
            self._hit_item(item, "api", token_id, "requests with this token", self.quotas.api_per_token)

    def open_connection(self, player_id: str, address: str) -> None:
        """A WebSocket of ``player_id`` from ``address`` is about to be accepted; count it as open."""
        if self._open_by_player[player_id] >= self.quotas.connections_per_player:
            limit = self.quotas.connections_per_player
            raise BadInput(
                "too_many_connections",
                f"at most {limit} connections per player: close another tab first",
                params={"limit": limit},
            )
        if self._open_by_address[address] >= self.quotas.connections_per_address:
            limit = self.quotas.connections_per_address
            raise BadInput(
                "too_many_connections", f"at most {limit} connections per address", params={"limit": limit}
            )
        self._hit(self.quotas.connects_per_address, "connect", address, "connections from your address")
        self._hit(self.quotas.connects_per_player, "connect-player", player_id, "connections by you")
        self._open_by_player[player_id] += 1
        self._open_by_address[address] += 1

    def bucket(self, player_id: str) -> MessageBucket:
        """``player_id``'s message allowance (shared by their sockets, kept across reconnects)."""
        bucket = self._buckets.get(player_id)
        if bucket is None:
            if len(self._buckets) >= MAX_BUCKETS:
                self._forget_idle_buckets()
            bucket = self._buckets[player_id] = MessageBucket(self.message_rate)
        return bucket

    def _forget_idle_buckets(self) -> None:
        # A bucket untouched for longer than a full refill takes is full again: forgetting it changes nothing.
        horizon = time.monotonic() - 2.0
        for player_id in [p for p, b in self._buckets.items() if b.last_refill < horizon]:
            del self._buckets[player_id]

    def close_connection(self, player_id: str, address: str) -> None:
        """A WebSocket counted by ``open_connection`` closed."""
        for counter, key in ((self._open_by_player, player_id), (self._open_by_address, address)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]

    def _hit(self, rate: str, kind: str, key: str, what: str) -> None:
        self._hit_item(parse(rate), kind, key, what, rate)

    def _hit_item(self, item: RateLimitItem, kind: str, key: str, what: str, rate: str) -> None:
        if self._limiter.test(item, kind, key):
            self._limiter.hit(item, kind, key)
            return
        reset = self._limiter.get_window_stats(item, kind, key).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        raise BadInput(
            "rate_limited", f"too many {what} (at most {rate}): try again in {wait} s", params={"retry_after": wait}
        )
