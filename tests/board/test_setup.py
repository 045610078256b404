"""Explicit set-ups and positions: what they build, and clear refusals of bad ones."""

from __future__ import annotations

from typing import Any

import pytest

from keltis.board import DEFAULT_LAYOUT, BoardSetup, BoardVariant
from keltis.core.errors import SetupError

from .helpers import FILLER, GAME, new

HAND = ["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8"]
OTHER = FILLER[0].split()


def test_a_set_up_round_trips_through_its_json_form() -> None:
    state = new(
        3,
        hands=["G1 G2 G3 G4 G5 G6 G7 G8"],
        rows=[{"Y": ["Y3", "Y5"]}, {"R": ["R9"]}, {}],
        positions=[{"Y": 4}, {"R": 1}, {}],
        big=["Y", None, None],
        discards={"P": ["P1", "P2"]},
        tile_points=[3, 0, 1],
        wishes=[1, 0, 2],
        known=[["G1"], [], []],
        tiles={"Y": "W.C.1...W"},
        first_player=1,
        fill_seed=9,
    )
    data = state.to_json()
    setup = BoardSetup(
        hands=[list(h) for h in state.hands],
        deck=list(reversed(state.deck)),
        removed=list(state.removed),
        tiles=[list(t) for t in state.tiles],
        first_player=1,
        piles=[list(p) for p in state.piles],
        rows=[[list(r) for r in rows] for rows in state.rows],
        positions=[list(p) for p in state.pos],
        big=list(state.big),
        points=list(state.points),
        wishes=list(state.wishes),
        known=[list(k) for k in state.known],
    )
    again = GAME.new_game(3, setup=setup.to_json())
    assert again.to_json() == data
    assert again.current_player == 1
    assert BoardSetup.from_json(setup.to_json(), 3) == setup


def test_positions_left_out_stand_on_the_row_length() -> None:
    # docs/records.md: `positions` per seat, per path letter (default: the row's length)
    rows = [{"G": ["G1", "G2", "G3"], "Y": ["Y5"], "R": ["R0"]}, {"B": ["B9", "B8"]}]
    state = new(
        2,
        hands=["P1 P2 P3 P4 P5 P6 P7 P8", "P9 P10 B1 B2 B3 B4 B5 B6"],
        rows=rows,
        positions=[{"G": 5}, {}],  # only the green figure is placed
    )
    assert state.pos[0] == [5, 1, 1, 0, 0]  # G given; Y and R by their rows' length
    assert state.pos[1] == [0, 0, 0, 0, 2]
    whole = new(2, hands=["P1 P2 P3 P4 P5 P6 P7 P8", "P9 P10 B1 B2 B3 B4 B5 B6"], rows=rows)
    assert whole.pos == [[3, 1, 1, 0, 0], [0, 0, 0, 0, 2]]  # no positions at all: the same rule
    setup = BoardSetup.from_json(
        {"hands": [HAND, OTHER], "rows": [{"Y": ["Y1", "Y2"]}, {}], "positions": [{}, {}]}, 2
    )
    assert setup.positions == [[0, 2, 0, 0, 0], [0, 0, 0, 0, 0]]


def test_unplaced_cards_are_shuffled_with_the_fill_seed() -> None:
    one = new(3, hands=["G1 G2 G3 G4 G5 G6 G7 G8"], fill_seed=1)
    same = new(3, hands=["G1 G2 G3 G4 G5 G6 G7 G8"], fill_seed=1)
    other = new(3, hands=["G1 G2 G3 G4 G5 G6 G7 G8"], fill_seed=2)
    assert one.deck == same.deck
    assert one.deck != other.deck


def test_a_two_player_deal_sets_30_cards_aside_a_position_only_if_told() -> None:
    deal = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"])
    assert (len(deal.removed), len(deal.deck)) == (30, 110 - 16 - 30)
    position = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], rows=[{"Y": ["Y1", "Y2"]}, {}])
    assert (len(position.removed), len(position.deck)) == (0, 110 - 16 - 2)
    piles = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], discards={"R": ["R1"]})
    assert (len(piles.removed), len(piles.deck)) == (0, 110 - 16 - 1)
    given = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], rows=[{"Y": ["Y1"]}, {}], removed=["R1"] * 2)
    assert (len(given.removed), len(given.deck)) == (2, 110 - 16 - 1 - 2)
    deck = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], deck=["R1", "R2"])
    assert (len(deck.removed), len(deck.deck)) == (110 - 16 - 2, 2)


