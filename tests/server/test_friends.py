"""Friends and challenges against real ``keltis serve`` processes, on SQLite and PostgreSQL
(docs/server.md, "Friends and challenges"): following and the list of who one follows
(online, hidden, in which match — never a private match one is not in), the caps and the
refusals; challenges: only the addressee joins, never in the public list, the ``challenge``
event only on the addressee's lobby streams (also from another process), decline and
cancel, a block either way refused, the rate and open limits, and the e-mail only with the
switch on and a confirmed address."""

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
import pytest
import sqlalchemy as sa

from keltis.server import db
from keltis.server.friends import CHALLENGE_BURST, MAX_FOLLOWING
from keltis.server.seeks import MAX_CHALLENGES
from keltis.server.store import now

from .harness import WAIT, Server, free_port
from .people import PASSWORD, Member, my_seat, signup
from .test_mail import Inbox, confirm_address, serving
from .test_seeks import QUICK_ACCOUNTS, refused, seeks_of

Servers = Callable[..., Server]


class Stream:
    """``GET /api/lobby/events`` as ``member`` (its session cookie), read in a thread:
    each event lands in :attr:`events`."""

    def __init__(self, server: Server, member: Member | None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=WAIT)
        self.events: queue.Queue[tuple[str, Any]] = queue.Queue()
        headers = {}
        if member is not None:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in member.cookies.items())
        opened = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(headers, opened), daemon=True)
        self.thread.start()
        assert opened.wait(WAIT)

    def _read(self, headers: dict[str, str], opened: threading.Event) -> None:
        try:
            self.connection.request("GET", "/api/lobby/events", headers=headers)
            response = self.connection.getresponse()
            assert self.connection.sock is not None
            self.connection.sock.settimeout(None)
            opened.set()
            kind, data = "message", []
            for raw in response:
                line = raw.decode().rstrip("\r\n")
                if line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].strip())
                elif line == "" and data:
                    self.events.put((kind, json.loads("\n".join(data))))
                    kind, data = "message", []
        except (OSError, ValueError, http.client.HTTPException):
            pass
        finally:
            opened.set()

    def next(self, kind: str, timeout: float = WAIT) -> Any:
        """The data of the next event of ``kind``."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind!r} event within {timeout} s")
            try:
                got, data = self.events.get(timeout=left)
            except queue.Empty:
                continue
            if got == kind:
                return data

    def kinds(self) -> list[str]:
        """The kinds of the events received so far (and taken out)."""
        found = []
        while True:
            try:
                found.append(self.events.get_nowait()[0])
            except queue.Empty:
                return found

    def close(self) -> None:
        sock = self.connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self.thread.join(WAIT)
        self.connection.close()


@contextlib.contextmanager
def stream(server: Server, member: Member | None) -> Iterator[Stream]:
    opened = Stream(server, member)
    try:
        opened.next("seeks")
        yield opened
    finally:
        opened.close()


@pytest.fixture(scope="module")
def server(shared_database: str) -> Iterator[Server]:
    running = Server(shared_database, *QUICK_ACCOUNTS, "--seek-rate", "10000").start()
    try:
        yield running
    finally:
        running.stop()


_count = iter(range(10_000))


def person(server: Server, stem: str) -> Member:
    """A new account with a name not used before in this module."""
    return signup(server, f"{stem}{next(_count)}")


def following(member: Member) -> list[dict[str, Any]]:
    answer = member.get("/api/me/following")
    assert answer.status_code == 200, answer.text
    listed: list[dict[str, Any]] = answer.json()["following"]
    return listed


def challenge(member: Member, to: str, **body: Any) -> dict[str, Any]:
    answer = member.post("/api/challenges", json={"to": to, **body})
    assert answer.status_code == 201, answer.text
    seek: dict[str, Any] = answer.json()
    return seek


# -- following ----------------------------------------------------------------------------


def test_follow_list_online_hidden_and_unfollow(server: Server) -> None:
    ann, bea, cid = person(server, "ann"), person(server, "bea"), person(server, "cid")
    assert following(ann) == []
    for other in (cid, bea):
        answer = ann.put(f"/api/me/following/{other.name.upper()}")  # any case
        assert answer.status_code == 204, answer.text
    assert ann.put(f"/api/me/following/{bea.name}").status_code == 204  # twice: no change
    listed = following(ann)
    assert [f["name"] for f in listed] == sorted([bea.name, cid.name])
    # nobody has had a page open yet (the header's GET /api/challenges counts one)
    assert [f["online"] for f in listed] == [False, False]
    assert [f["playing"] for f in listed] == [[], []]
    assert [f["vacation"] for f in listed] == [None, None]
    assert bea.get("/api/challenges").status_code == 200
    online = {f["name"]: f["online"] for f in following(ann)}
    assert online == {bea.name: True, cid.name: False}
    # bea hides whether she is online: her followers see null, never true or false
    answer = bea.put("/api/me/friend-settings", json={"hide_online": True})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"hide_online": True, "email_challenges": True}
    assert {f["name"]: f["online"] for f in following(ann)}[bea.name] is None
    assert ann.delete(f"/api/me/following/{bea.name}").status_code == 204
    assert [f["name"] for f in following(ann)] == [cid.name]
    # following is one way: cid follows nobody
    assert following(cid) == []


def test_the_list_shows_public_matches_and_private_ones_only_to_their_players(
    server: Server,
) -> None:
    ann, bea, cid = person(server, "ann"), person(server, "bea"), person(server, "cid")
    ann.put(f"/api/me/following/{bea.name}")
    cid.put(f"/api/me/following/{bea.name}")
    bot = {"kind": "bot", "level": "random"}
    # bea's public match against a bot, and a private one she plays with cid
    public = bea.post("/api/matches", json={"seats": [{"kind": "person"}, bot]})
    assert public.status_code in (200, 201), public.text
    private = bea.post(
        "/api/matches",
        json={"seats": [{"kind": "person"}, {"kind": "person"}], "public": False},
    )
    assert private.status_code in (200, 201), private.text
    private_id = private.json()["id"]
    invite = private.json()["invites"]
    joined = cid.post(f"/api/matches/{private_id}/join", json={"invite": invite[0]["invite"]})
    assert joined.status_code == 200, joined.text
    started = bea.post(
        f"/api/matches/{private_id}/start",
        headers={"Authorization": f"Bearer {private.json()['host_token']}"},
    )
    assert started.status_code == 200, started.text
    assert my_seat(cid, private_id)["match"]["status"] == "running"
    public_id = public.json()["id"]
    seen_by_ann = {f["name"]: f["playing"] for f in following(ann)}[bea.name]
    assert seen_by_ann == [{"id": public_id, "game": "board"}]
    seen_by_cid = {f["name"]: f["playing"] for f in following(cid)}[bea.name]
    assert sorted(m["id"] for m in seen_by_cid) == sorted([public_id, private_id])
    # a player connected to a match counts as online (its seat's last_seen)
    assert {f["name"]: f["online"] for f in following(ann)}[bea.name] is True


def test_following_refusals(server: Server) -> None:
    ann, bea = person(server, "ann"), person(server, "bea")
    refused(ann.put("/api/me/following/nobody-here"), 404, "account.no_player")
    refused(ann.put(f"/api/me/following/{ann.name}"), 400, "friends.self")
    refused(ann.put("/api/me/following/" + "x" * 300), 400, "server.bad_name")
    with server.http() as guest:
        refused(guest.get("/api/me/following"), 401, "account.no_session")
        refused(guest.put(f"/api/me/following/{bea.name}"), 401, "account.no_session")
    # the session's cookie without its CSRF token: another site's request
    bare = httpx.Client(base_url=server.base, cookies=ann.cookies, timeout=WAIT)
    with bare:
        refused(bare.put(f"/api/me/following/{bea.name}"), 403, "account.cross_site")
        refused(bare.post("/api/challenges", json={"to": bea.name}), 403, "account.cross_site")
    assert following(ann) == []


def test_a_block_either_way_refuses_following_and_challenges_alike(server: Server) -> None:
    ann, bea, cid = person(server, "ann"), person(server, "bea"), person(server, "cid")
    ann.put(f"/api/me/following/{bea.name}")
    assert bea.post("/api/me/blocks", json={"name": ann.name}).status_code in (200, 204)
    assert cid.post("/api/me/blocks", json={"name": ann.name}).status_code in (200, 204)
    # bea blocked ann after ann followed her: bea leaves ann's list
    assert following(ann) == []
    # blocked by them, or blocking them: the same refusal (a block is not revealed)
    for blocker, other in ((bea, ann), (ann, bea), (cid, ann), (ann, cid)):
        refused(blocker.put(f"/api/me/following/{other.name}"), 403, "friends.blocked")
        refused(blocker.post("/api/challenges", json={"to": other.name}), 403, "challenge.blocked")
    english = ann.post("/api/challenges", json={"to": bea.name}).json()["error"]["message"]
    assert english == cid.post("/api/challenges", json={"to": ann.name}).json()["error"]["message"]
    german = ann.post(
        "/api/challenges", json={"to": bea.name}, headers={"Accept-Language": "de"}
    ).json()["error"]["message"]
    assert german != english


def test_following_is_capped_and_its_changes_limited(servers: Servers, database: str) -> None:
    server = servers(*QUICK_ACCOUNTS)
    ann, bea = signup(server, "ann"), signup(server, "bea")
    # the rate of follows and unfollows: 30 at once, then refused in words
    codes = [ann.put(f"/api/me/following/{bea.name}").status_code for _ in range(31)]
    assert codes == [204] * 30 + [429]
    refused(ann.put(f"/api/me/following/{bea.name}"), 429, "friends.slow_down")
    # the cap: ann follows MAX_FOLLOWING accounts already (written behind the server's back)
    engine = db.make_engine(database)
    try:
        with engine.begin() as connection:
            me = connection.execute(
                sa.select(db.accounts.c.id).where(db.accounts.c.name == "ann")
            ).scalar_one()
            connection.execute(db.follows.delete().where(db.follows.c.account_id == me))
            connection.execute(
                db.follows.insert(),
                [
                    {"account_id": me, "followed_id": f"gone{n}", "at": now()}
                    for n in range(MAX_FOLLOWING)
                ],
            )
    finally:
        engine.dispose()
    answer = _after_rate(lambda: ann.put(f"/api/me/following/{bea.name}"))
    refused(answer, 409, "friends.too_many")
    assert following(ann) == []


def _after_rate(call: Callable[[], httpx.Response]) -> httpx.Response:
    """``call``'s answer once it is no longer refused for its rate (``Retry-After``)."""
    deadline = time.monotonic() + WAIT
    while True:
        answer = call()
        if answer.status_code != 429:
            return answer
        assert time.monotonic() < deadline
        time.sleep(float(answer.headers["Retry-After"]))


