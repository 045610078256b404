"""Swiss tournaments (docs/server.md, "Tournaments"): the pairing and the standings as
units; then against real ``keltis serve`` processes, on SQLite and PostgreSQL: a small
tournament played through (random legal moves through the live API), a withdrawal during
it, a restart during a round, two processes not starting a round twice, and the refusals
(bad input, limits, who may do what)."""

from __future__ import annotations

import itertools
import json
import random
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from keltis.names import DELETED_NAME
from keltis.server import db
from keltis.server.db import make_engine, migrate
from keltis.server.tournaments import (
    Entrant,
    Table,
    TournamentStore,
    due_points,
    name_ok,
    pair,
    pair_key,
    standings,
    table_points,
    table_sizes,
)

from .harness import WAIT, Player, Server
from .people import PASSWORD, Member, my_seat, signup
from .test_admin import admin
from .test_seeks import lobby

QUICK_ACCOUNTS = ("--signup-rate", "10000", "--login-rate", "10000")
Servers = Callable[..., Server]


# -- units ----------------------------------------------------------------------------------


def entrants(count: int, points: dict[str, float] | None = None) -> list[Entrant]:
    points = points or {}
    return [Entrant(f"p{n}", points.get(f"p{n}", 0.0), 100.0 - n) for n in range(count)]


def test_two_player_pairing_meets_the_neighbour_by_score_then_rating() -> None:
    tables, bye = pair(entrants(4, {"p3": 1.0, "p2": 1.0}), 2, set(), set())
    assert bye is None
    # p2 and p3 lead on points (p2 rated higher), then p0 and p1
    assert tables == [["p2", "p3"], ["p0", "p1"]]


def test_no_repeat_pairing_while_one_can_be_avoided() -> None:
    met = {pair_key("p0", "p1"), pair_key("p2", "p3")}
    tables, _ = pair(entrants(4), 2, met, set())
    assert all(pair_key(*t) not in met for t in tables)
    assert tables == [["p0", "p2"], ["p1", "p3"]]


def test_a_repeat_when_nothing_else_is_left() -> None:
    # of 4 players who met everyone but one, only the repeats can pair the rest
    met = {pair_key(a, b) for a, b in itertools.combinations(["p0", "p1", "p2", "p3"], 2)}
    tables, _ = pair(entrants(4), 2, met, set())
    assert sorted(itertools.chain(*tables)) == ["p0", "p1", "p2", "p3"]


def test_the_search_goes_back_when_the_greedy_choice_strands_two() -> None:
    # p0-p1 free, but then p2-p3 met: p0-p2 and p1-p3 is the pairing without repeats
    met = {pair_key("p2", "p3")}
    tables, _ = pair(entrants(4), 2, met, set())
    assert all(pair_key(*t) not in met for t in tables)


def test_blocked_accounts_never_share_a_table_while_avoidable() -> None:
    blocked = {pair_key("p0", "p1")}
    tables, _ = pair(entrants(4), 2, set(), blocked)
    assert ["p0", "p1"] not in tables
    tables, _ = pair(entrants(2), 2, set(), blocked)
    assert tables == [["p0", "p1"]]  # the only pairing there is


def test_the_bye_goes_to_the_lowest_ranked_without_one() -> None:
    players = entrants(5)
    _, bye = pair(players, 2, set(), set())
    assert bye == "p4"
    had = [Entrant(e.id, e.points, e.rating, 1 if e.id == "p4" else 0) for e in players]
    _, bye = pair(had, 2, set(), set())
    assert bye == "p3"
    everyone = [Entrant(e.id, e.points, e.rating, 1) for e in players]
    _, bye = pair(everyone, 2, set(), set())
    assert bye == "p4"


