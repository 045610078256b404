"""How much the search's deals learn about the other hands from the moves seen.

The hard bot samples the hidden cards at random (``Game.sample_state``); with
``infer_temperature`` its search weighs each sample by how likely the other players' recent
moves were with the hands it deals (``keltis.cards.rewind`` undoes them, the heuristic scores
each decision; see docs/bots.md). This script measures what that buys before any game is
played for it: on seeded games of heuristic players (card game), at every play decision of a
running game after the first round it draws ``--deals`` deals as the search would, with each
setting, and counts how many of the cards it deals to the other players are really in their
hands (cards known to be there, taken from a discard pile, not counted). The more the deals
agree with the truth, the closer the search comes to a seer that sees the other hands
(docs/bots.md: worth 13 points of wins with two players).

Prints one JSON object per player count and setting: ``hidden`` (hidden cards per other hand),
``right`` (of those, how many a deal gets right, on average), ``gain`` (``right`` over the
plain sampler's) and ``ms_per_deal`` (CPU time to draw one deal, compiled or not as
installed). ::

    python benchmarks/inference.py                        # 2 and 4 players, 8 games each
    python benchmarks/inference.py --players 2 --games 20 --settings 0.1:32,0.25:8
    python benchmarks/inference.py --out benchmarks/results/inference.json
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from keltis._native import engine
from keltis.bots.ismcts import SearchConfig, inferring_sampler
from keltis.cards import CardState
from keltis.cards.policy import cards_policy
from keltis.core.protocol import GameState, View
from keltis.games import get_game

Sampler = Callable[[View, random.Random], GameState]


def measure(
    players: int, games: int, deals: int, settings: list[tuple[float, int] | None], seed: int
) -> list[dict[str, Any]]:
    """Play ``games`` heuristic games and score every setting's deals at each decision."""
    rules = get_game("cards")
    policies = get_game("cards").heuristics()
    right: Counter[int] = Counter()
    seconds: Counter[int] = Counter()
    hidden = 0
    decisions = 0
    for g in range(games):
        state = rules.new_game(players, seed=seed + g)
        assert isinstance(state, CardState)
        rng = random.Random(seed + g)
        while not state.over:
            me = state.current_player
            if state.phase == 0 and state.ender < 0 and state.turn >= players:
                view = state.view(me)
                decisions += 1
                truth = {q: Counter(state.hands[q]) for q in range(players) if q != me}
                hidden += sum(len(state.hands[q]) - len(state.known[q]) for q in truth)
                for i, setting in enumerate(settings):
                    sampler: Sampler | None = None
                    if setting is not None:
                        config = SearchConfig(
                            infer_temperature=setting[0], infer_samples=setting[1]
                        )
                        sampler = inferring_sampler(view, config, policies, rules)
                    draw: Sampler = sampler or rules.sample_state
                    local = random.Random(decisions)
                    start = time.process_time()
                    dealt = [draw(view, local) for _ in range(deals)]
                    seconds[i] += time.process_time() - start
                    for deal in dealt:
                        for q, cards in truth.items():
                            hit = sum((Counter(deal.hands[q]) & cards).values())
                            right[i] += hit - len(state.known[q])
            state.apply(cards_policy(state, rng))
    others = decisions * (players - 1)
    plain = right[0] / (others * deals)
    out = []
    for i, setting in enumerate(settings):
        mean = right[i] / (others * deals)
        out.append(
            {
                "game": "cards",
                "players": players,
                "engine": engine(),
                "games": games,
                "decisions": decisions,
                "temperature": None if setting is None else setting[0],
                "samples": 1 if setting is None else setting[1],
                "hidden": round(hidden / others, 2),
                "right": round(mean, 3),
                "gain": round(mean / plain, 3),
                "ms_per_deal": round(1000 * seconds[i] / (decisions * deals), 3),
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,4", help="player counts (default 2,4)")
    parser.add_argument("--games", type=int, default=8, help="games per player count")
    parser.add_argument("--deals", type=int, default=10, help="deals per decision and setting")
    parser.add_argument(
        "--settings",
        default="0.25:8,0.1:32",
        help="temperature:samples pairs besides the plain sampler (default 0.25:8,0.1:32)",
    )
    parser.add_argument("--seed", type=int, default=5000, help="first game seed")
    parser.add_argument("--out", type=Path, help="also write the results here (JSON)")
    args = parser.parse_args()
    settings: list[tuple[float, int] | None] = [None]
    for item in args.settings.split(","):
        temperature, samples = item.split(":")
        settings.append((float(temperature), int(samples)))
    results = []
    for players in (int(p) for p in args.players.split(",")):
        for row in measure(players, args.games, args.deals, settings, args.seed):
            print(json.dumps(row), flush=True)
            results.append(row)
    if args.out:
        args.out.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
