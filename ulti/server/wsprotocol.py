"""uvicorn's WebSocket protocol, with a handshake that a too-long request line cannot hang, and a
text frame sent from plain code, the frames of one turn of the loop in one write.

When ``websockets`` refuses a handshake while parsing it (a request line or header over its
limits, such as a 10 KiB token in the query string), it prepares a ``414``/``400`` answer and
yields no request event. uvicorn 0.54's sans-I/O protocol only writes answers in reply to a
request event, so that answer was never sent and the client waited forever. This subclass
writes it and closes the connection.

``send_text_now`` sends a text frame from plain (synchronous) code: what uvicorn's ``send`` does for a
``websocket.send`` message once the socket is open and writable, without a coroutine or a task to run it.
The server writes every event this way when nothing waits in the connection's outbox (``hubcore.Outbox``).
It takes the message's UTF-8 bytes (orjson's output as it is) and frames them itself (``text_frame``):
a server's text frame with no extension is a fixed header before the bytes (RFC 6455 §5.2), and building
it through ``websockets``' frame objects cost more than the rest of the write but the system call.

The frames one socket is sent in one turn of the event loop go out in one write at the end of that turn:
a command's event and its acknowledgement, sent back to back to the player who acted, cost one system
call, not two (the write to a local socket, which also wakes the reader, is the dearest part of sending a
message). Whatever uvicorn itself sends afterwards (a message the writer task sends, a close) goes after
them; a frame held for a socket that was closed meanwhile is dropped with it.
"""

from __future__ import annotations

import struct
from typing import Any

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from ulti.server.onereader import OneReaderQueue

_FIN_TEXT = 0x81  # the final (only) frame of a message, opcode 1: text
_SHORT = struct.Struct("!BB")  # lengths up to 125 in the second byte
_MEDIUM = struct.Struct("!BBH")  # 126, then a 16-bit length
_LONG = struct.Struct("!BBQ")  # 127, then a 64-bit length


def text_frame(data: bytes) -> bytes:
    """``data`` (UTF-8 text) as one unmasked text frame, as a server sends it with no extension."""
    size = len(data)
    if size < 126:
        return _SHORT.pack(_FIN_TEXT, size) + data
    if size < 1 << 16:
        return _MEDIUM.pack(_FIN_TEXT, 126, size) + data
    return _LONG.pack(_FIN_TEXT, 127, size) + data


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """``WebSocketsSansIOProtocol`` that answers a handshake refused by the parser instead of hanging, and
    writes text frames from plain code, one write per socket and turn of the loop."""

    #: the frames sent in this turn of the loop, written at its end (None: none yet)
    _held: list[bytes] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """uvicorn's protocol, whose received messages wait for the app's one reader in a ``OneReaderQueue``."""
        super().__init__(*args, **kwargs)
        # uvicorn's receive uses put_nowait, get and empty, which the lighter queue has alike
        self.queue = OneReaderQueue()  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        """Feed the parser; if it refused the handshake itself, send its refusal and close."""
        if not self.handshake_initiated:
            self.conn.receive_data(data)
            if self.conn.handshake_exc is not None:
                self.transport.write(b"".join(self.conn.data_to_send()))
                self.handshake_complete = self.close_sent = True
                self.transport.close()
                return
            self.handle_events()
            return
        super().data_received(data)

    def send_text_now(self, data: bytes) -> bool:
        """Send ``data`` (UTF-8 text) as one text frame, written at the end of this turn of the loop with the
        socket's other frames of the turn (``write_held``); False (nothing sent) unless the handshake is
        done, no close was sent or received, no extension was agreed (it would transform the frame) and the
        transport is not paused by flow control (``send`` would wait). Never raises for a closing socket: the
        caller is a broadcast to every watcher."""
        conn = self.conn
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.transport.is_closing()
            or conn.state is not State.OPEN  # a close frame came in: send_text would raise
            or conn.extensions
        ):
            return False
        frame = text_frame(data)
        held = self._held
        if held is None:
            held = self._held = []
            self.loop.call_soon(self.write_held)
        if conn.writes:  # whatever the connection still has to send (a pong) goes first
            held.extend(conn.data_to_send())
        held.append(frame)
        return True

    def write_held(self) -> None:
        """Write the frames ``send_text_now`` held in this turn of the loop, in one write (none to a socket
        closed meanwhile: nothing may follow a close frame. A close through ``send`` writes the held frames
        first; uvicorn closes the transport when it writes a close of its own (answering the client's, or
        shutting down), and a lost connection's transport is closing too)."""
        held = self._held
        if held is None:
            return
        self._held = None
        if self.transport.is_closing():
            return
        self.transport.write(held[0] if len(held) == 1 else b"".join(held))

    async def send(self, message: ASGISendEvent) -> None:
        """uvicorn's ``send``, after the frames held for this turn (the order of messages is the order sent)."""
        self.write_held()
        await super().send(message)
