"""What an outside audit of ``keltis serve`` found at its edges, each defect as a test against
a real server process, on SQLite and on PostgreSQL (docs/server.md, "Threat model")."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import random
import resource
import socket
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from keltis.record import GameRecord

from .harness import SEEDED, WAIT, Player, Server, create, join, play_together, player, start

PERSON = {"kind": "person"}
RANDOM_BOT = {"kind": "bot", "level": "random"}
#: A board game for two with four cards left to draw: a few turns long.
SHORT_BOARD = {
    "hands": [
        ["G0", "G1", "G2", "Y3", "Y4", "R5", "P6", "B7"],
        ["G10", "G9", "Y8", "Y7", "R6", "R5", "B4", "B3"],
    ],
    "deck": ["P1", "P2", "P3", "P4"],
}


def rss_mb(pid: int) -> float:
    """A process's resident memory (MB), from /proc."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def ws_from(
    server: Server, match_id: str, source: str = "127.0.0.1", lang: str = "en"
) -> ClientConnection:
    """A live connection from the loopback address ``source`` (no hello sent yet)."""
    sock = socket.create_connection(("127.0.0.1", server.port), source_address=(source, 0))
    connection = connect(
        server.ws(match_id),
        sock=sock,
        open_timeout=WAIT,
        additional_headers={"Accept-Language": lang},
    )
    return connection.__enter__()  # as the harness's players do: closed by close() or with