def test_a_deleted_account_leaves_the_lists_and_its_challenges_end(server: Server) -> None:
    ann, bea = person(server, "ann"), person(server, "bea")
    assert ann.put(f"/api/me/following/{bea.name}").status_code == 204
    assert bea.put(f"/api/me/following/{ann.name}").status_code == 204
    sent = challenge(ann, bea.name)
    assert bea.post("/api/me/vacation", json={"days": 2}).status_code == 200
    engine = db.make_engine(server.database)
    try:
        with engine.connect() as connection:
            bea_id = connection.execute(
                sa.select(db.accounts.c.id).where(db.accounts.c.name == bea.name)
            ).scalar_one()
        gone = bea.request("DELETE", "/api/me", json={"password": PASSWORD})
        assert gone.status_code == 204, gone.text
        with engine.connect() as connection:
            follows = connection.execute(
                sa.select(sa.func.count())
                .select_from(db.follows)
                .where(
                    sa.or_(db.follows.c.account_id == bea_id, db.follows.c.followed_id == bea_id)
                )
            ).scalar_one()
            vacations = connection.execute(
                sa.select(sa.func.count())
                .select_from(db.vacations)
                .where(db.vacations.c.account_id == bea_id)
            ).scalar_one()
            status = connection.execute(
                sa.select(db.seeks.c.status).where(db.seeks.c.id == sent["id"])
            ).scalar_one()
    finally:
        engine.dispose()
    assert (follows, vacations, status) == (0, 0, "cancelled")
    assert following(ann) == []
    assert ann.get("/api/challenges").json() == {"to_me": [], "from_me": []}
    refused(ann.put(f"/api/me/following/{bea.name}"), 404, "account.no_player")


