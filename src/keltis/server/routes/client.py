"""The browser client's files (``web/``, built into the package by ``npm run build``): the
start page, the assets, and the other files beside ``index.html``.

Vite names every asset by its content's hash, so assets are cached for good; the start page
and the other files with fixed names are asked for again each time (a 304 if unchanged). A
checkout without a built client gets a page saying how to build it.
"""

from __future__ import annotations

import os
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.exceptions import HTTPException
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

#: The built browser client (``web/``: ``npm run build`` writes it here; shipped in the
#: package).
STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
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


def client_router(static: Path) -> APIRouter:
    """The routes of the built client in the folder ``static``: ``/``, ``/assets/…`` and
    ``/{name}``."""
    router = APIRouter()
    top_files = _Static(directory=static, cache_control=NO_CACHE)

    @router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def start_page(request: Request) -> Response:
        """The browser client's start page (or a page saying it is not built)."""
        if not (static / "index.html").is_file():
            return HTMLResponse(NOT_BUILT, headers={"Cache-Control": NO_CACHE})
        return await top_files.get_response("index.html", request.scope)

    router.mount(
        "/assets", _Static(directory=static / "assets", cache_control=IMMUTABLE), name="assets"
    )

    @router.api_route("/{name}", methods=["GET", "HEAD"], include_in_schema=False)
    async def top_file(name: str, request: Request) -> Response:
        """A file of the built client beside ``index.html`` (``favicon.svg``, …)."""
        if name.startswith(".") or not (static / name).is_file():
            raise HTTPException(status_code=404)
        return await top_files.get_response(name, request.scope)

    return router


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
