"""Quick pairing (docs/server.md, "Quick pairing"): the pairing itself with its time driven
by a parameter (closest ratings first, the gap widening, blocks, bots after a chosen wait),
the pool's table on each database (stale entries, claims that race), and real ``keltis
serve`` processes on SQLite and PostgreSQL: 2 and 4 seats, many waiting at once, leaving,
blocks, bad input and limits, two processes pairing one pool, a restart with entries
waiting, and the lobby stream's ``pool`` event."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from keltis.server import db, ratings
from keltis.server.accounts import Account
from keltis.server.pool import (
    GAP_EVERY,
    GAP_START,
    GAP_STEP,
    Entry,
    JoinPool,
    PoolStore,
    Table,
    gap,
    pool_key,
    tables,
)
from keltis.server.store import ConflictError, Store

from .conftest import fresh_database
from .harness import WAIT, Player, Server
from .people import Member, my_seat, signup
from .test_seeks import QUICK_ACCOUNTS, LobbyStream, lobby, refused

Servers = Callable[..., Server]

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
DEFAULT_POOL = "board/2/rated/rt30+300"


def entry(
    name: str, rating: float, waited: float = 0.0, players: int = 2, bots_after: int | None = None
) -> Entry:
    """An entry of ``name`` that joined ``waited`` seconds before :data:`T0`."""
    joined = T0 - timedelta(seconds=waited)
    return Entry(
        account_id=name,
        name=name,
        entry_id=f"e-{name}",
        pool=f"board/{players}/rated/none",
        game="board",
        players=players,
        rated=True,
        time=None,
        rating=rating,
        bots_after=bots_after,
        status="waiting",
        match_id=None,
        joined_at=joined,
        seen_at=T0,
    )


def names(found: list[Table]) -> list[tuple[list[str], int]]:
    return [(sorted(e.name for e in t.people), t.bots) for t in found]


# -- the pairing, its time a parameter ----------------------------------------------------


def test_the_gap_widens_as_documented() -> None:
    assert gap(0) == GAP_START == 100
    assert gap(GAP_EVERY - 0.1) == 100
    assert gap(GAP_EVERY) == 100 + GAP_STEP == 150
    assert gap(60) == 400


def test_closest_ratings_are_paired_first() -> None:
    waiting = [entry("a", 1500), entry("b", 1560), entry("c", 1530), entry("d", 1590)]
    # a–c (30) and b–d (30), never a–b (60) and c–d (60)
    assert names(tables(waiting, T0, set())) == [(["a", "c"], 0), (["b", "d"], 0)]
    waiting = [entry("a", 1500), entry("b", 1590), entry("c", 1510)]
    assert names(tables(waiting, T0, set())) == [(["a", "c"], 0)]


def test_the_gap_widens_with_the_wait() -> None:
    # 230 apart: beyond ±100 at once, ±150 after 10 s, ±200 after 20 s; ±250 after 30 s
    a, b = entry("a", 1500), entry("b", 1730)
    assert tables([a, b], T0, set()) == []
    for seconds, paired in ((10, False), (20, False), (29.9, False), (30, True)):
        at = T0 + timedelta(seconds=seconds)
        assert bool(tables([a, b], at, set())) is paired, seconds
    # both must accept: one who has waited long still needs the other's gap to reach
    old, new = entry("old", 1500, waited=120), entry("new", 1730)
    assert tables([old, new], T0, set()) == []
    assert names(tables([old, new], T0 + timedelta(seconds=30), set())) == [(["new", "old"], 0)]


def test_a_tie_goes_to_who_waited_longest() -> None:
    waiting = [entry("a", 1500, waited=1), entry("b", 1520, waited=5), entry("c", 1540)]
    # a–b and b–c are both 20 apart: b–… with the longest wait (b and a) first
    assert names(tables(waiting, T0, set())) == [(["a", "b"], 0)]


def test_blocked_pairs_are_never_seated_together() -> None:
    waiting = [entry("a", 1500), entry("b", 1501), entry("c", 1550)]
    blocked = {frozenset(("a", "b"))}
    assert names(tables(waiting, T0, blocked)) == [(["b", "c"], 0)]
    # four seats: no table holds both
    four = [entry(n, 1500 + i, players=4) for i, n in enumerate("abcde")]
    found = tables(four, T0, {frozenset(("a", "b"))})
    assert len(found) == 1
    assert not {"a", "b"} <= {e.name for e in found[0].people}


def test_many_waiting_at_once() -> None:
    waiting = [entry(f"p{n}", 1500 + 7 * n) for n in range(9)]
    found = tables(waiting, T0, set())
    assert len(found) == 4
    seated = [e.name for t in found for e in t.people]
    assert len(set(seated)) == 8
    four = [entry(f"p{n}", 1500 + n, players=4) for n in range(9)]
    assert [len(t.people) for t in tables(four, T0, set())] == [4, 4]


def test_bots_only_for_those_who_allowed_them_after_their_wait() -> None:
    alone = entry("a", 1500, players=4, bots_after=30)
    assert tables([alone], T0 + timedelta(seconds=29), set()) == []
    assert names(tables([alone], T0 + timedelta(seconds=30), set())) == [(["a"], 3)]
    # b allowed no bots: never at a table with bots, however long a waits
    people_only = entry("b", 1510, players=4, waited=60)
    found = tables([alone, people_only], T0 + timedelta(seconds=60), set())
    assert names(found) == [(["a"], 3)]
    # two ready ones share their table
    c = entry("c", 1520, players=4, waited=40, bots_after=20)
    found = tables([alone, people_only, c], T0 + timedelta(seconds=30), set())
    assert names(found) == [(["a", "c"], 2)]


def test_the_defaults_and_bad_bodies() -> None:
    body = JoinPool.model_validate({})
    assert (body.game, body.players, body.rated, body.bots_after) == ("board", 2, True, None)
    assert body.time is not None
    assert body.time.model_dump() == {"kind": "realtime", "decision": 30, "bank": 300}
    key = pool_key(body.game, body.players, body.rated, body.time.model_dump())
    assert key == DEFAULT_POOL
    assert pool_key("cards", 3, False, None) == "cards/3/casual/none"


# -- the table on each database -----------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def pool_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[PoolStore]:
    for url in fresh_database(request.param, tmp_path):
        engine = db.make_engine(url)
        db.migrate(engine)
        try:
            yield PoolStore(Store(engine))
        finally:
            engine.dispose()


def account(store: PoolStore, name: str) -> Account:
    with store.engine.begin() as connection:
        connection.execute(
            db.accounts.insert().values(
                id=f"id-{name}",
                name=name,
                name_key=name,
                password_hash="x",
                language="en",
                created_at=T0,
            )
        )
    return Account(
        id=f"id-{name}",
        name=name,
        language="en",
        email=None,
        email_turns=False,
        created_at=T0,
        suspended=False,
    )


def test_stale_entries_are_dropped_and_joining_again_replaces(pool_store: PoolStore) -> None:
    ann, bea = account(pool_store, "ann"), account(pool_store, "bea")
    pool_store.join(ann, JoinPool.model_validate({}), 1500, T0)
    pool_store.join(bea, JoinPool.model_validate({"players": 3}), 1500, T0)
    first, _ = pool_store.waiting()
    old = next(e for e in first if e.name == "ann")
    pool_store.join(ann, JoinPool.model_validate({"game": "cards"}), 1500, T0)
    entries, _ = pool_store.waiting()
    assert sorted((e.name, e.game) for e in entries) == [("ann", "cards"), ("bea", "board")]
    mine = next(e for e in entries if e.name == "ann")
    assert mine.entry_id != old.entry_id
    # ann's client keeps asking, bea's went away
    later = T0 + timedelta(seconds=20)
    assert pool_store.seen(ann.id, later)[0] is not None
    assert pool_store.drop_stale(T0 + timedelta(seconds=10)) == 1
    assert [e.name for e in pool_store.waiting()[0]] == ["ann"]
    # a replaced entry is never claimed: its id is gone
    with pytest.raises(ConflictError), pool_store.engine.begin() as connection:
        pool_store.claim(connection, "m-old", [old])
    assert pool_store.leave(ann.id) is True
    assert pool_store.leave(ann.id) is False


def test_racing_claims_pair_each_entry_once(pool_store: PoolStore) -> None:
    people = [account(pool_store, n) for n in ("ann", "bea", "cid")]
    for p in people:
        pool_store.join(p, JoinPool.model_validate({}), 1500, T0)
    entries, _ = pool_store.waiting()
    by = {e.name: e for e in entries}
    tables_ = [[by["ann"], by["bea"]], [by["bea"], by["cid"]], [by["cid"], by["ann"]]]
    won: list[int] = []
    gate = threading.Barrier(3)

    def claim(n: int) -> None:
        gate.wait()
        try:
            with pool_store.engine.begin() as connection:
                pool_store.claim(connection, f"m{n}", tables_[n])
            won.append(n)
        except ConflictError:
            pass
        except sa.exc.OperationalError:  # a deadlock PostgreSQL broke: that claim lost
            pass

    threads = [threading.Thread(target=claim, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1, won  # any two tables share a player: one only
    with pool_store.engine.connect() as connection:
        rows = connection.execute(
            sa.select(db.pool_entries.c.account_id, db.pool_entries.c.match_id).where(
                db.pool_entries.c.status == "paired"
            )
        ).all()
    assert len(rows) == 2
    assert {r.match_id for r in rows} == {f"m{won[0]}"}


# -- real servers -------------------------------------------------------------------------


def join(member: Member, **body: Any) -> dict[str, Any]:
    answer = member.post("/api/pool", json=body)
    assert answer.status_code == 201, answer.text
    found: dict[str, Any] = answer.json()
    return found


def mine(member: Member) -> dict[str, Any] | None:
    answer = member.get("/api/pool")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] | None = answer.json()["entry"]
    return found


def waiting_counts(stream: LobbyStream, check: Callable[[list[dict[str, Any]]], bool]) -> None:
    """Read ``pool`` events until their counts satisfy ``check``."""
    while not check(stream.next("pool")["pools"]):
        pass


def started_tables(*servers: Server, count: int) -> None:
    """Wait until ``servers`` together logged ``count`` tables of the pool started."""
    deadline = time.monotonic() + WAIT

    def started() -> int:
        return sum(
            1 for s in servers for line in list(s.log) if "pool " in line and ": match " in line
        )

    for s in itertools.cycle(servers):
        if started() >= count:
            return
        assert time.monotonic() < deadline, f"{started()} tables started, not {count}"
        with s._logged:  # woken by the server's next line
            s._logged.wait(0.5)


def waiting_in(pools: list[dict[str, Any]], players: int = 2) -> int:
    return sum(p["waiting"] for p in pools if p["players"] == players)


def set_rating(server: Server, name: str, game: str, target: int) -> None:
    """Give ``name`` the shown rating ``target`` in ``game`` (its row in ``ratings``)."""
    sigma = ratings.START_SIGMA
    low, high = -200.0, 200.0
    for _ in range(80):  # shown() rises with mu: find the mu it shows as target
        mid = (low + high) / 2
        if ratings.shown(mid, sigma) < target:
            low = mid
        else:
            high = mid
    engine = db.make_engine(server.database)
    try:
        with engine.begin() as connection:
            account_id = connection.execute(
                sa.select(db.accounts.c.id).where(db.accounts.c.name == name)
            ).scalar_one()
            connection.execute(
                db.ratings.insert().values(
                    player=f"account:{account_id}",
                    game=game,
                    mu=high,
                    sigma=sigma,
                    games=20,
                    updated_at=datetime.now(UTC),
                )
            )
    finally:
        engine.dispose()
    assert ratings.shown(high, sigma) == target


def test_two_seats_paired_into_a_running_match(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    ann, bea = signup(server, "ann"), signup(server, "bea")
    with lobby(server) as stream:
        first = join(ann)
        assert first["status"] == "waiting"
        assert first["match"] is None
        assert (first["game"], first["players"], first["rated"]) == ("board", 2, True)
        assert first["time"] == {"kind": "realtime", "decision": 30, "bank": 300}
        waiting_counts(stream, lambda p: waiting_in(p) == 1)
        join(bea)
        waiting_counts(stream, lambda p: p == [])
    ann_entry, bea_entry = mine(ann), mine(bea)
    assert ann_entry is not None
    assert bea_entry is not None
    assert ann_entry["status"] == bea_entry["status"] == "paired"
    match_id = ann_entry["match"]
    assert match_id == bea_entry["match"]
    with server.http() as http:
        match = http.get(f"/api/matches/{match_id}").json()
    assert match["status"] == "running"
    assert match["rated"] is True
    assert match["options"]["time"]["decision"] == 30
    assert sorted(s["name"] for s in match["seats"]) == ["ann", "bea"]
    for member in (ann, bea):
        seat = my_seat(member, match_id)
        p = Player(server, match_id, seat["token"]).connect()
        assert match["seats"][p.seat]["name"] == member.name
        p.close()
    # leaving after being paired does nothing to the match
    assert ann.delete("/api/pool").status_code == 204
    assert mine(ann) is None
    with server.http() as http:
        assert http.get(f"/api/matches/{match_id}").json()["status"] == "running"
    refused(ann.delete("/api/pool"), 404, "pool.not_in")


def test_four_seats_and_many_waiting(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    four = [signup(server, f"four{n}") for n in range(4)]
    many = [signup(server, f"many{n}") for n in range(9)]
    with lobby(server) as stream:
        for n, member in enumerate(four):
            join(member, players=4, game="cards", rated=False, time=None)
            if n < 3:
                waiting_counts(stream, lambda p, n=n: waiting_in(p, 4) == n + 1)
        waiting_counts(stream, lambda p: waiting_in(p, 4) == 0)
        for member in many:
            join(member)
        started_tables(server, count=5)
    entries = {m.name: mine(m) for m in [*four, *many]}
    four_matches = {entries[m.name]["match"] for m in four}  # type: ignore[index]
    assert len(four_matches) == 1
    assert None not in four_matches
    with server.http() as http:
        match = http.get(f"/api/matches/{four_matches.pop()}").json()
    assert match["game"] == "cards"
    assert sorted(s["name"] for s in match["seats"]) == [m.name for m in four]
    paired = [entries[m.name] for m in many]
    assert sum(e is not None and e["status"] == "paired" for e in paired) == 8
    left = [m for m in many if entries[m.name]["status"] == "waiting"]  # type: ignore[index]
    assert len(left) == 1
    assert entries[left[0].name]["waiting"] == 1  # type: ignore[index]
    matches = [e["match"] for e in paired if e is not None and e["match"]]
    assert sorted(matches.count(m) for m in set(matches)) == [2, 2, 2, 2]


def test_closest_ratings_and_blocks_on_a_server(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    ann, bea, cid, dan, eve = (signup(server, n) for n in ("ann", "bea", "cid", "dan", "eve"))
    for name, rating in (("ann", 1500), ("bea", 1800), ("cid", 1540), ("dan", 1495)):
        set_rating(server, name, "board", rating)
    # dan blocked ann: dan (1495) is the closest to ann (1500), yet never paired with her
    assert dan.post("/api/me/blocks", json={"name": "ann"}).status_code == 204
    with lobby(server) as stream:
        join(ann)
        join(bea)  # 300 away: not paired with ann
        join(dan)  # blocked: not paired with ann; 305 from bea
        waiting_counts(stream, lambda p: waiting_in(p) == 3)
        join(cid)  # ann–cid (40) before cid–dan (45)
        waiting_counts(stream, lambda p: waiting_in(p) == 2)
    got = {m.name: mine(m) for m in (ann, bea, cid, dan)}
    assert got["ann"]["status"] == "paired"  # type: ignore[index]
    assert got["ann"]["match"] == got["cid"]["match"]  # type: ignore[index]
    assert got["bea"]["status"] == got["dan"]["status"] == "waiting"  # type: ignore[index]
    assert got["bea"]["gap"] == 100  # type: ignore[index]
    assert mine(eve) is None


def test_bad_input_limits_and_who_may(servers: Servers) -> None:
    server = servers("--signup-rate", "10000", "--login-rate", "10000", "--seek-rate", "10")
    ann = signup(server, "ann")
    with server.http() as http:
        refused(http.post("/api/pool", json={}), 401, "account.no_session")
        refused(http.get("/api/pool"), 401, "account.no_session")
        refused(http.delete("/api/pool"), 401, "account.no_session")
    # a state-changing request from another site is refused
    cross = ann.post("/api/pool", json={}, headers={"X-CSRF-Token": "wrong"})
    refused(cross, 403, "account.cross_site")
    for body in (
        {"players": 1},
        {"players": 5},
        {"players": "2"},
        {"game": "chess"},
        {"rated": "yes"},
        {"bots_after": 5},
        {"bots_after": 3601},
        {"time": {"kind": "realtime", "decision": 1}},
        {"time": {"kind": "blitz"}},
    ):
        answer = ann.post("/api/pool", json=body)
        assert answer.status_code == 400, (body, answer.text)
        assert answer.json()["error"]["message"]
    # joins are limited: 10 a minute, 5 at once
    codes = [ann.post("/api/pool", json={}).status_code for _ in range(8)]
    assert codes[:5] == [201] * 5, codes
    assert 429 in codes
    limited = ann.post("/api/pool", json={})
    refused(limited, 429, "pool.slow_down")
    assert int(limited.headers["Retry-After"]) >= 1
    # joining again replaced the entry: one entry, still waiting
    assert mine(ann) is not None


def test_two_processes_pair_one_pool(servers: Servers) -> None:
    """One database, two processes, each pairing every round: 12 accounts joining at once
    through both make 6 matches, no account in two; a change made through one process
    reaches the other's lobby streams."""
    a = servers(*QUICK_ACCOUNTS)
    b = servers(*QUICK_ACCOUNTS)
    people = [signup(a if n % 2 else b, f"pair{n}") for n in range(12)]
    gate = threading.Barrier(len(people))

    def go(member: Member) -> None:
        gate.wait()
        join(member)

    threads = [threading.Thread(target=go, args=(m,)) for m in people]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    started_tables(a, b, count=6)
    entries = [mine(m) for m in people]
    assert all(e is not None and e["status"] == "paired" for e in entries), entries
    matches = [e["match"] for e in entries if e is not None]
    assert sorted(matches.count(m) for m in set(matches)) == [2] * 6
    with a.http() as http:
        running = http.get("/api/matches", params={"status": "running"}).json()["matches"]
    assert len(running) == 6
    seated = [s["name"] for m in running for s in m["seats"]]
    assert sorted(seated) == sorted(m.name for m in people)
    # the counts reach the other process's streams: a join through A, seen on B's stream
    cid = signup(a, "cid")
    with lobby(b) as on_b:
        join(cid, players=4)
        waiting_counts(on_b, lambda p: waiting_in(p, 4) == 1)
        assert cid.delete("/api/pool").status_code == 204
        waiting_counts(on_b, lambda p: waiting_in(p, 4) == 0)