# -- challenges ---------------------------------------------------------------------------


def test_a_challenge_only_its_addressee_joins_and_the_list_never_shows_it(
    server: Server,
) -> None:
    ann, bea, cid = person(server, "ann"), person(server, "bea"), person(server, "cid")
    seek = challenge(ann, bea.name, game="cards", time={"kind": "correspondence", "days": 2})
    assert seek["for"] == bea.name
    assert seek["players"] == 2
    assert seek["by"] == ann.name
    assert seek["id"] not in [s["id"] for s in seeks_of(server)]
    mine = ann.get("/api/challenges").json()
    assert [s["id"] for s in mine["from_me"]] == [seek["id"]]
    assert mine["to_me"] == []
    assert [s["id"] for s in bea.get("/api/challenges").json()["to_me"]] == [seek["id"]]
    assert cid.get("/api/challenges").json() == {"to_me": [], "from_me": []}
    refused(cid.post(f"/api/seeks/{seek['id']}/join"), 403, "challenge.not_yours")
    refused(cid.post(f"/api/challenges/{seek['id']}/accept"), 403, "challenge.not_yours")
    refused(cid.post(f"/api/challenges/{seek['id']}/decline"), 403, "challenge.not_yours")
    refused(cid.delete(f"/api/challenges/{seek['id']}"), 404, "seek.no_seek")
    started = bea.post(f"/api/challenges/{seek['id']}/accept")
    assert started.status_code == 200, started.text
    assert started.json()["status"] == "started"
    match_id = started.json()["match"]
    assert my_seat(ann, match_id)["match"]["game"] == "cards"
    assert my_seat(bea, match_id)["match"]["options"]["time"]["kind"] == "correspondence"
    assert bea.get("/api/challenges").json()["to_me"] == []


