"""uvicorn's WebSocket protocol as the server runs it: a text frame that is not UTF-8 ends
its connection with one warning line.

uvicorn (its websockets sans-I/O protocol) logs such a frame as an error with a
traceback, and then, since the websockets library has already begun to close the
connection (code 1007), fails the transport with a second traceback: a client sending
such frames over and over would fill the log. Here the frame is recognised before it
reaches the application, logged once as what it is, and the connection closes with 1007
as the WebSocket standard asks.

Messages under :data:`COMPRESS_FROM` bytes go out uncompressed even where the client asked
for permessage-deflate (RFC 7692 lets a sender choose per message: the first frame's RSV1
bit says which). Each compression made the event loop's thread give up the interpreter lock
twice (zlib runs without it) and wait to get it back while the database threads ran: a fifth
of the loop's time under load, for steps of a few kilobytes (docs/server.md, "Load").
Clients may still compress what they send.

A connection refused before the upgrade (``429``/``503``: too many connections) is answered
with HTTP (ASGI's WebSocket denial response). uvicorn's protocol writes that answer but never
marks the handshake done, so when the application returns it logged "ASGI callable returned
without completing handshake." as an error (and tried to send a 500 as well), and the
websockets library added a line of its own ("connection rejected"): three lines, one an
error, for every refusal — over a thousand errors while one address crowded a server. Here
the denial completes the handshake, and uvicorn's one line (address, path and status, at
INFO) is all a refusal logs."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import CTRL_OPCODES, Frame, Opcode
from websockets.protocol import State
from websockets.typing import ExtensionParameter

if TYPE_CHECKING:
    from uvicorn._types import ASGISendEvent

log = logging.getLogger("keltis.server")
#: The websockets library's logger for a refused upgrade: uvicorn has logged it already.
_QUIET = logging.getLogger("keltis.server.refused")
_QUIET.setLevel(logging.WARNING)


#: Seconds a client has to answer the server's closing of a connection before the
#: connection is dropped (uvicorn waits 10): a client that never answers holds a file
#: descriptor until then.
CLOSE_TIMEOUT = 3.0

#: Messages shorter than this (bytes) are sent uncompressed: every step and snapshot of a
#: match (a step carries the seat's whole view, 3–8 kB); only what is longer is compressed.
COMPRESS_FROM = 32768


class ShortPlainDeflate(PerMessageDeflate):
    """permessage-deflate that sends a message shorter than :data:`COMPRESS_FROM` as it is
    (its frame without RSV1; the compressor's window never sees it, as RFC 7692 asks)."""

    plain = False

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode in CTRL_OPCODES:
            return frame
        if frame.opcode is not Opcode.CONT:  # a message begins: decide for all its frames
            self.plain = frame.fin and len(frame.data) < COMPRESS_FROM
        return frame if self.plain else super().encode(frame)


class ShortPlainDeflateFactory(ServerPerMessageDeflateFactory):
    """uvicorn's permessage-deflate offer, its extension a :class:`ShortPlainDeflate`."""

    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        answer, made = super().process_request_params(params, accepted_extensions)
        return answer, ShortPlainDeflate(
            made.remote_no_context_takeover,
            made.local_no_context_takeover,
            made.remote_max_window_bits,
            made.local_max_window_bits,
            made.compress_settings,
        )


class LiveProtocol(WebSocketsSansIOProtocol):
    """uvicorn's protocol, with text that is not UTF-8 refused quietly (above), short
    messages uncompressed, a shorter wait for a client's answer to a close, and an upgrade
    refused with an HTTP answer logged once, as what it is."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.close_timeout = CLOSE_TIMEOUT
        self.conn.available_extensions = [
            _short_plain(offer) if isinstance(offer, ServerPerMessageDeflateFactory) else offer
            for offer in self.conn.available_extensions or ()
        ]

    async def send(self, message: ASGISendEvent) -> None:
        refusal_ends = message["type"] == "websocket.http.response.body" and not message.get(
            "more_body", False
        )
        if refusal_ends:  # uvicorn logged the refusal: the websockets library need not
            self.conn.logger = _QUIET
        await super().send(message)
        if refusal_ends:  # the HTTP answer was the handshake's end
            self.handshake_complete = True

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


def _short_plain(offer: ServerPerMessageDeflateFactory) -> ShortPlainDeflateFactory:
    """``offer`` (uvicorn's), its short messages sent uncompressed."""
    return ShortPlainDeflateFactory(
        server_no_context_takeover=offer.server_no_context_takeover,
        client_no_context_takeover=offer.client_no_context_takeover,
        server_max_window_bits=offer.server_max_window_bits,
        client_max_window_bits=offer.client_max_window_bits,
        compress_settings=offer.compress_settings,
        require_client_max_window_bits=offer.require_client_max_window_bits,
    )
