"""Learner steps per CPU second of keltis.fast.BatchEnv against medium seats, against random
seats (issue 43: the medium level compiled into the kernels, goal: ≥ 50% of the rate against
random).

For each game whose kernel compiles the medium policy (``medium_scores``), 2 and 4 players,
in one run, alternating round by round and within a round (random, medium, random: the
machine's speed drifts over minutes, so each round's ratio compares measurements made close
in time): ``BatchEnv(game, players, --batch, opponents=...)`` stepped with a learner choosing
uniformly among the legal actions (numpy over the whole batch, outside the timed part); the
CPU time (``time.process_time``) of ``step`` only. A learner step is one decision of the
learner's seat, the other seats' moves inside it. Reported per game and player count: each
opponent's median rate over rounds and ``medium_over_random``, the median of the rounds'
ratios (and the lowest).

Greedy seats are measured in each round too (random, medium, greedy, random), as a bound: the
greedy bot rates each candidate with a table lookup or two on the same legal list, so
``greedy_over_random`` is about the most any policy that looks at its candidates can reach;
where it is near or below the goal, the goal asks a medium decision to cost no more than a
greedy one. Prints the JSON and merges it into ``--out``::

    python benchmarks/medium_speed.py                  # ~4 min per game
    python benchmarks/medium_speed.py --rounds 1 --out -
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from keltis.fast.env import BatchEnv
from keltis.fast.setup import kernel
from provenance import commit  # benchmarks/provenance.py, next to this script

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "kernel-medium-speed.json"
GAMES = ("cards", "board")
GOAL = 0.5


def rate(game: str, players: int, batch: int, steps: int, seed: int, opponents: str) -> float:
    """Learner steps per CPU second of ``BatchEnv.step``."""
    env = BatchEnv(game, players, batch, seed, opponents)
    rng = np.random.default_rng(seed)
    _, masks, _ = env.reset()
    spent = 0.0
    done = 0
    while done < steps:
        # uniform over the legal (a draw of 0.0 would pick action 0, legal or not)
        draw = rng.random(masks.shape, dtype=np.float32) + np.float32(1e-7)
        actions = np.argmax(masks * draw, axis=1)
        cpu = time.process_time()
        _, masks, _, _, _ = env.step(actions)
        spent += time.process_time() - cpu
        done += batch
    return done / spent


def main() -> None:
    """Warm up, run the rounds, print and write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=100_000, help="learner steps per part")
    parser.add_argument("--batch", type=int, default=256, help="games in the BatchEnv")
    parser.add_argument("--out", default=str(OUT), help="result file ('-': print only)")
    args = parser.parse_args()
    games = [g for g in args.games if hasattr(kernel(g), "medium_scores")]
    skipped = sorted(set(args.games) - set(games))
    started = time.perf_counter()
    for game in games:  # compile (or load) the kernels before timing
        for opponents in ("random", "medium", "greedy"):
            warm = BatchEnv(game, 2, 4, 0, opponents)
            warm.step(np.argmax(warm.reset()[1], axis=1))
    compile_seconds = time.perf_counter() - started
    samples: dict[str, dict[str, list[float]]] = {}
    for round_ in range(args.rounds):
        for game in games:
            for players in (2, 4):
                got = samples.setdefault(f"{game} {players}p", {})
                seed = 1000 * round_ + players
                # random in two halves around medium: the round's ratio compares rates
                # measured close in time
                half = args.steps // 2
                before = rate(game, players, args.batch, half, seed, "random")
                medium = rate(game, players, args.batch, args.steps, seed, "medium")
                greedy = rate(game, players, args.batch, args.steps, seed, "greedy")
                after = rate(game, players, args.batch, half, seed + 1, "random")
                random_rate = 2 / (1 / before + 1 / after)
                got.setdefault("random", []).append(random_rate)
                got.setdefault("medium", []).append(medium)
                got.setdefault("greedy", []).append(greedy)
                got.setdefault("ratio", []).append(medium / random_rate)
                got.setdefault("greedy_ratio", []).append(greedy / random_rate)
                print(
                    f"round {round_} {game} {players}p: random {random_rate:,.0f}, "
                    f"medium {medium:,.0f}, greedy {greedy:,.0f} learner steps/CPU s",
                    file=sys.stderr,
                    flush=True,
                )
    results: dict[str, Any] = {}
    for key, got in samples.items():
        results[key] = {
            "random_steps_per_cpu_second": round(statistics.median(got["random"])),
            "medium_steps_per_cpu_second": round(statistics.median(got["medium"])),
            "greedy_steps_per_cpu_second": round(statistics.median(got["greedy"])),
            "medium_over_random": round(statistics.median(got["ratio"]), 3),
            "lowest_round_ratio": round(min(got["ratio"]), 3),
            "greedy_over_random": round(statistics.median(got["greedy_ratio"]), 3),
            "meets_goal": statistics.median(got["ratio"]) >= GOAL,
        }
    out: dict[str, Any] = {
        "benchmark": "kernel-medium-speed",
        "what": (
            "BatchEnv learner steps per CPU second against medium seats vs random seats "
            f"(goal: medium >= {GOAL:.0%} of random); greedy seats as a bound"
        ),
        "command": "python benchmarks/medium_speed.py",
        "python": platform.python_version(),
        "rounds": args.rounds,
        "steps_per_part": args.steps,
        "batch": args.batch,
        "compile_or_load_seconds": round(compile_seconds, 1),
    }
    if args.out != "-" and Path(args.out).exists():
        out = {**json.loads(Path(args.out).read_text()), **out}
    out.setdefault("results", {})
    for key, value in results.items():
        out["results"][key] = {**value, "commit": commit()}
    if skipped:
        print(f"skipped (no medium in the kernel): {', '.join(skipped)}", file=sys.stderr)
    text = json.dumps(out, indent=1)
    print(text)
    if args.out != "-":
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
