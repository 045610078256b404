"""Live play over the WebSocket against a real server: whole matches (people and bots),
several people at once, spectators, reconnection, hints, a bot standing in for an away
player, and bad input of every kind."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from keltis.match import Match
from keltis.record import GameRecord
from keltis.wire import validate

from .harness import Player, Server, create, join, play_together, player, start


def versions(p: Player) -> list[int]:
    return [m["version"] for m in p.steps()]


def record_of(server: Server, match_id: str) -> GameRecord:
    with server.http() as http:
        response = http.get(f"/api/matches/{match_id}/record")
    assert response.status_code == 200, response.text
    return GameRecord.from_json(response.json())


@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_whole_match_against_bots(server: Server, game: str) -> None:
    made = create(
        server,
        game=game,
        seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}, {"kind": "bot"}],
        seed=11,
    )
    with player(server, made["id"], made["token"]) as me:
        assert me.seat == 0
        me.play(random.Random(1))
        assert me.result is not None
        # every action reached the player exactly once, in order
        assert versions(me) == list(range(1, me.version + 1))
    record = record_of(server, made["id"])
    assert len(record.actions) == me.version
    assert record.result == me.result
    assert record.replay().outcome().to_json() == record.result
    assert [p.kind for p in record.players] == ["human", "easy", "medium"]


def test_two_people_and_a_spectator_see_every_move(server: Server) -> None:
    made = create(server, game="cards", seats=[{"kind": "person"}, {"kind": "person"}], name="Ann")
    match_id = made["id"]
    bea = join(server, match_id, made["invites"][0]["invite"], "Bea")
    start(server, match_id, made["host_token"])
    ann_p = Player(server, match_id, made["token"]).connect()
    bea_p = Player(server, match_id, bea["token"], lang="de").connect()
    watcher = Player(server, match_id).connect()
    assert (ann_p.seat, bea_p.seat, watcher.seat) == (0, 1, None)
    assert ann_p.view["hand"] != bea_p.view["hand"]
    assert watcher.view["hand"] is None
    play_together(ann_p, bea_p)
    while watcher.result is None:
        watcher.recv()
    for p in (ann_p, bea_p, watcher):
        assert versions(p) == list(range(1, ann_p.version + 1))
        p.close()
    assert ann_p.result == bea_p.result == watcher.result


def test_reconnecting_gets_a_snapshot_and_goes_on(server: Server) -> None:
    made = create(
        server, game="board", seats=[{"kind": "person"}, {"kind": "bot", "level": "random"}]
    )
    rng = random.Random(5)
    me = Player(server, made["id"], made["token"]).connect()
    me.play(rng, stop_at=20)
    seen = me.version
    me.close()  # the connection drops
    again = Player(server, made["id"], made["token"]).connect()
    snapshot = again.received[0]
    assert snapshot["type"] == "snapshot"
    assert snapshot["version"] >= seen
    assert snapshot["log"], "a snapshot carries the recent moves"
    assert snapshot["log"][-1]["ply"] == snapshot["version"]
    again.play(rng)
    assert again.result is not None
    again.close()
    assert len(record_of(server, made["id"]).actions) == again.version


def test_hints_when_the_match_allows_them(server: Server) -> None:
    made = create(server, game="cards", seats=[{"kind": "person"}, {"kind": "bot"}])
    with player(server, made["id"], made["token"]) as me:
        me.send({"type": "hint", "version": me.version, "ref": "h"})
        hints = me.expect("hints")
        legal = {a["notation"] for a in me.view["legal"]}
        assert hints["ref"] == "h"
        assert 1 <= len(hints["hints"]) <= 3
        assert {h["action"] for h in hints["hints"]} <= legal
        validate("live", hints)
    off = create(server, game="cards", seats=[{"kind": "person"}, {"kind": "bot"}], hints=False)
    with player(server, off["id"], off["token"], lang="pl") as me:
        me.send({"type": "hint", "version": me.version})
        refused = me.expect("error")
        assert refused["code"] == "server.no_hints"
        for message in me.received:
            validate("live", message)
        assert refused["message"] != "This match is played without hints."


def test_an_away_player_s_seat_goes_to_a_bot_and_back(server: Server) -> None:
    """The module's server counts a player away as soon as they are gone (--away-after 0)."""
    made = create(server, game="cards", seats=[{"kind": "person"}, {"kind": "person"}])
    match_id = made["id"]
    bea = join(server, match_id, made["invites"][0]["invite"], "Bea")
    start(server, match_id, made["host_token"])
    ann = Player(server, match_id, made["token"]).connect()
    bea_p = Player(server, match_id, bea["token"]).connect()
    # Bea is here: her seat cannot be handed away
    ann.send({"type": "stand_in", "seat": 1, "ref": 1})
    assert ann.expect("error")["code"] == "server.not_away_or_late"  # a clock runs too
    bea_p.close()
    while not (
        ann.recv()["type"] == "match" and not ann.received[-1]["match"]["seats"][1]["connected"]
    ):
        pass  # until the server has seen Bea go
    ann.send({"type": "stand_in", "seat": 1, "ref": 2})
    ann.expect("ack")  # after the new snapshot, which shows the bot standing in
    snapshot = next(m for m in reversed(ann.received) if m["type"] == "snapshot")
    assert snapshot["match"]["seats"][1]["stand_in"] == "medium"
    # Ann plays; the stand-in answers for Bea
    ann.play(random.Random(3), stop_at=ann.version + 12)
    assert {m["step"]["seat"] for m in ann.steps()} == {0, 1}
    # Bea comes back and takes her seat again
    back = Player(server, match_id, bea["token"]).connect()
    assert back.received[0]["match"]["seats"][1]["stand_in"] == "medium"
    back.send({"type": "reclaim", "ref": 3})
    back.expect("ack")
    snapshot = next(m for m in reversed(back.received) if m["type"] == "snapshot")
    assert snapshot["match"]["seats"][1]["stand_in"] is None
    play_together(ann, back)
    assert ann.result is not None
    assert back.result == ann.result
    ann.close()
    back.close()


