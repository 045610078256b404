"""Reports, blocks and moderators (docs/server.md, "Reports and blocks", "Moderation"),
against real ``keltis serve`` processes on SQLite and PostgreSQL: a report's checks and its
limits (also for parallel reports), never of oneself; blocks keeping two accounts out of each
other's seeks, matches and chat (live and in the history, both ways, across two processes on
PostgreSQL); every moderator route refusing guests (401) and other accounts (403); the
moderators' actions — warn, mute, suspend, close a report, resolve a flag, void a rated
result — each doing what it says and written to the log with who and why; ``keltis admin
grant-moderator`` and ``revoke-moderator``."""

from __future__ import annotations

import secrets
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from keltis.server import db
from keltis.server.ratings import START_MU, START_SIGMA
from keltis.server.store import now

from .harness import SEEDED, WAIT, Server, create, play_together, start
from .people import PASSWORD, Member, login, signup
from .test_chat import Client, secret_of
from .test_fair import database, page, rated, rated_match, stored_match

# -- helpers -------------------------------------------------------------------------------


def sign_up(server: Server, prefix: str) -> Member:
    """A new account (``prefix`` and a random tail), logged in."""
    return signup(server, f"{prefix}{secrets.token_hex(3)}")


def admin(server: Server, *args: str) -> subprocess.CompletedProcess[str]:
    """``keltis admin`` on the server's database."""
    return subprocess.run(
        [sys.executable, "-m", "keltis", "admin", "--db", server.database, *args],
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=False,
    )


def moderator(server: Server, prefix: str = "mod") -> Member:
    """A new account made a moderator by ``keltis admin grant-moderator``."""
    member = sign_up(server, prefix)
    granted = admin(server, "grant-moderator", member.name)
    assert granted.returncode == 0, granted.stderr
    return member


def refused(answer: httpx.Response, status: int, code: str) -> str:
    """``answer`` is the refusal ``code`` with ``status``: its message."""
    assert answer.status_code == status, (answer.status_code, answer.text)
    error = answer.json()["error"]
    assert error["code"] == code, error
    message: str = error["message"]
    assert message
    return message


def two_accounts_seated(server: Server, ann: Member, bea: Member) -> tuple[str, str, str]:
    """A started two-seat board game of ``ann`` (the creator) and ``bea`` (invited): its
    id and the seats' tokens."""
    made = ann.post(
        "/api/matches", json={"game": "board", "seats": [{"kind": "person"}] * 2, "seed": 5}
    )
    assert made.status_code == 201, made.text
    body = made.json()
    joined = bea.post(
        f"/api/matches/{body['id']}/join", json={"invite": body["invites"][0]["invite"]}
    )
    assert joined.status_code == 200, joined.text
    start(server, body["id"], body["host_token"])
    return body["id"], body["token"], joined.json()["token"]


def say(member: Member, match_id: str, text: str) -> dict[str, Any]:
    """``member`` says ``text`` in the match (its seat's channel): the stored message."""
    answer = member.post(f"/api/matches/{match_id}/chat", json={"text": text})
    assert answer.status_code == 201, answer.text
    result: dict[str, Any] = answer.json()
    return result


def chat_texts(member: Member, match_id: str) -> list[str]:
    answer = member.get(f"/api/matches/{match_id}/chat")
    assert answer.status_code == 200, answer.text
    return [m["text"] for m in answer.json()["messages"]]


# -- reports --------------------------------------------------------------------------------


