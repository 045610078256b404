"""Hidden cards never reach the wrong client: every message a seat (or a spectator) received
during a whole match is compared with the engine's own view for that receiver at that
moment, and searched for the other hands, the draw pile and the removed cards."""

from __future__ import annotations

from typing import Any

import pytest

from keltis.record import GameRecord
from keltis.wire import validate
from support import assert_no_leak, nested_lists

from .harness import Player, Server, create, engine_history, join, play_together, start


def hidden_lists(state: Any, viewer: int | None) -> list[list[str]]:
    from keltis.core.card_codes import CARD_TEXT

    secrets = []
    for seat, hand in enumerate(state.hands):
        if seat != viewer:
            secrets.append([CARD_TEXT[c] for c in hand])
    if state.deck:
        secrets.append([CARD_TEXT[c] for c in state.deck])
    return [s for s in secrets if len(s) > 1]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["board", "cards"])
def test_every_message_shows_only_what_its_receiver_may_see(server: Server, game: str) -> None:
    made = create(
        server,
        game=game,
        seats=[{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}],
        seed=21,
    )
    match_id = made["id"]
    bea = join(server, match_id, made["invites"][0]["invite"], "Bea")
    start(server, match_id, made["host_token"])
    players = [
        Player(server, match_id, made["token"]).connect(),
        Player(server, match_id, bea["token"]).connect(),
    ]
    watcher = Player(server, match_id).connect()
    play_together(*players)
    while watcher.result is None:
        watcher.recv()
    for p in [*players, watcher]:
        p.close()
    with server.http() as http:
        record = GameRecord.from_json(http.get(f"/api/matches/{match_id}/record").json())

    # the engine's own positions and steps, replayed from the stored record
    states, steps = engine_history(record)

    checked = 0
    for p in [*players, watcher]:
        seat = p.seat
        for message in p.received:
            validate("live", message)
            state = states[message.get("version", 0)]
            for found in nested_lists(message):
                assert found not in hidden_lists(state, seat), (seat, message)
            if message["type"] in ("snapshot", "step"):
                assert message["view"] == state.view(seat).to_json()
                assert_no_leak(state, seat, message["view"])
            if message["type"] == "step":
                step = steps[message["version"]]
                assert step is not None
                assert message["step"] == step.to_json(seat)
                checked += 1
    assert checked == 3 * len(record.actions)  # three clients, told every action once
