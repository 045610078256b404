"""Saying no to playing again (issue 42 §7): ``DELETE /api/matches/{id}/again`` — the
player waiting in the next match withdraws, one asked declines; the next match is
cancelled, the other players are told live and, logged in, by a notice in
``GET /api/me/matches``; on both databases, and across two processes."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .harness import (
    Player,
    Server,
    create,
    join,
    play_together,
    start,
)
from .people import signup

#: A board game of two people and a bot dealt so that it ends after a few moves.
SHORT = {
    "hands": [
        ["G0", "G1", "G2", "Y3", "Y4", "R5", "P6", "B7"],
        ["G10", "G9", "Y8", "Y7", "R6", "R5", "B4", "B3"],
        ["G3", "G4", "G5", "Y5", "Y6", "R7", "P8", "B8"],
    ],
    "deck": ["P1", "P2"],
}
PEOPLE_AND_BOT = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def finished(server: Server) -> tuple[str, str, str]:
    """A finished match of Ann (seat 0) and Bea (seat 1), guests: its id and their tokens."""
    made = create(server, game="board", seats=PEOPLE_AND_BOT, name="Ann", setup=SHORT)
    match_id = made["id"]
    bea = join(server, match_id, made["invites"][0]["invite"], "Bea")
    start(server, match_id, made["host_token"])
    ann_p = Player(server, match_id, made["token"]).connect()
    bea_p = Player(server, match_id, bea["token"]).connect()
    try:
        play_together(ann_p, bea_p)
    finally:
        ann_p.close()
        bea_p.close()
    return match_id, made["token"], bea["token"]


def told(player: Player, until: Any) -> dict[str, Any]:
    """Read ``player``'s messages until a match description for which ``until`` holds."""
    while True:
        message = player.recv()
        if message["type"] in ("match", "snapshot") and until(message["match"]):
            return dict(message["match"])


def test_the_asked_player_declines_and_the_waiting_one_is_told(server: Server) -> None:
    match_id, ann, bea = finished(server)
    ann_p = Player(server, match_id, ann).connect()
    try:
        with server.http() as http:
            asked = http.post(f"/api/matches/{match_id}/again", headers=bearer(ann))
            assert asked.status_code == 201, asked.text
            following = asked.json()["id"]
            no = http.delete(f"/api/matches/{match_id}/again", headers=bearer(bea))
            assert no.status_code == 200, no.text
            said = no.json()
            assert (said["answer"], said["next"], said["repeated"]) == (
                "declined",
                following,
                False,
            )
            assert said["match"]["next"] is None
            # the next match never begins: cancelled, and nobody may act in it
            assert http.get(f"/api/matches/{following}").json()["status"] == "cancelled"
            acted = http.post(
                f"/api/matches/{following}/actions",
                headers=bearer(asked.json()["token"]),
                json={"action": 0, "version": 0},
            )
            assert acted.status_code == 409
            assert acted.json()["error"]["code"] == "server.not_started"
            # saying it again changes nothing
            twice = http.delete(f"/api/matches/{match_id}/again", headers=bearer(bea))
            assert twice.status_code == 200
            assert (twice.json()["answer"], twice.json()["repeated"]) == ("declined", True)
            # nobody waits now: Ann has nothing to withdraw
            none = http.delete(f"/api/matches/{match_id}/again", headers=bearer(ann))
            assert none.status_code == 409
            assert none.json()["error"]["code"] == "server.again_none"
            assert none.json()["error"]["message"] == (
                "Nobody is waiting for a rematch of this match."
            )
        # Ann, on the finished match's page, hears who said no
        seen = told(ann_p, lambda m: m.get("rematch"))
        assert seen["next"] is None
        assert [(r["seat"], r["answer"], r["next"]) for r in seen["rematch"]] == [
            (1, "declined", following)
        ]
    finally:
        ann_p.close()


