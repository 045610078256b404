"""The live WebSocket's address, ``/api/matches/{id}/live``: a connection is admitted (or
refused before the upgrade, over a limit) and handed to its session
(:mod:`keltis.server.session`)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from keltis.server.answers import error_response, request_lang
from keltis.server.routes.deps import Connections, Master, address_of, live_session_secret
from keltis.server.session import LiveSession

router = APIRouter()

#: Seconds a refused client is asked to wait before it tries again.
RETRY_AFTER = "10"


@router.websocket("/api/matches/{match_id}/live")
async def live_socket(
    socket: WebSocket, match_id: str, master: Master, connections: Connections
) -> None:
    address = address_of(socket)
    refused = connections.admit(address)
    if refused is not None:
        # refused before the upgrade: an HTTP answer, and the connection closes at once
        # (a WebSocket close would wait for the client's reply, holding a file)
        status = 429 if refused == "server.too_many_connections" else 503
        answer = error_response(status, refused, request_lang(socket))
        answer.headers["Retry-After"] = RETRY_AFTER
        await socket.send_denial_response(answer)
        return
    await socket.accept()
    try:
        await LiveSession(socket, master, live_session_secret(socket)).run(match_id)
    finally:
        connections.release(address)
