"""The live WebSocket's session protocol: one client's connection, from its ``hello`` to its
last message (docs/server.md, "Live play").

The client says hello first (within ``hello_timeout``), with its seat's token or none to
watch; it gets a snapshot, then every step as its seat may see it. Its requests (``act``,
``hint``, ``undo``, ``stand_in``, ``reclaim``, ``sync``, ``ping``) go to the match service,
and ``chat`` to the match's chat (:mod:`keltis.server.chat`), each answered with its ``ref``;
a refused one gets an ``error``. A sender task writes the queued messages, so that a slow
client never holds up the others (one that falls too far behind is let go), and the
connection's messages are rate-limited (a flood closes it once the answers already queued
have gone out).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from keltis.core.errors import KeltisError
from keltis.i18n import LANGUAGES, Translator
from keltis.messages import Phrase
from keltis.server.accounts import Account
from keltis.server.answers import RefusedError, printable, refusal_json, request_lang
from keltis.server.chat import PLAYERS, SPECTATORS, Speaker, seat_of_account, seat_speaker
from keltis.server.describe import dumps
from keltis.server.livematch import Client, LiveMatch
from keltis.server.master import MatchMaster
from keltis.server.ratelimit import TokenBucket
from keltis.server.wirecheck import BadMessageError, parse_message

log = logging.getLogger("keltis.server")

#: The message types a client may send on the live WebSocket.
CLIENT_TYPES = ("hello", "act", "hint", "undo", "stand_in", "reclaim", "sync", "ping", "chat")

#: The longest ``ref`` a client may give a request (characters); an integer ref must be
#: exact in JavaScript too (|ref| < 2**53).
MAX_REF = 64

#: The longest notation an ``act`` request may give (characters).
MAX_NOTATION = 40

#: Messages queued for a client before it counts as not reading (and is let go).
QUEUE_SIZE = 512


def _ref_of(data: Any) -> tuple[Any, bool]:
    """A request's ``ref`` (``None`` where it has none) and whether it is one the protocol
    refuses: a ref is a text of at most :data:`MAX_REF` characters or an integer that
    JavaScript holds exactly."""
    if not isinstance(data, dict) or data.get("ref") is None:
        return None, False
    ref = data["ref"]
    if (isinstance(ref, str) and len(ref) <= MAX_REF) or (type(ref) is int and abs(ref) < 2**53):
        return ref, False
    return None, True


class _Close:
    """Queued after the last messages a client is to get: its sender closes the connection
    with ``code`` once they are out."""

    def __init__(self, code: int, reason: str) -> None:
        self.code = code
        self.reason = reason


class _Closing(Exception):  # noqa: N818 - not an error: the session ends
    """The session closes its connection (a :class:`_Close` is queued)."""


class LiveSession:
    """One client's WebSocket: hello, then requests, with a sender task so that a slow
    client never holds up the others."""

    def __init__(
        self, socket: WebSocket, master: MatchMaster, session_secret: str | None = None
    ) -> None:
        self.socket = socket
        self.master = master
        #: The log-in session's cookie the handshake carried (from the client's own pages):
        #: a spectator with a session chats on the spectators' channel.
        self.session_secret = session_secret
        #: The account a spectator chats as, and why one without it may not chat.
        self.account: Account | None = None
        self.no_chat = "chat.guest"
        self.config = master.config
        self.queue: asyncio.Queue[dict[str, Any] | _Close | None] = asyncio.Queue(
            maxsize=QUEUE_SIZE
        )
        self.lang = request_lang(socket)
        self.bucket = TokenBucket(self.config.rate, self.config.burst)
        self.flooded = 0
        self.client: Client | None = None
        self.token: str | None = None
        self.live: LiveMatch | None = None

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for the client (never waits)."""
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:  # the client does not read: let it go
            log.warning("a client fell too far behind; closing its connection")
            self.queue = asyncio.Queue(maxsize=1)
            self.queue.put_nowait(_Close(1008, "too slow"))

    def close_soon(self, code: int, reason: str) -> None:
        """Close the connection once the messages queued for it are out (from outside the
        connection's own task: its seat's token was revoked)."""
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(_Close(code, reason))

    def close_after_queued(self, code: int, reason: str) -> None:
        """Close the connection once the messages queued for it are out."""
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(_Close(code, reason))
        raise _Closing

    def error(self, key: str, ref: Any = None, **params: Any) -> None:
        """Tell the client of a refusal (message key ``key``)."""
        self.send(self._error({"code": key, "message": Translator(self.lang)(key, **params)}, ref))

    def _error(self, body: dict[str, Any], ref: Any) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "error", **body}
        if self.live is not None:
            message["version"] = self.live.match.ply
        if ref is not None:
            message["ref"] = ref
        return message

    async def _sender(self) -> None:
        while True:
            message = await self.queue.get()
            if message is None:
                return
            if isinstance(message, _Close):
                await self.socket.close(code=message.code, reason=message.reason)
                return
            try:
                await self.socket.send_text(dumps(message))
            except (WebSocketDisconnect, RuntimeError, OSError):
                return  # the connection is gone: nothing more to send
            except Exception:  # a message that cannot be sent: never wedge the connection
                log.exception("could not send a message; closing the connection")
                with contextlib.suppress(Exception):
                    await self.socket.close(code=1011)
                return

    async def run(self, match_id: str) -> None:
        """Serve the connection (accepted already) until it ends."""
        sender = asyncio.get_running_loop().create_task(self._sender())
        try:
            await self._serve(match_id)
        except (WebSocketDisconnect, _Closing):
            pass
        finally:
            await self._leave()
            # let queued messages (a last error) go out, then stop
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(sender, timeout=2)
            sender.cancel()
            if self.socket.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await self.socket.close()

    async def _receive(self) -> tuple[dict[str, Any] | None, Any]:
        """The next client message as a JSON object with its ``ref``, or ``None`` (refused
        and answered; the ``ref`` where one could be read)."""
        message = await self.socket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message.get("text")
        if text is None:
            text = message.get("bytes") or b""
        size = len(text.encode()) if isinstance(text, str) else len(text)
        if size > self.config.max_message:
            self.take_rate(None)
            self.error("server.too_big", size=size, limit=self.config.max_message)
            return None, None
        refused: BadMessageError | None = None
        try:
            data = parse_message(text)
        except BadMessageError as bad:
            data, refused = None, bad
        ref, bad_ref = _ref_of(data)
        if not self.take_rate(ref):
            return None, None
        if refused is not None:
            self.error(refused.key, **refused.params)
            return None, None
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            self.error("server.not_object", ref)
            return None, None
        if bad_ref:
            self.error("server.bad_field", field="ref", expected=Phrase("server.expected.ref"))
            return None, None
        if data["type"] not in CLIENT_TYPES:
            self.error(
                "server.unknown_type",
                ref,
                type=printable(data["type"]),
                types=", ".join(CLIENT_TYPES),
            )
            return None, None
        return data, ref

    def take_rate(self, ref: Any) -> bool:
        """Count a message against the connection's rate: ``False`` (the client told, with
        the message's ``ref``) when it is over; a flood closes the connection once the
        answers already queued have gone out."""
        if self.bucket.take():
            return True
        self.flooded += 1
        if self.flooded >= self.config.flood_close:
            self.close_after_queued(1008, "too many messages")
        self.error("server.rate_limited", ref)
        return False

    async def _hello(self, match_id: str) -> tuple[LiveMatch, int | None]:
        """Wait for the client's hello (its first message, within ``hello_timeout``): the
        match and the seat its token opens (``None``: watching)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.config.hello_timeout
        while True:
            try:
                data, ref = await asyncio.wait_for(self._receive(), deadline - loop.time())
            except TimeoutError:
                self.error("server.hello_late", seconds=round(self.config.hello_timeout))
                self.close_after_queued(1008, "no hello")
            if data is None:
                continue
            if data["type"] != "hello":
                self.error("server.hello_first", ref)
                continue
            lang = data.get("lang")
            if isinstance(lang, str) and lang.lower()[:2] in LANGUAGES:
                self.lang = lang.lower()[:2]
            token = data.get("token")
            if token is not None and not isinstance(token, str):
                self.error(
                    "server.bad_field",
                    ref,
                    field="token",
                    expected=Phrase("server.expected.text_or_null"),
                )
                continue
            try:
                live = await self.master.get(match_id)
            except RefusedError as refused:
                self.send(self._error(refusal_json(refused, self.lang), ref))
                self.close_after_queued(1000, "no such match")
            seat = None
            if token is not None:
                seat = await self.master.seat_for_token(match_id, token)
                if seat is None:
                    self.error("server.bad_token", ref)
                    continue
                self.token = token
            return live, seat

    async def _serve(self, match_id: str) -> None:
        live, seat = await self._hello(match_id)
        self.live = live
        channel = await self._chat_channel(live, seat)
        account_id = None if self.account is None else self.account.id
        client = Client(
            seat, self.lang, self.send, channel, account_id, self.close_soon, self.token
        )
        self.client = client
        if client.chat is not None:
            await self.master.chat.follow(live.id)
        await self.master.arrive(live, client)
        while True:
            data, ref = await self._receive()
            if data is None:
                continue
            try:
                await self._handle(live, client, data, ref)
            except (RefusedError, KeltisError) as error:
                self.send(self._error(refusal_json(error, self.lang), ref))

    async def _handle(
        self, live: LiveMatch, client: Client, data: dict[str, Any], ref: Any
    ) -> None:
        """Answer one request; a refusal raised here is told with the request's ``ref``."""
        kind = data["type"]
        if kind == "ping":
            self.send({"type": "pong", "version": live.match.ply, "ref": ref})
            return
        if kind == "sync":
            await self.master.resync(live, client)
            return
        if kind == "hello":
            raise RefusedError(
                "server.bad_field", field="type", expected=Phrase("server.expected.hello_once")
            )
        if kind == "chat":
            await self.master.chat.say(live, self._speaker(live, client), data.get("text"))
            self.send({"type": "ack", "version": live.match.ply, "ref": ref})
            return
        if client.seat is None:
            raise RefusedError("server.spectator")
        await self._play(live, client.seat, kind, data, ref)

    async def _chat_channel(self, live: LiveMatch, seat: int | None) -> str | None:
        """The chat channel of this connection: a seat's is the players'; a spectator's
        whose handshake carried a live session the spectators' — unless its account plays
        a seat of this match (players never hear the spectators). ``None``: no chat."""
        if seat is not None:
            return PLAYERS
        if self.session_secret is None:
            return None
        logged = await asyncio.to_thread(self.master.accounts.session, self.session_secret)
        if logged is None:
            return None
        if seat_of_account(live, logged.account.id) is not None:
            self.no_chat = "chat.seated"
            return None
        self.account = logged.account
        return SPECTATORS

    def _speaker(self, live: LiveMatch, client: Client) -> Speaker:
        """Who this connection chats as (a refusal where it may not chat)."""
        if client.seat is not None:
            return seat_speaker(live, client.seat)
        if client.chat == SPECTATORS and self.account is not None:
            if seat_of_account(live, self.account.id) is not None:  # it took a seat since
                raise RefusedError("chat.seated", status=403)
            name = self.account.name
            return Speaker(SPECTATORS, None, name, self.account.id, name)
        raise RefusedError(self.no_chat, status=403)

    async def _play(
        self, live: LiveMatch, seat: int, kind: str, data: dict[str, Any], ref: Any
    ) -> None:
        """A seat's request: ``stand_in``, ``reclaim``, ``undo``, ``hint`` or ``act``."""
        if kind == "stand_in":
            await self.master.stand_in(live, _whole(data, "seat", "server.expected.seat"))
            self.send({"type": "ack", "version": live.match.ply, "ref": ref})
            return
        if kind == "reclaim":
            await self.master.reclaim(live, seat)
            self.send({"type": "ack", "version": live.match.ply, "ref": ref})
            return
        version = _whole(data, "version", "server.expected.version")
        if kind == "undo":
            now_at = await self.master.undo(live, seat, version)
            self.send({"type": "ack", "version": now_at, "ref": ref})
            return
        if kind == "hint":
            hints = await self.master.hints(live, seat, version)
            self.send({"type": "hints", "version": version, "hints": hints, "ref": ref})
            return
        address = self.socket.client.host if self.socket.client else None
        step = await self.master.act(live, seat, _action(data), version, address)
        self.send({"type": "ack", "version": step.ply, "ref": ref})

    async def _leave(self) -> None:
        if self.live is not None and self.client is not None:
            await self.master.leave(self.live, self.client)


def _whole(data: dict[str, Any], name: str, expected: str) -> int:
    """The request's field ``name``, a whole number (else refused: ``expected`` says what
    it should be)."""
    value = data.get(name)
    if type(value) is not int:
        raise RefusedError("server.bad_field", field=name, expected=Phrase(expected))
    return value


def _action(data: dict[str, Any]) -> str | int:
    """The request's action: a notation of at most :data:`MAX_NOTATION` characters, or an
    action id in its game."""
    action = data.get("action")
    if not isinstance(action, (str, int)) or isinstance(action, bool):
        raise RefusedError(
            "server.bad_field", field="action", expected=Phrase("server.expected.action")
        )
    if isinstance(action, str) and len(action) > MAX_NOTATION:
        raise RefusedError(
            "server.bad_field", field="action", expected=Phrase("server.expected.notation")
        )
    return action
