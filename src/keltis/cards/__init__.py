"""Keltis: The Card Game: rules C-1 … C-19 of RULES.md, on the same protocol as the board game."""

from __future__ import annotations

import random
from typing import ClassVar

from keltis.cards.state import CardSetup, CardState, CardVariant
from keltis.cards.view import CardView, card_view, sample_card_state
from keltis.core.errors import SetupError
from keltis.core.protocol import JSON, Game, View


class CardGame(Game):
    """The card game's rules: creates :class:`CardState` objects."""

    name: ClassVar[str] = "cards"
    title: ClassVar[str] = "Keltis: The Card Game"

    def new_game(
        self,
        players: int,
        *,
        seed: int | None = None,
        setup: JSON | None = None,
        variant: JSON | None = None,
    ) -> CardState:
        """A new game from a seed or an explicit set-up (the JSON form of :class:`CardSetup`)."""
        self.check_players(players)
        rules = CardVariant.from_json(variant)
        if setup is not None:
            if seed is not None:
                raise SetupError("give either a seed or an explicit set-up, not both")
            return CardSetup.from_json(setup, players).build(players, rules)
        return CardState.new(players, seed=seed, variant=rules)

    def sample_state(self, view: View, rng: random.Random) -> CardState:
        """A full state consistent with a card-game view (a determinization)."""
        if not isinstance(view, CardView):
            raise TypeError("the card game samples from a CardView")
        return sample_card_state(view, rng)


__all__ = [
    "CardGame",
    "CardSetup",
    "CardState",
    "CardVariant",
    "CardView",
    "card_view",
    "sample_card_state",
]
