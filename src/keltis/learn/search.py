"""The search with learned judgement: the hard level's ISMCTS, judged by a network.

:func:`keltis.bots.ismcts.search` races the root's best-looking actions over sampled deals of
the hidden cards and judges each playout's last state. Here a network trained from self-play
(:mod:`keltis.learn.net`; the shipped one by default) does two of its jobs:

* **value** — a cut-off playout's last state is judged from the searching player's own view
  of it (never the deal's hidden cards: the same observation the player would have there) by
  the network's chance to win and expected margin, mixed with the heuristic's projection by
  ``value_weight`` (1: the network alone; 0: the heuristic alone, as hard);
* **prior** — the root's actions are chosen for the race by the network's prior over the
  legal moves (``prior``; otherwise by the heuristic's ranking, as hard).

A finished playout is judged by its result, as in hard. The reward of a decision is the one
hard maximises: ``win_weight`` × chance to win + the rest × a logistic of the margin.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from keltis.bots.ismcts import HeuristicJudge, IsmctsBot, Judgement, Ranking, SearchConfig
from keltis.core.actions import Action
from keltis.core.policy import GamePolicies
from keltis.core.protocol import GameState, View
from keltis.env.encode import encode
from keltis.games import get_game
from keltis.learn.net import ValueNet, load_net, shipped_net


@dataclass(frozen=True)
class LearnedConfig(SearchConfig):
    """A search budget (:class:`SearchConfig`) and how the network judges."""

    weights: str | None = None
    """A weights file (``None``: the shipped network of the game and player count)."""
    value_weight: float = 0.5
    """Share of a cut-off playout's judgement given by the network (the rest: the
    heuristic's projection). Half measured strongest of the ways tried (docs/bots.md)."""
    prior: bool = False
    """Choose the root's actions by the network's prior (else, as measured best, by the
    heuristic)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 0.0 <= self.value_weight <= 1.0:
            raise ValueError("value_weight must lie in 0…1")


class LearnedJudge:
    """Judges a playout's last state for the searching player ``me`` by the network (mixed
    with the heuristic's judgement by ``value_weight``; a finished game by its result)."""

    def __init__(
        self, config: LearnedConfig, policies: GamePolicies, net: ValueNet, me: int
    ) -> None:
        self.net = net
        self.me = me
        self.mix = config.value_weight
        self.heuristic = HeuristicJudge(config, policies)
        self.buffer = np.zeros((1, net.w1.shape[0]), dtype=np.float32)

    def __call__(self, state: GameState) -> tuple[list[float], list[float], list[float]]:
        if state.over:
            return self.heuristic(state)
        # Only the searching player's judgement is asked for (its root actions are the only
        # decisions credited when the tree is the root alone, as the levels use it).
        me = self.me
        encode(state.view(me), self.buffer[0])
        win_net, margin_net = self.net.value(self.buffer)
        win, margin = float(win_net[0]), float(margin_net[0])
        if self.mix < 1.0:
            _, wins, margins = self.heuristic(state)
            win = self.mix * win + (1.0 - self.mix) * wins[me]
            margin = self.mix * margin + (1.0 - self.mix) * margins[me]
        reward = self.heuristic.reward(win, margin)
        # the other seats' entries are the complements: never read at depth 0
        n = state.num_players
        rewards, wins_out, margins_out = [1.0 - reward] * n, [1.0 - win] * n, [-margin] * n
        rewards[me], wins_out[me], margins_out[me] = reward, win, margin
        return rewards, wins_out, margins_out


def prior_ranking(net: ValueNet, view: View) -> dict[Action, float]:
    """The network's prior logits of ``view``'s legal actions."""
    obs = encode(view)[None, :]
    logits = net(obs).logits[0]
    space = view.actions
    return {a: float(logits[space.index(a)]) for a in view.legal}


class LearnedSearchBot(IsmctsBot):
    """ISMCTS judged by a learned network (see the module): the level *expert*."""

    name: ClassVar[str] = "learned-search"
    description: ClassVar[str] = "information-set search with a learned prior and value"

    def __init__(self, seed: int | None = None, config: LearnedConfig | None = None) -> None:
        self.learned = config or LearnedConfig()
        super().__init__(seed, self.learned)

    def net_for(self, view: View) -> ValueNet:
        """The network that judges ``view``'s game and player count."""
        if self.learned.weights is not None:
            net = load_net(self.learned.weights)
            if (net.game, net.players) != (view.game, view.num_players):
                raise ValueError(
                    f"{self.learned.weights} judges the {net.game} game for {net.players} "
                    f"players, not the {view.game} game for {view.num_players}"
                )
            return net
        return shipped_net(view.game, view.num_players)

    def judgement(self, view: View) -> tuple[Judgement | None, Ranking | None]:
        """The network's value for the playouts' last states and its prior for the root."""
        if view.viewer is None:
            raise ValueError("the search needs a seat's view")
        net = self.net_for(view)
        config = self.learned
        judge = None
        if config.value_weight > 0:
            judge = LearnedJudge(config, get_game(view.game).heuristics(), net, view.viewer)
        rank = None
        if config.prior:

            def rank(v: View, _deal: GameState) -> dict[Action, float]:
                return prior_ranking(net, v)

        return judge, rank
