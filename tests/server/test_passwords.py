"""Password checks a stranger cannot abuse (issue 39, §1, §3.5, §4.3), against real ``keltis
serve`` processes on SQLite and PostgreSQL: every route that checks a password is limited
like log-in; attempts are counted before their check, so parallel guesses get no more checks
than the limit; an unknown name is answered exactly as a real one; an attacker's address
locks only itself; a full password pool refuses at once; and an account's old seat tokens
open nothing once its password changed, it logged out everywhere, was suspended or deleted.
The counting itself (:class:`keltis.server.passwords.Attempts`) is checked on both databases
directly, with many addresses."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed

from keltis.server import db
from keltis.server.answers import RefusedError
from keltis.server.db import make_engine, migrate
from keltis.server.passwords import (
    GLOBAL_FAILURES,
    LOCK,
    MAX_FAILURES,
    PASSWORD_NICE,
    WINDOW,
    Attempts,
)
from keltis.server.store import now

from .harness import WAIT, Player, Server
from .people import PASSWORD, Member, login, my_seat, signup

WRONG = "not the password at all"


def _code(answer: httpx.Response) -> str:
    return str(answer.json()["error"]["code"])


def _log_in(server: Server, name: str, password: str, address: str | None = None) -> Any:
    headers = {} if address is None else {"X-Forwarded-For": address}
    with server.http() as http:
        return http.post(
            "/api/sessions", json={"name": name, "password": password}, headers=headers
        )


# -- limits on every route that checks a password ------------------------------------------


@pytest.mark.parametrize("route", ["password", "delete"])
def test_password_routes_lock_after_five_wrong_passwords(server: Server, route: str) -> None:
    name = f"guess-{route}"
    member = signup(server, name)
    try:

        def guess(password: str) -> httpx.Response:
            if route == "password":
                return member.post("/api/me/password", json={"old": password, "new": "a new one!"})
            return member.request("DELETE", "/api/me", json={"password": password})

        answers = [guess(WRONG) for _ in range(8)]
        assert [a.status_code for a in answers] == [403] * MAX_FAILURES + [429] * 3
        assert {_code(a) for a in answers[MAX_FAILURES:]} == {"account.login_limited"}
        # locked from this address: the right password is refused too, and nothing changed
        right = guess(PASSWORD)
        assert right.status_code == 429
        assert member.get("/api/sessions/current").status_code == 200
    finally:
        member.close()


def test_password_routes_share_the_addresss_log_in_rate(servers: Callable[..., Server]) -> None:
    running = servers("--login-rate", "3")
    member = signup(running, "ratelimited")
    try:
        answers = [
            member.post("/api/me/password", json={"old": WRONG, "new": "a new one!"}),
            member.request("DELETE", "/api/me", json={"password": WRONG}),
            _log_in(running, "ratelimited", WRONG),
            member.request("DELETE", "/api/me", json={"password": WRONG}),
        ]
        assert [a.status_code for a in answers] == [403, 403, 401, 429]
        assert _code(answers[-1]) == "account.slow_down"
    finally:
        member.close()


def test_a_spent_log_in_rate_is_refused_before_the_session_is_looked_up(
    servers: Callable[..., Server],
) -> None:
    """A flood from one address costs the server no trip to the database: the password
    routes take the address's allowance first. Once it is spent they answer 429 even to a
    request with no session (which would otherwise be a 401 after the session's lookup)."""
    running = servers("--login-rate", "2")
    member = signup(running, "flooded")
    try:
        with running.http() as stranger:
            first = stranger.post("/api/me/password", json={"old": WRONG, "new": "a new one!"})
            assert first.status_code == 401  # allowance left: the session is looked up
        answers = [
            member.post("/api/me/password", json={"old": WRONG, "new": "a new one!"}),
            member.request("DELETE", "/api/me", json={"password": WRONG}),
        ]
        assert [a.status_code for a in answers] == [403, 429]
        with running.http() as stranger:
            for route, method, body in [
                ("/api/me/password", "POST", {"old": WRONG, "new": "a new one!"}),
                ("/api/me", "DELETE", {"password": WRONG}),
            ]:
                refused = stranger.request(method, route, json=body)
                assert refused.status_code == 429, (route, refused.text)
                assert _code(refused) == "account.slow_down"
        # other routes of the same address are not held back by it
        assert member.get("/api/sessions/current").status_code == 200
    finally:
        member.close()


def _thread_nices(pid: int) -> dict[int, int]:
    """Each thread of process ``pid`` (its id) and its nice value, from /proc."""
    nices = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            nices[int(task.name)] = int(fields[16])  # the stat file's 19th field
    return nices


@pytest.mark.skipif(sys.platform != "linux", reason="a thread's own nice value is Linux's")
def test_password_checks_run_below_the_games_priority(server: Server) -> None:
    """argon2 computes its lanes on threads that take the priority of the thread starting
    them: the password pool's threads run PASSWORD_NICE below the server's others, so that
    a flood's checks give way to players' moves (`benchmarks/server_load.py --flood login`
    measures what that does)."""
    signup(server, "niced").close()  # the new password is hashed in the pool
    assert _log_in(server, "niced", PASSWORD).status_code == 200  # and checked there
    assert server.process is not None
    pid = server.process.pid
    nices = _thread_nices(pid)
    main = nices[pid]
    lowered = [thread for thread, nice in nices.items() if nice == main + PASSWORD_NICE]
    assert lowered, nices  # the pool's thread
    # the event loop's and the database's threads keep the server's priority
    assert sum(nice == main for nice in nices.values()) > len(lowered), nices


@pytest.mark.parametrize("exists", [True, False], ids=["real-name", "unknown-name"])
def test_parallel_wrong_passwords_get_five_checks_and_names_do_not_leak(
    server: Server, exists: bool
) -> None:
    name = "parallel-real" if exists else "parallel-nobody"
    if exists:
        signup(server, name).close()
    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(lambda _: _log_in(server, name, WRONG), range(20)))
    codes = sorted(_code(a) for a in answers)
    assert codes == ["account.bad_login"] * MAX_FAILURES + ["account.login_limited"] * 15
    limited = [a.json() for a in answers if a.status_code == 429]
    assert limited[0]["error"]["message"].startswith("Too many wrong passwords")


