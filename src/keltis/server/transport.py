"""uvicorn's WebSocket protocol as the server runs it: a text frame that is not UTF-8 ends
its connection with one warning line.

uvicorn (its websockets sans-I/O protocol) logs such a frame as an error with a
traceback, and then, since the websockets library has already begun to close the
connection (code 1007), fails the transport with a second traceback: a client sending
such frames over and over would fill the log. Here the frame is recognised before it
reaches the application, logged once as what it is, and the connection closes with 1007
as the WebSocket standard asks."""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

log = logging.getLogger("keltis.server")


#: Seconds a client has to answer the server's closing of a connection before the
#: connection is dropped (uvicorn waits 10): a client that never answers holds a file
#: descriptor until then.
CLOSE_TIMEOUT = 3.0


class LiveProtocol(WebSocketsSansIOProtocol):
    """uvicorn's protocol, with text that is not UTF-8 refused quietly (above), and a
    shorter wait for a client's answer to a close."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.close_timeout = CLOSE_TIMEOUT

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                self.frames = []
                client = f"{self.client[0]}:{self.client[1]}" if self.client else "a client"
                log.warning("%s sent text that is not UTF-8: connection closed (1007)", client)
                if self.conn.state is State.OPEN:
                    self.conn.send_close(1007, "not UTF-8")
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()
