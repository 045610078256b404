"""Load on the game server: accounts, many concurrent matches, an open lobby and its live
streams, with simulated clients on loopback (docs/server.md, "Load").

Starts ``keltis serve`` (SQLite in a temporary folder, or a fresh database on the PostgreSQL
server of ``--postgres URL``, dropped afterwards) and, before anything is measured, creates
``--accounts`` accounts through the API (``POST /api/accounts``, ``--setup-concurrency`` at
once: argon2 makes each one cost the server about a quarter of a second of CPU),
``--matches`` matches played by accounts — most between two accounts (rated), every
``--bot-every``-th an account against a medium bot — and ``--seeks`` open seeks, each of its
own account, that stay open all through the run. Then:

- every seat's client plays over its WebSocket (from its own loopback address, with its
  account's session cookie): when it is its turn it thinks ``--think`` seconds
  (exponentially distributed around it), sends a random legal action and measures the round
  trip until the server acknowledges it (stored, and every client of the match told);
- ``--lobby-watchers`` clients hold ``GET /api/lobby/events`` open (each from its own
  address) and note when each change to the open seeks reaches them;
- ``--churners`` other accounts change the lobby about ``--churn`` times a second: open a
  seek, cancel it, join one (the last place starts its match), take a place in a held seek
  for three or four and leave it again; the lag of a change is the time from its request's
  answer to the event (``seek`` or ``gone``) that shows it, at each watcher (negative: the
  event came first);
- ``--pool-players`` other accounts look for a person to play now (``POST /api/pool``, the
  default pool: the board game, two players, rated), one about every ``1/--pool-rate``
  seconds, each asking ``GET /api/pool`` every 2 s as the waiting page does until it is
  paired into a match (nobody plays those: their clocks run), then joining again later;
  the JSON says how long they waited and how the pool's requests were answered;
- ``--tournament-players`` other accounts play a Swiss tournament (docs/server.md,
  "Tournaments"; the card game, two at a table, ``--tournament-rounds`` rounds) that starts
  just before the run: their clients play its matches as the others', each round's as it
  starts, and one of them reads the tournament (``GET /api/tournaments/{id}``) every 2 s as
  its page would; the JSON says how far it got and how fast those reads were answered;
- every account in play (players, seekers, churners) asks for its matches
  (``GET /api/me/matches``) every ``--badge-every`` seconds, spread out, as the turn badge
  of each page does;
- with ``--flood ROUTE``, one more account sends wrong passwords to a route that checks one
  (``password``: ``POST /api/me/password``, ``delete``: ``DELETE /api/me``, from one
  address under the server's own ``--login-rate``; ``login``: a new unknown name each time,
  with no limit per address, as many addresses at once would), ``--flood-at-once`` requests
  in flight all through the counted window (``--flood-rate``: at most that many requests a
  second in all, sent on a fixed schedule: a flood the server must bound while the machine
  that sends it still leaves the server its cores), and the answers are counted by status.

The first ``--warmup`` seconds, while every client connects and gets its first snapshot,
are not counted. After ``--seconds`` more it prints one JSON object: matches held,
connections, actions per second, action round trips p50/p90/p99/max in milliseconds, slow
round trips by second, refusals; the accounts, seeks open, lobby watchers, lobby events
received and their lag, lobby requests and badge polls with their percentiles; the time the
set-up took, the CPU time of the server (set-up and play apart), of the clients and of
PostgreSQL, the CPU other processes used and the host stole meanwhile, and the machine's
load average before, at the start and at the end.

    python benchmarks/server_load.py --quiet-below 0.3
    python benchmarks/server_load.py --postgres postgresql://keltis@127.0.0.1/keltis
    python benchmarks/server_load.py --accounts 0    # guests only: the earlier benchmark
    python benchmarks/server_load.py --profile stacks.txt
    python benchmarks/server_load.py --flood login --flood-at-once 32
    python benchmarks/server_load.py --flood login --flood-rate 200

The players' clients run in this process (one asyncio loop), the lobby's clients and the
badge in a second one; on a small machine both compete with the server for the CPU: the
JSON says how much CPU each side used, and how late each client loop ran. On a shared
machine, ``--quiet-below CORES`` waits until the other processes are quiet before playing;
``--profile FILE`` samples the server's threads while it plays.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.cookiejar
import json
import multiprocessing
import os
import random
import resource
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from websockets.asyncio.client import connect

try:
    import sniffio  # noqa: F401 - httpcore asks for it on every lock it makes
except ImportError:
    # without it, each of those asks searches the whole path anew (a tenth of the
    # clients' CPU time): None makes it fail at once, and httpcore takes asyncio then
    sys.modules["sniffio"] = None  # type: ignore[assignment]

#: Every account's password (creating an account hashes it: that is what costs).
PASSWORD = "load-test-password"


#: Seconds between a waiting pool player's GET /api/pool (as the waiting page asks).
POOL_POLL = 2.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: ``--profile``: the server runs under this sampler. Every ``interval`` seconds it notes
#: each thread's stack (the event loop's thread is ``MainThread``; the worker threads of
#: ``asyncio.to_thread`` are ``asyncio_N``); SIGUSR1 starts the count afresh, SIGUSR2 writes
#: it to the file, one collapsed stack and its count a line (as flame graph tools read).
SAMPLER = r"""
import collections, gc, os, re, runpy, signal, sys, threading, time
path, interval = sys.argv[1], float(sys.argv[2])
counts, on, t0, pauses = collections.Counter(), [False], [0.0], []
def sample():
    me = threading.get_ident()
    while True:
        time.sleep(interval)
        if not on[0]:
            continue
        second = int(time.monotonic() - t0[0])
        names = {t.ident: re.sub(r"_\d+$", "", t.name) for t in threading.enumerate()}
        working = 0
        for ident, frame in sys._current_frames().items():
            if ident == me:
                continue
            stack = []
            while frame is not None:
                code = frame.f_code
                stack.append(os.path.basename(code.co_filename) + ":" + code.co_name)
                frame = frame.f_back
            name = names.get(ident, "?")
            counts[";".join([name, *reversed(stack)])] += 1
            if name in ("asyncio", "uvloop", "keltis-db") and stack[0] != "thread.py:_worker":
                working += 1
            if name == "MainThread" and stack[0] != "runners.py:run":
                counts[f"#main-in-python {second}"] += 1
        counts[f"#workers-busy {working}"] += 1
        counts[f"#samples {second}"] += 1
        if working >= 6:
            counts[f"#workers-all-busy {second}"] += 1
def collected(phase, info):
    if not on[0]:
        return
    if phase == "start":
        pauses.append(time.perf_counter())
    elif pauses and isinstance(pauses[-1], float):
        began = pauses.pop()
        if info["generation"] == 2 or time.perf_counter() - began > 0.01:
            pauses.append((round(time.monotonic() - t0[0], 2), info["generation"],
                           round(1000 * (time.perf_counter() - began), 1), info["collected"]))
def start(*_):
    counts.clear()
    pauses.clear()
    t0[0] = time.monotonic()
    on[0] = True
