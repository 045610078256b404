"""Chat in a match (docs/server.md, "Chat"), against real ``keltis serve`` processes on SQLite
and PostgreSQL: the players' and the spectators' channels never reach each other's clients,
guests cannot chat, the text's limits, the rate limit, the history per channel with the
reader's mutes left out, a suspended account's messages hidden; on PostgreSQL a message
stored through one process reaches the clients of the match on another."""

from __future__ import annotations

import contextlib
import json
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from keltis.i18n import Translator
from keltis.wire import schema, validate

from .characters import ACCEPTED, REFUSED
from .harness import WAIT, Player, Server, create, join, start
from .people import Member, signup

#: The session cookie's name (docs/server.md, "Accounts and sessions").
SESSION = "keltis_session"


# -- helpers -------------------------------------------------------------------------------


def sign_up(server: Server, prefix: str) -> Member:
    """A new account (its name ``prefix`` and a random tail), logged in."""
    return signup(server, f"{prefix}{secrets.token_hex(3)}")


def secret_of(member: Member) -> str:
    """The member's session cookie (its secret)."""
    secret = member.cookies.get(SESSION)
    assert secret, member.cookies
    return str(secret)


@dataclass
class Client(Player):
    """A live connection whose handshake may carry a session cookie (a logged-in
    spectator)."""

    cookie: str | None = None
    origin: str | None = None

    def connect(self) -> Client:
        headers = {"Cookie": f"{SESSION}={self.cookie}"} if self.cookie else {}
        if self.origin is not None:
            headers["Origin"] = self.origin
        self._connection = connect(
            self.server.ws(self.match_id), open_timeout=WAIT, additional_headers=headers
        )
        self.socket = self._connection.__enter__()
        self.send({"type": "hello", "token": self.token, "lang": self.lang})
        self.seat = self.expect("snapshot")["seat"]
        return self

    def say(self, text: Any) -> dict[str, Any]:
        """Send a chat message; the answer to it (``ack`` or ``error``)."""
        ref = secrets.token_hex(4)
        message = {"type": "chat", "text": text, "ref": ref}
        _client_chat_validates(message)
        self.send(message)
        while True:
            answer = self.recv()
            if answer.get("ref") == ref and answer["type"] in ("ack", "error"):
                return answer

    def settle(self) -> None:
        """Read every message queued for this client before a ping's answer."""
        ref = secrets.token_hex(4)
        self.send({"type": "ping", "ref": ref})
        while not (self.recv()["type"] == "pong" and self.received[-1].get("ref") == ref):
            pass

    def chats(self) -> list[dict[str, Any]]:
        return [m for m in self.received if m["type"] == "chat"]

    def wait_chat(self, text: str) -> dict[str, Any]:
        """Read until the chat message saying ``text`` (also if it came already)."""
        while True:
            for message in self.chats():
                if message["text"] == text:
                    return message
            self.recv()


def _client_chat_validates(message: dict[str, Any]) -> None:
    """The client's ``chat`` message as the schema describes it (``live``'s
    ``$defs/client_chat``)."""
    from jsonschema import Draft202012Validator

    if isinstance(message.get("text"), str):
        Draft202012Validator(schema("live")["$defs"]["client_chat"]).validate(message)


def two_seats(server: Server, invited: Member | None = None) -> tuple[str, str, str]:
    """A started match of two guest seats (Ann, the creator, and Bea, invited — or the
    account ``invited``, logged in): its id and the two seats' tokens."""
    made = create(
        server, game="board", seats=[{"kind": "person"}, {"kind": "person"}], seed=5, name="Ann"
    )
    match_id = made["id"]
    invite = made["invites"][0]["invite"]
    if invited is None:
        bea = join(server, match_id, invite, "Bea")
    else:
        answer = invited.post(
            f"/api/matches/{match_id}/join", json={"invite": invite, "name": "ignored"}
        )
        assert answer.status_code == 200, answer.text
        bea = answer.json()
    start(server, match_id, made["host_token"])
    return match_id, made["token"], bea["token"]


def post(
    server: Server,
    match_id: str,
    text: Any,
    token: str | None = None,
    member: Member | None = None,
) -> httpx.Response:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    with server.http() if member is None else _kept(member) as http:
        return http.post(f"/api/matches/{match_id}/chat", json={"text": text}, headers=headers)


