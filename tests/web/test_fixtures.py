"""The browser tests' own tools work: a page in the browser's language, every WebSocket frame
recorded both ways, the accessibility scan, screenshots."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from server.harness import Server, create

from .helpers import artifacts_dir, describe_violations, ws_messages


def test_a_page_speaks_its_language_and_its_frames_are_recorded(
    new_page: Callable[..., Any], web_server: Server
) -> None:
    made = create(web_server, seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}])
    page = new_page(lang="de", width=360, height=740)
    page.goto("/")
    assert page.evaluate("() => navigator.language") == "de"
    assert page.evaluate("() => window.innerWidth") == 360
    answer = page.evaluate("""async () => (await fetch('/api/matches/none')).json()""")
    assert answer["error"]["message"].startswith("Es gibt keine Partie")
    # a live connection of the page's own: what it sends and receives is kept
    hello = {"type": "hello", "token": made["token"], "lang": "de"}
    page.evaluate(
        """([url, hello]) => new Promise((resolve) => {
            const socket = new WebSocket(url);
            socket.onopen = () => socket.send(hello);
            socket.onmessage = () => { socket.close(); resolve(); };
        })""",
        [web_server.ws(made["id"]), json.dumps(hello)],
    )
    page.wait_for_timeout(100)
    assert ws_messages(page, "sent")[0] == hello
    snapshot = ws_messages(page)[0]
    assert (snapshot["type"], snapshot["seat"]) == ("snapshot", 0)
    assert len(snapshot["view"]["hand"]) == 8
    assert {f.direction for f in page.ws_frames} == {"sent", "received"}
    assert page.page_errors == []


def test_axe_and_screenshots(
    new_page: Callable[..., Any],
    axe_scan: Callable[[Any], list[dict[str, Any]]],
    screenshot: Callable[[Any, str], Path],
) -> None:
    page = new_page()
    page.set_content("<html><body><img src='x.png'><button></button></body></html>")
    found = {v["id"] for v in axe_scan(page)}
    assert {"image-alt", "button-name"} <= found  # critical: no text for a screen reader
    assert "button-name" in describe_violations(axe_scan(page))  # axe loaded once, used again
    page.set_content(
        "<html lang='en'><head><title>Keltis</title></head>"
        "<body><main><h1>Keltis</h1><button>Play now</button></main></body></html>"
    )
    assert axe_scan(page) == []
    path = screenshot(page, "fixtures: a test page")
    assert path == artifacts_dir() / "fixtures-a-test-page.png"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
