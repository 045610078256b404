"""Names and ids a request brings, against real ``keltis serve`` processes on SQLite and
PostgreSQL (docs/server.md, "Limits"): every route checks each name and id it takes — in
its address or its body — with the one shared check (``keltis.server.textcheck``) before
anything is looked up, and answers one that no name or id could be with ``400`` in the one
error shape: a NUL, which PostgreSQL's text cannot hold, is never a ``500`` with a
traceback. Players' names refuse control, formatting (bidirectional, zero-width) and
separator characters, at creation and at joining alike."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from keltis.i18n import Translator

from .characters import ACCEPTED, REFUSED
from .harness import Server, create, join
from .people import PASSWORD, Member, signup

PERSON = {"kind": "person"}
BOT = {"kind": "bot", "level": "random"}
#: A NUL in a name or id, in a body and in an address.
NUL, IN_PATH = "a\x00b", "a%00b"
BAD_NAME, BAD_REQUEST = "server.bad_name", "server.bad_request"

#: Every route that takes a name or an id, with one that holds a NUL: method, address,
#: body, whether a logged-in account asks (``{match}`` and ``{invite}``: a real match's),
#: and the refusal's code.
ROUTES: list[tuple[str, str, Any, bool, str]] = [
    # names and ids in the address
    ("GET", f"/api/players/{IN_PATH}", None, False, BAD_NAME),
    ("DELETE", f"/api/me/mutes/{IN_PATH}", None, True, BAD_NAME),
    ("DELETE", f"/api/me/blocks/{IN_PATH}", None, True, BAD_NAME),
    ("POST", f"/api/me/warnings/{IN_PATH}/seen", None, True, BAD_REQUEST),
    ("GET", f"/api/matches/{IN_PATH}", None, False, BAD_REQUEST),
    ("POST", f"/api/matches/{IN_PATH}/join", {"invite": "x", "name": "Bea"}, False, BAD_REQUEST),
    ("POST", f"/api/matches/{IN_PATH}/start", None, False, BAD_REQUEST),
    ("POST", f"/api/matches/{IN_PATH}/again", None, False, BAD_REQUEST),
    ("GET", f"/api/matches/{IN_PATH}/view", None, False, BAD_REQUEST),
    (
        "POST",
        f"/api/matches/{IN_PATH}/actions",
        {"action": "pass", "version": 0},
        False,
        BAD_REQUEST,
    ),
    ("GET", f"/api/matches/{IN_PATH}/record", None, False, BAD_REQUEST),
    ("GET", f"/api/matches/{IN_PATH}/replay", None, False, BAD_REQUEST),
    ("GET", f"/api/matches/{IN_PATH}/review", None, False, BAD_REQUEST),
    ("POST", f"/api/matches/{IN_PATH}/review", None, False, BAD_REQUEST),
    ("GET", f"/api/matches/{IN_PATH}/chat", None, True, BAD_REQUEST),
    ("POST", f"/api/matches/{IN_PATH}/chat", {"text": "hi"}, True, BAD_REQUEST),
    ("POST", f"/api/seeks/{IN_PATH}/join", None, True, BAD_REQUEST),
    ("DELETE", f"/api/seeks/{IN_PATH}", None, True, BAD_REQUEST),
    ("GET", f"/api/tutorials/{IN_PATH}", None, False, BAD_REQUEST),
    ("GET", f"/api/catalogs/{IN_PATH}", None, False, BAD_REQUEST),
    ("GET", f"/api/unsubscribe/{IN_PATH}/token", None, False, BAD_REQUEST),
    ("POST", f"/api/unsubscribe/account/{IN_PATH}", None, False, BAD_REQUEST),
    ("POST", f"/api/password-resets/{IN_PATH}", {"password": PASSWORD}, False, BAD_REQUEST),
    ("POST", f"/api/email-confirmations/{IN_PATH}", None, False, BAD_REQUEST),
    # names and ids in the body
    ("POST", "/api/sessions", {"name": NUL, "password": PASSWORD}, False, BAD_NAME),
    ("POST", "/api/password-resets", {"name": NUL}, False, BAD_NAME),
    ("POST", "/api/password-resets", {"email": f"{NUL}@example.org"}, False, BAD_REQUEST),
    ("POST", "/api/accounts", {"name": NUL, "password": PASSWORD}, False, BAD_NAME),
    (
        "POST",
        "/api/accounts",
        {"name": "seatless", "password": PASSWORD, "seats": [{"match": NUL, "token": "t"}]},
        False,
        BAD_REQUEST,
    ),
    (
        "POST",
        "/api/accounts",
        {"name": "seatless", "password": PASSWORD, "seats": [{"match": "{match}", "token": NUL}]},
        False,
        BAD_REQUEST,
    ),
    ("POST", "/api/me/mutes", {"name": NUL}, True, BAD_NAME),
    ("POST", "/api/me/blocks", {"name": NUL}, True, BAD_NAME),
    ("POST", "/api/reports", {"name": NUL, "reason": "cheating"}, True, BAD_NAME),
    (
        "POST",
        "/api/reports",
        {"name": "someone", "reason": "cheating", "match": NUL},
        True,
        BAD_REQUEST,
    ),
    ("POST", "/api/me/seats", {"seats": [{"match": NUL, "token": "t"}]}, True, BAD_REQUEST),
    ("POST", "/api/me/seats", {"seats": [{"match": "{match}", "token": NUL}]}, True, BAD_REQUEST),
    ("POST", "/api/matches", {"seats": [PERSON, BOT], "name": NUL}, False, BAD_NAME),
    ("POST", "/api/matches", {"seats": [PERSON, {**BOT, "name": NUL}]}, False, BAD_NAME),
    ("POST", "/api/matches", {"tutorial": NUL, "name": "Ada"}, False, BAD_REQUEST),
    ("POST", "/api/matches/{match}/join", {"invite": NUL, "name": "Bea"}, False, BAD_REQUEST),
    ("POST", "/api/matches/{match}/join", {"invite": "{invite}", "name": NUL}, False, BAD_NAME),
]


@pytest.fixture(scope="module")
def member(server: Server) -> Iterator[Member]:
    """An account logged in on the module's server."""
    with signup(server, f"in{secrets.token_hex(4)}") as logged:
        yield logged


