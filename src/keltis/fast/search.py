"""The hard level's search with its playouts compiled: ``ismcts-kernel``.

:func:`keltis.bots.ismcts.search` samples a deal of the hidden cards from the searching
player's view, tries each root action still in the race on a copy of it, plays every copy on
with the heuristic for a few rounds and judges the position by the heuristic's projection of
the final scores. Here the trying, the playouts and the projection run in the game's numba
kernel (:func:`keltis.fast.driver.playouts`): the deal becomes a state array
(:func:`keltis.fast.setup.state_array`), each root action is made on a copy, the kernel's
medium policy (proven move for move equal to the heuristic: ``keltis.fast.medium_diff``)
plays on, and the kernel's projection (equal to the heuristic's: tested) judges. The search
itself — the sampling, the race between root actions, the pruning, the budgets — is the same
Python code, so the bot plays the same search with cheaper playouts. Its random numbers
differ from the Python playouts', so its games are not move for move those of ``ismcts``.

The search sees only the view: the deal is sampled from it, as in ``ismcts``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from keltis.bots.ismcts import (
    PLAYED_ELSEWHERE,
    IsmctsBot,
    Playouts,
    SearchConfig,
    playable_elsewhere,
)
from keltis.bots.weights import tuning_of
from keltis.core.actions import Action
from keltis.core.protocol import GameState, View
from keltis.fast import driver
from keltis.fast.setup import game_rng, state_array
from keltis.fast.tuning import Weights, weights
from keltis.games import get_game


class KernelPlayouts:
    """Plays a search's playouts in ``game``'s kernel for ``players`` seats, under the
    heuristic's weights ``tuning`` (a weights file or set, as ``SearchConfig.tuning``;
    ``None``: the heuristic's own defaults, as the Python playouts use)."""

    def __init__(self, game: str, players: int, tuning: str | None = None) -> None:
        rules = get_game(game)
        rules.check_players(players)
        self.players = players
        self.space = rules.actions
        self.tag = driver.tag(game)
        chosen = None if tuning is None else tuning_of(game, tuning, players)
        self.weights: Weights = weights(game, chosen)

    def __call__(
        self, deal: GameState, actions: Sequence[Action], seed: int, cut: int | None
    ) -> list[tuple[list[float], bool]]:
        """Each of ``actions`` made on a copy of ``deal`` and played on from the random
        ``seed`` for ``cut`` completed turns (``None``: to the end): every seat's final score
        where the game ended, else its projected one, and whether it ended."""
        if deal.num_players != self.players:
            raise ValueError(
                f"these playouts are for {self.players} players, the deal has {deal.num_players}"
            )
        s = state_array(deal)
        ids = np.array([self.space.index(a) for a in actions], dtype=np.int32)
        scores = np.zeros((len(ids), self.players), dtype=np.float64)
        over = np.zeros(len(ids), dtype=np.bool_)
        turns = -1 if cut is None else cut
        driver.playouts(self.tag, s, ids, turns, game_rng(seed, 0), self.weights, scores, over)
        return [(scores[i].tolist(), bool(over[i])) for i in range(len(ids))]


class KernelSearchBot(IsmctsBot):
    """The ISMCTS of ``ismcts`` with its playouts in the kernel (see the module docstring).
    It takes the same options; the tree must be the root alone (``tree_depth=0``, the
    levels' search) and the playouts the heuristic's."""

    name: ClassVar[str] = "ismcts-kernel"
    description: ClassVar[str] = "information-set search with compiled heuristic playouts"

    def __init__(self, seed: int | None = None, config: SearchConfig | None = None) -> None:
        super().__init__(seed, config)
        if not playable_elsewhere(self.config):
            raise ValueError(f"ismcts-kernel: {PLAYED_ELSEWHERE}")  # now, not at the first move
        self._playouts: dict[tuple[str, int], KernelPlayouts] = {}

    def playouts(self, view: View) -> Playouts | None:
        """The kernel's playouts for ``view``'s game and player count."""
        key = (view.game, view.num_players)
        found = self._playouts.get(key)
        if found is None:
            found = self._playouts[key] = KernelPlayouts(
                view.game, view.num_players, self.config.tuning
            )
        return found


__all__ = ["KernelPlayouts", "KernelSearchBot"]
