"""Hard's search with its playouts in Python and compiled (``ismcts-kernel``): CPU per decision.

Both searches decide the same positions (every ``--every``-th decision with a choice of
seeded games played by random moves), one after the other at each position, so that a
machine's slow spells fall on both: hard's budget (800 playouts, 5 rounds each, the race
between root actions on) and the same without the race (all 800 playouts: the playouts'
own speed). CPU time of this process (``time.process_time``). One JSON object per game and
player count on stdout, and the whole as ``--out``::

    python benchmarks/kernel_search.py --out benchmarks/results/kernel-search-speed.json
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from keltis.bots.ismcts import SearchConfig, search
from keltis.core.protocol import GameState
from keltis.fast.search import KernelPlayouts
from keltis.games import GAME_NAMES, get_game

BUDGETS = {
    "hard": SearchConfig(iterations=800, playout_rounds=5),
    "all-800": SearchConfig(iterations=800, playout_rounds=5, race=False),
}


def positions(game: str, players: int, seed: int, every: int, count: int) -> list[GameState]:
    """``count`` positions with a choice, every ``every``-th decision of seeded random games."""
    found: list[GameState] = []
    rng = random.Random(seed)
    while len(found) < count:
        state = get_game(game).new_game(players, seed=rng.getrandbits(32))
        step = 0
        while not state.over and len(found) < count:
            legal = state.legal_actions()
            if step % every == 0 and len(legal) > 1:
                found.append(state.clone())
            state.apply_legal(legal[rng.randrange(len(legal))])
            step += 1
    return found


def measure(game: str, players: int, seed: int, every: int, count: int) -> dict[str, Any]:
    """Both searches at every position under each budget: CPU seconds and playouts."""
    compiled = KernelPlayouts(game, players)
    states = positions(game, players, seed, every, count)
    view = states[0].view(states[0].current_player)
    search(view, SearchConfig(iterations=20), random.Random(0), playouts=compiled)  # compile
    out: dict[str, Any] = {"game": game, "players": players, "positions": len(states)}
    for budget, config in BUDGETS.items():
        cpu: dict[str, list[float]] = {"python": [], "kernel": []}
        playouts = {"python": 0, "kernel": 0}
        for i, state in enumerate(states):
            view = state.view(state.current_player)
            for name, how in (("python", None), ("kernel", compiled)):
                start = time.process_time()
                result = search(view, config, random.Random(seed + i), playouts=how)
                cpu[name].append(time.process_time() - start)
                playouts[name] += result.iterations
        median = {name: statistics.median(times) for name, times in cpu.items()}
        rate = {name: playouts[name] / sum(cpu[name]) for name in cpu}
        out[budget] = {
            "median_cpu_s": {name: round(v, 5) for name, v in median.items()},
            "decisions_per_cpu_s": {name: round(len(t) / sum(t), 2) for name, t in cpu.items()},
            "playouts_per_cpu_s": {name: round(v) for name, v in rate.items()},
            "playouts": playouts,
            "speedup_median": round(median["python"] / median["kernel"], 2),
            "speedup_playouts": round(rate["kernel"] / rate["python"], 2),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=40, help="per game and players (40)")
    parser.add_argument("--every", type=int, default=7, help="every n-th decision (7)")
    parser.add_argument("--seed", type=int, default=880_001)
    parser.add_argument("--players", default="2,4", help="player counts (2,4)")
    parser.add_argument("--out", type=Path, help="write the results here as JSON")
    args = parser.parse_args(argv)
    if args.positions < 1 or args.every < 1:
        parser.error("--positions and --every must be at least 1")
    try:
        counts = [int(n) for n in args.players.split(",")]
    except ValueError:
        parser.error(f"--players: whole numbers separated by commas, not {args.players!r}")
    results = []
    for game in GAME_NAMES:
        for players in counts:
            try:
                get_game(game).check_players(players)
            except ValueError as error:
                parser.error(str(error))
            result = measure(game, players, args.seed, args.every, args.positions)
            print(json.dumps(result), flush=True)
            results.append(result)
    if args.out is not None:
        document = {
            "benchmark": "kernel-search",
            "date": time.strftime("%Y-%m-%d"),
            "host": platform.node(),
            "python": sys.version.split()[0],
            "seed": args.seed,
            "results": results,
        }
        args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
