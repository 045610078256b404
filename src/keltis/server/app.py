"""The server's application (FastAPI): ``create_app(config)`` assembles the routers
(:mod:`keltis.server.routes`), the guards at its edge, the refusals' one shape, and — while
it runs — the match service with its background work.

Every route is under ``/api/``; the OpenAPI document is at ``/openapi.json``. Secrets never
travel in a URL: a seat's token goes in the ``Authorization: Bearer …`` header (HTTP) or in
the first WebSocket message (``hello``); invite codes go in the join request's body (the
invite *link* carries its code after ``#``, which browsers do not send to the server).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import sys
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from keltis.core.version import __version__
from keltis.server import guards
from keltis.server.answers import (
    RefusedError,
    bad_request,
    error_response,
    invalid_request,
    refusal_response,
    request_lang,
)
from keltis.server.config import ServerConfig
from keltis.server.db import DB_THREADS, make_engine, migrate
from keltis.server.master import MatchMaster
from keltis.server.notifier import Notifier
from keltis.server.passwords import PasswordWork
from keltis.server.pool import Pool, PoolStore
from keltis.server.replays import ReplayCache
from keltis.server.reviews import ReviewQueue, ReviewStore, server_budget
from keltis.server.routes import accounts, chat, health, info, live, mail, matches, players, records
from keltis.server.routes import export as export_routes
from keltis.server.routes import friends as friend_routes
from keltis.server.routes import lobby as seek_routes
from keltis.server.routes import pool as pool_routes
from keltis.server.routes import recovery as recovery_routes
from keltis.server.routes import reviews as review_routes
from keltis.server.routes import tournaments as tournament_routes
from keltis.server.routes.client import STATIC_DIR, client_router
from keltis.server.routes.moderation import moderation_router, reports_router
from keltis.server.seeks import LobbyEvents, Seeks, SeekStore, event
from keltis.server.store import Store
from keltis.server.tasks import Background
from keltis.server.tournaments import Tournaments, TournamentStore
from keltis.server.upkeep import Presence, SeekFiller, Sweeper, Timeouts, every
from keltis.server.workers import WorkerPool

__all__ = ["STATIC_DIR", "create_app", "stopping"]

#: The garbage collector's thresholds while the server runs: full passes over hundreds of
#: live matches pause every match at once, and few of a match's objects form cycles, so it
#: collects less often than by default (docs/server.md, "Load", has the measurements).
GC_THRESHOLDS = (20_000, 20, 50)

#: Seconds a thread runs Python before another thread waiting for the interpreter lock gets
#: it (Python's default: 0.005). The event loop takes the lock back after every wait for
#: the network, and the database threads would hold it for up to this long each time.
SWITCH_INTERVAL = 0.001


def create_app(config: ServerConfig) -> FastAPI:
    """The server's application for ``config`` (the database is migrated at start);
    ``ValueError`` for a review budget that is not one."""
    server_budget(config.review_budget)  # a bad --review-budget stops the start, saying why
    app = FastAPI(
        title="Keltis server",
        version=__version__,
        description="Matches of Keltis (board game and card game): create, join, play live.",
        lifespan=_lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.openapi = functools.partial(_openapi, app)  # type: ignore[method-assign]
    app.state.config = config
    app.state.replays = ReplayCache(config.replay_cache)
    app.state.creations = guards.PerAddress(config.create_rate, 30)
    app.state.connections = guards.Connections(
        config.max_connections_per_address,
        config.max_connections or guards.connection_limit(),
    )
    # the lobby's streams: a few per address; in all, they count among the connections
    app.state.lobby_streams = guards.Connections(config.max_lobby_streams_per_address, 1 << 30)
    app.add_middleware(guards.CheckedBody, limit=config.max_body)
    app.add_middleware(guards.SecureHeaders)  # outermost: every answer, refusals included
    app.exception_handler(RequestValidationError)(_invalid)
    app.exception_handler(HTTPException)(_http_error)
    app.exception_handler(RefusedError)(_refused)
    app.state.account_limits = accounts.limiters(config)
    # password hashes in a small pool of their own, never on the database's threads
    app.state.passwords = PasswordWork(
        config.password_threads, config.password_queue, config.password_rate
    )
    for router in (
        health.router,
        info.router,
        matches.router,
        records.router,
        review_routes.router,
        live.router,
        accounts.router,
        export_routes.router,
        recovery_routes.router,
        players.router,
        mail.router,
        chat.router,
        seek_routes.router,
        pool_routes.router,
        tournament_routes.router,
        friend_routes.router,
        reports_router,
        moderation_router,
    ):
        app.include_router(router)
    static = Path(config.static_dir) if config.static_dir is not None else STATIC_DIR
    app.include_router(client_router(static))  # last: its /{name} is the catch-all
    return app


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """While the server runs: the database, the worker pool, the match service and its
    background work (presence, the sweep, the reviews, PostgreSQL's notifications)."""
    config: ServerConfig = app.state.config
    # The imported code's objects never become garbage: out of the collector's way.
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL)
    # The blocking database work (asyncio.to_thread) in threads of its own, as many as the
    # engine's pool has connections ready for (asyncio's default: the cores + 4).
    loop = asyncio.get_running_loop()
    executor = ThreadPoolExecutor(max_workers=DB_THREADS, thread_name_prefix="keltis-db")
    loop.set_default_executor(executor)
    engine = make_engine(config.database)
    await asyncio.to_thread(migrate, engine)
    store = Store(engine)
    pool = WorkerPool(config.bot_workers)
    background = Background()
    master = MatchMaster(store, config, pool, background)
    app.state.master = master
    background.spawn(Presence(master.cache, store, config.presence_interval).run())
    background.spawn(Sweeper(store, config, master.resume).run())
    background.spawn(Timeouts(store, config, master.resume).run())
    background.spawn(master.rate_pending())
    background.spawn(master.watch_tokens(config.token_check_interval))
    seek_store = SeekStore(store)
    interval = config.lobby_interval * (5 if store.notifies else 1)
    events = LobbyEvents(seek_store, interval, config.lobby_heartbeat)
    app.state.seeks = seeks = Seeks(master, seek_store, events)
    background.spawn(events.run())
    background.spawn(SeekFiller(seeks.fill_due, config.lobby_interval).run())
    # quick pairing: every process pairs the pool (docs/server.md, "Quick pairing")
    app.state.pool = pool_service = Pool(master, PoolStore(store), events, config.lobby_interval)
    background.spawn(pool_service.run())
    # tournaments: every process starts due rounds and scores ended tables (each step
    # claimed in the database), and tells its lobby streams what changed
    app.state.tournaments = tournaments = Tournaments(
        master, TournamentStore(engine), lambda kind, data: events.send(event(kind, data))
    )
    background.spawn(
        every(config.lobby_interval, tournaments.tick, "could not advance the tournaments")
    )
    app.state.reviews = reviews = ReviewQueue(
        ReviewStore(engine),
        pool,
        master.finished_record,
        server_budget(config.review_budget),
        config.review_lease,
        config.review_interval,
        config.review_rate,
    )
    for _ in range(config.review_workers):
        background.spawn(reviews.run())
    if store.notifies:
        notifier = Notifier(master.cache, store.origin, background)
        notifier.handlers["lobby"] = events.notified
        notifier.handlers["chat"] = master.chat.notified
        notifier.handlers["revoke"] = master.revoked_elsewhere
        background.spawn(notifier.listen(config.database))
    try:
        yield
    finally:
        events.close()
        await background.close()
        await reviews.close()
        pool.shutdown()
        app.state.passwords.close()
        engine.dispose()