def test_bad_input_gets_clear_errors_and_changes_nothing(servers: Callable[..., Server]) -> None:
    server = servers("--rate", "20")
    made = create(server, game="board", seats=[{"kind": "person"}, {"kind": "bot"}])
    match_id = made["id"]
    with player(server, match_id, made["token"], lang="de") as me:
        version = me.version

        def refused(message: Any) -> dict[str, Any]:
            me.send(message if isinstance(message, str) else json.dumps(message))
            answer = me.expect("error")
            validate("live", answer)
            assert answer["message"]
            assert answer["version"] == version
            return answer

        assert refused("{oops")["code"] == "server.bad_json"
        assert refused("[1, 2]")["code"] == "server.not_object"
        assert refused({"type": "dance"})["code"] == "server.unknown_type"
        no_version = refused({"type": "act", "action": "G1"})
        assert no_version["code"] == "server.bad_field"
        # all in the hello's language, what the field must hold too
        assert no_version["message"] == (
            "Das Feld „version“ fehlt oder ist falsch: die zuletzt gesehene Version."
        )
        assert refused({"type": "act", "version": version, "action": True})["code"] == (
            "server.bad_field"
        )
        assert refused({"type": "act", "version": version + 3, "action": "pass"})["code"] == (
            "refuse.stale_action"
        )
        illegal = refused({"type": "act", "version": version, "action": "draw"})
        assert illegal["code"].startswith("refuse.")
        # the rule that refused it, the anchor of its section on the rules page
        assert illegal["rule"].startswith("B-")
        assert illegal["message"].startswith(f"{illegal['rule']}: ")
        # and the reason as a field of its own, which no client has to cut out of the message
        assert illegal["reason"] == illegal["message"].removeprefix(f"{illegal['rule']}: ")
        assert not illegal["reason"].startswith("B-")
        unreadable = refused({"type": "act", "version": version, "action": "xyz"})
        assert unreadable["code"] == "refuse.not_a_move.board"  # this game's moves
        assert "rule" not in unreadable  # not a rule's refusal: the move could not be read
        assert refused({"type": "act", "version": version, "action": 99999})["code"] == (
            "refuse.no_action_index"
        )
        assert refused({"type": "hello", "token": None})["code"] == "server.bad_field"
        too_long = refused(json.dumps({"type": "ping", "pad": "x" * 9000}))
        assert too_long["code"] == "server.too_big"
        assert me.socket is not None
        me.socket.send(b"\xff\xfe")  # a binary frame, not UTF-8
        assert me.expect("error")["code"] == "server.bad_json"
        # a flood: refused beyond the burst (40), the connection stays open
        for _ in range(100):
            me.send({"type": "ping"})
        kinds = [me.recv()["type"] for _ in range(100)]
        assert "pong" in kinds
        assert "error" in kinds
        assert me.received[-1]["type"] in ("pong", "error")
    with player(server, match_id) as watcher:
        watcher.send({"type": "act", "version": version, "action": "pass"})
        assert watcher.expect("error")["code"] == "server.spectator"
    from websockets.sync.client import connect

    with connect(server.ws(match_id)) as socket:
        socket.send(json.dumps({"type": "act", "version": 0, "action": "pass"}))
        assert json.loads(socket.recv(timeout=30))["code"] == "server.hello_first"
        socket.send(json.dumps({"type": "hello", "token": "not-a-token"}))
        assert json.loads(socket.recv(timeout=30))["code"] == "server.bad_token"
    with connect(server.ws("no-such-match")) as socket:
        socket.send(json.dumps({"type": "hello"}))
        assert json.loads(socket.recv(timeout=30))["code"] == "server.no_match"
    # nothing was stored, and the server still serves the match
    with server.http() as http:
        assert http.get(f"/api/matches/{match_id}").json()["version"] == version
    with player(server, match_id, made["token"]) as me:
        me.play(random.Random(2), stop_at=version + 4)


