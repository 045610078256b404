# ruff: noqa: N802  (test names carry the rule id: test_C13_…)
"""One test (or a few) per rule of the card game, RULES.md C-1 … C-19.

Every position is an explicit set-up (see ``helpers.new``): hands, rows, piles and, where it
matters, the draw pile are named, so nothing depends on the shuffle.
"""

from __future__ import annotations

from collections import Counter

import pytest

from keltis.cards.state import FULL_DECK
from keltis.core.actions import Action
from keltis.core.card_codes import CARD_COLOUR, CARD_VALUE, parse_card
from keltis.core.errors import SetupError
from keltis.core.protocol import EndReason
from keltis.core.scoring import ASCENDING, DESCENDING, UNDECIDED

from .helpers import GAME, legal, new, play, refused

G, Y, R, P, B = range(5)
POINT_PILE = 5


def card(text: str) -> int:
    return parse_card(text)


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


# -- components ----------------------------------------------------------------------------


def test_C1_80_number_cards_one_each_of_0_1_2_8_9_10_and_two_each_of_3_to_7() -> None:
    numbers = [c for c in FULL_DECK if c < 55]
    assert len(numbers) == 80
    expected = Counter({0: 1, 1: 1, 2: 1, 8: 1, 9: 1, 10: 1, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2})
    for colour in range(5):
        assert Counter(CARD_VALUE[c] for c in numbers if CARD_COLOUR[c] == colour) == expected


def test_C1_a_card_used_more_often_than_it_exists_is_refused() -> None:
    with pytest.raises(SetupError, match=r"G5 x3 \(exists x2\)"):
        new(hands=["G5 G5 G5 Y1 Y2 Y3 Y4 Y5"])
    with pytest.raises(SetupError, match=r"G9 x2 \(exists x1\)"):
        new(hands=["G9 Y1 Y2 Y3 Y4 Y5 Y6 Y7"], rows=[{}, {"G": "G9"}])


def test_C2_ten_closing_cards_two_per_colour() -> None:
    closing = [c for c in FULL_DECK if 55 <= c < 60]
    assert Counter(closing) == Counter({55 + colour: 2 for colour in range(5)})


def test_C3_eleven_point_cards_0_to_10() -> None:
    assert sorted(c for c in FULL_DECK if c >= 60) == cards(" ".join(f"*{v}" for v in range(11)))
    assert len(FULL_DECK) == 101


def test_C4_nine_wish_stone_cards_face_up_and_not_in_the_deck() -> None:
    state = GAME.new_game(3, seed=4)
    view = state.view(None)
    assert view.wish_row == tuple(range(1, 10))
    assert view.wish_stones == ((), (), ())
    assert sum(view.hand_sizes) + view.deck_size + view.removed_count == 101


def test_C4_a_wish_stone_card_claimed_twice_is_refused() -> None:
    with pytest.raises(SetupError, match="C-4"):
        new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], wish_stones=[[3], [3]])
    with pytest.raises(SetupError, match="wish stone of player 0"):
        new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], wish_stones=[[10], []])


# -- set-up ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_C5_deal_eight_cards_each_rest_is_the_draw_pile(players: int) -> None:
    state = GAME.new_game(players, seed=11)
    assert [len(h) for h in state.hands] == [8] * players
    assert len(state.deck) == 101 - 8 * players
    assert state.removed == []
    assert state.hands == GAME.new_game(players, seed=11).hands
    assert state.deck == GAME.new_game(players, seed=11).deck
    assert state.deck != GAME.new_game(players, seed=12).deck
    assert state.current_player == 0
    assert state.phase_name == "play"


def test_C6_two_players_remove_30_cards_unseen() -> None:
    state = GAME.new_game(2, seed=5)
    assert len(state.removed) == 30
    assert len(state.deck) == 101 - 16 - 30
    view = state.view(0)
    assert view.removed_count == 30
    assert "removed" not in view.to_json()
    explicit = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"])
    assert len(explicit.removed) == 30


# -- a turn: play one card ------------------------------------------------------------------


@pytest.mark.parametrize(("move", "pile"), [("-G5", G), ("-YX", Y), ("-*5", POINT_PILE)])
def test_C7_discard_onto_the_colour_pile_or_the_point_pile(move: str, pile: int) -> None:
    state = new(hands=["G5 YX *5 R1 R2 R3 P1 P2"])
    play(state, move)
    assert state.piles[pile] == [card(move[1:])]
    assert sum(len(p) for p in state.piles) == 1
    assert state.phase_name == "draw"
    assert state.view(0).draws_left == 1
    assert state.view(0).blocked_piles == (pile,)
    assert len(state.hands[0]) == 7


