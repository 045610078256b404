"""The HTTP API and the live WebSocket (FastAPI): ``create_app(config)``.

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
import hashlib
import json
import logging
import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.exceptions import HTTPException
from starlette.staticfiles import StaticFiles
from starlette.types import Scope
from starlette.websockets import WebSocketDisconnect, WebSocketState

from keltis import __version__
from keltis.bots.levels import LEVELS
from keltis.catalogs import catalog_json
from keltis.core.errors import IllegalActionError, KeltisError, RecordError
from keltis.games import GAME_NAMES, get_game
from keltis.i18n import LANGUAGES, Translator
from keltis.match import Match
from keltis.messages import Phrase
from keltis.record import GameRecord, PlayerInfo
from keltis.server import guards, workers
from keltis.server.config import ServerConfig
from keltis.server.db import make_engine, migrate
from keltis.server.live import (
    Client,
    Hub,
    LiveMatch,
    RefusedError,
    dumps,
    match_summary,
    new_secret,
    printable,
    record_header,
)
from keltis.server.ratelimit import TokenBucket
from keltis.server.replays import ReplayCache
from keltis.server.store import ConflictError, MatchRow, Store
from keltis.server.tutorials import TUTORIALS
from keltis.server.wirecheck import BadMessageError, parse_message

log = logging.getLogger("keltis.server")

#: The message types a client may send on the live WebSocket.
CLIENT_TYPES = ("hello", "act", "hint", "undo", "stand_in", "reclaim", "sync", "ping")

#: The built browser client (``web/``: ``npm run build`` writes it here; shipped in the
#: package).
STATIC_DIR = Path(__file__).resolve().parent / "static"
#: Vite names every asset by its content's hash: a name never changes its content.
IMMUTABLE = "public, max-age=31536000, immutable"
#: The start page and other files with fixed names: asked again each time (a 304 if unchanged).
NO_CACHE = "no-cache"

#: ``GET /`` when the package has no built client (a checkout before ``npm run build``).
NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Keltis</title></head>
<body><h1>Keltis</h1>
<p>The game server is running, but the browser client is not built. In a checkout of Keltis:
<code>cd web &amp;&amp; npm ci &amp;&amp; npm run build</code> (or <code>make web</code>), then
load this page again.</p>
<p>The server's API is described at <a href="/api/docs">/api/docs</a>.</p>
</body></html>
"""

bearer = HTTPBearer(auto_error=False, description="A seat's (or the host's) secret token")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


#: The longest name of a player or a bot (characters).
MAX_NAME = 40
#: The longest ``ref`` a client may give a request (characters); an integer ref must be
#: exact in JavaScript too (|ref| < 2**53).
MAX_REF = 64
#: The turn clock's default for a match with two people or more: five minutes a decision.
DEFAULT_TURN_SECONDS = 300
#: The longest turn clock: thirty days a decision.
MAX_TURN_SECONDS = 30 * 24 * 3600


class _Strict(BaseModel):
    """A request body: its fields take their own JSON types only (``"1"`` is no number and
    ``"yes"`` no boolean), as the live WebSocket's messages do; unknown fields are
    ignored."""

    model_config = ConfigDict(strict=True)


class SeatRequest(_Strict):
    """One seat of a new match."""

    kind: Literal["person", "bot"] = "person"
    level: Literal["random", "easy", "medium", "hard"] = Field(
        "medium", description="for a bot seat: how strongly it plays"
    )
    name: str | None = Field(
        None, description=f"a bot's name (default its own; 1-{MAX_NAME} characters)"
    )