def history(
    server: Server,
    match_id: str,
    token: str | None = None,
    member: Member | None = None,
    after: int = 0,
) -> httpx.Response:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    with server.http() if member is None else _kept(member) as http:
        return http.get(f"/api/matches/{match_id}/chat?after={after}", headers=headers)


@contextlib.contextmanager
def _kept(member: Member) -> Iterator[httpx.Client]:
    """The member's own client, left open."""
    yield member


def texts(answer: httpx.Response) -> list[str]:
    assert answer.status_code == 200, answer.text
    return [m["text"] for m in answer.json()["messages"]]


def admin(server: Server, *args: str) -> subprocess.CompletedProcess[str]:
    """``keltis admin`` on the server's database."""
    return subprocess.run(
        [sys.executable, "-m", "keltis", "admin", "--db", server.database, *args],
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=False,
    )


# -- the channels --------------------------------------------------------------------------


def test_each_channel_reaches_exactly_its_own_clients(server: Server) -> None:
    """Hidden information: the spectators' words never reach a seat's connection (not even
    the connection of a player who watches while logged in), the players' never reach a
    spectator, and a guest spectator hears neither. Every message is checked, raw text
    included."""
    bea_account = sign_up(server, "bea")
    match_id, ann_token, bea_token = two_seats(server, invited=bea_account)
    cy, dee = sign_up(server, "cy"), sign_up(server, "dee")
    ann = Client(server, match_id, ann_token).connect()
    bea = Client(server, match_id, bea_token).connect()
    cy_p = Client(server, match_id, cookie=secret_of(cy)).connect()
    dee_p = Client(server, match_id, cookie=secret_of(dee)).connect()
    guest = Client(server, match_id).connect()
    # Bea's account plays a seat: watching with her session, she is still a player
    bea_watching = Client(server, match_id, cookie=secret_of(bea_account)).connect()
    everyone = [ann, bea, cy_p, dee_p, guest, bea_watching]

    players_said = ["players-1 open with green", "players-2 good luck"]
    spectators_said = ["spectators-1 Ann holds the red 7", "spectators-2 Bea should pass"]
    assert ann.say(players_said[0])["type"] == "ack"
    answer = post(server, match_id, players_said[1], token=bea_token)
    assert answer.status_code == 201, answer.text
    assert cy_p.say(spectators_said[0])["type"] == "ack"
    answer = post(server, match_id, spectators_said[1], member=dee)
    assert answer.status_code == 201, answer.text
    assert answer.json()["channel"] == "spectators"
    refused = bea_watching.say("from the stands")
    assert refused["type"] == "error", refused
    assert refused["code"] == "chat.seated"
    assert guest.say("hello?")["code"] == "chat.guest"
    for p in everyone:
        p.settle()

    for p in (ann, bea):
        assert [m["text"] for m in p.chats()] == players_said
        assert {m["channel"] for m in p.chats()} == {"players"}
    for p in (cy_p, dee_p):
        assert [m["text"] for m in p.chats()] == spectators_said
        assert {m["channel"] for m in p.chats()} == {"spectators"}
    assert guest.chats() == []
    assert bea_watching.chats() == []
    for p, forbidden in [
        (ann, spectators_said),
        (bea, spectators_said),
        (bea_watching, spectators_said),
        (cy_p, players_said),
        (dee_p, players_said),
        (guest, players_said + spectators_said),
    ]:
        raw = "\n".join(p.raw)
        assert not [t for t in forbidden if t in raw], (p.seat, forbidden)
        for message in p.received:
            validate("live", message)
    first = ann.chats()[0]
    assert first["seat"] == 0
    assert first["name"] == "Ann"
    assert first["account"] is None
    second = ann.chats()[1]
    assert second["seat"] == 1
    assert second["name"] == bea_account.name
    assert second["account"] == bea_account.name
    spoken = cy_p.chats()[0]
    assert spoken["seat"] is None
    assert spoken["name"] == spoken["account"] == cy.name

    # the history: each channel to its own readers, nobody else
    assert texts(history(server, match_id, token=ann_token)) == players_said
    assert texts(history(server, match_id, member=bea_account)) == players_said  # a player
    assert texts(history(server, match_id, member=cy)) == spectators_said
    nobody = history(server, match_id)
    assert nobody.status_code == 401
    assert nobody.json()["error"]["code"] == "chat.guest"
    for p in everyone:
        p.close()


