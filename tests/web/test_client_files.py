"""The browser client's files: the start page (never cached without asking), its
content-hashed assets (cached for good), the files beside the start page, and a page that
says the client is not built where it is not. In-process (through httpx's ASGI transport, no
server started: these routes need no database), and once on a real server with the
package's own build."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from keltis.server.app import STATIC_DIR, create_app
from keltis.server.config import ServerConfig
from server.harness import Server

INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js">'
INDEX += "</script></head><body></body></html>"


class InProcess:
    """Requests to an app serving ``static``, in this process (the app's lifespan — the
    database, the bots — is not run: these routes need none of it)."""

    def __init__(self, static: Path) -> None:
        self.app = create_app(ServerConfig(database="sqlite://", static_dir=static))

    def request(self, method: str, path: str, **options: Any) -> httpx.Response:
        async def send() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
                return await http.request(method, path, **options)

        # in a thread of its own: a test process that runs Playwright's sync API has an
        # event loop running in its main thread
        with concurrent.futures.ThreadPoolExecutor(1) as thread:
            return thread.submit(asyncio.run, send()).result()

    def get(self, path: str, **options: Any) -> httpx.Response:
        return self.request("GET", path, **options)

    def head(self, path: str, **options: Any) -> httpx.Response:
        return self.request("HEAD", path, **options)


def client_for(static: Path) -> InProcess:
    return InProcess(static)


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """A client build as Vite writes one."""
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text(INDEX)
    (tmp_path / "assets" / "index-AbC123.js").write_text("console.log('keltis')\n")
    (tmp_path / "assets" / "index-DeF456.css").write_text("body { margin: 0 }\n")
    (tmp_path / "favicon.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    (tmp_path / ".hidden").write_text("secret")
    return tmp_path


def test_the_start_page_is_index_html_asked_again_each_time(built: Path) -> None:
    http = client_for(built)
    page = http.get("/")
    assert page.status_code == 200
    assert page.text == INDEX
    assert page.headers["content-type"].startswith("text/html")
    assert page.headers["cache-control"] == "no-cache"
    # asked again with its ETag: not modified
    again = http.get("/", headers={"If-None-Match": page.headers["etag"]})
    assert again.status_code == 304
    assert http.head("/").status_code == 200


def test_assets_are_cached_for_good(built: Path) -> None:
    http = client_for(built)
    script = http.get("/assets/index-AbC123.js")
    assert script.status_code == 200
    assert script.text == "console.log('keltis')\n"
    assert "javascript" in script.headers["content-type"]
    assert script.headers["cache-control"] == "public, max-age=31536000, immutable"
    style = http.get("/assets/index-DeF456.css")
    assert style.headers["content-type"].startswith("text/css")
    unchanged = http.get(
        "/assets/index-AbC123.js", headers={"If-None-Match": script.headers["etag"]}
    )
    assert unchanged.status_code == 304
    assert unchanged.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert http.get("/assets/index-Gone99.js").status_code == 404
    assert http.get("/assets/../index.html").status_code in (200, 404)  # normalised, or not
    assert http.get("/assets/%2e%2e/%2e%2e/pyproject.toml").status_code == 404


def test_files_beside_the_start_page(built: Path) -> None:
    http = client_for(built)
    icon = http.get("/favicon.svg")
    assert icon.status_code == 200
    assert icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.headers["cache-control"] == "no-cache"
    assert http.get("/.hidden").status_code == 404
    assert http.get("/robots.txt").status_code == 404
    # the API is not shadowed
    assert http.get("/api/catalogs").json()["en"] == "English"
    assert http.get("/openapi.json").status_code == 200


def test_without_a_build_the_start_page_says_how_to_build_it(tmp_path: Path) -> None:
    http = client_for(tmp_path / "nothing")
    page = http.get("/")
    assert page.status_code == 200
    assert "not built" in page.text
    assert "npm ci" in page.text
    assert "npm run build" in page.text
    assert http.get("/assets/index-AbC123.js").status_code == 404
    assert http.get("/favicon.svg").status_code == 404


def test_a_real_server_serves_the_package_build(web_server: Server) -> None:
    """The package's own ``static/``: its start page, and every asset the page names."""
    with web_server.http() as http:
        page = http.get("/")
        assert page.status_code == 200
        assert page.headers["cache-control"] == "no-cache"
        index = STATIC_DIR / "index.html"
        if not index.is_file():
            assert "not built" in page.text
            return
        assert page.text == index.read_text(encoding="utf-8")
        for path in re.findall(r'(?:src|href)="(/[^"]+)"', page.text):
            answer = http.get(path)
            assert answer.status_code == 200, path
            if path.startswith("/assets/"):
                assert "immutable" in answer.headers["cache-control"]
