"""What the browser tests share besides their fixtures (``conftest.py``): the WebSocket
frames a page saw, axe-core's findings in words, where screenshots go, waiting for a match
to end."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.harness import Server


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
