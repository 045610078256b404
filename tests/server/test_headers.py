"""The headers every answer carries (docs/server.md, "Headers"), from real ``keltis serve``
processes on SQLite and PostgreSQL: the content policy of the start page and the client
(no inline script, no framing), ``nosniff`` and ``Referrer-Policy`` everywhere, API answers
— seat tokens, accounts — never stored by a browser or a cache; and a WebSocket refused
over a limit, one line in the log at INFO, never an error."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus

from keltis.server.guards import CLIENT_POLICY

from .harness import Server, create
from .test_hardening import hello, ws_from

PERSON = {"kind": "person"}
BOT = {"kind": "bot", "level": "random"}
PASSWORD = "a long password"


def assert_everywhere(answer: httpx.Response) -> None:
    """What every answer carries."""
    assert answer.headers["x-content-type-options"] == "nosniff", answer.request.url
    assert answer.headers["referrer-policy"] == "same-origin", answer.request.url


def assert_not_stored(answer: httpx.Response) -> None:
    """An API answer that nobody may keep."""
    assert_everywhere(answer)
    where = f"{answer.request.method} {answer.request.url.path} ({answer.status_code})"
    assert answer.headers.get("cache-control") == "no-store", where


def directives(policy: str) -> dict[str, str]:
    """A content policy's directives: name → its sources."""
    found = {}
    for part in policy.split(";"):
        name, _, sources = part.strip().partition(" ")
        found[name] = sources
    return found


def test_the_start_page_and_the_client_carry_the_policy(server: Server) -> None:
    with server.http() as http:
        for method in ("GET", "HEAD"):
            page = http.request(method, "/")
            assert page.status_code == 200
            assert_everywhere(page)
            assert page.headers["content-type"].startswith("text/html")
            assert page.headers["content-security-policy"] == CLIENT_POLICY
            assert page.headers["x-frame-options"] == "DENY"
            assert page.headers["cache-control"] == "no-cache"  # the client's own, kept
        policy = directives(CLIENT_POLICY)
        assert policy["script-src"] == "'self'"  # no inline script, no eval
        assert policy["frame-ancestors"] == "'none'"
        assert policy["object-src"] == "'none'"
        assert "unsafe" not in CLIENT_POLICY
        # the built client has no inline script (the policy would refuse it)
        start = http.get("/").text
        scripts = re.findall(r"<script\b[^>]*>", start)
        assert scripts
        assert all(re.search(r"\bsrc=", tag) for tag in scripts), scripts
        assert not re.search(r"\son[a-z]+\s*=", start)  # no inline handler either
        # an asset: cached for good, never sniffed
        asset = re.search(r'src="(/assets/[^"]+\.js)"', start)
        assert asset is not None
        script = http.get(asset[1])
        assert script.status_code == 200
        assert_everywhere(script)
        assert script.headers["content-type"].startswith("text/javascript")
        assert script.headers["cache-control"] == "public, max-age=31536000, immutable"
        icon = http.get("/favicon.svg")
        assert_everywhere(icon)
        # the API's own page has a policy of its own, framed by nobody either
        docs = http.get("/api/docs")
        assert docs.status_code == 200
        assert_not_stored(docs)
        assert directives(docs.headers["content-security-policy"])["frame-ancestors"] == "'none'"
        # a page with its own policy (the unsubscribe page) keeps it, and is framed by nobody
        unsubscribe = http.get("/api/unsubscribe/nobody/nothing", headers={"Accept": "text/html"})
        assert unsubscribe.status_code == 403
        assert_not_stored(unsubscribe)
        own = directives(unsubscribe.headers["content-security-policy"])
        assert own["default-src"] == "'none'"
        assert own["frame-ancestors"] == "'none'"
        # a refusal at the edge (a body too big) carries them too
        too_big = http.post("/api/matches", content=b" " * 70_000)
        assert too_big.status_code == 413
        assert_not_stored(too_big)
        unknown = http.get("/api/no/such/address")
        assert unknown.status_code == 404
        assert_not_stored(unknown)