def test_C7_only_cards_in_hand_can_be_discarded() -> None:
    state = new(hands=["G5 YX *5 R1 R2 R3 P1 P2"])
    refused(state, "-G6", "C-7")


def test_C8_claim_a_wish_stone_with_two_equal_values() -> None:
    state = new(hands=["G5 *5 R1 R2 R3 P1 P2 P3"])
    play(state, "wish *5 G5")  # the other order than legal_actions lists: accepted
    assert str(state.history[-1]) == "wish *5 G5"
    assert state.piles[POINT_PILE] == [card("*5")]
    assert state.piles[G] == [card("G5")]
    assert state.wish_stones[0] == [5]
    assert state.view(None).wish_row == (1, 2, 3, 4, 6, 7, 8, 9)
    assert state.phase_name == "draw"
    assert state.draws_left == 2
    assert len(state.hands[0]) == 6


def test_C8_each_claim_pair_is_listed_once_lowest_card_first() -> None:
    state = new(hands=["G3 G3 Y3 *3 G7 Y7 R2 R1"])
    claims = [a for a in legal(state) if a.startswith("wish")]
    assert claims == ["wish G3 G3", "wish G3 Y3", "wish G3 *3", "wish G7 Y7", "wish Y3 *3"]
    play(state, "wish G3 G3")
    assert state.piles[G] == cards("G3 G3")
    assert state.hands[0] == sorted(cards("R1 Y3 Y7 R2 G7 *3"))


def test_C8_a_claim_fails_when_the_wish_stone_is_gone() -> None:
    state = new(hands=["G5 Y5 R1 R2 R3 P4 P6 P8"], wish_stones=[[], [5]])
    assert not [a for a in legal(state) if a.startswith("wish")]
    error = refused(state, "wish G5 Y5", "C-8")
    assert str(error).endswith("no longer on the table: Player 2 has it")


def test_C8_a_claim_needs_both_cards_in_hand() -> None:
    state = new(hands=["G5 Y6 G10 Y10 G0 Y0 GX YX"])
    refused(state, "wish G5 R5", "C-8")
    refused(state, "wish G5 G5", "C-8")  # only one copy held
    assert not [a for a in legal(state) if a.startswith("wish")]  # 0, 10 and X cannot claim


def test_C9_lay_a_number_card_one_row_per_colour() -> None:
    state = new(hands=["G3 G6 Y4 R1 R2 P1 P2 P3"])
    play(state, "G3", "draw")
    assert state.rows[0][G] == cards("G3")
    assert state.dirs[0][G] == UNDECIDED
    play(state, "-B0", "draw", "G6", "draw")
    assert state.rows[0][G] == cards("G3 G6")
    assert state.dirs[0][G] == ASCENDING
    assert state.rows[1] == [[], [], [], [], []]


def test_C9_number_cards_follow_the_rows_direction() -> None:
    state = new(
        hands=["G6 G6 G2 G7 R10 R7 Y1 Y2"],
        rows=[{"G": "G3 G3", "R": "R9 R8"}, {}],
    )
    assert state.dirs[0][G] == UNDECIDED
    assert {"G2", "G6", "G7", "R7"} <= set(legal(state))
    refused(state, "R10", "C-9")
    play(state, "G6", "draw", "-B0", "draw")
    assert state.dirs[0][G] == ASCENDING
    error = refused(state, "G2", "C-9")
    assert "ascending" in str(error)
    assert "G6" in legal(state)  # equal values are always allowed
    assert "G7" in legal(state)
    assert state.dirs[0][R] == DESCENDING


def test_C10_a_closing_card_cannot_start_a_row() -> None:
    state = new(hands=["GX Y1 Y2 R1 R2 P1 P2 P3"])
    error = refused(state, "GX", "C-10")
    assert "cannot start" in str(error)
    assert "-GX" in legal(state)


def test_C10_closing_second_closing_then_nothing() -> None:
    state = new(hands=["GX GX G4 *3 Y5 R5 P5 B5"], rows=[{"G": "G3"}, {}])
    assert {"GX", "G4", "*3>G"} <= set(legal(state))
    play(state, "GX", "draw", "-B0", "draw")
    assert state.closed_rows == 1
    refused(state, "G4", "C-10")
    refused(state, "*3>G", "C-10")
    assert "GX" in legal(state)
    play(state, "GX", "draw", "-B1", "draw")
    assert state.rows[0][G] == cards("G3 GX GX")
    assert state.closed_rows == 1  # two closing cards on one row count once
    error = refused(state, "G4", "C-10")
    assert "both closing cards" in str(error)
    assert not [a for a in legal(state) if a in {"G4", "*3>G", "GX"}]


