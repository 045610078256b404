"""Fast per-game policies over states, for playouts and for the heuristic bot.

A *policy* takes a state and a random generator and returns a legal action of the player to
move. The heuristic policies read only what that player may know (public parts and their own
hand), so running one on a state sampled from a player's view is the same as running it on
the view. Search bots use them in playouts, where the state is a sample anyway.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import cast

from keltis.core.actions import Action
from keltis.core.protocol import GameState

Policy = Callable[[GameState, random.Random], Action]
"""A state and a random generator in, a legal action of the player to move out."""
Scorer = Callable[[GameState], list[tuple[float, Action]]]
"""Heuristic scores of the legal actions of the player to move (higher is better)."""
Projection = Callable[[GameState], list[float]]
"""Every player's projected final score (an evaluation for cut-off playouts)."""
Rewinder = Callable[[GameState, Sequence[tuple[int, Action]], int, random.Random], Iterator[Action]]
"""Undoes a sampled state's recent moves (a view's, oldest first, as (player, action)) in
place, newest first, yielding each action of a player other than the viewer (third
argument) with the state as it was just before it, as far back as the moves can be undone."""


def random_policy(state: GameState, rng: random.Random) -> Action:
    """Uniform over the legal actions."""
    actions = state.legal_actions()
    return actions[int(rng.random() * len(actions))]


@dataclass(frozen=True)
class GamePolicies:
    """The heuristic policy, action scorer and projection of one game."""

    policy: Policy
    scores: Scorer
    projection: Projection
    rewind: Rewinder | None = None
    """How to undo recent moves on a sampled state (``None``: the game has none), for a
    search that weighs its samples by how well they explain the other players' moves."""


def heuristics(game: str) -> GamePolicies:
    """The heuristic functions of ``game`` (``board`` or ``cards``)."""
    if game == "board":
        from keltis.bots import board_policy as b

        return GamePolicies(
            cast(Policy, b.board_policy),
            cast(Scorer, b.board_scores),
            cast(Projection, b.board_projection),
        )
    if game == "cards":
        from keltis.bots import cards_policy as k
        from keltis.cards.rewind import rewind

        return GamePolicies(
            cast(Policy, k.cards_policy),
            cast(Scorer, k.cards_scores),
            cast(Projection, k.cards_projection),
            cast(Rewinder, rewind),
        )
    raise ValueError(f"no heuristic for game {game!r}: choose board or cards")
