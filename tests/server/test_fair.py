"""Fair results (docs/server.md, "Ratings", "Time controls", "Hints") against real ``keltis
serve`` processes, on SQLite and PostgreSQL: with a time control only the clock hands a
seat to a bot, and a seat out of time ranks last; a seat a bot stood in for ranks last in a
rated match; a rated match needs a different account in every seat; a rated match in which
a person never moved is aborted, and repeated rated results of two accounts from one address
are flagged for moderators; hints only against bots or where every person agreed."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from keltis.server import db
from keltis.server.tutorials import TUTORIALS

from .harness import WAIT, Player, Server, play_together, player
from .people import Member, my_seat, signup

PERSON = {"kind": "person"}
#: A short card game (the card lesson's deal: some thirty decisions), seat 0 to begin.
SHORT = TUTORIALS["cards"].setup
#: A real-time control whose decision runs out five seconds after it is due.
FIVE_SECONDS = {"kind": "realtime", "decision": 5, "bank": 0}


def _wait_for(check: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    """Poll ``check`` until it returns something true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@contextmanager
def database(server: Server) -> Iterator[Engine]:
    """An engine on the server's database, to read what it stored."""
    engine = db.make_engine(server.database)
    try:
        yield engine
    finally:
        engine.dispose()


def stored_match(server: Server, match_id: str) -> Any:
    with database(server) as engine, engine.connect() as connection:
        return connection.execute(sa.select(db.matches).where(db.matches.c.id == match_id)).one()


def rated_match(
    server: Server, host: Member, guest: Member, **options: Any
) -> tuple[str, Player, Player]:
    """A rated two-player card game (the short deal) between two accounts, started, both
    seats connected: its id and the two players (host in seat 0)."""
    made = host.post(
        "/api/matches",
        json={"game": "cards", "seats": [PERSON, PERSON], "rated": True, "setup": SHORT, **options},
    )
    assert made.status_code == 201, made.text
    body = made.json()
    joined = guest.post(
        f"/api/matches/{body['id']}/join", json={"invite": body["invites"][0]["invite"]}
    )
    assert joined.status_code == 200, joined.text
    started = host.post(
        f"/api/matches/{body['id']}/start",
        headers={"Authorization": f"Bearer {body['host_token']}"},
    )
    assert started.status_code == 200, started.text
    first = Player(server, body["id"], body["token"]).connect()
    second = Player(server, body["id"], joined.json()["token"]).connect()
    return body["id"], first, second


def decide(p: Player) -> int:
    """``p`` catches up, then makes each decision of its turn (its first legal action):
    how many it made."""
    p.send({"type": "sync"})
    p.expect("snapshot")
    made = 0
    while p.my_turn:
        p.act(p.view["legal"][0]["index"], ref=f"d{made}")
        p.expect("ack")
        made += 1
    return made


def gone(watcher: Player, seat: int) -> None:
    """Read ``watcher``'s messages until the server has seen ``seat``'s player go."""
    while True:
        message = watcher.recv()
        if message["type"] in ("match", "snapshot") and not message["match"]["seats"][seat].get(
            "connected", True
        ):
            return


def describe(server: Server, match_id: str) -> dict[str, Any]:
    with server.http() as http:
        answer = http.get(f"/api/matches/{match_id}")
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def page(member: Member) -> dict[str, Any]:
    answer = member.get(f"/api/players/{member.name}")
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def rated(server: Server, match_id: str) -> None:
    """Wait until the finished match was rated (or marked aborted)."""
    _wait_for(lambda: stored_match(server, match_id).rated_at is not None, "the rating")


def refused(answer: Any, status: int, code: str) -> str:
    """``answer`` is a refusal ``code`` with ``status``: its message."""
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code, error
    message: str = error["message"]
    return message


# -- 1. with a time control the clock alone decides --------------------------------------


