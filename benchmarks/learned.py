"""Learned-player benchmark: train keltis.env.linear's policy, then measure it in the arena.

Training: REINFORCE (``keltis.env.linear.train``) in the Gymnasium environment against
``random`` (or ``--opponents``), 2 players, a fixed number of games and a fixed seed, so a
run trains the same policy on any machine. Measuring: arena tournaments (``keltis.arena``,
one worker, seats rotating every game) of the learned policy against ``random``, ``easy``
(greedy) and ``medium`` (heuristic), 2 players, with Wilson 95% intervals. A win counts 1,
a victory shared by k players 1/k. The arena's game seeds (hashed from the tournament seed
``--eval-seed``) are other deals than the training games' (``seed * 1000003 + i``). Run::

    python benchmarks/learned.py --game cards --episodes 3000
    python benchmarks/learned.py --game board --episodes 1500

Writes into ``--results`` (default below): ``learned-<game>.npz`` (the
policy), ``learned-<game>-curve.json`` and ``-curve.png`` (the training curve: the share of
the last 100 training games won, every 50 games) and ``learned-<game>.json`` (the summary,
also printed as one JSON object per line). Another training opponent than ``random`` writes
``learned-<game>-trained-vs-<opponent>.*``.

``--results`` defaults to a folder in the system's temporary directory (``keltis-learned``), so
that reproducing a run never overwrites the committed results in ``benchmarks/results/``:
compare the two, and pass ``--results benchmarks/results`` to replace them on purpose.

A line meets its target when the lower end of its Wilson 95% interval reaches it (as
``ci_above_target`` in ``benchmarks/strength.py``), not the point estimate: 5 wins of 8 is
62.5%, but its interval (31–86%) does not show a win share of at least 50%.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from keltis.arena.run import run_tournament
from keltis.arena.spec import BotSpec
from keltis.arena.stats import bot_stats
from keltis.arena.tournament import Tournament
from keltis.env.linear import train

COMMITTED = Path(__file__).parent / "results"
"""Where the committed results are (written with ``--results benchmarks/results``)."""
RESULTS = Path(tempfile.gettempdir()) / "keltis-learned"
"""Where a run writes by default: not over the committed results."""
TARGET_RULE = "the lower end of the Wilson 95% interval is at or above the target"
WINDOW = 100
EVERY = 50
#: (opponent spec, level name, games, target win share or None)
OPPONENTS = (("random", "random", 400, 0.90), ("greedy", "easy", 400, 0.50))
MEDIUM = ("heuristic", "medium", 200, None)


def train_with_curve(
    game: str, opponents: str, episodes: int, seed: int
) -> tuple[Any, dict[str, Any]]:
    """Train the linear policy; return it and its curve."""
    shares: list[float] = []
    points: list[tuple[int, float]] = []
    start = time.perf_counter()

    def record(episode: int, share: float) -> None:
        shares.append(share)
        if episode % EVERY == 0:
            recent = shares[-WINDOW:]
            points.append((episode, round(sum(recent) / len(recent), 4)))
            rate = points[-1][1]
            print(
                f"\rtraining: {episode} games, last {WINDOW}: {rate:.0%} ", end="", file=sys.stderr
            )

    policy = train(
        game, opponents, 2, episodes=episodes, seed=seed, progress=record, report_every=1
    )
    print(file=sys.stderr)
    curve = {
        "game": game,
        "players": 2,
        "opponents": opponents,
        "seed": seed,
        "learning_rate": 0.05,
        "episodes": len(shares),
        "seconds": round(time.perf_counter() - start, 1),
        "window": WINDOW,
        "points": points,
    }
    return policy, curve


def plot_curve(curve: dict[str, Any], path: Path) -> None:
    """The training curve as a PNG (matplotlib, from the ``arena`` extra)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    episodes = [p[0] for p in curve["points"]]
    rates = [p[1] for p in curve["points"]]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(episodes, rates, label=f"learner (last {curve['window']} games)")
    ax.axhline(0.5, color="grey", linestyle=":", label="chance (2 players)")
    ax.set_xlabel("training games")
    ax.set_ylabel(f"win share against {curve['opponents']}")
    ax.set_ylim(0, 1)
    ax.set_title(
        f"keltis.env.linear, {curve['game']} game, 2 players: REINFORCE against "
        f"{curve['opponents']} (seed {curve['seed']}, {curve['seconds']:.0f} s)",
        fontsize=9,
    )
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def measure(
    game: str,
    spec: str,
    opponent: str,
    level: str,
    games: int,
    seed: int,
    target: float | None = None,
) -> dict[str, Any]:
    """An arena tournament of the learned player against one opponent; its line (with
    ``target`` judged by :func:`line`)."""
    bots = (BotSpec.parse(f"learned={spec}"), BotSpec.parse(opponent))
    tournament = Tournament.create(game, bots, players=2, games=games, seed=seed)
    with tempfile.TemporaryDirectory() as out:
        summary = run_tournament(tournament, Path(out) / "arena", workers=1)
    if not summary.complete:
        raise RuntimeError(f"tournament against {opponent} stopped: {summary.failure}")
    rows = [
        {
            "scores": list(r.result["scores"]),
            "winners": list(r.result["winners"]),
            "seats": [p.name for p in r.players],
        }
        for _, r in sorted(summary.records.items())
        if r.result is not None
    ]
    return line(game, bots[1].name, opponent, level, rows, seed, summary.wall_seconds, target)


