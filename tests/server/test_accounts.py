"""Accounts, log-in sessions and ratings against real ``keltis serve`` processes, on SQLite
and PostgreSQL: the cookie's flags, cross-site requests refused, log-in floods limited, one
answer for a wrong name and a wrong password, guest seats kept, a rated match moving both
ratings as openskill says, a deleted account's name gone from its records."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from openskill.models import PlackettLuce

from .harness import WAIT, Player, Server, create, play_together
from .people import PASSWORD, Member, login, my_seat, signup


def _wait_for(check: Callable[[], Any], what: str) -> Any:
    """Poll ``check`` until it returns something true (the server rates a match just after
    its last move is told)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_signup_session_cookie_and_logout(server: Server) -> None:
    with server.http() as http:
        answer = http.post(
            "/api/accounts", json={"name": "Aine", "password": PASSWORD, "language": "de"}
        )
    assert answer.status_code == 201, answer.text
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("keltis_session=")
    flags = cookie.lower()
    assert "httponly" in flags
    assert "samesite=lax" in flags
    assert "path=/" in flags
    assert "secure" not in flags  # the public address is http here
    member = Member(server, "Aine", answer)
    assert member.account["language"] == "de"
    current = member.get("/api/sessions/current")
    assert current.status_code == 200
    assert current.json()["account"]["name"] == "Aine"
    assert member.delete("/api/sessions/current").status_code == 204
    again = member.get("/api/sessions/current")
    assert again.status_code == 401
    assert again.json()["error"]["code"] == "account.no_session"
    # the old cookie, sent again by hand, opens nothing either
    with server.http() as http:
        http.cookies.set("keltis_session", answer.cookies["keltis_session"])
        assert http.get("/api/sessions/current").status_code == 401
    member.close()


def test_secure_cookie_behind_https(database: str, servers: Callable[..., Server]) -> None:
    running = servers("--public-url", "https://keltis.example.org")
    with running.http() as http:
        answer = http.post("/api/accounts", json={"name": "Brigid", "password": PASSWORD})
    assert answer.status_code == 201
    assert "secure" in answer.headers["set-cookie"].lower()


@pytest.mark.parametrize(
    ("body", "code", "status"),
    [
        ({"name": "ab", "password": PASSWORD}, "account.bad_name", 400),
        ({"name": "has space", "password": PASSWORD}, "account.bad_name", 400),
        ({"name": "bot:hard", "password": PASSWORD}, "account.bad_name", 400),
        # never a deleted account's name: no parentheses
        ({"name": "(deleted)", "password": PASSWORD}, "account.bad_name", 400),
        ({"name": "Ada(1)", "password": PASSWORD}, "account.bad_name", 400),
        ({"name": "Cormac", "password": "short"}, "account.bad_password", 400),
        ({"name": "Cormac", "password": 12345678}, "server.bad_request", 400),
        (
            {"name": "Cormac", "password": PASSWORD, "email": "no at sign"},
            "server.bad_request",
            400,
        ),
        ({"name": "Cormac", "password": PASSWORD, "language": "xx"}, "server.bad_request", 400),
        ({"name": "Cormac"}, "server.bad_request", 400),
    ],
)
def test_bad_accounts_refused(server: Server, body: dict[str, Any], code: str, status: int) -> None:
    with server.http() as http:
        answer = http.post("/api/accounts", json=body, headers={"Accept-Language": "cs"})
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code
    assert error["message"]


def test_names_are_unique_whatever_the_case(server: Server) -> None:
    signup(server, "Deirdre").close()
    with server.http() as http:
        answer = http.post("/api/accounts", json={"name": "deirdre", "password": PASSWORD})
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "account.name_taken"
    # and the log-in takes the name in any case
    login(server, "DEIRDRE").close()


def test_wrong_name_and_wrong_password_answer_alike(server: Server) -> None:
    signup(server, "Eithne").close()
    with server.http() as http:
        wrong_password = http.post(
            "/api/sessions", json={"name": "Eithne", "password": "not the password"}
        )
        wrong_name = http.post(
            "/api/sessions", json={"name": "Nobody-here", "password": "not the password"}
        )
    assert wrong_password.status_code == wrong_name.status_code == 401
    assert wrong_password.json() == wrong_name.json()
    assert wrong_password.json()["error"]["code"] == "account.bad_login"
    assert "set-cookie" not in wrong_password.headers