def test_C11_point_cards_go_on_the_point_row_in_any_order() -> None:
    state = new(hands=["*7 *2 Y1 Y2 R1 R2 P1 P2"])
    play(state, "*7", "draw", "-B0", "draw", "*2", "draw")
    assert state.point_rows[0] == cards("*7 *2")
    assert state.rows[0] == [[], [], [], [], []]


def test_C11_a_point_card_extends_a_colour_row_ending_in_its_value() -> None:
    state = new(hands=["*5 *6 G4 G6 Y1 Y2 R1 R2"], rows=[{"G": "G5", "Y": "Y5"}, {}])
    options = legal(state)
    assert "*5>G" in options
    assert "*5>Y" in options
    assert "*5" in options
    assert "*6>G" not in options
    refused(state, "*6>G", "C-11")
    refused(state, "*5>R", "C-11")  # no red row: a point card cannot start one
    play(state, "*5>G", "draw")
    assert state.rows[0][G] == cards("G5 *5")
    assert state.point_rows[0] == []
    assert state.dirs[0][G] == UNDECIDED  # the point card carries the value 5
    assert state.breakdown(0)["rows"] == -3 + -4  # G5 *5: two cards; Y5: one
    play(state, "-B0", "draw")
    assert {"G4", "G6"} <= set(legal(state))
    play(state, "G4", "draw", "-B1", "draw")
    assert state.dirs[0][G] == DESCENDING
    refused(state, "G6", "C-9")


def test_C11_no_point_card_on_a_closed_row() -> None:
    state = new(hands=["*5 Y1 Y2 R1 R2 P1 P2 P3"], rows=[{"G": "G5 GX"}, {}])
    assert "*5>G" not in legal(state)
    refused(state, "*5>G", "C-10")


def test_C12_one_draw_from_the_deck_or_a_discard_pile_never_the_card_just_discarded() -> None:
    state = new(hands=["G5 Y1 Y2 R1 R2 P1 P2 P3"], discards={"G": "G9", "R": "R3"}, deck="B5 B6")
    play(state, "-G5")
    assert legal(state) == ["draw", "draw R"]
    error = refused(state, "draw G", "C-12")
    assert "discarded this turn" in str(error)
    refused(state, "G9", "C-12")
    play(state, "draw R")
    assert card("R3") in state.hands[0]
    assert state.view(1).known_cards[0] == (card("R3"),)
    assert state.current_player == 1
    play(state, "-B0", "draw G")  # the next player may take it
    assert state.hands[1].count(card("G5")) == 1


def test_C12_a_claim_refills_two_cards_and_blocks_both_piles() -> None:
    state = new(
        hands=["G5 Y5 R1 R2 R3 P1 P2 P3"],
        discards={"G": "G9", "Y": "Y9", "R": "R8 R9"},
        deck="B5 B6",
    )
    play(state, "wish G5 Y5")
    assert state.view(0).blocked_piles == (G, Y)
    assert legal(state) == ["draw", "draw R"]
    refused(state, "draw G", "C-12")
    refused(state, "draw Y", "C-12")
    play(state, "draw R")
    assert state.phase_name == "draw"
    assert state.view(0).draws_left == 1
    assert legal(state) == ["draw", "draw R"]  # R8 was not discarded this turn
    play(state, "draw R")
    assert state.current_player == 1
    assert len(state.hands[0]) == 8
    assert sorted(state.known[0]) == cards("R8 R9")


def test_C12_draw_actions_only_in_the_draw_phase() -> None:
    state = new(hands=["G5 Y5 R1 R2 R3 P1 P2 P3"], discards={"R": "R9"})
    refused(state, "draw", "C-12")
    refused(state, "draw R", "C-12")
    refused(state, "pass", "C-15")
    refused(state, "big", "C-7")
    refused(state, ">G", "C-7")
    play(state, "-G5")
    refused(state, "-Y5", "C-12")
    refused(state, "R1", "C-12")
    refused(state, "draw P", "C-12")  # empty pile


# -- end of the game ------------------------------------------------------------------------

CLOSING_POSITION = {
    "hands": ["PX GX G2 G3 Y2 Y3 R2 R3", "B5 B6 B7 Y8 Y9 R8 R9 P8"],
    "rows": [{"G": "G1 GX", "Y": "Y1 YX", "R": "R1 RX", "P": "P1"}, {"B": "B2 BX"}],
}


