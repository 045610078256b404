"""Golden playthroughs: seeded games with every seat's view and the spectator's at every step.

Each file under ``tests/data/board/golden/`` holds the game's parameters and, per step, the
action taken and each view as compact JSON (seat 0, seat 1, …, then the spectator; the board
layout, the same in every view, is stored once). Any change to what a view shows — a
hidden-information leak included — shows up as a diff; ``pytest --update-golden`` rewrites
the files after an intended change.

The games are played by seeded :class:`~keltis.bots.RandomBot` players, which depend only on
the engine's list of legal actions, so the files change only when the engine does. Besides the
comparison, every view is checked directly: re-dealing every card a seat cannot see leaves its
view unchanged, and no view holds another seat's hand or the draw pile's order.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from keltis.board import BoardState
from keltis.core.card_codes import CARD_TEXT
from support import assert_no_leak, bot_states, compact

from .helpers import GAME, rehide

Golden = Callable[[str, Any], None]

#: An explicit set-up near the end: four figures in the goal area, a short draw pile, a
#: clover and an overflow within reach — played to its natural end.
ENDGAME: dict[str, Any] = {
    "hands": [
        ["G9", "G10", "P2", "P3", "Y2", "Y3", "R5", "B6"],
        ["R2", "R3", "R4", "P4", "P5", "Y4", "Y5", "B7"],
        ["B2", "B3", "B4", "B5", "G5", "G6", "R6", "R7"],
    ],
    "rows": [
        {"G": ["G0", "G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8"], "P": ["P1"], "Y": ["Y1"]},
        {"R": ["R1"], "Y": ["Y0"]},
        {"B": ["B1"]},
    ],
    "positions": [{"G": 9, "P": 6, "Y": 1}, {"R": 7, "Y": 6}, {"B": 8}],
    "big": ["G", "R", None],
    "tiles": {"G": ".C.C.....", "Y": "..C.W.2.W", "R": ".3.....WC", "P": "W..2..C.1"},
    "deck": ["Y6", "Y7", "P6", "P7", "R8", "R9", "B8", "B9", "G7", "Y8", "P8", "P9"],
    "discards": {"B": ["B0", "B10"]},
    "wishes": [1, 0, 2],
    "tile_points": [2, 0, 3],
}

GAMES: dict[str, dict[str, Any]] = {
    "playthrough-2p-seed3": {"players": 2, "seed": 3, "variant": {"turn_cap": 24}},
    "playthrough-3p-seed7": {"players": 3, "seed": 7, "variant": {"turn_cap": 20}},
    "playthrough-4p-seed11": {"players": 4, "seed": 11, "variant": {"turn_cap": 16}},
    "endgame-3p": {"players": 3, "setup": ENDGAME, "variant": {}},
}


@pytest.mark.parametrize("name", list(GAMES))
def test_golden_playthrough(name: str, golden: Golden) -> None:
    spec = GAMES[name]
    rng = random.Random(name)
    viewers: list[int | None] = [*range(spec["players"]), None]
    steps = []
    layout = None
    final: BoardState | None = None
    for state, actor, action in bot_states(GAME, spec):
        views = []
        for viewer in viewers:
            view = state.view(viewer).to_json()
            assert_no_leak(state, viewer, view)
            assert rehide(state, viewer, rng).view(viewer).to_json() == view
            layout = layout or view["layout"]
            assert view.pop("layout") == layout
            views.append(compact(view))
        steps.append({"actor": actor, "action": action, "views": views})
        final = state
    assert final is not None
    assert final.over
    golden(
        f"board/golden/{name}.json",
        {
            "game": "board",
            "players": spec["players"],
            "seed": spec.get("seed"),
            "setup": spec.get("setup"),
            "variant": spec["variant"],
            "bots": "random, seeded 10 * seed + seat",
            "layout": layout,
            "views": "per step: seats 0.., then the spectator",
            "end_reason": final.outcome().end_reason.value,
            "steps": steps,
        },
    )


def test_the_leak_checks_can_fail() -> None:
    """The two checks above catch a leak: a view showing another seat's hand or the draw
    pile, and a re-deal that really changes the hidden cards."""
    state = GAME.new_game(3, seed=5)
    view = state.view(0).to_json()
    assert_no_leak(state, 0, view)
    for secret in ([CARD_TEXT[c] for c in state.hands[1]], [CARD_TEXT[c] for c in state.deck]):
        with pytest.raises(AssertionError, match="shows hidden cards"):
            assert_no_leak(state, 0, {**view, "debug": {"cards": secret}})
    other = rehide(state, 0, random.Random(1))
    assert other.hands[0] == state.hands[0]
    assert other.hands[1:] != state.hands[1:]
    assert other.deck != state.deck
    assert Counter(other.deck + other.hands[1] + other.hands[2]) == Counter(
        state.deck + state.hands[1] + state.hands[2]
    )