def test_failed_log_ins_lock_the_account(server: Server) -> None:
    signup(server, "Fionn").close()
    with server.http() as http:
        codes = [
            http.post("/api/sessions", json={"name": "Fionn", "password": "wrong password"})
            for _ in range(5)
        ]
        assert [c.json()["error"]["code"] for c in codes] == ["account.bad_login"] * 5
        # the account is locked now: the right password is refused too
        locked = http.post("/api/sessions", json={"name": "Fionn", "password": PASSWORD})
    assert locked.status_code == 429
    assert locked.json()["error"]["code"] == "account.login_limited"


def test_log_in_flood_from_one_address_is_limited(
    database: str, servers: Callable[..., Server]
) -> None:
    # three attempts a minute: one more comes back long before the minute refills one
    running = servers("--login-rate", "3")
    with running.http() as http:
        answers = [
            http.post("/api/sessions", json={"name": f"other{n}", "password": "wrong password"})
            for n in range(4)
        ]
    assert [a.status_code for a in answers] == [401, 401, 401, 429]
    assert answers[-1].json()["error"]["code"] == "account.slow_down"


def test_cross_site_requests_are_refused(server: Server) -> None:
    member = signup(server, "Grainne")
    try:
        # the cookie alone does not change anything: the csrf token must come with it
        bare = member.patch("/api/me", json={"language": "es"}, headers={"X-CSRF-Token": ""})
        assert bare.status_code == 403
        assert bare.json()["error"]["code"] == "account.cross_site"
        wrong = member.patch("/api/me", json={"language": "es"}, headers={"X-CSRF-Token": "x"})
        assert wrong.status_code == 403
        other_site = member.patch(
            "/api/me", json={"language": "es"}, headers={"Origin": "https://evil.example"}
        )
        assert other_site.status_code == 403
        same = member.patch("/api/me", json={"language": "es"}, headers={"Origin": server.base})
        assert same.status_code == 200
        assert same.json()["language"] == "es"
        # a cross-site match creation acts as a guest: it cannot create a rated match …
        rated = member.post(
            "/api/matches",
            json={"game": "cards", "seats": [{"kind": "person"}, {"kind": "bot"}], "rated": True},
            headers={"X-CSRF-Token": ""},
        )
        assert rated.status_code == 403
        assert rated.json()["error"]["code"] == "account.cross_site"
        # … and an unrated one is a guest's, not the account's
        guest = member.post(
            "/api/matches",
            json={"game": "cards", "seats": [{"kind": "person"}, {"kind": "bot"}]},
            headers={"X-CSRF-Token": ""},
        )
        assert guest.status_code == 201
        assert guest.json()["match"]["seats"][0]["account"] is False
        # log-out needs the token as well
        out = member.delete("/api/sessions/current", headers={"X-CSRF-Token": ""})
        assert out.status_code == 403
        assert member.get("/api/sessions/current").status_code == 200
    finally:
        member.close()


def test_guest_seats_are_kept_by_a_new_account(server: Server) -> None:
    made = create(server, game="cards", seats=[{"kind": "person"}, {"kind": "bot"}], seed=5)
    with server.http() as http:
        answer = http.post(
            "/api/accounts",
            json={
                "name": "Iollan",
                "password": PASSWORD,
                "seats": [
                    {"match": made["id"], "token": made["token"]},
                    {"match": made["id"], "token": "not a token"},
                ],
            },
        )
    member = Member(server, "Iollan", answer)
    try:
        mine = my_seat(member, made["id"])
        assert mine["seat"] == 0
        # the seat opens with the token the account is given, on any device …
        with _Connected(server, made["id"], mine["token"]) as seated:
            assert seated.seat == 0
        # … and with the guest's own token still
        with _Connected(server, made["id"], made["token"]) as seated:
            assert seated.seat == 0
    finally:
        member.close()


class _Connected:
    """A live connection to a match, closed on leaving the block."""

    def __init__(self, server: Server, match_id: str, token: str) -> None:
        self.player = Player(server, match_id, token)

    def __enter__(self) -> Player:
        return self.player.connect()

    def __exit__(self, *exc: object) -> None:
        self.player.close()


def _rated_match(server: Server, first: Member, second: Member) -> tuple[str, str, str]:
    """A rated 2-player card game between two accounts: its id and both seats' tokens."""
    made = first.post(
        "/api/matches",
        json={"game": "cards", "seats": [{"kind": "person"}, {"kind": "person"}], "rated": True},
    )
    assert made.status_code == 201, made.text
    body = made.json()
    assert body["match"]["rated"] is True
    assert body["match"]["options"]["hints"] is False
    joined = second.post(
        f"/api/matches/{body['id']}/join", json={"invite": body["invites"][0]["invite"]}
    )
    assert joined.status_code == 200, joined.text
    assert joined.json()["match"]["seats"][1]["name"] == second.name
    started = first.post(
        f"/api/matches/{body['id']}/start",
        headers={"Authorization": f"Bearer {body['host_token']}"},
    )
    assert started.status_code == 200, started.text
    return body["id"], body["token"], joined.json()["token"]


