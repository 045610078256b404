"""Getting back into an account and confirmed addresses (issue 39, §4.1, §4.2), against real
``keltis serve`` processes on SQLite and PostgreSQL and a real SMTP server on this machine
(aiosmtpd): each link is read from the e-mail that carried it and followed as its reader
would.

A password reset's link works once and ends every session and seat token of the account; an
unknown name or address is answered exactly as a real one; the links are limited per account
(across processes) and per address; used, replaced and expired links are refused in words;
bad input is a clear ``400``, never a ``500``. An address gets turn e-mails only once its
owner clicked the link sent to it, and a new address asks again."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from websockets.exceptions import ConnectionClosed

from keltis.server import db
from keltis.server.db import make_engine, migrate
from keltis.server.recovery import CONFIRM_PER_DAY, RESET_MINUTES
from keltis.server.store import now

from .conftest import fresh_database
from .harness import WAIT, Player, Server, free_port, join, start
from .people import PASSWORD, Member, login, my_seat, signup
from .test_clocks import wait_for
from .test_mail import (
    CORRESPONDENCE,
    PERSON,
    Inbox,
    confirm_address,
    link_token,
    mail_kind,
    play_until_seat,
    serving,
)

NEW_PASSWORD = "a brand new password"
#: Every e-mail an address asks for is allowed: each test of a limit sets its own.
MANY_MAILS = ("--mail-rate", "6000")
AGAINST_A_BOT = [{"kind": "person"}, {"kind": "bot", "level": "random"}]
#: The one answer to every request for a new password.
ASKED = {"requested": True, "minutes": RESET_MINUTES}


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    """A real SMTP server on this machine, keeping what it receives."""
    with serving(Inbox(free_port())) as box:
        yield box


def mailing(servers: Callable[..., Server], inbox: Inbox, *options: str) -> Server:
    """A server that e-mails through ``inbox``."""
    return servers("--smtp-host", "127.0.0.1", "--smtp-port", str(inbox.port), *options)


def confirmed(server: Server, inbox: Inbox, name: str, language: str = "en") -> Member:
    """A new account whose address (``name@example.org``) is confirmed, logged in."""
    member = signup(server, name, email=f"{name}@example.org", language=language)
    confirm_address(server, inbox, f"{name}@example.org")
    return member


def ask(server: Server, **body: Any) -> httpx.Response:
    with server.http() as http:
        return http.post("/api/password-resets", json=body)


def reset(server: Server, token: str, password: str = NEW_PASSWORD) -> httpx.Response:
    with server.http() as http:
        return http.post(f"/api/password-resets/{token}", json={"password": password})


def confirm(server: Server, token: str) -> httpx.Response:
    with server.http() as http:
        return http.post(f"/api/email-confirmations/{token}")


def code(answer: httpx.Response) -> str:
    return str(answer.json()["error"]["code"])


def quiet(seconds: float = 1.0) -> None:
    """An e-mail due comes within milliseconds: a second without one is none."""
    time.sleep(seconds)


def view_status(server: Server, match_id: str, token: str) -> int:
    with server.http() as http:
        answer = http.get(
            f"/api/matches/{match_id}/view", headers={"Authorization": f"Bearer {token}"}
        )
    return answer.status_code


def read_until_closed(player: Player) -> None:
    """Read what the server sends until it closes the connection (raises
    ``ConnectionClosed``; a connection that stays open fails on the wait)."""
    while True:
        player.recv(timeout=WAIT)


def change_links(database: str, account: str, **values: Any) -> None:
    """Change the rows of ``email_links`` of the account named ``account`` (time passing)."""
    engine = make_engine(database)
    try:
        with engine.begin() as connection:
            account_id = connection.execute(
                sa.select(db.accounts.c.id).where(db.accounts.c.name == account)
            ).scalar_one()
            connection.execute(
                db.email_links.update()
                .where(db.email_links.c.account_id == account_id)
                .values(**values)
            )
    finally:
        engine.dispose()


def stored_links(database: str) -> list[dict[str, Any]]:
    engine = make_engine(database)
    try:
        with engine.connect() as connection:
            return [dict(r._mapping) for r in connection.execute(sa.select(db.email_links))]
    finally:
        engine.dispose()


# -- a new password --------------------------------------------------------------------------


def test_a_reset_link_works_once_and_ends_every_session_and_seat_token(
    servers: Callable[..., Server], inbox: Inbox, database: str
) -> None:
    server = mailing(servers, inbox, *MANY_MAILS)
    address = "ann_reset@example.org"
    ann = confirmed(server, inbox, "ann_reset", language="de")
    there = login(server, "ann_reset")
    made = ann.post("/api/matches", json={"game": "cards", "seats": AGAINST_A_BOT}).json()
    match_id, old_token = made["id"], made["token"]
    derived = my_seat(ann, match_id)["token"]
    assert view_status(server, match_id, old_token) == 200
    seated = Player(server, match_id, old_token).connect()
    try:
        # asked for by name, in any case: the link goes to the account's address, in German
        asked = ask(server, name="ANN_RESET")
        assert asked.status_code == 202, asked.text
        assert asked.json() == ASKED
        mail = inbox.wait(address, 1, "reset")
        assert mail["Subject"] == "Keltis: ein neues Passwort für ann_reset"
        text = mail.get_content()
        assert f"{server.base}/#/reset/" in text
        assert f"{RESET_MINUTES} Minuten" in text
        assert "List-Unsubscribe" not in mail
        token = link_token(mail, "reset")
        # only the link's SHA-256 is stored
        rows = stored_links(database)
        assert hashlib.sha256(token.encode()).hexdigest() in [r["token_hash"] for r in rows]
        assert token not in repr(rows)

        # a password too short is refused, and the link still works
        short = reset(server, token, "short")
        assert short.status_code == 400
        assert code(short) == "account.bad_password"
        done = reset(server, token)
        assert done.status_code == 204, done.text

        # every session ended, every seat token opens nothing, the live connection closed
        assert ann.get("/api/sessions/current").status_code == 401
        assert there.get("/api/sessions/current").status_code == 401
        with pytest.raises(ConnectionClosed):
            read_until_closed(seated)
        assert view_status(server, match_id, old_token) == 403
        assert view_status(server, match_id, derived) == 403
        # the old password is refused, the new one logs in and finds the seat anew
        with server.http() as http:
            old = http.post("/api/sessions", json={"name": "ann_reset", "password": PASSWORD})
        assert old.status_code == 401
        back = login(server, "ann_reset", NEW_PASSWORD)
        fresh = my_seat(back, match_id)["token"]
        assert fresh not in (old_token, derived)
        assert view_status(server, match_id, fresh) == 200
        back.close()

        # the link works once
        again = reset(server, token, "yet another password")
        assert again.status_code == 400
        assert code(again) == "account.bad_link"
        assert again.json()["error"]["message"].startswith("This link is not valid")
        login(server, "ann_reset", NEW_PASSWORD).close()
    finally:
        seated.close()
        ann.close()
        there.close()
    assert "Traceback" not in server.logged("password-resets")


def test_an_unknown_name_or_address_gets_the_identical_answer(
    servers: Callable[..., Server], inbox: Inbox
) -> None:
    server = mailing(servers, inbox, *MANY_MAILS)
    confirmed(server, inbox, "ann_same").close()
    # an address never confirmed, and an account without one
    signup(server, "bea_same", email="bea_same@example.org").close()
    inbox.wait("bea_same@example.org", 1, "confirm")
    signup(server, "cid_same").close()
    asked = [
        {"name": "ann_same"},
        {"email": "ANN_SAME@example.org"},
        {"name": "nobody_here"},
        {"email": "nobody@example.org"},
        {"name": "bea_same"},
        {"email": "bea_same@example.org"},
        {"name": "cid_same"},
    ]
    answers = [ask(server, **body) for body in asked]
    for body, answer in zip(asked, answers, strict=True):
        assert answer.status_code == 202, (body, answer.text)
        assert answer.content == answers[0].content, body
        assert sorted(k for k in answer.headers if k != "date") == sorted(
            k for k in answers[0].headers if k != "date"
        ), body
        assert "set-cookie" not in answer.headers
    # one link went out: to the confirmed address, whether asked by name or by address
    # (the second within 15 minutes is held back)
    inbox.wait("ann_same@example.org", 1, "reset")
    quiet()
    assert [(m["To"], mail_kind(m)) for m in inbox.mails if mail_kind(m) == "reset"] == [
        ("ann_same@example.org", "reset")
    ]
    assert inbox.to("bea_same@example.org", None) == inbox.to("bea_same@example.org", "confirm")


def test_resets_are_limited_per_account_across_processes(
    servers: Callable[..., Server], inbox: Inbox, database: str
) -> None:
    one = mailing(servers, inbox, *MANY_MAILS)
    two = mailing(servers, inbox, *MANY_MAILS)
    address = "ann_limit@example.org"
    confirmed(one, inbox, "ann_limit").close()
    # twenty requests at once, through two processes: one e-mail
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda n: ask((one, two)[n % 2], name="ann_limit"), range(20)))
    assert {a.status_code for a in answers} == {202}
    first = link_token(inbox.wait(address, 1, "reset"), "reset")
    quiet()
    assert len(inbox.to(address, "reset")) == 1
    # a quarter of an hour later, another: it replaces the first
    change_links(database, "ann_limit", sent_at=now() - timedelta(minutes=16))
    assert ask(two, email=address).status_code == 202
    second = link_token(inbox.wait(address, 2, "reset"), "reset")
    assert second != first
    replaced = reset(one, first)
    assert replaced.status_code == 400
    assert code(replaced) == "account.bad_link"
    # a link past its time is refused as expired (and changes nothing)
    change_links(database, "ann_limit", expires_at=now() - timedelta(seconds=1))
    with one.http() as http:
        expired = http.post(
            f"/api/password-resets/{second}",
            json={"password": NEW_PASSWORD},
            headers={"Accept-Language": "es"},
        )
    assert expired.status_code == 410
    assert code(expired) == "account.link_expired"
    assert expired.json()["error"]["message"] == "Este enlace ha caducado: pide uno nuevo."
    login(one, "ann_limit").close()


def test_requests_for_e_mail_are_limited_per_address(
    servers: Callable[..., Server], inbox: Inbox
) -> None:
    server = mailing(servers, inbox, "--mail-rate", "3")
    answers = [ask(server, name=f"someone_{n}") for n in range(4)]
    assert [a.status_code for a in answers] == [202, 202, 202, 429]
    assert code(answers[3]) == "account.slow_down"


def test_without_an_smtp_server_the_answer_is_the_same(servers: Callable[..., Server]) -> None:
    server = servers(*MANY_MAILS)  # no --smtp-host: nothing is sent
    member = signup(server, "ann_nosmtp", email="ann_nosmtp@example.org")
    try:
        assert member.account["email_confirmed"] is False
        for body in ({"name": "ann_nosmtp"}, {"name": "nobody_else"}):
            answer = ask(server, **body)
            assert answer.status_code == 202
            assert answer.json() == ASKED
        again = member.post("/api/me/email-confirmation")
        assert again.status_code == 503
        assert code(again) == "mail.off"
    finally:
        member.close()


BAD_ASKS: list[Any] = [
    {},
    {"name": "ann", "email": "ann@example.org"},
    {"name": None, "email": None},
    {"name": "a\u0000b"},
    {"name": "a\u202eb"},
    {"name": "x" * 5000},
    {"email": "a\u0000b@example.org"},
    {"email": "no at sign"},
    {"email": "x" * 300 + "@example.org"},
    {"name": 5},
    {"email": ["ann@example.org"]},
    {"name": {"$ne": ""}},
    ["ann"],
    "ann",
]


def test_bad_input_is_a_clear_400(servers: Callable[..., Server], inbox: Inbox) -> None:
    server = mailing(servers, inbox, *MANY_MAILS)
    with server.http() as http:
        for body in BAD_ASKS:
            answer = http.post("/api/password-resets", json=body)
            assert answer.status_code == 400, (body, answer.text)
            assert code(answer).startswith("server.")
        assert http.post("/api/password-resets", content=b"{not json").status_code == 400
        for token in ("a%00b", "a%E2%80%AEb", "x" * 200, "a%0Ab"):
            for path in (f"/api/password-resets/{token}", f"/api/email-confirmations/{token}"):
                answer = http.post(path, json={"password": NEW_PASSWORD})
                assert answer.status_code == 400, (path, answer.text)
                assert code(answer) == "server.bad_request"
        unknown = "A" * 32
        for body in ({"password": 12345678}, {"password": None}, {}, {"password": ["x" * 9]}):
            answer = http.post(f"/api/password-resets/{unknown}", json=body)
            assert answer.status_code == 400, (body, answer.text)
            assert code(answer) == "server.bad_request"
        nul = http.post(f"/api/password-resets/{unknown}", json={"password": "pass\u0000word!"})
        assert nul.status_code == 400
        assert code(nul) == "account.bad_link"
        for path in (f"/api/password-resets/{unknown}", f"/api/email-confirmations/{unknown}"):
            answer = http.post(path, json={"password": NEW_PASSWORD})
            assert answer.status_code == 400
            assert code(answer) == "account.bad_link"
    log = server.logged("email-confirmations")
    assert "Traceback" not in log
    assert " 500" not in log


# -- confirmed addresses ---------------------------------------------------------------------


def _next_turn(server: Server, match_id: str, tokens: tuple[str, str]) -> None:
    """Seat 0 plays until it is seat 1's turn, seat 1 until it is seat 0's: a new decision
    is due to seat 0."""
    play_until_seat(server, match_id, tokens[0], 1)
    play_until_seat(server, match_id, tokens[1], 0)


def test_turn_e_mails_wait_for_the_address_to_be_confirmed(
    servers: Callable[..., Server], inbox: Inbox, database: str
) -> None:
    server = mailing(servers, inbox, *MANY_MAILS)
    first, second, third = (f"ann_{n}@example.org" for n in ("one", "two", "three"))
    ann = signup(server, "ann_confirm", email=first)
    try:
        assert ann.account["email_confirmed"] is False
        link = inbox.wait(first, 1, "confirm")
        assert link["Subject"] == "Keltis: confirm the e-mail address of ann_confirm"
        assert f"{server.base}/#/confirm/" in link.get_content()
        # asking again within 15 minutes: told to wait, nothing sent
        early = ann.post("/api/me/email-confirmation")
        assert early.status_code == 429
        assert code(early) == "account.mail_wait"
        assert "15 minutes" in early.json()["error"]["message"]

        # a correspondence match against a guest (who gets no e-mail): Ann begins
        made = ann.post(
            "/api/matches", json={"seats": [PERSON, PERSON], "time": CORRESPONDENCE}
        ).json()
        match_id = made["id"]
        guest = join(server, match_id, made["invites"][0]["invite"], "Guest")
        start(server, match_id, made["host_token"])
        token = (made["token"], guest["token"])
        wait_for(server, match_id, lambda m: m["to_move"] == 0)
        quiet()
        assert inbox.to(first) == []  # no turn e-mail to an unconfirmed address

        # the link confirms it (once); the next decision is mailed
        token_one = link_token(link, "confirm")
        done = confirm(server, token_one)
        assert done.status_code == 200, done.text
        assert done.json() == {"name": "ann_confirm", "email": first, "email_confirmed": True}
        assert confirm(server, token_one).status_code == 400
        account = ann.get("/api/sessions/current").json()["account"]
        assert account["email_confirmed"] is True
        already = ann.post("/api/me/email-confirmation")
        assert already.status_code == 409
        assert code(already) == "account.email_confirmed"
        _next_turn(server, match_id, token)
        inbox.wait(first, 1)

        # a new address asks again: no turn e-mail until it is confirmed
        changed = ann.patch("/api/me", json={"email": second})
        assert changed.status_code == 200, changed.text
        assert changed.json()["email_confirmed"] is False
        token_two = link_token(inbox.wait(second, 1, "confirm"), "confirm")
        # and again, before the second was confirmed: the second's link opens nothing
        assert ann.patch("/api/me", json={"email": third}).json()["email_confirmed"] is False
        token_three = link_token(inbox.wait(third, 1, "confirm"), "confirm")
        stale = confirm(server, token_two)
        assert stale.status_code == 400
        assert code(stale) == "account.bad_link"
        _next_turn(server, match_id, token)
        quiet()
        assert len(inbox.to(first)) == 1
        assert inbox.to(second) == inbox.to(third) == []
        # an expired link is refused as such; a new one (asked for later) confirms
        change_links(database, "ann_confirm", expires_at=now() - timedelta(seconds=1))
        expired = confirm(server, token_three)
        assert expired.status_code == 410
        assert code(expired) == "account.link_expired"
        change_links(database, "ann_confirm", sent_at=now() - timedelta(minutes=16))
        resent = ann.post("/api/me/email-confirmation")
        assert resent.status_code == 202, resent.text
        assert resent.json()["email"] == third
        assert confirm(server, link_token(inbox.wait(third, 2, "confirm"), "confirm")).is_success
        _next_turn(server, match_id, token)
        inbox.wait(third, 1)
        assert len(inbox.to(first)) == 1
        # the same address again is no change: it stays confirmed
        same = ann.patch("/api/me", json={"email": third, "language": "de"})
        assert same.json()["email_confirmed"] is True
    finally:
        ann.close()


def test_confirmation_links_are_limited_per_account(
    servers: Callable[..., Server], inbox: Inbox, database: str
) -> None:
    server = mailing(servers, inbox, *MANY_MAILS)
    ann = signup(server, "ann_daily", email="daily_0@example.org")
    try:
        inbox.wait("daily_0@example.org", 1, "confirm")
        for n in range(1, CONFIRM_PER_DAY + 2):
            assert ann.patch("/api/me", json={"email": f"daily_{n}@example.org"}).is_success
        quiet()
        sent = [m["To"] for m in inbox.mails if mail_kind(m) == "confirm"]
        assert len(sent) == CONFIRM_PER_DAY  # the sign-up's and four changes
        beyond = ann.post("/api/me/email-confirmation")
        assert beyond.status_code == 429
        assert code(beyond) == "account.mail_wait"
        # a day later the count starts again
        change_links(database, "ann_daily", day_start=now() - timedelta(days=1, seconds=1))
        assert ann.post("/api/me/email-confirmation").status_code == 202
        inbox.wait(f"daily_{CONFIRM_PER_DAY + 1}@example.org", 1, "confirm")
    finally:
        ann.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_an_address_given_before_is_unconfirmed(backend: str, tmp_path: Path) -> None:
    for url in fresh_database(backend, tmp_path):
        engine = make_engine(url)
        config = Config()
        config.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0006")
            connection.execute(
                sa.text(
                    "INSERT INTO accounts (id, name, name_key, password_hash, language, email,"
                    " email_turns, created_at, failed_logins) VALUES ('a1', 'Ann', 'ann', 'x',"
                    " 'en', 'ann@example.org', TRUE, '2026-01-01', 0)"
                )
            )
        migrate(engine)
        with engine.connect() as connection:
            rows = connection.execute(
                sa.select(db.accounts.c.email, db.accounts.c.email_confirmed_at)
            ).all()
        engine.dispose()
        assert rows == [("ann@example.org", None)]