def test_with_a_time_control_only_the_clock_hands_a_seat_to_a_bot(server: Server) -> None:
    ann, bea = signup(server, "clock_ann"), signup(server, "clock_bea")
    match_id, a, b = rated_match(server, ann, bea, time=FIVE_SECONDS)
    try:
        assert decide(a) > 0
        assert decide(b) > 0  # Bea has played: the match is not aborted
        assert decide(a) > 0  # now Bea is to move, and her clock runs
        b.close()
        gone(a, 1)
        # Bea is away, but the match has a time control: her seat is not Ann's to give away
        a.send({"type": "stand_in", "seat": 1, "ref": "away"})
        while (error := a.recv())["type"] not in ("ack", "error"):
            pass
        assert (error["type"], error.get("code"), error["ref"]) == (
            "error",
            "server.clock_decides",
            "away",
        )
        assert "clock_bea" in error["message"]
        assert describe(server, match_id)["seats"][1]["stood_in"] is False
        # the same in another language, in words of its own
        with player(server, match_id, a.token, lang="de") as german:
            german.send({"type": "stand_in", "seat": 1})
            words = german.expect_error()
            assert words["code"] == "server.clock_decides"
            assert words["message"] != error["message"]
        # when Bea's time runs out, the bot plays her seat to the end; Ann plays on
        a.play(random.Random(1))
    finally:
        a.close()
    described = describe(server, match_id)
    seat = described["seats"][1]
    assert (seat["timed_out"], seat["stood_in"], described["aborted"]) == (True, True, False)
    rated(server, match_id)
    # a seat out of time loses, whatever the bot scored for it
    ann_page, bea_page = page(ann), page(bea)
    assert [r["rank"] for r in (ann_page["recent"][0], bea_page["recent"][0])] == [1, 2]
    assert ann_page["ratings"]["cards"]["mu"] > 25 > bea_page["ratings"]["cards"]["mu"]
    ann.close()
    bea.close()


def test_casual_and_timed_matches_without_accounts_keep_their_rules(server: Server) -> None:
    """A correspondence match between guests refuses a stand-in for an away player too;
    a casual live match (no time control) still hands an away player's seat to a bot."""
    for time_control, code in (({"kind": "correspondence", "days": 1}, "error"), (None, "ack")):
        with server.http() as http:
            made = http.post(
                "/api/matches",
                json={
                    "game": "cards",
                    "seats": [PERSON, PERSON],
                    "setup": SHORT,
                    **({"time": time_control} if time_control else {}),
                },
            ).json()
            joined = http.post(
                f"/api/matches/{made['id']}/join",
                json={"invite": made["invites"][0]["invite"], "name": "Bea"},
            ).json()
            http.post(
                f"/api/matches/{made['id']}/start",
                headers={"Authorization": f"Bearer {made['host_token']}"},
            )
        a = Player(server, made["id"], made["token"]).connect()
        b = Player(server, made["id"], joined["token"]).connect()
        try:
            b.close()
            gone(a, 1)
            for _ in range(20):  # (the presence task may note Bea once more as she goes)
                a.send({"type": "stand_in", "seat": 1, "ref": 1})
                while (answer := a.recv())["type"] not in ("ack", "error"):
                    pass
                if answer.get("code") != "server.not_away_or_late":
                    break
                time.sleep(0.2)
            assert answer["type"] == code, answer
            if code == "error":
                assert answer["code"] == "server.clock_decides"
        finally:
            a.close()


# -- 2. a seat a bot stood in for ranks last ---------------------------------------------


