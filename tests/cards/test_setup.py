"""Set-ups, variants and the JSON forms: seeded and explicit set-ups agree, mid-game positions
are rebuilt exactly, and bad input is refused with a message naming what is wrong."""

from __future__ import annotations

import json
from typing import Any

import pytest

from keltis.cards import CardGame, CardSetup, CardState, CardVariant
from keltis.cards.state import derive_rows
from keltis.core.card_codes import parse_card
from keltis.core.errors import SetupError
from keltis.core.scoring import ASCENDING, DESCENDING

from .helpers import GAME, new, play, snapshot

HAND = ["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8"]
OTHER = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"]


def test_the_registry_gives_the_card_game() -> None:
    assert isinstance(GAME, CardGame)
    assert GAME.name == "cards"
    assert isinstance(GAME.new_game(2, seed=1), CardState)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seeded_deal_written_out_explicitly_is_the_same_game(players: int) -> None:
    seeded = GAME.new_game(players, seed=9)
    setup = CardSetup.from_seed(players, 9).to_json()
    explicit = GAME.new_game(players, setup=json.loads(json.dumps(setup)))
    assert snapshot(explicit) == snapshot(seeded)


def test_a_mid_game_position_round_trips_through_json() -> None:
    setup = CardSetup(
        hands=[[parse_card(c) for c in HAND], [parse_card(c) for c in OTHER]],
        first_player=1,
        piles=[[parse_card("G9")], [], [], [], [parse_card("BX")], [parse_card("*9")]],
        rows=[
            [[parse_card(c) for c in ("G10", "*10", "G0")], [], [], [], []],
            [[], [], [parse_card(c) for c in ("R3", "R5", "*5", "RX")], [], []],
        ],
        point_rows=[[parse_card("*1")], []],
        wish_stones=[[4], [2, 7]],
        known=[[parse_card("G5")], []],
        fill_seed=3,
    )
    data = setup.to_json()
    again = CardSetup.from_json(json.loads(json.dumps(data)), 2)
    assert again == setup
    state = GAME.new_game(2, setup=data)
    assert state.current_player == 1
    assert state.dirs[0][0] == DESCENDING
    assert state.dirs[1][2] == ASCENDING
    assert state.closed_rows == 1
    assert state.wish_row == [1, 3, 5, 6, 8, 9]
    assert state.view(1).known_cards[0] == (parse_card("G5"),)
    assert state.view(None).to_json()["discards"]["*"] == ["*9"]
    assert len(state.deck) == 101 - 16 - 11  # nothing removed in a mid-game position


def test_derived_bookkeeping_matches_play() -> None:
    state = GAME.new_game(3, seed=4)
    state.play_random(__import__("random").Random(4))
    copy = state.clone()
    derive_rows(copy)
    assert copy.layable == state.layable
    assert copy.onto == state.onto
    assert copy.last == state.last
    assert copy.dirs == state.dirs
    assert copy.closings == state.closings
    assert copy.closed_rows == state.closed_rows


def test_deck_given_means_unplaced_cards_are_removed() -> None:
    state = new(hands=[" ".join(HAND)], deck="B5 B6")
    assert list(reversed(state.deck)) == [parse_card("B5"), parse_card("B6")]
    assert len(state.removed) == 101 - 16 - 2
    play(state, "-G1", "draw")
    assert parse_card("B5") in state.hands[0]


