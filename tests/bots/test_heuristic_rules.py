"""The heuristics' documented rules (docs/bots.md), each on an explicit position."""

from __future__ import annotations

import random
from typing import Any

from keltis.bots import make_bot
from keltis.core.actions import Action
from keltis.core.protocol import GameState
from keltis.games import get_game

FILLER = ("B0 B0 B1 B1 B2 B2 B3 B3", "B4 B4 B5 B5 B6 B6 B7 B7", "B8 B8 B9 B9 B10 B10 P10 P10")


def board(hands: list[str], **setup: Any) -> GameState:
    """A board-game position without tiles unless given (see tests/board/helpers.py)."""
    given = [h.split() for h in hands]
    data: dict[str, Any] = {"hands": given, "tiles": setup.pop("tiles", {})}
    for key, value in setup.items():
        data[key] = value.split() if key == "deck" else value
    return get_game("board").new_game(len(given), setup=data)


def choice(state: GameState, seed: int = 0) -> str:
    """The heuristic bot's choice for the player to move, as notation."""
    return str(make_bot("heuristic", seed).choose(state.view(state.current_player)))


def choices(state: GameState) -> set[str]:
    """The heuristic's choices over a few seeds (ties are broken at random)."""
    return {choice(state, seed) for seed in range(4)}


# -- board game ----------------------------------------------------------------------------


#: A short draw pile: about six turns left for each of two players.
SHORT_DECK = "Y5 Y6 R4 R5 P3 P4 P6 P7 Y4 Y7 R6 R7 P8 P9"


def test_board_opens_a_path_only_with_a_hand_to_carry_it() -> None:
    # Late in the game, the single red, pink, yellow and blue cards cannot carry a path past
    # the minus rows; four green cards can, and the path opens with an end of them.
    state = board(["G2 G4 G5 G7 Y3 R9 P1 B10", FILLER[0]], deck=SHORT_DECK)
    assert choices(state) <= {"G2", "G7"}
    # Early on, the cards still to come count too: a path may open with fewer in hand.
    early = board(["G2 G4 G5 G7 Y3 R9 P1 B10", FILLER[0]])
    assert choices(early) != {"-G4"}


def test_board_lays_the_closest_card_first() -> None:
    state = board(
        ["G4 G8 G9 Y0 Y10 R0 R10 P5", FILLER[0]],
        rows=[{"G": ["G1", "G3"]}, {}],
        deck=SHORT_DECK,
    )
    assert choices(state) == {"G4"}


def test_board_ends_the_game_only_when_winning() -> None:
    # Four figures already stand in the goal area; seat 0's green figure (big) is on row 6
    # and the G7 in hand would take it in as the fifth, ending the game at once (B-19).
    def position(tile_points: int) -> GameState:
        return board(
            ["G7 R0 R0 R1 R1 R2 R2 R3", "P8 P8 P9 P9 B8 B8 B9 B9"],
            rows=[
                {"G": ["G1", "G2", "G3", "G4", "G5", "G6"]},
                {"Y": ["Y0"], "R": ["R10"], "P": ["P10"], "B": ["B10"]},
            ],
            positions=[{"G": 6}, {"Y": 7, "R": 7, "P": 7, "B": 7}],
            big=["G", "Y"],
            tile_points=[tile_points, 0],
        )

    behind = position(0)  # 6 + 0 - 4 against 36 - 4
    assert behind.scores()[0] < behind.scores()[1]
    assert "G7" not in choices(behind)
    ahead = position(40)
    assert ahead.scores()[0] > ahead.scores()[1]
    assert choices(ahead) == {"G7"}


def test_board_draws_a_fitting_discard_else_the_deck() -> None:
    state = board(
        ["G5 G6 G8 Y0 Y10 R0 R10 P5", FILLER[0]],
        rows=[{"G": ["G1", "G3"]}, {}],
        discards={"G": ["G4"], "R": ["R5"]},
        deck=SHORT_DECK,
    )
    state.apply(Action.parse("G5"))
    assert choices(state) == {"draw"}  # G4 no longer fits the green row after G5
    state = board(
        ["G5 G6 G8 Y0 Y10 R0 R10 P5", FILLER[0]],
        rows=[{"G": ["G1", "G3"]}, {}],
        discards={"G": ["G4"], "R": ["R5"]},
        deck=SHORT_DECK,
    )
    state.apply(Action.parse("-P5"))
    assert choices(state) == {"draw G"}  # G4 fits between 3 and 5