def test_a_report_is_checked_and_never_of_oneself(server: Server) -> None:
    ann, bea, cy = sign_up(server, "rep_ann"), sign_up(server, "rep_bea"), sign_up(server, "rep_cy")
    match_id, _, _ = two_accounts_seated(server, ann, bea)
    line = say(bea, match_id, "you play like a potato")
    ann_line = say(ann, match_id, "be nice")
    other = create(server, game="board", seats=[{"kind": "person"}, {"kind": "bot"}], seed=1)

    # who may report: a session, from the client itself
    with server.http() as guest:
        refused(
            guest.post("/api/reports", json={"name": bea.name, "reason": "cheating"}),
            401,
            "account.no_session",
        )
    with httpx.Client(base_url=server.base, cookies=ann.cookies, timeout=WAIT) as no_csrf:
        refused(
            no_csrf.post("/api/reports", json={"name": bea.name, "reason": "cheating"}),
            403,
            "account.cross_site",
        )

    def report(**body: Any) -> httpx.Response:
        return ann.post("/api/reports", json={"name": bea.name, "reason": "chat_abuse", **body})

    # bad input, each a clear refusal in the one error shape
    refused(
        ann.post("/api/reports", json={"name": ann.name, "reason": "other", "text": "me"}),
        400,
        "report.self",
    )
    refused(
        ann.post("/api/reports", json={"name": ann.name.upper(), "reason": "cheating"}),
        400,
        "report.self",
    )
    refused(
        ann.post("/api/reports", json={"name": "nobody_here", "reason": "cheating"}),
        404,
        "account.no_player",
    )
    refused(
        ann.post("/api/reports", json={"name": "a\u0000b", "reason": "cheating"}),
        400,
        "server.bad_name",
    )
    refused(report(reason="rude"), 400, "server.bad_request")
    refused(report(reason=None), 400, "server.bad_request")
    refused(ann.post("/api/reports", json={"reason": "cheating"}), 400, "server.bad_request")
    refused(report(text=7), 400, "server.bad_request")
    refused(report(text="x" * 501), 400, "report.too_long")
    for bad in ("two\nlines", "evil \u202eevil", "zero\u200bwidth", "line\u2028sep", "nul\x00"):
        refused(report(text=bad), 400, "report.control")
    refused(report(reason="other"), 400, "report.text_needed")
    refused(report(reason="other", text="   "), 400, "report.text_needed")
    refused(report(chat_line=ann_line["id"]), 400, "report.not_theirs")
    refused(report(chat_line=10**9), 404, "report.no_line")
    refused(report(chat_line=2**31), 400, "server.bad_request")  # no id the table holds
    refused(report(chat_line=line["id"], match=other["id"]), 404, "report.no_line")
    refused(report(chat_line=0), 400, "server.bad_request")
    refused(report(chat_line="1"), 400, "server.bad_request")
    refused(report(match=other["id"]), 400, "report.not_in_match")
    refused(report(match="nosuchmatch"), 404, "server.no_match")
    refused(report(match="m\u0000"), 400, "server.bad_request")
    # in the reporter's language, in words of its own
    german = ann.post(
        "/api/reports",
        json={"name": ann.name, "reason": "cheating"},
        headers={"Accept-Language": "de"},
    )
    assert refused(german, 400, "report.self") != refused(
        ann.post("/api/reports", json={"name": ann.name, "reason": "cheating"}), 400, "report.self"
    )

    # good reports: a chat line (its match found by itself), a match, a player's page
    made = report(chat_line=line["id"], text="  insults  ")
    assert made.status_code == 201, made.text
    assert made.json()["status"] == "open"
    assert report(match=match_id, reason="stalling").status_code == 201
    assert (
        cy.post("/api/reports", json={"name": bea.name, "reason": "offensive_name"}).status_code
        == 201
    )
    with database(server) as engine, engine.connect() as connection:
        stored = connection.execute(
            sa.select(db.reports).where(db.reports.c.id == made.json()["id"])
        ).one()
    assert (stored.reporter, stored.reported, stored.reason, stored.text) == (
        ann.name,
        bea.name,
        "chat_abuse",
        "insults",
    )
    assert (stored.match_id, stored.chat_id, stored.status) == (match_id, line["id"], "open")
    for m in (ann, bea, cy):
        m.close()


