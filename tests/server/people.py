"""Accounts for the server tests: an HTTP client logged in as an account (its session
cookie kept, its ``csrf`` token sent on every request), made through the real routes."""

from __future__ import annotations

from typing import Any

import httpx

from .harness import WAIT, Player, Server, play_together

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
    found = answer.json()
    for group in (found["waiting"], found["running"], found["open"]):
        for item in group:
            if item["match"]["id"] == match_id:
                return dict(item)
    raise AssertionError(f"{member.name} has no seat in {match_id}: {answer.json()}")


def rated_cards_played(server: Server, first: Member, second: Member) -> dict[str, Any]:
    """A rated card game of two accounts, ``first`` its host, played to its end through the
    live connections: the creation's answer (``id``, tokens, invites)."""
    body: dict[str, Any] = first.post(
        "/api/matches",
        json={"game": "cards", "seats": [{"kind": "person"}, {"kind": "person"}], "rated": True},
    ).json()
    joined = second.post(
        f"/api/matches/{body['id']}/join", json={"invite": body["invites"][0]["invite"]}
    )
    assert joined.status_code == 200, joined.text
    started = first.post(
        f"/api/matches/{body['id']}/start",
        headers={"Authorization": f"Bearer {body['host_token']}"},
    )
    assert started.status_code == 200, started.text
    a = Player(server, body["id"], body["token"]).connect()
    b = Player(server, body["id"], joined.json()["token"]).connect()
    try:
        play_together(a, b)
    finally:
        a.close()
        b.close()
    return body
