"""The full differential run of keltis.fast.BatchEnv against keltis.env, decision by decision.

For each game (cards, board) and each player count (2-4) it plays ``--games``
games (10,000 by default) split over four lines: self-play (every decision of every seat
compared, ``win`` reward), the learner against greedy seats (``margin`` reward), against
random seats (``win``), and against random seats under a short turn cap (truncation). At
every decision the learner sees, the observation and the legal mask must equal
``keltis.env.encode``'s of the reference engine's view for the same set-up and choices; at
every end, the last observation, every seat's reward, the scores and the truncation flag
(``keltis.fast.env_diff``). Any difference stops the run with the game's history. Each
game and player count runs in its own process (``--jobs`` at a time); the JSON result goes
to ``--out``:

    python benchmarks/batch_env_diff.py                       # ~40 min on a busy 2-core machine
    python benchmarks/batch_env_diff.py --games 200 --out -   # a quick look, printed
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from provenance import commit  # benchmarks/provenance.py, next to this script

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "batch-env-diff.json"
GAMES = ("cards", "board")


def _lines(games: int) -> list[dict[str, Any]]:
    """The four lines of one game and player count: their options and games."""
    self_play = games // 5
    capped = max(1, games // 20)
    greedy = (games - self_play - capped) // 2
    rest = games - self_play - capped - greedy
    return [
        {"opponents": None, "reward": "win", "n_games": self_play},
        {"opponents": "greedy", "reward": "margin", "n_games": greedy},
        {"opponents": "random", "reward": "win", "n_games": rest},
        {"opponents": "random", "reward": "win", "n_games": capped, "variant": {"turn_cap": 25}},
    ]


def _run(game: str, players: int, games: int, seed: int) -> list[dict[str, Any]]:
    from keltis.fast.env_diff import env_differential  # in the worker: numba loads there

    out = []
    for number, line in enumerate(_lines(games)):
        start = time.process_time()
        result = env_differential(game, players, batch=64, seed=seed + number, **line)
        result["cpu_seconds"] = round(time.process_time() - start, 1)
        print(json.dumps(result), file=sys.stderr, flush=True)
        out.append(result)
    return out


def main() -> None:
    """Run the lines, print each line's result to stderr, write the JSON result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per player count")
    parser.add_argument("--seed", type=int, default=2_000_000, help="seed of the first line")
    parser.add_argument("--jobs", type=int, default=3, help="processes at a time")
    parser.add_argument("--out", default=str(OUT), help="result file ('-': standard output)")
    args = parser.parse_args()
    started = time.perf_counter()
    cases = [(game, players) for game in GAMES for players in (2, 3, 4)]
    with ProcessPoolExecutor(args.jobs) as pool:
        # the longest (board) first, the results in the cases' order
        futures = {
            case: pool.submit(_run, *case, args.games, args.seed)
            for case in sorted(cases, key=lambda case: case[0] != "board")
        }
        results = [futures[case].result() for case in cases]
    lines = [line for group in results for line in group]
    totals = {
        f"{g} {p}p": {
            "games": sum(x["games"] for x in group),
            "decisions_compared": sum(x["decisions_compared"] for x in group),
        }
        for (g, p), group in zip(cases, results, strict=True)
    }
    report = {
        "benchmark": "batch-env-diff",
        "what": "keltis.fast.BatchEnv against keltis.env (observation, mask, rewards)",
        "commit": commit(),
        "python": platform.python_version(),
        "games_per_player_count": args.games,
        "differences": 0,
        "totals": totals,
        "lines": lines,
        "wall_seconds": round(time.perf_counter() - started, 1),
    }
    text = json.dumps(report, indent=1) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