def test_C13_the_fifth_closed_row_ends_the_game_without_refill() -> None:
    state = new(**CLOSING_POSITION)  # type: ignore[arg-type]
    assert state.closed_rows == 4
    play(state, "GX")  # the second closing card of a closed row: still 4
    assert state.closed_rows == 4
    assert state.phase_name == "draw"
    play(state, "draw", "-B5", "draw")
    play(state, "PX")
    assert state.closed_rows == 5
    assert state.over
    assert state.end_reason is EndReason.CLOSED
    assert state.ender == 0
    assert len(state.hands[0]) == 7  # C-13: no refill
    assert state.turn == 3
    view = state.view(None)
    assert view.ender == 0
    assert view.outcome is not None
    assert view.outcome.end_reason is EndReason.CLOSED
    refused(state, "draw", "C-13")


def test_C13_a_set_up_with_five_closed_rows_is_refused() -> None:
    with pytest.raises(SetupError, match="C-13"):
        new(
            hands=["G2 G3 Y2 Y3 R2 R3 P2 P3", "B5 B6 B7 Y8 Y9 R8 R9 P8"],
            rows=[{"G": "G1 GX", "Y": "Y1 YX", "R": "R1 RX", "P": "P1 PX"}, {"B": "B2 BX"}],
        )


def test_C14_drawing_the_last_card_ends_the_game() -> None:
    state = new(hands=["G5 Y5 R1 R2 R3 P1 P2 P3"], deck="B5")
    assert len(state.removed) == 101 - 16 - 1
    play(state, "-R1", "draw")
    assert state.over
    assert state.end_reason is EndReason.DECK
    assert state.ender == 0
    assert len(state.hands[0]) == 8
    refused(state, "-G5", "C-14")


def test_C14_the_deck_running_out_during_a_two_card_refill() -> None:
    state = new(hands=["G5 Y5 R1 R2 R3 P1 P2 P3"], deck="B5")
    play(state, "wish G5 Y5", "draw")
    assert state.over
    assert state.end_reason is EndReason.DECK
    assert len(state.hands[0]) == 7  # the second refill draw is not made
    assert state.view(0).draws_left == 0


def test_C14_a_pile_draw_then_the_last_card() -> None:
    state = new(hands=["G5 Y5 R1 R2 R3 P1 P2 P3"], deck="B5", discards={"R": "R9"})
    play(state, "wish G5 Y5", "draw R")
    assert not state.over
    play(state, "draw")
    assert state.over
    assert len(state.hands[0]) == 8


# C-15: seat 1 ends the game (C-13) with BX; seat 2 cannot lay and is skipped, seat 0 lays
# two cards, seat 1 (the ender) lays one and passes.
FINAL_POSITION = {
    "hands": [
        "G5 G6 G7 Y3 *4 R3 P3 B3",
        "BX *1 *2 G0 Y2 R2 P2 G10",
        "G9 Y9 R9 P9 B9 *3 Y8 R8",
    ],
    "rows": [
        {"G": "G3 G4"},
        {"Y": "Y1 YX", "R": "R1 RX", "P": "P1 PX", "B": "B2"},
        {"G": "G8 GX"},
    ],
    "point_rows": ["", "*0", ""],
    "first_player": 1,
}


def test_C15_last_cards_from_the_next_seat_round_to_the_ender() -> None:
    state = new(3, **FINAL_POSITION)  # type: ignore[arg-type]
    play(state, "BX")
    assert not state.over
    assert state.phase_name == "final"
    assert state.ender == 1
    assert state.current_player == 0  # seat 2 has nothing to lay: skipped
    assert len(state.hands[1]) == 7
    view = state.view(0)
    assert view.final_lays_left == 2
    assert view.phase == "final"
    assert legal(state) == ["G5", "G6", "G7", "*4>G", "pass"]
    play(state, "G5")
    assert state.current_player == 0
    assert state.view(0).final_lays_left == 1
    play(state, "G6")  # two cards: the seat is done
    assert state.current_player == 1
    assert legal(state) == ["*1", "*2", "pass"]
    play(state, "*1")
    assert state.current_player == 1
    play(state, "pass")
    assert state.over
    assert state.end_reason is EndReason.CLOSED
    assert state.rows[0][G] == cards("G3 G4 G5 G6")
    assert state.point_rows[1] == cards("*0 *1")
    assert state.current_player == -1


def test_C15_only_lays_onto_existing_rows() -> None:
    state = new(3, **FINAL_POSITION)  # type: ignore[arg-type]
    play(state, "BX")
    refused(state, "Y3", "C-15")  # no yellow row
    refused(state, "*4", "C-15")  # no point row yet
    refused(state, "-G5", "C-15")
    refused(state, "draw", "C-15")
    refused(state, Action.claim(card("G5"), card("G5")), "C-15")
    refused(state, "G10", "C-9")  # not in hand: the normal laying rules apply


