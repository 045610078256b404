"""The server's guards at its edge: request bodies read within their limit whatever their
framing (:class:`CheckedBody`), the headers every answer carries (:class:`SecureHeaders`:
the content policy, no framing, no sniffing, no caching of the API), a count of live
connections per address and in all (:class:`Connections`), and a rate per address
(:class:`PerAddress`)."""

from __future__ import annotations

import json
import resource
from typing import Any

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from keltis.i18n import LANGUAGES, Translator
from keltis.server.ratelimit import TokenBucket
from keltis.server.wirecheck import BadMessageError, parse_message

#: File descriptors a process keeps for itself beyond its WebSocket connections: the
#: database's connections, the bot workers' pipes, log files, HTTP requests in flight.
RESERVED_FILES = 100


def request_lang(headers: Headers) -> str:
    """The first of the request's ``Accept-Language`` entries that we speak (else ``en``)."""
    header = headers.get("accept-language", "")[:200]
    for part in header.split(","):
        code = part.split(";")[0].strip().lower().split("-")[0]
        if code in LANGUAGES:
            return code
    return "en"


def error_json(key: str, lang: str, **params: Any) -> dict[str, Any]:
    """The one shape of every refusal: ``{"error": {"code": key, "message": …}}``, the
    message in ``lang``."""
    return {"error": {"code": key, "message": Translator(lang)(key, **params)}}


def connection_limit(reserved: int = RESERVED_FILES) -> int:
    """How many live connections this process can hold: its open-file limit less
    ``reserved`` (at least 16)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 65536
    return max(16, soft - reserved)


def raise_file_limit() -> int:
    """Raise this process's open-file limit to the most it may have (its hard limit, as
    servers commonly do at start); returns the limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft


class Connections:
    """Live connections by address: at most ``per_address`` from one address and
    ``total`` in all."""

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address = per_address
        self.total = total
        self.count = 0
        self.by_address: dict[str, int] = {}

    def admit(self, address: str) -> str | None:
        """Count a new connection from ``address``; or, over a limit, the message key
        saying why it is refused (and nothing counted)."""
        held = self.by_address.get(address, 0)
        if held >= self.per_address:
            return "server.too_many_connections"
        if self.count >= self.total:
            return "server.busy"
        self.by_address[address] = held + 1
        self.count += 1
        return None

    def release(self, address: str) -> None:
        """A connection from ``address`` that :meth:`admit` counted has ended."""
        held = self.by_address.get(address, 0)
        if held <= 1:
            self.by_address.pop(address, None)
        else:
            self.by_address[address] = held - 1
        self.count = max(0, self.count - 1)


class PerAddress:
    """A rate per address: ``rate`` requests per second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, address: str) -> bool:
        """Count a request from ``address``: ``False`` (and nothing counted) when it is over
        its rate."""
        bucket = self.buckets.setdefault(address, TokenBucket(self.rate, self.burst))
        return bucket.take()


class CheckedBody:
    """ASGI middleware: an HTTP request's body is read here, up to ``limit`` bytes whatever
    its framing (``Content-Length`` or chunked), and answered ``413`` as soon as it is
    longer — nothing beyond the limit is ever held. A body that is no JSON the server takes
    (:func:`~keltis.server.wirecheck.parse_message`) is answered ``400``, except under
    :attr:`FORM_PATHS`. The application then reads the body from memory."""

    #: Addresses whose body is a form, not JSON (never read by their route): the one-click
    #: unsubscribe, which mail programs post as ``List-Unsubscribe=One-Click`` (RFC 8058).
    FORM_PATHS = ("/api/unsubscribe/",)

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._answer(send, 413, "server.too_big", headers, size=length[:20])
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._answer(send, 413, "server.too_big", headers, size=size)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body.strip() and not str(scope.get("path", "")).startswith(self.FORM_PATHS):
            try:
                parse_message(body)
            except BadMessageError as bad:
                await self._answer(send, 400, bad.key, headers, **bad.params)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _answer(
        self, send: Send, status: int, key: str, headers: Headers, **params: Any
    ) -> None:
        if key == "server.too_big":
            params["limit"] = self.limit
        body = json.dumps(
            error_json(key, request_lang(headers), **params),
            ensure_ascii=False,
            separators=(",", ":"),
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


#: The browser client's content policy (the start page and every HTML answer without a
#: policy of its own): scripts, styles and everything else only from the server's own files
#: — no inline script, no ``eval``, no plug-in — and no page of another site may frame it.
#: ``'self'`` in ``connect-src`` also admits the live WebSocket (``ws:``/``wss:`` to the
#: same host, CSP level 3); ``data:`` images are for the browser's own use (no script).
CLIENT_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
#: FastAPI's page of the API (``/api/docs``): Swagger UI from its CDN and the page's one
#: inline script, which sets it up (the page holds nothing from a request).
DOCS_POLICY = (
    "default-src 'none'; script-src 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'unsafe-inline' https://cdn.jsdelivr.net; "
    "img-src 'self' data: https://cdn.jsdelivr.net https://fastapi.tiangolo.com; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: The page of the API, served with :data:`DOCS_POLICY`.
DOCS_PATH = "/api/docs"
#: Where a link from the client leads, the address it left is not told — only to the
#: server's own pages (``no-referrer`` would make browsers send ``Origin: null`` with the
#: client's own requests, which the log-in session's origin check refuses).
REFERRER_POLICY = "same-origin"
#: The API's answers are nobody's to keep (seat tokens, accounts, hands): an answer that
#: says nothing of caching is not stored by the browser nor any cache on the way.
API_CACHE = "no-store"


class SecureHeaders:
    """ASGI middleware: the headers every HTTP answer carries.

    * ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy`` (:data:`REFERRER_POLICY`)
      on every answer;
    * an HTML answer gets a ``Content-Security-Policy`` (:data:`CLIENT_POLICY`; the API's
      page :data:`DOCS_POLICY`) unless its route set one — which then gets
      ``frame-ancestors 'none'`` if it says nothing of framing — and ``X-Frame-Options:
      DENY`` for browsers without CSP;
    * an answer under ``/api/`` that says nothing of caching gets ``Cache-Control:
      no-store`` (:data:`API_CACHE`); those that may be kept (the catalogs: an ``ETag`` and
      ``no-cache``) say so themselves.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                secure(MutableHeaders(scope=message), path)
            await send(message)

        await self.app(scope, receive, send_secured)


def secure(headers: MutableHeaders, path: str) -> None:
    """Add to an answer's ``headers`` for ``path`` what :class:`SecureHeaders` adds."""
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", REFERRER_POLICY)
    if path.startswith("/api/"):
        headers.setdefault("Cache-Control", API_CACHE)
    if headers.get("content-type", "").startswith("text/html"):
        policy = headers.get("content-security-policy")
        if policy is None:
            docs = path == DOCS_PATH or path.startswith(DOCS_PATH + "/")
            headers["Content-Security-Policy"] = DOCS_POLICY if docs else CLIENT_POLICY
        elif "frame-ancestors" not in policy:
            headers["Content-Security-Policy"] = f"{policy}; frame-ancestors 'none'"
        headers.setdefault("X-Frame-Options", "DENY")