def test_decline_and_cancel(server: Server) -> None:
    ann, bea = person(server, "ann"), person(server, "bea")
    first, second = challenge(ann, bea.name), challenge(ann, bea.name)
    refused(ann.post(f"/api/challenges/{first['id']}/decline"), 403, "challenge.not_yours")
    declined = bea.post(f"/api/challenges/{first['id']}/decline")
    assert declined.status_code == 200, declined.text
    assert declined.json()["status"] == "declined"
    refused(bea.post(f"/api/challenges/{first['id']}/accept"), 409, "seek.not_open")
    refused(bea.delete(f"/api/challenges/{second['id']}"), 404, "seek.no_seek")
    cancelled = ann.delete(f"/api/challenges/{second['id']}")
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["status"] == "cancelled"
    refused(bea.post(f"/api/challenges/{second['id']}/decline"), 409, "seek.not_open")
    assert ann.get("/api/challenges").json() == {"to_me": [], "from_me": []}


def test_challenge_refusals_and_the_open_limit(server: Server) -> None:
    ann, bea = person(server, "ann"), person(server, "bea")
    refused(ann.post("/api/challenges", json={"to": "nobody-here"}), 404, "account.no_player")
    refused(ann.post("/api/challenges", json={"to": ann.name}), 400, "friends.self")
    for body in (
        {"to": bea.name, "game": "chess"},
        {"to": bea.name, "rated": "yes"},
        {"to": bea.name, "time": {"kind": "correspondence", "days": 0}},
        {"to": 5},
        {"to": ""},
        {},
    ):
        refused(ann.post("/api/challenges", json=body), 400, "server.bad_request")
    with server.http() as guest:
        refused(guest.post("/api/challenges", json={"to": bea.name}), 401, "account.no_session")
        refused(guest.get("/api/challenges"), 401, "account.no_session")
    for _ in range(MAX_CHALLENGES):
        challenge(ann, bea.name)
    refused(ann.post("/api/challenges", json={"to": bea.name}), 409, "challenge.too_many")
    # a challenge does not take a place of the account's public seeks
    assert ann.post("/api/seeks", json={"players": 2}).status_code == 201


