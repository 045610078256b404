"""An account's own data (``GET /api/me/export``; docs/server.md, "Your data"): what the
archive holds, that an unfinished match gives only the account's own seat's view, that no
other account's private data is in it, who may ask, its limit, and an account of many
matches (both databases)."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from keltis.server import db

from .harness import WAIT, Server
from .people import Member, my_seat, rated_cards_played, signup


def _until(check: Any, what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no {what} within {WAIT} s")


def _export(member: Member) -> dict[str, Any]:
    answer = member.get("/api/me/export")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.headers["content-disposition"].startswith('attachment; filename="keltis-data-')
    assert answer.headers["cache-control"] == "no-store"
    data: dict[str, Any] = answer.json()
    return data


def test_the_archive_holds_the_account_its_ratings_matches_and_words(server: Server) -> None:
    ann = signup(server, "Aoife_x", email="aoife@example.org", language="de")
    bea = signup(server, "Brigid_x", email="brigid@example.org")
    signup(server, "Ciaran_x").close()
    try:
        finished = rated_cards_played(server, ann, bea)["id"]
        said = ann.post(f"/api/matches/{finished}/chat", json={"text": "good game, Brigid"})
        assert said.status_code == 201, said.text
        heard = bea.post(f"/api/matches/{finished}/chat", json={"text": "thanks, well played"})
        assert heard.status_code == 201, heard.text
        assert ann.post("/api/me/mutes", json={"name": "Brigid_x"}).status_code == 204
        assert ann.post("/api/me/blocks", json={"name": "Ciaran_x"}).status_code == 204
        assert ann.put("/api/me/following/Brigid_x").status_code == 204
        taken = ann.post("/api/me/vacation", json={"days": 2})
        assert taken.status_code in (200, 201), taken.text
        reported = ann.post(
            "/api/reports",
            json={"name": "Brigid_x", "reason": "other", "text": "asked me for my password"},
        )
        assert reported.status_code == 201, reported.text
        _until(lambda: ann.get("/api/players/Aoife_x").json()["ratings"].get("cards"), "rating")

        data = _export(ann)
        assert (data["format"], data["version"]) == ("keltis-export", 1)
        account = data["account"]
        assert (account["name"], account["language"]) == ("Aoife_x", "de")
        assert account["email"] == "aoife@example.org"
        assert account["email_confirmed"] is False
        assert account["created"]
        # its ratings with the full history, as its player page gives them
        page = ann.get("/api/players/Aoife_x").json()["ratings"]["cards"]
        cards = data["ratings"]["cards"]
        assert cards["rating"] == page["rating"]
        assert cards["provisional"] is True
        assert [h["match"] for h in cards["history"]] == [finished]
        # the finished match with its record, exactly as /record gives it
        [match] = data["matches"]
        assert (match["id"], match["seats"]) == (finished, [0])
        assert match["match"]["rated"] is True
        with server.http() as http:
            assert match["record"] == http.get(f"/api/matches/{finished}/record").json()
        # its own chat line only; what it muted, blocked and reported
        assert [(c["match"], c["text"]) for c in data["chat"]] == [(finished, "good game, Brigid")]
        assert data["mutes"] == ["Brigid_x"]
        assert data["blocks"] == ["Ciaran_x"]
        assert [f["name"] for f in data["following"]] == ["Brigid_x"]
        [vacation] = data["vacations"]
        assert vacation["start"] < vacation["until"]
        assert vacation["ended"] is None
        assert [(r["reported"], r["reason"], r["text"]) for r in data["reports"]] == [
            ("Brigid_x", "other", "asked me for my password")
        ]
        # never another account's private data
        text = json.dumps(data)
        assert "brigid@example.org" not in text
        assert "thanks, well played" not in text
        # the other account's archive has its own words, not these
        other = _export(bea)
        assert [c["text"] for c in other["chat"]] == ["thanks, well played"]
        assert other["mutes"] == other["blocks"] == other["reports"] == []
        assert other["following"] == other["vacations"] == []
        assert "aoife@example.org" not in json.dumps(other)
    finally:
        ann.close()
        bea.close()


def test_an_unfinished_match_gives_only_the_accounts_own_seat(server: Server) -> None:
    """A match not over: no record (it holds every seat's cards), only what the account's
    seat sees, the same view as its seat's token gets, without the other hand's cards."""
    dana = signup(server, "Dana_x")
    try:
        made = dana.post(
            "/api/matches",
            json={
                "game": "cards",
                "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}],
            },
        )
        assert made.status_code == 201, made.text
        body = made.json()  # started at once: no other person to wait for
        mine = my_seat(dana, body["id"])
        assert mine["your_turn"] is True  # seat 0 begins: the bot has not played a card yet
        view = dana.get(
            f"/api/matches/{body['id']}/view", headers={"Authorization": f"Bearer {mine['token']}"}
        ).json()["view"]
        engine = sa.create_engine(server.database)
        try:
            with engine.connect() as connection:
                header = connection.execute(
                    sa.select(db.matches.c.header).where(db.matches.c.id == body["id"])
                ).scalar_one()
        finally:
            engine.dispose()
        own_hand, bot_hand = header["setup"]["dealt"]["hands"]

        [item] = _export(dana)["matches"]
        assert item["id"] == body["id"]
        assert "record" not in item
        assert item["views"] == {"0": view}
        # its own hand as dealt; of the bot's only how many cards it holds
        assert sorted(view["hand"]) == sorted(own_hand)
        assert view["hand_sizes"] == [len(own_hand), len(bot_hand)]
        text = json.dumps(item)
        assert text.count('"hand"') == 1
        assert '"hands"' not in text
        assert '"setup"' not in text
    finally:
        dana.close()


def test_only_a_logged_in_account_exports_and_a_few_times_an_hour(server: Server) -> None:
    with server.http() as http:
        answer = http.get("/api/me/export")
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == "account.no_session"
    with server.http() as http:
        http.cookies.set("keltis_session", secrets.token_urlsafe(32))
        assert http.get("/api/me/export").status_code == 401
    eve, fay = signup(server, "Eve_x"), signup(server, "Fay_x")
    try:
        for _ in range(3):
            _export(eve)
        refused = eve.get("/api/me/export", headers={"Accept-Language": "de"})
        assert refused.status_code == 429
        error = refused.json()["error"]
        assert error["code"] == "export.slow_down"
        assert "Stunde" in error["message"]
        _export(fay)  # each account counts its own
    finally:
        eve.close()
        fay.close()


def test_an_account_of_many_matches_is_exported_in_pages(server: Server) -> None:
    """300 finished matches (copies of one played match in the database): every one is in
    the archive with its record, read a page at a time."""
    gus, hal = signup(server, "Gus_x"), signup(server, "Hal_x")
    try:
        played = rated_cards_played(server, gus, hal)["id"]
        engine = sa.create_engine(server.database)
        try:
            with engine.begin() as connection:
                row = dict(
                    connection.execute(sa.select(db.matches).where(db.matches.c.id == played))
                    .one()
                    ._mapping
                )
                seats = [
                    dict(s._mapping)
                    for s in connection.execute(
                        sa.select(db.seats).where(db.seats.c.match_id == played)
                    )
                ]
                actions = [
                    dict(a._mapping)
                    for a in connection.execute(
                        sa.select(db.actions).where(db.actions.c.match_id == played)
                    )
                ]
                copies = [f"{played[:20]}c{n:03d}" for n in range(300)]
                connection.execute(
                    db.matches.insert(), [{**row, "id": c, "next_match": None} for c in copies]
                )
                connection.execute(
                    db.seats.insert(),
                    [
                        {**s, "match_id": c, "token_hash": None, "invite_hash": None}
                        for c in copies
                        for s in seats
                    ],
                )
                connection.execute(
                    db.actions.insert(), [{**a, "match_id": c} for c in copies for a in actions]
                )
        finally:
            engine.dispose()
        began = time.monotonic()
        data = _export(gus)
        took = time.monotonic() - began
        assert len(data["matches"]) == 301
        assert {m["id"] for m in data["matches"]} == {played, *copies}
        with server.http() as http:
            record = http.get(f"/api/matches/{played}/record").json()
        assert all(m["record"]["actions"] == record["actions"] for m in data["matches"])
        assert took < 30, took
        # written as it is read: sent in chunks, its length not known beforehand
        with gus.stream("GET", "/api/me/export") as answer:
            assert answer.status_code == 200
            assert "content-length" not in answer.headers
            assert answer.headers["transfer-encoding"] == "chunked"
            pieces = sum(1 for _ in answer.iter_raw())
        assert pieces > 1
    finally:
        gus.close()
        hal.close()


def test_archives_written_at_once_are_capped_and_counted_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In one process, at most ``AT_ONCE`` archives at a time (``503`` ``export.busy``), and
    each one written gives its place back (the app in this process, its reads faked)."""
    from keltis.server.accounts import Account, LoggedIn
    from keltis.server.app import create_app
    from keltis.server.config import ServerConfig
    from keltis.server.ratelimit import Buckets
    from keltis.server.routes import deps
    from keltis.server.routes import export as export_route

    class Pieces:
        def __init__(self, master: object) -> None:
            pass

        async def stream(self, account: Account, to_thread: object) -> AsyncIterator[str]:
            yield '{"account":'
            yield json.dumps(account.name) + "}"

    monkeypatch.setattr(export_route, "Exporter", Pieces)
    app = create_app(ServerConfig(database="sqlite://"))
    account = Account("a1", "Iona_x", "en", None, True, datetime.now(UTC), False)
    app.dependency_overrides[deps._viewer] = lambda: LoggedIn(account, "csrf")
    app.dependency_overrides[deps._master] = lambda: object()
    running = [export_route.AT_ONCE]
    app.state.export_limits = (Buckets(1.0, 100), running)

    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            return await http.get("/api/me/export")

    busy = asyncio.run(ask())
    assert busy.status_code == 503
    assert busy.json()["error"]["code"] == "export.busy"
    running[0] = export_route.AT_ONCE - 1
    answer = asyncio.run(ask())
    assert answer.status_code == 200
    assert answer.json() == {"account": "Iona_x"}
    assert running == [export_route.AT_ONCE - 1]  # its place given back once written
