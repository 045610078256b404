"""Real servers and real clients for the server tests: ``keltis serve`` in a process of its
own (killable with SIGKILL), HTTP through httpx and the live protocol through websockets."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from keltis.core.actions import parse_action
from keltis.core.gamestate import GameState
from keltis.match import Match, Step
from keltis.record import GameRecord

#: How long a test waits for one expected message (a loaded CI machine is slow).
WAIT = 60.0
#: The test clients play as fast as the server answers, far beyond a person's pace: servers
#: under test allow them that (each rate limit has its own test).
FAST_CLIENTS = (
    "--rate",
    "1000",
    "--login-rate",
    "6000",
    "--signup-rate",
    "6000",
    "--seek-rate",
    "6000",
    "--password-rate",
    "1000",
)
#: The tests choose their deals by seed (reproducible games), which a server refuses without
#: --allow-setup: servers that create seeded matches are started with it.
SEEDED = ("--allow-setup",)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m keltis serve`` on a free port, its output collected in :attr:`log`."""

    def __init__(
        self, database: str, *options: str, port: int | None = None, files: int | None = None
    ) -> None:
        self.database = database
        self.options = list(options)
        self.port = port or free_port()
        self.files = files
        """The process's open-file limit (``ulimit -n``), if not this process's."""
        self.log: list[str] = []
        self._logged = threading.Condition()
        self.process: subprocess.Popen[str] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, match_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/api/matches/{match_id}/live"

    def start(self) -> Server:
        command = [
            sys.executable,
            "-m",
            "keltis",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.database,
            "--bot-delay",
            "0",
            "--bot-workers",
            "1",
            *self.options,
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            start_new_session=True,  # its own process group: SIGKILL takes its workers too
            preexec_fn=None if self.files is None else self._limit_files,
        )
        ready: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(ready,), daemon=True).start()
        deadline = time.monotonic() + WAIT
        while True:
            try:
                line = ready.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                self.kill()
                raise RuntimeError("the server did not start:\n" + "".join(self.log))
            if "Keltis is ready:" in line:
                return self

    def _limit_files(self) -> None:
        import resource

        assert self.files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.files, self.files))

    def _read(self, ready: queue.Queue[str | None]) -> None:
        assert self.process is not None
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._logged:
                self.log.append(line)
                self._logged.notify_all()
            ready.put(line)
        ready.put(None)

    def logged(self, text: str, timeout: float = WAIT) -> str:
        """The server's log once a line holding ``text`` is in it (an access line is written
        after its answer went out, so a test may see the answer first)."""
        with self._logged:
            self._logged.wait_for(lambda: any(text in line for line in self.log), timeout)
            return "".join(self.log)

    def kill(self) -> None:
        """SIGKILL to the server and its worker processes: no clean-up of any kind."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=WAIT)

    def stop(self) -> None:
        """A clean stop (SIGINT, like Ctrl-C)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.kill()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=WAIT)


def engine_history(record: GameRecord) -> tuple[list[GameState], list[Step | None]]:
    """The engine's own positions after each ply of ``record`` (0 … all) and the step that
    led to each (``None`` before the first): what a server's answers are checked against."""
    state = record.new_state()
    states = [state.clone()]
    for notation in record.actions:
        state.apply(parse_action(notation))
        states.append(state.clone())
    match = Match(GameRecord.from_json({**record.to_json(), "actions": []}))
    steps: list[Step | None] = [None, *(match.replay_action(a) for a in record.actions)]
    return states, steps


def create(server: Server, **body: Any) -> dict[str, Any]:
    """POST /api/matches; the answer (asserting 201)."""
    with server.http() as http:
        response = http.post("/api/matches", json=body)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def join(server: Server, match_id: str, invite: str, name: str) -> dict[str, Any]:
    with server.http() as http:
        response = http.post(f"/api/matches/{match_id}/join", json={"invite": invite, "name": name})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def start(server: Server, match_id: str, host_token: str) -> dict[str, Any]:
    with server.http() as http:
        response = http.post(
            f"/api/matches/{match_id}/start", headers={"Authorization": f"Bearer {host_token}"}
        )
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


@dataclass
class Player:
    """One live connection: a seat (token) or a spectator (no token). Every message it
    receives is kept in :attr:`received`."""

    server: Server
    match_id: str
    token: str | None = None
    lang: str = "en"
    received: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    view: dict[str, Any] = field(default_factory=dict)
    version: int = 0
    result: Any = None
    seat: int | None = None
    socket: ClientConnection | None = None
    _connection: Any = None

    def connect(self) -> Player:
        self._connection = connect(self.server.ws(self.match_id), open_timeout=WAIT)
        self.socket = self._connection.__enter__()
        self.send({"type": "hello", "token": self.token, "lang": self.lang})
        snapshot = self.expect("snapshot")
        self.seat = snapshot["seat"]
        return self

    def close(self) -> None:
        if self.socket is not None:
            self._connection.__exit__(None, None, None)
            self.socket = None

    def send(self, message: dict[str, Any] | str) -> None:
        assert self.socket is not None
        self.socket.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        assert self.socket is not None
        text = self.socket.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        message: dict[str, Any] = json.loads(text)
        self.received.append(message)
        if message["type"] in ("snapshot", "step"):
            self.view = message["view"]
            self.version = message["version"]
            self.result = message.get("result")
        return message

    def expect(self, kind: str, timeout: float = WAIT) -> dict[str, Any]:
        """Read until a message of ``kind`` (skipping others); an error fails unless that is
        what was expected."""
        while True:
            message = self.recv(timeout)
            if message["type"] == kind:
                return message
            if message["type"] == "error":
                raise AssertionError(f"unexpected error: {message}")

    def expect_error(self, timeout: float = WAIT) -> dict[str, Any]:
        """Read until an error (skipping other messages)."""
        while True:
            message = self.recv(timeout)
            if message["type"] == "error":
                return message

    @property
    def my_turn(self) -> bool:
        return bool(self.view.get("legal")) and self.result is None

    def act(self, action: str | int, ref: Any = None) -> None:
        self.send({"type": "act", "version": self.version, "action": action, "ref": ref})

    def play(self, rng: random.Random, stop_at: int | None = None) -> int:
        """Play random legal actions whenever it is this seat's turn, until the game ends
        (or the version reaches ``stop_at``); returns the actions sent."""
        sent = 0
        while self.result is None and (stop_at is None or self.version < stop_at):
            if self.my_turn:
                choice = rng.choice(self.view["legal"])
                self.act(choice["index"], ref=sent)
                sent += 1
                while True:
                    message = self.recv()
                    if message["type"] == "error":
                        raise AssertionError(f"refused: {message}")
                    if message["type"] == "ack" and message.get("ref") == sent - 1:
                        break
            else:
                message = self.recv()
                if message["type"] == "error":
                    raise AssertionError(f"unexpected error: {message}")
        return sent

    def steps(self) -> list[dict[str, Any]]:
        return [m for m in self.received if m["type"] == "step"]


@contextlib.contextmanager
def player(
    server: Server, match_id: str, token: str | None = None, lang: str = "en"
) -> Iterator[Player]:
    p = Player(server, match_id, token, lang).connect()
    try:
        yield p
    finally:
        p.close()


def play_together(*players: Player) -> None:
    """Each player plays random legal actions (seeded by its place) in a thread of its own
    until the game ends; a failure in any thread fails the caller."""
    errors: list[BaseException] = []

    def run(p: Player, seed: int) -> None:
        try:
            p.play(random.Random(seed))
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(p, n)) for n, p in enumerate(players)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
