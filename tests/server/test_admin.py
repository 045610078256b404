"""``keltis admin`` (docs/server.md, "Moderation"), run as a command against the database of
a running ``keltis serve`` (SQLite and PostgreSQL): listing accounts, resetting a password
(the old one and every session end), suspending (no log-in, chat hidden, sessions end) and
lifting it, the log of every action with the operating-system user who ran it, and clear
errors."""

from __future__ import annotations

import getpass
import subprocess
import sys
from collections.abc import Callable

import httpx

from .harness import SEEDED, WAIT, Server, create
from .people import PASSWORD, login, signup


def admin(database: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m keltis admin --db DATABASE ARGS…``."""
    return subprocess.run(
        [sys.executable, "-m", "keltis", "admin", "--db", database, *args],
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=False,
    )


def done(database: str, *args: str) -> str:
    """``keltis admin ARGS…``, which must succeed: its standard output."""
    run = admin(database, *args)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stderr == ""
    return run.stdout


def log_in(server: Server, name: str, password: str) -> httpx.Response:
    with server.http() as http:
        return http.post("/api/sessions", json={"name": name, "password": password})


def test_admin_lists_resets_suspends_and_logs(servers: Callable[..., Server]) -> None:
    server = servers(*SEEDED)
    database = server.database
    ann, bob = signup(server, "ann_admin"), signup(server, "Bob-admin", email="bob@example.org")

    # list: every account, or those whose name holds a text (any case), or the suspended
    listed = done(database, "list")
    assert listed.splitlines()[0].split() == ["name", "created", "e-mail", "state"]
    lines = {line.split()[0]: line for line in listed.splitlines()[1:]}
    assert set(lines) == {"ann_admin", "Bob-admin"}
    assert "bob@example.org" in lines["Bob-admin"]
    assert lines["ann_admin"].rstrip().endswith("active")
    assert [
        line.split()[0] for line in done(database, "list", "--name", "BOB").splitlines()[1:]
    ] == ["Bob-admin"]
    assert done(database, "list", "--name", "%").strip() == "No accounts."
    assert done(database, "list", "--suspended").strip() == "No accounts."

    # reset-password: a new password printed; the old one and every session end
    printed = done(database, "reset-password", "ANN_ADMIN")
    assert printed.startswith("New password of ann_admin: ")
    password = printed.split(": ", 1)[1].strip()
    assert len(password) >= 12
    assert ann.get("/api/sessions/current").status_code == 401
    old = log_in(server, "ann_admin", PASSWORD)
    assert old.status_code == 401
    assert old.json()["error"]["code"] == "account.bad_login"
    ann.close()
    ann = login(server, "ann_admin", password)
    assert ann.get("/api/sessions/current").status_code == 200

    # suspend: no log-in, the sessions end, the chat is hidden
    match_id = create(server, game="board", seats=[{"kind": "person"}, {"kind": "bot"}])["id"]
    assert bob.post(f"/api/matches/{match_id}/chat", json={"text": "buy gold"}).status_code == 201
    chat = f"/api/matches/{match_id}/chat"
    assert [m["text"] for m in ann.get(chat).json()["messages"]] == ["buy gold"]
    out = done(database, "suspend", "bob-admin", "--reason", "spam in chat")
    assert "Bob-admin" in out
    assert bob.get("/api/sessions/current").status_code == 401
    refused = log_in(server, "Bob-admin", PASSWORD)
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "account.suspended"
    assert ann.get(chat).json()["messages"] == []
    suspended = done(database, "list", "--suspended").splitlines()
    assert len(suspended) == 2
    assert suspended[1].startswith("Bob-admin")
    assert "suspended" in suspended[1]
    assert suspended[1].endswith(": spam in chat")
    again = admin(database, "suspend", "Bob-admin", "--reason", "twice")
    assert again.returncode == 1
    assert "suspended already" in again.stderr

    # unsuspend: log-in works again, the chat is shown again
    done(database, "unsuspend", "Bob-admin")
    assert log_in(server, "Bob-admin", PASSWORD).status_code == 200
    assert [m["text"] for m in ann.get(chat).json()["messages"]] == ["buy gold"]
    assert done(database, "list", "--suspended").strip() == "No accounts."
    not_suspended = admin(database, "unsuspend", "Bob-admin")
    assert not_suspended.returncode == 1
    assert not_suspended.stderr.strip() == "keltis admin: Bob-admin is not suspended"

    # the log: every action, newest first, with who did it
    logged = done(database, "log").splitlines()
    assert logged[0].split() == ["when", "who", "action", "account", "detail"]
    me = getpass.getuser()
    entries = [line.split(None, 6)[3:] for line in logged[1:]]  # date, time, "UTC" first
    assert [e[:3] for e in entries] == [
        [me, "unsuspend", "Bob-admin"],
        [me, "suspend", "Bob-admin"],
        [me, "reset-password", "ann_admin"],
    ]
    assert logged[2].endswith("spam in chat")
    assert len(done(database, "log", "--limit", "1").splitlines()) == 2
    ann.close()
    bob.close()


def test_admin_errors_are_one_line_and_a_status(servers: Callable[..., Server]) -> None:
    server = servers()
    database = server.database
    signup(server, "cat_admin").close()
    for args in (
        ("reset-password", "nobody"),
        ("suspend", "nobody", "--reason", "spam"),
        ("unsuspend", "nobody"),
    ):
        run = admin(database, *args)
        assert run.returncode == 1, run
        assert run.stdout == ""
        assert run.stderr.splitlines() == ["keltis admin: there is no account named 'nobody'"]
    for reason in ("", "   ", "x" * 201, "two\nlines"):
        run = admin(database, "suspend", "cat_admin", "--reason", reason)
        assert run.returncode == 1, run
        assert len(run.stderr.splitlines()) == 1
        assert "reason" in run.stderr
    assert done(database, "log").strip() == "Nothing has been done yet."
    bad = admin("not-a-url", "list")
    assert bad.returncode == 2
    assert len(bad.stderr.splitlines()) == 1
    missing = admin(database, "suspend", "cat_admin")  # --reason is required
    assert missing.returncode == 2
    assert "--reason" in missing.stderr