def test_board_avoids_feeding_the_next_player() -> None:
    # Two useless cards: Y2 continues the next player's yellow row, R2 fits nobody.
    state = board(
        ["G1 G2 G3 G4 G5 G6 Y2 R2", FILLER[1]],
        rows=[{"G": ["G0"]}, {"Y": ["Y0", "Y1"]}],
        positions=[{"G": 1}, {"Y": 2}],
    )
    state.apply(Action.parse("G1"))
    state.apply(Action.parse("draw"))
    state.apply(Action.parse("-B4"))
    state.apply(Action.parse("draw"))
    assert "-Y2" not in choices(state)


# -- card game -----------------------------------------------------------------------------


def cards(hands: list[str], **setup: Any) -> GameState:
    """A card-game position (see tests/cards/helpers.py)."""
    data: dict[str, Any] = {"hands": [h.split() for h in hands]}
    for key in ("rows",):
        if key in setup:
            data[key] = [{k: v.split() for k, v in mine.items()} for mine in setup.pop(key)]
    if "point_rows" in setup:
        data["point_rows"] = [r.split() for r in setup.pop("point_rows")]
    if "discards" in setup:
        data["discards"] = {k: v.split() for k, v in setup.pop("discards").items()}
    data.update(setup)
    return get_game("cards").new_game(len(hands), setup=data)


CARD_FILLER = "Y0 Y10 R0 R10 B3 B4 P1 P2"


def test_cards_lays_a_point_card_on_a_matching_row_end() -> None:
    state = cards(
        ["*4 G0 Y9 R2 P10 B0 B10 YX", CARD_FILLER],
        rows=[{"G": "G1 G2 G3 G4"}, {}],
        deck=["R3", "R4", "R5", "R6", "R7", "P3", "P4", "P5", "P6", "P7"],
    )
    assert choices(state) == {"*4>G"}


def test_cards_will_not_close_the_fifth_row_when_behind() -> None:
    state = cards(
        ["GX G0 Y9 R2 P10 B0 B10 Y8", "Y0 Y10 R0 R10 B3 B4 P1 P2"],
        rows=[
            {"G": "G1 G2"},
            {
                "Y": "Y1 Y2 Y3 Y4 Y5 YX",
                "R": "R3 R4 R5 R6 RX",
                "P": "P3 P4 P5 P6 PX",
                "B": "B5 B6 B7 B8 BX",
            },
        ],
    )
    assert "GX" not in choices(state)


def test_cards_final_phase_lays_the_best_cards_then_stops() -> None:
    state = cards(
        ["G5 G6 Y9 *0 P10 B0 B10 Y8", "Y0 R0 R10 B3 B4 P1 P2 P3"],
        rows=[{"G": "G0 G1 G2 G3 G4 G4", "Y": "Y10"}, {"R": "R1"}],
        point_rows=["*1", ""],
        deck=["R9"],
    )
    state.apply(Action.parse("-B0"))
    state.apply(Action.parse("draw"))  # the last card: C-14 ends the game, C-15 follows
    assert state.phase_name == "final"
    while state.phase_name == "final" and state.current_player == 1:
        state.apply(Action.parse("pass"))
    assert state.current_player == 0
    first = choice(state)
    assert first in {"G5", "G6"}  # the seventh green card: +3, the most a card adds here
    state.apply(Action.parse(first))
    assert choice(state) in {"G5", "G6"} - {first}


def test_cards_claims_a_wish_stone_with_a_useless_pair() -> None:
    state = cards(
        ["Y5 R5 G1 G2 G3 G4 B10 B9", CARD_FILLER],
        rows=[{"G": "G0"}, {}],
    )
    assert choices(state) == {"wish Y5 R5"} or choices(state) == {"wish R5 Y5"}


def test_random_bots_are_seedable_by_random_module_only() -> None:
    # The heuristic's tie-breaks come from its own generator, never the global one.
    state = board(["G2 G4 G5 G7 Y3 R9 P1 B10", FILLER[0]])
    random.seed(1)
    one = choice(state, seed=3)
    random.seed(2)
    assert choice(state, seed=3) == one
