"""Arena overhead: what a tournament game costs against a bench game of the same deal.

For each game and player count, and for each build of the engine (``pure``: pure Python,
``compiled``: mypyc; each in a child process of its own), it alternates, round by round and
in CPU time:

* ``bench``: ``new_game`` and ``GameState.play_random`` on the tournament's game seeds (what
  ``keltis bench`` measures);
* ``arena``: the same number of games as a tournament of random bots, played in this process
  (``run_tournament(workers=1)``): bots built from their specs, every decision through the
  match layer, each record written to disk by the tournament's driver;
* ``game``: what a worker does for one game (``keltis.arena.game.play_game``: the record
  started, the bots built, the game played on the match layer, the record's text), timed game
  by game right after the bench game on the same deal — interleaved that finely, its ratio
  stays steady on a noisy host where whole rounds do not.

All play uniformly random decisions on the same deals; decisions are counted as
``len(state.history)`` (every decision, forced ones too). The ratio is the arena's CPU time per
decision over the bench's; ``arena_system_us_per_decision`` is the part of the arena's time
spent in the kernel (writing one record file a game: on the 2-core VM, creating a file costs
0.2-2 ms of system time), and ``ratio_without_system`` the ratio without it; ``game_ratio``
is the worker's part alone over the bench games played next to it. ::

    python benchmarks/arena_speed.py                       # 40 games a round, 3 rounds
    python benchmarks/arena_speed.py --game board --players 2 --games 100
    python benchmarks/arena_speed.py --out benchmarks/results/arena-speed.json

Prints one JSON object per game, player count and engine, and writes them all to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from speed import available, engine_env  # benchmarks/speed.py, next to this script

ENGINES = ("pure", "compiled")


def child(game: str, players: int, games: int, rounds: int) -> dict[str, Any]:
    """Measure in this process (``--child``): bench and arena alternating, CPU seconds."""
    import random

    from keltis._native import engine
    from keltis.arena.game import play_game
    from keltis.arena.run import run_tournament
    from keltis.arena.spec import parse_bots
    from keltis.arena.tournament import Tournament
    from keltis.games import get_game

    rules = get_game(game)
    clock = time.process_time
    totals = {
        "bench_cpu": 0.0,
        "arena_cpu": 0.0,
        "arena_system": 0.0,
        "bench_decisions": 0,
        "arena_decisions": 0,
        "paired_bench_cpu": 0.0,
        "game_cpu": 0.0,
        "paired_bench_decisions": 0,
        "game_decisions": 0,
    }
    for round_ in range(rounds):
        tournament = Tournament.create(
            game,
            parse_bots([f"seat{i}=random" for i in range(players)]),
            players=players,
            games=games,
            seed=round_,
        )
        tasks = [tournament.task(i) for i in range(games)]
        start = clock()
        for task in tasks:
            state = rules.new_game(players, seed=task.seed, variant=task.variant)
            state.play_random(random.Random(task.seed))
            totals["bench_decisions"] += len(state.history)
        totals["bench_cpu"] += clock() - start
        with tempfile.TemporaryDirectory() as folder:
            start, kernel = clock(), os.times().system
            summary = run_tournament(tournament, Path(folder) / "t", workers=1)
            totals["arena_cpu"] += clock() - start
            totals["arena_system"] += os.times().system - kernel
        if summary.failure or summary.done != games:
            raise RuntimeError(f"the tournament did not finish: {summary.failure}")
        totals["arena_decisions"] += sum(len(r.actions) for r in summary.records.values())
        for task in tasks:  # game by game: the bench game, then the worker's on its deal
            start = clock()
            state = rules.new_game(players, seed=task.seed, variant=task.variant)
            state.play_random(random.Random(task.seed))
            totals["paired_bench_cpu"] += clock() - start
            totals["paired_bench_decisions"] += len(state.history)
            start = clock()
            result = play_game(task)
            totals["game_cpu"] += clock() - start
            if result.game is None:
                raise RuntimeError(f"game {task.index} failed: {result.error}")
            totals["game_decisions"] += len(result.game.actions)
    return {**totals, "engine": engine()}


def measure(engine: str, game: str, players: int, games: int, rounds: int) -> dict[str, Any]:
    """One engine's measurement, in a child process with that build."""
    command = [sys.executable, __file__, "--child", game, str(players), str(games), str(rounds)]
    done = subprocess.run(command, capture_output=True, text=True, env=engine_env(engine))
    if done.returncode != 0:
        raise RuntimeError(f"{engine} {game} {players}p failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark from the command line."""
    args_list = sys.argv[1:] if argv is None else argv
    if args_list[:1] == ["--child"]:
        name, players, count, rounds = args_list[1:5]
        print(json.dumps(child(name, int(players), int(count), int(rounds))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=["board", "cards", "all"], default="all")
    parser.add_argument("--players", type=int, choices=[2, 3, 4], action="append")
    parser.add_argument("--games", type=int, default=40, help="games per round (default 40)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument("--out", type=Path, default=None, help="write the lines as JSON")
    args = parser.parse_args(args_list)
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    game_names = ["board", "cards"] if args.game == "all" else [args.game]
    engines = [e for e in ENGINES if available(e, {}) is None]
    lines = []
    for game in game_names:
        for players in args.players or [2, 3, 4]:
            for engine in engines:
                got = measure(engine, game, players, args.games, args.rounds)
                bench = got["bench_cpu"] / got["bench_decisions"]
                arena = got["arena_cpu"] / got["arena_decisions"]
                system = got["arena_system"] / got["arena_decisions"]
                paired = got["paired_bench_cpu"] / got["paired_bench_decisions"]
                worker = got["game_cpu"] / got["game_decisions"]
                line = {
                    "benchmark": "arena-speed",
                    "game": game,
                    "players": players,
                    "engine": engine,
                    "build": got["engine"],
                    "games": args.games * args.rounds,
                    "bench_us_per_decision": round(bench * 1e6, 3),
                    "arena_us_per_decision": round(arena * 1e6, 3),
                    "bench_games_per_s": round(args.games * args.rounds / got["bench_cpu"], 1),
                    "arena_games_per_s": round(args.games * args.rounds / got["arena_cpu"], 1),
                    "arena_system_us_per_decision": round(system * 1e6, 3),
                    "ratio": round(arena / bench, 2),
                    "ratio_without_system": round((arena - system) / bench, 2),
                    "game_us_per_decision": round(worker * 1e6, 3),
                    "game_ratio": round(worker / paired, 2),
                    "target_ratio": 3.0,
                }
                lines.append(line)
                print(json.dumps(line), flush=True)
    if args.out is not None:
        document = {
            "benchmark": "arena-speed",
            "python": platform.python_version(),
            "machine": platform.machine(),
            "measured": time.strftime("%Y-%m-%d"),
            "lines": lines,
        }
        args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