def test_an_attacker_elsewhere_cannot_lock_the_owner_out(servers: Callable[..., Server]) -> None:
    # the server believes the proxy at 127.0.0.1: each request names its client's address
    running = servers("--forwarded-allow-ips", "127.0.0.1")
    signup(running, "owner").close()
    attacker, owner = "203.0.113.9", "198.51.100.7"
    tries = [_log_in(running, "owner", WRONG, attacker).status_code for _ in range(7)]
    assert tries == [401] * MAX_FAILURES + [429] * 2
    assert _log_in(running, "owner", PASSWORD, attacker).status_code == 429
    # the owner, at their own address, logs in as ever
    assert _log_in(running, "owner", PASSWORD, owner).status_code == 200


def test_a_full_password_pool_refuses_at_once(servers: Callable[..., Server]) -> None:
    # one thread and no queue: of many log-ins at once, those that find it busy are 503
    running = servers("--password-threads", "1", "--password-queue", "0")
    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(lambda n: _log_in(running, f"busy{n}", WRONG), range(12)))
    codes = [_code(a) for a in answers]
    assert "account.busy" in codes
    assert set(codes) <= {"account.busy", "account.bad_login"}
    busy = next(a for a in answers if _code(a) == "account.busy")
    assert busy.status_code == 503
    assert "Traceback" not in "".join(running.log)


# -- the counting itself, on both databases --------------------------------------------------


@pytest.fixture
def attempts_engine(database: str) -> Iterator[sa.Engine]:
    engine = make_engine(database)
    migrate(engine)
    try:
        yield engine
    finally:
        engine.dispose()


def _try(engine: sa.Engine, attempts: Attempts, key: str, address: str, when: Any) -> str:
    try:
        with engine.begin() as connection:
            attempts.reserve(connection, key, address, when)
    except RefusedError as refused:
        return refused.key
    return "counted"


def test_attempts_lock_per_address_and_back_off_per_name(attempts_engine: sa.Engine) -> None:
    attempts, start = Attempts(), now()
    engine = attempts_engine
    # one address: five counted, then locked for LOCK
    got = [_try(engine, attempts, "ann", "10.0.0.1", start) for _ in range(MAX_FAILURES + 1)]
    assert got == ["counted"] * MAX_FAILURES + ["account.login_limited"]
    later = start + LOCK + timedelta(seconds=1)
    assert _try(engine, attempts, "ann", "10.0.0.1", later) == "counted"
    # the owner logged in from home once: that address is trusted
    with engine.begin() as connection:
        attempts.succeeded(connection, "ann", "192.0.2.1")
    # many addresses: the name's global back-off after GLOBAL_FAILURES untrusted attempts
    counted = 1 + MAX_FAILURES  # those of 10.0.0.1 so far (its lock's refusal not counted)
    n = 0
    while counted < GLOBAL_FAILURES:
        assert _try(engine, attempts, "ann", f"10.1.{n // 200}.{n % 200}", later) == "counted"
        counted, n = counted + 1, n + 1
    assert _try(engine, attempts, "ann", "10.9.9.9", later) == "account.login_limited"
    # … which the owner's own address does not meet
    assert _try(engine, attempts, "ann", "192.0.2.1", later) == "counted"
    # other names are not touched, and the window ends
    assert _try(engine, attempts, "bob", "10.9.9.9", later) == "counted"
    after = later + WINDOW + timedelta(seconds=1)
    assert _try(engine, attempts, "ann", "10.9.9.9", after) == "counted"