def test_a_spectator_who_takes_a_seat_hears_the_spectators_no_more(server: Server) -> None:
    made = create(
        server, game="board", seats=[{"kind": "person"}, {"kind": "person"}], seed=5, name="Ann"
    )
    match_id = made["id"]
    mo, ned = sign_up(server, "mo"), sign_up(server, "ned")
    mo_watching = Client(server, match_id, cookie=secret_of(mo)).connect()
    ned_p = Client(server, match_id, cookie=secret_of(ned)).connect()
    assert ned_p.say("before")["type"] == "ack"
    mo_watching.wait_chat("before")
    invite = made["invites"][0]["invite"]
    taken = mo.post(f"/api/matches/{match_id}/join", json={"invite": invite, "name": "x"})
    assert taken.status_code == 200, taken.text
    start(server, match_id, made["host_token"])
    assert ned_p.say("after: play the red 7")["type"] == "ack"
    ned_p.wait_chat("after: play the red 7")
    mo_watching.settle()
    assert [m["text"] for m in mo_watching.chats()] == ["before"]
    assert mo_watching.say("from the stands")["code"] == "chat.seated"
    assert mo.get(f"/api/matches/{match_id}/chat").json()["channel"] == "players"
    for p in (mo_watching, ned_p):
        p.close()


def test_a_guest_cannot_chat_and_the_text_is_checked(server: Server) -> None:
    match_id, ann_token, _ = two_seats(server)
    watcher = Client(server, match_id).connect()
    assert watcher.say("let me in")["code"] == "chat.guest"
    refused = post(server, match_id, "let me in")
    assert refused.status_code == 401, refused.text
    assert refused.json()["error"]["code"] == "chat.guest"
    # a page of another site may open a connection with the cookie: it is no session there
    olga = sign_up(server, "olga")
    elsewhere = Client(server, match_id, cookie=secret_of(olga), origin="https://evil.example")
    assert elsewhere.connect().say("hi from elsewhere")["code"] == "chat.guest"
    here = Client(server, match_id, cookie=secret_of(olga), origin=server.base).connect()
    assert here.say("hi from here")["type"] == "ack"
    for p in (elsewhere, here):
        p.close()
    wrong = post(server, match_id, "hi", token="not-a-seat-token")
    assert wrong.status_code == 403
    assert wrong.json()["error"]["code"] == "server.bad_token"

    ann = Client(server, match_id, ann_token).connect()
    for text, code in [
        ("", "chat.empty"),
        ("   \t ", "chat.empty"),
        ("x" * 301, "chat.too_long"),
        ("two\nlines", "chat.control"),
        ("nul\x00", "chat.control"),
        ("bell\x07", "chat.control"),
    ]:
        answer = ann.say(text)
        assert answer["type"] == "error", (text, answer)
        assert answer["code"] == code, (text, answer)
        assert answer["message"]
        by_http = post(server, match_id, text, token=ann_token)
        assert by_http.status_code == 400, by_http.text
        assert by_http.json()["error"]["code"] == code
    for not_text in (None, 7, ["a"]):
        answer = ann.say(not_text)
        assert answer["code"] == "server.bad_field", answer
    assert post(server, match_id, 7, token=ann_token).status_code == 400
    # trimmed: 300 characters between spaces are fine, and stored trimmed
    long = "é" * 300
    assert ann.say(f"  {long}  ")["type"] == "ack"
    assert ann.wait_chat(long)["text"] == long
    # plain text: stored and sent as it is, markup included
    markup = "<b>bold</b> & <script>alert(1)</script>"
    assert ann.say(markup)["type"] == "ack"
    assert ann.wait_chat(markup)["text"] == markup
    for p in (watcher, ann):
        p.close()