def test_the_waiting_player_withdraws_and_may_ask_again(server: Server) -> None:
    match_id, ann, bea = finished(server)
    bea_p = Player(server, match_id, bea).connect()
    try:
        with server.http() as http:
            first = http.post(f"/api/matches/{match_id}/again", headers=bearer(ann)).json()["id"]
            gone = http.delete(f"/api/matches/{match_id}/again", headers=bearer(ann))
            assert gone.status_code == 200, gone.text
            assert (gone.json()["answer"], gone.json()["next"]) == ("withdrew", first)
            assert http.get(f"/api/matches/{first}").json()["status"] == "cancelled"
            seen = told(bea_p, lambda m: m.get("rematch"))
            assert [(r["seat"], r["answer"]) for r in seen["rematch"]] == [(0, "withdrew")]
            # Bea cannot take the cancelled match's seat; she may ask for a new one
            second = http.post(f"/api/matches/{match_id}/again", headers=bearer(bea))
            assert second.status_code == 201, second.text
            assert second.json()["id"] != first
            assert second.json()["match"]["status"] == "open"
            # Ann joins it: it starts, and can no longer be cancelled
            joined = http.post(f"/api/matches/{match_id}/again", headers=bearer(ann))
            assert joined.status_code == 201, joined.text
            assert joined.json()["match"]["status"] == "running"
            late = http.delete(
                f"/api/matches/{match_id}/again", headers={**bearer(bea), "Accept-Language": "de"}
            )
            assert late.status_code == 409
            assert late.json()["error"]["code"] == "server.again_started"
            assert http.get(f"/api/matches/{second.json()['id']}").json()["status"] == "running"
    finally:
        bea_p.close()


def test_who_may_say_no(server: Server) -> None:
    """Only a person seat's token of the finished match: not a spectator, not a token of
    another match (the next match's own included), not a match still being played."""
    match_id, ann, _bea = finished(server)
    with server.http() as http:
        asked = http.post(f"/api/matches/{match_id}/again", headers=bearer(ann)).json()
        assert http.delete(f"/api/matches/{match_id}/again").status_code == 401
        wrong = http.delete(f"/api/matches/{match_id}/again", headers=bearer("nope"))
        assert wrong.status_code == 403
        assert wrong.json()["error"]["code"] == "server.bad_token"
        # the next match's token is no seat of the finished match
        other = http.delete(f"/api/matches/{match_id}/again", headers=bearer(asked["token"]))
        assert other.status_code == 403
        # the next match is not a finished one
        running = http.delete(f"/api/matches/{asked['id']}/again", headers=bearer(asked["token"]))
        assert running.status_code == 409
        assert running.json()["error"]["code"] == "server.not_finished"
        unknown = http.delete("/api/matches/no-such-match/again", headers=bearer(ann))
        assert unknown.status_code == 404
        assert unknown.json()["error"]["code"] == "server.no_match"
        bad_id = http.delete("/api/matches/%00bad/again", headers=bearer(ann))
        assert bad_id.status_code == 400
        assert bad_id.json()["error"]["code"] == "server.bad_request"
        # a body is not asked for; one that is no JSON is refused as any other
        junk = http.request(
            "DELETE",
            f"/api/matches/{match_id}/again",
            headers={**bearer("nope"), "Content-Type": "application/json"},
            content=b"{not json",
        )
        assert junk.status_code == 400
        assert junk.json()["error"]["code"] == "server.bad_json"
        # none of that cancelled anything
        assert http.get(f"/api/matches/{asked['id']}").json()["status"] == "open"
        assert http.get(f"/api/matches/{match_id}").json()["next"] == asked["id"]


