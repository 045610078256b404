"""Keltis: The Card Game: rules C-1 … C-19 of RULES.md, on the same protocol as the board game."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from keltis.cards.actions import ACTIONS
from keltis.cards.events import card_events
from keltis.cards.sample import sample_card_state
from keltis.cards.setup import CardSetup
from keltis.cards.state import WISH_VALUES, CardState, CardVariant
from keltis.cards.tables import CARD_ROW_POINTS, CARD_WISH_POINTS
from keltis.cards.view import CardView
from keltis.core.actions import Action, ActionSpace
from keltis.core.errors import SetupError
from keltis.core.events import Event
from keltis.core.protocol import JSON, Game, View


class CardGame(Game):
    """The card game's rules: creates :class:`CardState` objects."""

    name: ClassVar[str] = "cards"
    title: ClassVar[str] = "Keltis: The Card Game"
    actions: ClassVar[ActionSpace] = ACTIONS
    #: The review's calibration maps (keltis.review.calibrated): fitted on seeds
    #: 410001-410012 of benchmarks/review_calibration.py, measured on 410013-410025.
    review_calibration: ClassVar[Mapping[int, tuple[float, float]]] = {
        2: (0.828, -0.321),
        4: (0.724, -0.411),
    }

    def new_game(
        self,
        players: int,
        *,
        seed: int | None = None,
        setup: JSON | None = None,
        variant: JSON | None = None,
        **options: Any,
    ) -> CardState:
        """A new game from a seed or an explicit set-up (the JSON form of :class:`CardSetup`);
        the card game takes no options."""
        self.check_players(players)
        if options:
            raise SetupError(f"the card game takes no options: {', '.join(options)}")
        rules = CardVariant.from_json(variant)
        if setup is not None:
            if seed is not None:
                raise SetupError("give either a seed or an explicit set-up, not both")
            return CardSetup.from_json(setup, players).build(players, rules)
        return CardState.new(players, seed=seed, variant=rules)

    def deal(self, players: int, seed: int, **options: Any) -> JSON:
        """The cards ``seed`` deals, as an explicit set-up (the card game takes no options)."""
        self.check_players(players)
        if options:
            raise SetupError(f"the card game's deal takes no options: {', '.join(options)}")
        return CardSetup.from_seed(players, seed).to_json()

    def variant_json(self, variant: JSON | None) -> JSON:
        """Every switch of the card game's variant, defaults filled in."""
        return CardVariant.from_json(variant).to_json()

    def tables(self) -> JSON:
        """``row_points``: what a colour row of 0, 1, … cards scores, the last for that many
        or more (C-16); ``wish_points``: what 0, 1, … wish stones score, the last for that
        many or more (C-18); ``wish_stones``: the values of the wish stones (C-4)."""
        return {
            "row_points": list(CARD_ROW_POINTS),
            "wish_points": list(CARD_WISH_POINTS),
            "wish_stones": list(WISH_VALUES),
        }

    def max_game_length(self, players: int, turn_cap: int) -> int:
        """A turn has at most three decisions (a claim, then two draws); the last lays of
        C-15 add at most three per player (two lays and a pass)."""
        return 3 * turn_cap + 3 * players

    def events(self, before: View, action: Action, after: View) -> list[Event]:
        """What ``action`` did, from two views of one receiver (see :func:`card_events`)."""
        if not isinstance(before, CardView) or not isinstance(after, CardView):
            raise TypeError("events of this game come from two CardViews")
        return card_events(before, action, after)

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
    "sample_card_state",
]