def test_rated_match_moves_both_ratings_as_openskill_says(server: Server) -> None:
    first, second = signup(server, "Lughaidh"), signup(server, "Muirne")
    try:
        match_id, token_a, token_b = _rated_match(server, first, second)
        # a guest cannot take a rated match's seat
        guest_made = first.post(
            "/api/matches",
            json={
                "game": "cards",
                "seats": [{"kind": "person"}, {"kind": "person"}],
                "rated": True,
            },
        ).json()
        with server.http() as http:
            refused = http.post(
                f"/api/matches/{guest_made['id']}/join",
                json={"invite": guest_made["invites"][0]["invite"], "name": "Guest"},
            )
        assert refused.status_code == 403
        assert refused.json()["error"]["code"] == "account.rated_needs_account"

        a, b = (
            Player(server, match_id, token_a).connect(),
            Player(server, match_id, token_b).connect(),
        )
        try:
            play_together(a, b)
        finally:
            a.close()
            b.close()
        scores = a.result["scores"]
        pages = {
            m.name: _wait_for(
                lambda m=m: (
                    (p := m.get(f"/api/players/{m.name}").json())["ratings"].get("cards") and p
                ),
                "the ratings",
            )
            for m in (first, second)
        }
        model = PlackettLuce()
        ranks = [1 + sum(other > mine for other in scores) for mine in scores]
        expected = model.rate([[model.rating()], [model.rating()]], ranks=[float(r) for r in ranks])
        for seat, member in enumerate((first, second)):
            rating = pages[member.name]["ratings"]["cards"]
            assert rating["games"] == 1
            assert rating["mu"] == pytest.approx(expected[seat][0].mu)
            assert rating["sigma"] == pytest.approx(expected[seat][0].sigma)
            # the shown scale: 1500 + 20 · ordinal (a new player's ordinal is 0)
            ordinal = expected[seat][0].mu - 3 * expected[seat][0].sigma
            assert rating["rating"] == round(1500 + 20 * ordinal)
            assert rating["provisional"] is True  # one rated game of ten
            assert [h["match"] for h in rating["history"]] == [match_id]
            recent = pages[member.name]["recent"]
            assert recent[0]["match"] == match_id
            assert recent[0]["rank"] == ranks[seat]
            other = (second, first)[seat].name
            assert [o["name"] for o in pages[member.name]["opponents"]] == [other]
        board = server.http().get("/api/ratings/cards").json()
        names = [p["name"] for p in board["players"]]
        assert {"Lughaidh", "Muirne"} <= set(names)
        values = [p["rating"] for p in board["players"]]
        assert values == sorted(values, reverse=True)
        # the e-mail address of nobody appears on a public page
        assert "email" not in str(pages)
    finally:
        first.close()
        second.close()


def test_rated_match_against_a_bot_rates_the_bot_level(server: Server) -> None:
    member = signup(server, "Niamh")
    try:
        made = member.post(
            "/api/matches",
            json={
                "game": "cards",
                "seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}],
                "rated": True,
            },
        )
        assert made.status_code == 201, made.text
        body = made.json()
        seated = Player(server, body["id"], body["token"]).connect()
        try:
            seated.play(__import__("random").Random(1))
        finally:
            seated.close()
        page = _wait_for(
            lambda: (p := member.get("/api/players/bot:easy").json())["ratings"].get("cards") and p,
            "the bot's rating",
        )
        assert page["kind"] == "bot"
        assert page["ratings"]["cards"]["games"] >= 1
        assert page["recent"][0]["match"] == body["id"]
        assert member.get("/api/players/bot:nobody").status_code == 404
    finally:
        member.close()


def test_my_matches_show_whose_turn_it_is(server: Server) -> None:
    first, second = signup(server, "Oisin"), signup(server, "Padraig")
    try:
        match_id, _, _ = _rated_match(server, first, second)
        described = server.http().get(f"/api/matches/{match_id}").json()
        to_move = described["to_move"]
        mover, waiter = (first, second) if to_move == 0 else (second, first)
        assert [w["match"]["id"] for w in mover.get("/api/me/matches").json()["waiting"]] == [
            match_id
        ]
        theirs = waiter.get("/api/me/matches").json()
        assert theirs["waiting"] == []
        assert theirs["running"][0]["match"]["id"] == match_id
        with server.http() as http:
            assert http.get("/api/me/matches").status_code == 401
    finally:
        first.close()
        second.close()


