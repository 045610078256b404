"""States sampled for the search are always consistent with the view they came from."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from keltis.core.errors import SetupError
from keltis.core.protocol import GameState
from keltis.games import get_game

from .helpers import GAMES, positions


def all_cards(state: GameState) -> Counter[int]:
    """Every card of a state, wherever it lies."""
    cards: Counter[int] = Counter()
    for hand in state.hands:  # type: ignore[attr-defined]
        cards.update(hand)
    cards.update(state.deck)  # type: ignore[attr-defined]
    cards.update(state.removed)  # type: ignore[attr-defined]
    for pile in state.piles:  # type: ignore[attr-defined]
        cards.update(pile)
    for mine in state.rows:  # type: ignore[attr-defined]
        for row in mine:
            cards.update(row)
    for row in getattr(state, "point_rows", ()):
        cards.update(row)
    return cards


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_sampled_state_shows_the_same_view(game: str, players: int) -> None:
    rules = get_game(game)
    checked = 0
    for i, state in enumerate(positions(game, players, seed=players * 31, every=5)):
        full = all_cards(state)
        for viewer in range(players):
            view = state.view(viewer)
            for k in range(2):
                sample = rules.sample_state(view, random.Random(i * 10 + k))
                again = sample.view(viewer)
                # The history is not sampled: no recent moves, and the ply counts from 0.
                assert replace(again, recent=view.recent, ply=view.ply) == view
                assert all_cards(sample) == full
                if viewer == state.current_player:
                    assert sample.legal_actions() == state.legal_actions()
                for seat in range(players):
                    hand = Counter(sample.hands[seat])  # type: ignore[attr-defined]
                    assert not Counter(view.known_cards[seat]) - hand
                checked += 1
    assert checked >= 100


@pytest.mark.parametrize("game", GAMES)
def test_samples_deal_the_hidden_cards_at_random(game: str) -> None:
    rules = get_game(game)
    state = rules.new_game(3, seed=5)
    view = state.view(0)
    hands = {
        tuple(rules.sample_state(view, random.Random(k)).hands[1])  # type: ignore[attr-defined]
        for k in range(20)
    }
    assert len(hands) > 15
    for k in range(5):
        assert rules.sample_state(view, random.Random(k)).hands[0] == list(view.hand or ())  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", GAMES)
def test_a_spectator_view_cannot_be_sampled(game: str) -> None:
    rules = get_game(game)
    with pytest.raises(SetupError):
        rules.sample_state(rules.new_game(2, seed=1).view(None), random.Random(0))