BAD_SETUPS: list[tuple[Any, str]] = [
    ([], "must be an object"),
    ({"hands": [HAND, OTHER], "tiles": {}}, "unknown entries tiles"),
    ({}, "'hands' is required"),
    ({"hands": [HAND]}, "one entry per player"),
    ({"hands": [HAND[:7], OTHER]}, "player 0 holds 7 cards"),
    ({"hands": [[*HAND[:7], "Q7"], OTHER]}, "hand of player 0: “Q7” is not a card"),
    ({"hands": [[*HAND[:7], 7], OTHER]}, "hand of player 0: 7 is not a card"),
    ({"hands": [HAND, OTHER], "deck": "G9"}, "deck must be a list"),
    ({"hands": [HAND, OTHER], "deck": []}, "draw pile must hold at least one card"),
    ({"hands": [HAND, OTHER], "deck": ["G9"], "removed": ["G10"]}, "leaves cards nowhere"),
    ({"hands": [HAND, OTHER], "first_player": 2}, "first_player must be a whole number 0-1"),
    ({"hands": [HAND, OTHER], "discards": {"Q": ["G9"]}}, "'Q' is not a colour letter"),
    ({"hands": [HAND, OTHER], "discards": ["G9"]}, "discards must be an object"),
    ({"hands": [HAND, OTHER], "discards": {"Y": ["G9"]}}, "belongs on the green pile"),
    ({"hands": [HAND, OTHER], "discards": {"*": ["GX"]}}, "belongs on the green pile"),
    ({"hands": [HAND, OTHER], "rows": [{"G": ["Y9"]}, {}]}, "Y9 is not green"),
    ({"hands": [HAND, OTHER], "rows": [{"R": ["RX"]}, {}]}, "closing card cannot start"),
    ({"hands": [HAND, OTHER], "rows": [{"R": ["*3"]}, {}]}, "point card must match"),
    ({"hands": [HAND, OTHER], "rows": [{"R": ["R3", "*4"]}, {}]}, "point card must match"),
    ({"hands": [HAND, OTHER], "rows": [{"R": ["R3", "RX", "R4"]}, {}]}, "only a closing card"),
    ({"hands": [HAND, OTHER], "rows": [{"R": ["R3", "R5", "R4"]}, {}]}, "direction rule"),
    ({"hands": [HAND, OTHER], "rows": [["R3"], {}]}, "keyed by colour letter"),
    ({"hands": [HAND, OTHER], "point_rows": [["R3"], []]}, "point row holds R3"),
    ({"hands": [HAND, OTHER], "wish_stones": [5, []]}, "must be a list of values"),
    ({"hands": [HAND, OTHER], "wish_stones": [[0], []]}, "1-9"),
    ({"hands": [HAND, OTHER], "known": [["B1"], []]}, "known cards are not all in the hand"),
    (
        {"hands": [HAND, OTHER], "known": [["B1", "G1", "B1"], []]},
        "known cards are not all in the hand: B1, B1$",
    ),
    (
        {"hands": [HAND, OTHER], "deck": ["G1", "G1"]},
        "more often than they exist .C-1-C-3.: G1 x3 .exists x1.$",
    ),
    ({"hands": [HAND, OTHER], "fill_seed": -1}, "fill_seed"),
]


@pytest.mark.parametrize(("data", "message"), BAD_SETUPS)
def test_a_bad_set_up_is_refused_with_the_reason(data: Any, message: str) -> None:
    with pytest.raises(SetupError, match=message.replace("(", r"\(").replace("*", r"\*")):
        GAME.new_game(2, setup=data)


def test_seed_and_set_up_together_are_refused() -> None:
    with pytest.raises(SetupError, match="either a seed or an explicit set-up"):
        GAME.new_game(2, seed=1, setup={"hands": [HAND, OTHER]})


@pytest.mark.parametrize("players", [1, 5])
def test_the_card_game_is_for_two_to_four(players: int) -> None:
    with pytest.raises(ValueError, match="2-4 players"):
        GAME.new_game(players, seed=1)
    with pytest.raises(SetupError, match="2-4 players"):
        CardSetup.from_seed(players, 1)


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        ({"turn_cap": 0}, "at least 1"),
        ({"turn_cap": "ten"}, "whole number"),
        ({"turn_cap": True}, "whole number"),
        ({"layout": "x"}, "unknown card-game variant switch"),
        ({"no_take_back": False}, "C-12"),
    ],
)
def test_a_bad_variant_is_refused(variant: dict[str, Any], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        GAME.new_game(2, seed=1, variant=variant)


def test_variant_json() -> None:
    assert CardVariant.from_json(None) == CardVariant()
    assert CardVariant.from_json({"turn_cap": 50}).to_json() == {"turn_cap": 50}
    # the card game always forbids taking back a discarded card: saying so changes nothing
    assert CardVariant.from_json({"no_take_back": True}) == CardVariant()
