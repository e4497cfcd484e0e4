"""The one-reader queue that carries every socket's messages (``onereader.OneReaderQueue``): the items in the
order put, a waiting reader woken, and a second reader refused."""

from __future__ import annotations

import asyncio

import pytest

from ulti.server.onereader import OneReaderQueue
from ulti.server.wsprotocol import WebSocketProtocol


def test_a_one_reader_queue_gives_items_in_order_and_wakes_its_waiting_reader() -> None:
    async def scenario() -> list[int]:
        queue: OneReaderQueue[int] = OneReaderQueue()
        got: list[int] = []

        async def reader() -> None:
            while (item := await queue.get()) >= 0:
                got.append(item)

        task = asyncio.create_task(reader())
        await asyncio.sleep(0)
        assert queue.idle() and queue.empty()  # the reader waits on an empty queue
        for n in range(5):
            queue.put_nowait(n)
        assert queue.qsize() == 5 and not queue.idle()
        await asyncio.sleep(0)
        queue.put_nowait(5)
        queue.put_nowait(-1)
        await task
        return got

    assert asyncio.run(scenario()) == [0, 1, 2, 3, 4, 5]


def test_a_one_reader_queue_refuses_a_second_reader_and_an_empty_get_nowait() -> None:
    async def scenario() -> None:
        queue: OneReaderQueue[str] = OneReaderQueue()
        with pytest.raises(asyncio.QueueEmpty):
            queue.get_nowait()
        first = asyncio.create_task(queue.get())
        await asyncio.sleep(0)
        with pytest.raises(RuntimeError, match="one reader"):
            await queue.get()
        queue.put_nowait("a")
        assert await first == "a"

    asyncio.run(scenario())


def test_a_sockets_received_messages_wait_in_a_one_reader_queue() -> None:
    """uvicorn's ``receive`` reads what the protocol queued (put_nowait, get, empty are all it uses)."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    async def app(scope: object, receive: object, send: object) -> None:  # never called
        raise AssertionError

    async def scenario() -> dict[str, object]:
        protocol = WebSocketProtocol(Config(app=app, ws_per_message_deflate=False), ServerState(), {})
        assert isinstance(protocol.queue, OneReaderQueue)
        reading = asyncio.create_task(protocol.receive())
        await asyncio.sleep(0)
        protocol.queue.put_nowait({"type": "websocket.receive", "text": "{}"})
        return dict(await reading)

    assert asyncio.run(scenario()) == {"type": "websocket.receive", "text": "{}"}
