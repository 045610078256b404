"""A finished match's replay as one seat saw it (``GET /api/matches/{id}/replay?seat=S``):
the seat's own view at each position, only once the match is over; a seat or a position that
is not in the match refused in the player's language."""

from __future__ import annotations

import time
from typing import Any

import httpx

from keltis.record import GameRecord
from keltis.wire import validate

from .harness import WAIT, Server, create, engine_history

BOT = {"kind": "bot", "level": "random"}
PERSON = {"kind": "person"}


def finished(server: Server, cap: int) -> dict[str, Any]:
    """A match of two random bots played to its end (``cap`` turns at most)."""
    made = create(server, game="cards", seats=[BOT, BOT], seat=None, variant={"turn_cap": cap})
    deadline = time.monotonic() + WAIT
    with server.http() as http:
        while http.get(f"/api/matches/{made['id']}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the match did not finish"
            time.sleep(0.05)
    return made


def error(answer: httpx.Response, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()["error"]
    assert body["code"] == code, body
    return str(body["message"])


def test_the_replay_shows_a_seat_s_own_view_once_the_match_is_over(server: Server) -> None:
    match_id = finished(server, 12)["id"]
    running = create(server, seats=[PERSON, BOT])
    with server.http() as http:
        record = GameRecord.from_json(http.get(f"/api/matches/{match_id}/record").json())
        states, steps = engine_history(record)
        total = len(record.actions)
        for seat in (0, 1):
            for ply in (0, 1, total // 2, total):
                answer = http.get(
                    f"/api/matches/{match_id}/replay", params={"ply": ply, "seat": seat}
                )
                assert answer.status_code == 200, answer.text
                body = answer.json()
                assert (body["ply"], body["total"], body["seat"]) == (ply, total, seat)
                validate("view", body["view"])
                assert body["view"] == states[ply].view(seat).to_json()
                assert body["view"]["hand"] is not None  # its own hand
                step = steps[ply]
                assert body["step"] == (None if step is None else step.to_json(seat))
        spectator = http.get(f"/api/matches/{match_id}/replay", params={"ply": 3}).json()
        assert spectator["seat"] is None
        assert spectator["view"]["hand"] is None
        # a seat that is not in the match, a position that is not in it: in German
        for seat in (2, -1):
            message = error(
                http.get(
                    f"/api/matches/{match_id}/replay",
                    params={"ply": 1, "seat": seat},
                    headers={"Accept-Language": "de"},
                ),
                400,
                "server.no_seat",
            )
            assert message == f"In dieser Partie gibt es keinen Platz {seat}."
        message = error(
            http.get(
                f"/api/matches/{match_id}/replay",
                params={"ply": total + 1, "seat": 0},
                headers={"Accept-Language": "de"},
            ),
            400,
            "server.no_ply",
        )
        assert f"keine Stellung {total + 1}" in message
        assert f"0 bis {total}" in message
        error(
            http.get(f"/api/matches/{match_id}/replay", params={"seat": "x"}),
            400,
            "server.bad_request",
        )
        # before the end nobody sees a seat's hand through the replay, its own seat neither
        for seat in (0, 1):
            error(
                http.get(
                    f"/api/matches/{running['id']}/replay",
                    params={"ply": 0, "seat": seat},
                    headers={"Authorization": f"Bearer {running['token']}"},
                ),
                409,
                "server.not_finished",
            )