def test_an_account_is_told_on_any_page_until_it_dismisses(server: Server) -> None:
    """Logged in, the waiting player finds the other's no among its notices (asked by the
    header on every page), with the name and seat, until it dismisses it."""
    ann, bea = signup(server, "AnnR"), signup(server, "BeaR")
    try:
        made = ann.post(
            "/api/matches", json={"game": "board", "seats": PEOPLE_AND_BOT, "setup": SHORT}
        ).json()
        match_id = made["id"]
        joined = bea.post(
            f"/api/matches/{match_id}/join", json={"invite": made["invites"][0]["invite"]}
        ).json()
        start(server, match_id, made["host_token"])
        a = Player(server, match_id, made["token"]).connect()
        b = Player(server, match_id, joined["token"]).connect()
        try:
            play_together(a, b)
        finally:
            a.close()
            b.close()
        asked = ann.post(f"/api/matches/{match_id}/again", headers=bearer(made["token"]))
        assert asked.status_code == 201, asked.text
        assert ann.get("/api/me/matches").json()["notices"] == []
        no = bea.delete(f"/api/matches/{match_id}/again", headers=bearer(joined["token"]))
        assert no.status_code == 200, no.text
        notices = ann.get("/api/me/matches").json()["notices"]
        assert [(n["match"], n["name"], n["seat"], n["answer"]) for n in notices] == [
            (match_id, "BeaR", 1, "declined")
        ]
        assert notices[0]["game"] == "board"
        # the notice is the account's data: its export has it, the other's not
        exported = ann.get("/api/me/export").json()["notices"]
        assert [(n["match"], n["seat"], n["answer"]) for n in exported] == [
            (match_id, 1, "declined")
        ]
        assert bea.get("/api/me/export").json()["notices"] == []
        # the cancelled match is none of Ann's open matches any more
        assert ann.get("/api/me/matches").json()["open"] == []
        assert bea.get("/api/me/matches").json()["notices"] == []
        # only its owner dismisses a notice; bad ids are refused
        assert bea.delete(f"/api/me/notices/{notices[0]['id']}").status_code == 204
        assert len(ann.get("/api/me/matches").json()["notices"]) == 1
        for bad in ("abc", "0", "-1", "99999999999"):
            assert ann.delete(f"/api/me/notices/{bad}").status_code == 400, bad
        with server.http() as http:
            assert http.delete(f"/api/me/notices/{notices[0]['id']}").status_code == 401
        assert ann.delete(f"/api/me/notices/{notices[0]['id']}").status_code == 204
        assert ann.get("/api/me/matches").json()["notices"] == []
        assert ann.delete(f"/api/me/notices/{notices[0]['id']}").status_code == 204
    finally:
        ann.close()
        bea.close()


def test_saying_no_is_rate_limited(server: Server) -> None:
    """As creating a match (each no can let another be created): per address."""
    with server.http() as http:
        codes = [
            http.delete("/api/matches/no-such-match/again", headers=bearer("x")).status_code
            for _ in range(40)
        ]
        assert 404 in codes
        assert codes[-1] == 429
        limited = http.delete("/api/matches/no-such-match/again", headers=bearer("x"))
        assert limited.json()["error"]["code"] == "server.rate_limited"


@pytest.mark.postgres
def test_a_no_said_on_one_process_reaches_a_player_on_the_other(
    two_servers: tuple[Server, Server],
) -> None:
    a, b = two_servers
    match_id, ann, bea = finished(a)
    ann_p = Player(a, match_id, ann).connect()
    try:
        with httpx.Client(base_url=a.base) as on_a, httpx.Client(base_url=b.base) as on_b:
            following = on_a.post(f"/api/matches/{match_id}/again", headers=bearer(ann))
            assert following.status_code == 201, following.text
            told(ann_p, lambda m: m["next"] == following.json()["id"])
            no = on_b.delete(f"/api/matches/{match_id}/again", headers=bearer(bea))
            assert no.status_code == 200, no.text
            seen = told(ann_p, lambda m: m.get("rematch"))
            assert seen["next"] is None
            assert [(r["seat"], r["answer"]) for r in seen["rematch"]] == [(1, "declined")]
            # process A knows: Ann may ask again there at once
            again = on_a.post(f"/api/matches/{match_id}/again", headers=bearer(ann))
            assert again.status_code == 201, again.text
            assert again.json()["id"] != following.json()["id"]
    finally:
        ann_p.close()