def dump(*_):
    on[0] = False
    with open(path, "w") as f:
        f.writelines(f"{stack} {n}\n" for stack, n in counts.most_common())
        f.writelines(f"#gc {p[0]} {p[1]} {p[2]} {p[3]}\n" for p in pauses if type(p) is tuple)
gc.callbacks.append(collected)
signal.signal(signal.SIGUSR1, start)
signal.signal(signal.SIGUSR2, dump)
threading.Thread(target=sample, daemon=True).start()
sys.argv = ["keltis", *sys.argv[3:]]
runpy.run_module("keltis", run_name="__main__", alter_sys=True)
"""


def start_server(
    database: str,
    port: int,
    bot_workers: int,
    log: Any,
    profile: str | None = None,
    login_rate: str = "1000000",
) -> subprocess.Popen[bytes]:
    """``keltis serve`` in its own process group, its output going to ``log`` (a file: a
    pipe nobody reads would fill up and stop the server); with ``profile``, under
    :data:`SAMPLER`. Every HTTP request of the benchmark comes from 127.0.0.1, so the limits
    per address on creating matches, accounts, log-ins (unless ``login_rate`` says otherwise)
    and seeks are lifted; live connections come from an address of their own each."""
    runner = ["-c", SAMPLER, profile, "0.005"] if profile else ["-m", "keltis"]
    return subprocess.Popen(
        [
            sys.executable,
            *runner,
            "serve",
            "--port",
            str(port),
            "--db",
            database,
            "--bot-delay",
            "0.3",
            "--bot-workers",
            str(bot_workers),
            "--create-rate",
            "1000",
            "--signup-rate",
            "1000000",
            "--login-rate",
            login_rate,
            "--seek-rate",
            "1000000",
            "--log-level",
            "warning",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


async def wait_ready(base: str) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        for _ in range(600):
            try:
                if (await http.get("/api/health")).status_code == 200:
                    return
            except httpx.TransportError:
                await asyncio.sleep(0.05)  # the server is still binding its port
        raise RuntimeError("the server did not come up")


class _NoCookies(http.cookiejar.DefaultCookiePolicy):
    """The shared HTTP client keeps no cookie: each request carries its account's own."""

    def set_ok(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        return False


def address_of(number: int, kind: int = 1) -> str:
    """A loopback address of its own for client ``number`` (``kind`` 1: accounts' game
    clients, 2: lobby watchers; 127.0.0.1 is the benchmark's HTTP client)."""
    return f"127.{kind}.{number // 250}.{number % 250 + 1}"


@dataclass
class Person:
    """An account of the benchmark, logged in."""

    number: int
    name: str
    secret: str
    csrf: str

    @property
    def cookie(self) -> dict[str, str]:
        return {"Cookie": f"keltis_session={self.secret}"}

    @property
    def headers(self) -> dict[str, str]:
        """What a request it makes carries: its session cookie and the CSRF token."""
        return {**self.cookie, "X-CSRF-Token": self.csrf}


@dataclass
class Seat:
    """A seat a client plays: the match, its token, and the account (``None``: a guest)."""

    match: str
    token: str
    person: Person | None
    address: str


@dataclass
class Tally:
    round_trips: list[float] = field(default_factory=list)
    slow_at: list[float] = field(default_factory=list)
    """When (monotonic) the round trips over 100 ms ended."""
    actions: int = 0
    refusals: int = 0
    finished: int = 0
    connections: int = 0
    badge: list[float] = field(default_factory=list)
    badge_errors: Counter[str] = field(default_factory=Counter)
    badge_waiting: int = 0
    lobby_requests: dict[str, list[float]] = field(default_factory=dict)
    lobby_refusals: Counter[str] = field(default_factory=Counter)
    changes: list[Change] = field(default_factory=list)
    watchers: list[Watcher] = field(default_factory=list)
    loop_lags: list[float] = field(default_factory=list)
    pool_requests: dict[str, list[float]] = field(default_factory=dict)
    pool_refusals: Counter[str] = field(default_factory=Counter)
    pool_waits: list[float] = field(default_factory=list)
    pool_paired: int = 0


@dataclass
class Change:
    """A change to the open seeks, as its request's answer showed it: the state of the seek
    it made (``seated``: the names in it; ``None``: gone from the open seeks)."""

    seek: str
    seated: tuple[str, ...] | None
    sent: float
    answered: float
    """``time.perf_counter()`` when the request went and when its answer came."""


@dataclass
class Watcher:
    """A lobby stream's client: when each state of each seek began, as it saw it."""

    events: Counter[str] = field(default_factory=Counter)
    entered: dict[tuple[str, tuple[str, ...] | None], list[float]] = field(default_factory=dict)
    current: dict[str, tuple[str, ...]] = field(default_factory=dict)
    connected: float | None = None
    ended: float | None = None
    error: str | None = None

    def saw(self, seeks: list[dict[str, Any]], at: float) -> None:
        now = {s["id"]: tuple(s["seated"]) for s in seeks}
        for seek, seated in now.items():
            if self.current.get(seek) != seated:
                self.entered.setdefault((seek, seated), []).append(at)
        for seek in self.current.keys() - now.keys():
            self.entered.setdefault((seek, None), []).append(at)
        self.current = now

    def changed(self, seek: dict[str, Any] | None, gone: str | None, at: float) -> None:
        """A ``seek`` event (the seek opened or changed) or a ``gone`` one (``gone``: the
        seek's id)."""
        if seek is not None:
            seated = tuple(seek["seated"])
            if self.current.get(seek["id"]) != seated:
                self.entered.setdefault((seek["id"], seated), []).append(at)
                self.current[seek["id"]] = seated
        elif gone is not None and gone in self.current:
            del self.current[gone]
            self.entered.setdefault((gone, None), []).append(at)

    def lag(self, change: Change) -> float | None:
        """Seconds from the change's answer to the first event showing it (not before its
        request went), or ``None`` if none did."""
        for at in self.entered.get((change.seek, change.seated), ()):
            if at >= change.sent:
                return at - change.answered
        return None


async def client(
    url: str,
    seat: Seat,
    think: float,
    rng: random.Random,
    warm: float,
    until: float,
    tally: Tally,
) -> None:
    """One simulated player: round trips are counted once the run is warm (every client
    connected and shown its first snapshot), until ``until``."""
    headers = seat.person.cookie if seat.person else None
    async with connect(
        url, max_size=2**22, additional_headers=headers, local_addr=(seat.address, 0)
    ) as socket_:
        tally.connections += 1
        await socket_.send(json.dumps({"type": "hello", "token": seat.token}))
        view: dict[str, Any] = {}
        version = 0
        sent_at: dict[int, float] = {}
        ref = 0
        pending = False
        while time.monotonic() < until:
            if view.get("legal") and not pending:
                await asyncio.sleep(min(rng.expovariate(1 / think), until - time.monotonic()))
                if time.monotonic() >= until:
                    break
                ref += 1
                sent_at[ref] = time.perf_counter()
                action = rng.choice(view["legal"])["index"]
                await socket_.send(
                    json.dumps({"type": "act", "version": version, "action": action, "ref": ref})
                )
                pending = True
            try:
                text = await asyncio.wait_for(
                    socket_.recv(), timeout=max(0.1, until - time.monotonic())
                )
            except TimeoutError:
                break
            message = json.loads(text)
            kind = message["type"]
            if kind in ("snapshot", "step"):
                view, version = message["view"], message["version"]
                if message.get("result"):
                    tally.finished += 1
                    return
            elif kind == "ack":
                start = sent_at.pop(message.get("ref"), None)
                if start is not None and time.monotonic() >= warm:
                    trip = time.perf_counter() - start
                    tally.round_trips.append(trip)
                    if trip > 0.1:
                        tally.slow_at.append(time.monotonic())
                    tally.actions += 1
                pending = False
            elif kind == "error":
                tally.refusals += 1
                sent_at.pop(message.get("ref"), None)
                pending = False


async def loop_lag(warm: float, until: float, lags: list[float]) -> None:
    """How late this process's event loop wakes a task that sleeps 10 ms (the clients'
    own delay, in every round trip they measure: a busy machine or a busy client)."""
    while time.monotonic() < until:
        start = time.perf_counter()
        await asyncio.sleep(0.01)
        if time.monotonic() >= warm:
            lags.append(time.perf_counter() - start - 0.01)


async def bounded(jobs: Iterable[Awaitable[Any]], at_once: int) -> list[Any]:
    """The jobs' results, at most ``at_once`` of them running at a time."""
    gate = asyncio.Semaphore(at_once)

    async def one(job: Awaitable[Any]) -> Any:
        async with gate:
            return await job

    return await asyncio.gather(*(one(job) for job in jobs))


def _session(answer: httpx.Response) -> str:
    """The session cookie's secret an answer set."""
    for line in answer.headers.get_list("set-cookie"):
        name, _, rest = line.partition("=")
        if name.strip() == "keltis_session":
            return rest.split(";", 1)[0]
    raise RuntimeError(f"no session cookie in {answer.status_code} {answer.text[:200]}")


async def create_account(http: httpx.AsyncClient, number: int) -> Person:
    name = f"load{number:04d}"
    answer = await http.post("/api/accounts", json={"name": name, "password": PASSWORD})
    if answer.status_code != 201:
        raise RuntimeError(f"could not create account {name}: {answer.status_code} {answer.text}")
    return Person(number, name, _session(answer), answer.json()["csrf"])


async def create_match(
    http: httpx.AsyncClient, number: int, people: list[Person], against_bot: bool
) -> list[Seat]:
    """A match of ``people`` (one against a medium bot, or two, rated): its seats."""
    game = "cards" if number % 2 else "board"
    host = people[0]
    seats = (
        [{"kind": "person"}, {"kind": "bot", "level": "medium"}]
        if against_bot
        else [{"kind": "person"}, {"kind": "person"}]
    )
    body: dict[str, Any] = {"game": game, "seats": seats}
    if len(people) > 1:
        body["rated"] = True
    answer = await http.post("/api/matches", json=body, headers=host.headers)
    made = answer.json()
    if "id" not in made:
        raise RuntimeError(f"could not create a match: {answer.status_code} {made}")
    played = [Seat(made["id"], made["token"], host, address_of(host.number))]
    for invite, guest in zip(made["invites"], people[1:], strict=True):
        answer = await http.post(
            f"/api/matches/{made['id']}/join",
            json={"invite": invite["invite"]},
            headers=guest.headers,
        )
        if answer.status_code != 200:
            raise RuntimeError(f"could not join a match: {answer.status_code} {answer.text}")
        played.append(Seat(made["id"], answer.json()["token"], guest, address_of(guest.number)))
    if made["invites"]:
        answer = await http.post(
            f"/api/matches/{made['id']}/start",
            headers={"Authorization": f"Bearer {made['host_token']}"},
        )
        if answer.status_code != 200:
            raise RuntimeError(f"could not start a match: {answer.status_code} {answer.text}")
    return played


async def create_guest_match(http: httpx.AsyncClient, number: int, against_bot: bool) -> list[Seat]:
    """A match of guests (no accounts: the earlier benchmark's)."""
    game = "cards" if number % 2 else "board"
    seats = (
        [{"kind": "person"}, {"kind": "bot", "level": "medium"}]
        if against_bot
        else [{"kind": "person"}, {"kind": "person"}]
    )
    made = (await http.post("/api/matches", json={"game": game, "seats": seats})).json()
    if "id" not in made:
        raise RuntimeError(f"could not create a match: {made}")
    played = [Seat(made["id"], made["token"], None, address_of(2 * number))]
    for invite in made["invites"]:
        joined = (
            await http.post(
                f"/api/matches/{made['id']}/join",
                json={"invite": invite["invite"], "name": "Bea"},
            )
        ).json()
        played.append(Seat(made["id"], joined["token"], None, address_of(2 * number + 1)))
    if made["invites"]:
        await http.post(
            f"/api/matches/{made['id']}/start",
            headers={"Authorization": f"Bearer {made['host_token']}"},
        )
    return played


def held_seek(number: int) -> dict[str, Any]:
    """The seek the ``number``-th seeker keeps open: both games, two to four players, rated
    or not, with and without a time control or a rating range; never bots."""
    body: dict[str, Any] = {
        "game": "cards" if number % 2 else "board",
        "players": 2 + number % 3,
        "rated": number % 4 < 2,
    }
    if number % 5 == 1:
        body["time"] = {"kind": "realtime", "decision": 30, "bank": 300}
    elif number % 5 == 2:
        body["time"] = {"kind": "correspondence", "days": 1}
    if number % 7 == 3:
        body["rating_min"], body["rating_max"] = -50.0, 50.0
    return body


async def open_held_seek(http: httpx.AsyncClient, person: Person) -> dict[str, Any]:
    answer = await http.post("/api/seeks", json=held_seek(person.number), headers=person.headers)
    if answer.status_code != 201:
        raise RuntimeError(f"could not open a seek: {answer.status_code} {answer.text}")
    return dict(answer.json())


async def watch_lobby(base: str, address: str, watcher: Watcher) -> None:
    """Hold ``GET /api/lobby/events`` open (until cancelled) and note what every ``seeks``
    (the list), ``seek`` (one opened or changed) and ``gone`` event shows."""
    transport = httpx.AsyncHTTPTransport(local_address=address, verify=False)  # plain http
    timeout = httpx.Timeout(30.0, read=60.0)  # a heartbeat comes every 15 s
    try:
        async with (
            httpx.AsyncClient(base_url=base, transport=transport, timeout=timeout) as http,
            http.stream("GET", "/api/lobby/events") as answer,
        ):
            if answer.status_code != 200:
                watcher.error = f"{answer.status_code} {(await answer.aread())[:200]!r}"
                return
            buffer = b""
            async for chunk in answer.aiter_bytes():  # cheaper than line by line
                buffer += chunk
                *blocks, buffer = buffer.split(b"\n\n")
                at = time.perf_counter()
                for block in blocks:
                    kind, data = "", b""
                    for line in block.split(b"\n"):
                        if line.startswith(b"event:"):
                            kind = line[6:].strip().decode()
                        elif line.startswith(b"data:"):
                            data += line[5:].strip()
                    if not kind:
                        continue  # a comment (the heartbeat) or the retry time
                    watcher.events[kind] += 1
                    if kind == "seeks":
                        watcher.saw(json.loads(data)["seeks"], at)
                        if watcher.connected is None:
                            watcher.connected = at
                    elif kind == "seek":
                        watcher.changed(json.loads(data), None, at)
                    elif kind == "gone":
                        watcher.changed(None, json.loads(data)["id"], at)
            watcher.ended = time.perf_counter()
    except asyncio.CancelledError:
        raise
    except Exception as error:  # reported in the result
        watcher.error = repr(error)
        watcher.ended = time.perf_counter()


async def poll_badge(
    http: httpx.AsyncClient,
    person: Person,
    every: float,
    offset: float,
    warm: float,
    until: float,
    tally: Tally,
) -> None:
    """Ask for the account's matches every ``every`` seconds, the first after
    ``offset``."""
    due = time.monotonic() + offset
    while True:
        await asyncio.sleep(max(0.0, min(due, until) - time.monotonic()))
        if time.monotonic() >= until:
            return
        start = time.perf_counter()
        try:
            answer = await http.get("/api/me/matches", headers=person.cookie)
        except httpx.HTTPError as error:
            tally.badge_errors[type(error).__name__] += 1
        else:
            took = time.perf_counter() - start
            if answer.status_code != 200:
                tally.badge_errors[str(answer.status_code)] += 1
            elif time.monotonic() >= warm:
                tally.badge.append(took)
                tally.badge_waiting += len(answer.json()["waiting"])
        due += every


class Churn:
    """Accounts that change the lobby: open a seek and cancel it, join one (its last place
    starts the match), take a place in a held seek for three or four players and leave it.
    Each change's answer is noted (:class:`Change`) for the watchers' lag."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        churners: list[Person],
        held: list[dict[str, Any]],
        rng: random.Random,
        tally: Tally,
    ) -> None:
        self.http = http
        self.churners = churners
        self.rng = rng
        self.tally = tally
        self.own: list[tuple[str, Person]] = []
        """Open seeks of churners (for two: a join starts their match)."""
        self.open_count: Counter[str] = Counter()
        self.held = [s for s in held if s["players"] > 2]
        """Held seeks with room for a churner that does not fill them."""
        self.seated: dict[str, list[str]] = {s["id"]: list(s["seated"]) for s in self.held}
        self.inside: list[tuple[str, Person]] = []
        """Churners in held seeks."""
        self.tasks: set[asyncio.Task[None]] = set()

    async def run(self, rate: float, warm: float, until: float) -> None:
        while True:
            await asyncio.sleep(self.rng.expovariate(rate))
            if time.monotonic() >= until:
                break
            task = asyncio.create_task(self.step(time.monotonic() >= warm))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        if self.tasks:
            await asyncio.gather(*self.tasks)

    async def step(self, counted: bool) -> None:
        choices = []
        if len(self.own) < 8:
            choices += ["open"] * 3
        if self.own:
            choices += ["cancel", "start"]
        roomy = [s for s in self.held if len(self.seated[s["id"]]) + 1 < s["players"]]
        if roomy:
            choices += ["enter"] * 2
        if self.inside:
            choices += ["leave"] * 2
        kind = self.rng.choice(choices)
        if kind == "open":
            person = min(self.churners, key=lambda p: (self.open_count[p.name], self.rng.random()))
            if self.open_count[person.name] >= 3:
                return
            self.open_count[person.name] += 1
            body = {"game": self.rng.choice(["board", "cards"]), "players": 2}
            body["rated"] = self.rng.random() < 0.5
            seek = await self.request(kind, "POST", "/api/seeks", person, body, counted)
            if seek is None:
                self.open_count[person.name] -= 1
            else:
                self.own.append((seek["id"], person))
        elif kind == "cancel":
            seek_id, person = self.own.pop(self.rng.randrange(len(self.own)))
            await self.request(kind, "DELETE", f"/api/seeks/{seek_id}", person, None, counted)
            self.open_count[person.name] -= 1
        elif kind == "start":
            seek_id, owner = self.own.pop(self.rng.randrange(len(self.own)))
            person = self.rng.choice([p for p in self.churners if p is not owner])
            path = f"/api/seeks/{seek_id}/join"
            await self.request(kind, "POST", path, person, None, counted)
            self.open_count[owner.name] -= 1
        elif kind == "enter":
            seek = self.rng.choice(roomy)
            names = self.seated[seek["id"]]
            person = self.rng.choice([p for p in self.churners if p.name not in names])
            names.append(person.name)  # the place is taken before the answer: no two at once
            path = f"/api/seeks/{seek['id']}/join"
            if await self.request(kind, "POST", path, person, None, counted) is None:
                names.remove(person.name)
            else:
                self.inside.append((seek["id"], person))
        else:
            seek_id, person = self.inside.pop(self.rng.randrange(len(self.inside)))
            await self.request(kind, "DELETE", f"/api/seeks/{seek_id}", person, None, counted)
            self.seated[seek_id].remove(person.name)

    async def request(
        self,
        kind: str,
        method: str,
        path: str,
        person: Person,
        body: dict[str, Any] | None,
        counted: bool,
    ) -> dict[str, Any] | None:
        """One change: its answer's seek, or ``None`` if it was refused."""
        sent = time.perf_counter()
        try:
            answer = await self.http.request(method, path, json=body, headers=person.headers)
        except httpx.HTTPError as error:
            self.tally.lobby_refusals[f"{kind} {type(error).__name__}"] += 1
            return None
        answered = time.perf_counter()
        if answer.status_code not in (200, 201):
            code = answer.json().get("code", "") if answer.content else ""
            self.tally.lobby_refusals[f"{kind} {answer.status_code} {code}"] += 1
            return None
        seek = answer.json()
        if counted:
            self.tally.lobby_requests.setdefault(kind, []).append(answered - sent)
            seated = tuple(seek["seated"]) if seek["status"] == "open" else None
            self.tally.changes.append(Change(seek["id"], seated, sent, answered))
        return dict(seek)


class Pooler:
    """Accounts that look for a person to play now (docs/server.md, "Quick pairing"): one
    joins the default pool about ``rate`` times a second, asks for its entry every
    :data:`POOL_POLL` seconds until it is paired, then may join again."""

    def __init__(
        self, http: httpx.AsyncClient, people: list[Person], rng: random.Random, tally: Tally
    ) -> None:
        self.http = http
        self.idle = list(people)
        self.rng = rng
        self.tally = tally
        self.tasks: set[asyncio.Task[None]] = set()

    async def run(self, rate: float, warm: float, until: float) -> None:
        while True:
            await asyncio.sleep(self.rng.expovariate(rate))
            if time.monotonic() >= until:
                break
            if not self.idle:
                continue
            person = self.idle.pop(self.rng.randrange(len(self.idle)))
            task = asyncio.create_task(self.wait(person, warm, until))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        if self.tasks:
            await asyncio.gather(*self.tasks)

    async def wait(self, person: Person, warm: float, until: float) -> None:
        """Join, then ask until paired (or the run ends: leave)."""
        joined = time.monotonic()
        if await self.request("join", "POST", person, {}, joined >= warm) is None:
            self.idle.append(person)
            return
        while time.monotonic() < until:
            await asyncio.sleep(POOL_POLL)
            answer = await self.request("poll", "GET", person, None, time.monotonic() >= warm)
            entry = None if answer is None else answer.get("entry")
            if entry is not None and entry["status"] == "paired":
                if joined >= warm:
                    self.tally.pool_paired += 1
                    self.tally.pool_waits.append(time.monotonic() - joined)
                self.idle.append(person)
                return
        await self.request("leave", "DELETE", person, None, False)

    async def request(
        self, kind: str, method: str, person: Person, body: dict[str, Any] | None, counted: bool
    ) -> dict[str, Any] | None:
        sent = time.perf_counter()
        try:
            answer = await self.http.request(method, "/api/pool", json=body, headers=person.headers)
        except httpx.HTTPError as error:
            self.tally.pool_refusals[f"{kind} {type(error).__name__}"] += 1
            return None
        took = time.perf_counter() - sent
        if answer.status_code not in (200, 201, 204):
            self.tally.pool_refusals[f"{kind} {answer.status_code}"] += 1
            return None
        if counted:
            self.tally.pool_requests.setdefault(kind, []).append(took)
        return dict(answer.json()) if answer.status_code != 204 else {}


#: Seconds between reads of the tournament's page.
TOURNAMENT_POLL = 2.0


class TournamentPlay:
    """A running tournament (docs/server.md, "Tournaments"): its players' clients play each
    round's matches as they start, and its page is read every :data:`TOURNAMENT_POLL`
    seconds (the time each read took is kept)."""

    def __init__(self, http: httpx.AsyncClient, tournament: str, people: list[Person]) -> None:
        self.http = http
        self.id = tournament
        self.people = {p.name: p for p in people}
        self.reads: list[float] = []
        self.rounds: set[int] = set()
        self.status = "upcoming"

    @classmethod
    async def create(
        cls, http: httpx.AsyncClient, people: list[Person], rounds: int
    ) -> TournamentPlay:
        """The tournament, created by its first player and joined by all, starting in 2 s."""
        starts = datetime.now(UTC) + timedelta(seconds=2)
        body = {
            "name": "Load Cup",
            "game": "cards",
            "rounds": rounds,
            "starts_at": starts.isoformat(),
        }
        answer = await http.post("/api/tournaments", json=body, headers=people[0].headers)
        if answer.status_code != 201:
            raise RuntimeError(f"could not create a tournament: {answer.status_code} {answer.text}")
        made = answer.json()["id"]
        for person in people:
            answer = await http.post(f"/api/tournaments/{made}/players", headers=person.headers)
            if answer.status_code != 200:
                raise RuntimeError(f"could not join the tournament: {answer.text}")
        return cls(http, made, people)

    async def read(self) -> dict[str, Any]:
        took = time.perf_counter()
        answer = await self.http.get(f"/api/tournaments/{self.id}")
        self.reads.append(time.perf_counter() - took)
        return dict(answer.json())

    async def seats(self, tournament: dict[str, Any], number: int) -> list[Seat] | None:
        """The seats of round ``number``'s matches (``None``: not all created yet)."""
        tables = tournament["rounds"][number - 1]["tables"]
        if any(not t["bye"] and not t["match"] for t in tables):
            return None
        found = []
        for table in tables:
            for name in [] if table["bye"] else table["players"]:
                person = self.people[name]
                mine = (await self.http.get("/api/me/matches", headers=person.cookie)).json()
                for group in mine.values():
                    for item in group:
                        if item["match"]["id"] == table["match"]:
                            found.append(
                                Seat(
                                    table["match"],
                                    item["token"],
                                    person,
                                    address_of(person.number, 3),
                                )
                            )
        return found

    async def run(self, base: str, play: Callable[[Seat], Awaitable[None]], until: float) -> None:
        """Follow the tournament until ``until``: each new round's seats to ``play`` (the
        set-up's HTTP client is closed by now: one of its own)."""
        playing: set[asyncio.Task[None]] = set()
        async with contextlib.AsyncExitStack() as stack:
            self.http = (await http_pools(stack, base))[0]
            await self._follow(play, until, playing)
        await asyncio.gather(*playing)

    async def _follow(
        self,
        play: Callable[[Seat], Awaitable[None]],
        until: float,
        playing: set[asyncio.Task[None]],
    ) -> None:
        while time.monotonic() < until:
            tournament = await self.read()
            self.status = tournament["status"]
            number = tournament["round"]
            if tournament["status"] == "running" and number not in self.rounds:
                seats = await self.seats(tournament, number)
                if seats is not None:
                    self.rounds.add(number)
                    playing.update(asyncio.create_task(play(seat)) for seat in seats)
            await asyncio.sleep(TOURNAMENT_POLL)

    def result(self) -> dict[str, Any]:
        return {
            "players": len(self.people),
            "rounds_started": len(self.rounds),
            "status": self.status,
            "read_ms": quantiles(self.reads),
        }


def quantiles(values: list[float], scale: float = 1000.0) -> dict[str, float | int | None]:
    """p50/p90/p99/max/mean of ``values`` (seconds) in milliseconds, and how many."""
    ordered = sorted(values)

    def q(p: float) -> float | None:
        if not ordered:
            return None
        return round(scale * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 2)

    return {
        "count": len(ordered),
        "p50": q(0.5),
        "p90": q(0.9),
        "p99": q(0.99),
        "max": round(scale * ordered[-1], 2) if ordered else None,
        "mean": round(scale * statistics.fmean(ordered), 2) if ordered else None,
    }


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


async def http_pools(stack: contextlib.AsyncExitStack, base: str) -> list[httpx.AsyncClient]:
    """HTTP clients without a cookie jar (each request carries its account's cookie).
    Several small pools: httpcore looks through every connection of its pool for each
    request, which with one pool of 64 costs the clients more than the server."""
    return [
        await stack.enter_async_context(
            httpx.AsyncClient(
                base_url=base,
                timeout=60,
                cookies=http.cookiejar.CookieJar(policy=_NoCookies()),
                limits=httpx.Limits(
                    max_connections=8,
                    max_keepalive_connections=8,
                    # the server closes a connection idle for 5 s: not one about to be used
                    keepalive_expiry=4.0,
                ),
            )
        )
        for _ in range(8)
    ]


@dataclass
class LobbyPlan:
    """What the lobby's process does: its watchers, the churn, the badge polls (all times
    ``time.monotonic()``, which every process of the machine shares)."""

    base: str
    watchers: int
    churn: float
    churners: list[Person]
    held: list[dict[str, Any]]
    badge_every: float
    pool_rate: float
    poolers: list[Person]
    online: list[Person]
    seed: float
    started: float
    warm: float
    until: float


def flood_process(
    base: str,
    route: str,
    person: Person,
    at_once: int,
    rate: float,
    warm: float,
    until: float,
) -> dict[str, Any]:
    """The flood (:func:`flood`) in a process of its own: its requests are answered as fast
    as the server can, and the players' clients must not wait for it on their loop."""
    started = time.process_time()
    result = asyncio.run(flood(base, route, person, at_once, rate, warm, until))
    return {**result, "flooder_cpu_seconds": round(time.process_time() - started, 2)}


def lobby_process(plan: LobbyPlan) -> dict[str, Any]:
    """The lobby's clients, in a process of their own (:func:`lobby_clients`)."""
    return asyncio.run(lobby_clients(plan))


async def lobby_clients(plan: LobbyPlan) -> dict[str, Any]:
    """The lobby's watchers, the accounts that change it and the turn badges' polls: in a
    process apart from the players' clients, so that reading 50 streams does not hold up
    the event loop whose round trips are measured (both share the machine's cores)."""
    tally = Tally()
    rng = random.Random(plan.seed)
    async with contextlib.AsyncExitStack() as stack:
        pools = await http_pools(stack, plan.base)
        tally.watchers = [Watcher() for _ in range(plan.watchers)]
        watching = [
            asyncio.create_task(watch_lobby(plan.base, address_of(number, 2), watcher))
            for number, watcher in enumerate(tally.watchers)
        ]
        await asyncio.sleep(max(0.0, plan.started - time.monotonic()))
        own_cpu = time.process_time()
        jobs: list[Awaitable[Any]] = [loop_lag(plan.warm, plan.until, tally.loop_lags)]
        if plan.badge_every > 0:
            jobs += [
                poll_badge(
                    pools[person.number % len(pools)],
                    person,
                    plan.badge_every,
                    rng.uniform(0, plan.badge_every),
                    plan.warm,
                    plan.until,
                    tally,
                )
                for person in plan.online
            ]
        if plan.churn > 0 and plan.churners:
            churn = Churn(pools[-1], plan.churners, plan.held, random.Random(rng.random()), tally)
            jobs.append(churn.run(plan.churn, plan.warm, plan.until))
        if plan.pool_rate > 0 and plan.poolers:
            pooler = Pooler(pools[-2], plan.poolers, random.Random(rng.random()), tally)
            jobs.append(pooler.run(plan.pool_rate, plan.warm, plan.until))
        await asyncio.gather(*jobs)
        await asyncio.sleep(2.0 if watching else 0.0)  # the last changes' events on their way
        for task in watching:
            task.cancel()
        await asyncio.gather(*watching, return_exceptions=True)
        cpu = time.process_time() - own_cpu
        open_end = {s["id"] for s in (await pools[0].get("/api/seeks")).json()["seeks"]}
    lags = []
    missed = 0
    for change in tally.changes:
        for watcher in tally.watchers:
            if watcher.connected is None or watcher.connected > change.sent:
                continue
            lag = watcher.lag(change)
            if lag is None:
                missed += 1
            else:
                lags.append(lag)
    events: Counter[str] = Counter()
    for watcher in tally.watchers:
        events.update(watcher.events)
    lag_ms = quantiles(lags)
    lag_ms["min"] = round(1000 * min(lags), 2) if lags else None
    return {
        "accounts_online": len(plan.online),
        "seeks_open": {
            "start": len(plan.held),
            "end": len(open_end),
            "held_at_end": len(open_end & {s["id"] for s in plan.held}),
        },
        "lobby_watchers": len(tally.watchers),
        "lobby_watcher_errors": [w.error for w in tally.watchers if w.error],
        "lobby_changes": {k: len(v) for k, v in sorted(tally.lobby_requests.items())},
        "lobby_refusals": dict(tally.lobby_refusals),
        "lobby_request_ms": quantiles([t for v in tally.lobby_requests.values() for t in v]),
        "lobby_events_received": dict(events),
        "lobby_lag_ms": lag_ms,
        "lobby_updates_missed": missed,
        "badge_every_seconds": plan.badge_every,
        "badge_ms": quantiles(tally.badge),
        "badge_errors": dict(tally.badge_errors),
        "badge_waiting_mean": round(tally.badge_waiting / len(tally.badge), 2)
        if tally.badge
        else None,
        "pool": {
            "players": len(plan.poolers),
            "requests": {k: len(v) for k, v in sorted(tally.pool_requests.items())},
            "request_ms": quantiles([t for v in tally.pool_requests.values() for t in v]),
            "refusals": dict(tally.pool_refusals),
            "paired": tally.pool_paired,
            "wait_ms": quantiles(tally.pool_waits),
        },
        "lobby_client_cpu_seconds": round(cpu, 1),
        "lobby_client_loop_lag_ms": quantiles(tally.loop_lags),
    }


async def run(
    args: argparse.Namespace, base: str, server_pid: int, pg_pid: int | None
) -> dict[str, Any]:
    await wait_ready(base)
    rng = random.Random(args.seed)
    tally = Tally()
    setup: dict[str, float] = {}
    began = time.monotonic()
    async with contextlib.AsyncExitStack() as stack:
        http_ = (await http_pools(stack, base))[0]
        people = await bounded(
            (create_account(http_, number) for number in range(args.accounts)),
            args.setup_concurrency,
        )
        setup["accounts"] = time.monotonic() - began
        step = time.monotonic()
        plans = []
        free = iter(people)
        for number in range(args.matches):
            against_bot = bool(args.bot_every and number % args.bot_every == 0)
            if args.accounts:
                plans.append(
                    create_match(
                        http_,
                        number,
                        [next(free)] if against_bot else [next(free), next(free)],
                        against_bot,
                    )
                )
            else:
                plans.append(create_guest_match(http_, number, against_bot))
        seats = [seat for match in await bounded(plans, 4) for seat in match]
        players = [seat.person for seat in seats if seat.person is not None]
        setup["matches"] = time.monotonic() - step
        step = time.monotonic()
        seekers = [next(free) for _ in range(args.seeks)]
        held = await bounded((open_held_seek(http_, p) for p in seekers), 4)
        churners = [next(free) for _ in range(args.churners if args.churn else 0)]
        poolers = [next(free) for _ in range(args.pool_players if args.pool_rate else 0)]
        # a tournament's players, its first round starting as the run begins
        tourney = [next(free) for _ in range(args.tournament_players)]
        tournament = (
            await TournamentPlay.create(http_, tourney, args.tournament_rounds) if tourney else None
        )
        flooder = await create_account(http_, 9999) if args.flood else None
        setup["seeks"] = time.monotonic() - step
        setup["total"] = time.monotonic() - began
    server_setup_cpu = server_cpu(server_pid)
    waited = await quiet(args.quiet_below, args.quiet_wait, [server_pid, pg_pid])

    ws = base.replace("http", "ws", 1)
    started = time.monotonic() + 3.0  # the lobby's process starts meanwhile
    warm = started + args.warmup
    until = warm + args.seconds
    lobby = LobbyPlan(
        base=base,
        watchers=args.lobby_watchers,
        churn=args.churn,
        churners=churners,
        held=held,
        badge_every=args.badge_every,
        pool_rate=args.pool_rate,
        poolers=poolers,
        online=[*players, *seekers, *churners],
        seed=rng.random(),
        started=started,
        warm=warm,
        until=until,
    )
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        side = asyncio.get_running_loop().run_in_executor(pool, lobby_process, lobby)
        await asyncio.sleep(max(0.0, started - time.monotonic()))
        load_start = load_average()
        own_cpu = time.process_time()
        server_start_cpu = server_cpu(server_pid)
        if args.profile:
            os.kill(server_pid, signal.SIGUSR1)
        pg_start_cpu = server_cpu(pg_pid) if pg_pid else 0.0
        busy_start = machine_busy()
        waits_start = machine_waits()
        jobs: list[Awaitable[Any]] = [
            client(
                f"{ws}/api/matches/{seat.match}/live",
                seat,
                args.think,
                random.Random(rng.random()),
                warm,
                until,
                tally,
            )
            for seat in seats
        ]
        if tournament is not None:

            async def play(seat: Seat) -> None:
                url = f"{ws}/api/matches/{seat.match}/live"
                await client(url, seat, args.think, random.Random(rng.random()), warm, until, tally)

            jobs.append(tournament.run(base, play, until))
        jobs.append(loop_lag(warm, until, tally.loop_lags))
        flooded: asyncio.Future[Any] | None = None
        flooding = None
        if flooder is not None:
            flooding = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
            flooded = asyncio.get_running_loop().run_in_executor(
                flooding,
                flood_process,
                base,
                args.flood,
                flooder,
                args.flood_at_once,
                args.flood_rate,
                warm,
                until,
            )
        await asyncio.gather(*jobs)
        flood_result = None if flooded is None else await flooded
        if flooding is not None:
            flooding.shutdown()
        elapsed = min(time.monotonic(), until) - warm  # the counted window
        wind_down = time.monotonic() - until  # connections closed
        client_cpu = time.process_time() - own_cpu
        lobby_result = await side
        server_play_cpu = server_cpu(server_pid) - server_start_cpu
        if args.profile:
            os.kill(server_pid, signal.SIGUSR2)
        pg_cpu = server_cpu(pg_pid) - pg_start_cpu if pg_pid else None
        busy = machine_busy() - busy_start
        steal, stalled = (b - a for a, b in zip(waits_start, machine_waits(), strict=True))
        play = time.monotonic() - started
        load_end = load_average()

    all_clients_cpu = client_cpu + lobby_result["lobby_client_cpu_seconds"]
    bots = len(range(0, args.matches, args.bot_every)) if args.bot_every else 0
    return {
        "matches": args.matches,
        "against_medium_bots": bots,
        "rated_matches": args.matches - bots if args.accounts else 0,
        "connections": tally.connections,
        "seconds": round(elapsed, 1),
        "actions": tally.actions,
        "actions_per_second": round(tally.actions / elapsed, 1),
        "round_trip_ms": {k: v for k, v in quantiles(tally.round_trips).items() if k != "count"},
        "slow_by_second": _by_second(tally.slow_at, warm),
        "refusals": tally.refusals,
        "matches_finished": tally.finished,
        "accounts": args.accounts,
        "tournament": None if tournament is None else tournament.result(),
        "flood": flood_result,
        **lobby_result,
        "setup_seconds": {k: round(v, 1) for k, v in setup.items()},
        "client_cpu_seconds": round(all_clients_cpu, 1),
        "client_loop_lag_ms": quantiles(tally.loop_lags),
        "server_cpu_seconds": round(server_play_cpu, 1),
        "server_cpu_seconds_setup": round(server_setup_cpu, 1),
        "postgres_cpu_seconds": None if pg_cpu is None else round(pg_cpu, 1),
        "play_wall_seconds": round(play, 1),
        "wind_down_seconds": round(wind_down, 1),
        "machine_busy_cpu_seconds": round(busy, 1),
        "other_processes_cpu_seconds": round(
            busy - all_clients_cpu - server_play_cpu - (pg_cpu or 0), 1
        ),
        "stolen_cpu_seconds": round(steal, 1),
        "cpu_pressure_seconds": round(stalled, 1),
        "think_seconds": args.think,
        "warmup_seconds": args.warmup,
        "waited_for_quiet": waited,
        "load_average_start": load_start,
        "load_average_end": load_end,
    }


#: What ``--flood`` sends, as fast as the server answers: a wrong password to each route
#: that checks one (``login``: a new unknown name each time, so that every request reaches
#: a password check instead of the lock of one name).
FLOODS = ("password", "delete", "login")


async def flood(
    base: str, route: str, person: Person, at_once: int, rate: float, warm: float, until: float
) -> dict[str, Any]:
    """One account floods ``route`` with ``at_once`` requests in flight from the start of
    the counted window to its end (``rate`` > 0: at most ``rate`` a second in all, request
    ``n`` not before ``n / rate`` seconds into the window): the answers by status (issue 39:
    other players' actions must stay fast meanwhile)."""
    statuses: dict[str, int] = {}
    wrong = {"password": "not the password at all"}
    await asyncio.sleep(max(0.0, warm - time.monotonic()))
    begun = time.monotonic()

    async def one(http: httpx.AsyncClient, worker: int) -> None:
        sent = 0
        while time.monotonic() < until:
            if rate > 0:  # this worker's next place in the schedule
                due = begun + (sent * at_once + worker) / rate
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                if time.monotonic() >= until:
                    break
            sent += 1
            try:
                key = str((await send(http, worker, sent)).status_code)
            except httpx.TransportError as error:  # a connection the server closed (a 413's)
                key = type(error).__name__
            statuses[key] = statuses.get(key, 0) + 1

    async def send(http: httpx.AsyncClient, worker: int, sent: int) -> httpx.Response:
        if route == "password":
            body = {"old": wrong["password"], "new": "another password"}
            return await http.post("/api/me/password", json=body, headers=person.headers)
        if route == "delete":
            return await http.request("DELETE", "/api/me", json=wrong, headers=person.headers)
        name = f"nobody{worker}x{sent}"
        return await http.post("/api/sessions", json={"name": name, **wrong})

    limits = httpx.Limits(max_connections=at_once, max_keepalive_connections=at_once)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        await asyncio.gather(*(one(http, n) for n in range(at_once)))
    sent = sum(statuses.values())
    return {
        "route": route,
        "at_once": at_once,
        "rate": rate or None,
        "sent_per_second": round(sent / max(1e-9, until - begun), 1),
        "answers_by_status": statuses,
    }


def _by_second(moments: list[float], start: float) -> dict[str, int]:
    """How many round trips over 100 ms ended in each second of the run (where they
    cluster: a pause of the whole server; spread out: queueing)."""
    counts: dict[str, int] = {}
    for moment in moments:
        key = str(int(moment - start))
        counts[key] = counts.get(key, 0) + 1
    return counts


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) of the server process and its children so far."""
    total = 0.0
    for proc in [str(pid), *_children(pid)]:
        try:
            with open(f"/proc/{proc}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            pass
    return total


def machine_busy() -> float:
    """CPU seconds the whole machine spent busy so far (every core, every process:
    ``/proc/stat``)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:7]) - idle) / os.sysconf("SC_CLK_TCK")