def test_a_frame_over_the_limit_closes_only_that_connection(server: Server) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    made = create(server, game="cards", seats=[{"kind": "person"}, {"kind": "bot"}])
    with connect(server.ws(made["id"]), max_size=None) as socket:
        socket.send(json.dumps({"type": "hello", "pad": "x" * 70000}))
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=30)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1009
    with player(server, made["id"], made["token"]) as me:
        assert me.view["legal"]


def test_the_match_record_is_the_engine_s(server: Server) -> None:
    """Bots' decisions are reseeded from the record: the stored record replays to the same
    result through the match layer."""
    made = create(server, game="cards", seats=[{"kind": "person"}, {"kind": "bot"}], seed=3)
    with player(server, made["id"], made["token"]) as me:
        me.play(random.Random(9))
    record = record_of(server, made["id"])
    match = Match(record)
    assert match.over
    assert match.outcome().to_json() == me.result


def test_a_hard_bot_thinking_does_not_hold_up_other_matches(server: Server) -> None:
    """Bots think in worker processes: while hard bots search, another match's client is
    answered at once."""
    hard = {"kind": "bot", "level": "hard"}
    made = create(server, game="board", seats=[{"kind": "person"}, hard, hard, hard])
    other = create(server, game="cards", seats=[{"kind": "person"}, {"kind": "bot"}])
    with (
        player(server, made["id"], made["token"]) as me,
        player(server, other["id"], other["token"]) as bystander,
    ):
        start = me.version
        me.play(random.Random(4), stop_at=start + 1)  # our move: now the hard bot thinks
        while me.my_turn:  # a multi-step turn of ours: play it out
            me.play(random.Random(4), stop_at=me.version + 1)
        assert not me.my_turn
        answered = []
        assert me.socket is not None
        while True:
            began = time.perf_counter()
            bystander.send({"type": "ping"})
            bystander.expect("pong")
            answered.append(time.perf_counter() - began)
            try:
                me.recv(timeout=0.02)
            except TimeoutError:
                continue
            if me.my_turn or me.result is not None:
                break
        # three hard bots in a row (compiled, ~0.1-0.3 s a decision): pings every ~20 ms
        assert len(answered) >= 3, "the hard bots answered too soon to tell"
        assert max(answered) < 0.5, answered


def test_undo_against_bots_takes_back_to_the_player_s_last_decision(server: Server) -> None:
    made = create(
        server, game="cards", seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}], seed=6
    )
    match_id = made["id"]
    with player(server, match_id, made["token"]) as me:
        me.send({"type": "undo", "version": me.version, "ref": "u0"})
        assert me.expect("error")["code"] == "msg.undo_nothing"
        me.play(random.Random(1), stop_at=9)
        while not me.my_turn:
            me.recv()
        before = me.version
        mine = [m["version"] for m in me.steps() if m["step"]["seat"] == 0]
        me.send({"type": "undo", "version": before, "ref": "u1"})
        ack = me.expect("ack")
        assert ack["version"] == mine[-1] - 1  # before my last decision
        snapshot = next(m for m in reversed(me.received) if m["type"] == "snapshot")
        assert snapshot["version"] == ack["version"]
        assert snapshot["view"]["legal"], "my decision again"
        # the match goes on from there, and the bots decide as before (seeded per ply)
        me.play(random.Random(2))
        assert me.result is not None
    record = GameRecord.from_json(httpx_get_json(server, f"/api/matches/{match_id}/record"))
    assert len(record.actions) == me.version
    assert Match(record).outcome().to_json() == me.result


def test_undo_is_refused_among_people_and_where_switched_off(server: Server) -> None:
    made = create(server, game="cards", seats=[{"kind": "person"}, {"kind": "person"}])
    bea = join(server, made["id"], made["invites"][0]["invite"], "Bea")
    start(server, made["id"], made["host_token"])
    with player(server, made["id"], made["token"]) as me:
        me.play(random.Random(1), stop_at=1)
        me.send({"type": "undo", "version": me.version})
        assert me.expect("error")["code"] == "server.undo_people"
    assert bea["seat"] == 1
    off = create(server, game="cards", seats=[{"kind": "person"}, {"kind": "bot"}], undo=False)
    assert off["match"]["options"]["undo"] is False
    with player(server, off["id"], off["token"]) as me:
        me.play(random.Random(1), stop_at=1)
        me.send({"type": "undo", "version": me.version})
        assert me.expect("error")["code"] == "server.no_undo"


def httpx_get_json(server: Server, path: str) -> Any:
    with server.http() as http:
        response = http.get(path)
    assert response.status_code == 200, response.text
    return response.json()
