"""People looking for a game ("seeks"), paired into tables, and the lobby's count of who is online.

A seek says: "seat me with other people for a match of so many deals; after ``wait`` seconds, fill
the seats nobody took with bots" (at the ladder's level nearest the seekers' ratings: ``bot_choice``).
Three seekers of one match length sit together at once; fewer sit together when the first of their
waits is up, the rest of the seats going to bots. A seek lasts as long as the connection that made it
(or until it is cancelled or paired).

Seeks live in one book for all the server's processes: a dict here, a Redis hash with a pairing lock
in a cluster (so that one process pairs at a time and a seeker is seated once). Every process
reads the book once per tick and pushes ``lobby_people`` (the seeks and the counts) to its lobby
watchers when something changed; the players of a new table are told with ``seek_paired`` by the
process that holds their connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypedDict

from ulti.server.auth import new_id
from ulti.server.errors import CommandError
from ulti.server.logs import log
from ulti.server.table_settings import BotSeat, InviteSeat, MeSeat, SeatChoice, TableSettings

if TYPE_CHECKING:
    from ulti.server.hubcore import Connection

#: the waits a seeker may choose (seconds before bots fill the seats nobody took)
SEEK_WAITS = (10, 30, 60, 120)
SEEK_DEALS = (6, 9, 12)
#: a seek table's time per move: strangers at one table should not wait on each other for ever
SEEK_MOVE_SECONDS = 60
#: seconds between two looks at the book (pairing the due seeks, pushing changed counts)
TICK_SECONDS = 1.0
SEEKS_KEY = "ulti:seeks"
SEEKS_LOCK = "ulti:seeks:lock"
PEOPLE_PREFIX = "ulti:people:"
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


class PublicSeek(TypedDict):
    """A seek as every lobby watcher sees it: who, how many deals, how long they wait, when bots fill in (ms)."""

    player: str
    name: str
    deals: int
    wait: int
    due: int


class LobbyPeople(TypedDict):
    """The ``lobby_people`` message (docs/protocol/messages.md): people online and playing, the open seeks."""

    type: Literal["lobby_people"]
    online: int
    playing: int
    seeks: list[PublicSeek]


@dataclass(frozen=True)
class Seek:
    """One person's wish for a game."""

    player_id: str
    name: str
    deals: int
    wait: int
    since: float  # epoch seconds
    #: the connection that made it (its closing cancels the seek)
    token: str

    @property
    def due(self) -> float:
        """When the seats nobody took go to bots (epoch seconds)."""
        return self.since + self.wait

    def public(self) -> PublicSeek:
        """What every lobby watcher sees of it (never the connection's token)."""
        return {"player": self.player_id, "name": self.name, "deals": self.deals, "wait": self.wait,
                "due": int(self.due * 1000)}

    def dumps(self) -> str:
        """The seek as stored in a cluster's book."""
        return json.dumps(asdict(self))

    @staticmethod
    def loads(text: str) -> Seek:
        """A seek stored by ``dumps``."""
        data = json.loads(text)
        return Seek(str(data["player_id"]), str(data["name"]), int(data["deals"]), int(data["wait"]),
                    float(data["since"]), str(data["token"]))


def check_seek(deals: object, wait: object) -> tuple[int, int]:
    """``(deals, wait)`` of a seek request, or ``bad_seek`` naming the field."""
    if type(deals) is not int or deals not in SEEK_DEALS:
        raise CommandError("bad_seek", f"deals must be one of {', '.join(map(str, SEEK_DEALS))}")
    if type(wait) is not int or wait not in SEEK_WAITS:
        raise CommandError("bad_seek", f"wait must be one of {', '.join(map(str, SEEK_WAITS))} seconds")
    return deals, wait


