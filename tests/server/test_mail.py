"""E-mail when it is a player's turn in a correspondence match (docs/server.md, "Being told
it is your turn"), against real ``keltis serve`` processes and a real SMTP server on this
machine (aiosmtpd), on SQLite and PostgreSQL: one e-mail per decision due to an account,
its headers and links, and the one-click unsubscribe. Turn e-mails go only to a confirmed
address: the accounts here confirm theirs first (``test_account_links.py`` tests that)."""

from __future__ import annotations

import contextlib
import email
import email.policy
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any, TypeVar

import httpx
import pytest
import sqlalchemy as sa
from aiosmtpd.controller import Controller

from keltis.server import db

from .harness import WAIT, Server, free_port
from .test_clocks import act_first_legal, describe, wait_for

PERSON = {"kind": "person"}
CORRESPONDENCE = {"kind": "correspondence", "days": 3}


@dataclass
class Inbox:
    """The e-mails a local SMTP server received, in order."""

    port: int
    mails: list[EmailMessage] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        """aiosmtpd's handler: keep the message."""
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self.arrived:
            self.mails.append(message)
            self.arrived.notify_all()
        return "250 OK"

    def to(self, address: str, kind: str | None = "turn") -> list[EmailMessage]:
        """The e-mails to ``address`` of ``kind`` (``turn``, ``reset``, ``confirm``; ``None``:
        all of them)."""
        return [m for m in self.mails if m["To"] == address and kind in (None, mail_kind(m))]

    def wait(self, address: str, count: int, kind: str | None = "turn") -> EmailMessage:
        """The ``count``-th e-mail of ``kind`` to ``address``, once it has come."""
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.to(address, kind)) >= count, WAIT), (
                f"no {kind} e-mail number {count} to {address}: "
                f"{[(m['To'], mail_kind(m)) for m in self.mails]}"
            )
            return self.to(address, kind)[count - 1]


def mail_kind(mail: EmailMessage) -> str:
    """What an e-mail of the server is: ``turn``, ``reset`` or ``confirm`` (the word its
    ``Message-ID`` is made with)."""
    found = re.search(r"\.([a-z]+)@", str(mail["Message-ID"]))
    assert found is not None, mail["Message-ID"]
    return found[1]


#: A link of an e-mail to the client's page that sets a new password or confirms an address.
# (a token may end in "-": no word boundary after it, so "not one more token character")
LINK = re.compile(r"/#/(reset|confirm)/([A-Za-z0-9_-]{32})(?![A-Za-z0-9_-])")


def link_token(mail: EmailMessage, kind: str) -> str:
    """The secret of the ``kind`` link (``reset``, ``confirm``) an e-mail holds."""
    found = [m[2] for m in LINK.finditer(mail.get_content()) if m[1] == kind]
    assert len(found) == 1, mail.get_content()
    return found[0]


def confirm_address(server: Server, inbox: Inbox, address: str, count: int = 1) -> None:
    """Follow the ``count``-th link that confirms ``address`` (its e-mail read from
    ``inbox``)."""
    token = link_token(inbox.wait(address, count, "confirm"), "confirm")
    with server.http() as http:
        answer = http.post(f"/api/email-confirmations/{token}")
    assert answer.status_code == 200, answer.text
    assert answer.json()["email"] == address


B = TypeVar("B", bound="Inbox")


@contextlib.contextmanager
def serving(box: B) -> Iterator[B]:
    """``box`` as a real SMTP server on this machine (its port) while the block runs."""
    controller = Controller(box, hostname="127.0.0.1", port=box.port)
    controller.start()
    try:
        yield box
    finally:
        controller.stop()


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    """A real SMTP server on this machine, keeping what it receives."""
    with serving(Inbox(free_port())) as box:
        yield box


@dataclass
class Member:
    """A logged-in account: its HTTP client (holding the session cookie) and ``csrf``."""

    name: str
    email: str
    http: httpx.Client
    csrf: str

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})


def sign_up(server: Server, name: str, language: str, inbox: Inbox | None = None) -> Member:
    """A new account with an e-mail address (``POST /api/accounts``), logged in; its
    address confirmed through the link mailed to ``inbox``, if given."""
    http = server.http()
    address = f"{name}@example.org"
    answer = http.post(
        "/api/accounts",
        json={"name": name, "password": "a long password", "language": language, "email": address},
    )
    assert answer.status_code == 201, answer.text
    if inbox is not None:
        confirm_address(server, inbox, address)
    return Member(name, address, http, answer.json()["csrf"])


def account_id(database: str, name: str) -> str:
    engine = db.make_engine(database)
    try:
        with engine.connect() as connection:
            found = connection.execute(
                sa.select(db.accounts.c.id).where(db.accounts.c.name == name)
            ).scalar_one()
    finally:
        engine.dispose()
    return str(found)


def play_until_seat(server: Server, match_id: str, token: str, seat: int) -> dict[str, Any]:
    """The seat of ``token`` plays until the turn is ``seat``'s; the description then."""
    while True:
        match = describe(server, match_id)
        if match["to_move"] == seat:
            return match
        act_first_legal(server, match_id, token)


