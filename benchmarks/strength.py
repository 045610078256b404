"""Strength benchmark: how often each bot wins against others, with 95% (Wilson) intervals.

Lines (each over ``--games`` games; the measured bot's seat rotates over the game seeds):

* ``heuristic-vs-3-random``: heuristic against three random bots (4 players), target ≥ 90%;
* ``hard-vs-3-heuristic``: level *hard* against three heuristic bots (4 players), target ≥ 45%;
* ``hard-vs-heuristic``: level *hard* against one heuristic bot (2 players), target ≥ 65%;
* ``hard-decision-time``: hard's seconds per decision (decisions with more than one legal
  action) over the two lines above: median, 95th percentile and maximum.

A win counts 1, a victory shared by k players 1/k ("win share"); ``wins_incl_ties`` counts a
shared victory as a win. Every bot gets only its seat's view. Run::

    python benchmarks/strength.py --game board --games 400 --workers 2

It prints one JSON object per line and writes them all to
``benchmarks/results/strength-<game>.json`` (``--out`` to change, ``--out -`` for none).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import platform
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from keltis.bots import make_bot
from keltis.bots.policies import heuristics
from keltis.games import get_game

RESULTS = Path(__file__).parent / "results"
#: Safety net only: a game reaching it is reported as truncated (none is expected).
TURN_CAP = 3000


@dataclass(frozen=True)
class Line:
    """One measured pairing."""

    name: str
    hero: str
    opponent: str
    players: int
    target: float


LINES = (
    Line("heuristic-vs-3-random", "heuristic", "random", 4, 0.90),
    Line("hard-vs-3-heuristic", "hard", "heuristic", 4, 0.45),
    Line("hard-vs-heuristic", "hard", "heuristic", 2, 0.65),
)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% for ``z`` = 1.96)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_one(job: tuple[str, Line, int]) -> dict[str, Any]:
    """Play one game of a line; the hero sits at seat ``seed % players``."""
    game_name, line, seed = job
    game = get_game(game_name)
    state = game.new_game(line.players, seed=seed, variant={"turn_cap": TURN_CAP})
    hero_seat = seed % line.players
    bots = [
        make_bot(line.hero if seat == hero_seat else line.opponent, seed * 10 + seat)
        for seat in range(line.players)
    ]
    times: list[float] = []
    clock = time.perf_counter
    while not state.over:
        seat = state.current_player
        view = state.view(seat)
        start = clock()
        action = bots[seat].choose(view)
        if seat == hero_seat and len(view.legal) > 1:
            times.append(clock() - start)
        state.apply(action)
    outcome = state.outcome()
    others = [s for p, s in enumerate(outcome.scores) if p != hero_seat]
    won = hero_seat in outcome.winners
    return {
        "share": 1.0 / len(outcome.winners) if won else 0.0,
        "win": won,
        "margin": outcome.scores[hero_seat] - max(others),
        "score": outcome.scores[hero_seat],
        "end": outcome.end_reason.value,
        "times": times,
    }


def run_line(
    game: str, line: Line, games: int, seed: int, pool: Any | None
) -> tuple[dict[str, Any], list[float]]:
    """Play ``games`` games of ``line`` and summarise them."""
    jobs = [(game, line, seed + i) for i in range(games)]
    start = time.perf_counter()
    results = list(pool.imap_unordered(play_one, jobs)) if pool else [play_one(j) for j in jobs]
    elapsed = time.perf_counter() - start
    share = sum(r["share"] for r in results)
    low, high = wilson(share, games)
    ends: dict[str, int] = {}
    for r in results:
        ends[r["end"]] = ends.get(r["end"], 0) + 1
    times = [t for r in results for t in r["times"]]
    summary = {
        "benchmark": "strength",
        "game": game,
        "line": line.name,
        "hero": line.hero,
        "opponent": line.opponent,
        "players": line.players,
        "games": games,
        "win_share": round(share / games, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "wins_incl_ties": sum(1 for r in results if r["win"]),
        "target": line.target,
        "meets_target": share / games >= line.target,
        "chance": round(1 / line.players, 4),
        "mean_margin": round(statistics.fmean(r["margin"] for r in results), 2),
        "mean_score": round(statistics.fmean(r["score"] for r in results), 2),
        "end_reasons": ends,
        "hero_decisions": len(times),
        "seconds": round(elapsed, 1),
    }
    return summary, times


def timing_summary(game: str, times: list[float]) -> dict[str, Any]:
    """Median, 95th percentile and maximum seconds per decision."""
    ordered = sorted(times)
    return {
        "benchmark": "strength",
        "game": game,
        "line": "hard-decision-time",
        "decisions": len(ordered),
        "median_s": round(statistics.median(ordered), 4) if ordered else None,
        "p95_s": round(ordered[int(0.95 * (len(ordered) - 1))], 4) if ordered else None,
        "max_s": round(ordered[-1], 4) if ordered else None,
        "target_max_s": 1.0,
        "meets_target": bool(ordered) and ordered[-1] <= 1.0,
        "note": "wall time per decision with a choice, measured while the games ran in "
        "parallel worker processes on a shared machine",
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark from the command line."""
    heuristics("board")
    heuristics("cards")  # loaded before the workers start
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("board", "cards"), default="board")
    parser.add_argument("--games", type=int, default=400, help="games per line (default 400)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed (default 1)")
    parser.add_argument(
        "--lines",
        default=",".join(line.name for line in LINES),
        help="comma-separated line names (default: all)",
    )
    parser.add_argument("--out", default=None, help="result file (default results/...; - none)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    wanted = [name.strip() for name in args.lines.split(",") if name.strip()]
    known = {line.name: line for line in LINES}
    for name in wanted:
        if name not in known:
            parser.error(f"unknown line {name!r}: choose from {', '.join(known)}")
    out_path = None if args.out == "-" else Path(args.out or RESULTS / f"strength-{args.game}.json")
    records: list[dict[str, Any]] = []
    hard_times: list[float] = []
    pool = multiprocessing.Pool(args.workers) if args.workers > 1 else None
    try:
        for name in wanted:
            line = known[name]
            summary, times = run_line(args.game, line, args.games, args.seed, pool)
            if line.hero == "hard":
                hard_times += times
            records.append(summary)
            print(json.dumps(summary), flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    if hard_times:
        timing = timing_summary(args.game, hard_times)
        records.append(timing)
        print(json.dumps(timing), flush=True)
    if out_path is not None:
        out_path.parent.mkdir(parents=True, exist_ok=True)
        document = {
            "benchmark": "strength",
            "game": args.game,
            "games_per_line": args.games,
            "first_seed": args.seed,
            "workers": args.workers,
            "python": platform.python_version(),
            "machine": platform.machine(),
            "cpus": multiprocessing.cpu_count(),
            "lines": records,
        }
        out_path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
