"""Time controls (docs/server.md, "Time controls") against real ``keltis serve`` processes,
on SQLite and PostgreSQL: a match's control and clock in its description, the bank paying
for a slow decision, a seat out of time handed to a bot for good (also when the deadline
passed while no server ran), and the bodies refused."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from keltis.server import db
from keltis.server.store import now

from .harness import WAIT, Server, create, player

PERSON = {"kind": "person"}
RANDOM_BOT = {"kind": "bot", "level": "random"}
#: How often a test asks for a match's description while it waits for a change.
POLL = 0.1


def describe(server: Server, match_id: str) -> dict[str, Any]:
    """``GET /api/matches/{id}``."""
    with server.http() as http:
        answer = http.get(f"/api/matches/{match_id}")
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def wait_for(
    server: Server,
    match_id: str,
    condition: Callable[[dict[str, Any]], bool],
    timeout: float = WAIT,
) -> dict[str, Any]:
    """The match's description once ``condition`` holds for it (asked every
    :data:`POLL` seconds, for at most ``timeout``)."""
    deadline = time.monotonic() + timeout
    while True:
        match = describe(server, match_id)
        if condition(match):
            return match
        assert time.monotonic() < deadline, f"still not so after {timeout} s: {match}"
        time.sleep(POLL)


def persons_turn(match: dict[str, Any]) -> bool:
    """Seat 0's player is to decide (its clock runs)."""
    return match["clock"] is not None and match["clock"]["seat"] == 0


@contextmanager
def database_engine(url: str) -> Iterator[Engine]:
    """An engine on the servers' database, for a test to change it behind their back."""
    engine = db.make_engine(url)
    try:
        yield engine
    finally:
        engine.dispose()


def stored(engine: Engine, match_id: str) -> Any:
    """The match's stored row."""
    with engine.connect() as connection:
        return connection.execute(sa.select(db.matches).where(db.matches.c.id == match_id)).one()


def aware(value: datetime) -> datetime:
    """A stored time, in UTC (SQLite gives it without its zone)."""
    return value if value.tzinfo is not None else value.replace(tzinfo=now().tzinfo)


def act_first_legal(server: Server, match_id: str, token: str) -> dict[str, Any]:
    """The seat of ``token`` plays its first legal action over HTTP; the answer."""
    auth = {"Authorization": f"Bearer {token}"}
    with server.http() as http:
        snapshot = http.get(f"/api/matches/{match_id}/view", headers=auth).json()
        answer = http.post(
            f"/api/matches/{match_id}/actions",
            headers=auth,
            json={"action": snapshot["view"]["legal"][0]["index"], "version": snapshot["version"]},
        )
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


# -- the control in the description, and the bodies refused -------------------------------


def test_a_time_control_is_described_with_its_clock_and_banks(server: Server) -> None:
    made = create(
        server, seats=[PERSON, RANDOM_BOT], time={"kind": "realtime", "decision": 30, "bank": 60}
    )
    options = made["match"]["options"]
    assert options["time"] == {
        "kind": "realtime",
        "decision": 30,
        "bank": 60,
        "on_timeout": "bot_plays_on",
    }
    assert options["turn_seconds"] is None
    seats = made["match"]["seats"]
    assert [(s["bank"], s["timed_out"]) for s in seats] == [(60, False), (None, False)]
    match = wait_for(server, made["id"], persons_turn)
    clock = match["clock"]
    assert (clock["seconds"], clock["bank"], clock["expired"]) == (30, 60, False)
    assert 80 < clock["remaining"] <= 90  # the decision's time and the bank together
    deadline = datetime.fromisoformat(clock["deadline"])
    assert timedelta(seconds=80) < deadline - now() <= timedelta(seconds=90)

    letters = create(server, seats=[PERSON, PERSON], time={"kind": "correspondence", "days": 2})
    time_control = letters["match"]["options"]["time"]
    assert time_control == {"kind": "correspondence", "days": 2, "on_timeout": "bot_plays_on"}
    assert [s["bank"] for s in letters["match"]["seats"]] == [None, None]
    assert letters["match"]["clock"] is None  # not started: a friend is still to join

    # without a time control nothing changes: the turn clock as before
    plain = create(server, seats=[PERSON, PERSON])
    assert plain["match"]["options"]["time"] is None
    assert plain["match"]["options"]["turn_seconds"] == 300


@pytest.mark.parametrize(
    "time_control",
    [
        {"kind": "realtime", "decision": 4},
        {"kind": "realtime", "decision": 601},
        {"kind": "realtime", "decision": 30, "bank": -1},
        {"kind": "realtime", "decision": 30, "bank": 3601},
        {"kind": "realtime", "decision": "30"},
        {"kind": "realtime", "decision": 30.5},
        {"kind": "realtime"},
        {"kind": "correspondence", "days": 0},
        {"kind": "correspondence", "days": 4},
        {"kind": "correspondence", "days": True},
        {"kind": "blitz", "decision": 30},
        {"decision": 30},
        "realtime",
        [],
    ],
)
def test_a_bad_time_control_is_refused(server: Server, time_control: Any) -> None:
    with server.http() as http:
        answer = http.post("/api/matches", json={"seats": [PERSON, PERSON], "time": time_control})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "server.bad_request"


def test_a_time_control_and_a_turn_clock_are_not_given_together(server: Server) -> None:
    with server.http() as http:
        answer = http.post(
            "/api/matches",
            json={
                "seats": [PERSON, PERSON],
                "time": {"kind": "correspondence", "days": 1},
                "turn_seconds": 60,
            },
        )
    assert answer.status_code == 400, answer.text
    assert "turn_seconds" in answer.json()["error"]["message"]


# -- the bank ----------------------------------------------------------------------------


