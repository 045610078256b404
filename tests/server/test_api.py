"""The HTTP API against a real server: create, list, join, start, view, act, record; and the
refusals (each a clear message, in the client's language, the server unharmed)."""

from __future__ import annotations

import json

import pytest

from keltis.match import Match
from keltis.record import GameRecord

from .harness import Player, Server, create, join, play_together, start


def test_health_games_and_openapi(server: Server) -> None:
    with server.http() as http:
        assert http.get("/api/health").json()["ok"] is True
        games = http.get("/api/games").json()
        assert [g["name"] for g in games["games"]] == ["board", "cards"]
        board = games["games"][0]
        assert board["variant"]["no_take_back"] is True
        assert board["info"]["2"]["num_players"] == 2
        assert [level["level"] for level in games["levels"]] == [
            "random",
            "easy",
            "medium",
            "hard",
        ]
        spec = http.get("/openapi.json").json()
    paths = spec["paths"]
    for path in (
        "/api/matches",
        "/api/matches/{match_id}",
        "/api/matches/{match_id}/join",
        "/api/matches/{match_id}/start",
        "/api/matches/{match_id}/view",
        "/api/matches/{match_id}/actions",
        "/api/matches/{match_id}/record",
        "/api/matches/{match_id}/review",
    ):
        assert path in paths, path
    assert "CreateMatch" in spec["components"]["schemas"]
    # what the server answers to a request it cannot take: 400 and the one error shape
    create_answers = paths["/api/matches"]["post"]["responses"]
    assert "422" not in create_answers
    assert create_answers["400"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }
    assert "HTTPValidationError" not in spec["components"]["schemas"]


def test_games_send_the_numbers_they_score_by(server: Server) -> None:
    """The client's rules pages and board show these tables and hold none of their own
    (issue 40 §4.1): each as RULES.md states it."""
    with server.http() as http:
        games = {g["name"]: g for g in http.get("/api/games").json()["games"]}
    assert games["board"]["tables"] == {
        "row_values": [0, -4, -3, -2, 1, 2, 3, 6, 7, 10],  # B-2: row 0 is the start stone
        "wish_points": [-4, -3, 2, 3, 6, 10],  # B-23: 0 … 5 or more
        "goal_row": 7,  # B-2: rows 7-9
        "goal_figures": 5,  # B-19
    }
    assert games["cards"]["tables"] == {
        "row_points": [0, -4, -3, -2, 1, 2, 3, 6, 7, 10],  # C-16: 0 … 9 or more cards
        "wish_points": [-4, -1, 0, 4, 6, 10],  # C-18
        "wish_stones": [1, 2, 3, 4, 5, 6, 7, 8, 9],  # C-4
    }


def test_create_join_start_list(server: Server) -> None:
    made = create(
        server,
        game="cards",
        seats=[{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}],
        name="Ann",
    )
    match_id = made["id"]
    assert made["match"]["status"] == "open"
    assert made["seat"] == 0
    assert [i["seat"] for i in made["invites"]] == [1]
    invite = made["invites"][0]
    # the invite link carries its code after '#', which browsers never send to a server
    assert invite["link"].endswith(f"/#/join/{match_id}/{invite['invite']}")
    with server.http() as http:
        listed = http.get("/api/matches", params={"status": "open"}).json()["matches"]
        assert match_id in [m["id"] for m in listed]
        # starting needs the host token, and every person seat taken
        assert http.post(f"/api/matches/{match_id}/start").status_code == 403
        early = http.post(
            f"/api/matches/{match_id}/start",
            headers={"Authorization": f"Bearer {made['host_token']}"},
        )
        assert early.status_code == 409
        assert early.json()["error"]["code"] == "server.seats_empty"
        assert "2" in early.json()["error"]["message"]
        bad = http.post(
            f"/api/matches/{match_id}/join", json={"invite": "not-the-code", "name": "Eve"}
        )
        assert bad.status_code == 403
        assert bad.json()["error"]["code"] == "server.bad_invite"
    joined = join(server, match_id, invite["invite"], "Bea")
    assert joined["seat"] == 1
    assert joined["token"] not in (made["token"], made["host_token"])
    with server.http() as http:  # an invite is used once
        again = http.post(
            f"/api/matches/{match_id}/join", json={"invite": invite["invite"], "name": "Eve"}
        )
        assert again.status_code == 403
    summary = start(server, match_id, made["host_token"])
    assert summary["status"] == "running"
    assert [s["name"] for s in summary["seats"]] == ["Ann", "Bea", "Brigid"]
    with server.http() as http:
        running = http.get("/api/matches", params={"status": "running"}).json()["matches"]
        assert match_id in [m["id"] for m in running]
        text = json.dumps(http.get(f"/api/matches/{match_id}").json())
    for secret in (made["host_token"], made["token"], joined["token"], invite["invite"]):
        assert secret not in text
    # the server's log (uvicorn's access lines included) names no token and no invite
    with server.http() as http:
        auth = {"Authorization": f"Bearer {joined['token']}"}
        assert http.get(f"/api/matches/{match_id}/view", headers=auth).status_code == 200
    log = server.logged(f"/api/matches/{match_id}/view")
    assert f"/api/matches/{match_id}/view" in log
    for secret in (made["host_token"], made["token"], joined["token"], invite["invite"]):
        assert secret not in log


