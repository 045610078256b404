"""Golden playthroughs: seeded card games with every seat's view and the spectator's at every
step.

Each file under ``tests/data/cards/golden/`` holds the game's parameters and, per step, the
action taken and each view as compact JSON (seat 0, seat 1, …, then the spectator). Any change
to what a view shows — a hidden-information leak included — shows up as a diff;
``pytest --update-golden`` rewrites the files after an intended change.

The games are played by seeded :class:`~keltis.bots.RandomBot` players, which depend only on
the engine's list of legal actions, so the files change only when the engine does. Besides the
comparison, every view is checked directly: re-dealing every card a seat cannot see leaves its
view unchanged, and no view holds another seat's hand, the draw pile or the removed cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from keltis.cards import CardState
from support import assert_no_leak, bot_states, compact

from .helpers import GAME, rehidden

Golden = Callable[[str, Any], None]

#: An explicit set-up near the end: three closed rows, a short draw pile, second closing
#: cards in hand and rows that can still grow in the final phase (C-15).
ENDGAME: dict[str, Any] = {
    "hands": [
        ["GX", "Y5", "Y6", "Y7", "*4", "P3", "R3", "B3"],
        ["RX", "P4", "P3", "*5", "Y8", "R8", "B8", "G8"],
        ["BX", "G7", "G6", "*9", "Y9", "R7", "P7", "B7"],
    ],
    "rows": [
        {"G": ["G0", "G1", "G2", "GX"], "Y": ["Y3", "Y4"]},
        {"R": ["R10", "R9", "RX"], "P": ["P5", "P5"]},
        {"B": ["B1", "B2", "BX"], "G": ["G10", "G9"]},
    ],
    "point_rows": [["*0"], [], []],
    "wish_stones": [[1, 2], [3], []],
    "deck": ["Y10", "R4", "P6", "B4", "G5", "*6", "YX", "PX", "R5", "B5", "*7", "G4"],
    "discards": {"Y": ["Y0"], "*": ["*10"]},
}

GAMES: dict[str, dict[str, Any]] = {
    "playthrough-2p-seed167": {"players": 2, "seed": 167, "variant": {}},
    "playthrough-4p-seed11": {"players": 4, "seed": 11, "variant": {"turn_cap": 16}},
    "endgame-3p": {"players": 3, "setup": ENDGAME, "variant": {}},
}


@pytest.mark.parametrize("name", list(GAMES))
def test_golden_playthrough(name: str, golden: Golden) -> None:
    spec = GAMES[name]
    rng = random.Random(name)
    viewers: list[int | None] = [*range(spec["players"]), None]
    steps = []
    phases: set[str] = set()
    final: CardState | None = None
    for state, actor, action in bot_states(GAME, spec):
        views = []
        for viewer in viewers:
            view = state.view(viewer).to_json()
            assert_no_leak(state, viewer, view)
            assert rehidden(state, viewer, rng).view(viewer).to_json() == view
            views.append(compact(view))
        steps.append({"actor": actor, "action": action, "views": views})
        phases.add(state.phase_name)
        final = state
    assert final is not None
    assert final.over
    if not spec["variant"]:
        assert "final" in phases  # the games were chosen to reach the end phase
    golden(
        f"cards/golden/{name}.json",
        {
            "game": "cards",
            "players": spec["players"],
            "seed": spec.get("seed"),
            "setup": spec.get("setup"),
            "variant": spec["variant"],
            "bots": "random, seeded 10 * seed + seat",
            "views": "per step: seats 0.., then the spectator",
            "end_reason": final.outcome().end_reason.value,
            "scores": list(final.outcome().scores),
            "steps": steps,
        },
    )
