"""uvicorn's WebSocket protocol, with a handshake that a too-long request line cannot hang, and a
text frame written at once.

When ``websockets`` refuses a handshake while parsing it (a request line or header over its
limits, such as a 10 KiB token in the query string), it prepares a ``414``/``400`` answer and
yields no request event. uvicorn 0.54's sans-I/O protocol only writes answers in reply to a
request event, so that answer was never sent and the client waited forever. This subclass
writes it and closes the connection.

``send_text_now`` writes a text frame from plain (synchronous) code: what uvicorn's ``send`` does for a
``websocket.send`` message once the socket is open and writable, without a coroutine or a task to run it.
The server writes every event this way when nothing waits in the connection's outbox (``hubcore.Outbox``).
It takes the message's UTF-8 bytes (orjson's output as it is) and frames them itself (``text_frame``):
a server's text frame with no extension is a fixed header before the bytes (RFC 6455 §5.2), and building
it through ``websockets``' frame objects cost more than the rest of the write but the system call.
"""

from __future__ import annotations

import struct

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

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
    """``WebSocketsSansIOProtocol`` that answers a handshake refused by the parser instead of hanging."""

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
        """Write ``data`` (UTF-8 text) as one text frame now; False (nothing written) unless the handshake is
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
        earlier = conn.data_to_send()  # whatever the connection still has to send (a pong) goes first
        self.transport.write(b"".join([*earlier, frame]) if earlier else frame)
        return True