@pytest.fixture(scope="module")
def waiting(server: Server) -> dict[str, Any]:
    """A match waiting for its second player (its id and the invite stay good)."""
    return create(server, seats=[PERSON, PERSON])


def filled(value: Any, made: dict[str, Any]) -> Any:
    """``value`` with ``{match}`` and ``{invite}`` replaced by the match ``made``'s."""
    if isinstance(value, str):
        return value.replace("{match}", made["id"]).replace(
            "{invite}", made["invites"][0]["invite"]
        )
    if isinstance(value, list):
        return [filled(v, made) for v in value]
    if isinstance(value, dict):
        return {k: filled(v, made) for k, v in value.items()}
    return value


def answered_cleanly(server: Server, before: int) -> None:
    """The server logged no traceback and no ``500`` since line ``before`` of its log (a
    request sent after the one checked marks where its lines end)."""
    mark = secrets.token_hex(6)
    with server.http() as http:
        http.get("/api/health", params={"mark": mark})
    log = server.logged(mark)
    since = "".join(server.log[before:])
    assert "Traceback" not in since, since[-3000:]
    assert " 500 " not in since, since[-3000:]
    assert mark in log


def check_refused(answer: httpx.Response, code: str, lang: str = "de") -> None:
    """A ``400`` in the one error shape with ``code``, worded in ``lang``, repeating no
    character that no name holds."""
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert error["code"] == code, error
    assert error["message"], error
    assert "\x00" not in error["message"]
    if code == BAD_NAME:
        limits = [40, 64]
        assert error["message"] in [Translator(lang)(code, limit=n) for n in limits], error


@pytest.mark.parametrize(
    ("method", "path", "body", "logged_in", "code"),
    ROUTES,
    ids=[f"{m} {p} {i}" for i, (m, p, *_rest) in enumerate(ROUTES)],
)
def test_a_nul_in_any_name_or_id_is_a_clear_400(
    server: Server,
    member: Member,
    waiting: dict[str, Any],
    method: str,
    path: str,
    body: Any,
    logged_in: bool,
    code: str,
) -> None:
    before = len(server.log)
    client = member if logged_in else server.http()
    extra: dict[str, Any] = {} if body is None else {"json": filled(body, waiting)}
    answer = client.request(
        method, filled(path, waiting), headers={"Accept-Language": "de"}, **extra
    )
    check_refused(answer, code)
    answered_cleanly(server, before)


def test_the_invite_of_a_refused_join_still_opens_its_seat(
    server: Server, waiting: dict[str, Any]
) -> None:
    # (after every refused join above, in whatever order the tests ran)
    made = create(server, seats=[PERSON, PERSON])
    invite = made["invites"][0]["invite"]
    with server.http() as http:
        refused = http.post(
            f"/api/matches/{made['id']}/join", json={"invite": invite, "name": "Be\u202ea"}
        )
    check_refused(refused, BAD_NAME, "en")
    assert join(server, made["id"], invite, "Bea")["seat"] == 1


@pytest.mark.parametrize("kind", list(REFUSED))
def test_names_refuse_control_formatting_and_separator_characters(
    server: Server, waiting: dict[str, Any], kind: str
) -> None:
    """ "evil" with a right-to-left override shows as "live"; a zero-width space makes two
    names look alike; a line separator breaks the one line a name is shown on: each is
    refused wherever a name is given — the creator's, a bot's, a joining player's."""
    before = len(server.log)
    char = REFUSED[kind]
    name = f"ev{char}il"
    made = waiting  # refused joins leave its invite good
    invite = made["invites"][0]["invite"]
    with server.http() as http:
        lang = {"Accept-Language": "pl"}
        creator = http.post(
            "/api/matches", json={"seats": [PERSON, BOT], "name": name}, headers=lang
        )
        check_refused(creator, BAD_NAME, "pl")
        bot = http.post("/api/matches", json={"seats": [PERSON, {**BOT, "name": name}]})
        check_refused(bot, BAD_NAME, "en")
        joined = http.post(
            f"/api/matches/{made['id']}/join",
            json={"invite": invite, "name": name},
            headers=lang,
        )
        check_refused(joined, BAD_NAME, "pl")
        # the same character anywhere in the name, alone too
        for other in (f"{char}evil", f"evil{char}", char):
            again = http.post("/api/matches", json={"seats": [PERSON, BOT], "name": other})
            check_refused(again, BAD_NAME, "en")
    answered_cleanly(server, before)


def test_names_of_every_script_pass_unchanged(server: Server) -> None:
    for name in ACCEPTED:
        made = create(server, seats=[PERSON, PERSON, {**BOT, "name": f"{name} bot"}], name=name)
        joined = join(server, made["id"], made["invites"][0]["invite"], f"{name} 2")
        seats = [seat["name"] for seat in joined["match"]["seats"]]
        assert seats == [name, f"{name} 2", f"{name} bot"], seats