def test_chat_refuses_separators_and_invisible_formatting(server: Server) -> None:
    """A chat message is one line, shown as it is written: line and paragraph separators,
    bidirectional controls (a right-to-left override shows "evil" as "live") and zero-width
    characters are refused as control characters are — the same check as names' — over the
    WebSocket and over HTTP alike; letters of every script pass unchanged."""
    match_id, ann_token, _bea_token = two_seats(server)
    ann = Client(server, match_id, ann_token, lang="hu").connect()
    worded = Translator("hu")("chat.control")
    for kind, char in REFUSED.items():
        text = f"ev{char}il"
        answer = ann.say(text)
        assert answer["type"] == "error", (kind, answer)
        assert answer["code"] == "chat.control", (kind, answer)
        assert answer["message"] == worded
        by_http = post(server, match_id, text, token=ann_token)
        assert by_http.status_code == 400, (kind, by_http.text)
        assert by_http.json()["error"]["code"] == "chat.control", kind
    text = " ".join(ACCEPTED)
    assert ann.say(text)["type"] == "ack"
    assert ann.wait_chat(text)["text"] == text
    stored = history(server, match_id, token=ann_token)
    assert texts(stored) == [text]
    ann.close()


def test_a_seat_chats_at_most_one_message_a_second_after_five(server: Server) -> None:
    match_id, ann_token, bea_token = two_seats(server)
    ann = Client(server, match_id, ann_token).connect()
    began = time.monotonic()
    for n in range(10):  # all at once, then the answers
        ann.send({"type": "chat", "text": f"spam {n}", "ref": n})
    answers: dict[int, dict[str, Any]] = {}
    while len(answers) < 10:
        message = ann.recv()
        if message["type"] in ("ack", "error"):
            answers[message["ref"]] = message
    elapsed = time.monotonic() - began
    accepted = [n for n, a in answers.items() if a["type"] == "ack"]
    refused = [a for a in answers.values() if a["type"] == "error"]
    assert 5 <= len(accepted) <= 5 + elapsed + 1, (accepted, elapsed)
    assert refused
    assert {a["code"] for a in refused} == {"chat.rate_limited"}
    # over HTTP too (the same seat's bucket): refused with 429
    limited = post(server, match_id, "more", token=ann_token)
    assert limited.status_code == 429, limited.text
    assert limited.json()["error"]["code"] == "chat.rate_limited"
    # another seat has its own
    assert post(server, match_id, "mine", token=bea_token).status_code == 201
    time.sleep(1.2)
    assert post(server, match_id, "later", token=ann_token).status_code == 201
    ann.close()


def test_the_history_is_the_channel_s_newest_after_an_id(server: Server) -> None:
    match_id, ann_token, bea_token = two_seats(server)
    eve = sign_up(server, "eve")
    said = []
    for n in range(4):
        token = ann_token if n % 2 == 0 else bea_token
        answer = post(server, match_id, f"move {n}", token=token)
        assert answer.status_code == 201, answer.text
        said.append(answer.json())
    assert post(server, match_id, "watching", member=eve).status_code == 201
    ids = [m["id"] for m in said]
    assert ids == sorted(ids)
    got = history(server, match_id, token=bea_token).json()
    assert got["channel"] == "players"
    assert got["messages"] == said
    assert texts(history(server, match_id, token=ann_token, after=ids[1])) == ["move 2", "move 3"]
    assert texts(history(server, match_id, token=ann_token, after=ids[3])) == []
    assert texts(history(server, match_id, member=eve)) == ["watching"]
    bad = history(server, match_id, token=ann_token, after=-1)
    assert bad.status_code == 400
    missing = history(server, "nosuchmatch", token=ann_token)
    assert missing.status_code == 404


def test_the_history_leaves_out_whom_the_reader_muted(server: Server) -> None:
    match_id, _, _ = two_seats(server)
    fay, gus, hal = sign_up(server, "fay"), sign_up(server, "gus"), sign_up(server, "hal")
    hal_p = Client(server, match_id, cookie=secret_of(hal)).connect()
    muted = hal.post("/api/me/mutes", json={"name": gus.name})
    assert muted.status_code in (200, 204), muted.text
    for member, text in [(fay, "from fay"), (gus, "from gus"), (fay, "fay again")]:
        assert post(server, match_id, text, member=member).status_code == 201
    assert texts(history(server, match_id, member=hal)) == ["from fay", "fay again"]
    assert texts(history(server, match_id, member=fay)) == ["from fay", "from gus", "fay again"]
    # live, the message names its account: the client leaves the muted one out
    hal_p.wait_chat("fay again")
    assert [(m["account"], m["text"]) for m in hal_p.chats()] == [
        (fay.name, "from fay"),
        (gus.name, "from gus"),
        (fay.name, "fay again"),
    ]
    hal_p.close()


