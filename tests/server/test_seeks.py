"""The lobby's seeks against real ``keltis serve`` processes (docs/server.md, "The lobby:
seeks"): opening, listing, joining, leaving and cancelling; the refusals; a full seek
starting its match, and bots filling one after its wait; the lobby's live stream; and —
on one PostgreSQL database and on one SQLite file — a seek opened on one process and
filled from another, with two joins racing for the last place creating one match."""

from __future__ import annotations

import contextlib
import http.client
import json
import queue
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx

from keltis.i18n import Translator

from .harness import WAIT, Player, Server
from .people import Member, my_seat, signup

#: Servers here make accounts quickly (the sign-up limit has its own tests).
QUICK_ACCOUNTS = ("--signup-rate", "10000", "--login-rate", "10000")

Servers = Callable[..., Server]


class LobbyStream:
    """``GET /api/lobby/events`` read in a thread of its own: each event (and each comment
    line, as ``(":", text)``) lands in :attr:`events`. Closing it shuts its socket down,
    which ends the read at once (the client goes away)."""

    def __init__(self, server: Server) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=WAIT)
        self.events: queue.Queue[tuple[str, Any]] = queue.Queue()
        #: The open seeks as :meth:`seeks_until` last put them together.
        self.seeks: list[dict[str, Any]] = []
        self.status: int | None = None
        self.body = b""
        self.ended = threading.Event()
        opened = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(opened,), daemon=True)
        self.thread.start()
        assert opened.wait(WAIT), "the lobby stream did not answer"

    def _read(self, opened: threading.Event) -> None:
        try:
            self.connection.request("GET", "/api/lobby/events")
            response = self.connection.getresponse()
            self.status = response.status
            if response.status != 200:
                self.body = response.read()
                opened.set()
                return
            assert self.connection.sock is not None
            self.connection.sock.settimeout(None)  # a stream waits as long as it is open
            opened.set()
            kind, data = "message", []
            for raw in response:
                line = raw.decode().rstrip("\r\n")
                if line.startswith(":"):
                    self.events.put((":", line[1:].strip()))
                elif line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].strip())
                elif line == "" and data:
                    self.events.put((kind, json.loads("\n".join(data))))
                    kind, data = "message", []
        except (OSError, ValueError, http.client.HTTPException):
            pass  # closed by the test, or the server went
        finally:
            opened.set()
            self.ended.set()

    def next(self, kind: str, timeout: float = WAIT) -> Any:
        """The data of the next event of ``kind`` (others are passed over, the changes to
        the open seeks applied to :attr:`seeks`)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind!r} event within {timeout} s")
            try:
                got, data = self.events.get(timeout=left)
            except queue.Empty:
                continue
            self._apply(got, data)
            if got == kind:
                return data

    def _apply(self, kind: str, data: Any) -> None:
        """The open seeks as the client puts them together: the ``seeks`` list, then each
        ``seek`` (opened or changed) and ``gone`` applied to it."""
        if kind == "seeks":
            self.seeks = list(data["seeks"])
        elif kind == "seek":
            at = [n for n, s in enumerate(self.seeks) if s["id"] == data["id"]]
            if at:
                self.seeks[at[0]] = data
            else:
                self.seeks.append(data)
                self.seeks.sort(key=lambda s: (s["created"], s["id"]))
        elif kind == "gone":
            self.seeks = [s for s in self.seeks if s["id"] != data["id"]]

    def seeks_until(self, check: Callable[[list[dict[str, Any]]], bool]) -> list[dict[str, Any]]:
        """The open seeks as the stream tells them (:meth:`_apply`) the first time ``check``
        holds for them after a change."""
        while True:
            kind, data = self.events.get(timeout=WAIT)
            self._apply(kind, data)
            if kind in ("seeks", "seek", "gone") and check(self.seeks):
                return list(self.seeks)

    def close(self) -> None:
        sock = self.connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self.thread.join(WAIT)
        self.connection.close()


@contextlib.contextmanager
def lobby(server: Server) -> Iterator[LobbyStream]:
    stream = LobbyStream(server)
    try:
        assert stream.status == 200, stream.status
        yield stream
    finally:
        stream.close()


def open_seek(member: Member, **body: Any) -> dict[str, Any]:
    answer = member.post("/api/seeks", json={"players": 2, **body})
    assert answer.status_code == 201, answer.text
    seek: dict[str, Any] = answer.json()
    return seek


def refused(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code, error
    assert error["message"], error


def seeks_of(server: Server) -> list[dict[str, Any]]:
    with server.http() as http:
        answer = http.get("/api/seeks")
    assert answer.status_code == 200, answer.text
    seeks: list[dict[str, Any]] = answer.json()["seeks"]
    return seeks


def test_open_list_join_leave_and_cancel(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    ann, bea, cid = (signup(server, name) for name in ("ann", "bea", "cid"))
    seek = open_seek(ann, game="cards", players=3, time={"kind": "correspondence", "days": 2})
    assert seek["by"] == "ann"
    assert seek["seated"] == ["ann"]
    assert seek["status"] == "open"
    assert seek["game"] == "cards"
    assert seek["players"] == 3
    assert seek["rated"] is False
    assert seek["time"] == {"kind": "correspondence", "days": 2}
    assert seek["bots_after"] is None
    assert seek["bots_at"] is None
    assert [s["id"] for s in seeks_of(server)] == [seek["id"]]
    sid = seek["id"]

    joined = bea.post(f"/api/seeks/{sid}/join")
    assert joined.status_code == 200, joined.text
    assert joined.json()["seated"] == ["ann", "bea"]
    assert joined.json()["status"] == "open"
    refused(bea.post(f"/api/seeks/{sid}/join"), 409, "seek.joined")
    refused(ann.post(f"/api/seeks/{sid}/join"), 409, "seek.own")
    refused(cid.delete(f"/api/seeks/{sid}"), 409, "seek.not_joined")

    left = bea.delete(f"/api/seeks/{sid}")
    assert left.status_code == 200, left.text
    assert left.json()["seated"] == ["ann"]
    assert left.json()["status"] == "open"
    assert seeks_of(server)[0]["seated"] == ["ann"]

    cancelled = ann.delete(f"/api/seeks/{sid}")
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["status"] == "cancelled"
    assert seeks_of(server) == []
    refused(bea.post(f"/api/seeks/{sid}/join"), 409, "seek.not_open")
    refused(ann.delete(f"/api/seeks/{sid}"), 409, "seek.not_open")
    for unknown in ("nosuchseek", "x" * 100, "a%20b"):
        refused(bea.post(f"/api/seeks/{unknown}/join"), 404, "seek.no_seek")
        refused(bea.delete(f"/api/seeks/{unknown}"), 404, "seek.no_seek")
    for impossible in ("x" * 200, "%00", "a%E2%80%AEb"):  # no id: refused before a query
        refused(bea.post(f"/api/seeks/{impossible}/join"), 400, "server.bad_request")
        refused(bea.delete(f"/api/seeks/{impossible}"), 400, "server.bad_request")

    # a session is needed, and a state-changing request must carry its csrf token
    with server.http() as guest:
        refused(guest.post("/api/seeks", json={"players": 2}), 401, "account.no_session")
        refused(guest.post(f"/api/seeks/{sid}/join"), 401, "account.no_session")
    forged = httpx.Client(base_url=server.base, cookies=bea.cookies, timeout=WAIT)
    with forged:
        refused(forged.post("/api/seeks", json={"players": 2}), 403, "account.cross_site")
    # a deleted account's seeks go with it
    open_seek(cid)
    assert [s["by"] for s in seeks_of(server)] == ["cid"]
    gone = cid.request("DELETE", "/api/me", json={"password": "correct horse battery"})
    assert gone.status_code == 204, gone.text
    assert seeks_of(server) == []


def test_bad_bodies_are_refused(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    ann = signup(server, "ann")
    bad: list[Any] = [
        {},
        {"players": 1},
        {"players": 5},
        {"players": "2"},
        {"players": 2.0},
        {"players": 2, "rated": "yes"},
        {"players": 2, "game": "chess"},
        {"players": 2, "bots_after": 9},
        {"players": 2, "bots_after": 86401},
        {"players": 2, "bots_after": "60"},
        {"players": 2, "rating_min": 10, "rating_max": 5},
        {"players": 2, "rating_min": "5"},
        {"players": 2, "rating_max": 1e300},
        {"players": 2, "time": {"kind": "blitz"}},
        {"players": 2, "time": {"kind": "realtime", "decision": 4}},
        {"players": 2, "time": {"kind": "correspondence", "days": 4}},
        [],
        "seek",
    ]
    for body in bad:
        refused(ann.post("/api/seeks", json=body), 400, "server.bad_request")
    refused(ann.post("/api/seeks", content=b"{not json"), 400, "server.bad_json")
    assert seeks_of(server) == []
    for players in (2, 3, 4):
        assert open_seek(ann, players=players, bots_after=86400)["players"] == players


def test_seek_changes_are_limited_per_account_and_address(servers: Servers) -> None:
    """One account opened and cancelled 1,040 seeks in 20 s, and a lobby stream got 2,054
    events: opening, joining, leaving and cancelling now count together, per account (10 a
    minute, 5 at once) and per address (three times that), beyond which ``429``
    ``seek.slow_down`` says how long to wait; so a flood reaches the lobby's streams as a
    handful of events."""
    server = servers(*QUICK_ACCOUNTS, "--seek-rate", "10")
    ann, bea, cid, dan, eve = (signup(server, n) for n in ("ann", "bea", "cid", "dan", "eve"))
    with lobby(server) as stream:
        stream.next("seeks")

        def flood(member: Member, tries: int) -> tuple[int, list[httpx.Response]]:
            """Open a seek and cancel it, again and again: the changes made, the refusals."""
            made, limited, own = 0, [], None
            for _ in range(tries):
                if own is None:
                    answer = member.post("/api/seeks", json={"players": 2})
                else:
                    answer = member.delete(f"/api/seeks/{own}")
                if answer.status_code == 429:
                    limited.append(answer)
                    continue
                assert answer.status_code in (200, 201), answer.text
                made += 1
                own = answer.json()["id"] if own is None else None
            return made, limited

        # one account: five at once, then one every six seconds
        made, limited = flood(ann, 100)
        assert 5 <= made <= 7, made
        assert len(limited) == 100 - made
        refused(limited[-1], 429, "seek.slow_down")
        assert 1 <= int(limited[-1].headers["Retry-After"]) <= 6
        spanish = ann.post("/api/seeks", json={"players": 2}, headers={"Accept-Language": "es"})
        refused(spanish, 429, "seek.slow_down")
        assert spanish.json()["error"]["message"] == Translator("es")("seek.slow_down")
        # joining and leaving count with opening and cancelling
        seek = open_seek(bea)
        refused(ann.post(f"/api/seeks/{seek['id']}/join"), 429, "seek.slow_down")
        refused(ann.delete(f"/api/seeks/{seek['id']}"), 429, "seek.slow_down")
        # one address: 15 at once for all its accounts, then one every two seconds
        from_here = made + 1
        for member in (bea, cid, dan, eve):
            more, limited = flood(member, 5)
            from_here += more
        assert 15 <= from_here <= 18, from_here
        # eve's own five are more than the address has left
        assert more < 5, more
        assert limited
        refused(limited[-1], 429, "seek.slow_down")

        # the lobby's streams were told of the changes made, and of nothing else
        events = 0
        while True:
            try:
                kind, _data = stream.events.get(timeout=3)
            except queue.Empty:
                break
            events += kind in ("seek", "gone", "seeks")
        assert 1 <= events <= from_here, (events, from_here)


def test_at_most_three_open_seeks(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    ann = signup(server, "ann")
    made = [open_seek(ann) for _ in range(3)]
    refused(ann.post("/api/seeks", json={"players": 2}), 409, "seek.too_many")
    assert len(seeks_of(server)) == 3
    assert ann.delete(f"/api/seeks/{made[0]['id']}").status_code == 200
    open_seek(ann)
    refused(ann.post("/api/seeks", json={"players": 2}), 409, "seek.too_many")
    # opened all at once, they are still counted one after the other
    bea = signup(server, "bea")
    answers: list[int] = []
    gate = threading.Barrier(6)

    def post() -> None:
        gate.wait()
        answers.append(bea.post("/api/seeks", json={"players": 2}).status_code)

    threads = [threading.Thread(target=post) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [201, 201, 201, 409, 409, 409], answers
    assert sum(s["by"] == "bea" for s in seeks_of(server)) == 3


def test_the_rating_range_admits_only_ratings_within_it(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    ann, bea = signup(server, "ann"), signup(server, "bea")
    # a new account's shown rating is 1500 (ratings.shown)
    above = open_seek(ann, rating_min=1505)
    below = open_seek(ann, rating_max=1495)
    around = open_seek(ann, rating_min=1499, rating_max=1501, players=3)
    for seek in (above, below):
        answer = bea.post(f"/api/seeks/{seek['id']}/join", headers={"Accept-Language": "de"})
        refused(answer, 403, "seek.rating_range")
        assert "1500" in answer.json()["error"]["message"]
    joined = bea.post(f"/api/seeks/{around['id']}/join")
    assert joined.status_code == 200, joined.text
    assert joined.json()["seated"] == ["ann", "bea"]


def test_a_full_seek_starts_its_match(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    ann, bea = signup(server, "ann"), signup(server, "bea")
    with lobby(server) as stream:
        assert stream.next("seeks") == {"seeks": []}
        control = {"kind": "realtime", "decision": 30, "bank": 60}
        seek = open_seek(ann, rated=True, game="board", time=control)
        listed = stream.seeks_until(lambda s: len(s) == 1)
        assert listed[0]["id"] == seek["id"]
        assert listed[0]["rated"] is True
        joined = bea.post(f"/api/seeks/{seek['id']}/join")
        assert joined.status_code == 200, joined.text
        assert joined.json()["status"] == "started"
        match_id = joined.json()["match"]
        assert stream.next("started") == {"seek": seek["id"], "match": match_id}
        stream.seeks_until(lambda s: s == [])
    with server.http() as http:
        match = http.get(f"/api/matches/{match_id}").json()
    assert match["status"] == "running"
    assert sorted(s["name"] for s in match["seats"]) == ["ann", "bea"]
    assert match["rated"] is True
    assert match["options"]["time"]["kind"] == "realtime"
    assert match["options"]["time"]["decision"] == 30
    # each player finds their seat and token, and plays it
    for member in (ann, bea):
        mine = my_seat(member, match_id)
        p = Player(server, match_id, mine["token"]).connect()
        assert p.seat == mine["seat"]
        assert match["seats"][p.seat]["name"] == member.name
        p.close()
    refused(bea.post(f"/api/seeks/{seek['id']}/join"), 409, "seek.not_open")
    refused(ann.delete(f"/api/seeks/{seek['id']}"), 409, "seek.not_open")


def test_bots_take_the_empty_places_after_the_wait(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    ann, bea = signup(server, "ann"), signup(server, "bea")
    with lobby(server) as stream:
        began = time.monotonic()
        seek = open_seek(ann, players=4, bots_after=10, game="cards")
        assert seek["bots_at"] is not None
        assert bea.post(f"/api/seeks/{seek['id']}/join").status_code == 200
        started = stream.next("started")
        waited = time.monotonic() - began
        assert started["seek"] == seek["id"]
        assert waited >= 9, waited
        # a comment line keeps the stream alive every 15 s
        assert stream.next(":", timeout=30) == "heartbeat"
    with server.http() as http:
        match = http.get(f"/api/matches/{started['match']}").json()
    assert match["status"] == "running"
    people = sorted(s["name"] for s in match["seats"] if s["kind"] == "person")
    assert len(match["seats"]) == 4
    assert people == ["ann", "bea"], match["seats"]
    for member in (ann, bea):
        assert my_seat(member, started["match"])["token"]
    assert seeks_of(server) == []


def race(*calls: Callable[[], httpx.Response]) -> list[httpx.Response]:
    """The ``calls`` made at the same moment, each in a thread; their answers in order."""
    gate = threading.Barrier(len(calls))
    answers: list[httpx.Response | None] = [None] * len(calls)

    def run(n: int) -> None:
        gate.wait()
        answers[n] = calls[n]()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(a is not None for a in answers)
    return [a for a in answers if a is not None]


def test_a_seek_filled_from_another_process(servers: Servers) -> None:
    """One database (PostgreSQL, or one SQLite file), two processes: a seek opened on A
    and filled from B; A's lobby stream sees B's changes live, and of two joins racing for
    the last place (one on each process) exactly one creates the match."""
    a = servers(*QUICK_ACCOUNTS)
    b = servers(*QUICK_ACCOUNTS)
    ann = signup(a, "ann")
    bea, cid, _ = (signup(b, name) for name in ("bea", "cid", "dan"))
    with lobby(a) as on_a, lobby(b) as on_b:
        seek = open_seek(ann, players=3)
        sid = seek["id"]
        on_b.seeks_until(lambda s: [x["id"] for x in s] == [sid])
        for seated, change in (
            (["ann", "bea"], lambda: bea.post(f"/api/seeks/{sid}/join")),  # through B
            (["ann"], lambda: bea.delete(f"/api/seeks/{sid}")),
            (["ann", "bea"], lambda: bea.post(f"/api/seeks/{sid}/join")),
        ):
            began = time.monotonic()
            assert change().status_code == 200
            on_a.seeks_until(lambda s, seated=seated: len(s) == 1 and s[0]["seated"] == seated)
            if a.database.startswith("postgresql"):
                # told by B's notification, not found by A's comparison (every 10 s there)
                assert time.monotonic() - began < 6
        # the last place: cid through B, dan through A, at the same moment
        dan_on_a = Member(a, "dan", dan_login(a))
        answers = race(
            lambda: cid.post(f"/api/seeks/{sid}/join"),
            lambda: dan_on_a.post(f"/api/seeks/{sid}/join"),
        )
        codes = sorted(r.status_code for r in answers)
        assert codes == [200, 409], [r.text for r in answers]
        winner = next(r for r in answers if r.status_code == 200).json()
        loser = next(r for r in answers if r.status_code == 409).json()
        assert loser["error"]["code"] == "seek.not_open"
        assert winner["status"] == "started"
        assert len(winner["seated"]) == 3
        match_id = winner["match"]
        # both processes' streams hear of it
        assert on_a.next("started") == {"seek": sid, "match": match_id}
        assert on_b.next("started") == {"seek": sid, "match": match_id}
        on_a.seeks_until(lambda s: s == [])
    with a.http() as http:
        running = http.get("/api/matches", params={"status": "running"}).json()["matches"]
    assert [m["id"] for m in running] == [match_id]
    names = sorted(s["name"] for s in running[0]["seats"])
    assert names == sorted(["ann", "bea", winner["seated"][2]])
    # both seek owners see the seek as started, whichever process they ask
    for server in (a, b):
        with server.http() as http:
            assert http.get("/api/seeks").json() == {"seeks": []}


def dan_login(server: Server) -> httpx.Response:
    with server.http() as http:
        return http.post("/api/sessions", json={"name": "dan", "password": "correct horse battery"})


def test_racing_joins_for_the_last_place_create_one_match(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    ann = signup(server, "ann")
    rivals = [signup(server, f"rival{n}") for n in range(4)]
    for _ in range(3):
        path = f"/api/seeks/{open_seek(ann, players=2)['id']}/join"
        answers = race(*(lambda m=m, path=path: m.post(path) for m in rivals))
        codes = sorted(r.status_code for r in answers)
        assert codes == [200, 409, 409, 409], [r.text for r in answers]
        losers = [r.json()["error"]["code"] for r in answers if r.is_error]
        assert losers == ["seek.not_open"] * 3, losers
    with server.http() as http:
        running = http.get("/api/matches", params={"status": "running"}).json()["matches"]
    assert len(running) == 3
    assert seeks_of(server) == []


def test_lobby_streams_are_limited_and_end_cleanly(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    streams = [LobbyStream(server) for _ in range(8)]
    try:
        assert all(s.status == 200 for s in streams)
        for s in streams:
            s.next("seeks")
        extra = LobbyStream(server)
        assert extra.status == 429
        extra.close()
        with httpx.Client(base_url=server.base, timeout=WAIT) as http:
            refused(http.get("/api/lobby/events"), 429, "server.too_many_connections")
        # a client that goes lets its place go
        streams.pop().close()
        deadline = time.monotonic() + WAIT
        while True:
            again = LobbyStream(server)
            if again.status == 200 or time.monotonic() > deadline:
                break
            again.close()
            time.sleep(0.2)
        assert again.status == 200
        streams.append(again)
    finally:
        for s in streams:
            s.close()
    # in all, streams count among the process's connections
    small = servers(*QUICK_ACCOUNTS, "--max-connections", "2")
    held = [LobbyStream(small), LobbyStream(small)]
    try:
        assert [s.status for s in held] == [200, 200]
        with httpx.Client(base_url=small.base, timeout=WAIT) as http:
            refused(http.get("/api/lobby/events"), 503, "server.busy")
    finally:
        for s in held:
            s.close()


def test_a_stopping_server_ends_its_streams(servers: Servers) -> None:
    server = servers(*QUICK_ACCOUNTS)
    stream = LobbyStream(server)
    try:
        stream.next("seeks")
        assert server.process is not None
        began = time.monotonic()
        server.stop()  # SIGINT, as Ctrl-C: it must not wait for the stream forever
        assert server.process.returncode == 0, "".join(server.log)
        assert time.monotonic() - began < 15
        assert stream.ended.wait(WAIT)
    finally:
        stream.close()


def test_a_seek_s_match_left_unstarted_by_a_killed_process_starts(servers: Servers) -> None:
    """A process killed between storing a seek's match and starting it (imitated: the
    stored match set back to open): another process's upkeep starts it."""
    from datetime import UTC, datetime, timedelta

    from keltis.server import db

    a = servers(*QUICK_ACCOUNTS)
    ann, bea = signup(a, "ann"), signup(a, "bea")
    seek = open_seek(ann)
    match_id = bea.post(f"/api/seeks/{seek['id']}/join").json()["match"]
    a.kill()
    engine = db.make_engine(a.database)
    try:
        with engine.begin() as connection:
            connection.execute(
                db.matches.update().where(db.matches.c.id == match_id).values(status="open")
            )
            connection.execute(
                db.seeks.update()
                .where(db.seeks.c.id == seek["id"])
                .values(updated_at=datetime.now(UTC) - timedelta(minutes=5))
            )
    finally:
        engine.dispose()
    b = servers(*QUICK_ACCOUNTS)
    deadline = time.monotonic() + WAIT
    with b.http() as http:
        while http.get(f"/api/matches/{match_id}").json()["status"] != "running":
            assert time.monotonic() < deadline, "the seek's match never started"
            time.sleep(0.5)
