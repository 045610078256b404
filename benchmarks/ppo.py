"""PPO benchmark: measure a policy trained by examples/train_ppo.py in the arena, and draw its
training curve.

Measuring is as in ``benchmarks/learned.py`` (its ``measure``): arena tournaments (one
worker, seats rotating every game, tournament seed ``--eval-seed``) of the learned player,
seated by the policy-file spec ``learned=PATH``, against ``random``, ``easy`` (greedy) and
``medium`` (heuristic), 2 players, with Wilson 95% intervals; a win counts 1, a victory
shared by k players 1/k; a target is met when the interval's lower end reaches it. The
arena's deals (hashed from the tournament seed) are not the training deals. Training is the
example script's, with a fixed budget of steps and a seed::

    python examples/train_ppo.py --game cards --steps 700000 \\
        --out benchmarks/results/ppo-cards.pt
    python benchmarks/ppo.py --game cards

Reads ``ppo-<game>.pt`` and its log ``ppo-<game>-log.json`` from ``--results`` (default
``benchmarks/results/``); writes ``ppo-<game>-curve.png`` (the win share against each
training opponent over its last games, from the log) and ``ppo-<game>.json`` (the summary,
also printed as one JSON object per line).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path
from typing import Any

from learned import measure  # benchmarks/learned.py, next to this script

RESULTS = Path(__file__).parent / "results"
#: (opponent spec, level name, games, target win share or None)
OPPONENTS = (
    ("random", "random", 400, 0.90),
    ("greedy", "easy", 400, 0.50),
    ("heuristic", "medium", 400, None),
)


def plot_curve(log: dict[str, Any], path: Path) -> None:
    """The training curve as a PNG: win share against each opponent over the steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = log["log"]
    steps = [r["steps"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    for opponent in dict.fromkeys(log["opponents"]):
        shares = [r["win_share"].get(opponent) for r in rows]
        points = [(s, v) for s, v in zip(steps, shares, strict=True) if v is not None]
        ax.plot([p[0] for p in points], [p[1] for p in points], label=f"against {opponent}")
    ax.axhline(0.5, color="grey", linestyle=":", label="even (2 players)")
    ax.set_xlabel("training steps (the learner's decisions)")
    ax.set_ylabel(f"win share, last {log['hyperparameters']['window']} games (sampling)")
    ax.set_ylim(0, 1)
    ax.set_title(
        f"masked PPO, {log['game']} game, 2 players (seed {log['seed']}, {log['games']} games, "
        f"{log['seconds'] / 60:.0f} min wall, {log['cpu_seconds'] / 60:.0f} min CPU)",
        fontsize=9,
    )
    ax.grid(alpha=0.3)
    ax.legend(loc="center right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark from the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("board", "cards"), default="cards")
    parser.add_argument("--eval-seed", type=int, default=1, help="arena seed (default 1)")
    parser.add_argument("--scale", type=float, default=1.0, help="scale the arena games")
    parser.add_argument("--results", default=str(RESULTS))
    parser.add_argument("--plot-only", action="store_true", help="draw the curve, play no game")
    args = parser.parse_args(argv)
    results = Path(args.results)
    policy = results / f"ppo-{args.game}.pt"
    log = json.loads((results / f"ppo-{args.game}-log.json").read_text(encoding="utf-8"))
    plot_curve(log, results / f"ppo-{args.game}-curve.png")
    if args.plot_only:
        return 0

    root = Path(__file__).resolve().parents[1]
    whole = policy.resolve()
    shown = whole.relative_to(root) if whole.is_relative_to(root) else whole
    lines = []
    for opponent, level, games, target in OPPONENTS:
        games = max(2, round(games * args.scale))
        line = measure(args.game, str(policy), opponent, level, games, args.eval_seed, target)
        line["benchmark"] = "ppo"
        print(json.dumps(line), flush=True)
        lines.append(line)
    document = {
        "benchmark": "ppo",
        "game": args.game,
        "learner": "examples/train_ppo.py (masked PPO, MLP policy, PyTorch CPU)",
        "training": {k: v for k, v in log.items() if k != "log"},
        "policy": policy.name,
        "log": f"ppo-{args.game}-log.json",
        "curve": f"ppo-{args.game}-curve.png",
        "spec": f"learned={shown}",
        "python": platform.python_version(),
        "host": platform.node(),
        "lines": lines,
    }
    out = results / f"ppo-{args.game}.json"
    out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