def test_a_suspended_account_s_messages_are_hidden(server: Server) -> None:
    match_id, ann_token, _ = two_seats(server)
    ivy, jo = sign_up(server, "ivy"), sign_up(server, "jo")
    ivy_p = Client(server, match_id, cookie=secret_of(ivy)).connect()
    jo_p = Client(server, match_id, cookie=secret_of(jo)).connect()
    assert ivy_p.say("before")["type"] == "ack"
    jo_p.wait_chat("before")
    done = admin(server, "suspend", ivy.name, "--reason", "spam")
    assert done.returncode == 0, done.stderr
    assert texts(history(server, match_id, member=jo)) == []
    # its session ended; a connection it still holds is heard by nobody
    assert post(server, match_id, "after", member=ivy).status_code == 401
    assert ivy_p.say("still here")["type"] == "ack"
    assert jo_p.say("jo speaks")["type"] == "ack"
    jo_p.wait_chat("jo speaks")
    ivy_p.settle()
    assert [m["text"] for m in jo_p.chats()] == ["before", "jo speaks"]
    assert "still here" not in [m["text"] for m in ivy_p.chats()]
    assert texts(history(server, match_id, member=jo)) == ["jo speaks"]
    assert texts(history(server, match_id, token=ann_token)) == []
    # lifted: its words are shown again (kept with the match)
    assert admin(server, "unsuspend", ivy.name).returncode == 0
    assert texts(history(server, match_id, member=jo)) == ["before", "still here", "jo speaks"]
    for p in (ivy_p, jo_p):
        p.close()


# -- more than one process -----------------------------------------------------------------


@pytest.mark.postgres
def test_a_message_reaches_the_match_s_clients_on_every_process(
    two_servers: tuple[Server, Server],
) -> None:
    a, b = two_servers
    match_id, ann_token, bea_token = two_seats(a)
    kim, lou = sign_up(a, "kim"), sign_up(b, "lou")
    ann = Client(a, match_id, ann_token).connect()
    bea = Client(b, match_id, bea_token).connect()
    kim_p = Client(a, match_id, cookie=secret_of(kim)).connect()
    lou_p = Client(b, match_id, cookie=secret_of(lou)).connect()

    assert ann.say("from A, players")["type"] == "ack"
    assert bea.wait_chat("from A, players")["seat"] == 0
    assert post(b, match_id, "through B, players", token=bea_token).status_code == 201
    assert ann.wait_chat("through B, players")["seat"] == 1
    assert lou_p.say("from B, spectators")["type"] == "ack"
    assert kim_p.wait_chat("from B, spectators")["name"] == lou.name
    assert post(a, match_id, "through A, spectators", member=kim).status_code == 201
    assert lou_p.wait_chat("through A, spectators")["name"] == kim.name

    # many at once from both sides (each seat's burst: 5 with the one above): every client
    # gets every message of its channel once, in the order of the ids
    answers: list[dict[str, Any]] = []

    def burst(p: Client, tag: str) -> None:
        answers.extend(p.say(f"{tag} {n}") for n in range(4))

    threads = [threading.Thread(target=burst, args=(p, t)) for p, t in [(ann, "a"), (bea, "b")]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [a["type"] for a in answers] == ["ack"] * 8, answers
    for p in (ann, bea):
        for tag in ("a", "b"):
            p.wait_chat(f"{tag} 3")
    time.sleep(0.5)
    for p in (ann, bea, kim_p, lou_p):
        p.settle()
    for p in (ann, bea):
        ids = [m["id"] for m in p.chats()]
        assert ids == sorted(set(ids)), ids
        assert len(ids) == 10, ids
        assert {m["channel"] for m in p.chats()} == {"players"}
    for p in (kim_p, lou_p):
        assert [m["text"] for m in p.chats()] == ["from B, spectators", "through A, spectators"]
    assert json.dumps(history(a, match_id, token=ann_token).json()) == json.dumps(
        history(b, match_id, token=bea_token).json()
    )
    for p in (ann, bea, kim_p, lou_p):
        p.close()
