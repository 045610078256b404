"""Load on the game server: many concurrent matches with simulated clients on loopback.

Starts ``keltis serve`` (SQLite in a temporary folder, or the PostgreSQL of ``--postgres
URL``), creates ``--matches`` matches — most between two simulated people, every
``--bot-every``-th against a medium bot — and lets every client play its seat: when it is
its turn it thinks ``--think`` seconds (exponentially distributed around it), sends a random
legal action and measures the round trip until the server acknowledges it (stored, and every
client of the match told); the first ``--warmup`` seconds, while every client connects and
gets its first snapshot, are not counted. After ``--seconds`` more it prints one JSON
object: matches held, connections, actions per second, round trips p50/p90/p99/max in
milliseconds, slow round trips by second, refusals and the server's CPU time.

    python benchmarks/server_load.py --matches 200 --seconds 60
    python benchmarks/server_load.py --postgres postgresql://keltis@127.0.0.1/keltis

The clients run in this process (one asyncio loop), so on a small machine they compete with
the server for the CPU: the JSON says how much CPU each side used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(database: str, port: int, bot_workers: int, log: Any) -> subprocess.Popen[bytes]:
    """``keltis serve`` in its own process group, its output going to ``log`` (a file: a
    pipe nobody reads would fill up and stop the server)."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "keltis",
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


@dataclass
class Tally:
    round_trips: list[float] = field(default_factory=list)
    slow_at: list[float] = field(default_factory=list)
    """When (monotonic) the round trips over 100 ms ended."""
    actions: int = 0
    refusals: int = 0
    finished: int = 0
    connections: int = 0


async def client(
    url: str,
    token: str,
    think: float,
    rng: random.Random,
    warm: float,
    until: float,
    tally: Tally,
) -> None:
    """One simulated player: round trips are counted once the run is warm (every client
    connected and shown its first snapshot), until ``until``."""
    async with connect(url, max_size=2**22) as socket_:
        tally.connections += 1
        await socket_.send(json.dumps({"type": "hello", "token": token}))
        view: dict[str, Any] = {}
        version = 0
        sent_at: dict[int, float] = {}
        ref = 0
        pending = False
        while time.monotonic() < until:
            if view.get("legal") and not pending:
                await asyncio.sleep(rng.expovariate(1 / think))
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


async def run(args: argparse.Namespace, base: str) -> dict[str, Any]:
    await wait_ready(base)
    rng = random.Random(args.seed)
    tally = Tally()
    jobs: list[tuple[str, str]] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for number in range(args.matches):
            game = "cards" if number % 2 else "board"
            against_bot = args.bot_every and number % args.bot_every == 0
            seats = (
                [{"kind": "person"}, {"kind": "bot", "level": "medium"}]
                if against_bot
                else [
                    {"kind": "person"},
                    {"kind": "person"},
                ]
            )
            made = (await http.post("/api/matches", json={"game": game, "seats": seats})).json()
            if "id" not in made:
                raise RuntimeError(f"could not create a match: {made}")
            jobs.append((made["id"], made["token"]))
            for invite in made["invites"]:
                joined = (
                    await http.post(
                        f"/api/matches/{made['id']}/join",
                        json={"invite": invite["invite"], "name": "Bea"},
                    )
                ).json()
                jobs.append((made["id"], joined["token"]))
            if made["invites"]:
                await http.post(
                    f"/api/matches/{made['id']}/start",
                    headers={"Authorization": f"Bearer {made['host_token']}"},
                )
    ws = base.replace("http", "ws", 1)
    started = time.monotonic()
    warm = started + args.warmup
    until = warm + args.seconds
    own_cpu = time.process_time()
    await asyncio.gather(
        *(
            client(
                f"{ws}/api/matches/{match_id}/live",
                token,
                args.think,
                random.Random(rng.random()),
                warm,
                until,
                tally,
            )
            for match_id, token in jobs
        )
    )
    elapsed = time.monotonic() - warm
    trips = sorted(tally.round_trips)

    def quantile(q: float) -> float | None:
        return round(1000 * trips[min(len(trips) - 1, int(q * len(trips)))], 2) if trips else None

    return {
        "matches": args.matches,
        "against_medium_bots": len(range(0, args.matches, args.bot_every)) if args.bot_every else 0,
        "connections": tally.connections,
        "seconds": round(elapsed, 1),
        "actions": tally.actions,
        "actions_per_second": round(tally.actions / elapsed, 1),
        "round_trip_ms": {
            "p50": quantile(0.5),
            "p90": quantile(0.9),
            "p99": quantile(0.99),
            "max": round(1000 * trips[-1], 2) if trips else None,
            "mean": round(1000 * statistics.fmean(trips), 2) if trips else None,
        },
        "slow_by_second": _by_second(tally.slow_at, warm),
        "refusals": tally.refusals,
        "matches_finished": tally.finished,
        "client_cpu_seconds": round(time.process_time() - own_cpu, 1),
        "think_seconds": args.think,
        "warmup_seconds": args.warmup,
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
    return round(total, 1)


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
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8192)), hard))
    load_before = round(os.getloadavg()[0], 2)  # other work on the machine, for the reader
    with tempfile.TemporaryDirectory() as folder:
        database = args.postgres or f"sqlite:///{folder}/load.sqlite3"
        port = free_port()
        log = open(f"{folder}/server.log", "wb")  # noqa: SIM115 - open while the server runs
        server = start_server(database, port, args.bot_workers, log)
        try:
            result = asyncio.run(run(args, f"http://127.0.0.1:{port}"))
            result["server_cpu_seconds"] = server_cpu(server.pid)
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