class CreateMatch(_Strict):
    """A new match: the game, its seats (2-4, people and bots) and its switches."""

    game: Literal["board", "cards"] = "board"
    seats: list[SeatRequest] = Field(min_length=2, max_length=4)
    variant: dict[str, Any] = Field(
        default_factory=dict, description="variant switches (GET /api/games lists them)"
    )
    hints: bool = Field(True, description="players may ask for hints")
    undo: bool = Field(True, description="a player alone against bots may take moves back")
    public: bool = Field(True, description="listed among open and finished matches")
    seed: int | None = Field(
        None,
        ge=0,
        lt=2**63,
        description="the deal: only on a server started with --allow-setup (whoever knows "
        "the seed knows every hand); by default the server deals at random",
    )
    name: str = Field("Player", description=f"the creator's name (1-{MAX_NAME} characters)")
    seat: int | None = Field(
        0, ge=0, le=3, description="the creator's seat (a person seat), or null to only host"
    )
    start: bool = Field(True, description="start at once when no other person is to join")
    turn_seconds: int | None = Field(
        None,
        ge=1,
        le=MAX_TURN_SECONDS,
        description="the turn clock: seconds for each decision, after which the other "
        "players may hand the seat to a bot; null: no limit. Default: "
        f"{DEFAULT_TURN_SECONDS} with two or more person seats, none against bots only",
    )
    setup: dict[str, Any] | None = Field(
        None,
        description="an explicit set-up instead of a seed (the deal chosen by hand, as in a "
        'record\'s setup.explicit; also accepted wrapped as {"explicit": …}); only on a '
        "server started with --allow-setup, for tests and demos",
    )
    tutorial: str | None = Field(
        None,
        max_length=40,
        description="a guided first game by name (GET /api/tutorials lists them): the server "
        "takes its game, seats (the creator in seat 0 against one easy bot), set-up and bot "
        "seeds; only the creator's name is read besides. A 400 tutorial.unknown for a name "
        "it does not know",
    )

    @model_validator(mode="before")
    @classmethod
    def _tutorial_takes_its_seats(cls, data: Any) -> Any:
        """A tutorial takes its own seats, so a request for one may leave ``seats`` out
        (``{"tutorial": "board"}``): whatever seats it gives are replaced anyway."""
        if isinstance(data, dict) and data.get("tutorial") is not None and "seats" not in data:
            return {**data, "seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}]}
        return data


class JoinRequest(_Strict):
    """Take a seat with its invite code."""

    invite: str = Field(min_length=1, max_length=100)
    name: str = Field("Player", description=f"the player's name (1-{MAX_NAME} characters)")


class ActionRequest(_Strict):
    """An action, chosen at ``version``: its notation (``G7``) or its dense index."""

    action: str | int
    version: int = Field(ge=0)


def request_lang(request: Request | WebSocket) -> str:
    """The first of the request's ``Accept-Language`` entries that we speak (else ``en``)."""
    return guards.request_lang(request.headers)


def error_response(status: int, key: str, lang: str, **params: Any) -> JSONResponse:
    """``{"error": {"code": key, "message": …}}`` in the client's language."""
    return JSONResponse(guards.error_json(key, lang, **params), status_code=status)


def name_ok(name: str) -> bool:
    """Whether ``name`` may name a player: 1 to :data:`MAX_NAME` characters, not only
    spaces, no control character or lone surrogate (PostgreSQL text cannot even hold a
    NUL)."""
    # printable() cuts to MAX_NAME and replaces those characters: unchanged means neither
    return len(name) > 0 and not name.isspace() and printable(name, MAX_NAME) == name


def bad_request(status: int, lang: str, detail: object) -> JSONResponse:
    """A ``server.bad_request`` answer saying what is wrong (``detail``: English)."""
    return error_response(status, "server.bad_request", lang, detail=detail)


def request_detail(error: Exception, lang: str) -> str:
    """What was wrong with a request: in ``lang`` where the rules core words it (a refusal's
    key, also under a record's "bad set-up"), else the error's English."""
    cause: BaseException = error
    while isinstance(cause, RecordError) and isinstance(cause.__cause__, KeltisError):
        cause = cause.__cause__
    if isinstance(cause, KeltisError) and cause.key:
        return Translator(lang).refusal(cause)
    return str(error)


def refusal_json(error: Exception, lang: str) -> dict[str, Any]:
    """The ``code`` and ``message`` of a refused request or move; a move refused by a rule
    adds the rule's id (``rule``: ``B-13``), where the rules page explains it."""
    translate = Translator(lang)
    if isinstance(error, RefusedError):
        return {"code": error.key, "message": error.text(translate)}
    if isinstance(error, KeltisError):
        code = f"refuse.{error.key}" if error.key else "refuse"
        out = {"code": code, "message": translate.refusal(error)}
        if isinstance(error, IllegalActionError):
            out["rule"] = error.rule  # the rules page's anchor for the rule that refused it
        return out
    return {"code": "server.bad_request", "message": translate("server.bad_request", detail=error)}


def create_app(config: ServerConfig) -> FastAPI:
    """The server's application for ``config`` (the database is migrated at start)."""
    state: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # The imported code's objects never become garbage: out of the collector's way. And
        # collect less often: a full pass over hundreds of live matches' states pauses every
        # match at once (the load benchmark's p99: 100 ms at the default thresholds, 62 ms
        # with these); few of a match's objects form cycles, so little waits for a pass.
        gc.freeze()
        gc.set_threshold(20_000, 20, 50)
        engine = make_engine(config.database)
        await asyncio.to_thread(migrate, engine)
        store = Store(engine)
        pool = workers.make_pool(config.bot_workers)
        hub = Hub(store, config, pool)
        state.update(store=store, hub=hub)
        hub.spawn(hub.presence())
        hub.spawn(hub.sweeper())
        if store.notifies:
            hub.spawn(hub.listen(config.database))
        try:
            yield
        finally:
            await hub.close()
            hub.pool.shutdown(wait=False, cancel_futures=True)
            engine.dispose()

    app = FastAPI(
        title="Keltis server",
        version=__version__,
        description="Matches of Keltis (board game and card game): create, join, play live.",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.openapi = functools.partial(_openapi, app)  # type: ignore[method-assign]
    creators: dict[str, TokenBucket] = {}
    replays = ReplayCache(config.replay_cache)
    static = Path(config.static_dir) if config.static_dir is not None else STATIC_DIR
    assets = _Static(directory=static / "assets", cache_control=IMMUTABLE)
    top_files = _Static(directory=static, cache_control=NO_CACHE)

    def hub() -> Hub:
        result: Hub = state["hub"]
        return result

    def store() -> Store:
        result: Store = state["store"]
        return result

    app.add_middleware(guards.CheckedBody, limit=config.max_body)
    connections = guards.Connections(
        config.max_connections_per_address,
        config.max_connections or guards.connection_limit(),
    )

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}"
            for e in error.errors()
        )
        return error_response(400, "server.bad_request", request_lang(request), detail=problems)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        lang = request_lang(request)
        if error.status_code == 404:
            return error_response(404, "server.not_found", lang)
        if error.status_code == 405:
            return error_response(405, "server.bad_method", lang, method=request.method[:10])
        return bad_request(error.status_code, lang, error.detail)

    @app.exception_handler(_Answer)
    async def answer(_request: Request, error: _Answer) -> JSONResponse:
        return error.response

    async def seat_of(live: LiveMatch, credentials: Credentials, lang: str) -> int:
        """The seat of the request's token (else a 401 or 403 answer)."""
        if credentials is None:
            raise _Answer(error_response(401, "server.bad_token", lang))
        seat = await asyncio.to_thread(store().seat_for_token, live.id, credentials.credentials)
        if seat is None:
            raise _Answer(error_response(403, "server.bad_token", lang))
        return seat

    async def find(match_id: str, lang: str) -> LiveMatch:
        """The match (else a 404 answer)."""
        try:
            return await hub().get(match_id)
        except RefusedError as refused:
            raise _Answer(
                JSONResponse({"error": refusal_json(refused, lang)}, status_code=404)
            ) from None

    # -- HTTP ------------------------------------------------------------------------------

    @app.get("/api/health", tags=["server"])
    async def health() -> dict[str, Any]:
        """Whether the server is up, and its version."""
        return {"ok": True, "version": __version__}

    @app.get("/api/games", tags=["games"])
    async def games() -> dict[str, Any]:
        """The games, their player counts, variant switches (with defaults) and bot levels."""
        out = []
        for name in GAME_NAMES:
            rules = get_game(name)
            out.append(
                {
                    "name": name,
                    "players": [2, 3, 4],
                    "variant": rules.variant_json(None),
                    "info": {str(n): rules.info(n, None).to_json() for n in (2, 3, 4)},
                }
            )
        levels = [
            {"level": "random", "name": "Random", "description": "plays any legal move"},
            *(
                {"level": key, "name": level.persona, "description": level.description}
                for key, level in LEVELS.items()
            ),
        ]
        return {"games": out, "levels": levels}

    @app.post("/api/matches", tags=["matches"], status_code=201)
    async def create_match(body: CreateMatch, request: Request) -> Any:
        """Create a match. The answer holds the secrets: the host token (to start the match),
        the creator's seat token, and one invite per other person seat — share each invite
        link with one friend."""
        lang = request_lang(request)
        address = request.client.host if request.client else "?"
        bucket = creators.setdefault(address, TokenBucket(config.create_rate, 30))
        if not bucket.take():
            return error_response(429, "server.rate_limited", lang)
        if body.seat is not None and (
            body.seat >= len(body.seats) or body.seats[body.seat].kind != "person"
        ):
            return error_response(
                400, "server.bad_request", lang, detail=f"seat {body.seat} is not a person seat"
            )
        given = [body.name, *(s.name for s in body.seats if s.name is not None)]
        if not all(name_ok(name) for name in given):
            return error_response(400, "server.bad_name", lang, limit=MAX_NAME)
        if body.seed is not None and not config.allow_setup:
            return error_response(403, "server.no_seed", lang)
        lesson = None
        if body.tutorial is not None:
            lesson = TUTORIALS.get(body.tutorial)
            if lesson is None:
                return error_response(400, "tutorial.unknown", lang, name=printable(body.tutorial))
            if body.seed is not None or body.setup is not None:
                return bad_request(400, lang, "give a tutorial or a seed or a set-up, not two")
            body = body.model_copy(
                update={
                    "game": lesson.game,
                    "seats": [
                        SeatRequest.model_validate({"kind": "person"}),
                        SeatRequest.model_validate({"kind": "bot", "level": lesson.bot_level}),
                    ],
                    "variant": {},
                    "seat": 0,
                    "start": True,
                    "public": False,
                    "turn_seconds": None,
                }
            )
        names = _seat_names(body)
        players = [
            PlayerInfo(name, "human" if s.kind == "person" else s.level)
            for name, s in zip(names, body.seats, strict=True)
        ]
        setup = body.setup
        if setup is not None:
            if not config.allow_setup:
                return error_response(403, "server.no_setup", lang)
            if set(setup) == {"explicit"} and isinstance(setup["explicit"], dict):
                setup = setup["explicit"]
            if body.seed is not None:
                return bad_request(400, lang, "give a seed or a set-up, not both")
        if lesson is not None:
            setup = lesson.setup  # the body already took the lesson's game, seats and variant
        try:
            record = _new_record(
                body.game,
                players,
                body.variant,
                seed=body.seed,
                setup=setup,
                bot_seeds=lesson.bot_seeds if lesson is not None else None,
            )
        except (KeltisError, ValueError) as error:
            return bad_request(400, lang, request_detail(error, lang))
        match_id = secrets.token_urlsafe(9)
        host = new_secret()
        rows: list[dict[str, Any]] = []
        secrets_out: dict[int, dict[str, str]] = {}
        for number, (name, seat) in enumerate(zip(names, body.seats, strict=True)):
            row: dict[str, Any] = {"kind": seat.kind, "name": name}
            if seat.kind == "bot":
                row["level"] = seat.level
            elif number == body.seat:
                row["token"] = new_secret()
                secrets_out[number] = {"token": row["token"]}
            else:
                row["invite"] = secrets.token_urlsafe(12)
                secrets_out[number] = {"invite": row["invite"]}
            rows.append(row)
        people = sum(s.kind == "person" for s in body.seats)
        turn_seconds = body.turn_seconds
        if "turn_seconds" not in body.model_fields_set and people > 1:
            turn_seconds = DEFAULT_TURN_SECONDS
        options = {"hints": body.hints, "undo": body.undo, "turn_seconds": turn_seconds}
        await asyncio.to_thread(
            store().create_match,
            match_id,
            body.game,
            record_header(record),
            options,
            host,
            body.public,
            rows,
        )
        base = config.public_url
        waiting = [n for n, r in enumerate(rows) if "invite" in r]
        live = await hub().get(match_id)
        if body.start and not waiting:
            await start_live(live)
        return {
            "id": match_id,
            "host_token": host,
            "seat": body.seat,
            "token": secrets_out.get(body.seat, {}).get("token") if body.seat is not None else None,
            "invites": [
                {
                    "seat": n,
                    "invite": secrets_out[n]["invite"],
                    "link": f"{base}/#/join/{match_id}/{secrets_out[n]['invite']}",
                }
                for n in waiting
            ],
            "watch": f"{base}/#/watch/{match_id}",
            "match": hub().summary(live),
        }

    async def start_live(live: LiveMatch) -> None:
        await asyncio.to_thread(store().start, live.id, live.match.to_move)
        await hub().seats_changed(live)

    @app.get("/api/tutorials", tags=["games"])
    async def list_tutorials() -> dict[str, Any]:
        """The guided first games: their names and games (create one with ``"tutorial"``)."""
        return {"tutorials": [{"name": t.name, "game": t.game} for t in TUTORIALS.values()]}

    @app.get("/api/tutorials/{name}", tags=["games"])
    async def get_tutorial(name: str, request: Request) -> Any:
        """A guided first game's script: per decision of the player, the ply, the move it asks
        for, what the client points at and the message that explains it (not the deal)."""
        lesson = TUTORIALS.get(name)
        if lesson is None:
            return error_response(
                404, "tutorial.unknown", request_lang(request), name=printable(name)
            )
        return lesson.to_json()

    @app.get("/api/matches", tags=["matches"])
    async def list_matches(
        status: Literal["open", "running", "finished"] = "open",
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
    ) -> dict[str, Any]:
        """Public matches with ``status``, most recently changed first."""
        rows = await asyncio.to_thread(store().list_matches, status, limit, True)
        return {"matches": [match_summary(r, config) for r in rows]}

    @app.get("/api/matches/{match_id}", tags=["matches"])
    async def get_match(match_id: str, request: Request) -> Any:
        """A match's public description."""
        live = await find(match_id, request_lang(request))
        return hub().summary(live)

    @app.post("/api/matches/{match_id}/join", tags=["matches"])
    async def join(match_id: str, body: JoinRequest, request: Request) -> Any:
        """Take the seat of an invite: the answer holds the seat's secret token."""
        lang = request_lang(request)
        live = await find(match_id, lang)
        if not name_ok(body.name):
            return error_response(400, "server.bad_name", lang, limit=MAX_NAME)
        token = new_secret()
        seat = await asyncio.to_thread(store().claim_seat, match_id, body.invite, token, body.name)
        if seat is None:
            return error_response(403, "server.bad_invite", lang)
        await hub().seats_changed(live)
        return {"seat": seat, "token": token, "match": hub().summary(live)}

    @app.post("/api/matches/{match_id}/start", tags=["matches"])
    async def start(match_id: str, request: Request, credentials: Credentials) -> Any:
        """Start the match (the host token; every person seat must be taken)."""
        lang = request_lang(request)
        live = await find(match_id, lang)
        if credentials is None or not await asyncio.to_thread(
            store().is_host, match_id, credentials.credentials
        ):
            return error_response(403, "server.not_host", lang)
        await hub().seats_changed(live)
        if live.row.status != "open":
            return error_response(409, "server.already_started", lang)
        free = [s.seat + 1 for s in live.row.seats if not s.joined]
        if free:
            return error_response(409, "server.seats_empty", lang, seats=", ".join(map(str, free)))
        await start_live(live)
        return hub().summary(live)

    @app.post("/api/matches/{match_id}/again", tags=["matches"], status_code=201)
    async def again(match_id: str, request: Request, credentials: Credentials) -> Any:
        """Play again (a person seat's token of a finished match): the next match, with the
        same seats, names and settings and a new deal. The first player to ask creates it;
        the others learn of it live (``next`` in the match's description) and take their own
        seats in it the same way; bots follow; it starts once every person is in. The
        answer holds the new seat's token."""
        lang = request_lang(request)
        live = await find(match_id, lang)
        seat = await seat_of(live, credentials, lang)
        if live.row.status != "finished":
            return error_response(409, "server.not_finished", lang)
        next_id = live.row.next_match
        if next_id is None:
            next_id = secrets.token_urlsafe(9)
            try:
                await asyncio.to_thread(_store_next_match, store(), live.row, next_id)
            except ConflictError:  # another player asked at the same moment: theirs it is
                await hub().seats_changed(live)
                next_id = live.row.next_match
                if next_id is None:  # not theirs: the match is no longer over
                    return error_response(409, "server.not_finished", lang)
        token = new_secret()
        if not await asyncio.to_thread(store().claim_again, next_id, seat, token):
            return error_response(409, "server.again_taken", lang)
        following = await hub().get(next_id)
        await hub().seats_changed(following)
        if following.row.status == "open" and all(s.joined for s in following.row.seats):
            await start_live(following)
        await hub().seats_changed(live)  # the others see the next match
        return {"id": next_id, "seat": seat, "token": token, "match": hub().summary(following)}

    @app.get("/api/matches/{match_id}/view", tags=["play"])
    async def view(match_id: str, request: Request, credentials: Credentials) -> Any:
        """What the token's seat (no token: a spectator) sees now, with the version."""
        lang = request_lang(request)
        live = await find(match_id, lang)
        seat: int | None = None
        if credentials is not None:
            seat = await seat_of(live, credentials, lang)
        client = Client(seat, lang, lambda _m: None)
        async with live.lock:
            return await hub().snapshot(live, client)

    @app.post("/api/matches/{match_id}/actions", tags=["play"])
    async def act(
        match_id: str, body: ActionRequest, request: Request, credentials: Credentials
    ) -> Any:
        """Play an action for the token's seat (the same rules as on the WebSocket): stored
        before the answer; a stale ``version`` or an illegal action is refused."""
        lang = request_lang(request)
        live = await find(match_id, lang)
        seat = await seat_of(live, credentials, lang)
        try:
            step = await hub().act(live, seat, body.action, body.version)
        except (RefusedError, KeltisError) as error:
            return JSONResponse({"error": refusal_json(error, lang)}, status_code=409)
        return {
            "version": step.ply,
            "step": step.to_json(seat),
            "view": live.match.view(seat).to_json(),
        }

    @app.get("/api/matches/{match_id}/record", tags=["matches"])
    async def record(match_id: str, request: Request) -> Any:
        """A finished match's full record (the project's record JSON, replayable with
        ``keltis replay``)."""
        lang = request_lang(request)
        live = await find(match_id, lang)
        if not live.match.over:
            return error_response(409, "server.not_finished", lang)
        return JSONResponse(
            live.match.record.to_json(),
            headers={"Content-Disposition": f'attachment; filename="keltis-{match_id}.json"'},
        )

    @app.get("/api/matches/{match_id}/replay", tags=["matches"])
    async def replay(match_id: str, request: Request, ply: int = 0) -> Any:
        """A finished match's position after ``ply`` actions (0: the start), as a spectator
        sees it: ``version`` and ``total`` (the number of actions), ``view`` (the public
        view), ``step`` (the action that led there; null at 0) and ``match``."""
        lang = request_lang(request)
        live = await find(match_id, lang)
        if not live.match.over:
            return error_response(409, "server.not_finished", lang)
        record = live.match.record
        total = len(record.actions)
        if not 0 <= ply <= total:
            return bad_request(
                400, lang, f"ply {ply} is not a position of this match (0 to {total})"
            )
        position = await asyncio.to_thread(lambda: replays.get(match_id, record).position(ply))
        return {
            "version": total,
            "ply": ply,
            "total": total,
            **position,
            "match": hub().summary(live),
        }

    # -- the translations, for the browser client ------------------------------------------

    @app.get("/api/catalogs", tags=["languages"])
    async def catalogs() -> dict[str, str]:
        """The languages the server and the client speak: code → the language's own name."""
        return dict(LANGUAGES)

    @app.get("/api/catalogs/{lang}", tags=["languages"])
    async def catalog(lang: str, request: Request) -> Response:
        """Language ``lang``'s messages (``python -m keltis.catalogs json`` writes the same):
        ``messages`` (key → template, or ``{"count", "forms"}`` for plural messages),
        ``plural`` (the gettext rule: ``nplurals``, ``expr``) and ``colours`` (each colour's
        forms). Read from the translation catalogs when first asked for."""
        if lang not in LANGUAGES:
            return error_response(
                404,
                "server.no_language",
                request_lang(request),
                code=printable(lang, 20),
                langs=", ".join(LANGUAGES),
            )
        body, etag = await asyncio.to_thread(_catalog_body, lang)
        headers = {"ETag": etag, "Cache-Control": NO_CACHE}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    # -- the browser client ----------------------------------------------------------------

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def start_page(request: Request) -> Response:
        """The browser client's start page (or a page saying it is not built)."""
        if not (static / "index.html").is_file():
            return HTMLResponse(NOT_BUILT, headers={"Cache-Control": NO_CACHE})
        return await top_files.get_response("index.html", request.scope)

    app.mount("/assets", assets, name="assets")

    @app.api_route("/{name}", methods=["GET", "HEAD"], include_in_schema=False)
    async def top_file(name: str, request: Request) -> Response:
        """A file of the built client beside ``index.html`` (``favicon.svg``, …)."""
        if name.startswith(".") or not (static / name).is_file():
            raise HTTPException(status_code=404)
        return await top_files.get_response(name, request.scope)

    # -- the live WebSocket ----------------------------------------------------------------

    @app.websocket("/api/matches/{match_id}/live")
    async def live_socket(socket: WebSocket, match_id: str) -> None:
        address = socket.client.host if socket.client else "?"
        refused = connections.admit(address)
        if refused is not None:
            # refused before the upgrade: an HTTP answer, and the connection closes at once
            # (a WebSocket close would wait for the client's reply, holding a file)
            status = 429 if refused == "server.too_many_connections" else 503
            answer = error_response(status, refused, request_lang(socket))
            answer.headers["Retry-After"] = "10"
            await socket.send_denial_response(answer)
            return
        await socket.accept()
        try:
            await _Session(socket, hub(), config).run(match_id)
        finally:
            connections.release(address)

    return app


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
    from fastapi.openapi.utils import get_openapi

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


