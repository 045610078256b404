"""Tournament statistics from hand-made game results."""

from __future__ import annotations

from typing import Any

import pytest

from keltis.arena.stats import bot_stats, compute_ratings, pairwise, wilson_interval


def game(seats: list[str], scores: list[int]) -> dict[str, Any]:
    best = max(scores)
    return {
        "seats": seats,
        "scores": scores,
        "winners": [i for i, s in enumerate(scores) if s == best],
    }


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [(5, 10, 0.2366, 0.7634), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (1, 2, 0.0945, 0.9055)],
)
def test_wilson_interval_known_values(wins: float, n: int, low: float, high: float) -> None:
    got = wilson_interval(wins, n)
    assert got == pytest.approx((low, high), abs=1e-4)


@pytest.mark.parametrize("n", [1, 3, 7, 10, 49, 1000])
def test_wilson_interval_holds_the_rate_even_at_the_edges(n: int) -> None:
    for wins in (0, n):
        low, high = wilson_interval(wins, n)
        assert 0.0 <= low <= wins / n <= high <= 1.0


def test_wilson_interval_without_games_is_everything() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_ties_share_the_win_and_margins_compare_with_the_best_other_seat() -> None:
    games = [
        game(["a", "b", "c"], [10, 10, 4]),  # a and b share
        game(["b", "c", "a"], [3, 9, 1]),  # c alone
        game(["c", "a", "b"], [5, 7, 2]),  # a alone
    ]
    stats = {s["name"]: s for s in bot_stats(["a", "b", "c"], 3, games)}
    a, b, c = stats["a"], stats["b"], stats["c"]
    assert a["wins"] == pytest.approx(1.5)
    assert (a["outright_wins"], a["shared_wins"]) == (1, 1)
    assert a["win_rate"] == pytest.approx(0.5)
    assert b["wins"] == pytest.approx(0.5)
    assert c["wins"] == pytest.approx(1.0)
    assert a["scores"] == [10, 1, 7]
    assert a["mean_score"] == pytest.approx(6.0)
    # margins of a: 10-10, 1-9, 7-5
    assert a["mean_margin"] == pytest.approx((0 - 8 + 2) / 3)
    assert a["win_rate_ci95"] == pytest.approx(list(wilson_interval(1.5, 3)))
    assert [seat["seat_games"] for seat in a["by_seat"]] == [1, 1, 1]
    assert a["by_seat"][2]["mean_score"] == 1.0
    assert "scores" not in a["by_seat"][0]
    assert sum(s["wins"] for s in stats.values()) == pytest.approx(len(games))


def test_a_bot_in_two_seats_counts_two_seat_games_in_one_game() -> None:
    stats = {s["name"]: s for s in bot_stats(["x", "y"], 3, [game(["x", "y", "x"], [8, 2, 5])])}
    assert stats["x"]["games"] == 1
    assert stats["x"]["seat_games"] == 2
    assert stats["x"]["wins"] == 1.0
    assert stats["x"]["win_rate"] == 0.5
    assert stats["y"]["mean_margin"] == -6


def test_ratings_follow_the_results_and_rank_the_bots() -> None:
    games = [game(["strong", "weak"], [20, 5]), game(["weak", "strong"], [3, 11])] * 5
    ratings = compute_ratings(["strong", "weak"], games)
    assert ratings["strong"]["mu"] > 25 > ratings["weak"]["mu"]
    assert ratings["strong"]["sigma"] < 25 / 3
    assert ratings["strong"]["ordinal"] == pytest.approx(
        ratings["strong"]["mu"] - 3 * ratings["strong"]["sigma"]
    )
    ranked = {s["name"]: s["rank"] for s in bot_stats(["weak", "strong"], 2, games)}
    assert ranked == {"strong": 1, "weak": 2}


def test_ratings_depend_on_the_game_order_given_not_on_anything_else() -> None:
    games = [game(["a", "b"], [9, 1]), game(["b", "a"], [9, 1]), game(["a", "b"], [4, 4])]
    assert compute_ratings(["a", "b"], games) == compute_ratings(["a", "b"], list(games))
    assert compute_ratings(["a", "b"], games) != compute_ratings(["a", "b"], games[::-1])


def test_draws_leave_equal_bots_equal() -> None:
    ratings = compute_ratings(["a", "b"], [game(["a", "b"], [4, 4])] * 3)
    assert ratings["a"]["mu"] == pytest.approx(ratings["b"]["mu"])


def test_pairwise_counts_meetings_and_half_points_for_ties() -> None:
    games = [game(["a", "b", "c"], [5, 5, 1]), game(["b", "c", "a"], [2, 6, 6])]
    table = pairwise(["a", "b", "c"], games)
    assert table["a"]["b"] == {"meetings": 2, "score": 0.75}
    assert table["b"]["a"] == {"meetings": 2, "score": 0.25}
    assert table["a"]["c"] == {"meetings": 2, "score": 0.75}
    assert table["c"]["b"]["score"] == 0.5
    assert "a" not in table["a"]
