"""Thousands of seeded random games for 2, 3 and 4 players, all of which must end properly.

Random play from the start nearly always ends by the draw pile (B-20); to reach the goal
ending (B-19) often too, a second batch starts from seeded positions with figures already on
rows 3-6. Each finished game is checked: over, a normal end reason, the 110 cards all there,
and an outcome whose scores are recomputed here from the position with the rulebook tables.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from keltis.board import DEFAULT_LAYOUT, BoardSetup, BoardState, BoardVariant
from keltis.board.state import FULL_DECK
from keltis.core.protocol import EndReason

from .helpers import GAME

FROM_THE_START = 2000
FROM_ADVANCED = 1000

#: The rulebooks' tables (B-2, B-23), written out again so the check is independent.
ROW_POINTS = {0: 0, 1: -4, 2: -3, 3: -2, 4: 1, 5: 2, 6: 3, 7: 6, 8: 7, 9: 10}
WISH_POINTS = {0: -4, 1: -3, 2: 2, 3: 3, 4: 6}


def advanced(players: int, seed: int) -> BoardState:
    """A seeded deal in which every seat already has figures on three paths, rows 3-6."""
    setup = BoardSetup.from_seed(players, seed)
    assert setup.deck is not None
    rng = random.Random(seed)
    rows: list[list[list[int]]] = [[[] for _ in range(5)] for _ in range(players)]
    positions = [[0] * 5 for _ in range(players)]
    big = []
    for seat in range(players):
        colours = rng.sample(range(5), 3)
        for colour in colours:
            card = next(c for c in setup.deck if c // 11 == colour)
            setup.deck.remove(card)
            rows[seat][colour].append(card)
            positions[seat][colour] = rng.randint(3, 6)
        big.append(colours[0])
    setup.rows, setup.positions, setup.big = rows, positions, big
    return setup.build(players, BoardVariant(), DEFAULT_LAYOUT)


def check_finished(state: BoardState) -> None:
    assert state.over
    assert (state.current_player, state.phase_name, state.legal_actions()) == (-1, "over", [])
    assert state.end_reason in (EndReason.GOAL, EndReason.DECK)
    if state.end_reason is EndReason.GOAL:
        assert state.goal == 5  # one figure moves at a time: exactly the fifth ends it
        assert state.deck
    else:
        assert state.goal < 5
        assert not state.deck
    cards: Counter[int] = Counter(state.deck + state.removed)
    for zone in (*state.hands, *state.piles, *(row for rows in state.rows for row in rows)):
        cards.update(zone)
    assert cards == Counter(FULL_DECK)
    outcome = state.outcome()
    assert outcome.end_reason is state.end_reason
    assert not outcome.truncated
    for seat in range(state.num_players):
        figures = sum(
            ROW_POINTS[row] * (2 if colour == state.big[seat] else 1)
            for colour, row in enumerate(state.pos[seat])
        )
        wishes = WISH_POINTS.get(state.wishes[seat], 10)
        total = figures + state.points[seat] + wishes
        parts = outcome.breakdown[seat]
        assert (parts["figures"], parts["tiles"], parts["wishes"]) == (
            figures,
            state.points[seat],
            wishes,
        )
        assert outcome.scores[seat] == total
    best = max(outcome.scores)
    assert outcome.winners == tuple(p for p, s in enumerate(outcome.scores) if s == best)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_from_the_start_end_properly(players: int) -> None:
    ends: Counter[EndReason] = Counter()
    for seed in range(FROM_THE_START):
        state = GAME.new_game(players, seed=seed)
        state.play_random(random.Random(seed))
        check_finished(state)
        assert state.end_reason is not None
        ends[state.end_reason] += 1
    assert sum(ends.values()) == FROM_THE_START
    assert ends[EndReason.DECK] > FROM_THE_START // 2


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_from_advanced_positions_end_properly(players: int) -> None:
    ends: Counter[EndReason] = Counter()
    for seed in range(FROM_ADVANCED):
        state = advanced(players, seed)
        state.play_random(random.Random(seed))
        check_finished(state)
        assert state.end_reason is not None
        ends[state.end_reason] += 1
    assert ends[EndReason.GOAL] > 0
    assert ends[EndReason.DECK] > 0
