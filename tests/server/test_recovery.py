"""Storage that loses nothing: a server killed with SIGKILL in the middle of a match and
started again goes on with every acknowledged action, and its bots move again by themselves.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from keltis.match import Match
from keltis.record import GameRecord

from .harness import SEEDED, Player, Server, create


def stored_record(server: Server, match_id: str) -> GameRecord:
    with server.http() as http:
        response = http.get(f"/api/matches/{match_id}/record")
    assert response.status_code == 200, response.text
    return GameRecord.from_json(response.json())


def seen_actions(p: Player) -> dict[int, str]:
    """Every action the client was told of, by its number."""
    return {m["version"]: m["step"]["action"]["notation"] for m in p.steps()}


@pytest.mark.slow
def test_kill_9_mid_match_then_the_match_goes_on(servers: Callable[..., Server]) -> None:
    first = servers(*SEEDED)
    made = create(
        first,
        game="board",
        seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}, {"kind": "bot"}],
        seed=4,
    )
    match_id = made["id"]
    rng = random.Random(8)
    me = Player(first, match_id, made["token"]).connect()
    me.play(rng, stop_at=25)  # every action of ours acknowledged, every bot move told
    told = seen_actions(me)
    # one more action in flight, then SIGKILL: it may land or not, but nothing told is lost
    if me.my_turn:
        me.act(rng.choice(me.view["legal"])["index"])
    first.kill()
    me.close()

    second = servers()
    again = Player(second, match_id, made["token"]).connect()
    assert again.version >= max(told)
    again.play(rng)
    assert again.result is not None
    record = stored_record(second, match_id)
    for number, notation in told.items():
        assert record.actions[number - 1] == notation, number
    # the stored record is a whole game of the rules, and says who won
    assert Match(record).outcome().to_json() == record.result == again.result


@pytest.mark.slow
def test_a_bots_only_match_survives_repeated_kills(servers: Callable[..., Server]) -> None:
    """Kill the server whenever a spectator has seen a few more moves (bots play on without
    delay, so kills land at all points of the store-then-tell cycle); after each restart the
    sweep starts the bots again, and in the end the record holds every move anyone saw."""
    server = servers(*SEEDED)
    made = create(
        server,
        game="cards",
        seats=[{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "easy"}],
        seat=None,
        seed=12,
    )
    match_id = made["id"]
    told: dict[int, str] = {}
    for _ in range(4):
        watcher = Player(server, match_id).connect()
        target = watcher.version + 15
        while watcher.result is None and watcher.version < target:
            watcher.recv()
        told.update(seen_actions(watcher))
        finished = watcher.result is not None
        watcher.close()
        if finished:
            break
        server.kill()
        server = servers()
    watcher = Player(server, match_id).connect()
    while watcher.result is None:
        watcher.recv()
    told.update(seen_actions(watcher))
    watcher.close()
    record = stored_record(server, match_id)
    for number, notation in told.items():
        assert record.actions[number - 1] == notation, number
    assert Match(record).over