def test_tables_of_three_and_four_are_cut_by_score() -> None:
    assert table_sizes(8, 4) == [4, 4]
    assert table_sizes(5, 4) == [3, 2]
    assert table_sizes(6, 4) == [3, 3]
    assert table_sizes(9, 4) == [3, 3, 3]
    assert table_sizes(7, 3) == [3, 2, 2]
    assert table_sizes(1, 3) == []
    points = {f"p{n}": float(n % 3) for n in range(8)}
    tables, bye = pair(entrants(8, points), 4, set(), set())
    assert bye is None
    ordered = sorted(points, key=lambda p: (-points[p], -(100 - int(p[1:]))))
    assert tables == [ordered[:4], ordered[4:]]


def test_a_table_of_four_avoids_who_met_before() -> None:
    met = {pair_key("p0", "p1")}
    tables, _ = pair(entrants(8), 4, met, set())
    assert tables[0] == ["p0", "p2", "p3", "p4"]
    assert all(pair_key(a, b) not in met for t in tables for a in t for b in t if a < b)


def test_points_by_place() -> None:
    assert table_points([1, 2]) == [1.0, 0.0]
    assert table_points([1, 1]) == [0.5, 0.5]
    assert table_points([2, 1, 4, 3]) == [
        pytest.approx(2 / 3, abs=1e-4),
        1.0,
        0.0,
        pytest.approx(1 / 3, abs=1e-4),
    ]
    assert table_points([1, 1, 3]) == [0.75, 0.75, 0.0]


def test_standings_break_ties_by_buchholz_then_berger() -> None:
    when = datetime.now(UTC)
    people = [
        ("a", "Ann", 10.0, False),
        ("b", "Bea", 0.0, False),
        ("c", "Cid", 0.0, False),
        ("d", "Dan", 5.0, False),
    ]
    tables = [
        Table(1, 1, ("a", "b"), "m1", {"a": 1.0, "b": 0.0}, when),
        Table(1, 2, ("c", "d"), "m2", {"c": 1.0, "d": 0.0}, when),
        Table(2, 1, ("a", "c"), "m3", {"a": 0.0, "c": 1.0}, when),
        Table(2, 2, ("b", "d"), "m4", {"b": 1.0, "d": 0.0}, when),
    ]
    rows = standings(people, tables)
    assert [r.name for r in rows] == ["Cid", "Ann", "Bea", "Dan"]
    # Ann and Bea both have 1 point: Ann met Bea (1) and Cid (2), Bea met Ann (1), Dan (0)
    assert rows[1].buchholz == 3.0
    assert rows[2].buchholz == 1.0
    assert rows[0].rounds[2] == {"table": 1, "match": "m3", "points": 1.0, "against": ["Ann"]}


def test_unfinished_tables_count_as_draws_once_the_round_is_over() -> None:
    when = datetime.now(UTC)
    tables = [
        Table(1, 1, ("a", "b"), "m1", None, when),
        Table(1, 2, ("c", "d"), "m2", None, when),
        Table(1, 3, ("e",), None, {"e": 1.0}, when),
    ]
    assert due_points(tables, {"m1": [2, 1]}, False) == {1: {"a": 0.0, "b": 1.0}}
    assert due_points(tables, {}, True) == {
        1: {"a": 0.5, "b": 0.5},
        2: {"c": 0.5, "d": 0.5},
    }


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("Friday Cup", True),
        ("Pohár Keltů #3", True),
        ("ab", False),
        (" Cup", False),
        ("Cup  2", False),
        ("Cup\u202e", False),
        ("x" * 49, False),
        ("<script>", False),
    ],
)
def test_tournament_names(name: str, ok: bool) -> None:
    assert name_ok(name) is ok


# -- against servers --------------------------------------------------------------------------


def soon(seconds: float = 3.0) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


def create(member: Member, **body: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "name": "Friday Cup",
        "game": "cards",
        "rounds": 2,
        "starts_at": soon(),
        **body,
    }
    answer = member.post("/api/tournaments", json=fields)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def join(member: Member, tournament_id: str) -> dict[str, Any]:
    answer = member.post(f"/api/tournaments/{tournament_id}/players")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def refused(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]["code"] == code