def test_a_restart_with_entries_waiting(servers: Servers) -> None:
    first = servers(*QUICK_ACCOUNTS)
    ann, bea = signup(first, "ann"), signup(first, "bea")
    join(ann, players=3)
    join(bea, players=3)
    first.kill()
    second = servers(*QUICK_ACCOUNTS, port=first.port)  # the clients' address stays
    with lobby(second) as stream:
        # the entries outlived the process: the new one counts them
        waiting_counts(stream, lambda p: waiting_in(p, 3) == 2)
        cid = signup(second, "cid")
        join(cid, players=3)
        waiting_counts(stream, lambda p: waiting_in(p, 3) == 0)
    got = [mine(m) for m in (ann, bea, cid)]
    assert {g["status"] for g in got if g} == {"paired"}
    assert len({g["match"] for g in got if g}) == 1


def test_the_pool_event_names_nobody(servers: Servers) -> None:
    """The shared stream says how many wait, never who or which match."""
    server = servers(*QUICK_ACCOUNTS)
    ann, bea = signup(server, "ann"), signup(server, "bea")
    with lobby(server) as stream:
        join(ann)
        join(bea)
        seen = []
        while True:
            pools = stream.next("pool")["pools"]
            seen.append(pools)
            if pools == [] and any(seen):  # someone waited, then nobody: paired
                break
    entry_ = mine(ann)
    assert entry_ is not None
    text = repr(seen)
    assert "ann" not in text
    assert "bea" not in text
    assert entry_["match"] not in text
    for pools in seen:
        for p in pools:
            assert set(p) == {"game", "players", "rated", "time", "waiting"}


def test_racing_joins_of_one_account_leave_one_entry(pool_store: PoolStore) -> None:
    """Two tabs of one account joining at once: each join answers, one entry stays (on
    PostgreSQL both inserts would meet the account's key without a second try)."""
    ann = account(pool_store, "ann")
    gate = threading.Barrier(8)
    failed: list[BaseException] = []

    def go(n: int) -> None:
        gate.wait()
        try:
            pool_store.join(ann, JoinPool.model_validate({"players": 2 + n % 3}), 1500, T0)
        except BaseException as error:  # the test reports any
            failed.append(error)

    threads = [threading.Thread(target=go, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failed == []
    assert [e.name for e in pool_store.waiting()[0]] == ["ann"]
