"""The small things players met (issue 42 §7), against real ``keltis serve`` processes on
SQLite and PostgreSQL: a common password, or the account's name as its password, is refused
with its reason in the player's language — on registration, on a password change and on a
reset by an e-mailed link; no turn e-mail while the player looks at the match (two
processes), and one once they leave it; the account's time zone — a setting, checked — in
which a turn e-mail writes its deadline."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import httpx
import pytest
import sqlalchemy as sa

from keltis.i18n import Translator
from keltis.server import db
from keltis.server.accounts import check_password, common_passwords
from keltis.server.answers import RefusedError
from keltis.server.mail import deadline_text

from .harness import Player, Server, start
from .people import PASSWORD, login, signup
from .test_account_links import ask, confirmed, inbox, mailing, reset
from .test_mail import CORRESPONDENCE, PERSON, Inbox, link_token, play_until_seat
from .test_mail import sign_up as mail_sign_up

__all__ = ["inbox"]

#: A password none of these tests' names is, nor in the list of common ones.
GOOD = "a fine password of my own"


def code(answer: httpx.Response) -> str:
    return str(answer.json()["error"]["code"])


def said(answer: httpx.Response) -> str:
    return str(answer.json()["error"]["message"])


def register(server: Server, name: str, password: str, language: str = "en") -> httpx.Response:
    with server.http() as http:
        return http.post(
            "/api/accounts",
            json={"name": name, "password": password, "language": language},
            headers={"Accept-Language": language},
        )


@pytest.mark.parametrize(
    ("password", "name", "reason"),
    [
        ("password", "ann", "account.common_password"),
        ("PassWord1", "ann", "account.common_password"),
        ("qwertyuiop", "ann", "account.common_password"),
        ("iloveyou", "ann", "account.common_password"),
        ("ann_smith", "ann_smith", "account.password_is_name"),
        ("ANN_SMITH", "ann_smith", "account.password_is_name"),
        ("htims_nna", "ann_smith", "account.password_is_name"),
        ("ann_smith2026", "ann_smith", "account.password_is_name"),
        ("!ann_smith!", "ann_smith", "account.password_is_name"),
        ("bob_12345678", "bob_1", "account.password_is_name"),
        ("bobbybobby", "bobby", "account.password_is_name"),
    ],
)
def test_the_rule_refuses_common_passwords_and_the_name(
    password: str, name: str, reason: str
) -> None:
    with pytest.raises(RefusedError) as refused:
        check_password(password, name)
    assert refused.value.key == reason


@pytest.mark.parametrize(
    ("password", "name"),
    [
        (GOOD, "ann_smith"),
        (PASSWORD, "ann"),
        ("ann_smith and more words", "ann_smith"),
        ("xk3-Lumen-92", "lumen"),
        ("12345678x", "12345678"),  # a name of digits alone: only the name itself is refused
    ],
)
def test_the_rule_lets_other_passwords_be(password: str, name: str) -> None:
    check_password(password, name)


def test_the_list_is_the_well_kept_one() -> None:
    common = common_passwords()
    assert len(common) == 30_000 or len(common) > 29_000
    assert {"password", "123456789", "qwertyuiop", "iloveyou", "sunshine"} <= common


def test_registration_refuses_them_in_the_players_language(server: Server) -> None:
    german = Translator("de")
    common = register(server, "ann_common", "password", "de")
    assert common.status_code == 400
    assert code(common) == "account.common_password"
    assert said(common) == german("account.common_password")
    assert said(common) != Translator("en")("account.common_password")
    named = register(server, "ann_named", "Ann_Named99", "es")
    assert named.status_code == 400
    assert code(named) == "account.password_is_name"
    assert said(named) == Translator("es")("account.password_is_name")
    # neither made an account; a good password does
    for name in ("ann_common", "ann_named"):
        with server.http() as http:
            assert http.get(f"/api/players/{name}").status_code == 404
    made = register(server, "ann_named", GOOD)
    assert made.status_code == 201, made.text


def test_a_password_change_refuses_them(server: Server) -> None:
    bea = signup(server, "bea_change")
    try:
        for new, reason in (
            ("sunshine", "account.common_password"),
            ("egnahc_aeb", "account.password_is_name"),
        ):
            answer = bea.post(
                "/api/me/password",
                json={"old": PASSWORD, "new": new},
                headers={"Accept-Language": "pl"},
            )
            assert answer.status_code == 400, answer.text
            assert code(answer) == reason
            assert said(answer) == Translator("pl")(reason)
        # the old password still logs in
        login(server, "bea_change").close()
        done = bea.post("/api/me/password", json={"old": PASSWORD, "new": GOOD})
        assert done.status_code == 204, done.text
        login(server, "bea_change", GOOD).close()
    finally:
        bea.close()


def test_a_reset_refuses_them_and_the_link_still_works(
    servers: Callable[..., Server], inbox: Inbox
) -> None:
    server = mailing(servers, inbox)
    confirmed(server, inbox, "cleo_reset", language="hu").close()
    assert ask(server, name="cleo_reset").status_code == 202
    token = link_token(inbox.wait("cleo_reset@example.org", 1, "reset"), "reset")
    for password, reason in (
        ("football", "account.common_password"),
        ("CLEO_RESET", "account.password_is_name"),
    ):
        refused = reset(server, token, password)
        assert refused.status_code == 400, refused.text
        assert code(refused) == reason
    done = reset(server, token, GOOD)
    assert done.status_code == 204, done.text
    login(server, "cleo_reset", GOOD).close()


def test_no_turn_e_mail_while_the_player_looks_at_the_match(
    servers: Callable[..., Server], inbox: Inbox
) -> None:
    """Two processes: Ann's page is connected to the second while Bea, on the first, passes
    the turn to her — no e-mail; it goes once Ann's page closes. Bea, not looking, is
    e-mailed at once."""
    options = ("--smtp-host", "127.0.0.1", "--smtp-port", str(inbox.port), "--away-after", "3")
    one, two = servers(*options), servers(*options)
    ann = mail_sign_up(one, "ann_looks", "en", inbox)
    bea = mail_sign_up(one, "bea_looks", "en", inbox)
    try:
        made = ann.post("/api/matches", {"seats": [PERSON, PERSON], "time": CORRESPONDENCE}).json()
        match_id = made["id"]
        joined = bea.post(f"/api/matches/{match_id}/join", {"invite": made["invites"][0]["invite"]})
        bea_token = joined.json()["token"]
        start(one, match_id, made["host_token"])
        # Ann's first decision: her page is not open (joining is no looking): e-mailed
        inbox.wait(ann.email, 1)
        page = Player(two, match_id, made["token"]).connect()
        try:
            play_until_seat(one, match_id, made["token"], 1)
            inbox.wait(bea.email, 1)  # Bea is not looking: told at once
            play_until_seat(one, match_id, bea_token, 0)
            one.logged(f"seat 0 of match {match_id} is looking at it: no e-mail yet")
            assert len(inbox.to(ann.email)) == 1
        finally:
            page.close()
        # her page closed, the decision still hers: the e-mail goes
        second = inbox.wait(ann.email, 2)
        assert f"/#/match/{match_id}" in second.get_content()
    finally:
        ann.http.close()
        bea.http.close()


def test_the_time_zone_is_a_setting_checked_and_kept(server: Server) -> None:
    # registration: the browser's zone is kept; one the server does not know is left out
    with server.http() as http:
        made = http.post(
            "/api/accounts",
            json={"name": "tz_prague", "password": GOOD, "time_zone": "Europe/Prague"},
        )
        assert made.status_code == 201, made.text
        assert made.json()["account"]["time_zone"] == "Europe/Prague"
        odd = http.post(
            "/api/accounts",
            json={"name": "tz_odd", "password": GOOD, "time_zone": "Mars/Olympus_Mons"},
        )
        assert odd.status_code == 201, odd.text
        assert odd.json()["account"]["time_zone"] is None
    member = login(server, "tz_odd", GOOD)
    try:
        assert member.get("/api/sessions/current").json()["account"]["time_zone"] is None
        changed = member.patch("/api/me", json={"time_zone": "America/New_York"})
        assert changed.status_code == 200, changed.text
        assert changed.json()["time_zone"] == "America/New_York"
        again = member.get("/api/sessions/current").json()["account"]
        assert again["time_zone"] == "America/New_York"
        # refused in the player's language: a name this server does not know, a wrong type,
        # too long; nothing changes
        for bad, reason in (
            ("Mars/Olympus_Mons", "account.bad_time_zone"),
            ("europe/prague", "account.bad_time_zone"),
            ("", "account.bad_time_zone"),
            (12, "server.bad_request"),
            ("A" * 65, "server.bad_request"),
        ):
            answer = member.patch(
                "/api/me", json={"time_zone": bad}, headers={"Accept-Language": "cs"}
            )
            assert answer.status_code == 400, (bad, answer.text)
            assert code(answer) == reason, (bad, answer.text)
        refused = member.patch(
            "/api/me", json={"time_zone": "Nowhere/Town"}, headers={"Accept-Language": "cs"}
        )
        assert said(refused) == Translator("cs")("account.bad_time_zone")
        assert member.get("/api/sessions/current").json()["account"]["time_zone"] == (
            "America/New_York"
        )
        # null: back to UTC
        cleared = member.patch("/api/me", json={"time_zone": None})
        assert cleared.status_code == 200, cleared.text
        assert cleared.json()["time_zone"] is None
    finally:
        member.close()
    with server.http() as http:
        assert http.patch("/api/me", json={"time_zone": "Europe/Prague"}).status_code == 401


def test_the_deadline_is_written_in_the_time_zone() -> None:
    when = datetime(2026, 12, 2, 14, 30, tzinfo=UTC)
    assert deadline_text(when, "Europe/Prague") == "2026-12-02 15:30 Europe/Prague"
    assert deadline_text(when, "America/New_York") == "2026-12-02 09:30 America/New_York"
    assert deadline_text(when, "Asia/Kathmandu") == "2026-12-02 20:15 Asia/Kathmandu"
    summer = datetime(2026, 7, 2, 14, 30, tzinfo=UTC)
    assert deadline_text(summer, "Europe/Prague") == "2026-07-02 16:30 Europe/Prague"
    assert deadline_text(when, None) == "2026-12-02 14:30 UTC"
    assert deadline_text(when, "Gone/Zone") == "2026-12-02 14:30 UTC"


def test_a_turn_e_mail_writes_the_deadline_in_the_accounts_time_zone(
    servers: Callable[..., Server], inbox: Inbox, database: str
) -> None:
    server = servers("--smtp-host", "127.0.0.1", "--smtp-port", str(inbox.port))
    ann = mail_sign_up(server, "ann_zone", "en", inbox)
    bea = mail_sign_up(server, "bea_zone", "en", inbox)
    try:
        assert (
            ann.http.patch(
                "/api/me", json={"time_zone": "Asia/Kathmandu"}, headers={"X-CSRF-Token": ann.csrf}
            ).status_code
            == 200
        )
        made = ann.post("/api/matches", {"seats": [PERSON, PERSON], "time": CORRESPONDENCE}).json()
        match_id = made["id"]
        bea.post(f"/api/matches/{match_id}/join", {"invite": made["invites"][0]["invite"]})
        start(server, match_id, made["host_token"])
        mail = inbox.wait(ann.email, 1).get_content()
        engine = db.make_engine(database)
        try:
            with engine.connect() as connection:
                deadline = connection.execute(
                    sa.select(db.matches.c.deadline).where(db.matches.c.id == match_id)
                ).scalar_one()
        finally:
            engine.dispose()
        due = deadline.replace(tzinfo=UTC) if deadline.tzinfo is None else deadline
        written = deadline_text(due, "Asia/Kathmandu")
        assert written.endswith(" Asia/Kathmandu")
        assert f"Decide by {written}:" in mail, mail
        assert "UTC" not in mail
    finally:
        ann.http.close()
        bea.http.close()


def test_a_bad_name_is_refused_with_the_rule_in_words(server: Server) -> None:
    for name, language, words in (
        ("Zoë_W", "en", "the letters A to Z without accents"),
        ("Łucja", "pl", "bez polskich znaków"),
        ("has space", "de", "keine Leerzeichen"),
    ):
        answer = register(server, name, GOOD, language)
        assert answer.status_code == 400, answer.text
        assert code(answer) == "account.bad_name"
        assert words in said(answer)
        assert said(answer) == Translator(language)("account.bad_name")