def test_parallel_attempts_are_counted_exactly(attempts_engine: sa.Engine) -> None:
    attempts, when = Attempts(), now()
    with ThreadPoolExecutor(8) as pool:
        got = list(
            pool.map(lambda _: _try(attempts_engine, attempts, "cara", "10.0.0.2", when), range(24))
        )
    assert got.count("counted") == MAX_FAILURES
    with attempts_engine.connect() as connection:
        rows = connection.execute(
            sa.select(db.login_attempts.c.address, db.login_attempts.c.failures).where(
                db.login_attempts.c.name_key == "cara"
            )
        ).all()
    assert dict(rows) == {"10.0.0.2": MAX_FAILURES, "*": MAX_FAILURES}


# -- seat tokens follow the account ---------------------------------------------------------


def _match_against_a_bot(member: Member) -> dict[str, Any]:
    made = member.post(
        "/api/matches",
        json={"game": "cards", "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}]},
    )
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return body


def _read_until_closed(player: Player) -> None:
    """Read what the server sends until it closes the connection (raises
    ``ConnectionClosed``; a connection that stays open fails on the wait)."""
    while True:
        player.recv(timeout=WAIT)


def _view_status(server: Server, match_id: str, token: str) -> int:
    with server.http() as http:
        answer = http.get(
            f"/api/matches/{match_id}/view", headers={"Authorization": f"Bearer {token}"}
        )
    return answer.status_code


def _revoke_by(how: str, server: Server, member: Member, database: str) -> Member | None:
    """End the account's old credentials ``how``; the account's session afterwards, if any."""
    if how == "password":
        changed = member.post("/api/me/password", json={"old": PASSWORD, "new": "another one!"})
        assert changed.status_code == 204, changed.text
        return member
    if how == "everywhere":
        ended = member.request("DELETE", "/api/me/sessions")
        assert ended.status_code == 204, ended.text
        assert member.get("/api/sessions/current").status_code == 401
        return login(server, member.name)
    if how == "suspension":
        command = [sys.executable, "-m", "keltis", "admin", "--db", database]
        run = subprocess.run(
            [*command, "suspend", member.name, "--reason", "testing"],
            capture_output=True,
            text=True,
            timeout=WAIT,
        )
        assert run.returncode == 0, run.stderr
        return None
    gone = member.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert gone.status_code == 204, gone.text
    return None


@pytest.mark.parametrize("how", ["password", "everywhere", "suspension", "deletion"])
def test_old_seat_tokens_open_nothing_once_credentials_end(
    database: str, servers: Callable[..., Server], how: str
) -> None:
    running = servers()
    member = signup(running, f"seats-{how}"[:20])
    try:
        made = _match_against_a_bot(member)
        match_id, old = made["id"], made["token"]
        assert _view_status(running, match_id, old) == 200
        seated = Player(running, match_id, old).connect()
        assert seated.seat == 0
        after = _revoke_by(how, running, member, database)
        # the open connection is closed, and the old token opens nothing any more
        with pytest.raises(ConnectionClosed):
            _read_until_closed(seated)
        assert _view_status(running, match_id, old) == 403
        with running.http() as http:
            acted = http.post(
                f"/api/matches/{match_id}/actions",
                json={"action": 0, "version": 0},
                headers={"Authorization": f"Bearer {old}"},
            )
        assert acted.status_code == 403
        refused = Player(running, match_id, old)
        with pytest.raises(AssertionError, match=r"server\.bad_token"):
            refused.connect()
        refused.close()
        if after is not None:
            # the account's session gets the seat anew, with a token that works
            new = my_seat(after, match_id)["token"]
            assert new != old
            assert _view_status(running, match_id, new) == 200
            with_new = Player(running, match_id, new).connect()
            assert with_new.seat == 0
            with_new.close()
            if after is not member:
                after.close()
    finally:
        member.close()


def test_a_forged_forwarded_header_is_ignored_by_default(servers: Callable[..., Server]) -> None:
    # no --forwarded-allow-ips: every request's address is its connection's, whatever it says
    running = servers()
    signup(running, "forged").close()
    tries = [
        _log_in(running, "forged", WRONG, f"203.0.113.{n}").status_code
        for n in range(MAX_FAILURES + 1)
    ]
    assert tries == [401] * MAX_FAILURES + [429]


def test_password_checks_are_limited_in_all_whoever_asks(servers: Callable[..., Server]) -> None:
    # a flood of guesses from many addresses (here: ever new names) gets no more checks than
    # the process's rate: ten at once, then a refusal at once
    running = servers("--password-rate", "0.1")
    answers = [_log_in(running, f"many{n}", WRONG) for n in range(13)]
    assert [a.status_code for a in answers] == [401] * 10 + [503] * 3
    assert {_code(a) for a in answers[10:]} == {"account.busy"}
    # new accounts still come in: hashing a new password is not a check
    signup(running, "still-welcome").close()