def until(
    server: Server, tournament_id: str, done: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT
    with server.http() as http:
        while True:
            got = http.get(f"/api/tournaments/{tournament_id}").json()
            if done(got):
                return dict(got)
            assert time.monotonic() < deadline, got
            time.sleep(0.2)


def round_ready(number: int) -> Callable[[dict[str, Any]], bool]:
    def ready(t: dict[str, Any]) -> bool:
        if t["round"] != number or t["status"] != "running":
            return False
        tables = t["rounds"][number - 1]["tables"]
        return all(table["bye"] or table["match"] for table in tables)

    return ready


def play_round(tournament: dict[str, Any], members: dict[str, Member], number: int) -> None:
    """Every table of round ``number`` played to its end by random legal moves (once its
    match runs: a match stored by a process killed before it started it is started by the
    next process after a while)."""
    threads, errors = [], []
    server = next(iter(members.values())).server
    deadline = time.monotonic() + WAIT
    with server.http() as http:
        for table in tournament["rounds"][number - 1]["tables"]:
            while table["match"] and http.get(f"/api/matches/{table['match']}").json()[
                "status"
            ] not in ("running", "finished"):
                assert time.monotonic() < deadline, table
                time.sleep(0.2)

    def play(member: Member, match_id: str, seed: int) -> None:
        try:
            mine = my_seat(member, match_id)
            p = Player(member.server, match_id, mine["token"]).connect()
            try:
                p.play(random.Random(seed))
            finally:
                p.close()
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    for table in tournament["rounds"][number - 1]["tables"]:
        if table["bye"]:
            continue
        for n, name in enumerate(table["players"]):
            threads.append(threading.Thread(target=play, args=(members[name], table["match"], n)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_a_small_tournament_is_played_through(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    members = {name: signup(server, name) for name in ("ann", "bea", "cid")}
    made = create(members["ann"], rated=True)
    assert made["status"] == "upcoming"
    for member in members.values():
        join(member, made["id"])
    first = until(server, made["id"], round_ready(1))
    tables = first["rounds"][0]["tables"]
    # three players: one table and a bye, which scores a win
    assert sorted(t["bye"] for t in tables) == [False, True]
    bye = next(t for t in tables if t["bye"])
    assert bye["points"] == [1.0]
    with server.http() as http:
        match = http.get(f"/api/matches/{next(t for t in tables if not t['bye'])['match']}").json()
    assert match["rated"] is True
    play_round(first, members, 1)
    second = until(server, made["id"], round_ready(2))
    tables2 = second["rounds"][1]["tables"]
    # the bye goes to another player, and nobody meets the same player twice
    bye2 = next(t for t in tables2 if t["bye"])
    assert bye2["players"] != bye["players"]
    met1 = {frozenset(t["players"]) for t in tables if not t["bye"]}
    met2 = {frozenset(t["players"]) for t in tables2 if not t["bye"]}
    assert not met1 & met2
    play_round(second, members, 2)
    final = until(server, made["id"], lambda t: t["status"] == "finished")
    assert final["round"] == 2
    rows = final["standings"]
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert sum(r["points"] for r in rows) == 4.0, json.dumps(final)  # two matches and two byes
    # the crosstable: every player's two rounds, each with its match (None: a bye)
    for row in rows:
        assert len(row["rounds"]) == 2
        for entry in row["rounds"]:
            assert entry is not None
            assert (entry["match"] is None) == (entry["against"] == [])
    assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)
    with server.http() as http:
        listed = http.get("/api/tournaments", params={"status": "finished"}).json()
    assert [t["id"] for t in listed["tournaments"]] == [made["id"]]


def test_withdrawing_before_and_during(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    members = {name: signup(server, name) for name in ("ann", "bea", "cid", "dan")}
    made = create(members["ann"], game="cards")
    for member in members.values():
        join(member, made["id"])
    out = members["dan"].delete(f"/api/tournaments/{made['id']}/players/me")
    assert out.status_code == 200, out.text
    assert out.json()["joined"] is False
    assert [p["name"] for p in out.json()["players"]] == ["ann", "bea", "cid"]
    refused(
        members["dan"].delete(f"/api/tournaments/{made['id']}/players/me"),
        409,
        "tournament.not_joined",
    )
    first = until(server, made["id"], round_ready(1))
    # cid withdraws during round 1: its match goes on, it is not paired again
    mine = next(t for t in first["rounds"][0]["tables"] if "cid" in t["players"])
    gone = members["cid"].delete(f"/api/tournaments/{made['id']}/players/me")
    assert gone.status_code == 200, gone.text
    assert gone.json()["withdrawn"] is True
    play_round(first, members, 1)
    second = until(server, made["id"], round_ready(2))
    seated = [p for t in second["rounds"][1]["tables"] for p in t["players"]]
    assert sorted(seated) == ["ann", "bea"]
    row = next(r for r in second["standings"] if r["name"] == "cid")
    assert row["withdrawn"] is True
    # its result of round 1 stays
    played = next(t for t in second["rounds"][0]["tables"] if "cid" in t["players"])
    assert played["match"] == mine["match"]
    assert played["points"] is not None
    assert row["rounds"][0]["points"] == played["points"][played["players"].index("cid")]
    assert row["rounds"][1] is None


def test_a_restart_during_a_round_goes_on(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    members = {name: signup(server, name) for name in ("ann", "bea")}
    made = create(members["ann"], rounds=2)
    for member in members.values():
        join(member, made["id"])
    first = until(server, made["id"], round_ready(1))
    server.kill()
    server = servers(*QUICK_ACCOUNTS, port=server.port)
    for member in members.values():
        member.server = server
    play_round(first, members, 1)
    second = until(server, made["id"], round_ready(2))
    assert len(second["rounds"]) == 2
    # between rounds too: a fresh process picks round 2 up
    server.kill()
    server = servers(*QUICK_ACCOUNTS, port=server.port)
    play_round(second, members, 2)
    final = until(server, made["id"], lambda t: t["status"] == "finished")
    assert sum(r["points"] for r in final["standings"]) == 2.0


def test_two_processes_start_each_round_once(servers: Servers) -> None:
    one = servers(*QUICK_ACCOUNTS)
    two = servers(*QUICK_ACCOUNTS)
    members = {name: signup(one, name) for name in ("ann", "bea", "cid", "dan")}
    made = create(members["ann"], rounds=1)
    for member in members.values():
        join(member, made["id"])
    seen = until(two, made["id"], round_ready(1))
    tables = seen["rounds"][0]["tables"]
    assert len(tables) == 2
    # each player at one table, each table one match, whichever process made it
    assert sorted(p for t in tables for p in t["players"]) == ["ann", "bea", "cid", "dan"]
    for member in members.values():
        mine = member.get("/api/me/matches").json()
        running = [
            m
            for status in ("waiting", "running", "open")
            for m in mine[status]
            if m["match"]["status"] != "finished"
        ]
        assert len(running) == 1, (member.name, mine)


def test_a_round_is_claimed_once(database: str) -> None:
    """Two claims of one round (two processes' ticks): the second finds it taken, and the
    tables are stored once."""
    engine = make_engine(database)
    migrate(engine)
    store = TournamentStore(engine)
    when = datetime.now(UTC)
    with engine.begin() as connection:
        for n in range(4):
            connection.execute(
                db.accounts.insert().values(
                    id=f"a{n}",
                    name=f"p{n}",
                    name_key=f"p{n}",
                    password_hash="x",
                    language="en",
                    created_at=when,
                )
            )
        connection.execute(
            db.tournaments.insert().values(
                id="t1",
                name="Cup",
                account_id="a0",
                game="board",
                players=2,
                rated=False,
                options={"time": None},
                rounds=3,
                round_minutes=60,
                max_players=8,
                starts_at=when,
                status="upcoming",
                round=0,
                created_at=when,
                updated_at=when,
            )
        )
        connection.execute(
            db.tournament_players.insert(),
            [
                {"tournament_id": "t1", "account_id": f"a{n}", "name": f"p{n}", "joined_at": when}
                for n in range(4)
            ],
        )
    results = []
    threads = [
        threading.Thread(target=lambda: results.append(store.start_round("t1", 1)))
        for _ in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False, True]
    assert store.start_round("t1", 1) is False
    full = store.get("t1")
    assert full is not None
    assert [t.round for t in full.tables] == [1, 1]
    assert full.row.status == "running"
    # the tables still to play are found by "points IS NULL", and scored once
    store.score("t1", 1, {1: {full.tables[0].seats[0]: 1.0, full.tables[0].seats[1]: 0.0}})
    store.score("t1", 1, {1: {full.tables[0].seats[0]: 0.0, full.tables[0].seats[1]: 1.0}})
    again = store.get("t1")
    assert again is not None
    assert again.tables[0].points == {full.tables[0].seats[0]: 1.0, full.tables[0].seats[1]: 0.0}
    assert again.tables[1].points is None
    engine.dispose()


def test_refusals(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    ann, bea = signup(server, "ann"), signup(server, "bea")
    with server.http() as guest:
        refused(
            guest.post("/api/tournaments", json={"name": "Cup", "rounds": 1, "starts_at": soon()}),
            401,
            "account.no_session",
        )
        refused(guest.get("/api/tournaments/nosuch"), 404, "tournament.no_tournament")
        refused(guest.get("/api/tournaments", params={"status": "soon"}), 400, "server.bad_request")
    base = {"name": "Cup", "rounds": 1, "starts_at": soon(60)}
    for bad in (
        {"rounds": 0},
        {"rounds": 16},
        {"players": 5},
        {"max_players": 1},
        {"round_minutes": 5},
        {"starts_at": "tomorrow"},
    ):
        answer = ann.post("/api/tournaments", json={**base, **bad})
        assert answer.status_code == 400, (bad, answer.text)
    refused(ann.post("/api/tournaments", json={**base, "name": "<b>"}), 400, "tournament.bad_name")
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    refused(
        ann.post("/api/tournaments", json={**base, "starts_at": past}), 400, "tournament.bad_start"
    )
    far = (datetime.now(UTC) + timedelta(days=31)).isoformat()
    refused(
        ann.post("/api/tournaments", json={**base, "starts_at": far}), 400, "tournament.bad_start"
    )
    made = create(ann, starts_at=soon(600), max_players=2)
    create(ann, starts_at=soon(600))
    refused(ann.post("/api/tournaments", json=base), 409, "tournament.too_many")
    # who may do what: the cross-site check, a second join, a full tournament
    with server.http() as other:
        other.cookies = bea.cookies
        refused(other.post(f"/api/tournaments/{made['id']}/players"), 403, "account.cross_site")
    join(bea, made["id"])
    refused(bea.post(f"/api/tournaments/{made['id']}/players"), 409, "tournament.joined")
    join(ann, made["id"])
    cid = signup(server, "cid")
    refused(cid.post(f"/api/tournaments/{made['id']}/players"), 409, "tournament.full")
    refused(cid.post("/api/tournaments/nosuch/players"), 404, "tournament.no_tournament")
    # joining and withdrawing has a rate
    codes = []
    for _ in range(8):
        codes.append(cid.post(f"/api/tournaments/{made['id']}/players").status_code)
    assert 429 in codes
    listed = bea.get("/api/tournaments").json()
    assert listed["total"] == 2
    assert {t["entrants"] for t in listed["tournaments"]} == {0, 2}


def test_the_lobby_streams_of_every_process_hear_of_tournaments(servers: Servers) -> None:
    """A tournament created and joined through one process: the lobby stream of another
    process (on the same database) gets ``tournaments`` and then ``tournament`` with its
    id and status, and again when its round starts."""
    one = servers(*QUICK_ACCOUNTS)
    two = servers(*QUICK_ACCOUNTS)
    ann, bea = signup(one, "ann"), signup(one, "bea")
    with lobby(two) as stream:
        stream.next("seeks")
        made = create(ann, starts_at=soon(8), rounds=1)
        assert stream.next("tournaments") == {}
        join(ann, made["id"])
        join(bea, made["id"])
        told = stream.next("tournament")
        assert told["id"] == made["id"]
        assert told["status"] == "upcoming"
        while told["status"] != "running":
            told = stream.next("tournament")
        assert told == {"id": made["id"], "status": "running", "round": 1}


def test_a_deleted_account_leaves_its_results_under_the_deleted_name(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    members = {name: signup(server, name) for name in ("ann", "bea", "cid")}
    made = create(members["ann"], rounds=2)
    for member in members.values():
        join(member, made["id"])
    first = until(server, made["id"], round_ready(1))
    play_round(first, members, 1)
    until(server, made["id"], round_ready(2))
    # ann, the creator, deletes her account during round 2
    gone = members["ann"].request("DELETE", "/api/me", json={"password": PASSWORD})
    assert gone.status_code == 204, gone.text
    with server.http() as http:
        seen = http.get(f"/api/tournaments/{made['id']}").json()
    assert seen["by"] == DELETED_NAME
    assert "ann" not in [p["name"] for p in seen["players"]]
    row = next(r for r in seen["standings"] if r["name"] == DELETED_NAME)
    assert row["withdrawn"] is True
    assert row["rounds"][0] is not None  # her round 1 stays


def test_a_suspended_account_is_not_paired(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    members = {name: signup(server, name) for name in ("ann", "bea", "cid")}
    made = create(members["ann"], rounds=1, starts_at=soon(15))
    for member in members.values():
        join(member, made["id"])
    suspended = admin(server.database, "suspend", "cid", "--reason", "cheating")
    assert suspended.returncode == 0, suspended.stdout + suspended.stderr
    assert until(server, made["id"], lambda t: True)["status"] == "upcoming"  # suspended in time
    first = until(server, made["id"], round_ready(1))
    tables = first["rounds"][0]["tables"]
    assert [t["players"] for t in tables] in (
        [["ann", "bea"]],
        [["bea", "ann"]],
    )


def test_a_table_of_four_scores_by_place(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    members = {name: signup(server, name) for name in ("ann", "bea", "cid", "dan", "eve")}
    made = create(members["ann"], rounds=1, players=4)
    for member in members.values():
        join(member, made["id"])
    first = until(server, made["id"], round_ready(1))
    tables = first["rounds"][0]["tables"]
    # five players at tables of four: 3 + 2, nobody out
    assert sorted(len(t["players"]) for t in tables) == [2, 3]
    assert not any(t["bye"] for t in tables)
    with server.http() as http:
        for table in tables:
            match = http.get(f"/api/matches/{table['match']}").json()
            assert len(match["seats"]) == len(table["players"])
    play_round(first, members, 1)
    final = until(server, made["id"], lambda t: t["status"] == "finished")
    for table in final["rounds"][0]["tables"]:
        # points by place: they add up to half the players at the table
        assert sum(table["points"]) == pytest.approx(len(table["players"]) / 2, abs=1e-3)


def test_a_round_past_its_time_limit_scores_its_unfinished_matches_as_draws(
    servers: Servers,
) -> None:
    server = servers(*QUICK_ACCOUNTS)
    members = {name: signup(server, name) for name in ("ann", "bea")}
    made = create(members["ann"], rounds=2)
    for member in members.values():
        join(member, made["id"])
    first = until(server, made["id"], round_ready(1))
    match_id = first["rounds"][0]["tables"][0]["match"]
    # nobody plays: the round's time limit is moved into the past (as if an hour went by)
    engine = make_engine(server.database)
    with engine.begin() as connection:
        connection.execute(
            db.tournaments.update()
            .where(db.tournaments.c.id == made["id"])
            .values(round_ends_at=datetime.now(UTC) - timedelta(minutes=1))
        )
    engine.dispose()
    second = until(server, made["id"], round_ready(2))
    table = second["rounds"][0]["tables"][0]
    assert table["points"] == [0.5, 0.5]
    # the match itself plays on
    with server.http() as http:
        assert http.get(f"/api/matches/{match_id}").json()["status"] == "running"
