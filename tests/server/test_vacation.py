"""Vacation against real ``keltis serve`` processes, on SQLite and PostgreSQL (docs/
server.md, "Vacation"): the days counted and capped, the refusals; while an account is on
vacation its correspondence decisions do not run out of time (a real-time one still does),
the opponents see it in the match's seats, no turn e-mail goes to it; when the vacation
ends — early or by itself — the deadlines are pushed back by what the decision waited
through."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import httpx
import sqlalchemy as sa

from keltis.server import db
from keltis.server.accounts import AccountStore
from keltis.server.config import ServerConfig
from keltis.server.mail import Mailer
from keltis.server.store import now
from keltis.server.tasks import Background
from keltis.server.vacation import DAYS_PER_YEAR

from .harness import WAIT, Server
from .people import Member, signup
from .test_clocks import aware, database_engine, describe, persons_turn, stored, wait_for
from .test_seeks import QUICK_ACCOUNTS, refused

Servers = Callable[..., Server]
PERSON = {"kind": "person"}
RANDOM_BOT = {"kind": "bot", "level": "random"}


def vacation(member: Member) -> dict[str, Any]:
    answer = member.get("/api/me/vacation")
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


def start(member: Member, **body: Any) -> dict[str, Any]:
    answer = member.post("/api/me/vacation", json=body)
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


def test_days_are_counted_and_capped(servers: Servers, database: str) -> None:
    server = servers(*QUICK_ACCOUNTS)
    ann = signup(server, "ann")
    assert vacation(ann) == {"until": None, "used": 0, "left": DAYS_PER_YEAR, "per_year": 30}
    before = now()
    three = start(ann, days=3)
    until = datetime.fromisoformat(three["until"])
    assert before + timedelta(days=3) <= until <= now() + timedelta(days=3)
    # who follows ann sees it
    bea = signup(server, "bea")
    assert bea.put("/api/me/following/ann").status_code == 204
    assert bea.get("/api/me/following").json()["following"][0]["vacation"] == three["until"]
    # while it lasts, its planned days are held
    assert (three["used"], three["left"]) == (3, DAYS_PER_YEAR - 3)
    refused(ann.post("/api/me/vacation", json={"days": 1}), 409, "vacation.already")
    # ended within its first day: one day counted
    ended = ann.delete("/api/me/vacation")
    assert ended.status_code == 200, ended.text
    assert ended.json() == {"until": None, "used": 1, "left": 29, "per_year": 30}
    refused(ann.delete("/api/me/vacation"), 409, "vacation.none")
    assert bea.get("/api/me/following").json()["following"][0]["vacation"] is None
    too_long = ann.post("/api/me/vacation", json={"days": 30})
    refused(too_long, 409, "vacation.too_long")
    assert "29" in too_long.json()["error"]["message"]
    # without days: all the days left
    rest = start(ann)
    assert datetime.fromisoformat(rest["until"]) - now() > timedelta(days=28, hours=23)
    assert (rest["used"], rest["left"]) == (30, 0)
    assert ann.delete("/api/me/vacation").json()["used"] == 2
    # a long vacation earlier this year: 28 more days used (written behind the server's back)
    with database_engine(database) as engine, engine.begin() as connection:
        me = connection.execute(
            sa.select(db.accounts.c.id).where(db.accounts.c.name == "ann")
        ).scalar_one()
        began = max(datetime(now().year, 1, 1, tzinfo=now().tzinfo), now() - timedelta(days=40))
        connection.execute(
            db.vacations.insert().values(
                account_id=me,
                started_at=began,
                until=began + timedelta(days=28),
                ended_at=began + timedelta(days=27, hours=1),
            )
        )
    assert vacation(ann)["left"] == 0
    refused(ann.post("/api/me/vacation", json={}), 409, "vacation.no_days")


def test_bad_bodies_and_who_may(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    ann = signup(server, "ann")
    for body in ({"days": 0}, {"days": 31}, {"days": "soon"}, {"days": 2.5}, []):
        refused(ann.post("/api/me/vacation", json=body), 400, "server.bad_request")
    with server.http() as guest:
        refused(guest.get("/api/me/vacation"), 401, "account.no_session")
        refused(guest.post("/api/me/vacation", json={}), 401, "account.no_session")
    with httpx.Client(base_url=server.base, cookies=ann.cookies, timeout=WAIT) as bare:
        refused(bare.post("/api/me/vacation", json={}), 403, "account.cross_site")
        refused(bare.delete("/api/me/vacation"), 403, "account.cross_site")
    assert vacation(ann)["until"] is None


def _match(member: Member, time_control: dict[str, Any]) -> str:
    """A match of ``member`` (seat 0) against a random bot with ``time_control``."""
    answer = member.post("/api/matches", json={"seats": [PERSON, RANDOM_BOT], "time": time_control})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def _age(engine: Any, match_id: str, by: timedelta) -> Any:
    """The match's decision began ``by`` earlier and its deadline is ``by`` earlier (what
    time passing does); the stored row before."""
    row = stored(engine, match_id)
    with engine.begin() as connection:
        connection.execute(
            db.matches.update()
            .where(db.matches.c.id == match_id)
            .values(turn_since=aware(row.turn_since) - by, deadline=aware(row.deadline) - by)
        )
    return row


def test_a_correspondence_deadline_waits_while_on_vacation_and_is_pushed_back(
    servers: Servers, database: str
) -> None:
    server = servers(*QUICK_ACCOUNTS, "--stand-in", "random")
    ann = signup(server, "ann")
    post = _match(ann, {"kind": "correspondence", "days": 1})
    live = _match(ann, {"kind": "realtime", "decision": 600, "bank": 0})
    wait_for(server, post, persons_turn)
    wait_for(server, live, persons_turn)
    away = start(ann, days=5)
    # the opponents see it: the seat's vacation, a date and nothing else (also the
    # real-time match, whose clock goes on, says nothing)
    seen = wait_for(server, post, lambda m: m["seats"][0]["vacation"] is not None)
    assert seen["seats"][0]["vacation"] == away["until"]
    assert seen["clock"] is None  # its clock stands still: none is shown
    assert seen["seats"][1]["vacation"] is None
    assert describe(server, live)["seats"][0]["vacation"] is None
    with database_engine(database) as engine:
        # the vacation began (almost) three days ago, both decisions two days ago: both
        # deadlines (a day for the correspondence one) passed a day ago
        almost = now() - timedelta(days=3) + timedelta(minutes=1)
        with engine.begin() as connection:
            connection.execute(db.vacations.update().values(started_at=almost))
        aged = _age(engine, post, timedelta(days=2))
        _age(engine, live, timedelta(days=2))
        # the real-time match is not on vacation: its seat runs out of time …
        wait_for(server, live, lambda m: m["seats"][0]["timed_out"])
        # … in the same pass that passed the correspondence one by
        match = describe(server, post)
        assert not match["seats"][0]["timed_out"]
        assert match["seats"][0]["stand_in"] is None
        ended = ann.delete("/api/me/vacation")
        assert ended.status_code == 200, ended.text
        row = stored(engine, post)
        with engine.connect() as connection:
            vacation_row = connection.execute(sa.select(db.vacations)).one()
        ended_at = aware(vacation_row.ended_at)
        # the decision waited through the vacation from its start (two days ago) to its
        # end: pushed back by that much, a day ahead again
        waited = ended_at - (aware(aged.turn_since) - timedelta(days=2))
        assert aware(row.deadline) == aware(aged.deadline) - timedelta(days=2) + waited
        assert aware(row.turn_since) == aware(aged.turn_since) - timedelta(days=2) + waited
        assert timedelta(hours=23) < aware(row.deadline) - now() <= timedelta(days=1)
    # three days of vacation counted: it lasted a little less than three days
    assert vacation(ann)["used"] == 3
    clock = describe(server, post)["clock"]
    assert clock["expired"] is False
    assert describe(server, post)["seats"][0]["vacation"] is None


def test_a_vacation_ends_by_itself_and_pushes_the_deadline_back(
    servers: Servers, database: str
) -> None:
    server = servers(*QUICK_ACCOUNTS, "--stand-in", "random")
    ann = signup(server, "ann")
    post = _match(ann, {"kind": "correspondence", "days": 1})
    wait_for(server, post, persons_turn)
    start(ann, days=2)
    with database_engine(database) as engine:
        # it began two and a half days ago and ended a minute ago (its planned end); the
        # decision began two days ago: its deadline passed a day ago
        with engine.begin() as connection:
            connection.execute(
                db.vacations.update().values(
                    started_at=now() - timedelta(days=2, hours=12),
                    until=now() - timedelta(minutes=1),
                )
            )
        aged = _age(engine, post, timedelta(days=2))
        deadline = time.monotonic() + WAIT
        while True:  # the timeout task of the server ends it (every --timeout-interval)
            with engine.connect() as connection:
                row = connection.execute(sa.select(db.vacations)).one()
            if row.ended_at is not None:
                break
            assert time.monotonic() < deadline, "the vacation did not end by itself"
            time.sleep(0.1)
        assert aware(row.ended_at) == aware(row.until)
        pushed = stored(engine, post)
        # pushed back by what the decision waited through: from its start to the end
        waited = aware(row.until) - (aware(aged.turn_since) - timedelta(days=2))
        assert aware(pushed.deadline) == aware(aged.deadline) - timedelta(days=2) + waited
        assert timedelta(hours=23) < aware(pushed.deadline) - now() < timedelta(days=1)
    match = describe(server, post)
    assert not match["seats"][0]["timed_out"]
    assert match["clock"]["expired"] is False
    assert match["seats"][0]["vacation"] is None
    # two and a half days: three begun days counted
    assert vacation(ann)["used"] == 3


def test_no_turn_e_mail_while_on_vacation(servers: Servers, database: str) -> None:
    server = servers(*QUICK_ACCOUNTS)  # no SMTP server: the test claims the e-mail itself
    ann = signup(server, "ann", email="ann@example.org")
    with database_engine(database) as engine:
        with engine.begin() as connection:
            connection.execute(
                db.accounts.update()
                .where(db.accounts.c.name == "ann")
                .values(email_confirmed_at=now())
            )
        post = _match(ann, {"kind": "correspondence", "days": 3})
        match = wait_for(server, post, persons_turn)
        mailer = Mailer(engine, ServerConfig(database), AccountStore(engine), Background())
        start(ann, days=1)
        # the turn e-mail the server would send ann now (what Mailer.turn_due claims)
        assert mailer.claim(post, match["version"], 0) is None
        assert ann.delete("/api/me/vacation").status_code == 200
        told = mailer.claim(post, match["version"], 0)
        assert told is not None
        assert told.email == "ann@example.org"
