"""Accounts for the server tests: an HTTP client logged in as an account (its session
cookie kept, its ``csrf`` token sent on every request), made through the real routes."""

from __future__ import annotations

from typing import Any

import httpx

from .harness import WAIT, Server

#: A password every test account uses (8 characters or more).
PASSWORD = "correct horse battery"


class Member(httpx.Client):
    """An HTTP client logged in to ``server`` as ``name``; ``account`` and ``csrf`` from
    the log-in's answer."""

    def __init__(self, server: Server, name: str, answer: httpx.Response) -> None:
        super().__init__(base_url=server.base, timeout=WAIT)
        assert answer.status_code in (200, 201), answer.text
        self.name = name
        self.server = server
        body = answer.json()
        self.account: dict[str, Any] = body["account"]
        self.csrf: str = body["csrf"]
        self.cookies = answer.cookies
        self.headers["X-CSRF-Token"] = self.csrf


def signup(server: Server, name: str, password: str = PASSWORD, **fields: Any) -> Member:
    """Create the account ``name`` (logged in)."""
    with server.http() as http:
        answer = http.post("/api/accounts", json={"name": name, "password": password, **fields})
    return Member(server, name, answer)


def login(server: Server, name: str, password: str = PASSWORD) -> Member:
    """Log in as ``name``."""
    with server.http() as http:
        answer = http.post("/api/sessions", json={"name": name, "password": password})
    return Member(server, name, answer)


def my_seat(member: Member, match_id: str) -> dict[str, Any]:
    """The account's entry for ``match_id`` in ``GET /api/me/matches`` (seat and token)."""
    answer = member.get("/api/me/matches")
    assert answer.status_code == 200, answer.text
    for group in answer.json().values():
        for item in group:
            if item["match"]["id"] == match_id:
                return dict(item)
    raise AssertionError(f"{member.name} has no seat in {match_id}: {answer.json()}")