@pytest.mark.slow
def test_play_over_http_to_the_record(server: Server) -> None:
    """A person against a bot, over plain HTTP (slow play needs nothing else): every action
    stored before the answer, the record replayable once the game is over."""
    made = create(
        server, game="cards", seats=[{"kind": "person"}, {"kind": "bot", "level": "random"}]
    )
    match_id, auth = made["id"], {"Authorization": f"Bearer {made['token']}"}
    with server.http() as http:
        assert http.get(f"/api/matches/{match_id}/record").status_code == 409
        moves = 0
        while True:
            got = http.get(f"/api/matches/{match_id}/view", headers=auth).json()
            if got["result"] is not None:
                break
            legal = got["view"]["legal"]
            if not legal:  # the bot is still thinking: ask again
                continue
            answer = http.post(
                f"/api/matches/{match_id}/actions",
                headers=auth,
                json={"action": legal[-1]["notation"], "version": got["version"]},
            )
            assert answer.status_code == 200, answer.text
            assert answer.json()["version"] == got["version"] + 1
            moves += 1
        record_json = http.get(f"/api/matches/{match_id}/record").json()
    record = GameRecord.from_json(record_json)
    state = record.replay()
    assert state.over
    assert record.result == state.outcome().to_json()
    match = Match(GameRecord.from_json(record_json))
    assert moves == sum(match.actor(ply) == 0 for ply in range(len(record.actions)))


def test_refusals_are_clear_and_translated(server: Server) -> None:
    made = create(
        server, game="board", seats=[{"kind": "person"}, {"kind": "bot", "level": "random"}]
    )
    match_id = made["id"]
    auth = {"Authorization": f"Bearer {made['token']}"}
    with server.http() as http:
        missing = http.get("/api/matches/nope", headers={"Accept-Language": "de-DE,de;q=0.9"})
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "server.no_match"
        assert "nope" in missing.json()["error"]["message"]
        malformed = http.post(
            "/api/matches", content=b"{not json", headers={"Content-Type": "application/json"}
        )
        assert malformed.status_code == 400
        assert malformed.json()["error"]["code"] == "server.bad_json"
        bad_game = http.post("/api/matches", json={"game": "chess", "seats": [{}, {}]})
        assert bad_game.status_code == 400
        assert "game" in bad_game.json()["error"]["message"]
        bad_variant = http.post(
            "/api/matches", json={"seats": [{}, {"kind": "bot"}], "variant": {"colours": 9}}
        )
        assert bad_variant.status_code == 400
        # a turn limit a person typed in the new-match form, refused in their language
        for cap, german in [
            (0, "die Zugobergrenze (turn_cap) muss mindestens 1 sein, nicht 0"),
            ("ten", "die Zugobergrenze (turn_cap) muss eine ganze Zahl sein, nicht 'ten'"),
        ]:
            low_cap = http.post(
                "/api/matches",
                json={"seats": [{}, {"kind": "bot"}], "variant": {"turn_cap": cap}},
                headers={"Accept-Language": "de"},
            )
            assert low_cap.status_code == 400
            assert low_cap.json()["error"] == {
                "code": "server.bad_request",
                "message": f"Die Anfrage ist ungültig: {german}.",
            }
        huge = http.post(
            "/api/matches",
            content=b"{" + b" " * 70000 + b"}",
            headers={"Content-Type": "application/json"},
        )
        assert huge.status_code == 413
        assert huge.json()["error"]["code"] == "server.too_big"
        wrong = http.post(
            f"/api/matches/{match_id}/actions",
            headers={"Authorization": "Bearer wrong"},
            json={"action": "pass", "version": 0},
        )
        assert wrong.status_code == 403
        assert wrong.json()["error"]["code"] == "server.bad_token"
        stale = http.post(
            f"/api/matches/{match_id}/actions", headers=auth, json={"action": "pass", "version": 7}
        )
        assert stale.status_code == 409
        assert stale.json()["error"]["code"] == "refuse.stale_action"
        illegal = http.post(
            f"/api/matches/{match_id}/actions",
            headers={**auth, "Accept-Language": "de"},
            json={"action": "draw", "version": 0},
        )
        assert illegal.status_code == 409
        error = illegal.json()["error"]
        assert error["code"].startswith("refuse.")
        assert error["message"].startswith("B-")  # the rule's id, then the German reason
        # the rule and the reason apart too: a client shows each without cutting the text
        assert error["message"] == f"{error['rule']}: {error['reason']}"
        # nothing of all that was stored, and the server still answers
        assert http.get(f"/api/matches/{match_id}").json()["version"] == 0
        assert http.get("/api/health").status_code == 200