def pair(seeks: Iterable[Seek], now: float) -> list[list[Seek]]:
    """The groups of seekers to seat together now, oldest seek first in each group.

    Seekers of one match length sit three together as soon as there are three; the one or two left
    sit together (with bots) once the earliest of their waits is up.
    """
    groups: list[list[Seek]] = []
    by_deals: dict[int, list[Seek]] = {}
    for seek in sorted(seeks, key=lambda s: (s.since, s.player_id)):
        by_deals.setdefault(seek.deals, []).append(seek)
    for _deals, pool in sorted(by_deals.items()):
        while len(pool) >= 3:
            groups.append(pool[:3])
            pool = pool[3:]
        if pool and min(s.due for s in pool) <= now:
            groups.append(pool)
    return groups


class SeekBook(Protocol):
    """Where the seeks are kept: this process alone, or every process through Redis."""

    async def put(self, seek: Seek) -> None:
        """Add or replace the player's seek."""
        ...

    async def remove(self, player_id: str, token: str | None = None) -> bool:
        """Drop the player's seek (only the one made by connection ``token``, if given); True if one went."""
        ...

    async def all(self) -> list[Seek]:
        """Every seek now."""
        ...

    async def take(self, seeks: list[Seek]) -> list[Seek]:
        """Remove ``seeks`` from the book; those that were still there (the others were cancelled)."""
        ...

    def pairing(self) -> contextlib.AbstractAsyncContextManager[bool]:
        """Hold the right to pair (True), or learn that another process pairs now (False)."""
        ...


class LocalBook:
    """The seeks of a server that runs alone."""

    def __init__(self) -> None:
        """An empty book."""
        self._seeks: dict[str, Seek] = {}
        self._lock = asyncio.Lock()

    async def put(self, seek: Seek) -> None:
        """Add or replace the player's seek."""
        self._seeks[seek.player_id] = seek

    async def remove(self, player_id: str, token: str | None = None) -> bool:
        """Drop the player's seek (only connection ``token``'s, if given)."""
        seek = self._seeks.get(player_id)
        if seek is None or (token is not None and seek.token != token):
            return False
        del self._seeks[player_id]
        return True

    async def all(self) -> list[Seek]:
        """Every seek now."""
        return list(self._seeks.values())

    async def take(self, seeks: list[Seek]) -> list[Seek]:
        """Remove ``seeks``; those that were still there."""
        return [s for s in seeks if self._seeks.get(s.player_id) == s and self._seeks.pop(s.player_id)]

    @contextlib.asynccontextmanager
    async def pairing(self) -> AsyncIterator[bool]:
        """One pairing at a time in this process."""
        async with self._lock:
            yield True


class RedisBook:
    """The seeks of a cluster: a Redis hash by player, and a lock so that one process pairs at a time."""

    def __init__(self, redis: Any, process_id: str) -> None:
        """The book on ``redis`` (the cluster's client), for process ``process_id``."""
        self.redis = redis
        self.process_id = process_id

    async def put(self, seek: Seek) -> None:
        """Add or replace the player's seek."""
        await self.redis.hset(SEEKS_KEY, seek.player_id, seek.dumps())

    async def remove(self, player_id: str, token: str | None = None) -> bool:
        """Drop the player's seek (only connection ``token``'s, if given)."""
        if token is not None:
            stored = await self.redis.hget(SEEKS_KEY, player_id)
            if stored is None or Seek.loads(stored).token != token:
                return False
        return bool(await self.redis.hdel(SEEKS_KEY, player_id))

    async def all(self) -> list[Seek]:
        """Every seek now."""
        return [Seek.loads(v) for v in (await self.redis.hgetall(SEEKS_KEY)).values()]

    async def take(self, seeks: list[Seek]) -> list[Seek]:
        """Remove ``seeks``; those that were still there (HDEL answers 0 for one cancelled meanwhile)."""
        async with self.redis.pipeline(transaction=True) as pipe:
            for seek in seeks:
                pipe.hdel(SEEKS_KEY, seek.player_id)
            removed = await pipe.execute()
        return [s for s, n in zip(seeks, removed, strict=True) if n]

    @contextlib.asynccontextmanager
    async def pairing(self) -> AsyncIterator[bool]:
        """The cluster's pairing lock, if free (it expires by itself should this process die)."""
        took = await self.redis.set(SEEKS_LOCK, self.process_id, nx=True, px=10_000)
        try:
            yield bool(took)
        finally:
            if took:
                await self.redis.eval(_RELEASE, 1, SEEKS_LOCK, self.process_id)