def test_answers_with_seat_tokens_and_accounts_are_never_stored(server: Server) -> None:
    with server.http() as http:
        # a match: the host token, the creator's seat token, the invites
        made = http.post("/api/matches", json={"seats": [PERSON, PERSON], "name": "Ada"})
        assert made.status_code == 201
        assert_not_stored(made)
        match = made.json()
        seat = {"Authorization": f"Bearer {match['token']}"}
        joined = http.post(
            f"/api/matches/{match['id']}/join",
            json={"invite": match["invites"][0]["invite"], "name": "Bob"},
        )
        assert joined.status_code == 200
        assert_not_stored(joined)
        started = http.post(
            f"/api/matches/{match['id']}/start",
            headers={"Authorization": f"Bearer {match['host_token']}"},
        )
        assert_not_stored(started)
        view = http.get(f"/api/matches/{match['id']}/view", headers=seat)
        assert view.status_code == 200
        assert view.json()["view"]["hand"]
        assert_not_stored(view)
        assert_not_stored(http.get(f"/api/matches/{match['id']}"))
        again = http.post(f"/api/matches/{match['id']}/again", headers=seat)
        assert again.status_code == 409  # not over yet: a refusal, not stored either
        assert_not_stored(again)
        against_bot = create(server, seats=[PERSON, BOT])
        assert against_bot["token"]

        # an account: sign-up, log-in, the session, the account's matches and tokens
        name = f"hdr_{time.monotonic_ns() % 10**9}"
        signed = http.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert signed.status_code == 201, signed.text
        assert_not_stored(signed)
        csrf = {"X-CSRF-Token": signed.json()["csrf"]}
        for path in ("/api/sessions/current", "/api/me/matches", "/api/me/mutes"):
            answer = http.get(path)
            assert answer.status_code == 200, (path, answer.text)
            assert_not_stored(answer)
        changed = http.patch("/api/me", json={"language": "de"}, headers=csrf)
        assert changed.status_code == 200
        assert_not_stored(changed)
        left = http.delete("/api/sessions/current", headers=csrf)
        assert left.status_code == 204
        assert_not_stored(left)
        logged_in = http.post("/api/sessions", json={"name": name, "password": PASSWORD})
        assert logged_in.status_code == 200
        assert_not_stored(logged_in)
        assert_not_stored(http.get("/api/sessions/current"))
        assert_not_stored(http.get("/api/health"))

        # what may be kept says so itself: the catalogs (asked again each time, 304)
        catalog = http.get("/api/catalogs/en")
        assert catalog.status_code == 200
        assert_everywhere(catalog)
        assert catalog.headers["cache-control"] == "no-cache"
        same = http.get("/api/catalogs/en", headers={"If-None-Match": catalog.headers["etag"]})
        assert same.status_code == 304
        assert same.headers["cache-control"] == "no-cache"


def refused(server: Server, match_id: str, source: str) -> int:
    """The status a live connection from ``source`` is refused with."""
    with pytest.raises(InvalidStatus) as refusal:
        ws_from(server, match_id, source)
    status: int = refusal.value.response.status_code
    return status


def test_a_refused_websocket_is_one_info_line(servers: Callable[..., Server]) -> None:
    server = servers("--max-connections-per-address", "1", "--max-connections", "2")
    made = create(server, seats=[PERSON, BOT])
    held: list[Any] = []
    try:
        held.append(ws_from(server, made["id"], "127.0.0.2"))
        assert hello(held[-1], made["token"])["type"] == "snapshot"
        assert refused(server, made["id"], "127.0.0.2") == 429  # one per address
        held.append(ws_from(server, made["id"], "127.0.0.3"))
        assert hello(held[-1])["type"] == "snapshot"
        assert refused(server, made["id"], "127.0.0.4") == 503  # two in all
        assert refused(server, made["id"], "127.0.0.2") == 429
    finally:
        for ws in held:
            ws.close()
    # everything the refusals logged is in the log once a later request's line is
    with server.http() as http:
        assert http.get("/api/health").status_code == 200
    server.logged('"GET /api/health')
    time.sleep(0.5)
    log = "".join(server.log)
    live = re.compile(rf'"WebSocket /api/matches/{made["id"]}/live" (\d{{3}})$')
    refusals = [line for line in log.splitlines() if live.search(line)]
    assert [line[-3:] for line in refusals] == ["429", "503", "429"], refusals
    assert all(line.startswith("INFO:") for line in refusals), refusals
    assert "ERROR" not in log, log
    assert "Traceback" not in log, log
    assert "without completing handshake" not in log
    assert "connection rejected" not in log  # the websockets library's second line