def test_challenges_an_hour_are_limited(server: Server) -> None:
    ann, bea = person(server, "ann"), person(server, "bea")
    burst = CHALLENGE_BURST
    codes = []
    for _ in range(burst + 1):
        answer = ann.post("/api/challenges", json={"to": bea.name})
        codes.append(answer.status_code)
        if answer.status_code == 201:
            ann.delete(f"/api/challenges/{answer.json()['id']}")
    assert codes == [201] * burst + [429]
    limited = ann.post("/api/challenges", json={"to": bea.name})
    refused(limited, 429, "friends.slow_down")
    assert int(limited.headers["Retry-After"]) >= 60


def test_the_challenge_event_reaches_only_the_addressee_also_from_another_process(
    servers: Servers,
) -> None:
    first = servers(*QUICK_ACCOUNTS)
    second = servers(*QUICK_ACCOUNTS)
    ann, bea, cid = signup(first, "ann"), signup(first, "bea"), signup(first, "cid")
    with (
        stream(second, None) as guest,
        stream(second, cid) as other,
        stream(second, bea) as addressee,
        stream(second, ann) as challenger,
    ):
        seek = challenge(ann, bea.name)  # made on the first process
        told = addressee.next("challenge")
        assert told["id"] == seek["id"]
        assert told["by"] == ann.name
        assert told["status"] == "open"
        accepted = httpx.post(
            f"{second.base}/api/challenges/{seek['id']}/accept",
            cookies=bea.cookies,
            headers={"X-CSRF-Token": bea.csrf},
        )
        assert accepted.status_code == 200, accepted.text
        assert addressee.next("started")["match"] == accepted.json()["match"]
        assert challenger.next("started")["match"] == accepted.json()["match"]
        ended = addressee.next("challenge")
        assert (ended["id"], ended["status"]) == (seek["id"], "started")
        # another challenge, declined: the addressee hears it opened and ended
        again = challenge(ann, bea.name)
        assert addressee.next("challenge")["id"] == again["id"]
        assert bea.post(f"/api/challenges/{again['id']}/decline").status_code == 200
        ended = addressee.next("challenge")
        assert (ended["id"], ended["status"]) == (again["id"], "declined")
        # a public seek afterwards: the others' streams got it, and nothing of the challenges
        public = ann.post("/api/seeks", json={"players": 2}).json()
        assert other.next("seek")["id"] == public["id"]
        assert guest.next("seek")["id"] == public["id"]
        for kinds in (other.kinds(), guest.kinds(), challenger.kinds()):
            assert "challenge" not in kinds
        assert "started" not in other.kinds() + guest.kinds()


def test_a_challenge_is_e_mailed_only_with_the_switch_on_and_a_confirmed_address(
    servers: Servers,
) -> None:
    box = Inbox(free_port())
    with serving(box) as inbox:
        server = servers(
            *QUICK_ACCOUNTS, "--smtp-host", "127.0.0.1", "--smtp-port", str(inbox.port)
        )
        ann = signup(server, "ann")
        bea = signup(server, "bea", email="bea@example.org", language="de")
        cid = signup(server, "cid", email="cid@example.org")  # never confirmed
        confirm_address(server, inbox, "bea@example.org")
        challenge(ann, cid.name)
        challenge(ann, bea.name)
        mail = inbox.wait("bea@example.org", 1, "challenge")
        assert "ann" in str(mail["Subject"])
        assert "/#/friends" in mail.get_content()
        unsubscribe = str(mail["List-Unsubscribe"]).strip("<>")
        # switched off by the e-mail's one-click link: no more
        with server.http() as http:
            answer = http.post(unsubscribe.replace(server.base.rstrip("/"), ""))
        assert answer.status_code == 200, answer.text
        assert bea.get("/api/me/friend-settings").json()["email_challenges"] is False
        challenge(ann, bea.name)
        # on again from the settings: the next one comes (and only then the count checks)
        assert (
            bea.put("/api/me/friend-settings", json={"email_challenges": True}).status_code == 200
        )
        challenge(ann, bea.name)
        inbox.wait("bea@example.org", 2, "challenge")
        assert len(inbox.to("bea@example.org", "challenge")) == 2
        assert inbox.to("cid@example.org", "challenge") == []
        with server.http() as http:
            bad = http.post(f"/api/unsubscribe-challenges/{'x' * 10}/wrong")
        assert bad.status_code == 403
