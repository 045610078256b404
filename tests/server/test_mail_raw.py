"""The turn e-mail as it goes over the wire (docs/server.md, "Being told it is your turn"),
read byte for byte by a real SMTP server on this machine (aiosmtpd), from real ``keltis
serve`` processes on SQLite and PostgreSQL: the unsubscribe headers as RFC 2369 and RFC 8058
write them (so that mail programs offer their unsubscribe button), and players' names that
no mail program turns into a link."""

from __future__ import annotations

import email
import email.policy
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

import pytest

from keltis.names import DELETED_NAME
from keltis.server.config import ServerConfig
from keltis.server.mail import Mailer, TurnMail, plain_name

from .harness import Server, free_port, join
from .test_mail import CORRESPONDENCE, PERSON, Inbox, account_id, mail_kind, serving, sign_up

#: A guest's name that a mail program would show as a link, were it sent as it is.
LINK_NAME = "http://evil.example/reset"


@dataclass
class RawInbox(Inbox):
    """The e-mails a local SMTP server received, each also as the bytes that came."""

    raw: list[bytes] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        self.raw.append(bytes(envelope.original_content or envelope.content))
        return await super().handle_DATA(server, session, envelope)

    def raw_to(self, address: str, kind: str | None = "turn") -> list[bytes]:
        """The bytes of the e-mails of ``kind`` to ``address``, in order."""
        return [
            raw
            for raw, mail in zip(self.raw, self.mails, strict=True)
            if mail["To"] == address and kind in (None, mail_kind(mail))
        ]


@pytest.fixture
def inbox() -> Iterator[RawInbox]:
    """A real SMTP server on this machine, keeping what it receives, byte for byte."""
    with serving(RawInbox(free_port())) as box:
        yield box


def header_lines(raw: bytes) -> list[str]:
    """The raw header lines of an e-mail (continuation lines joined to theirs, with their
    line break kept, so a folded header shows as one line holding ``\\r\\n``)."""
    head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii")
    lines: list[str] = []
    for line in head.split("\r\n"):
        if line[:1] in (" ", "\t") and lines:
            lines[-1] += "\r\n" + line
        else:
            lines.append(line)
    return lines


def test_the_unsubscribe_headers_go_out_as_rfc_2369_and_8058_write_them(
    servers: Callable[..., Server], inbox: RawInbox, database: str
) -> None:
    # a long public address: the link is far beyond the 78 characters a header is folded at
    public = "http://keltis.example.org/" + "a-long-path-to-the-server/" * 4 + "play"
    server = servers(
        "--smtp-host", "127.0.0.1", "--smtp-port", str(inbox.port), "--public-url", public
    )
    ann = sign_up(server, "ann_raw", "de", inbox)
    try:
        made = ann.post(
            "/api/matches",
            {"seats": [PERSON, {"kind": "bot", "level": "random"}], "time": CORRESPONDENCE},
        )
        assert made.status_code == 201, made.text
        inbox.wait(ann.email, 1)
    finally:
        ann.http.close()
    raw = inbox.raw_to(ann.email)[0]
    lines = header_lines(raw)
    ann_id = account_id(database, "ann_raw")
    unsubscribe = [line for line in lines if line.lower().startswith("list-unsubscribe:")]
    assert len(unsubscribe) == 1, lines
    # one line, the address in angle brackets as it is: no encoded word, no folding
    assert re.fullmatch(
        rf"List-Unsubscribe: <{re.escape(public)}/api/unsubscribe/{ann_id}/[A-Za-z0-9_-]{{43}}>",
        unsubscribe[0],
    ), unsubscribe[0]
    assert len(unsubscribe[0]) > 78
    assert "=?" not in unsubscribe[0]
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in lines
    # and the link in the text is the same address
    mail = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(mail, EmailMessage)
    assert unsubscribe[0].split(" ", 1)[1][1:-1] in mail.get_content()


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("http://evil.example/reset", '"http[:]//evil[.]example/reset"'),
        ("www.evil.example", '"www[.]evil[.]example"'),
        ("help@evil.example", '"help[@]evil[.]example"'),
        ("mailto:a@b.c", '"mailto:a[@]b[.]c"'),
        ("evil。example", '"evil[。]example"'),
        ("Ann B. Smith", '"Ann B. Smith"'),
        ("Dr. No...", '"Dr. No..."'),
        ("Ada", '"Ada"'),
    ],
)
def test_a_name_is_mailed_quoted_and_defanged(name: str, shown: str) -> None:
    assert plain_name(name) == shown


class _Accounts:
    """What composing an e-mail asks of the accounts: the unsubscribe link's secret."""

    def derive(self, purpose: str) -> str:
        return f"secret-{purpose}"


@pytest.mark.parametrize(
    ("lang", "words"), [("de", "(gelöschtes Konto)"), ("pl", "(usunięte konto)")]
)
def test_a_deleted_opponent_is_mailed_in_the_players_language(lang: str, words: str) -> None:
    mailer = Mailer(None, ServerConfig("sqlite://"), _Accounts(), None)  # type: ignore[arg-type]
    mail = mailer.compose(
        TurnMail(
            account_id="a1",
            email="ann@example.org",
            name="Ann",
            language=lang,
            match_id="m1",
            game="cards",
            opponents=["Bea", DELETED_NAME],
            deadline=None,
        )
    )
    text, subject = mail.get_content(), str(mail["Subject"])
    for part in (text, subject):
        assert f'"Bea", {words}' in part, part
        assert DELETED_NAME not in part


def test_a_guest_named_like_a_link_is_mailed_as_a_plain_name(
    servers: Callable[..., Server], inbox: RawInbox
) -> None:
    server = servers("--smtp-host", "127.0.0.1", "--smtp-port", str(inbox.port))
    ann = sign_up(server, "ann_link", "en", inbox)
    try:
        created = ann.post("/api/matches", {"seats": [PERSON, PERSON], "time": CORRESPONDENCE})
        assert created.status_code == 201, created.text
        made = created.json()
        # a guest takes the other seat under a name in the form of a link
        joined = join(server, made["id"], made["invites"][0]["invite"], LINK_NAME)
        assert joined["seat"] == 1
        with server.http() as http:
            started = http.post(
                f"/api/matches/{made['id']}/start",
                headers={"Authorization": f"Bearer {made['host_token']}"},
            )
        assert started.status_code == 200, started.text
        # the match starts with Ann's decision: she is told who she plays against
        mail = inbox.wait(ann.email, 1)
    finally:
        ann.http.close()
    raw = inbox.raw_to(ann.email)[0]
    text = mail.get_content()
    subject = str(mail["Subject"])
    shown = '"http[:]//evil[.]example/reset"'
    assert shown in text, text
    assert shown in subject, subject
    for part in (text, subject, raw.decode("ascii", "replace")):
        assert "evil.example" not in part
        assert "http://evil" not in part
    # the e-mail's own links are still links
    assert f"{server.base}/#/match/{made['id']}" in text
