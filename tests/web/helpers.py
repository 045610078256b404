"""What the browser tests share besides their fixtures (``conftest.py``): the WebSocket
frames a page saw, axe-core's findings in words, where screenshots go, waiting for a match
to end; and for the community's pages, a server that lets the tests make many accounts, a
fresh account name, an account signed up or logged in in a page's browser, and the checks
that a page fits a phone's width and has no serious accessibility violation."""

from __future__ import annotations

import json
import os
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from server.harness import Server
from server.people import PASSWORD


def wait_finished(server: Server, match_id: str, timeout: float = 120) -> dict[str, Any]:
    """The match's description once it is finished (bots playing it out)."""
    deadline = time.monotonic() + timeout
    with server.http() as http:
        while True:
            summary: dict[str, Any] = http.get(f"/api/matches/{match_id}").json()
            if summary["status"] == "finished":
                return summary
            assert time.monotonic() < deadline, f"match {match_id} did not finish: {summary}"
            time.sleep(0.05)


@dataclass(frozen=True)
class WsFrame:
    """One WebSocket frame a page sent (``"sent"``) or received (``"received"``)."""

    direction: str
    url: str
    payload: str | bytes
    time: float

    def json(self) -> Any:
        """The frame's text as JSON."""
        text = self.payload.decode() if isinstance(self.payload, bytes) else self.payload
        return json.loads(text)


def ws_messages(page: Any, direction: str | None = "received") -> list[Any]:
    """The JSON messages of ``page``'s WebSocket frames in ``direction`` (``None``: both)."""
    return [f.json() for f in page.ws_frames if direction is None or f.direction == direction]


def describe_violations(violations: list[dict[str, Any]]) -> str:
    """axe-core's violations, one line per element, for an assertion's message."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['impact']}: {violation['id']}: {violation['help']}")
        for node in violation.get("nodes", [])[:5]:
            lines.append(f"    {', '.join(map(str, node.get('target', [])))}")
    return "\n".join(lines)


def artifacts_dir() -> Path:
    """Where screenshots go: ``$KELTIS_ARTIFACTS`` or ``tests/web/artifacts/``."""
    folder = Path(os.environ.get("KELTIS_ARTIFACTS") or Path(__file__).parent / "artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def community_server(folder: Path) -> Iterator[Server]:
    """A server for the community's pages in ``folder`` (yield it from a fixture): the browser
    tests' options, and as many accounts and log-ins from one address as the tests make."""
    from web.conftest import WEB_SERVER_OPTIONS  # conftest imports this module

    running = Server(
        f"sqlite:///{folder / 'server.sqlite3'}",
        *WEB_SERVER_OPTIONS,
        "--signup-rate",
        "1000",
        "--login-rate",
        "1000",
    ).start()
    try:
        yield running
    finally:
        running.stop()


def unique(prefix: str) -> str:
    """A fresh account name (3-20 letters, digits, _ or -)."""
    return f"{prefix}_{secrets.token_hex(4)}"


def sign_up(page: Any, name: str) -> None:
    """An account for ``page``'s browser, made through the API in its context (the session
    cookie lands in that browser), then the start page with the account in the header."""
    answer = page.request.post(
        "/api/accounts", data={"name": name, "password": PASSWORD, "language": "en", "seats": []}
    )
    assert answer.status == 201, answer.text()
    page.goto("/")
    expect(page.get_by_test_id("account-menu")).to_contain_text(name)


def log_in(page: Any, name: str) -> None:
    """``page``'s browser logged in as ``name`` (its session cookie), on the start page."""
    answer = page.request.post("/api/sessions", data={"name": name, "password": PASSWORD})
    assert answer.status == 200, answer.text()
    page.goto("/")
    expect(page.get_by_test_id("account-menu")).to_contain_text(name)


def fits(page: Any, width: int = 360) -> None:
    """Nothing on the page is wider than the screen."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def no_violations(axe_scan: Any, page: Any, screen: str) -> None:
    """axe-core finds no serious violation on ``page`` (named ``screen`` in the failure)."""
    violations = axe_scan(page)
    assert not violations, f"{screen}:\n{describe_violations(violations)}"