def test_a_correspondence_turn_is_e_mailed_and_the_link_unsubscribes(
    servers: Callable[..., Server], inbox: Inbox, database: str
) -> None:
    server = servers("--smtp-host", "127.0.0.1", "--smtp-port", str(inbox.port))
    ann = sign_up(server, "ann_mail", "de", inbox)
    bea = sign_up(server, "bea_mail", "en", inbox)
    try:
        created = ann.post("/api/matches", {"seats": [PERSON, PERSON], "time": CORRESPONDENCE})
        assert created.status_code == 201, created.text
        made = created.json()
        match_id = made["id"]
        joined = bea.post(f"/api/matches/{match_id}/join", {"invite": made["invites"][0]["invite"]})
        assert joined.status_code == 200, joined.text
        bea_token = joined.json()["token"]
        with server.http() as http:
            started = http.post(
                f"/api/matches/{match_id}/start",
                headers={"Authorization": f"Bearer {made['host_token']}"},
            )
        assert started.status_code == 200, started.text

        # the match starts with Ann's decision: she is told, once
        first = inbox.wait(ann.email, 1)
        assert first["From"] == "keltis@127.0.0.1"
        assert "ann_mail" in first.get_content()
        assert "bea_mail" in first["Subject"]
        link = f"{server.base}/#/match/{match_id}"
        assert link in first.get_content()
        ann_id = account_id(database, "ann_mail")
        unsubscribe = re.fullmatch(r"<(.+)>", first["List-Unsubscribe"])
        assert unsubscribe is not None
        assert unsubscribe[1].startswith(f"{server.base}/api/unsubscribe/{ann_id}/")
        assert unsubscribe[1] in first.get_content()
        assert first["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert first["Auto-Submitted"] == "auto-generated"

        # Ann plays (her decisions in a row are not mailed): then it is Bea's turn
        play_until_seat(server, match_id, made["token"], 1)
        to_bea = inbox.wait(bea.email, 1)
        assert link in to_bea.get_content()
        assert len(inbox.to(ann.email)) == 1
        bea_link = re.fullmatch(r"<(.+)>", to_bea["List-Unsubscribe"])
        assert bea_link is not None
        address = bea_link[1].removeprefix(server.base)

        with server.http() as http:
            # the link opens a page with the button; it changes nothing by itself
            page = http.get(address, headers={"Accept-Language": "de"})
            assert page.status_code == 200
            assert page.headers["content-type"].startswith("text/html")
            assert '<form method="post">' in page.text
            assert "<script" not in page.text
            assert 'lang="de"' in page.text
            # a wrong token, or an account that is not, is refused alike
            account, token = address.rsplit("/", 2)[-2:]
            for wrong in (
                f"/api/unsubscribe/{account}/{token[:-1]}x",
                f"/api/unsubscribe/{account}/",
                f"/api/unsubscribe/nobody/{token}",
                f"/api/unsubscribe/{ann_id}/{token}",
            ):
                refused = http.post(wrong)
                if wrong.endswith("/"):
                    assert refused.status_code in (404, 405)
                    continue
                assert refused.status_code == 403, wrong
                assert refused.json()["error"]["code"] == "mail.bad_unsubscribe"
            assert http.get(f"/api/unsubscribe/{account}/{token[:-1]}x").status_code == 403
            # the mail program's one-click POST (RFC 8058): a form body
            done = http.post(
                address,
                content=b"List-Unsubscribe=One-Click",
                headers={"Content-Type": "application/x-www-form-urlencoded"},
            )
            assert done.status_code == 200, done.text
            assert done.json() == {"email_turns": False}
            # the page's button, from a browser: a page saying so
            again = http.post(
                address,
                data={"List-Unsubscribe": "One-Click"},
                headers={"Accept": "text/html"},
            )
            assert again.status_code == 200
            assert "text/html" in again.headers["content-type"]
        assert bea.http.get("/api/sessions/current").json()["account"]["email_turns"] is False

        # Bea plays, Ann is told again; Ann plays, and Bea is not told any more
        play_until_seat(server, match_id, bea_token, 0)
        inbox.wait(ann.email, 2)
        play_until_seat(server, match_id, made["token"], 1)
        # (an e-mail due comes within milliseconds: a second without one is none)
        time.sleep(1.0)
        assert len(inbox.to(bea.email)) == 1
        assert len(inbox.to(ann.email)) == 2
    finally:
        ann.http.close()
        bea.http.close()


def test_no_e_mail_without_an_smtp_server_or_for_a_real_time_match(
    servers: Callable[..., Server], inbox: Inbox
) -> None:
    quiet = servers()  # no --smtp-host: nothing is sent
    ann = sign_up(quiet, "ann_quiet", "en")
    try:
        made = ann.post(
            "/api/matches",
            {"seats": [PERSON, {"kind": "bot", "level": "random"}], "time": CORRESPONDENCE},
        )
        assert made.status_code == 201, made.text
        wait_for(quiet, made.json()["id"], lambda m: m["to_move"] == 0)
    finally:
        ann.http.close()
    mailing = servers("--smtp-host", "127.0.0.1", "--smtp-port", str(inbox.port))
    bea = sign_up(mailing, "bea_quick", "en", inbox)
    try:
        made = bea.post(
            "/api/matches",
            {
                "seats": [PERSON, {"kind": "bot", "level": "random"}],
                "time": {"kind": "realtime", "decision": 60},
            },
        )
        assert made.status_code == 201, made.text
        match_id = made.json()["id"]
        wait_for(mailing, match_id, lambda m: m["to_move"] == 0)
        # a correspondence match afterwards is mailed: the real-time one was not
        letters = bea.post(
            "/api/matches",
            {"seats": [PERSON, {"kind": "bot", "level": "random"}], "time": CORRESPONDENCE},
        )
        assert letters.status_code == 201, letters.text
        only = inbox.wait(bea.email, 1)
        assert f"/#/match/{letters.json()['id']}" in only.get_content()
    finally:
        bea.http.close()
    assert [m["To"] for m in inbox.mails] == [bea.email] * 2  # the confirmation, the turn
    assert [mail_kind(m) for m in inbox.mails] == ["confirm", "turn"]