def test_a_slow_decision_is_paid_from_the_bank(
    servers: Callable[..., Server], database: str
) -> None:
    server = servers()
    made = create(
        server, seats=[PERSON, RANDOM_BOT], time={"kind": "realtime", "decision": 5, "bank": 30}
    )
    match_id = made["id"]
    wait_for(server, match_id, persons_turn)
    with database_engine(database) as engine:
        # the decision began 12 s ago: 7 s beyond its time, which the bank pays
        began = aware(stored(engine, match_id).turn_since)
        with engine.begin() as connection:
            connection.execute(
                db.matches.update()
                .where(db.matches.c.id == match_id)
                .values(turn_since=began - timedelta(seconds=12))
            )
        act_first_legal(server, match_id, made["token"])
        row = stored(engine, match_id)
    match = describe(server, match_id)
    bank = match["seats"][0]["bank"]
    assert 22 <= bank <= 23.1
    assert match["seats"][1]["bank"] is None
    # the next decision (the same seat's, or after the bot's move) has the bank left
    match = wait_for(server, match_id, persons_turn)
    clock = match["clock"]
    assert clock["bank"] == match["seats"][0]["bank"] == bank
    assert clock["remaining"] <= 5 + bank
    # the stored deadline is the one clients are told
    with database_engine(database) as engine:
        row = stored(engine, match_id)
    assert aware(row.deadline) == datetime.fromisoformat(clock["deadline"])


# -- timeouts ----------------------------------------------------------------------------


def test_a_seat_out_of_time_goes_to_a_bot_for_good(servers: Callable[..., Server]) -> None:
    server = servers("--stand-in", "random")
    made = create(
        server, seats=[PERSON, RANDOM_BOT], time={"kind": "realtime", "decision": 5, "bank": 0}
    )
    match_id = made["id"]
    with player(server, match_id, made["token"]) as ann:
        due = wait_for(server, match_id, persons_turn)
        # Ann stays connected and does nothing: five seconds later her seat is the bot's
        late = wait_for(
            server,
            match_id,
            lambda m: m["seats"][0]["timed_out"],
            timeout=due["clock"]["remaining"] + WAIT,
        )
        assert late["seats"][0]["stand_in"] == "random"
        assert late["seats"][0]["bank"] == 0
        assert late["options"]["time"]["on_timeout"] == "bot_plays_on"
        # her client hears of it, and the bot plays on
        while True:
            snapshot = ann.expect("snapshot")
            if snapshot["match"]["seats"][0]["timed_out"]:
                break
        on = wait_for(server, match_id, lambda m: m["version"] > due["version"])
        assert on["clock"] is None  # bots on both seats: no clock runs any more
        # the seat is not hers to take back
        ann.send({"type": "reclaim", "ref": "back"})
        refused = ann.expect_error()
        assert (refused["code"], refused["ref"]) == ("server.timed_out", "back")
        assert "ran out" in refused["message"]


def test_a_correspondence_deadline_passed_while_no_server_ran(
    servers: Callable[..., Server], database: str
) -> None:
    server = servers("--stand-in", "random")
    made = create(server, seats=[PERSON, RANDOM_BOT], time={"kind": "correspondence", "days": 1})
    match_id = made["id"]
    due = wait_for(server, match_id, persons_turn)
    assert (due["clock"]["seconds"], due["clock"]["bank"]) == (86400, None)
    assert 86000 < due["clock"]["remaining"] <= 86400
    server.stop()
    # two days pass while the server is down
    with database_engine(database) as engine:
        row = stored(engine, match_id)
        assert aware(row.deadline) == datetime.fromisoformat(due["clock"]["deadline"])
        with engine.begin() as connection:
            connection.execute(
                db.matches.update()
                .where(db.matches.c.id == match_id)
                .values(
                    turn_since=aware(row.turn_since) - timedelta(days=2),
                    deadline=aware(row.deadline) - timedelta(days=2),
                )
            )
    again = servers("--stand-in", "random")
    late = wait_for(
        again,
        match_id,
        lambda m: m["seats"][0]["timed_out"] and m["version"] > due["version"],
    )
    assert late["seats"][0]["stand_in"] == "random"
    with database_engine(database) as engine:
        assert stored(engine, match_id).deadline is None


def test_two_processes_time_a_seat_out_once(servers: Callable[..., Server], database: str) -> None:
    first = servers("--stand-in", "random")
    second = servers("--stand-in", "random")
    made = create(
        first, seats=[PERSON, RANDOM_BOT], time={"kind": "realtime", "decision": 5, "bank": 0}
    )
    match_id = made["id"]
    due = wait_for(first, match_id, persons_turn)
    # both processes look for late decisions every second: one hands the seat over and its
    # bot plays on (asked of the database: on SQLite a process does not hear of the other's
    # changes); then both stop, and what they stored is whole
    with database_engine(database) as engine:
        limit = time.monotonic() + due["clock"]["remaining"] + WAIT
        while (row := stored(engine, match_id)).ply < due["version"] + 3:
            assert time.monotonic() < limit, "no bot played on"
            time.sleep(POLL)
        first.stop()
        second.stop()
        row = stored(engine, match_id)
        with engine.connect() as connection:
            seat = connection.execute(
                sa.select(db.seats).where(db.seats.c.match_id == match_id, db.seats.c.seat == 0)
            ).one()
            actions = connection.execute(
                sa.select(sa.func.count()).where(db.actions.c.match_id == match_id)
            ).scalar_one()
    assert (seat.timed_out, seat.stand_in) == (True, "random")
    assert actions == row.ply > 0
    assert row.deadline is None
    for server in (first, second):
        log = "".join(server.log)
        assert "Traceback" not in log, log
        assert "could not time out" not in log, log
