"""What the routes take from the application, as FastAPI dependencies: the match service and
the other per-process objects (set up by :func:`keltis.server.app.create_app` and its
lifespan, kept in ``app.state``), the client's language and a seat's token."""

from __future__ import annotations

import asyncio
import hmac
from typing import Annotated, cast
from urllib.parse import urlsplit

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from keltis.server import guards
from keltis.server.accounts import LoggedIn
from keltis.server.answers import RefusedError, request_lang
from keltis.server.master import MatchMaster
from keltis.server.replays import ReplayCache

#: The log-in session's cookie.
SESSION_COOKIE = "keltis_session"
#: The header that must repeat the session's ``csrf`` token on a state-changing request.
CSRF_HEADER = "X-CSRF-Token"
#: Methods that change nothing: no cross-site check.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

bearer = HTTPBearer(auto_error=False, description="A seat's (or the host's) secret token")


async def _master(connection: HTTPConnection) -> MatchMaster:
    return cast(MatchMaster, connection.app.state.master)


async def _replays(connection: HTTPConnection) -> ReplayCache:
    return cast(ReplayCache, connection.app.state.replays)


async def _creations(connection: HTTPConnection) -> guards.PerAddress:
    return cast(guards.PerAddress, connection.app.state.creations)


async def _connections(connection: HTTPConnection) -> guards.Connections:
    return cast(guards.Connections, connection.app.state.connections)


async def _lang(connection: HTTPConnection) -> str:
    return request_lang(connection)


async def _token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> str | None:
    return None if credentials is None else credentials.credentials


#: The match service of this process.
Master = Annotated[MatchMaster, Depends(_master)]
#: The replays of recently asked-for finished matches.
Replays = Annotated[ReplayCache, Depends(_replays)]
#: New matches each address may create.
Creations = Annotated[guards.PerAddress, Depends(_creations)]
#: The live connections held, by address.
Connections = Annotated[guards.Connections, Depends(_connections)]
#: The client's language (``Accept-Language``).
Lang = Annotated[str, Depends(_lang)]
#: The request's bearer token (a seat's or the host's), if it has one.
Token = Annotated[str | None, Depends(_token)]


def address_of(connection: HTTPConnection) -> str:
    """The client's address as the server sees it (behind a trusted proxy, the one the
    proxy names), ``?`` if it has none."""
    return connection.client.host if connection.client else "?"


def address_limit(connection: HTTPConnection, name: str) -> None:
    """Refuse (``429`` ``account.slow_down``) a request over its address's allowance
    ``name`` in ``app.state.account_limits`` (``logins``: ``--login-rate``; ``signups``:
    ``--signup-rate``; ``mails``: ``--mail-rate``)."""
    if not connection.app.state.account_limits[name].take(address_of(connection)):
        raise RefusedError("account.slow_down", status=429)


def session_secret(connection: HTTPConnection) -> str | None:
    """The session cookie's secret, if the request has one that may be one."""
    secret = connection.cookies.get(SESSION_COOKIE)
    if not secret or len(secret) > 128:
        return None
    return secret


async def _viewer(connection: HTTPConnection) -> LoggedIn | None:
    """The log-in session the request's cookie holds, if any (an unknown, expired or
    malformed cookie is no session)."""
    secret = session_secret(connection)
    if secret is None:
        return None
    master = cast(MatchMaster, connection.app.state.master)
    return await asyncio.to_thread(master.accounts.session, secret)


def same_site(connection: HTTPConnection, session: LoggedIn) -> bool:
    """Whether a state-changing request that the session's cookie authenticates comes from
    the client itself: it repeats the session's ``csrf`` token (which no other site can
    read), and its ``Origin``, if it has one, is the server's (its public address, or the
    address the request was made to)."""
    token = connection.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(token.encode("utf-8", "replace"), session.csrf.encode()):
        return False
    origin = connection.headers.get("origin")
    return origin is None or origin in _own_origins(connection)


def _own_origins(connection: HTTPConnection) -> set[str]:
    """The origins of the client's own pages: the public address's, and that of the
    address the request was made to (a WebSocket's ``ws``/``wss`` as ``http``/``https``)."""
    public = urlsplit(connection.app.state.config.public_url)
    allowed = {f"{public.scheme}://{public.netloc}"}
    host = connection.headers.get("host")
    if host:
        scheme = {"ws": "http", "wss": "https"}.get(connection.url.scheme, connection.url.scheme)
        allowed.add(f"{scheme}://{host}")
    return allowed


def live_session_secret(connection: HTTPConnection) -> str | None:
    """The session cookie's secret a live connection's handshake carried, if it comes from
    the client's own pages. A WebSocket carries no CSRF header: a handshake with another
    site's ``Origin`` is taken as without a session (its cookie is not used)."""
    secret = connection.cookies.get(SESSION_COOKIE)
    if not secret or len(secret) > 128:
        return None
    origin = connection.headers.get("origin")
    if origin is not None and origin not in _own_origins(connection):
        return None
    return secret


async def _member(
    connection: HTTPConnection, viewer: Annotated[LoggedIn | None, Depends(_viewer)]
) -> LoggedIn:
    """The request's log-in session, required (``401``), and for a state-changing request
    proven to come from the client itself (``403`` ``account.cross_site``)."""
    if viewer is None:
        raise RefusedError("account.no_session", status=401)
    method = connection.scope.get("method", "GET")
    if method not in SAFE_METHODS and not same_site(connection, viewer):
        raise RefusedError("account.cross_site", status=403)
    return viewer


#: The request's log-in session, if it has one (no cross-site check: for reading, or
#: where a session only adds to what a guest may do — then check :func:`same_site`).
Viewer = Annotated[LoggedIn | None, Depends(_viewer)]
#: The request's log-in session, required; a state-changing request must prove it comes
#: from the client (:func:`same_site`).
Member = Annotated[LoggedIn, Depends(_member)]