def line(
    game: str,
    name: str,
    opponent: str,
    level: str,
    rows: list[dict[str, Any]],
    seed: int,
    seconds: float,
    target: float | None,
) -> dict[str, Any]:
    """The line of the learned player (seated as ``learned``) against ``name`` over the
    games' ``rows``: its win share, Wilson 95% interval and whether it meets ``target`` (the
    interval's lower end at or above it; ``None`` without a target)."""
    learned = bot_stats(["learned", name], 2, rows)[0]
    low = learned["win_rate_ci95"][0]
    return {
        "benchmark": "learned",
        "game": game,
        "opponent": opponent,
        "level": level,
        "players": 2,
        "games": learned["seat_games"],
        "win_share": round(learned["win_rate"], 4),
        "ci95": [round(x, 4) for x in learned["win_rate_ci95"]],
        "outright_wins": learned["outright_wins"],
        "shared_wins": learned["shared_wins"],
        "mean_margin": round(learned["mean_margin"], 2),
        "by_seat": [round(s["win_rate"], 4) for s in learned["by_seat"]],
        "arena_seed": seed,
        "seconds": round(seconds, 1),
        "target": target,
        "meets_target": None if target is None else low >= target,
        "target_rule": TARGET_RULE,
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line's options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("board", "cards"), default="cards")
    parser.add_argument("--episodes", type=int, default=3000, help="training games")
    parser.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    parser.add_argument(
        "--opponents",
        default="random",
        help="the training opponent's bot spec (default random; another one writes "
        "learned-<game>-trained-vs-<it>.*)",
    )
    parser.add_argument("--eval-seed", type=int, default=1, help="arena seed (default 1)")
    parser.add_argument("--scale", type=float, default=1.0, help="scale the arena games")
    parser.add_argument(
        "--results",
        default=str(RESULTS),
        help=f"folder to write into (default {RESULTS}; the committed results are in "
        "benchmarks/results: pass it to replace them)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark from the command line."""
    args = parse_args(argv)
    results = Path(args.results)
    results.mkdir(parents=True, exist_ok=True)
    trained_vs = "" if args.opponents == "random" else f"-trained-vs-{args.opponents}"
    stem = results / f"learned-{args.game}{trained_vs}"

    policy, curve = train_with_curve(args.game, args.opponents, args.episodes, args.seed)
    policy_path = stem.with_suffix(".npz")
    policy.save(policy_path)
    curve_path = stem.with_name(stem.name + "-curve.json")
    curve_path.write_text(json.dumps(curve, indent=1) + "\n", encoding="utf-8")
    plot_curve(curve, stem.with_name(stem.name + "-curve.png"))

    spec = f"keltis.env.linear:LinearBot:path={policy_path}"
    root = Path(__file__).resolve().parents[1]
    whole = policy_path.resolve()
    shown = whole.relative_to(root) if whole.is_relative_to(root) else whole
    lines = []
    for opponent, level, games, target in (*OPPONENTS, MEDIUM):
        games = max(2, round(games * args.scale))
        result = measure(args.game, spec, opponent, level, games, args.eval_seed, target)
        print(json.dumps(result), flush=True)
        lines.append(result)
    document = {
        "benchmark": "learned",
        "game": args.game,
        "learner": "keltis.env.linear (linear softmax policy, REINFORCE, margin reward)",
        "training": {k: v for k, v in curve.items() if k != "points"},
        "policy": policy_path.name,
        "curve": curve_path.name,
        "spec": f"learned=keltis.env.linear:LinearBot:path={shown}",
        "python": platform.python_version(),
        "host": platform.node(),
        "lines": lines,
    }
    (stem.with_suffix(".json")).write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {stem}.* (the committed results: {COMMITTED})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
