"""Fast per-game policies over states, for playouts and for the heuristic bot.

A *policy* takes a state and a random generator and returns a legal action of the player to
move. The heuristic policies (each game's ``policy`` module: ``keltis.board.policy``,
``keltis.cards.policy``, handed out by ``Game.heuristics()``) read only what that player may
know (public parts and their own hand), so running one on a state sampled from a player's
view is the same as running it on the view. Search bots use them in playouts, where the state
is a sample anyway.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from keltis.core.actions import Action
from keltis.core.gamestate import GameState

if TYPE_CHECKING:
    from keltis.core.protocol import View

Policy = Callable[[GameState, random.Random], Action]
"""A state and a random generator in, a legal action of the player to move out."""
Scorer = Callable[[GameState], list[tuple[float, Action]]]
"""Heuristic scores of the legal actions of the player to move (higher is better)."""
Projection = Callable[[GameState], list[float]]
"""Every player's projected final score (an evaluation for cut-off playouts)."""
Gain = Callable[["View", Action], float]
"""A one-step rating of a legal action from the view of the seat to decide (the greedy bot's;
higher is better)."""
Rewinder = Callable[[GameState, Sequence[tuple[int, Action]], int, random.Random], Iterator[Action]]
"""Undoes a sampled state's recent moves (a view's, oldest first, as (player, action)) in
place, newest first, yielding each action of a player other than the viewer (third
argument) with the state as it was just before it, as far back as the moves can be undone."""


def random_policy(state: GameState, rng: random.Random) -> Action:
    """Uniform over the legal actions."""
    actions = state.legal_actions()
    return actions[int(rng.random() * len(actions))]


def best_scored(scored: list[tuple[float, Action]], rng: random.Random) -> Action:
    """The best-scored action of ``scored`` (not empty), ties broken uniformly with ``rng``
    (scores within 1e-9 of the best count as ties)."""
    best = scored[0][0]
    for s, _ in scored:
        if s > best:
            best = s
    top = [a for s, a in scored if s >= best - 1e-9]
    return top[0] if len(top) == 1 else top[int(rng.random() * len(top))]


@dataclass(frozen=True)
class GamePolicies:
    """The heuristic policy, action scorer, projection and one-step rating of one game."""

    policy: Policy
    scores: Scorer
    projection: Projection
    gain: Gain
    rewind: Rewinder | None = None
    """How to undo recent moves on a sampled state (``None``: the game has none), for a
    search that weighs its samples by how well they explain the other players' moves."""
