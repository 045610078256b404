"""Reviews of finished matches on the server (docs/server.md, "Reviews"), against real
``keltis serve`` processes on SQLite and PostgreSQL: asked for, computed step by step in the
bot workers and polled until done — the same review as :func:`keltis.review.review` of the
record, valid against its schema; refused for a match not over, for strangers of a private
match and for floods; resumed after a restart and after a killed process, computed by one
process of several; bots keep moving meanwhile."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from keltis.record import GameRecord
from keltis.review import ReviewBudget, review
from keltis.server import db
from keltis.server.reviews import ReviewStore
from keltis.server.store import now
from keltis.wire import validate

from .harness import FAST_CLIENTS, WAIT, Server, create, player
from .people import signup

#: The tiny budget the tests review with (a review of a short match in a second or two).
TINY = "iterations=16,width=2,luck_playouts=2"
BOT = {"kind": "bot", "level": "random"}
PERSON = {"kind": "person"}


@pytest.fixture(scope="module")
def reviewing(shared_database: str) -> Iterator[Server]:
    """A server on the module's database reviewing with :data:`TINY`, its review rate out
    of the way (the limits have a test of their own)."""
    running = Server(
        shared_database, *FAST_CLIENTS, "--review-budget", TINY, "--review-rate", "1000"
    ).start()
    try:
        yield running
    finally:
        running.stop()


def finished(
    server: Server, game: str = "cards", cap: int = 8, public: bool = True
) -> dict[str, Any]:
    """A match of two random bots, played to its end (``cap`` turns at most: a short
    review); the creation's answer (its id, the host's token)."""
    made = create(
        server,
        game=game,
        seats=[BOT, BOT],
        seat=None,
        public=public,
        variant={"turn_cap": cap},
    )
    wait_over(server, made["id"])
    return made


def wait_over(server: Server, match_id: str) -> None:
    deadline = time.monotonic() + WAIT
    with server.http() as http:
        while http.get(f"/api/matches/{match_id}").json()["status"] != "finished":
            assert time.monotonic() < deadline, f"match {match_id} did not finish"
            time.sleep(0.05)


def polled(
    http: httpx.Client, match_id: str, until: tuple[str, ...] = ("done", "failed"), **kw: Any
) -> list[dict[str, Any]]:
    """``GET …/review`` until its status is one of ``until``: every answer seen."""
    seen = []
    deadline = time.monotonic() + 2 * WAIT
    while True:
        answer = http.get(f"/api/matches/{match_id}/review", **kw)
        assert answer.status_code == 200, answer.text
        seen.append(answer.json())
        if seen[-1]["status"] in until:
            return seen
        assert time.monotonic() < deadline, f"review of {match_id} stuck: {seen[-1]}"
        time.sleep(0.05)


def reference(http: httpx.Client, match_id: str, budget: str = TINY) -> dict[str, Any]:
    """The review of the match's record, computed here with ``budget``."""
    record = GameRecord.from_json(http.get(f"/api/matches/{match_id}/record").json())
    return without_cpu(review(record, budget=ReviewBudget.parse(budget)).to_json())


def without_cpu(document: Any) -> dict[str, Any]:
    """A review without its CPU seconds (which differ from one run to the next)."""
    return {k: v for k, v in document.items() if k != "cpu_seconds"}


