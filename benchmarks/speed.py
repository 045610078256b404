"""Speed benchmark: random playouts per CPU second on one core, every engine side by side.

For each game and player count it measures, in one run and alternating (round by round, each
engine in turn, so load on a shared machine falls on all of them alike), CPU time only:

* ``pure``: the rules engine as pure Python (``KELTIS_PURE_PYTHON=1``);
* ``compiled``: the same source compiled with mypyc (skipped when this install is not
  compiled: ``make install`` with a C compiler builds it);
* ``fast``: ``keltis.fast.simulate``, the numba batch simulator, if it can be imported;
* ``c``: the plain-C references of ``../shared/limit/`` (built with ``cc -O2`` into a
  temporary folder), if they are there.

Every engine plays uniformly random decisions and counts every decision, forced ones too
(``len(state.history)``; the C references count the same, but choose uniformly among hand
slots, so duplicates weigh more, see their README). Each engine runs in a child process of its
own (the compiled and pure engines cannot share one); Python engines report the CPU time of
their playing loop, the C references the child's CPU time (``getrusage``).

    python benchmarks/speed.py                         # all, 3 rounds of 2 s per engine
    python benchmarks/speed.py --game board --players 4 --seconds 5 --rounds 5
    python benchmarks/speed.py --out benchmarks/results/speed.json

Prints one JSON object per game and player count, and writes them all to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LIMIT = ROOT.parent / "shared" / "limit"
ENGINES = ("pure", "compiled", "fast", "c")


def child(engine: str, game: str, players: int, seconds: float, seed: int) -> dict[str, Any]:
    """Measure one engine in this process (``--child``): games, decisions, CPU seconds."""
    clock = time.process_time
    games = decisions = 0
    if engine == "fast":
        from keltis.fast import simulate

        simulate(game, players, 8, "random", seed)  # compile or load the kernels first
        batch = 200
        start = clock()
        while clock() - start < seconds:
            result = simulate(game, players, batch, "random", seed + games)
            games += batch
            decisions += int(result.decisions.sum())
        return {"games": games, "decisions": decisions, "cpu": clock() - start}
    import random

    from keltis._native import engine as running
    from keltis.games import get_game

    rules = get_game(game)
    start = clock()
    while clock() - start < seconds:
        state = rules.new_game(players, seed=seed + games)
        state.play_random(random.Random(seed + games))
        games += 1
        decisions += len(state.history)
    return {"games": games, "decisions": decisions, "cpu": clock() - start, "engine": running()}


def build_c(folder: Path) -> dict[str, Path]:
    """The C references built with ``cc -O2`` into ``folder`` (none if absent or failing)."""
    out = {}
    for game, source in (("board", "board_random.c"), ("cards", "cards_random.c")):
        path = LIMIT / source
        target = folder / f"{game}_random"
        if not path.exists():
            continue
        cc = os.environ.get("CC", "cc")
        done = subprocess.run([cc, "-O2", "-o", str(target), str(path)], capture_output=True)
        if done.returncode == 0:
            out[game] = target
    return out


def engine_env(engine: str) -> dict[str, str]:
    """The environment of a child process that runs keltis as ``engine`` (``pure``: pure
    Python forced; otherwise the build as installed)."""
    env = dict(os.environ)
    env.pop("KELTIS_PURE_PYTHON", None)
    if engine == "pure":
        env["KELTIS_PURE_PYTHON"] = "1"
    return env


def run_python(engine: str, game: str, players: int, seconds: float, seed: int) -> dict[str, Any]:
    """One measurement of a Python engine in a child process."""
    env = engine_env(engine)
    command = [sys.executable, __file__, "--child", engine, game, str(players), str(seconds)]
    done = subprocess.run(
        [*command, str(seed)], capture_output=True, text=True, env=env, check=True
    )
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def run_c(binary: Path, players: int, seconds: float) -> dict[str, Any]:
    """One measurement of a C reference; CPU time of the child from ``getrusage``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [str(binary), str(players), str(seconds)], capture_output=True, text=True, check=True
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    line = json.loads(done.stdout.splitlines()[-1])
    games = int(line["games"])
    return {"games": games, "decisions": games * float(line["decisions_per_game"]), "cpu": cpu}


