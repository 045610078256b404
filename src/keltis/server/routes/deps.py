"""What the routes take from the application, as FastAPI dependencies: the match service and
the other per-process objects (set up by :func:`keltis.server.app.create_app` and its
lifespan, kept in ``app.state``), the client's language and a seat's token."""

from __future__ import annotations

from typing import Annotated, cast

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from keltis.server import guards
from keltis.server.answers import request_lang
from keltis.server.master import MatchMaster
from keltis.server.replays import ReplayCache

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
