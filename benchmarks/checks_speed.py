"""Random playouts, compiled, before and after a change to the rules engines: one run,
alternating, CPU time.

Written for the reshaping that checks each rule in one place (docs/architecture.md, "Each
rule checked in one place"): ``before`` is a checkout of the engine before it (compiled in
place: ``python setup.py build_ext --inplace`` there), ``after`` this tree (``make install``).
For each game and player count, rounds alternate between

* ``before``: the old engine, every action through ``apply`` (as its playouts did);
* ``after_apply``: the new engine, every action through ``apply`` (checked);
* ``after_apply_legal``: the new engine's trusted path, ``apply_legal`` (its playouts now).

Each measure runs in a child process of its own (``PYTHONPATH`` picks the tree) that plays the
same seeded games, uniformly random, and reports the CPU time of its playing loop. The ratio
of medians says how much faster (>1) or slower (<1) than before.

    python benchmarks/checks_speed.py --before /tmp/base/src --rounds 7 \\
        --out benchmarks/results/checks-speed.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, random, sys, time
from keltis import get_game
from keltis._native import engine
game, players, games, method = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rules = get_game(game)
states = [rules.new_game(players, seed=seed) for seed in range(games)]
decisions = 0
start = time.process_time()
for seed, state in enumerate(states):
    rng = random.Random(seed)
    apply = getattr(state, method)
    while not state.over:
        actions = state.legal_actions()
        apply(actions[int(rng.random() * len(actions))])
    decisions += len(state.history)
seconds = time.process_time() - start
print(json.dumps({"engine": engine(), "seconds": seconds, "decisions": decisions}))
"""


def measure(src: Path, game: str, players: int, games: int, method: str) -> dict[str, Any]:
    """One child's playouts from the tree ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    env.pop("KELTIS_PURE_PYTHON", None)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, game, str(players), str(games), method],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    if not result["engine"].startswith("compiled"):
        raise SystemExit(f"{src} does not run compiled: {result['engine']}")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the old tree's src/")
    parser.add_argument("--after", type=Path, default=ROOT / "src", help="this tree's src/")
    parser.add_argument("--games", type=int, default=300, help="games per measure")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    runs = {
        "before": (args.before, "apply"),
        "after_apply": (args.after, "apply"),
        "after_apply_legal": (args.after, "apply_legal"),
    }
    lines = []
    for game in ("board", "cards"):
        for players in (2, 4):
            times: dict[str, list[float]] = {name: [] for name in runs}
            decisions = 0
            for _ in range(args.rounds):
                for name, (src, method) in runs.items():
                    result = measure(src, game, players, args.games, method)
                    times[name].append(result["seconds"])
                    decisions = result["decisions"]
            medians = {name: statistics.median(t) for name, t in times.items()}
            line = {
                "game": game,
                "players": players,
                "games": args.games,
                "decisions": decisions,
                "rounds": args.rounds,
                "cpu_seconds_median": {k: round(v, 4) for k, v in medians.items()},
                "decisions_per_cpu_second": {k: round(decisions / v) for k, v in medians.items()},
                "speed_vs_before": {k: round(medians["before"] / v, 3) for k, v in medians.items()},
            }
            print(json.dumps(line), flush=True)
            lines.append(line)
    if args.out:
        args.out.write_text(
            json.dumps(
                {
                    "machine": platform.platform(),
                    "python": platform.python_version(),
                    "lines": lines,
                },
                indent=1,
            )
            + "\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