def upgraded(server: Server, match_id: str, source: str) -> socket.socket | None:
    """A bare socket upgraded to a live WebSocket that will never say anything (``None``:
    the upgrade was refused)."""
    sock = socket.create_connection(("127.0.0.1", server.port), source_address=(source, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /api/matches/{match_id}/live HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    sock.settimeout(WAIT)
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, head
        head += chunk
    if head.startswith(b"HTTP/1.1 429"):
        sock.close()
        return None
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def reply(ws: ClientConnection) -> dict[str, Any]:
    """The next answer to a request (skipping news of the match: steps, seats)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=WAIT))
        if message["type"] not in ("step", "match", "snapshot"):
            return message


def hello(ws: ClientConnection, token: str | None = None) -> dict[str, Any]:
    ws.send(json.dumps({"type": "hello", "token": token}))
    message: dict[str, Any] = json.loads(ws.recv(timeout=WAIT))
    return message


def closed_code(ws: ClientConnection) -> int | None:
    """Read until the server closes; the close code."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            ws.recv(timeout=WAIT)
    assert ws.protocol.close_rcvd is not None
    return ws.protocol.close_rcvd.code


def no_traceback(server: Server) -> None:
    log = "".join(server.log)
    assert "Traceback" not in log, log[-3000:]


def bot_match(server: Server, game: str = "cards") -> dict[str, Any]:
    return create(server, game=game, seats=[PERSON, RANDOM_BOT])


# -- 1. a client-chosen seed would reveal every hand -----------------------------------------


@pytest.mark.slow
def test_a_client_cannot_choose_the_deal(servers: Callable[..., Server]) -> None:
    server = servers()
    with server.http() as http:
        seeded = http.post(
            "/api/matches",
            json={"seats": [PERSON, RANDOM_BOT], "seed": 7},
            headers={"Accept-Language": "de"},
        )
        assert seeded.status_code == 403
        assert seeded.json()["error"]["code"] == "server.no_seed"
        assert "--allow-setup" in seeded.json()["error"]["message"]
        set_up = http.post("/api/matches", json={"seats": [PERSON, RANDOM_BOT], "setup": {}})
        assert set_up.status_code == 403
        assert set_up.json()["error"]["code"] == "server.no_setup"
    # two matches made alike get different deals and different bot seeds
    records = []
    for _ in range(2):
        made = create(server, game="board", seats=[RANDOM_BOT, RANDOM_BOT], seat=None)
        with player(server, made["id"]) as watcher:
            while watcher.result is None:
                watcher.recv()
        with server.http() as http:
            records.append(http.get(f"/api/matches/{made['id']}/record").json())
    assert records[0]["setup"]["seed"] != records[1]["setup"]["seed"]
    assert records[0]["meta"]["bot_seeds"] != records[1]["meta"]["bot_seeds"]


def test_explicit_set_ups_get_secret_bot_seeds(servers: Callable[..., Server]) -> None:
    server = servers(*SEEDED)
    seeds = []
    for _ in range(2):
        made = create(
            server, game="board", seats=[RANDOM_BOT, RANDOM_BOT], seat=None, setup=SHORT_BOARD
        )
        with player(server, made["id"]) as watcher:
            while watcher.result is None:
                watcher.recv()
        with server.http() as http:
            seeds.append(http.get(f"/api/matches/{made['id']}/record").json()["meta"]["bot_seeds"])
    assert seeds[0] != seeds[1]


# -- 2. a chunked body is held to the limit --------------------------------------------------


def test_a_chunked_body_is_refused_at_the_limit(server: Server) -> None:
    assert server.process is not None
    before = rss_mb(server.process.pid)
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.sendall(
        b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b" " * (1 << 20)
    sent = 0
    with contextlib.suppress(OSError):  # the server answers and closes long before the end
        while sent < 300 << 20:
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sent += len(chunk)
    sock.settimeout(WAIT)
    head = sock.recv(4096)
    sock.close()
    assert head.startswith(b"HTTP/1.1 413"), head[:200]
    body = json.loads(head.split(b"\r\n\r\n", 1)[1])
    assert body["error"]["code"] == "server.too_big"
    assert rss_mb(server.process.pid) - before < 50
    # a chunked body within the limit is read as any other
    with server.http() as http:
        pieces = iter([json.dumps({"seats": [PERSON, RANDOM_BOT]}).encode()])
        made = http.post(
            "/api/matches", content=pieces, headers={"Content-Type": "application/json"}
        )
        assert made.status_code == 201, made.text
        assert http.get("/api/health").status_code == 200


# -- 3. idle and crowding connections --------------------------------------------------------


def test_a_connection_that_says_no_hello_is_closed(servers: Callable[..., Server]) -> None:
    server = servers("--hello-timeout", "0.5")
    made = bot_match(server)
    with ws_from(server, made["id"], lang="de") as idle:
        error = json.loads(idle.recv(timeout=WAIT))
        assert error["code"] == "server.hello_late"
        assert "0" in error["message"] or "1" in error["message"]
        assert closed_code(idle) == 1008
    # one who says hello in time stays
    with ws_from(server, made["id"]) as quick:
        assert hello(quick, made["token"])["type"] == "snapshot"


def test_connections_are_capped_per_address_and_in_all(servers: Callable[..., Server]) -> None:
    server = servers("--max-connections-per-address", "2", "--max-connections", "3")
    made = bot_match(server)
    first = [ws_from(server, made["id"], "127.0.0.2") for _ in range(2)]
    for ws in first:
        assert hello(ws)["type"] == "snapshot"
    with pytest.raises(InvalidStatus) as third:
        ws_from(server, made["id"], "127.0.0.2", lang="de")
    refused = third.value.response
    assert refused.status_code == 429
    assert json.loads(refused.body)["error"]["code"] == "server.too_many_connections"
    assert "Verbindungen" in json.loads(refused.body)["error"]["message"]
    other = ws_from(server, made["id"], "127.0.0.3")
    assert hello(other)["type"] == "snapshot"
    with pytest.raises(InvalidStatus) as fourth:
        ws_from(server, made["id"], "127.0.0.4")
    assert fourth.value.response.status_code == 503
    assert json.loads(fourth.value.response.body)["error"]["code"] == "server.busy"
    # a connection that ends frees its place: as soon as the server has seen it end (the
    # client's close returns when the closing handshake is done, a moment before that)
    first.pop().close()
    with reconnect_when_freed(server, made["id"], "127.0.0.2") as again:
        assert hello(again)["type"] == "snapshot"
    for ws in [*first, other]:
        ws.close()


def reconnect_when_freed(server: Server, match_id: str, address: str) -> ClientConnection:
    """A connection from ``address``, tried again while the server still counts a closed one
    (429) for up to ten seconds."""
    deadline = time.monotonic() + 10
    while True:
        try:
            return ws_from(server, match_id, address)
        except InvalidStatus as refused:
            if refused.response.status_code != 429 or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@pytest.fixture
def many_files() -> Iterator[None]:
    """This test process may hold well over a thousand sockets."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4096:
        if hard != resource.RLIM_INFINITY and hard < 4096:
            pytest.skip(f"this process may open only {hard} files")
        resource.setrlimit(resource.RLIMIT_NOFILE, (4096, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.mark.slow
@pytest.mark.usefixtures("many_files")
def test_a_player_plays_while_1100_idle_connections_press(
    servers: Callable[..., Server],
) -> None:
    """1,100 upgraded connections that never say hello, all from one address, against a
    server whose open-file limit is 1,024: the per-address cap keeps 64 of them, and a
    player from another address still creates and plays a whole match."""
    server = servers("--hello-timeout", "120", files=1024)
    target = bot_match(server)
    tries = [upgraded(server, target["id"], "127.0.0.2") for _ in range(1100)]
    idle = [sock for sock in tries if sock is not None]
    assert len(idle) == 64
    try:
        made = bot_match(server)
        with player(server, made["id"], made["token"]) as me:
            me.play(random.Random(5))
            assert me.result is not None
        with server.http() as http:
            assert http.get("/api/health").status_code == 200
        held = 0
        for sock in idle:
            sock.setblocking(False)
            try:
                sock.recv(1)
            except BlockingIOError:
                held += 1  # open, and nothing said to it
        assert held == 64
    finally:
        for sock in idle:
            sock.close()


# -- 4. NUL bytes and control characters -----------------------------------------------------


def test_control_characters_in_names_and_ids_are_refused(server: Server) -> None:
    made = create(server, seats=[PERSON, PERSON])
    with server.http() as http:
        for name in ["a\x00b", "tab\there", "   ", "x" * 41]:
            bad = http.post(
                "/api/matches",
                json={"seats": [PERSON, RANDOM_BOT], "name": name},
                headers={"Accept-Language": "de"},
            )
            assert bad.status_code == 400, name
            assert bad.json()["error"]["code"] == "server.bad_name"
        bot_name = http.post(
            "/api/matches", json={"seats": [PERSON, {**RANDOM_BOT, "name": "R\x00bot"}]}
        )
        assert bot_name.json()["error"]["code"] == "server.bad_name"
        invite = made["invites"][0]["invite"]
        joined = http.post(
            f"/api/matches/{made['id']}/join", json={"invite": invite, "name": "B\x00ea"}
        )
        assert joined.status_code == 400
        assert joined.json()["error"]["code"] == "server.bad_name"
        # the invite is still good
        assert join(server, made["id"], invite, "Bea")["seat"] == 1
        # an id no id could be is refused before anything is looked up (test_input.py has
        # every route); one that could be but names nothing is no match
        for path in ["", "/record", "/replay", "/view"]:
            answer = http.get(f"/api/matches/a%00b{path}")
            assert answer.status_code == 400, path
            assert answer.json()["error"]["code"] == "server.bad_request"
            assert http.get(f"/api/matches/a%20b{path}").status_code == 404, path
        for path in ["/join", "/actions", "/start"]:
            answer = http.post(
                f"/api/matches/a%00b{path}",
                json={"invite": "x", "action": "pass", "version": 0},
                headers={"Authorization": "Bearer x"},
            )
            assert answer.status_code == 400, path
            assert answer.json()["error"]["code"] == "server.bad_request"
    with ws_from(server, "a%00b") as ws:
        assert hello(ws)["code"] == "server.no_match"
    no_traceback(server)


# -- 5. and 6. deep nesting and lone surrogates ----------------------------------------------


def test_deep_nesting_and_lone_surrogates_are_bad_messages(server: Server) -> None:
    made = bot_match(server)
    deep = '{"type":"ping","x":' + "[" * 1000 + "]" * 1000 + "}"
    with ws_from(server, made["id"], lang="de") as ws:
        ws.send(deep)
        error = json.loads(ws.recv(timeout=WAIT))
        assert error["code"] == "server.too_deep"
        assert "32" in error["message"]
        ws.send('{"type":"hello","token":"\\ud800"}')
        assert json.loads(ws.recv(timeout=WAIT))["code"] == "server.bad_text"
        ws.send('{"type":"ping","ref":"\\udc00"}')
        assert json.loads(ws.recv(timeout=WAIT))["code"] == "server.bad_text"
        ws.send('{"type":"\\ud800"}')
        assert json.loads(ws.recv(timeout=WAIT))["code"] == "server.bad_text"
        # the connection goes on as before
        assert hello(ws, made["token"])["type"] == "snapshot"
        ws.send(json.dumps({"type": "ping", "ref": "after"}))
        assert reply(ws) == {"type": "pong", "version": 0, "ref": "after"}
    with server.http() as http:
        for body, key in [
            (deep.encode(), "server.too_deep"),
            (b'{"seats":[{},{}],"name":"\\ud800"}', "server.bad_text"),
            (b'{"seats":[{},{}],"seed":NaN}', "server.bad_json"),
        ]:
            answer = http.post(
                "/api/matches", content=body, headers={"Content-Type": "application/json"}
            )
            assert answer.status_code == 400, body[:40]
            assert answer.json()["error"]["code"] == key
    no_traceback(server)


# -- 7. rate limits: every answer keeps its ref, nothing queued is lost ---------------------


def test_rate_limited_answers_carry_their_ref_and_a_flood_is_told_all(
    servers: Callable[..., Server],
) -> None:
    server = servers("--rate", "1")  # burst 2
    made = bot_match(server)
    with ws_from(server, made["id"]) as ws:
        assert hello(ws, made["token"])["type"] == "snapshot"
        for ref in range(5):
            ws.send(json.dumps({"type": "ping", "ref": ref}))
        told = [reply(ws) for _ in range(5)]
        assert [m["ref"] for m in told] == list(range(5))
        assert [m["type"] for m in told].count("error") >= 2
        assert all(m["code"] == "server.rate_limited" for m in told if m["type"] == "error")
    with ws_from(server, made["id"]) as ws:
        sent = 260
        for ref in range(sent):
            ws.send(json.dumps({"type": "ping", "ref": ref}))
        refs = []
        with contextlib.suppress(ConnectionClosed):
            while True:
                refs.append(reply(ws).get("ref"))
        assert ws.protocol.close_rcvd is not None
        assert ws.protocol.close_rcvd.code == 1008
        # every message read before the close was answered, in order, with its ref
        assert refs == list(range(len(refs)))
        assert 200 <= len(refs) < sent


# -- 8. the loser of a race is told its action was stale -------------------------------------


def fire(gate: threading.Barrier, p: Player, action: int, ref: str) -> None:
    gate.wait()
    p.act(action, ref=ref)


def test_the_losers_of_a_race_for_a_ply_are_stale(server: Server) -> None:
    made = create(server, game="cards", seats=[PERSON, RANDOM_BOT])
    connections = [Player(server, made["id"], made["token"]).connect() for _ in range(8)]
    try:
        for race in range(4):
            for p in connections:
                while not p.my_turn:
                    p.recv()
            version = connections[0].version
            assert all(p.version == version for p in connections)
            gate = threading.Barrier(len(connections))
            legal = connections[0].view["legal"]
            threads = [
                threading.Thread(
                    target=fire, args=(gate, p, legal[n % len(legal)]["index"], f"r{race}")
                )
                for n, p in enumerate(connections)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            outcomes = []
            for p in connections:
                while True:
                    m = p.recv()
                    if m.get("ref") == f"r{race}":
                        outcomes.append(m.get("code", m["type"]))
                        break
            assert sorted(outcomes) == ["ack"] + ["refuse.stale_action"] * 7, outcomes
    finally:
        for p in connections:
            p.close()


# -- 9. one error shape, one way to read types -----------------------------------------------


def test_every_error_has_the_documented_shape(server: Server) -> None:
    made = bot_match(server)
    auth = {"Authorization": f"Bearer {made['token']}"}

    def error(answer: httpx.Response, status: int, code: str) -> None:
        assert answer.status_code == status, answer.text
        body = answer.json()
        assert set(body) == {"error"}
        assert body["error"]["code"] == code
        assert isinstance(body["error"]["message"], str)
        assert body["error"]["message"]

    with server.http() as http:
        error(http.get("/api/nothing-here"), 404, "server.not_found")
        error(http.get("/nothing.txt"), 404, "server.not_found")
        error(http.post("/api/health"), 405, "server.bad_method")
        error(http.get("/api/catalogs/xx"), 404, "server.no_language")
        error(
            http.post("/api/matches", content=b"{", headers={"Content-Type": "application/json"}),
            400,
            "server.bad_json",
        )
        error(http.post("/api/matches", json={"seats": []}), 400, "server.bad_request")
        # the same types as on the WebSocket: no number in a string, no "yes" for true
        for field, value in [("hints", "yes"), ("public", "yes"), ("undo", 1), ("seat", "0")]:
            error(
                http.post("/api/matches", json={"seats": [PERSON, RANDOM_BOT], field: value}),
                400,
                "server.bad_request",
            )
        error(
            http.post(
                f"/api/matches/{made['id']}/actions",
                json={"action": "pass", "version": "0"},
                headers=auth,
            ),
            400,
            "server.bad_request",
        )
        error(http.get(f"/api/matches/{made['id']}/replay?ply=x"), 400, "server.bad_request")
    with ws_from(server, made["id"]) as ws:
        assert hello(ws, made["token"])["type"] == "snapshot"
        ws.send(json.dumps({"type": "act", "action": "pass", "version": "0", "ref": 1}))
        refused = reply(ws)
        assert (refused["code"], refused["ref"]) == ("server.bad_field", 1)
        for bad_ref in ['{"a": 1}', "[1]", str(10**300), "NaN", '"' + "r" * 65 + '"', "true"]:
            ws.send('{"type":"ping","ref":' + bad_ref + "}")
            refused = reply(ws)
            assert refused["type"] == "error", bad_ref
            assert refused["code"] in ("server.bad_field", "server.bad_json"), bad_ref
            assert "ref" not in refused
        for good_ref in ["r" * 64, -(2**53) + 1, 0, "ünï"]:
            ws.send(json.dumps({"type": "ping", "ref": good_ref}))
            assert reply(ws)["ref"] == good_ref


# -- 10. frames that are not UTF-8 ------------------------------------------------------------


def test_frames_that_are_not_utf8_are_one_log_line_each_connection(server: Server) -> None:
    from websockets.frames import Frame, Opcode

    made = bot_match(server)
    for _ in range(3):
        with ws_from(server, made["id"]) as ws:
            for _ in range(3):
                with contextlib.suppress(Exception):
                    ws.protocol.send_frame(Frame(Opcode.TEXT, b"\xff\xfe{}"))
                    ws.socket.sendall(b"".join(ws.protocol.data_to_send()))
            assert closed_code(ws) == 1007
    server.logged("not UTF-8")
    time.sleep(0.2)  # the three lines are written as the connections close
    lines = [line for line in server.log if "not UTF-8" in line]
    assert len(lines) == 3, lines
    no_traceback(server)
    with player(server, made["id"], made["token"]) as me:
        assert me.version == 0


def test_messages_go_out_uncompressed_below_the_threshold(server: Server) -> None:
    """permessage-deflate is agreed, the client's messages may be compressed, and the
    server sends its (short) messages uncompressed: the client reads them all the same."""
    from websockets.extensions.permessage_deflate import PerMessageDeflate
    from websockets.frames import Frame, Opcode

    from keltis.server.transport import COMPRESS_FROM, ShortPlainDeflate

    made = bot_match(server)
    with ws_from(server, made["id"]) as ws:
        (deflate,) = ws.protocol.extensions
        assert isinstance(deflate, PerMessageDeflate)
        compressed: list[bool] = []
        decode = deflate.decode

        def noted(frame: Frame, *, max_size: int | None = None) -> Frame:
            compressed.append(frame.rsv1)
            return decode(frame, max_size=max_size)

        deflate.decode = noted  # type: ignore[method-assign]
        snapshot = hello(ws, made["token"])
        assert snapshot["type"] == "snapshot"
        ws.send(json.dumps({"type": "ping", "ref": "p"}))  # compressed by the client
        assert reply(ws)["ref"] == "p"
        assert compressed
        assert not any(compressed)
    # what is long is still compressed, and a message's frames all go the same way
    short = ShortPlainDeflate(False, False, 12, 12, {"memLevel": 5})
    assert not short.encode(Frame(Opcode.TEXT, b"x" * 100)).rsv1
    assert short.encode(Frame(Opcode.TEXT, b"x" * COMPRESS_FROM)).rsv1
    first = short.encode(Frame(Opcode.TEXT, b"x" * 10, fin=False))
    rest = short.encode(Frame(Opcode.CONT, b"x" * 10))
    assert first.rsv1
    assert rest.data != b"x" * 10
    assert not short.encode(Frame(Opcode.PING, b"")).rsv1


# -- 11. the record names the players who joined ----------------------------------------------


def test_the_record_names_who_joined(server: Server) -> None:
    made = create(server, game="cards", seats=[PERSON, PERSON], name="Ann")
    bea = join(server, made["id"], made["invites"][0]["invite"], "Bea")
    start(server, made["id"], made["host_token"])
    with (
        player(server, made["id"], made["token"]) as ann,
        player(server, made["id"], bea["token"]) as bea_p,
    ):
        play_together(ann, bea_p)
    with server.http() as http:
        record = http.get(f"/api/matches/{made['id']}/record").json()
    assert [p["name"] for p in record["players"]] == ["Ann", "Bea"]
    assert GameRecord.from_json(record).players[1].name == "Bea"


# -- 12. links name the server's own address --------------------------------------------------


@pytest.mark.slow
def test_links_are_built_from_the_public_address(servers: Callable[..., Server]) -> None:
    plain = servers()
    with plain.http() as http:
        made = http.post(
            "/api/matches",
            json={"seats": [PERSON, PERSON]},
            headers={"Host": "evil.example"},
        ).json()
    assert made["invites"][0]["link"].startswith(f"http://127.0.0.1:{plain.port}/#/join/")
    assert made["watch"] == f"http://127.0.0.1:{plain.port}/#/watch/{made['id']}"
    public = servers("--public-url", "https://keltis.example.org/games/")
    with public.http() as http:
        made = http.post(
            "/api/matches", json={"seats": [PERSON, PERSON]}, headers={"Host": "evil.example"}
        ).json()
    assert made["invites"][0]["link"].startswith("https://keltis.example.org/games/#/join/")


# -- 13. the turn clock -----------------------------------------------------------------------


@pytest.mark.slow
def test_the_turn_clock_lets_a_late_player_s_seat_go_to_a_bot(
    servers: Callable[..., Server],
) -> None:
    server = servers()
    made = create(server, game="cards", seats=[PERSON, PERSON], name="Ann", turn_seconds=2)
    bea = join(server, made["id"], made["invites"][0]["invite"], "Bea")
    start(server, made["id"], made["host_token"])
    ann = Player(server, made["id"], made["token"]).connect()
    bea_p = Player(server, made["id"], bea["token"]).connect()
    watcher = Player(server, made["id"]).connect()
    try:
        for p in (ann, bea_p, watcher):
            clock = p.received[0]["match"]["clock"]
            assert (clock["seconds"], clock["seat"], clock["expired"]) == (2, 0, False)
            assert 0 < clock["remaining"] <= 2
        # Ann is here and has time: her seat stays hers
        bea_p.send({"type": "stand_in", "seat": 0, "ref": 1})
        assert bea_p.expect_error()["code"] == "server.not_away_or_late"
        # every step tells everyone whose clock runs: Ann's anew after each of her
        # decisions (a lay, then a draw), then Bea's
        while True:
            ann.act(ann.view["legal"][0]["index"], ref="a")
            ann.expect("ack")
            step = bea_p.expect("step")
            assert watcher.expect("step")["clock"] == step["clock"]
            assert step["clock"]["seat"] == bea_p.view["current_player"]
            if step["clock"]["seat"] == 1:
                break
        time.sleep(step["clock"]["remaining"] + 0.1)  # the clock itself is under test
        with server.http() as http:
            assert http.get(f"/api/matches/{made['id']}").json()["clock"]["expired"] is True
        # Bea is connected but out of time: Ann may hand her seat to a bot
        ann.send({"type": "stand_in", "seat": 1, "ref": 2})
        ann.expect("ack")
        snapshot = next(m for m in reversed(ann.received) if m["type"] == "snapshot")
        assert snapshot["match"]["seats"][1]["stand_in"] == "medium"
        while not ann.my_turn:  # the bot played for Bea
            ann.recv()
        bea_p.send({"type": "reclaim", "ref": 3})
        bea_p.expect("ack")
    finally:
        for p in (ann, bea_p, watcher):
            p.close()


def test_the_turn_clock_s_defaults_and_restarts(servers: Callable[..., Server]) -> None:
    server = servers()
    people = create(server, seats=[PERSON, PERSON])
    assert people["match"]["options"]["turn_seconds"] == 300
    alone = create(server, seats=[PERSON, RANDOM_BOT])
    assert alone["match"]["options"]["turn_seconds"] is None
    assert alone["match"]["clock"] is None
    none = create(server, seats=[PERSON, PERSON], turn_seconds=None)
    assert none["match"]["options"]["turn_seconds"] is None
    with server.http() as http:
        for bad in [0, -5, 10**9, "60", 1.5]:
            answer = http.post(
                "/api/matches", json={"seats": [PERSON, PERSON], "turn_seconds": bad}
            )
            assert answer.status_code == 400, bad
    bea = join(server, people["id"], people["invites"][0]["invite"], "Bea")
    start(server, people["id"], people["host_token"])
    with server.http() as http:
        clock = http.get(f"/api/matches/{people['id']}").json()["clock"]
    assert (clock["seat"], clock["seconds"]) == (0, 300)
    # the clock survives a restart: the same deadline
    server.kill()
    again = servers(port=server.port)
    with again.http() as http:
        after = http.get(f"/api/matches/{people['id']}").json()["clock"]
    assert datetime.fromisoformat(after["deadline"]) == datetime.fromisoformat(clock["deadline"])
    assert after["remaining"] <= clock["remaining"]
    assert bea["seat"] == 1
