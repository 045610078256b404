"""Train a first learned Keltis player and save it, with its training curve.

The learner is keltis.env.linear's linear softmax policy, trained by REINFORCE in the
Gymnasium environment (keltis/Cards-v0 or keltis/Board-v0) against the opponents you name;
this script only sets the budget and keeps the curve. ::

    python examples/train_linear.py --game cards --seconds 180 --out cards-linear.npz
    keltis arena 'learned=keltis.env.linear:LinearBot:path=cards-linear.npz' random greedy \\
        --game cards --players 2
    keltis play --game cards \\
        --seats 'human;learned=keltis.env.linear:LinearBot:path=cards-linear.npz'

Besides the policy (``--out``) it writes the training curve as JSON (``--curve``, by default
next to the policy): after every ``--every`` games, the share of the last ``--window`` games
the learner won (a shared victory counts 1/k).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from keltis.env.linear import train


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("cards", "board"), default="cards")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="random", help="bot spec of the other seats")
    parser.add_argument("--episodes", type=int, default=100_000, help="games to train on at most")
    parser.add_argument("--seconds", type=float, default=None, help="wall-time budget")
    parser.add_argument("--learning-rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="policy.npz", help="the policy file (.npz)")
    parser.add_argument("--curve", default=None, help="the curve (default: OUT with .json)")
    parser.add_argument("--window", type=int, default=100, help="games per win-rate point")
    parser.add_argument("--every", type=int, default=50, help="games between curve points")
    args = parser.parse_args(argv)

    shares: list[float] = []  # the learner's win share in each training game
    points: list[tuple[int, float]] = []
    start = time.perf_counter()

    def record(episode: int, share: float) -> None:  # called after every game
        shares.append(share)
        if episode % args.every == 0:
            recent = shares[-args.window :]
            points.append((episode, sum(recent) / len(recent)))
            seconds = time.perf_counter() - start
            print(f"{episode:6d} games  win rate {points[-1][1]:5.0%}  {seconds:5.0f} s")

    policy = train(
        args.game,
        args.opponents,
        args.players,
        episodes=args.episodes,
        learning_rate=args.learning_rate,
        seed=args.seed,
        progress=record,
        report_every=1,
        seconds=args.seconds,
    )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    policy.save(out)
    curve = {
        "game": args.game,
        "players": args.players,
        "opponents": args.opponents,
        "seed": args.seed,
        "learning_rate": args.learning_rate,
        "episodes": len(shares),
        "seconds": round(time.perf_counter() - start, 1),
        "window": args.window,
        "points": points,
    }
    curve_path = Path(args.curve) if args.curve else out.with_suffix(".json")
    curve_path.write_text(json.dumps(curve, indent=1) + "\n", encoding="utf-8")
    print(f"saved {out} and {curve_path} after {len(shares)} games")
    print(f"bot spec: 'learned=keltis.env.linear:LinearBot:path={out}'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