def available(engine: str, c_binaries: dict[str, Path]) -> str | None:
    """Why ``engine`` cannot be measured here (``None``: it can)."""
    if engine == "c":
        return None if c_binaries else f"no C references built from {LIMIT}"
    env = engine_env(engine)
    code = {
        "pure": "import keltis",
        "compiled": "from keltis._native import is_compiled; assert is_compiled()",
        "fast": "import keltis.fast",
    }[engine]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env)
    if done.returncode == 0:
        return None
    if engine == "compiled":
        return "this install is not compiled (make install with a C compiler and mypyc)"
    return f"cannot import keltis.{engine}"


def main() -> None:
    """Run the lines asked for on the command line."""
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        engine, game, count, seconds, seed = sys.argv[2:7]
        print(json.dumps(child(engine, game, int(count), float(seconds), int(seed))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["board", "cards", "all"], default="all")
    parser.add_argument("--players", type=int, choices=[2, 3, 4], action="append")
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement (CPU)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engines", default=",".join(ENGINES), help="comma-separated")
    parser.add_argument("--out", type=Path, default=None, help="write the lines as JSON")
    args = parser.parse_args()
    games = ("board", "cards") if args.game == "all" else (args.game,)
    with tempfile.TemporaryDirectory() as folder:
        c_binaries = build_c(Path(folder))
        skipped = {}
        engines = []
        for engine in args.engines.split(","):
            why = available(engine, c_binaries)
            if why is None:
                engines.append(engine)
            else:
                skipped[engine] = why
        lines = []
        for game in games:
            for players in args.players or (2, 3, 4):
                totals = {e: {"games": 0, "decisions": 0.0, "cpu": 0.0} for e in engines}
                ran: dict[str, str] = {}
                for round_ in range(args.rounds):
                    for engine in engines:
                        seed = args.seed + round_ * 100_000
                        if engine == "c":
                            if game not in c_binaries:
                                continue
                            got = run_c(c_binaries[game], players, args.seconds)
                        else:
                            got = run_python(engine, game, players, args.seconds, seed)
                            if "engine" in got:
                                ran[engine] = got["engine"]
                        for key in ("games", "decisions", "cpu"):
                            totals[engine][key] += got[key]
                line: dict[str, Any] = {"game": game, "players": players, "engines": {}}
                for engine, total in totals.items():
                    if not total["games"]:
                        continue
                    line["engines"][engine] = {
                        "games_per_second": round(total["games"] / total["cpu"], 1),
                        "decisions_per_game": round(total["decisions"] / total["games"], 1),
                        "ns_per_decision": round(total["cpu"] / total["decisions"] * 1e9),
                        "games": total["games"],
                        "cpu_seconds": round(total["cpu"], 2),
                        **({"ran": ran[engine]} if engine in ran else {}),
                    }
                rates = {e: v["games_per_second"] for e, v in line["engines"].items()}
                line["ratios"] = {
                    f"{a}/{b}": round(rates[a] / rates[b], 3)
                    for a, b in (
                        ("compiled", "pure"),
                        ("fast", "pure"),
                        ("pure", "c"),
                        ("compiled", "c"),
                        ("fast", "c"),
                    )
                    if a in rates and b in rates
                }
                print(json.dumps(line), flush=True)
                lines.append(line)
    if args.out is not None:
        report = {
            "benchmark": "speed",
            "how": "uniform random playouts; CPU time; engines alternating round by round",
            "seconds_per_measurement": args.seconds,
            "rounds": args.rounds,
            "machine": platform.machine(),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "skipped": skipped,
            "lines": lines,
        }
        args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