def test_a_seat_a_bot_stood_in_for_ranks_last_in_a_rated_match(server: Server) -> None:
    ann, bea = signup(server, "stand_ann"), signup(server, "stand_bea")
    match_id, a, b = rated_match(server, ann, bea)
    try:
        assert describe(server, match_id)["options"]["turn_seconds"] == 300  # the turn clock
        assert decide(a) > 0
        assert decide(b) > 0
        b.close()  # Bea leaves; Ann hands her seat to a bot, which plays it to the end
        gone(a, 1)
        a.send({"type": "stand_in", "seat": 1, "ref": "s"})
        a.expect("ack")
        a.play(random.Random(2))
    finally:
        a.close()
    described = describe(server, match_id)
    scores = described["result"]["scores"]
    assert scores[1] > scores[0]  # the bot outscored Ann: by score alone Bea would have won
    rated(server, match_id)
    ann_page, bea_page = page(ann), page(bea)
    assert [r["rank"] for r in (ann_page["recent"][0], bea_page["recent"][0])] == [1, 2]
    assert ann_page["ratings"]["cards"]["mu"] > 25 > bea_page["ratings"]["cards"]["mu"]
    assert described["seats"][1]["stood_in"] is True
    ann.close()
    bea.close()


# -- 3. a different account in every seat of a rated match -------------------------------


def test_a_rated_match_needs_a_different_account_in_every_seat(server: Server) -> None:
    ann, bea, cid = (
        signup(server, "twice_ann"),
        signup(server, "twice_bea"),
        signup(server, "twice_cid"),
    )
    try:
        made = ann.post(
            "/api/matches",
            json={"game": "cards", "seats": [PERSON, PERSON], "rated": True},
        ).json()
        invite = made["invites"][0]["invite"]
        english = refused(
            ann.post(f"/api/matches/{made['id']}/join", json={"invite": invite}),
            403,
            "server.rated_twice",
        )
        german = refused(
            ann.post(
                f"/api/matches/{made['id']}/join",
                json={"invite": invite},
                headers={"Accept-Language": "de"},
            ),
            403,
            "server.rated_twice",
        )
        assert english != german
        # the seat is still free for another account
        assert (
            bea.post(f"/api/matches/{made['id']}/join", json={"invite": invite}).status_code == 200
        )
        # three seats: Bea takes one, and cannot take the other too
        three = ann.post(
            "/api/matches",
            json={"game": "cards", "seats": [PERSON, PERSON, PERSON], "rated": True},
        ).json()
        first, second = (i["invite"] for i in three["invites"])
        assert (
            bea.post(f"/api/matches/{three['id']}/join", json={"invite": first}).status_code == 200
        )
        refused(
            bea.post(f"/api/matches/{three['id']}/join", json={"invite": second}),
            403,
            "server.rated_twice",
        )
        assert (
            cid.post(f"/api/matches/{three['id']}/join", json={"invite": second}).status_code == 200
        )
        seats = describe(server, three["id"])["seats"]
        assert [s["name"] for s in seats] == ["twice_ann", "twice_bea", "twice_cid"]
        # a seek: one's own is refused as before
        seek = ann.post("/api/seeks", json={"game": "cards", "players": 2, "rated": True})
        assert seek.status_code == 201, seek.text
        refused(ann.post(f"/api/seeks/{seek.json()['id']}/join"), 409, "seek.own")
        ann.delete(f"/api/seeks/{seek.json()['id']}")
    finally:
        for member in (ann, bea, cid):
            member.close()


# -- 4. an account that never moves rates nobody; repeated results are flagged -----------


def test_a_rated_match_in_which_a_person_never_moved_is_aborted(server: Server) -> None:
    ann, puppet = signup(server, "abort_ann"), signup(server, "abort_puppet")
    match_id, a, p = rated_match(server, ann, puppet, time=FIVE_SECONDS)
    p.close()  # the puppet never plays: its time runs out, a bot plays its seat
    try:
        a.play(random.Random(3))
    finally:
        a.close()
    rated(server, match_id)
    for member in (ann, puppet):
        shown = page(member)
        assert shown["ratings"] == {}  # no rating moved, none was made
        assert (shown["recent"][0]["match"], shown["recent"][0]["rated"]) == (match_id, False)
        assert shown["recent"][0]["aborted"] is True
        member.close()
    with server.http() as http:
        board = http.get("/api/ratings/cards").json()["players"]
    assert not {"abort_ann", "abort_puppet"} & {p["name"] for p in board}
    described = describe(server, match_id)
    assert (described["rated"], described["aborted"]) == (True, True)
    assert described["seats"][1]["timed_out"] is True
    assert stored_match(server, match_id).aborted