def test_bots_of_one_persona_are_named_by_their_seats(server: Server) -> None:
    easy = {"kind": "bot", "level": "easy"}
    made = create(server, seats=[easy, {"kind": "person"}, easy, easy], seat=1, name="Ada")
    names = [seat["name"] for seat in made["match"]["seats"]]
    assert names == ["Brigid 1", "Ada", "Brigid 3", "Brigid 4"]


def test_a_bot_seat_of_no_level_for_people_is_refused(server: Server) -> None:
    """A seat's ``level`` is one of the levels the server lists: ``expert`` (the learned
    search, a bot for research only, docs/bots.md) is refused like any unknown level, as
    a body the server cannot read: ``400`` saying where."""
    seats = [{"kind": "person"}, {"kind": "bot", "level": "expert"}]
    with server.http() as http:
        response = http.post("/api/matches", json={"seats": seats, "name": "Ann"})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "server.bad_request"
    assert "seats.1.level" in error["message"]


def test_people_play_again_each_from_their_own_seat(server: Server) -> None:
    """After a match between people, one asks to play again: the next match has the same
    seats, names and settings; the others learn of it live and take their own seats with
    their tokens of the match before; it starts once every person is in."""
    short = {
        "hands": [
            ["G0", "G1", "G2", "Y3", "Y4", "R5", "P6", "B7"],
            ["G10", "G9", "Y8", "Y7", "R6", "R5", "B4", "B3"],
            ["G3", "G4", "G5", "Y5", "Y6", "R7", "P8", "B8"],
        ],
        "deck": ["P1", "P2"],
    }
    made = create(
        server,
        game="board",
        seats=[{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}],
        name="Ann",
        setup=short,
        turn_seconds=600,
    )
    match_id = made["id"]
    bea = join(server, match_id, made["invites"][0]["invite"], "Bea")
    with server.http() as http:
        early = http.post(
            f"/api/matches/{match_id}/again", headers={"Authorization": f"Bearer {bea['token']}"}
        )
        assert early.status_code == 409
        assert early.json()["error"]["code"] == "server.not_finished"
    start(server, match_id, made["host_token"])
    ann = Player(server, match_id, made["token"]).connect()
    bea_p = Player(server, match_id, bea["token"]).connect()
    play_together(ann, bea_p)
    with server.http() as http:
        assert http.post(f"/api/matches/{match_id}/again").status_code == 401
        wrong = http.post(
            f"/api/matches/{match_id}/again", headers={"Authorization": "Bearer nope"}
        )
        assert wrong.status_code == 403
        first = http.post(
            f"/api/matches/{match_id}/again", headers={"Authorization": f"Bearer {made['token']}"}
        )
        assert first.status_code == 201, first.text
        again = first.json()
        assert again["seat"] == 0
        following = again["match"]
        assert following["status"] == "open"
        assert following["previous"] == match_id
        assert [s["name"] for s in following["seats"]] == ["Ann", "Bea", "Brigid"]
        assert [s["kind"] for s in following["seats"]] == ["person", "person", "bot"]
        assert following["options"]["turn_seconds"] == 600
        # Bea's page learns of it over the live connection of the finished match
        while True:
            message = bea_p.recv()
            if message["type"] in ("match", "snapshot") and message["match"]["next"]:
                break
        assert message["match"]["next"] == again["id"]
        twice = http.post(
            f"/api/matches/{match_id}/again", headers={"Authorization": f"Bearer {made['token']}"}
        )
        assert twice.status_code == 409
        assert twice.json()["error"]["code"] == "server.again_taken"
        second = http.post(
            f"/api/matches/{match_id}/again",
            headers={"Authorization": f"Bearer {bea['token']}", "Accept-Language": "de"},
        )
        assert second.status_code == 201, second.text
        assert (second.json()["id"], second.json()["seat"]) == (again["id"], 1)
        assert second.json()["match"]["status"] == "running"
        # the new tokens open the new seats, the old ones do not
        view = http.get(
            f"/api/matches/{again['id']}/view",
            headers={"Authorization": f"Bearer {second.json()['token']}"},
        )
        assert view.json()["seat"] == 1
        old = http.get(
            f"/api/matches/{again['id']}/view",
            headers={"Authorization": f"Bearer {bea['token']}"},
        )
        assert old.status_code == 403
    ann.close()
    bea_p.close()