@functools.cache
def _catalog_body(lang: str) -> tuple[bytes, str]:
    """Language ``lang``'s catalog as JSON bytes, and its ETag (computed once per process)."""
    body = json.dumps(
        catalog_json(lang, LANGUAGES[lang]), ensure_ascii=False, separators=(",", ":")
    ).encode()
    return body, f'"{hashlib.sha256(body).hexdigest()[:32]}"'


class _Static(StaticFiles):
    """Files of the built client, with a ``Cache-Control`` header; a missing folder (no
    client built) answers 404 instead of failing."""

    def __init__(self, *, directory: Path, cache_control: str) -> None:
        super().__init__(directory=directory, check_dir=False)
        self.cache_control = cache_control

    async def check_config(self) -> None:
        return None

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = self.cache_control
        return response


class _Answer(Exception):  # noqa: N818 - not an error: an answer given early
    """Raised inside a route to answer with ``response`` at once (a refusal)."""

    def __init__(self, response: JSONResponse) -> None:
        super().__init__(response.status_code)
        self.response = response


def _new_record(
    game: str,
    players: list[PlayerInfo],
    variant: dict[str, Any] | None,
    seed: int | None = None,
    setup: dict[str, Any] | None = None,
    bot_seeds: tuple[int, ...] | None = None,
) -> GameRecord:
    """A new match's record, its bot seeds fixed in ``meta``. They are secret like the deal
    (whoever knew them could foresee the bots' moves): drawn here, unless a seed was given
    (tests, with --allow-setup), from which they derive as in any record, or a tutorial's
    (``bot_seeds``: its bot must answer as its script expects)."""
    record = GameRecord.start(game, players, seed=seed, setup=setup, variant=variant)
    seeds: list[int] | None = list(bot_seeds) if bot_seeds is not None else None
    if seeds is None and seed is None:
        seeds = [secrets.randbits(63) for _ in players]
    Match(record, narrate=False, bot_seeds=seeds)
    return record