def machine_waits() -> tuple[float, float]:
    """CPU seconds stolen from this virtual machine by its host so far (``/proc/stat``'s
    steal), and seconds in which some task was ready to run but waited for a core
    (``/proc/pressure/cpu``; 0 where the kernel does not tell)."""
    with open("/proc/stat") as f:
        steal = int(f.readline().split()[8]) / os.sysconf("SC_CLK_TCK")
    try:
        with open("/proc/pressure/cpu") as f:
            some = f.readline().split()[-1]  # total=<microseconds>
        stalled = int(some.split("=")[1]) / 1e6
    except (OSError, IndexError, ValueError):
        stalled = 0.0
    return steal, stalled


async def quiet(below: float | None, at_most: float, ours: list[int | None]) -> dict[str, Any]:
    """With ``below``: wait (``at_most`` seconds at most) until the other processes on the
    machine (and its host, which may steal CPU from a virtual machine) used less than
    ``below`` cores over 5 s — the other work of a shared machine comes and goes, and what
    a run measures is this server. How long it waited, and what the others used in the
    last 5 s."""
    began = time.monotonic()
    others = 0.0
    while True:
        busy = machine_busy() - sum(server_cpu(pid) for pid in ours if pid)
        steal = machine_waits()[0]
        own = time.process_time()
        await asyncio.sleep(5.0)
        used = machine_busy() - sum(server_cpu(pid) for pid in ours if pid) - busy
        used += machine_waits()[0] - steal
        others = (used - (time.process_time() - own)) / 5.0
        if below is None or others < below or time.monotonic() - began >= at_most:
            break
    return {"seconds": round(time.monotonic() - began, 1), "other_cores": round(others, 2)}


