"""The small things players met (issue 42 §7), against real ``keltis serve`` processes on
SQLite and PostgreSQL: a common password, or the account's name as its password, is refused
with its reason in the player's language — on registration, on a password change and on a
reset by an e-mailed link."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from keltis.i18n import Translator
from keltis.server.accounts import check_password, common_passwords
from keltis.server.answers import RefusedError

from .harness import Server
from .people import PASSWORD, login, signup
from .test_account_links import ask, confirmed, inbox, mailing, reset
from .test_mail import Inbox, link_token

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