def _store_next_match(store: Store, row: MatchRow, next_id: str) -> None:
    """Store the match that plays ``row`` again as ``next_id``: the same game, variant,
    options, seats and names, a new deal and new bot seeds; its person seats wait for their
    players (``Store.claim_again``), its host token is thrown away (it starts by itself)."""
    players = [
        PlayerInfo(s.name, "human" if s.kind == "person" else (s.level or "medium"))
        for s in row.seats
    ]
    record = _new_record(row.game, players, row.header.get("variant"))
    seats = [
        {"kind": s.kind, "name": s.name, **({"level": s.level} if s.kind == "bot" else {})}
        for s in row.seats
    ]
    store.create_match(
        next_id,
        row.game,
        record_header(record),
        dict(row.options),
        new_secret(),
        row.public,
        seats,
        previous=row.id,
    )


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


def _seat_names(body: CreateMatch) -> list[str]:
    """Seat names: the creator's, ``Player N`` for invited people, bots by their persona;
    a name given to more than one seat gets each seat's number (``Brigid 3`` sits in seat
    3)."""
    names = []
    for number, seat in enumerate(body.seats):
        if seat.kind == "bot":
            name = seat.name or ("Random" if seat.level == "random" else LEVELS[seat.level].persona)
        elif number == body.seat:
            name = body.name
        else:
            name = f"Player {number + 1}"
        names.append(name)
    twice = {name for name in names if names.count(name) > 1}
    return [f"{name} {n + 1}" if name in twice else name for n, name in enumerate(names)]


