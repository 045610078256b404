"""The heuristic bot: a sensible human strategy for each game (rules in ``docs/bots.md``)."""

from __future__ import annotations

from typing import ClassVar

from keltis.bots.base import Bot
from keltis.bots.weights import check_weights, heuristics
from keltis.core.actions import Action
from keltis.core.protocol import View
from keltis.games import get_game


class HeuristicBot(Bot):
    """Plays by the game's heuristic policy (``keltis.board.policy`` or
    ``keltis.cards.policy``).

    The policy is run on a state sampled from the view: it reads only the bot's own hand and
    public information, so the sampled hidden cards never change its choice, and nothing
    beyond the view can reach it. ``weights``: a file of the heuristic's weights
    (:mod:`keltis.bots.weights`; today's when ``None``), for one game only.
    """

    name: ClassVar[str] = "heuristic"
    description: ClassVar[str] = "a sensible human strategy: plans rows from the hand, no search"

    def __init__(self, seed: int | None = None, weights: str | None = None) -> None:
        super().__init__(seed)
        if weights is not None:
            check_weights(weights)  # a bad file: its clear error now, not at the first move
        self.weights = weights

    def choose(self, view: View) -> Action:
        """The heuristic's choice for ``view`` (the only legal action if there is one)."""
        if not view.legal:
            raise ValueError("the bot was asked to move with no legal action in its view")
        if len(view.legal) == 1:
            return view.legal[0]
        game = get_game(view.game)
        state = game.sample_state(view, self.rng)
        policy = heuristics(view.game, self.weights, view.num_players).policy
        action = policy(state, self.rng)
        if action not in view.legal:  # pragma: no cover - a policy bug, never expected
            raise RuntimeError(f"heuristic chose {action}, which is not legal here")
        return action
