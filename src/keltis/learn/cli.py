"""The command line of the training pipeline: ``python -m keltis.learn selfplay|train``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from keltis.cluster import ClusterError
from keltis.games import GAME_NAMES


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m keltis.learn",
        description="Self-play data and training for the learned level (docs/bots.md).",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    play = commands.add_parser("selfplay", help="play seeded games and keep their positions")
    play.add_argument("--game", choices=GAME_NAMES, required=True)
    play.add_argument("--players", type=int, required=True)
    play.add_argument("--games", type=int, required=True)
    play.add_argument("--seed", type=int, default=0, help="data seed (default 0)")
    play.add_argument("--bot", default="heuristic", help="bot spec of every seat")
    play.add_argument("--sample", type=float, default=0.1, help="share of decisions kept")
    _add_where(play)
    play.add_argument("--out", type=Path, required=True, help="the shard to write (.npz)")

    train = commands.add_parser("train", help="train a network on self-play shards")
    train.add_argument("shards", type=Path, nargs="+", help="self-play shards (.npz)")
    train.add_argument("--run", type=Path, required=True, help="folder of checkpoints and curves")
    train.add_argument("--epochs", type=int, default=8)
    train.add_argument("--hidden", type=int, default=256)
    train.add_argument("--batch", type=int, default=512)
    train.add_argument("--lr", type=float, default=1e-3)
    train.add_argument("--weight-decay", type=float, default=1e-5)
    train.add_argument("--policy-weight", type=float, default=0.5)
    train.add_argument("--seed", type=int, default=0)
    train.add_argument("--device", default="cpu", help="torch device (cpu, cuda)")
    train.add_argument("--export", type=Path, default=None, help="write the weights file here")
    train.add_argument("--recipe", default="", help="text saved with the weights")

    recipe = commands.add_parser("recipe", help="play and train every network of the recipe")
    recipe.add_argument("--out", type=Path, required=True, help="folder of data, runs, weights")
    _add_where(recipe)
    recipe.add_argument("--device", default="cpu", help="torch device for training")
    recipe.add_argument("--scale", type=float, default=1.0, help="multiply the games (trial)")
    recipe.add_argument("--only", default=None, help="e.g. cards-2,board-4 (default: all)")
    return parser


def _add_where(command: argparse.ArgumentParser) -> None:
    """``--workers N`` (local processes) or ``--ray ADDRESS`` (a Ray cluster)."""
    where = command.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None, help="processes (default: cores)")
    where.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=None,
        help="play as Ray tasks: local (a private instance on this machine), auto (the "
        "running cluster), host:port or ray://host:port; the same data as local processes",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; 0 on success, 2 for bad arguments."""
    args = _parser().parse_args(argv)
    if args.command == "selfplay":
        from keltis.learn.selfplay import SelfPlayConfig, generate  # numpy: not for --help

        try:
            config = SelfPlayConfig(
                args.game, args.players, args.games, args.seed, args.bot, args.sample
            )
        except ValueError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        try:
            generate(
                config,
                args.out,
                args.workers,
                progress=lambda s: print(s, file=sys.stderr),
                ray=args.ray,
            )
        except (ClusterError, OSError) as error:  # OSError: a weights file it cannot read
            print(f"error: {error}", file=sys.stderr)
            return 2
        print(args.out)
        return 0
    if args.command == "recipe":
        from keltis.learn.recipe import run_recipe  # torch's settings: not for --help

        only = None
        if args.only:
            only = set()
            for item in args.only.split(","):
                game, _, players = item.strip().rpartition("-")
                if game not in GAME_NAMES or not players.isdigit():
                    print(f"error: --only: {item!r} is not GAME-PLAYERS", file=sys.stderr)
                    return 2
                only.add((game, int(players)))
        if not args.scale > 0:
            print("error: --scale must be positive", file=sys.stderr)
            return 2
        try:
            written = run_recipe(
                args.out,
                workers=args.workers,
                device=args.device,
                scale=args.scale,
                only=only,
                progress=lambda s: print(s, file=sys.stderr, flush=True),
                ray=args.ray,
            )
        except ClusterError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        for path in written:
            print(path)
        return 0
    from keltis.learn.train import TrainConfig, train  # torch: only to train

    try:
        config_t = TrainConfig(
            epochs=args.epochs,
            hidden=args.hidden,
            batch=args.batch,
            lr=args.lr,
            weight_decay=args.weight_decay,
            policy_weight=args.policy_weight,
            seed=args.seed,
            device=args.device,
        )
        result = train(
            args.shards, args.run, config_t, progress=lambda s: print(s, file=sys.stderr)
        )
    except (ValueError, FileNotFoundError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.export is not None:
        result.export(args.export, args.recipe)
        print(args.export)
    return 0
