"""A first-in, first-out queue read by one task: what ``asyncio.Queue`` offers a single reader, without its
bookkeeping for many readers and writers, joins and bounds.

Every message to or from a socket passes through one: a connection's outgoing messages (``hubcore.Outbox``)
and the frames a socket received, on their way to the task that reads them (``wsprotocol``); the load
run's profile showed ``asyncio.Queue``'s own calls on that path.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class OneReaderQueue(Generic[T]):
    """Items in the order put, read by one task at a time (``put_nowait``, ``get``, ``get_nowait``, ``empty``,
    ``qsize`` as ``asyncio.Queue`` has them)."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        """Empty."""
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None  # the reader's, while it waits

    def qsize(self) -> int:
        """How many items wait."""
        return len(self._items)

    def empty(self) -> bool:
        """Whether no item waits."""
        return not self._items

    def put_nowait(self, item: T) -> None:
        """Add ``item`` at the end and wake the reader if it waits."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def idle(self) -> bool:
        """Whether nothing waits and the reader waits for the next item (has taken all before it)."""
        waiter = self._waiter
        return not self._items and waiter is not None and not waiter.done()

    def get_nowait(self) -> T:
        """The first item (``asyncio.QueueEmpty`` if there is none)."""
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    async def get(self) -> T:
        """The first item, once there is one (one reader at a time: a second raises ``RuntimeError``)."""
        while not self._items:
            if self._waiter is not None:
                raise RuntimeError("a one-reader queue has one reader")
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        return self._items.popleft()