def test_reports_are_limited_per_day_and_per_reported_account(server: Server) -> None:
    ann = sign_up(server, "lim_ann")
    others = [sign_up(server, f"lim{n}_") for n in range(5)]
    # three about one account, then 429 with the seconds to wait
    for _ in range(3):
        made = ann.post("/api/reports", json={"name": others[0].name, "reason": "cheating"})
        assert made.status_code == 201, made.text
    fourth = ann.post("/api/reports", json={"name": others[0].name, "reason": "cheating"})
    refused(fourth, 429, "report.too_many")
    assert 0 < int(fourth.headers["Retry-After"]) <= 24 * 3600
    # ten a day in all: in parallel, exactly as many pass as are left (seven)
    results: list[int] = []
    lock = threading.Lock()

    def send(target: Member) -> None:
        answer = ann.post("/api/reports", json={"name": target.name, "reason": "stalling"})
        with lock:
            results.append(answer.status_code)

    threads = [threading.Thread(target=send, args=(others[1 + n % 4],)) for n in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [201] * 7 + [429] * 5, results
    with database(server) as engine, engine.connect() as connection:
        count = connection.execute(
            sa.select(sa.func.count())
            .select_from(db.reports)
            .where(db.reports.c.reporter == ann.name)
        ).scalar_one()
        per_account = connection.execute(
            sa.select(db.reports.c.reported, sa.func.count())
            .where(db.reports.c.reporter == ann.name)
            .group_by(db.reports.c.reported)
        ).all()
    assert count == 10
    assert max(n for _, n in per_account) == 3
    refused(
        ann.post("/api/reports", json={"name": others[4].name, "reason": "other", "text": "x"}),
        429,
        "report.too_many",
    )
    # another account is not limited by Ann's reports
    assert (
        others[1]
        .post("/api/reports", json={"name": others[0].name, "reason": "cheating"})
        .status_code
        == 201
    )
    for m in (ann, *others):
        m.close()


# -- blocks ---------------------------------------------------------------------------------


def test_a_block_keeps_two_accounts_out_of_each_other_s_seeks_and_matches(server: Server) -> None:
    ann, bea, cy = sign_up(server, "blk_ann"), sign_up(server, "blk_bea"), sign_up(server, "blk_cy")
    with server.http() as guest:
        refused(guest.get("/api/me/blocks"), 401, "account.no_session")
        refused(guest.post("/api/me/blocks", json={"name": bea.name}), 401, "account.no_session")
        refused(guest.delete(f"/api/me/blocks/{bea.name}"), 401, "account.no_session")
    with httpx.Client(base_url=server.base, cookies=ann.cookies, timeout=WAIT) as no_csrf:
        refused(no_csrf.post("/api/me/blocks", json={"name": bea.name}), 403, "account.cross_site")
        refused(no_csrf.delete(f"/api/me/blocks/{bea.name}"), 403, "account.cross_site")
    refused(ann.post("/api/me/blocks", json={"name": ann.name}), 400, "block.self")
    refused(ann.post("/api/me/blocks", json={"name": "nobody_here"}), 404, "account.no_player")
    refused(ann.post("/api/me/blocks", json={"name": "a\u0000b"}), 400, "server.bad_name")
    refused(ann.delete("/api/me/blocks/a%00b"), 400, "server.bad_name")
    refused(ann.post("/api/me/blocks", json={}), 400, "server.bad_request")

    assert ann.post("/api/me/blocks", json={"name": bea.name.upper()}).status_code == 204
    assert ann.post("/api/me/blocks", json={"name": bea.name}).status_code == 204  # twice: one
    assert ann.get("/api/me/blocks").json() == {"blocks": [bea.name]}
    assert bea.get("/api/me/blocks").json() == {"blocks": []}  # only its maker lists it

    # seeks: neither joins the other's, whoever blocked; a third account still can
    for seeker, joiner in ((bea, ann), (ann, bea)):
        seek = seeker.post("/api/seeks", json={"game": "cards", "players": 3}).json()
        message = refused(joiner.post(f"/api/seeks/{seek['id']}/join"), 403, "block.play")
        german = joiner.post(f"/api/seeks/{seek['id']}/join", headers={"Accept-Language": "de"})
        assert refused(german, 403, "block.play") != message
        assert cy.post(f"/api/seeks/{seek['id']}/join").status_code == 200
        # nor when the blocked account is not the seeker but sits in the seek
        refused(joiner.post(f"/api/seeks/{seek['id']}/join"), 403, "block.play")
        assert seeker.delete(f"/api/seeks/{seek['id']}").status_code == 200
    # an invitation: neither takes a seat of a match the other plays (the challenge)
    for host, guest_member in ((bea, ann), (ann, bea)):
        made = host.post("/api/matches", json={"game": "board", "seats": [{"kind": "person"}] * 2})
        invite = made.json()["invites"][0]["invite"]
        refused(
            guest_member.post(f"/api/matches/{made.json()['id']}/join", json={"invite": invite}),
            403,
            "block.play",
        )
        taken = cy.post(f"/api/matches/{made.json()['id']}/join", json={"invite": invite})
        assert taken.status_code == 200, taken.text

    # lifted: they play together again
    assert ann.delete(f"/api/me/blocks/{bea.name}").status_code == 204
    assert ann.get("/api/me/blocks").json() == {"blocks": []}
    seek = bea.post("/api/seeks", json={"game": "cards", "players": 2}).json()
    assert ann.post(f"/api/seeks/{seek['id']}/join").json()["status"] == "started"
    for m in (ann, bea, cy):
        m.close()


def test_a_block_hides_chat_both_ways_live_and_in_the_history(server: Server) -> None:
    ann, bea, cy = sign_up(server, "bch_ann"), sign_up(server, "bch_bea"), sign_up(server, "bch_cy")
    match_id, ann_token, bea_token = two_accounts_seated(server, ann, bea)
    say(ann, match_id, "hello Bea")
    say(bea, match_id, "hello Ann")
    assert ann.post("/api/me/blocks", json={"name": bea.name}).status_code == 204
    ann_p = Client(server, match_id, ann_token).connect()
    bea_p = Client(server, match_id, bea_token).connect()
    cy_p = Client(server, match_id, cookie=secret_of(cy)).connect()  # a spectator
    try:
        assert bea_p.say("you cheat")["type"] == "ack"  # stored, as any message
        assert ann_p.say("good game")["type"] == "ack"
        assert cy_p.say("nice match")["type"] == "ack"
        for p in (ann_p, bea_p, cy_p):
            p.settle()
        # neither hears the other live; each hears itself
        assert [m["text"] for m in ann_p.chats()] == ["good game"]
        assert [m["text"] for m in bea_p.chats()] == ["you cheat"]
        assert "you cheat" not in "\n".join(ann_p.raw)
        assert "good game" not in "\n".join(bea_p.raw)
        assert [m["text"] for m in cy_p.chats()] == ["nice match"]  # the spectators' channel
        # the history leaves the other out, both ways, also what was said before the block
        assert chat_texts(ann, match_id) == ["hello Bea", "good game"]
        assert chat_texts(bea, match_id) == ["hello Ann", "you cheat"]
        # the seat's token reads as its account does
        with server.http() as http:
            by_token = http.get(
                f"/api/matches/{match_id}/chat", headers={"Authorization": f"Bearer {ann_token}"}
            ).json()
        assert [m["text"] for m in by_token["messages"]] == ["hello Bea", "good game"]
        # lifted: everything is there again
        assert ann.delete(f"/api/me/blocks/{bea.name}").status_code == 204
        assert bea_p.say("sorry")["type"] == "ack"
        ann_p.wait_chat("sorry")
        assert chat_texts(ann, match_id) == [
            "hello Bea",
            "hello Ann",
            "you cheat",
            "good game",
            "sorry",
        ]
    finally:
        for p in (ann_p, bea_p, cy_p):
            p.close()
    # a deleted account's blocks go with it
    assert bea.post("/api/me/blocks", json={"name": ann.name}).status_code == 204
    assert bea.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 204
    with database(server) as engine, engine.connect() as connection:
        ann_id = connection.execute(
            sa.select(db.accounts.c.id).where(db.accounts.c.name == ann.name)
        ).scalar_one()
        left = connection.execute(
            sa.select(sa.func.count())
            .select_from(db.blocks)
            .where(db.blocks.c.blocked_id == ann_id)
        ).scalar_one()
    assert left == 0
    for m in (ann, bea, cy):
        m.close()


def test_a_block_hides_chat_on_every_process(servers: Callable[..., Server]) -> None:
    """On PostgreSQL, a message stored through one process is not told to the blocking
    account's client on the other."""
    first = servers(*SEEDED)
    if not first.database.startswith("postgresql"):
        pytest.skip("one process on SQLite: the live chat across processes needs PostgreSQL")
    second = servers(*SEEDED)
    ann, bea = sign_up(first, "bpp_ann"), sign_up(first, "bpp_bea")
    match_id, ann_token, bea_token = two_accounts_seated(first, ann, bea)
    assert bea.post("/api/me/blocks", json={"name": ann.name}).status_code == 204
    ann_p = Client(second, match_id, ann_token).connect()
    bea_p = Client(first, match_id, bea_token).connect()
    try:
        assert ann_p.say("through the second")["type"] == "ack"
        assert bea_p.say("through the first")["type"] == "ack"
        with login(second, bea.name) as bea_there:
            assert say(bea_there, match_id, "said on the second")["text"]
        # The other process's messages come through NOTIFY, later than a ping's answer:
        # wait for them. Ann's own message sent through the first process after Bea's
        # is her marker that the first process's earlier messages reached the second.
        bea_p.wait_chat("said on the second")
        with login(first, ann.name) as ann_here:
            assert say(ann_here, match_id, "marker")["text"]
        ann_p.wait_chat("marker")
        bea_p.settle()
        assert [m["text"] for m in ann_p.chats()] == ["through the second", "marker"]
        assert [m["text"] for m in bea_p.chats()] == ["through the first", "said on the second"]
    finally:
        ann_p.close()
        bea_p.close()


# -- moderators -----------------------------------------------------------------------------

#: Every moderator route: method, path (``{report}``, ``{flag}`` filled in), body.
ROUTES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/api/moderation/reports", None),
    ("GET", "/api/moderation/reports?status=all", None),
    ("GET", "/api/moderation/reports/{report}", None),
    ("POST", "/api/moderation/reports/{report}/close", {"reason": "seen"}),
    ("GET", "/api/moderation/flags", None),
    ("POST", "/api/moderation/flags/{flag}/resolve", {"reason": "looked"}),
    ("GET", "/api/moderation/log", None),
    ("POST", "/api/moderation/warn", {"name": "{target}", "reason": "be kind"}),
    ("POST", "/api/moderation/mute", {"name": "{target}", "minutes": 5, "reason": "cool off"}),
    ("POST", "/api/moderation/suspend", {"name": "{target}", "reason": "spam"}),
    ("POST", "/api/moderation/unsuspend", {"name": "{target}", "reason": "served"}),
    ("POST", "/api/moderation/void", {"match": "{match}", "reason": "arranged"}),
]


