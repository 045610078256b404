"""The browser client under test: a real ``keltis serve`` and Debian's Chromium driven by
Playwright (its sync API).

Chromium is ``$KELTIS_CHROMIUM`` or ``chromium`` on the PATH (``.ci/run`` installs Debian's
package); Playwright never downloads a browser of its own. Without Chromium, Playwright or
the built client (``src/keltis/server/static/index.html``) the browser tests are skipped —
and fail instead under ``KELTIS_REQUIRE_BROWSER=1`` (CI). So is the accessibility scan
without axe-core (``web/node_modules/axe-core``: ``npm ci`` in ``web/``).

Fixtures:

* ``web_server``: one server per test process (pytest-xdist: per worker) on SQLite in a
  temporary folder, with ``--allow-setup`` (tests choose the deal), bots after 0.05 s, one
  bot worker and the test clients' fast message rate; ``web_servers`` starts more (say, to
  kill one and start it again on the same port and database).
* ``plain_server``: a server without ``--allow-setup`` and with bots at full speed;
  ``helpers.wait_finished`` waits for a match to end.
* ``browser``: Chromium, headless, one per test process.
* ``new_page(lang="en", width=1280, height=900)``: a page in a fresh browser context (its
  own storage; ``lang`` is the browser's language: ``navigator.language`` and
  ``Accept-Language``), with the server as base URL (``page.goto("/")``). Every WebSocket
  frame the page sends or receives is kept in ``page.ws_frames`` (``helpers.WsFrame``;
  ``helpers.ws_messages`` gives them as JSON), every uncaught script error in
  ``page.page_errors`` and every console message in ``page.console_messages``.
* ``axe_scan(page)``: the serious and critical violations axe-core finds on the page
  (``helpers.describe_violations`` words them for an assertion).
* ``screenshot(page, name)``: a PNG of the whole page in ``$KELTIS_ARTIFACTS`` or
  ``tests/web/artifacts/`` (kept out of git), its path returned.

Tests that use ``browser`` or ``new_page`` are marked ``browser`` by themselves
(``pytest -m "not browser"`` leaves them out).

The pages run under the client's content policy (docs/server.md, "Headers"): no inline
script, no ``eval``. So ``page.wait_for_function`` is given a function (``"() => …"``; an
expression would be evaluated by the page's ``eval``, which the policy refuses), and a
script of the test's own is evaluated (``page.evaluate``) or added before the page loads
(``page.add_init_script``), never added as a ``<script>``.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from keltis.server.app import STATIC_DIR
from server.harness import FAST_CLIENTS, Server

from .helpers import WsFrame, artifacts_dir

ROOT = Path(__file__).resolve().parents[2]
#: axe-core, installed with the client's tools (``npm ci`` in ``web/``).
AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
#: The built client the server serves.
INDEX = STATIC_DIR / "index.html"
#: How long a page waits for an element or an answer (a busy CI machine is slow).
TIMEOUT_MS = 30_000
#: The options of every server under test: set-ups chosen by tests, bots that move almost at
#: once (but not faster than a page can follow), one bot worker, fast test clients, as many
#: new matches as the tests of one process make (all from one address).
MANY_MATCHES = ("--create-rate", "1000")
WEB_SERVER_OPTIONS = (
    "--allow-setup",
    "--bot-delay",
    "0.05",
    "--bot-workers",
    "1",
    *FAST_CLIENTS,
    *MANY_MATCHES,
)
#: The fixtures that need Chromium: a test using one is marked ``browser``.
BROWSER_FIXTURES = frozenset({"browser", "new_page", "axe_scan", "screenshot"})


def require_browser() -> bool:
    """Whether a missing browser (or axe-core, or built client) fails instead of skipping."""
    return os.environ.get("KELTIS_REQUIRE_BROWSER", "") not in ("", "0")


def missing(what: str) -> None:
    """Skip the test for want of ``what`` — or fail it under ``KELTIS_REQUIRE_BROWSER=1``."""
    if require_browser():
        pytest.fail(f"KELTIS_REQUIRE_BROWSER is set but {what}")
    pytest.skip(what)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


# -- the server ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A running ``keltis serve`` for the browser tests (SQLite in a temporary folder)."""
    folder = tmp_path_factory.mktemp("web-server")
    running = Server(f"sqlite:///{folder / 'server.sqlite3'}", *WEB_SERVER_OPTIONS).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def plain_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server as people run it (no ``--allow-setup``), bots without delay: for the API's
    own tests."""
    folder = tmp_path_factory.mktemp("plain-server")
    running = Server(f"sqlite:///{folder / 'server.sqlite3'}", *FAST_CLIENTS, *MANY_MATCHES).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def web_servers(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start servers with the browser tests' options: ``web_servers()`` on a fresh SQLite
    database; ``web_servers(database=s.database, port=s.port)`` after ``s.kill()`` starts
    ``s`` again; more options after them. All are stopped afterwards."""
    started: list[Server] = []

    def make(*options: str, database: str | None = None, port: int | None = None) -> Server:
        url = database or f"sqlite:///{tmp_path / 'server.sqlite3'}"
        server = Server(url, *WEB_SERVER_OPTIONS, *options, port=port).start()
        started.append(server)
        return server

    try:
        yield make
    finally:
        for server in started:
            server.kill()