def _flags(server: Server, first: str, second: str) -> list[Any]:
    """The stored flags of the accounts named ``first`` and ``second``."""
    with database(server) as engine, engine.connect() as connection:
        ids = dict(
            connection.execute(
                sa.select(db.accounts.c.name, db.accounts.c.id).where(
                    db.accounts.c.name.in_([first, second])
                )
            ).all()
        )
        pair = sorted([ids[first], ids[second]])
        return list(
            connection.execute(
                sa.select(db.rating_flags).where(
                    db.rating_flags.c.account_a == pair[0], db.rating_flags.c.account_b == pair[1]
                )
            )
        )


def test_repeated_rated_results_from_one_address_are_flagged(server: Server) -> None:
    ann, bea = signup(server, "flag_ann"), signup(server, "flag_bea")
    played = []
    try:
        for _ in range(3):
            match_id, a, b = rated_match(server, ann, bea)
            try:
                play_together(a, b)
            finally:
                a.close()
                b.close()
            rated(server, match_id)
            played.append(match_id)
            flags = _flags(server, "flag_ann", "flag_bea")
            if len(played) < 3:
                assert flags == []
        with database(server) as engine, engine.connect() as connection:
            addresses = connection.execute(
                sa.select(db.seats.c.address).where(db.seats.c.match_id.in_(played))
            ).scalars()
            assert set(addresses) == {"127.0.0.1"}
        assert len(flags) == 1
        flag = flags[0]
        assert (flag.reason, flag.address, flag.resolved_at) == ("same_address", "127.0.0.1", None)
        assert sorted(flag.matches) == sorted(played)
        # the ratings moved as usual: moderators decide
        assert page(ann)["ratings"]["cards"]["games"] == 3
        # keltis admin lists the flag by the accounts' names
        listed = subprocess.run(
            [sys.executable, "-m", "keltis", "admin", "--db", server.database, "flags"],
            capture_output=True,
            text=True,
            timeout=WAIT,
            check=True,
        ).stdout
        lines = [line for line in listed.splitlines() if "flag_ann" in line]
        assert len(lines) == 1
        assert "flag_bea" in lines[0]
        assert "same_address" in lines[0]
        assert all(match_id in lines[0] for match_id in played)
    finally:
        ann.close()
        bea.close()


# -- 5. hints only against bots, or where every person agreed ----------------------------


def _hint(p: Player) -> dict[str, Any]:
    """``p`` (to move) asks for a hint: the answer, ``hints`` or an ``error``."""
    p.send({"type": "sync"})
    p.expect("snapshot")
    p.send({"type": "hint", "version": p.version, "ref": "h"})
    while (answer := p.recv())["type"] not in ("hints", "error"):
        pass
    return answer


def _seated(server: Server, match_id: str, *tokens: str) -> Player:
    """The player, of those holding ``tokens``, whose seat is to move (connected)."""
    _wait_for(lambda: describe(server, match_id)["status"] == "running", "the start")
    seat = describe(server, match_id)["to_move"]
    for token in tokens:
        p = Player(server, match_id, token).connect()
        if p.seat == seat:
            return p
        p.close()
    raise AssertionError("no token of the seat to move")


