"""Two server processes on one PostgreSQL: a match played across both (each client told of
every move, whatever process it is on), and races where both processes take an action for
the same ply and exactly one lands."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from keltis.record import GameRecord

from .harness import Player, Server, create, join, play_together, start

# Every test here needs PostgreSQL (two processes on one database); SQLite is not tried.
pytestmark = pytest.mark.postgres


def test_a_match_across_two_processes(two_servers: tuple[Server, Server]) -> None:
    a, b = two_servers
    made = create(a, game="board", seats=[{"kind": "person"}, {"kind": "person"}], seed=2)
    match_id = made["id"]
    bea = join(b, match_id, made["invites"][0]["invite"], "Bea")  # joins through B
    start(a, match_id, made["host_token"])
    ann_p = Player(a, match_id, made["token"]).connect()
    bea_p = Player(b, match_id, bea["token"]).connect()
    watchers = [Player(a, match_id).connect(), Player(b, match_id).connect()]
    play_together(ann_p, bea_p)
    for w in watchers:
        while w.result is None:
            w.recv()
    total = ann_p.version
    for p in [ann_p, bea_p, *watchers]:
        assert [m["version"] for m in p.steps()] == list(range(1, total + 1))
        p.close()
    with b.http() as http:
        record = GameRecord.from_json(http.get(f"/api/matches/{match_id}/record").json())
    assert len(record.actions) == total
    assert record.replay().outcome().to_json() == ann_p.result


def fire(
    gate: threading.Barrier,
    p: Player,
    version: int,
    action: int,
    ref: str,
    answers: list[dict[str, Any]],
    n: int,
) -> None:
    """Send an action when the other thread is ready too; keep the answer to it."""
    gate.wait()
    p.send({"type": "act", "version": version, "action": action, "ref": ref})
    while True:
        m = p.recv()
        if m.get("ref") == ref and m["type"] in ("ack", "error"):
            answers[n] = m
            return


def test_racing_actions_on_two_processes_exactly_one_lands(
    two_servers: tuple[Server, Server],
) -> None:
    a, b = two_servers
    made = create(
        a, game="cards", seats=[{"kind": "person"}, {"kind": "bot", "level": "random"}], seed=5
    )
    match_id = made["id"]
    on_a = Player(a, match_id, made["token"]).connect()
    on_b = Player(b, match_id, made["token"]).connect()  # the same seat, on the other process
    races = 0
    while races < 12 and on_a.result is None:
        for p in (on_a, on_b):  # both connections see the same position, our turn
            while not (p.my_turn and p.version == max(on_a.version, on_b.version)):
                p.recv()
        if on_a.version != on_b.version:
            continue
        legal = on_a.view["legal"]
        version = on_a.version
        picks = [legal[0]["index"], legal[-1]["index"]]
        gate = threading.Barrier(2)
        answers: list[dict[str, Any]] = [{}, {}]
        threads = [
            threading.Thread(
                target=fire, args=(gate, p, version, picks[n], f"r{races}", answers, n)
            )
            for n, p in enumerate([on_a, on_b])
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        kinds = sorted(m["type"] for m in answers)
        assert kinds == ["ack", "error"], answers
        refused = next(m for m in answers if m["type"] == "error")
        # the loser of the race is told the game moved on, not that it is not its turn
        assert refused["code"] == "refuse.stale_action", refused
        races += 1
    # the bot answers the last race's move: wait until both connections see the position
    # where it stops (the seat's decision again, or the end), each through its own process
    for p in (on_a, on_b):
        while not (p.my_turn or p.result is not None) or p.version < max(
            on_a.version, on_b.version
        ):
            p.recv()
    on_a.close()
    on_b.close()
    assert on_a.version == on_b.version
    # one stored action per ply: the match's count is what both processes agree on
    assert on_a.version >= 2 * races
    for server in (a, b):
        with server.http() as http:
            assert http.get(f"/api/matches/{match_id}").json()["version"] == on_a.version


def test_taking_back_on_one_process_reaches_the_other(
    two_servers: tuple[Server, Server],
) -> None:
    a, b = two_servers
    made = create(
        a, game="cards", seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}], seed=8
    )
    me = Player(a, made["id"], made["token"]).connect()
    watcher = Player(b, made["id"]).connect()
    me.play(random.Random(3), stop_at=7)
    while not me.my_turn:
        me.recv()
    me.send({"type": "undo", "version": me.version, "ref": "u"})
    back_to = me.expect("ack")["version"]
    # both go on from there: the watcher on B follows, whatever it had seen of the moves
    # taken back (a snapshot after going back, or nothing if it had not seen them yet)
    me.play(random.Random(4), stop_at=back_to + 4)
    while watcher.version < me.version:
        watcher.recv()
    assert watcher.version == me.version
    for server in (a, b):
        fresh = Player(server, made["id"]).connect()
        assert watcher.view == fresh.view
        fresh.close()
    me.close()
    watcher.close()
