"""The rating people read (docs/server.md, "Ratings"): openskill's ordinal on a 1500-centred
scale, provisional until enough rated games, and the fields that carry it in the API."""

from __future__ import annotations

import itertools

import pytest
from openskill.models import PlackettLuce

from keltis.server import ratings
from keltis.server.ratings import (
    PROVISIONAL_GAMES,
    PROVISIONAL_SIGMA,
    START_MU,
    START_SIGMA,
    Rating,
    ordinal,
    provisional,
    shown,
)


def test_a_new_player_shows_1500() -> None:
    assert shown(START_MU, START_SIGMA) == 1500
    assert Rating(START_MU, START_SIGMA, 0).to_json()["rating"] == 1500


def test_one_game_of_two_new_players_moves_the_rating_by_tens() -> None:
    model = PlackettLuce()
    [[winner], [loser]] = model.rate([[model.rating()], [model.rating()]], ranks=[1.0, 2.0])
    won, lost = shown(winner.mu, winner.sigma) - 1500, shown(loser.mu, loser.sigma) - 1500
    # openskill's ordinal moved by +3.4 and -1.8: shown, tens of points, not 1.8 or 300
    assert (won, lost) == (69, -37)


def test_a_four_player_table_orders_its_changes_by_place() -> None:
    model = PlackettLuce()
    after = model.rate([[model.rating()] for _ in range(4)], ranks=[1.0, 2.0, 3.0, 4.0])
    changes = [shown(t[0].mu, t[0].sigma) - 1500 for t in after]
    assert changes == sorted(changes, reverse=True)
    # first and last of four move by tens; the second and third less (sigma shrinks for all)
    assert changes[0] >= 40, changes
    assert changes[-1] <= -40, changes
    assert max(map(abs, changes)) <= 100, changes


def test_the_shown_rating_ranks_as_the_ordinal() -> None:
    """Monotone in the ordinal: of any two ratings, the one with the higher ordinal never
    shows less (rounding to whole points may make two equal)."""
    grid = [
        (mu, sigma)
        for mu, sigma in itertools.product(
            [10.0, 18.5, 24.9, 25.0, 25.1, 31.0, 40.0], [1.0, 2.5, 4.0, 6.0, 8.3333]
        )
    ]
    by_ordinal = sorted(grid, key=lambda r: ordinal(*r))
    values = [shown(*r) for r in by_ordinal]
    assert values == sorted(values)
    # and a whole point of the ordinal is 20 shown points
    assert shown(26.0, START_SIGMA) - shown(25.0, START_SIGMA) == 20


def test_a_rating_is_provisional_until_enough_games_and_a_small_enough_sigma() -> None:
    assert provisional(0, START_SIGMA)
    assert provisional(PROVISIONAL_GAMES - 1, 3.0)  # few games, however sure
    assert provisional(PROVISIONAL_GAMES + 20, PROVISIONAL_SIGMA + 0.5)  # still unsure
    assert not provisional(PROVISIONAL_GAMES, PROVISIONAL_SIGMA)
    assert not provisional(200, 2.0)
    assert ratings.Rating(25.0, 5.0, 12).to_json()["provisional"] is False
    assert ratings.Rating(25.0, 5.0, 3).to_json()["provisional"] is True


@pytest.mark.parametrize("games", [0, 5, 10])
def test_the_rating_json_carries_rating_and_provisional(games: int) -> None:
    data = Rating(27.0, 5.5, games).to_json()
    assert set(data) == {"rating", "provisional", "mu", "sigma", "games"}
    assert data["rating"] == round(1500 + 20 * (27.0 - 16.5))
    assert isinstance(data["rating"], int)
