"""Explicit set-ups (the deal chosen by hand) in new matches: only on a server started with
``--allow-setup`` (tests and demos), checked like a record's set-up."""

from __future__ import annotations

import copy
from typing import Any

from server.harness import Server, create

from .helpers import wait_finished

#: A board game for two with four cards left to draw: it ends after a few turns.
SHORT_BOARD = {
    "hands": [
        ["G0", "G1", "G2", "Y3", "Y4", "R5", "P6", "B7"],
        ["G10", "G9", "Y8", "Y7", "R6", "R5", "B4", "B3"],
    ],
    "deck": ["P1", "P2", "P3", "P4"],
}
BOTS = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "random"}]


def post(server: Server, lang: str = "en", **body: Any) -> Any:
    with server.http() as http:
        return http.post("/api/matches", json=body, headers={"Accept-Language": lang})


def test_a_set_up_needs_allow_setup(plain_server: Server) -> None:
    answer = post(plain_server, "de", seats=BOTS, seat=None, setup=SHORT_BOARD)
    assert answer.status_code == 403
    error = answer.json()["error"]
    assert error["code"] == "server.no_setup"
    assert error["message"].startswith("Dieser Server nimmt keine von Hand gewählte Aufstellung")
    english = post(plain_server, seats=BOTS, seat=None, setup={"explicit": SHORT_BOARD})
    assert "--allow-setup" in english.json()["error"]["message"]


def test_a_board_game_with_four_cards_to_draw_ends_after_a_few_turns(web_server: Server) -> None:
    made = create(web_server, game="board", seats=BOTS, seat=None, setup=SHORT_BOARD)
    summary = wait_finished(web_server, made["id"], timeout=60)
    assert summary["result"]["end_reason"] == "deck"
    with web_server.http() as http:
        record = http.get(f"/api/matches/{made['id']}/record").json()
    assert record["setup"] == {"explicit": SHORT_BOARD}
    assert len(record["actions"]) < 30
    hands = [a for a in record["actions"] if not a.startswith(("draw", ">", "big", "pass"))]
    assert hands  # cards were laid or discarded


def test_a_player_sees_the_hand_the_set_up_gave(web_server: Server) -> None:
    wrapped = {"explicit": SHORT_BOARD}  # as a record writes it: accepted too
    made = create(web_server, seats=[{"kind": "person"}, BOTS[0]], name="Ann", setup=wrapped)
    with web_server.http() as http:
        seen = http.get(
            f"/api/matches/{made['id']}/view",
            headers={"Authorization": f"Bearer {made['token']}"},
        ).json()
    assert sorted(seen["view"]["hand"]) == sorted(SHORT_BOARD["hands"][0])
    assert seen["view"]["deck_size"] == 4


def test_a_bad_set_up_is_refused_with_its_reason(web_server: Server) -> None:
    doubled = copy.deepcopy(SHORT_BOARD)
    doubled["hands"][1] = ["G1"] * 8
    answer = post(web_server, seats=BOTS, seat=None, setup=doubled)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "server.bad_request"
    assert "B-1" in error["message"]
    assert "G1" in error["message"]
    both = post(web_server, seats=BOTS, seat=None, setup=SHORT_BOARD, seed=4)
    assert both.status_code == 400
    assert "not both" in both.json()["error"]["message"]
    three = post(web_server, seats=[*BOTS, BOTS[0]], seat=None, setup=SHORT_BOARD)
    assert three.status_code == 400
    cards = post(web_server, game="cards", seats=BOTS, seat=None, setup={"hands": "G1"})
    assert cards.status_code == 400
