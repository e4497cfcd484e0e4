"""A message is written to its socket at once when nothing waits before it, and queued otherwise: either
way every connection receives its messages in the order they were sent (issue 40's server cost)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import orjson
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode
from websockets.protocol import State

from ulti.server.hubcore import Connection
from ulti.server.wsprotocol import WebSocketProtocol


class _Socket:
    """Where both ways of writing put their messages: the direct one while ``open``, the writer task always."""

    def __init__(self) -> None:
        self.written: list[int] = []
        self.open = True
        self.direct = 0

    def write_now(self, message: Mapping[str, object]) -> bool:
        if not self.open:
            return False
        self.direct += 1
        self.written.append(int(str(message["n"])))
        return True

    async def writer(self, conn: Connection) -> None:
        while (message := await conn.outbox.get()) is not None:
            self.written.append(int(str(message["n"])))
            await asyncio.sleep(0)  # a write that waits, as one paused by flow control does


def test_messages_go_out_in_order_whether_written_at_once_or_queued() -> None:
    async def scenario() -> tuple[list[int], int]:
        socket = _Socket()
        conn = Connection("p1", "Anna", write_now=socket.write_now)
        writer = asyncio.create_task(socket.writer(conn))
        n = 0
        for step in range(30):
            socket.open = step % 7 not in (3, 4)  # now and then the socket cannot be written at once
            for _ in range(step % 3 + 1):  # bursts: the later ones find the first still queued
                conn.send({"n": n})
                n += 1
            if step % 2:
                for _ in range(step % 5 * 6):  # sometimes long enough for the writer to empty the outbox
                    await asyncio.sleep(0)
        for _ in range(10):
            await asyncio.sleep(0)
        conn.outbox.put_nowait(None)
        await writer
        return socket.written, socket.direct

    written, direct = asyncio.run(scenario())
    assert written == list(range(len(written))) and len(written) == 60
    assert 0 < direct < 60  # both ways were taken


def test_a_connection_writes_at_once_only_while_its_writer_waits_with_nothing_queued() -> None:
    async def scenario() -> tuple[int, int, int]:
        socket = _Socket()
        conn = Connection("p1", "Anna", write_now=socket.write_now)
        conn.send({"n": 0})  # no writer waits yet (the socket's first message): queued
        queued_before_writer = conn.outbox.qsize()
        writer = asyncio.create_task(socket.writer(conn))
        for _ in range(3):
            await asyncio.sleep(0)
        conn.send({"n": 1})  # the writer waits on an empty outbox: written at once
        direct_after = socket.direct
        conn.outbox.put_nowait(None)
        await writer
        return queued_before_writer, direct_after, len(socket.written)

    assert asyncio.run(scenario()) == (1, 1, 2)


def _open_protocol() -> tuple[WebSocketProtocol, list[bytes]]:
    """A server-side protocol whose handshake is done, writing into a list."""
    written: list[bytes] = []

    class Transport:
        closing = False

        def write(self, data: bytes) -> None:
            written.append(data)

        def is_closing(self) -> bool:
            return self.closing

        def close(self) -> None:
            self.closing = True

    async def app(scope: object, receive: object, send: object) -> None:  # never called
        raise AssertionError

    protocol = WebSocketProtocol(Config(app=app, ws_per_message_deflate=False), ServerState(), {})
    protocol.transport = Transport()  # type: ignore[assignment]
    protocol.conn.state = State.OPEN
    protocol.handshake_complete = True
    return protocol, written


def test_send_text_now_writes_one_text_frame_and_refuses_while_paused_or_closing() -> None:
    async def scenario() -> None:
        protocol, written = _open_protocol()
        text = orjson.dumps({"type": "event", "seq": 3})
        assert protocol.send_text_now(text)
        await asyncio.sleep(0)  # written at the end of the loop's turn
        assert len(written) == 1
        frame = written[0]
        assert frame[0] == 0x80 | Opcode.TEXT and frame[2:] == text  # FIN + text, unmasked, short
        assert frame[1] == len(text)  # a server's frame is unmasked, its short length in the second byte
        protocol.writable.clear()  # flow control paused the transport: uvicorn's send would wait
        assert not protocol.send_text_now(text)
        protocol.writable.set()
        protocol.conn.state = State.CLOSING  # the client's close frame came in (uvicorn's send would raise)
        assert not protocol.send_text_now(text)
        protocol.conn.state = State.OPEN
        protocol.close_sent = True
        assert not protocol.send_text_now(text)
        await asyncio.sleep(0)
        assert len(written) == 1

    asyncio.run(scenario())


def test_a_frame_written_at_once_reads_back_as_its_text_at_every_length_encoding() -> None:
    """The frame built by hand (``wsprotocol.text_frame``) is what a WebSocket client reads as the text sent:
    lengths in the second byte (up to 125), in 16 bits (up to 65,535) and in 64 bits; and what the protocol
    still had to send (a pong) goes out first."""
    from websockets.protocol import CLIENT, Protocol

    async def scenario() -> None:
        protocol, written = _open_protocol()
        client = Protocol(CLIENT, state=State.OPEN, max_size=None)  # a client past its handshake
        protocol.conn.send_pong(b"ping!")  # queued in the protocol, not yet written
        texts = ["", "é♠" * 20, "x" * 125, "y" * 126, "z" * 65_535, "w" * 65_536, "ü" * 40_000]
        for text in texts:
            assert protocol.send_text_now(text.encode())
        await asyncio.sleep(0)
        client.receive_data(b"".join(written))
        frames = [event for event in client.events_received() if isinstance(event, Frame)]
        assert [f.opcode for f in frames] == [Opcode.PONG] + [Opcode.TEXT] * len(texts)
        assert frames[0].data == b"ping!"
        assert [bytes(f.data).decode() for f in frames[1:]] == texts and all(f.fin for f in frames[1:])

    asyncio.run(scenario())


def test_no_frame_is_written_at_once_when_an_extension_was_agreed() -> None:
    """An agreed extension (compression) transforms every frame: such a socket's messages take uvicorn's
    ``send`` (the writer task), never the frame built by hand."""
    from websockets.extensions.permessage_deflate import PerMessageDeflate

    async def scenario() -> None:
        protocol, written = _open_protocol()
        protocol.conn.extensions = [PerMessageDeflate(False, False, 15, 15)]
        assert not protocol.send_text_now(b'{"type": "event"}')
        await asyncio.sleep(0)
        assert written == []

    asyncio.run(scenario())


def _texts(data: bytes) -> list[str]:
    """The text frames in ``data`` (a server's frames), read by a WebSocket client."""
    from websockets.protocol import CLIENT, Protocol

    client = Protocol(CLIENT, state=State.OPEN, max_size=None)
    client.receive_data(data)
    frames = [e for e in client.events_received() if isinstance(e, Frame)]
    return [bytes(f.data).decode() for f in frames if f.opcode is Opcode.TEXT]


def test_the_frames_a_socket_is_sent_in_one_turn_of_the_loop_go_out_in_one_write() -> None:
    """A command's event and its acknowledgement, sent back to back, cost one write (one system call)."""

    async def scenario() -> None:
        protocol, written = _open_protocol()
        assert protocol.send_text_now(b'{"type":"event","seq":7}')
        assert protocol.send_text_now(b'{"type":"ack","id":1,"seq":7}')
        assert written == []  # nothing is written before the turn ends
        await asyncio.sleep(0)
        assert len(written) == 1
        assert _texts(written[0]) == ['{"type":"event","seq":7}', '{"type":"ack","id":1,"seq":7}']
        assert protocol.send_text_now(b'{"type":"event","seq":8}')  # the next turn: a write of its own
        await asyncio.sleep(0)
        assert len(written) == 2 and _texts(written[1]) == ['{"type":"event","seq":8}']

    asyncio.run(scenario())


def test_what_uvicorn_sends_after_a_held_frame_goes_out_after_it() -> None:
    """A message sent through uvicorn's ``send`` (the writer task's way) in the same turn follows the frames
    held before it: every connection receives its messages in the order they were sent."""

    async def scenario() -> None:
        protocol, written = _open_protocol()
        assert protocol.send_text_now(b'{"n":1}')
        await protocol.send({"type": "websocket.send", "text": '{"n":2}'})
        assert protocol.send_text_now(b'{"n":3}')
        await asyncio.sleep(0)
        assert _texts(b"".join(written)) == ['{"n":1}', '{"n":2}', '{"n":3}']

    asyncio.run(scenario())


def test_a_held_frame_goes_before_the_servers_close_and_nowhere_once_closed() -> None:
    """Nothing may follow a close frame (RFC 6455 §5.5.1): a frame held when the server closes the socket
    goes out before its close frame; one held when the socket closes otherwise in the same turn (uvicorn
    answers a client's close frame at once, and writes its own close when the server stops; the connection
    may be lost) is not written."""
    from websockets.protocol import CLIENT, Protocol

    async def scenario() -> None:
        protocol, written = _open_protocol()
        assert protocol.send_text_now(b'{"n":1}')
        await protocol.send({"type": "websocket.close", "code": 1000})
        await asyncio.sleep(0)
        client = Protocol(CLIENT, state=State.OPEN, max_size=None)
        client.receive_data(b"".join(written))
        frames = [e for e in client.events_received() if isinstance(e, Frame)]
        assert [f.opcode for f in frames] == [Opcode.TEXT, Opcode.CLOSE] and frames[0].data == b'{"n":1}'

        protocol, written = _open_protocol()
        assert protocol.send_text_now(b'{"n":2}')
        protocol.transport.close()  # uvicorn answering the client's close frame, or the connection lost
        await asyncio.sleep(0)
        assert written == []

        protocol, written = _open_protocol()
        assert protocol.send_text_now(b'{"n":3}')
        protocol.shutdown()  # the server stopping: uvicorn writes its close frame itself, then closes
        await asyncio.sleep(0)
        client = Protocol(CLIENT, state=State.OPEN, max_size=None)
        client.receive_data(b"".join(written))
        assert [e.opcode for e in client.events_received() if isinstance(e, Frame)] == [Opcode.CLOSE]

    asyncio.run(scenario())