def test_password_change_ends_other_sessions(server: Server) -> None:
    here = signup(server, "Ronan")
    there = login(server, "Ronan")
    try:
        wrong = here.post("/api/me/password", json={"old": "not it at all", "new": "new password!"})
        assert wrong.status_code == 403
        assert wrong.json()["error"]["code"] == "account.wrong_password"
        changed = here.post("/api/me/password", json={"old": PASSWORD, "new": "new password!"})
        assert changed.status_code == 204
        assert here.get("/api/sessions/current").status_code == 200
        assert there.get("/api/sessions/current").status_code == 401
        login(server, "Ronan", "new password!").close()
    finally:
        here.close()
        there.close()


def test_deleted_account_leaves_no_name_in_its_records(server: Server) -> None:
    member = signup(server, "Sadhbh", email="sadhbh@example.org")
    try:
        made = member.post(
            "/api/matches",
            json={
                "game": "cards",
                "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}],
                "rated": True,
            },
        ).json()
        seated = Player(server, made["id"], made["token"]).connect()
        try:
            seated.play(__import__("random").Random(2))
        finally:
            seated.close()
        _wait_for(
            lambda: member.get("/api/players/Sadhbh").json()["ratings"].get("cards"), "rating"
        )
        refused = member.request("DELETE", "/api/me", json={"password": "not the password"})
        assert refused.status_code == 403
        gone = member.request("DELETE", "/api/me", json={"password": PASSWORD})
        assert gone.status_code == 204
        with server.http() as http:
            record = http.get(f"/api/matches/{made['id']}/record").text
            described = http.get(f"/api/matches/{made['id']}").text
            replay = http.get(f"/api/matches/{made['id']}/replay?ply=1").text
            assert http.get("/api/players/Sadhbh").status_code == 404
            board = http.get("/api/ratings/cards").text
        for text in (record, described, replay, board):
            assert "Sadhbh" not in text
            assert "sadhbh@example.org" not in text
        assert "(deleted)" in record
        assert "(deleted)" in described
        # the name is free again, for a new account that owns nothing of the old one
        fresh = signup(server, "Sadhbh")
        assert fresh.get("/api/me/matches").json() == {
            "waiting": [],
            "running": [],
            "open": [],
            "notices": [],
        }
        assert fresh.get("/api/players/Sadhbh").json()["recent"] == []
        fresh.close()
    finally:
        member.close()


def test_no_guest_or_bot_takes_a_deleted_accounts_name(server: Server) -> None:
    """A guest's or a bot's name is free text, but never ``(deleted)``: the browser and the
    terminal show that one as a deleted account, in the reader's language."""
    person, bot = {"kind": "person"}, {"kind": "bot", "level": "random"}
    made = create(server, seats=[person, person], name="Ada (Praha)")  # brackets are fine
    with server.http() as http:
        for body in (
            {"seats": [person, bot], "name": "(deleted)"},
            {"seats": [person, bot], "name": " (Deleted) "},
            {"seats": [person, {**bot, "name": "(deleted)"}]},
        ):
            refused = http.post("/api/matches", json=body, headers={"Accept-Language": "de"})
            assert refused.status_code == 400, body
            error = refused.json()["error"]
            assert error["code"] == "server.reserved_name"
            assert "gelöschte Konten" in error["message"]
        invite = made["invites"][0]["invite"]
        joined = http.post(
            f"/api/matches/{made['id']}/join", json={"invite": invite, "name": "(deleted)"}
        )
        assert joined.status_code == 400
        assert joined.json()["error"]["code"] == "server.reserved_name"
        # the invite is still good, for a name of one's own
        again = http.post(f"/api/matches/{made['id']}/join", json={"invite": invite, "name": "Bea"})
        assert again.status_code == 200, again.text


def test_mutes_by_name(server: Server) -> None:
    first, second = signup(server, "Tadhg"), signup(server, "Una")
    try:
        assert first.post("/api/me/mutes", json={"name": "una"}).status_code == 204
        assert first.get("/api/me/mutes").json() == {"mutes": ["Una"]}
        assert first.post("/api/me/mutes", json={"name": "Nobody"}).status_code == 404
        assert first.delete("/api/me/mutes/Una").status_code == 204
        assert first.get("/api/me/mutes").json() == {"mutes": []}
    finally:
        first.close()
        second.close()


def test_openapi_lists_the_community_routes(server: Server) -> None:
    paths = server.http().get("/openapi.json").json()["paths"]
    assert "post" in paths["/api/accounts"]
    assert "post" in paths["/api/sessions"]
    assert "delete" in paths["/api/sessions/current"]
    assert "get" in paths["/api/players/{name}"]
    assert "get" in paths["/api/ratings/{game}"]
    assert "get" in paths["/api/me/matches"]
