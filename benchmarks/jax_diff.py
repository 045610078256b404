"""The full proof of keltis.jax against the numba kernel, decision by decision.

For each game (board, cards) and each player count (2-4) it plays ``--games`` games (10,000
by default) split over three lines: self-play with uniform random decisions (every seat's
decisions compared, ``win`` reward), self-play with the ``lays`` policy under a short turn cap
and the ``margin`` reward (the take-back variant too, for the board game), and the learner's
``lays`` decisions against the medium heuristic's seats (whose games reach the board game's
goal end and the card game's closed rows and last lays). At every learner decision the
observation, the legal mask and the seat to move must be equal; at every end the rewards,
the truncation flag and the last observation (``keltis.jax.diff``). Each game and player
count runs in its own process (``--jobs`` at a time), niced; the JSON result goes to ``--out``
with every line's counts:

    python benchmarks/jax_diff.py                       # ~30 min on a busy 2-core machine
    python benchmarks/jax_diff.py --games 300 --out -   # a quick look, printed
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from provenance import commit  # benchmarks/provenance.py, next to this script

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "jax-env-diff.json"
GAMES = ("board", "cards")


def _lines(game: str, games: int) -> list[dict[str, Any]]:
    """The three lines of one game and player count: their options and games."""
    capped = games // 5
    medium = games // 5
    variant: dict[str, Any] = {"turn_cap": 40}
    if game == "board":
        variant["no_take_back"] = False
    return [
        {"games": games - capped - medium, "policy": "random", "reward": "win"},
        {
            "games": capped,
            "policy": "lays",
            "reward": "margin",
            "variant": variant,
        },
        {"games": medium, "policy": "lays", "reward": "win", "opponents": "medium"},
    ]


def _run(game: str, players: int, games: int, seed: int, batch: int) -> list[dict[str, Any]]:
    os.nice(10)
    # in the worker: JAX and numba load there, each process with its own
    from keltis.jax.diff import compare

    out = []
    for number, line in enumerate(_lines(game, games)):
        start = time.process_time()
        size = min(batch, line["games"])
        result = compare(game, players, batch=size, seed=seed + number, **line)
        result["cpu_seconds"] = round(time.process_time() - start, 1)
        print(json.dumps(result), file=sys.stderr, flush=True)
        out.append(result)
    return out


def main() -> None:
    """Run the lines, print each line's result to stderr, write the JSON result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per player count")
    parser.add_argument("--seed", type=int, default=3_000_000, help="seed of the first line")
    parser.add_argument("--batch", type=int, default=500, help="games played side by side")
    parser.add_argument("--jobs", type=int, default=2, help="processes at a time")
    parser.add_argument("--out", default=str(OUT), help="result file ('-': standard output)")
    args = parser.parse_args()
    started = time.perf_counter()
    code = commit()  # the code the workers run: read before they start
    cases = [(game, players) for game in GAMES for players in (2, 3, 4)]
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = {
            case: pool.submit(_run, *case, args.games, args.seed, args.batch) for case in cases
        }
        results = [futures[case].result() for case in cases]
    lines = [line for group in results for line in group]
    totals = {
        f"{g} {p}p": {
            "games": sum(x["games"] for x in group),
            "decisions": sum(x["decisions"] for x in group),
            "ends": {reason: sum(x["ends"][reason] for x in group) for reason in group[0]["ends"]},
        }
        for (g, p), group in zip(cases, results, strict=True)
    }
    differences = sum(sum(x["differences"].values()) for x in lines)
    report = {
        "benchmark": "jax-env-diff",
        "what": "keltis.jax against the numba kernel (observation, mask, seat, rewards, end)",
        "commit": code,
        "python": platform.python_version(),
        "jax": _version("jax"),
        "pgx": _version("pgx"),
        "games_per_player_count": args.games,
        "differences": differences,
        "totals": totals,
        "lines": lines,
        "wall_seconds": round(time.perf_counter() - started, 1),
    }
    text = json.dumps(report, indent=1) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}: {differences} differences", file=sys.stderr)
    if differences:
        raise SystemExit(1)


def _version(package: str) -> str:
    from importlib.metadata import version  # only for the report

    return version(package)


if __name__ == "__main__":
    main()
