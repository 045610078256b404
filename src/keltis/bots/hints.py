"""Hints: the best few actions for a player's view, each with an estimate.

The terminal game's ``hint`` command and the web client call :func:`hints` with the view of
the player asking — nothing else — so a hint can never give away a hidden card::

    for hint in hints(state.view(seat), count=3):
        print(hint.action, f"{hint.win:.0%}", f"{hint.margin:+.1f}")
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from keltis.bots.ismcts import SearchConfig, search
from keltis.core.actions import Action
from keltis.core.protocol import View
from keltis.games import get_game

#: Default budget of a hint: playouts over all the actions looked at.
HINT_ITERATIONS = 600


@dataclass(frozen=True)
class Hint:
    """One suggested action and what the search expects of it."""

    action: Action
    win: float
    """Estimated chance to win after this action (0…1; shared victories count in part)."""
    margin: float
    """Expected final score minus the best other player's, in points."""
    playouts: int
    """How many playouts the estimate rests on."""

    @property
    def spread(self) -> float:
        """How sure the estimate is: half the width of a 95% interval around ``win`` (normal
        approximation over the playouts; 1.0 with none)."""
        if self.playouts <= 0:
            return 1.0
        return min(1.0, 1.96 * math.sqrt(max(self.win * (1 - self.win), 0.0) / self.playouts))

    def to_json(self) -> dict[str, object]:
        """``{"action": "G7", "win": 0.61, "spread": 0.09, "margin": 3.2, "playouts": 120}``."""
        return {
            "action": str(self.action),
            "win": round(self.win, 3),
            "spread": round(self.spread, 3),
            "margin": round(self.margin, 2),
            "playouts": self.playouts,
        }


def hints(
    view: View,
    count: int = 3,
    *,
    iterations: int | None = HINT_ITERATIONS,
    seconds: float | None = None,
    seed: int = 0,
) -> list[Hint]:
    """The ``count`` best actions for the player whose ``view`` this is, best first.

    The view must be that of the player to decide (its ``legal`` is not empty). The budget is
    ``iterations`` playouts, or ``seconds`` of search, or whichever ends first if both are
    given; with an iteration budget the same view and seed give the same hints.
    """
    if count < 1:
        raise ValueError(f"count must be at least 1, not {count}")
    if view.viewer is None:
        raise ValueError("hints are for a player, not for a spectator's view")
    if not view.legal:
        raise ValueError(f"player {view.viewer} is not to move: there is nothing to hint")
    width = max(count, 4)
    config = SearchConfig(
        iterations=iterations,
        seconds=seconds,
        width=width,
        race=False,
    )
    result = search(view, config, random.Random(seed), get_game(view.game))
    return [
        Hint(action=s.action, win=s.win, margin=s.margin, playouts=s.visits)
        for s in result.stats[:count]
    ]