def error(answer: httpx.Response, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()["error"]
    assert body["code"] == code, body
    return str(body["message"])


@pytest.mark.parametrize("game", ["cards", "board"])
def test_a_review_is_queued_computed_and_is_the_review_of_the_record(
    reviewing: Server, game: str
) -> None:
    match_id = finished(reviewing, game, cap=10)["id"]
    with reviewing.http() as http:
        assert http.get(f"/api/matches/{match_id}/review").json() == {
            "status": "none",
            "done": 0,
            "total": 0,
            "review": None,
        }
        asked = http.post(f"/api/matches/{match_id}/review")
        assert asked.status_code == 202, asked.text
        first = asked.json()
        assert first["status"] in ("queued", "running")
        assert first["total"] > 10
        assert first["review"] is None
        # asked again: its state, nothing queued anew
        again = http.post(f"/api/matches/{match_id}/review")
        assert again.status_code == 200, again.text
        assert again.json()["total"] == first["total"]
        seen = polled(http, match_id)
        done = [answer["done"] for answer in seen]
        assert done == sorted(done)  # progress only moves on
        assert all(answer["total"] == first["total"] for answer in seen)
        last = seen[-1]
        assert (last["status"], last["done"]) == ("done", first["total"])
        validate("review", last["review"])
        assert without_cpu(last["review"]) == reference(http, match_id)
        assert last["review"]["cpu_seconds"] > 0
        # asking once it is done: the review at once
        after = http.post(f"/api/matches/{match_id}/review")
        assert after.status_code == 200
        assert after.json() == last


def test_only_a_finished_match_is_reviewed(reviewing: Server) -> None:
    running = create(reviewing, seats=[PERSON, BOT])
    path = f"/api/matches/{running['id']}/review"
    auth = {"Authorization": f"Bearer {running['token']}"}
    with reviewing.http() as http:
        for method in ("GET", "POST"):
            german = error(
                http.request(method, path, headers={**auth, "Accept-Language": "de"}),
                409,
                "server.review_not_finished",
            )
            assert german.startswith("Eine Partie wird analysiert, sobald sie zu Ende ist")
            english = error(
                http.request(method, path, headers=auth), 409, "server.review_not_finished"
            )
            assert "once it is over" in english
            missing = http.request(method, "/api/matches/no-such-match/review")
            assert "no-such-match" in error(missing, 404, "server.no_match")
            bad = http.request(method, "/api/matches/a%00b/review")
            error(bad, 400, "server.bad_request")
        # nothing was queued for the match in play
        assert http.get(f"/api/matches/{running['id']}").json()["status"] == "running"


def test_a_private_match_s_review_is_for_its_participants_only(reviewing: Server) -> None:
    with (
        signup(reviewing, f"rev{random.randrange(10**8)}") as ada,
        signup(reviewing, f"str{random.randrange(10**8)}") as stranger,
    ):
        made = ada.post(
            "/api/matches",
            json={
                "game": "cards",
                "seats": [PERSON, BOT],
                "public": False,
                "variant": {"turn_cap": 8},
            },
        )
        assert made.status_code == 201, made.text
        match_id, token = made.json()["id"], made.json()["token"]
        path = f"/api/matches/{match_id}/review"
        # before the end: a stranger learns nothing, not even that it is not over
        with reviewing.http() as anyone:
            error(anyone.post(path), 404, "server.no_match")
        with player(reviewing, match_id, token) as ada_plays:
            ada_plays.play(random.Random(3))
        with reviewing.http() as anyone:
            for method in ("GET", "POST"):
                error(anyone.request(method, path), 404, "server.no_match")
                error(
                    anyone.request(method, path, headers={"Authorization": "Bearer wrong"}),
                    404,
                    "server.no_match",
                )
                error(stranger.request(method, path), 404, "server.no_match")
            # the seat's token: a participant
            asked = anyone.post(path, headers={"Authorization": f"Bearer {token}"})
            assert asked.status_code == 202, asked.text
            # the host's token, and the account that plays a seat (its session alone)
            host = {"Authorization": f"Bearer {made.json()['host_token']}"}
            assert anyone.get(path, headers=host).status_code == 200
            assert ada.get(path).json()["total"] == asked.json()["total"]
            last = polled(ada, match_id)[-1]
            assert last["status"] == "done"
            assert without_cpu(last["review"]) == reference(anyone, match_id)
            # and still nothing for the stranger
            error(stranger.get(path), 404, "server.no_match")
    # a public match's review: anyone's
    public = finished(reviewing)["id"]
    with reviewing.http() as anyone:
        assert anyone.post(f"/api/matches/{public}/review").status_code == 202


def test_new_reviews_are_limited_per_account_and_per_address(servers: Any) -> None:
    server = servers("--review-budget", TINY, "--review-rate", "1", "--review-workers", "0")
    matches = [finished(server)["id"] for _ in range(4)]
    path = "/api/matches/{}/review".format
    with signup(server, f"flood{random.randrange(10**8)}") as member:
        # one an hour for the account: the second new one is refused …
        assert member.post(path(matches[0])).status_code == 202
        refused = member.post(path(matches[1]), headers={"Accept-Language": "es"})
        message = error(refused, 429, "server.review_slow_down")
        assert message.startswith("Has pedido muchos análisis")
        assert int(refused.headers["Retry-After"]) > 60
        # … asking again for the first one counts nothing
        assert member.post(path(matches[0])).status_code == 200
    with server.http() as guest:
        # three for the address, the account's one among them
        assert guest.post(path(matches[1])).status_code == 202
        assert guest.post(path(matches[2])).status_code == 202
        error(guest.post(path(matches[3])), 429, "server.review_slow_down")
        assert guest.get(path(matches[3])).json()["status"] == "none"
        assert guest.post(path(matches[2])).status_code == 200


def test_a_queued_review_is_done_by_the_next_server_on_the_database(servers: Any) -> None:
    taking = servers("--review-budget", TINY, "--review-workers", "0")
    match_id = finished(taking)["id"]
    with taking.http() as http:
        assert http.post(f"/api/matches/{match_id}/review").status_code == 202
        assert http.get(f"/api/matches/{match_id}/review").json()["status"] == "queued"
        expected = reference(http, match_id)
    taking.stop()
    computing = servers("--review-budget", TINY)
    with computing.http() as http:
        last = polled(http, match_id)[-1]
    assert last["status"] == "done"
    assert without_cpu(last["review"]) == expected


def stored_review(url: str, match_id: str) -> Any:
    """The review's row as the database holds it."""
    engine = db.make_engine(url)
    try:
        return ReviewStore(engine).get(match_id)
    finally:
        engine.dispose()


def test_a_review_left_by_a_killed_server_is_taken_over_where_it_was(
    servers: Any, database: str
) -> None:
    budget = "iterations=1000,width=2,luck_playouts=8"  # slow enough to be caught half done
    first = servers("--review-budget", budget, "--review-lease", "1")
    match_id = finished(first, cap=8)["id"]
    with first.http() as http:
        record = GameRecord.from_json(http.get(f"/api/matches/{match_id}/record").json())
        assert http.post(f"/api/matches/{match_id}/review").status_code == 202
        deadline = time.monotonic() + 2 * WAIT
        while polled(http, match_id, until=("running", "done"))[-1]["done"] == 0:
            assert time.monotonic() < deadline, "no step of the review was stored"
            time.sleep(0.05)
    first.kill()
    left = stored_review(database, match_id)
    assert left.status == "running", left
    assert 0 < left.done < left.total, left
    # mark one stored result (the first: a decision): the server that takes the review over
    # must keep what was stored, not compute it again
    step = next(iter(left.results))
    assert step.startswith("decision:")
    marked = {**left.results, step: {**left.results[step], "turn": 999}}
    engine = db.make_engine(database)
    with engine.begin() as connection:
        connection.execute(
            db.reviews.update().where(db.reviews.c.match_id == match_id).values(results=marked)
        )
    engine.dispose()
    second = servers("--review-budget", TINY, "--review-lease", "1")
    with second.http() as http:
        last = polled(http, match_id)[-1]
    assert last["status"] == "done"
    got = without_cpu(last["review"])
    expected = without_cpu(review(record, budget=ReviewBudget.parse(budget)).to_json())
    assert got["budget"] == ReviewBudget.parse(budget).to_json()  # the one it began with
    index = int(step.partition(":")[2])
    kept = [d for d in got["decisions"] if d["index"] == index]
    assert [d["turn"] for d in kept] == [999]
    kept[0]["turn"] = next(d["turn"] for d in expected["decisions"] if d["index"] == index)
    assert got == expected


def test_the_lease_lets_one_process_claim_a_review(database: str) -> None:
    engine = db.make_engine(database)
    db.migrate(engine)
    try:
        with engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO matches (id, game, status, header, options, host_hash, public,"
                    " ply, to_move, created_at, updated_at) VALUES ('m1', 'cards', 'finished',"
                    " '{}', '{}', 'h', TRUE, 0, 0, :t, :t)"
                ),
                {"t": now()},
            )
        store = ReviewStore(engine)
        budget = ReviewBudget.parse(TINY)
        row, created = store.ask("m1", budget, 5, None, "127.0.0.1")
        assert created
        assert (row.status, row.done, row.total) == ("queued", 0, 5)
        assert store.ask("m1", budget, 5, None, "127.0.0.1")[1] is False
        # eight processes claim it at once: one gets it
        start = now()
        won: list[str] = []
        barrier = threading.Barrier(8)

        def claim(owner: str) -> None:
            barrier.wait()
            if store.claim("m1", owner, start, 30) is not None:
                won.append(owner)

        threads = [threading.Thread(target=claim, args=(f"p{n}",)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(won) == 1
        owner = won[0]
        assert store.waiting(start + timedelta(seconds=29)) == []
        assert store.claim("m1", "late", start + timedelta(seconds=29), 30) is None
        assert store.store_step("m1", owner, {"deal": {}}, 1.0, start, 30)
        assert store.store_step("m1", "late", {"deal": {}}, 1.0, start, 30) is False
        # its lease ran out (the process died): another takes it over, with what was stored
        later = start + timedelta(seconds=31)
        assert store.waiting(later) == ["m1"]
        taken = store.claim("m1", "heir", later, 30)
        assert taken is not None
        assert (taken.done, taken.results) == (1, {"deal": {}})
        # the first process, back, stores nothing more
        assert store.store_step("m1", owner, {"deal": {}, "draw:3": {}}, 2.0, later, 30) is False
        assert store.finish("m1", owner, {"review": 1}, later) is False
        assert store.finish("m1", "heir", {"review": 1}, later)
        done = store.get("m1")
        assert done is not None
        assert done.status == "done"
        assert done.lease_owner is None
        assert store.waiting(later + timedelta(days=1)) == []
    finally:
        engine.dispose()


def test_two_servers_compute_a_review_once(servers: Any, database: str) -> None:
    budget = "iterations=100,width=2,luck_playouts=4"
    ann, bea = servers("--review-budget", budget), servers("--review-budget", budget)
    match_id = finished(ann)["id"]
    engine = db.make_engine(database)
    owners = set()
    try:
        with ann.http() as http, bea.http() as other:
            assert http.post(f"/api/matches/{match_id}/review").status_code == 202
            assert other.post(f"/api/matches/{match_id}/review").status_code == 200
            deadline = time.monotonic() + 2 * WAIT
            while True:
                with engine.connect() as connection:
                    row = connection.execute(
                        sa.select(db.reviews.c.status, db.reviews.c.lease_owner).where(
                            db.reviews.c.match_id == match_id
                        )
                    ).one()
                if row.lease_owner is not None:
                    owners.add(row.lease_owner)
                if row.status in ("done", "failed"):
                    break
                assert time.monotonic() < deadline
                time.sleep(0.02)
            last = other.get(f"/api/matches/{match_id}/review").json()
            assert last["status"] == "done"
            assert without_cpu(last["review"]) == reference(http, match_id, budget)
    finally:
        engine.dispose()
    assert len(owners) == 1  # one process held it from start to end


def test_a_failing_review_is_marked_failed_and_the_server_goes_on(
    servers: Any, database: str
) -> None:
    taking = servers("--review-budget", TINY, "--review-workers", "0")
    broken, fine = finished(taking)["id"], finished(taking)["id"]
    with taking.http() as http:
        assert http.post(f"/api/matches/{broken}/review").status_code == 202
    taking.stop()
    engine = db.make_engine(database)
    with engine.begin() as connection:  # a budget no review takes: its steps raise
        connection.execute(
            db.reviews.update()
            .where(db.reviews.c.match_id == broken)
            .values(budget={"iterations": 1, "width": 2, "luck_playouts": 2, "seed": 0})
        )
    computing = servers("--review-budget", TINY)
    with computing.http() as http:
        assert polled(http, broken)[-1] == {
            "status": "failed",
            "done": 0,
            "total": stored_review(database, broken).total,
            "review": None,
        }
        assert http.post(f"/api/matches/{fine}/review").status_code == 202
        assert polled(http, fine)[-1]["status"] == "done"
    row = stored_review(database, broken)
    assert row.error is not None
    assert "iterations must lie in 16" in row.error
    log = computing.logged("review of match")
    assert f"review of match {broken} failed" in log
    engine.dispose()


@pytest.mark.slow
def test_bots_keep_moving_while_a_review_is_computed(servers: Any) -> None:
    """A review of the server's full budget takes a minute of CPU in the one bot worker;
    a bot match started meanwhile still gets its moves (each waits for one review step at
    most), long before the review is done."""
    server = servers()
    match_id = finished(server, cap=30)["id"]  # about 70 steps
    with server.http() as http:
        assert http.post(f"/api/matches/{match_id}/review").status_code == 202
        polled(http, match_id, until=("running",))
        playing = create(server, game="cards", seats=[BOT, BOT], seat=None)["id"]
        deadline = time.monotonic() + 2 * WAIT
        while http.get(f"/api/matches/{playing}").json()["version"] < 16:
            assert time.monotonic() < deadline, "the bots did not move"
            time.sleep(0.05)
        state = http.get(f"/api/matches/{match_id}/review").json()
        assert state["status"] == "running", state
        assert state["done"] < state["total"], state
