"""What the server knows besides matches: the games and their bot levels, the guided first
games, and the translations the browser client speaks (``/api/games``, ``/api/tutorials``,
``/api/catalogs``)."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from keltis.bots.levels import LEVELS
from keltis.catalogs import catalog_json
from keltis.games import GAME_NAMES, get_game
from keltis.i18n import LANGUAGES
from keltis.server.answers import error_response, printable, request_lang
from keltis.server.bodies import IdText
from keltis.server.routes.client import NO_CACHE
from keltis.server.tutorials import TUTORIALS

router = APIRouter()


@router.get("/api/games", tags=["games"])
async def games() -> dict[str, Any]:
    """The games, their player counts, variant switches (with defaults), the numbers they
    score by (``tables``: what the client's rules pages and board show) and bot levels."""
    out = []
    for name in GAME_NAMES:
        rules = get_game(name)
        out.append(
            {
                "name": name,
                "players": list(range(rules.min_players, rules.max_players + 1)),
                "variant": rules.variant_json(None),
                "tables": rules.tables(),
                "info": {
                    str(n): rules.info(n, None).to_json()
                    for n in range(rules.min_players, rules.max_players + 1)
                },
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


@router.get("/api/tutorials", tags=["games"])
async def list_tutorials() -> dict[str, Any]:
    """The guided first games: their names and games (create one with ``"tutorial"``)."""
    return {"tutorials": [{"name": t.name, "game": t.game} for t in TUTORIALS.values()]}


@router.get("/api/tutorials/{name}", tags=["games"])
async def get_tutorial(name: IdText, request: Request) -> Any:
    """A guided first game's script: per decision of the player, the ply, the move it asks
    for, what the client points at and the message that explains it (not the deal)."""
    lesson = TUTORIALS.get(name)
    if lesson is None:
        return error_response(404, "tutorial.unknown", request_lang(request), name=printable(name))
    return lesson.to_json()


@router.get("/api/catalogs", tags=["languages"])
async def catalogs() -> dict[str, str]:
    """The languages the server and the client speak: code → the language's own name."""
    return dict(LANGUAGES)


@router.get("/api/catalogs/{lang}", tags=["languages"])
async def catalog(lang: IdText, request: Request) -> Response:
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


@functools.cache
def _catalog_body(lang: str) -> tuple[bytes, str]:
    """Language ``lang``'s catalog as JSON bytes, and its ETag (computed once per process)."""
    body = json.dumps(
        catalog_json(lang, LANGUAGES[lang]), ensure_ascii=False, separators=(",", ":")
    ).encode()
    return body, f'"{hashlib.sha256(body).hexdigest()[:32]}"'