def test_C15_after_a_deck_ending_the_drawer_lays_last() -> None:
    state = new(
        hands=["G5 G6 Y1 Y2 R1 R2 P1 P2", "B5 B6 B7 Y8 Y9 R8 R9 P8"],
        rows=[{"G": "G3"}, {"B": "B4"}],
        deck="B9",
    )
    play(state, "-P1", "draw")
    assert state.phase_name == "final"
    assert state.ender == 0
    assert state.current_player == 1
    assert legal(state) == ["B5", "B6", "B7", "pass"]
    play(state, "B5", "B7")
    assert state.rows[1][B] == cards("B4 B5 B7")
    assert state.current_player == 0
    play(state, "G5")
    assert legal(state) == ["G6", "pass"]
    play(state, "pass")
    assert state.over
    assert state.end_reason is EndReason.DECK


def test_C15_a_seat_that_can_lay_nothing_more_is_done() -> None:
    state = new(
        hands=["G5 Y1 Y2 R1 R2 P1 P2 P3", "B5 B6 B7 Y8 Y9 R8 R9 P8"],
        rows=[{"G": "G3"}, {}],
        deck="B9",
    )
    play(state, "-P1", "draw")
    assert state.current_player == 0  # seat 1 has no row: skipped
    assert legal(state) == ["G5", "pass"]
    play(state, "G5")
    assert state.over


# -- scoring --------------------------------------------------------------------------------

ROW = "G0 G1 G2 G3 G3 G4 G4 G5 G5 G6"


@pytest.mark.parametrize(
    ("length", "points"),
    [(1, -4), (2, -3), (3, -2), (4, 1), (5, 2), (6, 3), (7, 6), (8, 7), (9, 10), (10, 10)],
)
def test_C16_rows_score_by_their_number_of_cards(length: int, points: int) -> None:
    row = " ".join(ROW.split()[:length])
    state = new(hands=["Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8"], rows=[{"G": row}, {}])
    assert state.breakdown(0)["rows"] == points
    assert state.breakdown(1)["rows"] == 0  # colours never started score 0


def test_C16_point_and_closing_cards_count_as_cards_of_the_row() -> None:
    state = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], rows=[{"Y": "Y5 *5 Y6 YX YX"}, {}])
    assert state.breakdown(0)["rows"] == 2  # five cards


def test_C17_each_card_in_the_point_row_scores_one() -> None:
    state = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], point_rows=["*0 *3 *10", ""])
    assert state.breakdown(0)["point_row"] == 3
    assert state.breakdown(1)["point_row"] == 0


@pytest.mark.parametrize(
    ("stones", "points"),
    [([], -4), ([1], -1), ([1, 2], 0), ([1, 2, 3], 4), ([1, 2, 3, 4], 6), ([1, 2, 3, 4, 5], 10)],
)
def test_C18_wish_stone_cards(stones: list[int], points: int) -> None:
    state = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], wish_stones=[stones, [9]])
    assert state.breakdown(0)["wishes"] == points
    assert state.breakdown(0)["wish_count"] == len(stones)
    assert state.breakdown(1)["wishes"] == -1


def test_C18_more_than_five_stones_score_ten() -> None:
    state = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], wish_stones=[list(range(1, 10)), []])
    assert state.breakdown(0)["wishes"] == 10
    assert state.view(None).wish_row == ()


def test_C19_highest_total_wins_ties_share() -> None:
    state = new(
        3,
        hands=["G1 G2 G3 G4 G5 G6 G7 G8"],
        rows=[{"Y": "Y1 Y2 Y3 Y4"}, {}, {"R": "R1 R2 R3 R4"}],
        point_rows=["*1", "", "*2"],
        wish_stones=[[1], [2], [3]],
    )
    outcome = state.outcome()
    assert outcome.scores == (1 + 1 - 1, -1, 1 + 1 - 1)
    assert outcome.winners == (0, 2)
    assert sum(v for k, v in outcome.breakdown[0].items() if not k.endswith("_count")) == 1


# -- the turn cap (simulations) -------------------------------------------------------------


def test_turn_cap_ends_the_game_as_truncated() -> None:
    state = new(hands=["G5 Y5 R1 R2 R3 P1 P2 P3"], variant={"turn_cap": 2})
    play(state, "-G5", "draw")
    assert not state.over
    play(state, "-B0", "draw")
    assert state.over
    assert state.end_reason is EndReason.TRUNCATED
    assert state.outcome().truncated
    assert state.ender == -1
