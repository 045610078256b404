"""A simple greedy bot: scores each legal action by its immediate effect, no look-ahead.

It is an easy opponent for the terminal game and a baseline for the stronger bots.

Board game: lay a card when it moves a figure forward on a row it already owns, preferring
steps that gain points, tiles and wish stones; open a new path only with three or more cards
of that colour in hand; discard the card least useful to its own rows; take a discard pile's
top card only if it fits one of its rows directly; use clovers and overflow moves on the
figure that gains most; put the big figure on the path with the most cards in hand.
Card game: lay a card rather than not. Each game's rating is its package's
(``keltis.board.policy.greedy_gain``, ``keltis.cards.policy.greedy_gain``).
"""

from __future__ import annotations

from typing import ClassVar

from keltis.bots.base import Bot
from keltis.core.actions import Action
from keltis.core.protocol import View
from keltis.games import get_game


class GreedyBot(Bot):
    """Immediate-gain heuristics (see the module docstring); random tie-breaks."""

    name: ClassVar[str] = "greedy"
    description: ClassVar[str] = "takes the action with the best immediate gain"

    def choose(self, view: View) -> Action:
        """The legal action with the highest one-step score."""
        if not view.legal:
            raise ValueError("the bot was asked to move with no legal action in its view")
        gain = get_game(view.game).heuristics().gain
        scored = [(gain(view, a), a) for a in view.legal]
        top = max(s for s, _ in scored)
        return self.rng.choice([a for s, a in scored if s == top])
