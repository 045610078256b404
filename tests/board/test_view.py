"""What the board game's views show, and the states sampled from them."""

from __future__ import annotations

import random

import pytest

from keltis.board import sample_board_state
from keltis.core.errors import SetupError

from .helpers import GAME, discard_any, new, play


def test_a_view_shows_my_hand_and_only_counts_of_hidden_cards() -> None:
    state = new(3, hands=["G1 G2 G3 G4 G5 G6 G7 G8"], deck="R1 R2 R3 R4 R5")
    view = state.view(0).to_json()
    assert view["hand"] == ["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8"]
    assert view["hand_sizes"] == [8, 8, 8]
    assert view["deck_size"] == 5
    assert [a["notation"] for a in view["legal"][:2]] == ["G1", "G2"]
    other = state.view(1).to_json()
    assert other["hand"] == ["B0", "B0", "B1", "B1", "B2", "B2", "B3", "B3"]
    assert other["legal"] == []  # only the seat to decide gets its choices
    spectator = state.view(None).to_json()
    assert (spectator["hand"], spectator["legal"], spectator["viewer"]) == (None, [], None)
    with pytest.raises(ValueError, match="no seat 3"):
        state.view(3)


def test_cards_taken_from_a_discard_pile_are_known_until_played() -> None:
    state = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], discards={"Y": ["Y9"]})
    play(state, "-G1", "draw Y")
    for viewer in (0, 1, None):
        assert state.view(viewer).to_json()["known_cards"] == [["Y9"], []]
    play(state, "-B0", "draw")
    play(state, "Y9", "small")
    assert state.view(1).to_json()["known_cards"] == [[], []]


def test_a_pending_decision_names_its_path() -> None:
    state = new(
        hands=["G2 G3 G4 G5 G6 G7 G8 G9"], rows=[{"G": ["G1"]}, {}], tiles={"G": ".C......."}
    )
    assert state.view(1).to_json()["pending"] is None
    play(state, "G2")
    assert state.view(1).to_json()["pending"] == "G"
    play(state, "pass")
    assert state.view(1).to_json()["pending"] is None


def test_a_sample_in_the_figure_phase_keeps_count_of_the_figures() -> None:
    """Regression: a state sampled while a figure waits to enter its path counted one figure
    too few on the board, and later offered a sixth figure."""
    state = new(
        hands=["P5 B5 G4 Y4 R4 G5 Y5 R5"],
        rows=[{"G": ["G1"], "Y": ["Y1"], "R": ["R1"]}, {}],
        deck="R6 P6 R7 P7",
    )
    play(state, "P5")
    assert state.phase_name == "figure"
    sampled = sample_board_state(state.view(0), random.Random(1))
    assert sampled.started == state.started
    for game in (state, sampled):
        discard_any(play(game, "small", "draw"))
        play(game, "B5")
        assert game.phase_name == "draw"  # only the big figure was left: nothing to ask
        assert game.big[0] == 4


def test_a_spectator_view_cannot_be_sampled() -> None:
    state = GAME.new_game(2, seed=1)
    with pytest.raises(SetupError, match="spectator"):
        sample_board_state(state.view(None), random.Random(0))
    with pytest.raises(TypeError, match="BoardView"):
        GAME.sample_state(object(), random.Random(0))  # type: ignore[arg-type]