class _Close:
    """Queued after the last messages a client is to get: its sender closes the connection
    with ``code`` once they are out."""

    def __init__(self, code: int, reason: str) -> None:
        self.code = code
        self.reason = reason


class _Closing(Exception):  # noqa: N818 - not an error: the session ends
    """The session closes its connection (a :class:`_Close` is queued)."""


class _Session:
    """One client's WebSocket: hello, then requests, with a sender task so that a slow
    client never holds up the others."""

    def __init__(self, socket: WebSocket, hub: Hub, config: ServerConfig) -> None:
        self.socket = socket
        self.hub = hub
        self.config = config
        self.queue: asyncio.Queue[dict[str, Any] | _Close | None] = asyncio.Queue(maxsize=512)
        self.lang = request_lang(socket)
        self.bucket = TokenBucket(config.rate, config.burst)
        self.flooded = 0
        self.client: Client | None = None
        self.live: LiveMatch | None = None

    def send(self, message: dict[str, Any]) -> None:
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:  # the client does not read: let it go
            log.warning("a client fell too far behind; closing its connection")
            self.queue = asyncio.Queue(maxsize=1)
            self.queue.put_nowait(_Close(1008, "too slow"))

    def close_after_queued(self, code: int, reason: str) -> None:
        """Close the connection once the messages queued for it are out."""
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(_Close(code, reason))
        raise _Closing

    def error(self, key: str, ref: Any = None, **params: Any) -> None:
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
                live = await self.hub.get(match_id)
            except RefusedError as refused:
                self.send(self._error(refusal_json(refused, self.lang), ref))
                self.close_after_queued(1000, "no such match")
            seat = None
            if token is not None:
                seat = await asyncio.to_thread(self.hub.store.seat_for_token, match_id, token)
                if seat is None:
                    self.error("server.bad_token", ref)
                    continue
            return live, seat

    async def _serve(self, match_id: str) -> None:
        live, seat = await self._hello(match_id)
        self.live = live
        client = Client(seat, self.lang, self.send)
        self.client = client
        if seat is not None:
            await asyncio.to_thread(self.hub.store.touch_seats, match_id, [seat])
        async with live.lock:  # no step is missed or told twice between snapshot and updates
            arrived = seat is not None and all(c.seat != seat for c in live.clients)
            live.clients.add(client)
            self.send(await self.hub.snapshot(live, client))
            if arrived:
                self.hub.presence_changed(live)
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
        kind = data["type"]
        if kind == "ping":
            self.send({"type": "pong", "version": live.match.ply, "ref": ref})
            return
        if kind == "sync":
            async with live.lock:
                self.send(await self.hub.snapshot(live, client))
            return
        if kind == "hello":
            raise RefusedError(
                "server.bad_field", field="type", expected=Phrase("server.expected.hello_once")
            )
        seat = client.seat
        if seat is None:
            raise RefusedError("server.spectator")
        if kind == "stand_in":
            target = data.get("seat")
            if type(target) is not int:
                raise RefusedError(
                    "server.bad_field", field="seat", expected=Phrase("server.expected.seat")
                )
            await self.hub.stand_in(live, target)
            self.send({"type": "ack", "version": live.match.ply, "ref": ref})
            return
        if kind == "reclaim":
            await self.hub.reclaim(live, seat)
            self.send({"type": "ack", "version": live.match.ply, "ref": ref})
            return
        version = data.get("version")
        if type(version) is not int:
            raise RefusedError(
                "server.bad_field", field="version", expected=Phrase("server.expected.version")
            )
        if kind == "undo":
            now_at = await self.hub.undo(live, seat, version)
            self.send({"type": "ack", "version": now_at, "ref": ref})
            return
        if kind == "hint":
            hints = await self.hub.hints(live, seat, version)
            self.send({"type": "hints", "version": version, "hints": hints, "ref": ref})
            return
        action = data.get("action")
        if not isinstance(action, (str, int)) or isinstance(action, bool):
            raise RefusedError(
                "server.bad_field", field="action", expected=Phrase("server.expected.action")
            )
        if isinstance(action, str) and len(action) > 40:
            raise RefusedError(
                "server.bad_field", field="action", expected=Phrase("server.expected.notation")
            )
        step = await self.hub.act(live, seat, action, version)
        self.send({"type": "ack", "version": step.ply, "ref": ref})

    async def _leave(self) -> None:
        live, client = self.live, self.client
        if live is None or client is None:
            return
        live.clients.discard(client)
        if client.seat is not None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.hub.store.touch_seats, live.id, [client.seat])
            if all(c.seat != client.seat for c in live.clients):
                self.hub.presence_changed(live)