def stopping(app: FastAPI) -> None:
    """The server is about to stop: end the answers that would never end by themselves —
    the lobby's event streams — since uvicorn waits for every answer under way before it
    stops (``keltis serve`` calls this as its shutdown begins)."""
    seeks: Seeks | None = getattr(app.state, "seeks", None)
    if seeks is not None:
        seeks.events.close()


async def _invalid(request: Request, error: RequestValidationError) -> JSONResponse:
    """A request FastAPI could not read into its parameters: ``400`` saying where (a
    refused name: ``server.bad_name``)."""
    return invalid_request(error.errors(), request_lang(request))


async def _http_error(request: Request, error: HTTPException) -> JSONResponse:
    """Starlette's own refusals (no such address, a method not answered there) in the one
    shape of every refusal."""
    lang = request_lang(request)
    if error.status_code == 404:
        return error_response(404, "server.not_found", lang)
    if error.status_code == 405:
        return error_response(405, "server.bad_method", lang, method=request.method[:10])
    return bad_request(error.status_code, lang, error.detail)


async def _refused(request: Request, error: RefusedError) -> JSONResponse:
    """A request the match service refused, with the refusal's status."""
    return refusal_response(error, request_lang(request), error.status)


#: The one shape of every refusal, as the OpenAPI document shows it.
ERROR_SCHEMA: dict[str, Any] = {
    "title": "Error",
    "type": "object",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "code": {"type": "string", "description": "server.*, refuse.* (a move)"},
                "message": {"type": "string", "description": "in the Accept-Language"},
                "rule": {"type": "string", "description": "a move refused by a rule: its id"},
                "reason": {
                    "type": "string",
                    "description": "with a rule: the message without the rule's id",
                },
            },
            "required": ["code", "message"],
        }
    },
    "required": ["error"],
}


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's OpenAPI document, saying what the server really answers to a request it
    cannot take: ``400`` with the one error shape, not FastAPI's own ``422``."""
    if app.openapi_schema is not None:
        return app.openapi_schema
    schema = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes
    )
    schemas = schema.setdefault("components", {}).setdefault("schemas", {})
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    schemas["Error"] = ERROR_SCHEMA
    error = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            if responses.pop("422", None) is not None:
                responses["400"] = {"description": "The request is not valid", **error}
    app.openapi_schema = schema
    return schema
