"""Speed benchmark: random playouts per second on one core, for each game and player count.

Prints one JSON object per line (see ``keltis.bench.random_playouts``); the target for
4-player games is at least 1,000 games per second on one core of the development machine.

    python benchmarks/speed.py                    # both games, 2-4 players, 10 s each
    python benchmarks/speed.py --game board --players 4 --seconds 30
"""

from __future__ import annotations

import argparse
import json

from keltis.bench import random_playouts
from keltis.games import GAME_NAMES

TARGET_GAMES_PER_SECOND = 1000.0


def main() -> None:
    """Run the benchmark lines asked for on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=[*GAME_NAMES, "all"], default="all")
    parser.add_argument("--players", type=int, choices=[2, 3, 4], action="append")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    games = GAME_NAMES if args.game == "all" else (args.game,)
    for game in games:
        for players in args.players or (2, 3, 4):
            result = random_playouts(game, players, args.seconds, args.seed)
            if players == 4:
                result["target_games_per_second"] = TARGET_GAMES_PER_SECOND
                result["meets_target"] = result["games_per_second"] >= TARGET_GAMES_PER_SECOND
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