@contextlib.contextmanager
def postgres_database(url: str) -> Iterator[tuple[str, int | None]]:
    """A fresh, empty database on the PostgreSQL server of ``url`` (dropped afterwards),
    and the server's main process (``None`` if it cannot be found: then its CPU time is
    not reported)."""
    import psycopg
    import sqlalchemy as sa

    name = f"keltis_load_{secrets.token_hex(6)}"
    plain = sa.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
        pid = None
        try:
            row = connection.execute("SHOW data_directory").fetchone()
            assert row is not None
            with open(os.path.join(str(row[0]), "postmaster.pid")) as f:
                pid = int(f.readline())
        except Exception:  # not a superuser, or another machine: no CPU time then
            pass
    try:
        yield sa.make_url(url).set(database=name).render_as_string(hide_password=False), pid
    finally:
        with psycopg.connect(plain, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _children(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return f.read().split()
    except OSError:
        return []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds per decision")
    parser.add_argument(
        "--warmup",
        type=float,
        default=5.0,
        help="seconds of play not counted at first, while 350 clients connect (5)",
    )
    parser.add_argument("--bot-every", type=int, default=4, help="every n-th match vs medium")
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--postgres", default=None, metavar="URL")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--accounts",
        type=int,
        default=1000,
        help="accounts created before the run (1000); 0: guests play, no lobby",
    )
    parser.add_argument(
        "--tournament-players", type=int, default=16, help="accounts in a tournament (16; 0: none)"
    )
    parser.add_argument("--tournament-rounds", type=int, default=3, help="its rounds (3)")
    parser.add_argument("--seeks", type=int, default=100, help="seeks held open (100)")
    parser.add_argument(
        "--lobby-watchers", type=int, default=50, help="clients on the lobby's stream (50)"
    )
    parser.add_argument(
        "--churn", type=float, default=2.0, help="changes to the lobby per second (2)"
    )
    parser.add_argument("--churners", type=int, default=50, help="accounts that make them (50)")
    parser.add_argument(
        "--pool-rate",
        type=float,
        default=0.2,
        help="accounts joining the quick-pairing pool per second (0.2; 0: none)",
    )
    parser.add_argument(
        "--pool-players", type=int, default=20, help="accounts that take turns doing so (20)"
    )
    parser.add_argument(
        "--badge-every",
        type=float,
        default=15.0,
        help="seconds between an account's GET /api/me/matches (15; 0: none)",
    )
    parser.add_argument(
        "--flood",
        choices=FLOODS,
        default=None,
        help="meanwhile one account floods a route that checks a password with wrong ones",
    )
    parser.add_argument(
        "--flood-at-once", type=int, default=32, help="the flood's requests in flight (32)"
    )
    parser.add_argument(
        "--flood-rate",
        type=float,
        default=0,
        help="the flood's requests per second at most, on a fixed schedule (0: as fast as "
        "answered)",
    )
    parser.add_argument(
        "--setup-concurrency", type=int, default=4, help="accounts created at once (4)"
    )
    parser.add_argument(
        "--quiet-below",
        type=float,
        default=None,
        metavar="CORES",
        help="before playing, wait until the machine's other processes use fewer cores than "
        "this (over 5 s; at most --quiet-wait seconds): for a shared machine",
    )
    parser.add_argument("--quiet-wait", type=float, default=900.0, metavar="S")
    parser.add_argument(
        "--profile",
        default=None,
        metavar="FILE",
        help="sample the server's threads every 5 ms while it plays; their stacks go to FILE",
    )
    args = parser.parse_args()
    if args.accounts == 0:
        args.seeks = args.lobby_watchers = args.churners = args.pool_players = 0
        args.churn = args.badge_every = args.pool_rate = 0.0
    else:
        bots = len(range(0, args.matches, args.bot_every)) if args.bot_every else 0
        needed = 2 * args.matches - bots + args.seeks + (args.churners if args.churn else 0)
        needed += args.pool_players if args.pool_rate else 0
        if needed > args.accounts:
            parser.error(f"the matches, seeks, churners and pool need {needed} accounts")
        if args.churn and args.churners < 2:
            parser.error("--churn needs two churners at least")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8192)), hard))
    load_before = round(os.getloadavg()[0], 2)  # other work on the machine, for the reader
    with contextlib.ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        pg_pid = None
        if args.postgres:
            database, pg_pid = stack.enter_context(postgres_database(args.postgres))
        else:
            database = f"sqlite:///{folder}/load.sqlite3"
        port = free_port()
        log = open(f"{folder}/server.log", "wb")  # noqa: SIM115 - open while the server runs
        # One account flooding its own password routes meets the server's own limit per
        # address (the set-up logs nobody in); a flood of log-ins with new names stands for
        # many addresses at once: no limit per address, the password checks' own rate holds.
        login_rate = "10" if args.flood in ("password", "delete") else "1000000"
        server = start_server(database, port, args.bot_workers, log, args.profile, login_rate)
        try:
            base = f"http://127.0.0.1:{port}"
            result = asyncio.run(run(args, base, server.pid, pg_pid))
        finally:
            os.killpg(server.pid, signal.SIGINT)
            server.wait(timeout=60)
            log.close()
            with open(f"{folder}/server.log", encoding="utf-8", errors="replace") as lines:
                problems = [line for line in lines if "Error" in line or "ERROR" in line]
            if problems:
                print("".join(problems[-20:]), file=sys.stderr)
    result["database"] = "postgresql" if args.postgres else "sqlite"
    result["load_average_before"] = load_before
    result["cpus"] = os.cpu_count()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