BAD: list[tuple[dict[str, Any], str]] = [
    ({}, "'hands' is required"),
    ({"hands": [HAND]}, "one entry per player"),
    ({"hands": [HAND[:7], OTHER]}, "player 0 holds 7 cards; a hand has 8"),
    ({"hands": [HAND, OTHER], "colour": "red"}, "unknown entries colour"),
    ({"hands": [HAND, ["Q7", *OTHER[1:]]]}, "hand of player 1: “Q7” is not a card"),
    ({"hands": [HAND, OTHER], "deck": "G9"}, "deck must be a list of cards"),
    ({"hands": [HAND, OTHER], "deck": []}, "draw pile must hold at least one card"),
    ({"hands": [HAND, OTHER], "deck": ["G9"], "removed": ["G10"]}, "leaves cards nowhere"),
    ({"hands": [HAND, OTHER], "tiles": {"G": "..."}}, "must be 9 characters"),
    ({"hands": [HAND, OTHER], "tiles": {"G": ".X......."}}, "row 2: 'X' is not one of"),
    ({"hands": [HAND, OTHER], "tiles": {"Q": "........."}}, "'Q' is not a colour letter"),
    ({"hands": [HAND, OTHER], "first_player": 2}, "first_player must be a whole number 0-1"),
    ({"hands": [HAND, OTHER], "rows": [{"Y": ["G9"]}, {}]}, "yellow row holds G9"),
    (
        {"hands": [HAND, OTHER], "rows": [{"Y": ["Y1"]}, {}], "positions": [{"Y": 0}, {}]},
        "exactly when that row has cards",
    ),
    (
        {
            "hands": [HAND, OTHER],
            "rows": [{"Y": ["Y1", "Y2", "Y3"]}, {}],
            "positions": [{"Y": 2}, {}],
        },
        "stands on row 2, but its row holds 3 cards",
    ),
    ({"hands": [HAND, OTHER], "positions": [{"Y": 10}, {}]}, "position Y must be a whole number"),
    ({"hands": [HAND, OTHER], "big": ["Y", None]}, "big figure stands on a path with no cards"),
    ({"hands": [HAND, OTHER], "big": ["Q", None]}, "'Q' is not a path"),
    (
        {
            "hands": [HAND, OTHER],
            "rows": [{"G": ["G0"], "Y": ["Y0"], "R": ["R0"], "P": ["P0"], "B": ["B10"]}, {}],
        },
        "say which is big",
    ),
    (
        {
            "hands": [HAND, OTHER],
            "rows": [{"G": ["G0"], "Y": ["Y0"], "R": ["R0"]}, {"P": ["P0"], "B": ["B10"]}],
            "positions": [{"G": 7, "Y": 7, "R": 7}, {"P": 7, "B": 7}],
        },
        "5 figures in the goal area",
    ),
    ({"hands": [HAND, OTHER], "wishes": [10, 0]}, "wishes must be a whole number 0-9"),
    ({"hands": [HAND, OTHER], "known": [["R1"], []]}, "known cards are not all in the hand"),
    (
        {"hands": [HAND, OTHER], "deck": ["G1", "G1"]},
        r"uses cards more often than the 2 copies that exist \(B-1\): G1 x3$",
    ),
    (
        {"hands": [HAND, OTHER], "wishes": [9, 0]},
        r"uses 18 tiles 'W' \(wish stone\), but only 9 exist \(B-3\)",
    ),
    ({"hands": [HAND, OTHER], "fill_seed": -1}, "fill_seed must be a whole number"),
]  # fmt: skip


@pytest.mark.parametrize(("setup", "message"), BAD)
def test_a_bad_set_up_is_refused_with_a_reason(setup: dict[str, Any], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        GAME.new_game(2, setup=setup)


def test_bad_game_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="2-4 players, not 5"):
        GAME.new_game(5, seed=1)
    with pytest.raises(SetupError, match="either a seed or an explicit set-up"):
        GAME.new_game(2, seed=1, setup={"hands": [HAND, OTHER]})
    with pytest.raises(SetupError, match="2-4 players, not 1"):
        BoardSetup.from_seed(1, 0)
    with pytest.raises(SetupError, match="2 hands for 3 players"):
        BoardSetup(hands=[[0] * 8, [1] * 8]).build(3, BoardVariant(), DEFAULT_LAYOUT)
    with pytest.raises(SetupError, match="an explicit set-up must be an object"):
        GAME.new_game(2, setup=["G1"])  # type: ignore[arg-type]
