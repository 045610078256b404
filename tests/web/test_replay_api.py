"""Replays of finished matches, position by position, as a spectator sees them: each the
engine's own public view and step, valid wire documents, no hidden card anywhere."""

from __future__ import annotations

from typing import Any

import pytest

from keltis.record import GameRecord
from keltis.wire import validate
from server.harness import Server, create, engine_history
from support import assert_no_leak

from .helpers import wait_finished

BOTS = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "easy"}]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["board", "cards"])
def test_every_position_of_a_finished_match(plain_server: Server, game: str) -> None:
    made = create(plain_server, game=game, seats=[*BOTS, BOTS[0]], seat=None)
    match_id = made["id"]
    wait_finished(plain_server, match_id)
    with plain_server.http() as http:
        record = GameRecord.from_json(http.get(f"/api/matches/{match_id}/record").json())
        total = len(record.actions)
        # the engine's own positions and steps, replayed from the record
        states, steps = engine_history(record)
        assert total > 20
        for ply in [*range(total + 1), 0, total]:  # and again, from the cache
            answer = http.get(f"/api/matches/{match_id}/replay", params={"ply": ply})
            assert answer.status_code == 200, answer.text
            body: dict[str, Any] = answer.json()
            assert (body["version"], body["ply"], body["total"]) == (total, ply, total)
            view = body["view"]
            validate("view", view)
            assert view["ply"] == ply
            assert view["viewer"] is None
            assert view["hand"] is None
            assert view == states[ply].view(None).to_json()
            assert_no_leak(states[ply], None, view)
            if ply == 0:
                assert body["step"] is None
            else:
                validate("step", body["step"])
                step = steps[ply]
                assert step is not None
                assert body["step"] == step.to_json(None)
            assert body["match"]["id"] == match_id
            assert body["match"]["status"] == "finished"
            assert "host_token" not in body["match"]
        assert states[total].over
        # no ply: the start
        assert http.get(f"/api/matches/{match_id}/replay").json()["ply"] == 0


def test_a_position_out_of_range_or_a_running_match_is_refused(plain_server: Server) -> None:
    made = create(plain_server, game="cards", seats=BOTS, seat=None)
    finished = made["id"]
    total = wait_finished(plain_server, finished)["version"]
    running = create(plain_server, seats=[{"kind": "person"}, BOTS[0]])["id"]
    with plain_server.http() as http:
        for ply in (-1, total + 1, 10**6):
            answer = http.get(f"/api/matches/{finished}/replay", params={"ply": ply})
            assert answer.status_code == 400, ply
            error = answer.json()["error"]
            assert error["code"] == "server.no_ply"
            assert error["message"] == (
                f"There is no position {ply} in this match: its positions are 0 to {total}."
            )
        assert http.get(f"/api/matches/{finished}/replay", params={"ply": "x"}).status_code == 400
        early = http.get(f"/api/matches/{running}/replay", headers={"Accept-Language": "pl"})
        assert early.status_code == 409
        assert early.json()["error"]["code"] == "server.not_finished"
        nothing = http.get("/api/matches/no-such-match/replay")
        assert nothing.status_code == 404
        assert nothing.json()["error"]["code"] == "server.no_match"
