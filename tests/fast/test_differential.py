"""keltis.fast against the reference engine, decision by decision (keltis.fast.diff).

A few hundred games per game and player count here; benchmarks/fast_diff.py runs 10,000 per
game, player count and policy and commits its result.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numba", reason="keltis.fast needs numba: pip install 'keltis[fast]'")

from keltis.fast.diff import MismatchError, differential

GAMES = ("board", "cards")
PLAYERS = (2, 3, 4)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("game", GAMES)
def test_random_games_equal(game: str, players: int) -> None:
    result = differential(game, players, 150, policy="random", seed=20_000)
    assert result["games"] == 150
    assert result["legal_sets_compared"] == result["decisions"] > 150 * 100


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("game", GAMES)
def test_greedy_games_equal(game: str, players: int) -> None:
    """Greedy games reach what random ones rarely do: the goal end (B-19), overflow moves
    (B-14), long rows, the card game's final lays (C-15)."""
    result = differential(game, players, 100, policy="greedy", seed=30_000)
    if game == "board":
        assert "goal" in result["end_reasons"]
    else:
        assert result["decisions_by_phase"]["final"] > 0


@pytest.mark.parametrize("game", GAMES)
def test_fast_deals_equal(game: str) -> None:
    """The games ``simulate`` plays (the fast engine's own deals), given to the reference."""
    for players in PLAYERS:
        differential(game, players, 30, policy="random", seed=5, deal="fast")


@pytest.mark.parametrize("game", GAMES)
def test_turn_cap_truncates_alike(game: str) -> None:
    for players in PLAYERS:
        result = differential(game, players, 30, seed=40_000, variant={"turn_cap": 25})
        assert result["end_reasons"] == {"truncated": 30}


def test_take_back_variant_equal() -> None:
    """B-15's variant that allows drawing back the card just discarded."""
    for players in PLAYERS:
        differential("board", players, 40, seed=50_000, variant={"no_take_back": False})


def test_a_difference_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a reference that offers one decision more is caught at once."""
    from keltis.cards.state import CardState

    real = CardState.legal_actions

    def one_more(self: CardState) -> list[Any]:
        from keltis.core.actions import PASS_ACTION

        out = real(self)
        return [*out, PASS_ACTION] if out else out

    monkeypatch.setattr(CardState, "legal_actions", one_more)
    with pytest.raises(MismatchError, match="legal decisions differ at decision 0"):
        differential("cards", 2, 1)
