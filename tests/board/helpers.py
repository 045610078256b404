"""Shared helpers of the board-game tests: explicit set-ups, playing moves, refusals."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from keltis.board import BoardGame, BoardState
from keltis.core.actions import Action
from keltis.core.cards import CARD_TEXT
from keltis.core.errors import IllegalActionError
from keltis.games import get_game

GAME = get_game("board")
assert isinstance(GAME, BoardGame)

#: Eight cards no rule test lays: the hands of seats that only discard and draw.
FILLER = (
    "B0 B0 B1 B1 B2 B2 B3 B3",
    "B4 B4 B5 B5 B6 B6 B7 B7",
    "B8 B8 B9 B9 B10 B10 P10 P10",
)

_CARD_LISTS = ("deck", "removed")


def new(
    players: int = 2,
    *,
    hands: list[str],
    variant: dict[str, Any] | None = None,
    layout: dict[str, Any] | None = None,
    **setup: Any,
) -> BoardState:
    """A state from an explicit set-up. ``hands`` (and ``deck``, ``removed``) may be given as
    space-separated card text; seats without a hand get a :data:`FILLER` hand. Tiles default
    to none at all, so that only the tiles a test names can act."""
    given = [h.split() for h in hands]
    given += [FILLER[i].split() for i in range(players - len(given))]  # seats not named
    data: dict[str, Any] = {"hands": given, "tiles": {}}
    for key, value in setup.items():
        data[key] = value.split() if key in _CARD_LISTS and isinstance(value, str) else value
    return GAME.new_game(players, setup=data, variant=variant, layout=layout)


def play(state: BoardState, *moves: str) -> BoardState:
    """Apply ``moves`` (notation) in order; returns the state."""
    for move in moves:
        state.apply(Action.parse(move))
    return state


def snapshot(state: BoardState) -> str:
    """Everything about a state, history included, as one comparable text."""
    data = state.to_json()
    data["history"] = [str(a) for a in state.history]
    data["actors"] = list(state.actors)
    return json.dumps(data, sort_keys=True)


def refused(state: BoardState, move: str | Action, rule: str) -> IllegalActionError:
    """Assert that ``move`` is refused citing ``rule`` and leaves ``state`` unchanged."""
    action = Action.parse(move) if isinstance(move, str) else move
    before = snapshot(state)
    assert action not in state.legal_actions()
    assert not state.is_legal(action)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    assert caught.value.rule == rule, str(caught.value)
    assert str(caught.value).startswith(f"{rule}: ")
    assert snapshot(state) == before
    return caught.value


def legal(state: BoardState) -> list[str]:
    """The legal actions in notation."""
    return [str(a) for a in state.legal_actions()]


def discard_any(state: BoardState) -> BoardState:
    """The current seat discards its first card and draws from the draw pile."""
    card = state.hands[state.current_player][0]
    return play(state, "-" + CARD_TEXT[card], "draw")


def rehide(state: BoardState, viewer: int | None, rng: random.Random) -> BoardState:
    """A copy with every card ``viewer`` cannot see dealt anew: the other hands' cards not
    known to all, the draw pile and the removed cards (sizes kept)."""
    other = state.clone()
    pool: list[int] = []
    hidden_counts: list[int] = []
    for seat, hand in enumerate(other.hands):
        if seat == viewer:
            hidden_counts.append(0)
            continue
        hidden = list((Counter(hand) - Counter(other.known[seat])).elements())
        hidden_counts.append(len(hidden))
        pool += hidden
    pool += other.deck + other.removed
    rng.shuffle(pool)
    for seat, count in enumerate(hidden_counts):
        if count:
            other.hands[seat] = sorted([*other.known[seat], *pool[:count]])
            del pool[:count]
    other.deck = pool[: len(state.deck)]
    other.removed = pool[len(state.deck) :]
    return other