class SeatingHub(Protocol):
    """What the matchmaker asks of the hub: its connections and tables, and seating people."""

    connections: Any
    cluster: Any

    async def create_table(
        self, player_id: str, name: str, settings: TableSettings, account: bool = False,
        event: tuple[str, int] | None = None,
    ) -> tuple[str, dict[int, str]]:
        """Create a table; its id and invite tokens."""
        ...

    async def join(
        self, table_id: str, player_id: str, name: str, seat: object, invite: object, account: bool = False
    ) -> int:
        """Seat a player."""
        ...

    async def add_bot(self, table_id: str, player_id: str, seat: object, level: object) -> None:
        """Seat a bot."""
        ...

    async def start(self, table_id: str, player_id: str, fill_bots: bool) -> None:
        """Start a match."""
        ...

    async def level_for_people(self, player_ids: Sequence[str]) -> str:
        """The level of the bots that fill seats for these people (``bot_choice``)."""
        ...


class Matchmaker:
    """The seeks of the lobby, their pairing, and the count of people online and playing."""

    def __init__(self, hub: SeatingHub, playing: Callable[[Connection], bool]) -> None:
        """The matchmaker of ``hub``; ``playing(conn)``: whether the connection's player is seated at a
        match being played."""
        self.hub = hub
        self._playing = playing
        cluster = hub.cluster
        self.book: SeekBook = LocalBook() if cluster is None else RedisBook(cluster.redis, cluster.process_id)
        self._last: LobbyPeople | None = None  # the last lobby_people pushed
        self._wake = asyncio.Event()

    # ---------------------------------------------------------------- seekers

    async def seek(self, conn: Connection, deals: object, wait: object) -> None:
        """``conn``'s player looks for a game (replacing an earlier seek of theirs)."""
        deals, wait = check_seek(deals, wait)
        conn.seek_token = conn.seek_token or new_id()
        await self.book.put(Seek(conn.player_id, conn.name, deals, wait, time.time(), conn.seek_token))
        log("seek", player=conn.player_id, deals=deals, wait=wait)
        self._wake.set()

    async def cancel(self, conn: Connection) -> None:
        """``conn``'s player no longer looks for a game."""
        await self.book.remove(conn.player_id)
        conn.seek_token = None
        self._wake.set()

    async def closed(self, conn: Connection) -> None:
        """``conn`` closed: the seek it made goes (one made from another tab stays)."""
        if conn.seek_token is not None and await self.book.remove(conn.player_id, conn.seek_token):
            self._wake.set()

    # ---------------------------------------------------------------- the counts

    def local_people(self) -> tuple[set[str], set[str]]:
        """The people with a connection to this process (bot API streams are programs, not counted), and
        those of them seated at a match being played."""
        people = [c for c in self.hub.connections if not c.program]
        online = {c.player_id for c in people}
        playing = {c.player_id for c in people if self._playing(c)}
        return online, playing

    async def people(self) -> tuple[int, int]:
        """How many people are online (with an open connection) and how many of them are playing."""
        online, playing = self.local_people()
        cluster = self.hub.cluster
        if cluster is not None:
            # each process's own sets, renewed every tick and expiring with a dead process
            keys = [k async for k in cluster.redis.scan_iter(match=PEOPLE_PREFIX + "*")]
            for raw in await cluster.redis.mget(keys) if keys else []:
                if raw:
                    data = json.loads(raw)
                    online.update(data.get("online", []))
                    playing.update(data.get("playing", []))
        return len(online), len(playing)

    async def snapshot(self) -> LobbyPeople:
        """The ``lobby_people`` message now: the counts and the open seeks, oldest first."""
        online, playing = await self.people()
        seeks = sorted(await self.book.all(), key=lambda s: s.since)
        return {"type": "lobby_people", "online": online, "playing": playing, "seeks": [s.public() for s in seeks]}

    # ---------------------------------------------------------------- the loop

    async def run_forever(self) -> None:
        """Every tick (or at once after a seek): publish this process's people, pair the due seeks, push changes."""
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), TICK_SECONDS)
            self._wake.clear()
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis briefly away, a table refused: try again next tick
                import logging

                logging.getLogger("ulti").exception("matchmaking tick failed")

    async def tick(self) -> None:
        """One look at the book: pair, then tell this process's lobby watchers what changed."""
        cluster = self.hub.cluster
        if cluster is not None:
            online, playing = self.local_people()
            await cluster.redis.set(
                PEOPLE_PREFIX + cluster.process_id, json.dumps({"online": sorted(online), "playing": sorted(playing)}),
                px=int(TICK_SECONDS * 3000),
            )
        await self.pair_due()
        if not self.hub.connections.lobby_watchers():
            # nobody here to tell: no counts made (a look at every socket). The next watcher gets the counts
            # as it comes in, and the first tick after that pushes them again.
            self._last = None
            return
        message = await self.snapshot()
        if message != self._last:
            self._last = message
            for conn in list(self.hub.connections.lobby_watchers()):  # those still here after the counts
                conn.send(message)

    async def pair_due(self) -> list[str]:
        """Seat the groups that are due now; the new tables' ids."""
        tables: list[str] = []
        async with self.book.pairing() as mine:
            if not mine:
                return tables
            groups = pair(await self.book.all(), time.time())
            for group in groups:
                seated = await self.book.take(group)
                if seated:
                    tables.append(await self._seat(seated))
        return tables

    async def _seat(self, group: list[Seek]) -> str:
        """A table for ``group`` (the oldest seeker hosts), the free seats filled with bots, and the news."""
        host = group[0]
        # the bots play at the ladder's level nearest the seekers' ratings (a newcomer's: the lowest rung)
        level = await self.hub.level_for_people([seek.player_id for seek in group])
        bots = [BotSeat(kind="bot", level=level)] * (3 - len(group))
        seats: list[SeatChoice] = [MeSeat(kind="me"), *[InviteSeat(kind="invite")] * (len(group) - 1), *bots]
        config = TableSettings(deals=host.deals, move_seconds=SEEK_MOVE_SECONDS, seats=seats)
        table_id, invites = await self.hub.create_table(host.player_id, host.name, config)
        for seat, seek in enumerate(group[1:], start=1):
            try:
                await self.hub.join(table_id, seek.player_id, seek.name, seat, invites[seat])
            except CommandError as exc:  # they cannot sit there (e.g. a rule of accounts): a bot does
                log("seek not seated", player=seek.player_id, code=exc.code)
                await self.hub.add_bot(table_id, host.player_id, seat, level)
        await self.hub.start(table_id, host.player_id, True)
        log("seeks paired", table=table_id, players=len(group))
        news = {s.player_id: table_id for s in group}
        self.deliver(news)
        if self.hub.cluster is not None:
            await self.hub.cluster.publish_lobby({"kind": "paired", "players": news})
        return table_id

    def deliver(self, news: dict[str, str]) -> None:
        """Tell this process's connections of the seated players where their table is."""
        for conn in list(self.hub.connections.lobby_watchers()):
            table_id = news.get(conn.player_id)
            if table_id is not None:
                conn.seek_token = None
                conn.send({"type": "seek_paired", "table": table_id})