def test_hints_only_against_bots_or_where_every_person_agreed(server: Server) -> None:
    ann, bea = signup(server, "hint_ann"), signup(server, "hint_bea")
    try:
        # an unrated seek between two accounts: no hints, no take-backs
        seek = ann.post("/api/seeks", json={"game": "cards", "players": 2}).json()
        started = bea.post(f"/api/seeks/{seek['id']}/join").json()
        match_id = started["match"]
        assert describe(server, match_id)["options"]["hints"] is False
        tokens = [my_seat(m, match_id)["token"] for m in (ann, bea)]
        mover = _seated(server, match_id, *tokens)
        try:
            answer = _hint(mover)
            assert (answer["type"], answer["code"]) == ("error", "server.hints_people")
            mover.send({"type": "undo", "version": mover.version, "ref": "u"})
            assert mover.expect_error()["code"] in ("server.no_undo", "server.undo_people")
        finally:
            mover.close()

        # a correspondence match between guests, hints not asked for: none
        with server.http() as http:
            letters = http.post(
                "/api/matches",
                json={
                    "game": "cards",
                    "seats": [PERSON, PERSON],
                    "time": {"kind": "correspondence", "days": 1},
                },
            ).json()
            assert letters["match"]["options"]["hints"] is False
            bea_seat = http.post(
                f"/api/matches/{letters['id']}/join",
                json={"invite": letters["invites"][0]["invite"], "name": "Bea"},
            ).json()
            http.post(
                f"/api/matches/{letters['id']}/start",
                headers={"Authorization": f"Bearer {letters['host_token']}"},
            )
        mover = _seated(server, letters["id"], letters["token"], bea_seat["token"])
        try:
            answer = _hint(mover)
            assert (answer["type"], answer["code"]) == ("error", "server.hints_people")
        finally:
            mover.close()

        # hints asked for by the creator: shown to whoever joins, agreed by joining, given
        with server.http() as http:
            agreed = http.post(
                "/api/matches", json={"game": "cards", "seats": [PERSON, PERSON], "hints": True}
            ).json()
            options = agreed["match"]["options"]
            assert (options["hints"], options["hints_agreed"]) == (True, True)
            shown = http.get(f"/api/matches/{agreed['id']}").json()["options"]
            assert shown["hints_agreed"] is True
            joined = http.post(
                f"/api/matches/{agreed['id']}/join",
                json={"invite": agreed["invites"][0]["invite"], "name": "Bea"},
            ).json()
            assert joined["match"]["options"]["hints_agreed"] is True
            http.post(
                f"/api/matches/{agreed['id']}/start",
                headers={"Authorization": f"Bearer {agreed['host_token']}"},
            )
        mover = _seated(server, agreed["id"], agreed["token"], joined["token"])
        try:
            assert _hint(mover)["type"] == "hints"
        finally:
            mover.close()

        # a rated match has none, asked for or not; against bots they are there by default
        rated_made = ann.post(
            "/api/matches",
            json={"game": "cards", "seats": [PERSON, PERSON], "rated": True, "hints": True},
        ).json()
        options = rated_made["match"]["options"]
        assert (rated_made["match"]["rated"], options["hints"], options["hints_agreed"]) == (
            True,
            False,
            False,
        )
        with server.http() as http:
            alone = http.post(
                "/api/matches", json={"game": "cards", "seats": [PERSON, {"kind": "bot"}]}
            ).json()
        assert (alone["match"]["options"]["hints"], alone["match"]["options"]["hints_agreed"]) == (
            True,
            False,
        )
    finally:
        ann.close()
        bea.close()


@pytest.mark.parametrize("players", [2, 3])
def test_a_seek_s_match_never_offers_hints(players: int) -> None:
    """The lobby's matches are planned without hints or take-backs, also when bots fill
    the seats left (the match service then refuses them, :func:`describe.hints_on`)."""
    from keltis.server.seeks import Seek, plan_seek
    from keltis.server.store import now

    when = now()
    seek = Seek(
        "s",
        "a1",
        "cards",
        players,
        False,
        {},
        None,
        None,
        10,
        "open",
        None,
        when,
        when,
        (("a1", "Ann"),),
    )
    plan = plan_seek(seek, [("a1", "Ann")], "medium")
    assert (plan.options["hints"], plan.options["undo"]) == (False, False)
