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
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State


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

    def send_text_now(self, text: str) -> bool:
        """Write ``text`` as one text frame now; False (nothing written) unless the handshake is done, no
        close was sent or received, and the transport is not paused by flow control (``send`` would wait).
        Never raises for a closing socket: the caller is a broadcast to every watcher."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.transport.is_closing()
            or self.conn.state is not State.OPEN  # a close frame came in: send_text would raise
        ):
            return False
        self.conn.send_text(text.encode())
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True