# -- the browser --------------------------------------------------------------------------


@pytest.fixture(scope="session")
def chromium_path() -> str | None:
    """Debian's Chromium: ``$KELTIS_CHROMIUM``, else ``chromium`` on the PATH (or ``None``)."""
    explicit = os.environ.get("KELTIS_CHROMIUM")
    if explicit:
        return explicit if shutil.which(explicit) else None
    return shutil.which("chromium")


@pytest.fixture(scope="session")
def browser(chromium_path: str | None) -> Iterator[Any]:
    """Chromium, headless, driven by Playwright (never a browser Playwright downloads)."""
    if chromium_path is None:
        missing("no Chromium: install Debian's chromium or set KELTIS_CHROMIUM")
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        missing("Playwright is not installed (pip install -e '.[web-test]')")
    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


def _record_frames(page: Any) -> None:
    frames: list[WsFrame] = []
    page.ws_frames = frames

    def on_socket(socket: Any) -> None:
        url = socket.url

        def keep(direction: str) -> Callable[[str | bytes], None]:
            return lambda payload: frames.append(WsFrame(direction, url, payload, time.time()))

        socket.on("framereceived", keep("received"))
        socket.on("framesent", keep("sent"))

    page.on("websocket", on_socket)


@pytest.fixture
def new_page(browser: Any, web_server: Server) -> Iterator[Callable[..., Any]]:
    """Pages in fresh browser contexts: ``new_page(lang="de", width=360)``; ``server=`` gives
    another server than ``web_server`` (one from ``web_servers``)."""
    if not INDEX.is_file():
        missing(f"the browser client is not built ({INDEX} is missing): make web")
    contexts: list[Any] = []

    def make(
        lang: str = "en", width: int = 1280, height: int = 900, server: Server | None = None
    ) -> Any:
        context = browser.new_context(
            base_url=(server or web_server).base,
            locale=lang,
            viewport={"width": width, "height": height},
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        _record_frames(page)
        page.page_errors = []
        page.console_messages = []
        # (Playwright cannot take a built-in method as a handler: lambdas.)
        page.on("pageerror", lambda error: page.page_errors.append(error))
        page.on("console", lambda message: page.console_messages.append(message))
        return page

    try:
        yield make
    finally:
        for context in contexts:
            context.close()


# -- what a test keeps or checks ----------------------------------------------------------


@pytest.fixture
def axe_scan(browser: Any) -> Callable[[Any], list[dict[str, Any]]]:
    """``axe_scan(page)``: axe-core's serious and critical violations on ``page`` now."""
    if not AXE.is_file():
        missing(f"no axe-core ({AXE.relative_to(ROOT)}): npm ci in web/")

    def scan(page: Any) -> list[dict[str, Any]]:
        if not page.evaluate("() => typeof window.axe !== 'undefined'"):
            # evaluated, not added as a <script>: the client's content policy refuses
            # inline scripts, and the scan is no script of the page's own
            page.evaluate(AXE.read_text())
        violations: list[dict[str, Any]] = page.evaluate(
            "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        )
        return [v for v in violations if v.get("impact") in ("serious", "critical")]

    return scan


@pytest.fixture
def screenshot(browser: Any) -> Callable[[Any, str], Path]:
    """``screenshot(page, "board-game")``: the whole page as ``board-game.png``."""

    def take(page: Any, name: str) -> Path:
        safe = re.sub(r"[^\w.-]+", "-", name).strip("-") or "page"
        path = artifacts_dir() / f"{safe}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