def _filled(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        for key, name in names.items():
            value = value.replace("{" + key + "}", name)
        return value
    if isinstance(value, dict):
        return {k: _filled(v, names) for k, v in value.items()}
    return value


def _flag(server: Server, first: Member, second: Member, matches: list[str]) -> int:
    """A flag of rated results for ``first`` and ``second`` (as the rating's transaction
    writes one), its id."""
    with database(server) as engine, engine.begin() as connection:
        ids = dict(
            connection.execute(
                sa.select(db.accounts.c.name, db.accounts.c.id).where(
                    db.accounts.c.name.in_([first.name, second.name])
                )
            ).all()
        )
        a, b = sorted([ids[first.name], ids[second.name]])
        when = now()
        inserted = connection.execute(
            db.rating_flags.insert().values(
                reason="same_address",
                account_a=a,
                account_b=b,
                address="127.0.0.1",
                matches=matches,
                created_at=when,
                updated_at=when,
            )
        )
    key = inserted.inserted_primary_key
    assert key is not None
    return int(key[0])


def test_every_moderator_route_refuses_guests_and_other_accounts(server: Server) -> None:
    mod, plain, target = moderator(server), sign_up(server, "plain"), sign_up(server, "target")
    report = plain.post("/api/reports", json={"name": target.name, "reason": "cheating"})
    names = {
        "report": str(report.json()["id"]),
        "flag": str(_flag(server, plain, target, [])),
        "target": target.name,
        "match": "nosuchmatch",
    }
    session = mod.get("/api/sessions/current").json()
    assert session["account"]["moderator"] is True
    assert plain.get("/api/sessions/current").json()["account"]["moderator"] is False
    with (
        server.http() as guest,
        httpx.Client(base_url=server.base, cookies=mod.cookies, timeout=WAIT) as no_csrf,
    ):
        for method, path, body in ROUTES:
            url, payload = _filled(path, names), _filled(body, names)
            refused(guest.request(method, url, json=payload), 401, "account.no_session")
            refused(plain.request(method, url, json=payload), 403, "moderation.forbidden")
            if method == "POST":
                refused(no_csrf.request(method, url, json=payload), 403, "account.cross_site")
    # nothing was done by them
    assert mod.get("/api/moderation/log").json()["log"][0]["action"] == "grant-moderator"
    # the moderator may (the void of no match: 404)
    for method, path, body in ROUTES:
        answer = mod.request(method, _filled(path, names), json=_filled(body, names))
        expected = 404 if path.endswith("/void") else 200
        assert answer.status_code == expected, (path, answer.text)
    # a revoked moderator is refused at its next request
    revoked = admin(server, "revoke-moderator", mod.name)
    assert revoked.returncode == 0, revoked.stderr
    refused(mod.get("/api/moderation/reports"), 403, "moderation.forbidden")
    assert mod.get("/api/sessions/current").json()["account"]["moderator"] is False
    for m in (mod, plain, target):
        m.close()


def test_moderators_warn_mute_suspend_and_close_reports_each_logged(server: Server) -> None:
    mod = moderator(server, "mod_act")
    ann, bea = sign_up(server, "act_ann"), sign_up(server, "act_bea")
    match_id, _, bea_token = two_accounts_seated(server, ann, bea)
    for text in ("hi", "gl hf", "you are an idiot", "seriously", "ok"):
        say(bea if text in ("you are an idiot", "ok") else ann, match_id, text)
    line = next(
        m
        for m in bea.get(f"/api/matches/{match_id}/chat").json()["messages"]
        if "idiot" in m["text"]
    )
    made = ann.post(
        "/api/reports",
        json={"name": bea.name, "reason": "chat_abuse", "text": "insult", "chat_line": line["id"]},
    )
    report_id = made.json()["id"]

    # the queue: the report, the reported account's state, the line in context
    queue = mod.get("/api/moderation/reports").json()["reports"]
    mine = next(r for r in queue if r["id"] == report_id)
    assert (mine["by"], mine["name"], mine["reason"], mine["text"]) == (
        ann.name,
        bea.name,
        "chat_abuse",
        "insult",
    )
    assert (mine["match"], mine["chat_line"], mine["status"]) == (match_id, line["id"], "open")
    assert mine["account"] == {
        "name": bea.name,
        "suspended": False,
        "muted_until": None,
        "moderator": False,
        "open_reports": 1,
    }
    context = mine["context"]
    assert [c["text"] for c in context] == ["hi", "gl hf", "you are an idiot", "seriously", "ok"]
    assert [c["reported"] for c in context] == [False, False, True, False, False]
    assert [c["by_reported"] for c in context] == [False, False, True, False, True]
    assert mod.get(f"/api/moderation/reports/{report_id}").json() == mine
    refused(mod.get("/api/moderation/reports/999999"), 404, "moderation.no_report")
    refused(mod.get("/api/moderation/reports/x"), 400, "server.bad_request")

    # bad reasons and oneself
    for reason in ("", "   ", "x" * 201, "two\nlines", "rtl \u202e"):
        refused(
            mod.post("/api/moderation/warn", json={"name": bea.name, "reason": reason}),
            400,
            "moderation.bad_reason",
        )
    refused(
        mod.post("/api/moderation/warn", json={"name": mod.name, "reason": "x"}),
        400,
        "moderation.self",
    )
    refused(
        mod.post("/api/moderation/warn", json={"name": "nobody_here", "reason": "x"}),
        404,
        "account.no_player",
    )
    refused(
        mod.post("/api/moderation/warn", json={"name": bea.name, "reason": "x", "report": 999999}),
        404,
        "moderation.no_report",
    )
    refused(
        mod.post("/api/moderation/mute", json={"name": bea.name, "reason": "x", "minutes": -1}),
        400,
        "server.bad_request",
    )
    refused(
        mod.post("/api/moderation/mute", json={"name": bea.name, "reason": "x", "minutes": 10**6}),
        400,
        "server.bad_request",
    )

    # warn: Bea reads it on her next page, until she says she read it
    warned = mod.post(
        "/api/moderation/warn",
        json={"name": bea.name, "reason": "Insults are not allowed here.", "report": report_id},
    )
    assert warned.status_code == 200, warned.text
    shown = bea.get("/api/sessions/current").json()["warnings"]
    assert [w["text"] for w in shown] == ["Insults are not allowed here."]
    assert bea.get("/api/me/warnings").json()["warnings"] == shown
    assert ann.get("/api/sessions/current").json()["warnings"] == []
    refused(ann.post(f"/api/me/warnings/{shown[0]['id']}/seen"), 404, "moderation.no_warning")
    assert bea.post(f"/api/me/warnings/{shown[0]['id']}/seen").status_code == 204
    assert bea.get("/api/sessions/current").json()["warnings"] == []

    # mute: her chat refused until then, over HTTP and live; 0 lifts it
    muted = mod.post(
        "/api/moderation/mute",
        json={"name": bea.name, "minutes": 30, "reason": "cool off", "report": report_id},
    )
    assert muted.status_code == 200, muted.text
    until = muted.json()["until"]
    message = refused(
        bea.post(f"/api/matches/{match_id}/chat", json={"text": "why"}), 403, "chat.muted"
    )
    assert until[:10] in message
    assert bea.get("/api/sessions/current").json()["account"]["muted_until"] == until
    live = Client(server, match_id, bea_token).connect()
    try:
        assert live.say("let me talk")["code"] == "chat.muted"
    finally:
        live.close()
    assert say(ann, match_id, "quiet now")["text"] == "quiet now"  # only Bea is muted
    lifted = mod.post("/api/moderation/mute", json={"name": bea.name, "minutes": 0, "reason": "ok"})
    assert lifted.json()["until"] is None
    assert say(bea, match_id, "sorry")["text"] == "sorry"

    # close the report with a note; closing twice is refused
    closed = mod.post(f"/api/moderation/reports/{report_id}/close", json={"reason": "warned"})
    assert closed.status_code == 200, closed.text
    assert (closed.json()["status"], closed.json()["closed_by"], closed.json()["note"]) == (
        "closed",
        mod.name,
        "warned",
    )
    refused(
        mod.post(f"/api/moderation/reports/{report_id}/close", json={"reason": "again"}),
        409,
        "moderation.closed",
    )
    assert report_id not in [r["id"] for r in mod.get("/api/moderation/reports").json()["reports"]]
    assert report_id in [
        r["id"] for r in mod.get("/api/moderation/reports?status=closed").json()["reports"]
    ]

    # suspend: as keltis admin suspend — no session, no seat, no log-in
    suspended = mod.post("/api/moderation/suspend", json={"name": bea.name, "reason": "abuse"})
    assert suspended.status_code == 200, suspended.text
    refused(bea.get("/api/sessions/current"), 401, "account.no_session")
    with server.http() as http:
        seat = http.get(
            f"/api/matches/{match_id}/view", headers={"Authorization": f"Bearer {bea_token}"}
        )
        assert seat.status_code == 403, seat.text
        refused(
            http.post("/api/sessions", json={"name": bea.name, "password": PASSWORD}),
            403,
            "account.suspended",
        )
    assert chat_texts(ann, match_id).count("you are an idiot") == 0  # her chat is hidden
    refused(
        mod.post("/api/moderation/suspend", json={"name": bea.name, "reason": "again"}),
        409,
        "moderation.suspended",
    )

    # lifting it takes the same checks as every action; a refused one lifts nothing
    lift = "/api/moderation/unsuspend"
    for reason in ("", "x" * 201, "two\nlines"):
        refused(
            mod.post(lift, json={"name": bea.name, "reason": reason}), 400, "moderation.bad_reason"
        )
    refused(mod.post(lift, json={"name": "a\u0000b", "reason": "x"}), 400, "server.bad_name")
    refused(mod.post(lift, json={"name": "nobody_here", "reason": "x"}), 404, "account.no_player")
    refused(mod.post(lift, json={"name": mod.name, "reason": "x"}), 400, "moderation.self")
    refused(
        mod.post(lift, json={"name": bea.name, "reason": "x", "report": 999999}),
        404,
        "moderation.no_report",
    )
    refused(ann.post(lift, json={"name": bea.name, "reason": "x"}), 403, "moderation.forbidden")
    with server.http() as http:
        login = {"name": bea.name, "password": PASSWORD}
        refused(http.post("/api/sessions", json=login), 403, "account.suspended")
    # lift it: Bea logs in again (her old seat token stays ended), her chat shows again
    lifted = mod.post("/api/moderation/unsuspend", json={"name": bea.name, "reason": "served"})
    assert lifted.status_code == 200, lifted.text
    assert lifted.json() == {"name": bea.name, "action": "unsuspend"}
    refused(
        mod.post("/api/moderation/unsuspend", json={"name": bea.name, "reason": "again"}),
        409,
        "moderation.not_suspended",
    )
    with server.http() as http:
        assert (
            http.post("/api/sessions", json={"name": bea.name, "password": PASSWORD}).status_code
            == 200
        )
        seat = http.get(
            f"/api/matches/{match_id}/view", headers={"Authorization": f"Bearer {bea_token}"}
        )
        assert seat.status_code == 403, seat.text
    assert chat_texts(ann, match_id).count("you are an idiot") == 1

    # the log: every action, newest first, who and why
    log = mod.get("/api/moderation/log").json()["log"]
    done = [(e["action"], e["target"], e["by"], e["reason"], e["report"]) for e in log[:6]]
    assert done[0] == ("unsuspend", bea.name, mod.name, "served", None)
    done = done[1:]
    assert done[0] == ("suspend", bea.name, mod.name, "abuse", None)
    assert done[1] == ("close-report", bea.name, mod.name, "warned", report_id)
    assert done[2][:3] == ("unmute", bea.name, mod.name)
    assert done[3][0] == "mute"
    assert done[3][3].endswith(": cool off")
    assert done[3][4] == report_id
    assert done[4] == ("warn", bea.name, mod.name, "Insults are not allowed here.", report_id)
    assert all(e["web"] for e in log[:6])
    # and keltis admin's log shows them with the moderator's name
    listed = admin(server, "log", "--limit", "5")
    assert listed.returncode == 0, listed.stderr
    assert f"web:{mod.name}" in listed.stdout
    assert "close-report" in listed.stdout
    for m in (mod, ann, bea):
        m.close()


def _play_rated(server: Server, ann: Member, bea: Member) -> str:
    match_id, a, b = rated_match(server, ann, bea)
    try:
        play_together(a, b)
    finally:
        a.close()
        b.close()
    rated(server, match_id)
    return match_id


def test_a_voided_result_takes_its_rating_changes_back(server: Server) -> None:
    mod = moderator(server, "mod_void")
    ann, bea = sign_up(server, "void_ann"), sign_up(server, "void_bea")
    first = _play_rated(server, ann, bea)
    after_first = page(ann)["ratings"]["cards"]["history"][-1]
    second = _play_rated(server, ann, bea)
    before = {m.name: page(m)["ratings"]["cards"] for m in (ann, bea)}
    assert before[ann.name]["games"] == 2

    flag_id = _flag(server, ann, bea, [first, second])
    flags = mod.get("/api/moderation/flags").json()["flags"]
    flag = next(f for f in flags if f["id"] == flag_id)
    assert sorted(flag["accounts"]) == sorted([ann.name, bea.name])
    assert [m["id"] for m in flag["matches"]] == [first, second]
    assert [m["voided"] for m in flag["matches"]] == [False, False]

    voided = mod.post(
        "/api/moderation/void", json={"match": first, "reason": "arranged", "flag": flag_id}
    )
    assert voided.status_code == 200, voided.text
    assert sorted(voided.json()["players"]) == sorted([ann.name, bea.name])
    assert stored_match(server, first).voided_at is not None
    for member in (ann, bea):
        now_rating = page(member)["ratings"]["cards"]
        was = before[member.name]
        history = was["history"]
        change_mu = history[0]["mu"] - START_MU
        change_sigma = history[0]["sigma"] - START_SIGMA
        assert now_rating["games"] == 1
        assert now_rating["mu"] == pytest.approx(was["mu"] - change_mu)
        assert now_rating["sigma"] == pytest.approx(was["sigma"] - change_sigma)
        # the first match's point is gone; the second's moved by the same change
        assert [h["match"] for h in now_rating["history"]] == [second]
        assert now_rating["history"][0]["mu"] == pytest.approx(history[1]["mu"] - change_mu)
        recent = {r["match"]: r for r in page(member)["recent"]}
        assert (recent[first]["rated"], recent[first]["voided"]) == (False, True)
        assert (recent[second]["rated"], recent[second]["voided"]) == (True, False)
    assert after_first["match"] == first
    # the flag shows the void; twice, or a match never rated, is refused
    flag = next(f for f in mod.get("/api/moderation/flags").json()["flags"] if f["id"] == flag_id)
    assert [m["voided"] for m in flag["matches"]] == [True, False]
    refused(
        mod.post("/api/moderation/void", json={"match": first, "reason": "again"}),
        409,
        "moderation.not_voidable",
    )
    casual = create(server, game="board", seats=[{"kind": "person"}, {"kind": "bot"}], seed=3)
    refused(
        mod.post("/api/moderation/void", json={"match": casual["id"], "reason": "x"}),
        409,
        "moderation.not_voidable",
    )
    refused(
        mod.post("/api/moderation/void", json={"match": "nosuchmatch", "reason": "x"}),
        404,
        "server.no_match",
    )
    # voiding the second too: back where they began (no rating in the game)
    assert (
        mod.post("/api/moderation/void", json={"match": second, "reason": "arranged"}).status_code
        == 200
    )
    assert "cards" not in page(ann)["ratings"]

    # resolve the flag; twice is refused
    resolved = mod.post(f"/api/moderation/flags/{flag_id}/resolve", json={"reason": "voided both"})
    assert resolved.status_code == 200, resolved.text
    refused(
        mod.post(f"/api/moderation/flags/{flag_id}/resolve", json={"reason": "x"}),
        409,
        "moderation.resolved",
    )
    refused(
        mod.post("/api/moderation/flags/999999/resolve", json={"reason": "x"}),
        404,
        "moderation.no_flag",
    )
    assert flag_id not in [f["id"] for f in mod.get("/api/moderation/flags").json()["flags"]]
    assert flag_id in [
        f["id"] for f in mod.get("/api/moderation/flags?status=resolved").json()["flags"]
    ]
    log = mod.get("/api/moderation/log").json()["log"]
    assert [(e["action"], e["match"]) for e in log[:3]] == [
        ("resolve-flag", None),
        ("void", second),
        ("void", first),
    ]
    assert log[2]["reason"].startswith("arranged")
    assert f"[flag {flag_id}]" in log[2]["reason"]
    for m in (mod, ann, bea):
        m.close()


def test_admin_grants_and_revokes_the_moderator_role(server: Server) -> None:
    member = sign_up(server, "role")
    for args, error in (
        (("revoke-moderator", member.name), "is not a moderator"),
        (("grant-moderator", "nobody_here"), "there is no account named"),
    ):
        run = admin(server, *args)
        assert run.returncode == 1, run
        assert error in run.stderr
        assert len(run.stderr.splitlines()) == 1
    granted = admin(server, "grant-moderator", member.name.upper())
    assert granted.returncode == 0, granted.stderr
    assert member.name in granted.stdout
    again = admin(server, "grant-moderator", member.name)
    assert again.returncode == 1
    assert "a moderator already" in again.stderr
    listed = admin(server, "list", "--name", member.name).stdout.splitlines()
    assert "moderator since" in listed[1]
    assert listed[1].rstrip().endswith("active")
    assert admin(server, "revoke-moderator", member.name).returncode == 0
    log = admin(server, "log", "--limit", "2").stdout
    assert "revoke-moderator" in log
    assert "grant-moderator" in log
    member.close()


def test_ids_in_addresses_are_checked_before_any_query(server: Server) -> None:
    mod = moderator(server, "mod_ids")
    for path in (
        "/api/moderation/reports/0",
        "/api/moderation/reports/-1",
        f"/api/moderation/reports/{2**60}",
        "/api/moderation/reports/1%00",
    ):
        refused(mod.get(path), 400, "server.bad_request")
    refused(
        mod.post("/api/moderation/flags/abc/resolve", json={"reason": "x"}),
        400,
        "server.bad_request",
    )
    refused(mod.post("/api/me/warnings/0/seen"), 400, "server.bad_request")
    refused(mod.get("/api/moderation/reports?status=everything"), 400, "server.bad_request")
    refused(mod.get("/api/moderation/log?limit=0"), 400, "server.bad_request")
    assert "Traceback" not in "".join(server.log)
    mod.close()
