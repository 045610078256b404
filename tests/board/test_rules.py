# ruff: noqa: N802  (test names carry the rule id: test_B13_…)
"""One test (or a few) per rule of the board game, RULES.md B-1 … B-24.

Every position is an explicit set-up (see ``helpers.new``): hands, draw pile and tiles are
named, so nothing depends on the shuffle. Tiles default to none; the default layout's dark
stones are green 2,4,6,8 · yellow 1,3,5,7 · red 2,3,5,8 · pink 1,4,6,7 · blue 3,4,6,8, plus
row 9 of every path.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from keltis.board import DEFAULT_LAYOUT, BoardState, Layout
from keltis.board.layout import ALL_TILES, CLOVER, NO_TILE, WISH
from keltis.board.state import FULL_DECK
from keltis.core.actions import ALL_ACTIONS, Action, ActionKind
from keltis.core.card_codes import NUMBER_CARDS, parse_card
from keltis.core.errors import RecordError, SetupError
from keltis.core.protocol import EndReason
from keltis.core.scoring import ASCENDING, DESCENDING, UNDECIDED
from keltis.core.setup import DEFAULT_TURN_CAP
from keltis.record import GameRecord, PlayerInfo

from .helpers import GAME, discard_any, legal, new, play, refused

G, Y, R, P, B = range(5)


def card(text: str) -> int:
    return parse_card(text)


# -- components ----------------------------------------------------------------------------


def test_B1_110_cards_five_colours_values_0_to_10_twice() -> None:
    assert len(FULL_DECK) == 110
    assert Counter(FULL_DECK) == Counter({c * 11 + v: 2 for c in range(5) for v in range(11)})
    for players in (2, 3, 4):
        state = GAME.new_game(players, seed=players)
        everywhere = [c for hand in state.hands for c in hand] + state.deck + state.removed
        assert Counter(everywhere) == Counter(FULL_DECK)


def test_B1_a_third_copy_of_a_card_is_refused() -> None:
    with pytest.raises(SetupError, match=r"B-1.*G1 x3"):
        new(hands=["G1 G1 G1 G2 G3 G4 G5 G6"])


def test_B1_card_game_cards_are_not_board_game_cards() -> None:
    state = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"])
    for move in ("GX", "-GX", "*3", "-*3", "*3>G"):
        refused(state, move, "B-1")
    with pytest.raises(SetupError, match="not a board-game card"):
        new(hands=["GX G2 G3 G4 G5 G6 G7 G8"])


@pytest.mark.parametrize(
    ("row", "value"), [(1, -4), (2, -3), (3, -2), (4, 1), (5, 2), (6, 3), (7, 6), (8, 7), (9, 10)]
)
def test_B2_row_values_of_the_nine_stones(row: int, value: int) -> None:
    state = new(
        hands=["G1 G2 G3 G4 G5 G6 G7 G8"], rows=[{"Y": ["Y5"]}, {}], positions=[{"Y": row}, {}]
    )
    assert state.breakdown(0)["figures"] == value
    assert state.goal == (1 if row >= 7 else 0)  # rows 7-9 are the goal area


def test_B2_a_path_has_nine_stones_after_the_start() -> None:
    state = new(
        hands=["G0 G1 G2 G3 G4 G5 G6 G7"],
        deck="G8 Y0 G9 Y1 G10 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 R0 R1 R2 R3 R4 R5 R6 R7 R8 R9",
    )
    for value in range(11):
        play(state, f"G{value}")
        if value == 0:
            assert state.phase_name == "figure"
            play(state, "small")
        assert state.pos[0][G] == min(value + 1, 9)
        assert state.phase_name == "draw"  # beyond row 9 nothing moves and nothing is asked
        play(state, "draw")
        discard_any(state)
    assert len(state.rows[0][G]) == 11
    assert state.goal == 1  # counted once, when it entered row 7


def test_B3_twenty_five_path_tiles() -> None:
    expected = Counter({WISH: 9, CLOVER: 9, 1: 2, 2: 3, 3: 2})
    assert Counter(ALL_TILES) == expected
    for seed in range(10):
        state = GAME.new_game(3, seed=seed)
        assert Counter(t for path in state.tiles for t in path if t != NO_TILE) == expected


@pytest.mark.parametrize(
    ("tiles", "wishes"),
    [
        ({"G": ".C.C.C.CC", "Y": "C.C.C.C.C"}, None),  # 10 clovers
        ({"G": ".3.3.3..."}, None),  # three 3-point tiles
        ({"G": ".W.W.W.WW", "Y": "W.W.W...."}, [2, 0]),  # 8 wish stones + 2 taken
    ],
)
def test_B3_a_set_up_cannot_invent_tiles(tiles: dict[str, str], wishes: list[int] | None) -> None:
    extra = {"wishes": wishes} if wishes else {}
    with pytest.raises(SetupError, match=r"only \d exist \(B-3\)"):
        new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], tiles=tiles, **extra)


def test_B4_tiles_lie_on_the_20_dark_stones_and_the_5_end_stones() -> None:
    places = DEFAULT_LAYOUT.places()
    assert len(places) == 25
    assert sorted(r for _, r in places).count(9) == 5
    dark = {c: [r for colour, r in places if colour == c and r < 9] for c in range(5)}
    assert dark == {
        G: [2, 4, 6, 8],
        Y: [1, 3, 5, 7],
        R: [2, 3, 5, 8],
        P: [1, 4, 6, 7],
        B: [3, 4, 6, 8],
    }
    for seed in range(5):
        state = GAME.new_game(2, seed=seed)
        occupied = {(c, r) for c in range(5) for r in range(10) if state.tiles[c][r] != NO_TILE}
        assert occupied == set(places)
    with pytest.raises(SetupError, match=r"green row 5, which is not a dark stone.*B-4"):
        new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], tiles={"G": "....C...."})


def test_B4_another_layout_can_be_loaded(tmp_path: Path) -> None:
    dark = {
        "G": [1, 2, 3, 4],
        "Y": [1, 2, 3, 4],
        "R": [5, 6, 7, 8],
        "P": [5, 6, 7, 8],
        "B": [1, 3, 5, 7],
    }
    path = tmp_path / "board.json"
    path.write_text(json.dumps({"name": "test board", "dark": dark}), encoding="utf-8")
    layout = Layout.load(path)
    state = GAME.new_game(3, seed=1, layout=layout.to_json())
    occupied = {(c, r) for c in range(5) for r in range(10) if state.tiles[c][r] != NO_TILE}
    assert occupied == set(layout.places())
    assert state.view(0).to_json()["layout"] == {"name": "test board", "dark": dark}
    # on this board green row 1 is dark: a tile may lie there
    new(hands=["G5 G6 G7 G8 G9 G10 Y9 Y10"], tiles={"G": "C........"}, layout=layout.to_json())


_DARK = {
    "G": [2, 4, 6, 8],
    "Y": [1, 3, 5, 7],
    "R": [2, 3, 5, 8],
    "P": [1, 4, 6, 7],
    "B": [3, 4, 6, 8],
}


@pytest.mark.parametrize(
    ("green", "message"),
    [
        ([2, 4, 6], "exactly 20"),
        ([2, 4, 6, 9], "row 9 is not 1-8"),
        ([0, 4, 6, 8], "row 0 is not 1-8"),
        ([2, 2, 6, 8], "lists a row twice"),
        (None, "path G must be a list"),
    ],
)
def test_B4_a_layout_needs_20_dark_stones_on_rows_1_to_8(
    green: list[int] | None, message: str
) -> None:
    dark: dict[str, list[int] | None] = {**_DARK, "G": green}
    with pytest.raises(SetupError, match=message):
        Layout.from_json({"name": "bad", "dark": dark})


def test_B5_five_figures_on_the_start_stone_and_a_score_of_0() -> None:
    state = GAME.new_game(4, seed=5)
    for p in range(4):
        assert state.pos[p] == [0] * 5
        assert state.big[p] == -1
        assert state.points[p] == 0
        parts = state.breakdown(p)
        assert (parts["figures"], parts["tiles"]) == (0, 0)
    seat = state.view(1).to_json()["players"][3]
    assert seat["positions"] == dict.fromkeys("GYRPB", 0)
    assert (seat["big"], seat["tile_points"]) == (None, 0)


# -- set-up ----------------------------------------------------------------------------------


def test_B6_tiles_are_shuffled_face_up_onto_the_board() -> None:
    def tiles(seed: int) -> list[list[int]]:
        return GAME.new_game(2, seed=seed).tiles

    assert tiles(1) == tiles(1)
    assert len({str(tiles(seed)) for seed in range(10)}) == 10
    state = GAME.new_game(2, seed=1)
    for viewer in (0, 1, None):
        assert state.view(viewer).tiles == tuple(tuple(path) for path in state.tiles)
    # an explicit set-up without tiles shuffles them onto the layout with its fill_seed
    shuffled = GAME.new_game(
        2,
        setup={
            "hands": [
                ["G1"] * 2 + ["G2"] * 2 + ["G3"] * 2 + ["G4"] * 2,
                ["Y1"] * 2 + ["Y2"] * 2 + ["Y3"] * 2 + ["Y4"] * 2,
            ]
        },
    )
    assert Counter(t for path in shuffled.tiles for t in path if t != NO_TILE) == Counter(ALL_TILES)


@pytest.mark.parametrize("players", [3, 4])
def test_B7_eight_cards_each_the_rest_is_the_draw_pile(players: int) -> None:
    state = GAME.new_game(players, seed=11)
    assert [len(h) for h in state.hands] == [8] * players
    assert len(state.deck) == 110 - 8 * players
    assert state.removed == []
    view = state.view(0)
    assert (view.deck_size, view.hand_sizes) == (110 - 8 * players, (8,) * players)


def test_B8_two_players_set_30_cards_aside_unseen() -> None:
    state = GAME.new_game(2, seed=11)
    assert (len(state.removed), len(state.deck)) == (30, 64)
    for viewer in (0, 1, None):
        view = state.view(viewer).to_json()
        assert view["removed_count"] == 30
        assert "removed" not in view
    explicit = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"])
    assert (len(explicit.removed), len(explicit.deck)) == (30, 64)
    three = new(3, hands=["G1 G2 G3 G4 G5 G6 G7 G8"])
    assert (len(three.removed), len(three.deck)) == (0, 86)


def test_B9_seat_0_starts_and_play_goes_in_seat_order() -> None:
    state = new(3, hands=["G1 G2 G3 G4 G5 G6 G7 G8"])
    seats = []
    for _ in range(4):
        seats.append(state.current_player)
        discard_any(state)
    assert seats == [0, 1, 2, 0]


def test_B9_a_set_up_may_name_the_start_player() -> None:
    state = new(4, hands=["G1 G2 G3 G4 G5 G6 G7 G8"], first_player=2)
    seats = []
    for _ in range(5):
        seats.append(state.current_player)
        discard_any(state)
    assert seats == [2, 3, 0, 1, 2]


# -- a turn ----------------------------------------------------------------------------------


def test_B10_play_one_card_lay_it_or_discard_it() -> None:
    state = new(hands=["G1 G2 G3 G4 Y5 Y5 R6 P7"])
    assert legal(state) == [
        "G1", "G2", "G3", "G4", "Y5", "R6", "P7",
        "-G1", "-G2", "-G3", "-G4", "-Y5", "-R6", "-P7",
    ]  # fmt: skip
    discarded = play(state.clone(), "-Y5")
    assert discarded.piles[Y] == [card("Y5")]
    assert discarded.hands[0].count(card("Y5")) == 1
    assert discarded.rows[0] == [[], [], [], [], []]
    assert discarded.phase_name == "draw"
    laid = play(state.clone(), "R6", "small")
    assert laid.rows[0][R] == [card("R6")]
    assert laid.piles == [[], [], [], [], []]
    assert len(laid.hands[0]) == 7
    assert laid.phase_name == "draw"
    for move in ("R5", "-R5", "draw", "draw G", ">G", "big", "small", "pass", "wish G1 Y1"):
        refused(state, move, "B-10")


def test_B11_first_card_any_value_and_the_figure_is_your_choice() -> None:
    state = new(hands=["G10 Y0 R5 P3 P4 G9 Y1 R4"], tiles={"Y": "W........"})
    play(state, "G10")
    assert state.phase_name == "figure"
    assert legal(state) == ["big", "small"]
    assert state.current_player == 0
    for move in (">G", "draw", "G9", "pass", "-G9"):
        refused(state, move, "B-11")
    play(state, "big", "draw")
    assert (state.big[0], state.pos[0][G]) == (G, 1)
    discard_any(state)
    play(state, "Y0")  # the big figure is out: a small one enters, nothing to ask
    assert state.phase_name == "draw"
    assert state.pos[0][Y] == 1
    assert state.wishes[0] == 1  # entering row 1 resolves its tile
    assert state.history[-1] == Action.parse("Y0")


def test_B11_only_the_big_figure_left_enters_without_a_question() -> None:
    state = new(
        hands=["B5 B6 G2 Y2 R2 P2 G3 Y3", "P8 P8 P9 P9 R9 R9 Y9 Y9"],
        rows=[{"G": ["G1"], "Y": ["Y1"], "R": ["R1"], "P": ["P1"]}, {}],
    )
    play(state, "B5")
    assert state.phase_name == "draw"
    assert (state.big[0], state.pos[0][B]) == (B, 1)


def test_B12_later_cards_move_the_figure_one_stone() -> None:
    state = new(hands=["R4 R7 R9 G1 G2 G3 G4 G5"], rows=[{"R": ["R2", "R4"]}, {}])
    assert state.pos[0][R] == 2
    play(state, "R4", "draw")
    assert state.pos[0][R] == 3
    discard_any(state)
    play(state, "R7")
    assert state.pos[0][R] == 4
    assert state.rows[0][R] == [card(c) for c in ("R2", "R4", "R4", "R7")]


def test_B13_ascending_3_3_6_7_7_direction_fixed_by_first_different_value() -> None:
    state = new(hands=["G2 G3 G3 G6 G7 G7 Y1 Y2"], deck="P0 P1 P2 P3 P4 P5 P6 P7 P8 P9 P10 R0")
    play(state, "G3", "small", "draw")
    discard_any(state)
    play(state, "G3")
    assert state.direction(0, G) == UNDECIDED  # equal values keep the row open
    play(state, "draw")
    discard_any(state)
    assert state.is_legal(Action.parse("G2"))  # 3, 3 then 2 would still be allowed
    play(state, "G6", "draw")
    assert state.direction(0, G) == ASCENDING
    discard_any(state)
    error = refused(state, "G2", "B-13")
    assert "green row is ascending: 2 is lower than 6" in str(error)
    play(state, "G7", "draw")
    discard_any(state)
    play(state, "G7", "draw")
    assert [c % 11 for c in state.rows[0][G]] == [3, 3, 6, 7, 7]
    assert state.pos[0][G] == 5


def test_B13_descending_9_8_8_5_3() -> None:
    state = new(hands=["Y9 Y8 Y8 Y5 Y3 Y10 G0 G1"], deck="P0 P1 P2 P3 P4 P5 P6 P7 P8 P9 P10 R0")
    play(state, "Y9", "small", "draw")
    discard_any(state)
    play(state, "Y8", "draw")
    assert state.direction(0, Y) == DESCENDING
    discard_any(state)
    error = refused(state, "Y10", "B-13")
    assert "yellow row is descending: 10 is higher than 8" in str(error)
    for value in (8, 5, 3):
        play(state, f"Y{value}", "draw")
        discard_any(state)
    assert [c % 11 for c in state.rows[0][Y]] == [9, 8, 8, 5, 3]


def test_B13_a_set_up_row_takes_its_direction_and_is_checked() -> None:
    state = new(hands=["R3 R8 G1 G2 G3 G4 G5 G6"], rows=[{"R": ["R5", "R5"]}, {}])
    assert state.direction(0, R) == UNDECIDED
    assert state.is_legal(Action.parse("R3"))
    assert state.is_legal(Action.parse("R8"))
    state = new(hands=["R3 R8 G1 G2 G3 G4 G5 G6"], rows=[{"R": ["R5", "R5", "R4"]}, {}])
    assert state.direction(0, R) == DESCENDING
    refused(state, "R8", "B-13")
    with pytest.raises(SetupError, match="B-13"):
        new(hands=["R3 R8 G1 G2 G3 G4 G5 G6"], rows=[{"R": ["R5", "R6", "R4"]}, {}])


def _overflow_position() -> BoardState:
    return new(
        hands=["G9 G10 G10 Y7 Y8 P1 P2 P3"],
        rows=[
            {
                "G": ["G0", "G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8"],
                "Y": ["Y5", "Y6"],
                "R": ["R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8"],
            },
            {},
        ],
        tiles={"Y": "..2......"},
    )


def test_B14_a_card_for_a_figure_on_the_end_stone_may_move_another_figure() -> None:
    state = _overflow_position()
    assert (state.pos[0][G], state.pos[0][Y], state.pos[0][R]) == (9, 2, 9)
    play(state, "G9")
    assert state.phase_name == "overflow"
    assert legal(state) == [">Y", "pass"]  # not the figures on end stones or the start stone
    for move in (">G", ">R", ">P", "draw", "G10", "big"):
        refused(state, move, "B-14")
    assert "end stone" in str(refused(state, ">R", "B-14"))
    play(state, ">Y")
    assert (state.pos[0][G], state.pos[0][Y]) == (9, 3)
    assert state.points[0] == 2  # the overflow move resolves the tile it reaches
    assert len(state.rows[0][G]) == 10
    assert state.phase_name == "draw"


def test_B14_the_overflow_move_is_optional() -> None:
    state = play(_overflow_position(), "G9", "pass")
    assert state.pos[0] == [9, 2, 9, 0, 0]
    assert len(state.rows[0][G]) == 10
    assert state.phase_name == "draw"


def test_B14_no_question_when_no_other_figure_could_move() -> None:
    state = new(
        hands=["G9 G10 G10 Y7 Y8 P1 P2 P3"],
        rows=[{"G": ["G0", "G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8"]}, {}],
    )
    play(state, "G9")
    assert state.phase_name == "draw"
    assert [str(a) for a in state.history] == ["G9"]


def test_B15_draw_the_top_of_the_draw_pile_or_of_a_discard_pile() -> None:
    state = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], deck="R5 R6 R7", discards={"Y": ["Y1", "Y9"]})
    play(state, "-G1")
    assert legal(state) == ["draw", "draw Y"]  # not the G1 just discarded (see below)
    for move in ("draw R", "draw *", "G2", "-G2", "big", ">G", "pass"):
        refused(state, move, "B-15")
    from_deck = play(state.clone(), "draw")
    assert card("R5") in from_deck.hands[0]
    assert from_deck.deck[-1] == card("R6")
    assert from_deck.known[0] == []  # nobody saw it
    from_pile = play(state.clone(), "draw Y")
    assert card("Y9") in from_pile.hands[0]
    assert from_pile.piles[Y] == [card("Y1")]
    assert from_pile.known[0] == [card("Y9")]  # everybody saw it taken
    assert from_pile.current_player == 1


def test_B15_drawing_back_the_card_just_discarded_is_refused_by_default() -> None:
    state = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], discards={"Y": ["Y9"]})
    assert state.variant.no_take_back is True
    play(state, "-G1")
    assert legal(state) == ["draw", "draw Y"]
    error = refused(state, "draw G", "B-15")
    assert error.key == "no_take_back"
    assert error.params == {"card": "G1"}
    assert str(error) == "B-15: you may not draw back the G1 you discarded this turn"
    play(state, "draw Y")
    assert "draw G" in legal(play(state, "-B0"))  # the next player may take it


def test_B15_stating_the_default_changes_nothing() -> None:
    stated = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], variant={"no_take_back": True})
    assert stated.variant == new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"]).variant
    play(stated, "-G1")
    refused(stated, "draw G", "B-15")


def test_B15_variant_take_back_allows_drawing_back_the_card_just_discarded() -> None:
    state = new(
        hands=["G1 G2 G3 G4 G5 G6 G7 G8"],
        discards={"Y": ["Y9"]},
        variant={"no_take_back": False},
    )
    play(state, "-G1")
    assert legal(state) == ["draw", "draw G", "draw Y"]
    play(state, "draw G")
    assert card("G1") in state.hands[0]
    assert state.piles[G] == []
    assert state.known[0] == [card("G1")]  # everybody saw it taken back
    assert state.current_player == 1


def test_B15_a_record_saying_no_take_back_false_replays_its_take_back() -> None:
    record = GameRecord.start(
        "board",
        [PlayerInfo("A", "human"), PlayerInfo("B", "human")],
        seed=3,
        variant=json.loads('{"no_take_back": false}'),
    )
    start = record.new_state()
    first = start.hands[0][0]
    record.actions += [str(Action.discard(first)), str(Action.draw(first // 11))]
    loaded, _ = GameRecord.loads(record.dumps())
    assert loaded.variant["no_take_back"] is False
    state = loaded.replay()
    assert isinstance(state, BoardState)
    assert state.hands[0] == start.hands[0]
    assert state.current_player == 1
    loaded.variant = {}  # under today's default the same moves are refused, citing B-15
    with pytest.raises(RecordError, match="B-15"):
        loaded.replay()


# -- tiles -----------------------------------------------------------------------------------


def test_B16_point_tile_scores_not_doubled_stays_and_scores_again() -> None:
    state = new(
        hands=["Y4 G1 G2 G3 G4 G5 G6 G7", "Y3 R1 R2 R3 R4 R5 R6 R7"],
        rows=[{"Y": ["Y2", "Y3"]}, {"Y": ["Y5", "Y4"]}],
        big=["Y", None],
        tiles={"Y": "..3......"},
    )
    play(state, "Y4")
    assert state.points[0] == 3  # the big figure does not double tile points
    assert state.tiles[Y][3] == 3
    play(state, "draw", "Y3")
    assert state.points[1] == 3
    assert state.tiles[Y][3] == 3


def _clover_position() -> BoardState:
    return new(
        hands=["G2 G3 G4 G5 G6 G7 G8 G9"],
        rows=[
            {
                "G": ["G1"],
                "Y": ["Y3", "Y4"],
                "R": ["R9"],
                "P": ["P0", "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"],
            },
            {},
        ],
        tiles={"G": ".C.......", "Y": "..C......", "R": ".3......."},
    )


def test_B17_clovers_chain_onto_other_tiles() -> None:
    state = _clover_position()
    play(state, "G2")
    assert state.phase_name == "clover"
    assert legal(state) == [">G", ">Y", ">R", "pass"]
    for move in (">P", ">B", "draw", "G3", "small"):
        refused(state, move, "B-17")
    play(state, ">Y")  # onto yellow row 3: another clover
    assert state.phase_name == "clover"
    play(state, ">R")  # onto red row 2: 3 points
    assert state.pos[0] == [2, 3, 2, 9, 0]
    assert state.points[0] == 3
    assert state.phase_name == "draw"
    assert state.tiles[G][2] == state.tiles[Y][3] == CLOVER  # clovers stay


def test_B17_the_clover_may_move_the_same_figure_again_or_be_declined() -> None:
    again = play(_clover_position(), "G2", ">G")
    assert again.pos[0][G] == 3
    assert again.phase_name == "draw"
    declined = play(_clover_position(), "G2", "pass")
    assert declined.pos[0] == [2, 2, 1, 9, 0]
    assert declined.phase_name == "draw"


def test_B17_no_question_when_no_figure_could_use_the_clover() -> None:
    state = new(
        hands=["G8 G9 G10 Y7 Y8 P1 P2 P3"],
        rows=[{"G": ["G0", "G1", "G2", "G3", "G4", "G5", "G6", "G7"]}, {}],
        tiles={"G": "........C"},
    )
    play(state, "G8")
    assert state.pos[0][G] == 9
    assert state.phase_name == "draw"


def test_B18_wish_stone_is_taken_off_the_board() -> None:
    state = new(
        hands=["Y0 G1 G2 G3 G4 G5 G6 G7", "Y0 R1 R2 R3 R4 R5 R6 R7"], tiles={"Y": "W........"}
    )
    play(state, "Y0", "big")
    assert state.wishes[0] == 1
    assert state.tiles[Y][1] == NO_TILE
    assert state.view(1).to_json()["tiles"]["Y"] == "........."
    play(state, "draw", "Y0", "small")
    assert state.wishes[1] == 0


# -- end of the game -------------------------------------------------------------------------


def test_B19_fifth_figure_in_the_goal_area_ends_the_game_at_once() -> None:
    state = new(
        hands=["P2 G2 G3 G4 G5 G6 G7 G8", "R2 R3 R4 R5 R6 R7 R8 R9"],
        rows=[{"G": ["G1"], "Y": ["Y1"], "P": ["P1"]}, {"R": ["R1"], "B": ["B1"]}],
        positions=[{"G": 7, "Y": 8, "P": 6}, {"R": 7, "B": 9}],
        tiles={"P": "......W.."},
    )
    assert state.goal == 4
    play(state, "P2")
    assert state.over
    assert state.end_reason is EndReason.GOAL
    assert state.goal == 5
    assert state.tiles[P][7] == WISH  # not resolved
    assert state.wishes[0] == 0
    assert len(state.hands[0]) == 7  # no draw
    assert (state.current_player, state.phase_name, state.legal_actions()) == (-1, "over", [])
    assert state.outcome().end_reason is EndReason.GOAL
    for move in ("draw", "G2", "-G2", "pass"):
        refused(state, move, "B-19")


def test_B19_the_fourth_figure_does_not_end_the_game() -> None:
    state = new(
        hands=["P2 G2 G3 G4 G5 G6 G7 G8", "R2 R3 R4 R5 R6 R7 R8 R9"],
        rows=[{"G": ["G1"], "P": ["P1"]}, {"R": ["R1"], "B": ["B1"]}],
        positions=[{"G": 7, "P": 6}, {"R": 7, "B": 9}],
        tiles={"P": "......W.."},
    )
    play(state, "P2")
    assert (state.over, state.goal, state.wishes[0]) == (False, 4, 1)


def test_B19_a_clover_move_can_end_the_game() -> None:
    state = new(
        hands=["G2 G3 G4 G5 G6 G7 G8 G9", "R2 R3 R4 R5 R6 R7 R8 R9"],
        rows=[{"G": ["G1"], "P": ["P1"]}, {"Y": ["Y1"], "R": ["R1"], "B": ["B1"], "P": ["P2"]}],
        positions=[{"G": 1, "P": 6}, {"Y": 7, "R": 7, "B": 9, "P": 8}],
        big=[None, "P"],
        tiles={"G": ".C.......", "P": "......C.."},
    )
    play(state, "G2", ">P")
    assert (state.over, state.end_reason, state.goal) == (True, EndReason.GOAL, 5)
    assert state.pos[0][P] == 7
    assert state.phase_name == "over"  # the clover on pink row 7 is not resolved


def test_B19_an_overflow_move_can_end_the_game() -> None:
    state = new(
        hands=["G9 G10 Y2 Y3 Y4 Y5 Y6 Y7", "R2 R3 R4 R5 R6 R7 R8 R9"],
        rows=[
            {"G": ["G0", "G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8"], "P": ["P1"]},
            {"Y": ["Y1"], "R": ["R1"], "B": ["B1"]},
        ],
        positions=[{"G": 9, "P": 6}, {"Y": 7, "R": 7, "B": 9}],
        tiles={"P": "......3.."},
    )
    assert state.goal == 4
    play(state, "G9", ">P")
    assert (state.over, state.end_reason, state.points[0]) == (True, EndReason.GOAL, 0)


def test_B20_drawing_the_last_card_ends_the_game() -> None:
    state = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], deck="R5 R6")
    play(state, "-G1", "draw")
    assert not state.over
    play(state, "-B0", "draw G")  # a discard pile: the draw pile still holds R6
    assert not state.over
    play(state, "G2", "small")  # playing cards does not end it either
    assert not state.over
    play(state, "draw")
    assert (state.over, state.end_reason) == (True, EndReason.DECK)
    assert len(state.hands[0]) == 8
    assert card("R6") in state.hands[0]
    assert state.deck == []
    for move in ("G3", "-G3", "draw", "draw G"):
        refused(state, move, "B-20")


# -- scoring ---------------------------------------------------------------------------------


def test_B21_figures_score_their_row_the_big_one_double_negatives_too() -> None:
    state = new(
        hands=["G3 G4 G5 G6 G7 G8 G9 G10"],
        rows=[{"G": ["G1", "G2"], "Y": ["Y1"], "R": ["R1"]}, {"B": ["B5"]}],
        positions=[{"G": 2, "Y": 8, "R": 1}, {"B": 9}],
        big=["G", "B"],
    )
    assert state.breakdown(0)["figures"] == 2 * -3 + 7 - 4  # P and B still on the start: 0
    assert state.breakdown(1)["figures"] == 2 * 10


def test_B22_tile_points_count() -> None:
    state = new(hands=["G3 G4 G5 G6 G7 G8 G9 G10"], tile_points=[5, 2], wishes=[2, 0])
    assert [state.breakdown(p)["tiles"] for p in (0, 1)] == [5, 2]
    assert state.scores() == [5 + 2, 2 - 4]


@pytest.mark.parametrize(
    ("stones", "points"), [(0, -4), (1, -3), (2, 2), (3, 3), (4, 6), (5, 10), (6, 10), (9, 10)]
)
def test_B23_wish_stone_table(stones: int, points: int) -> None:
    state = new(hands=["G3 G4 G5 G6 G7 G8 G9 G10"], wishes=[stones, 0])
    assert state.breakdown(0)["wishes"] == points
    assert state.breakdown(0)["wish_count"] == stones
    assert state.scores()[0] == points


def test_B24_highest_total_wins_ties_share_the_victory() -> None:
    def finish(tile_points: list[int]) -> BoardState:
        state = new(
            3,
            hands=["G1 G2 G3 G4 G5 G6 G7 G8"],
            deck="R5",
            rows=[{"G": ["G0"]}, {"Y": ["Y0"]}, {}],
            positions=[{"G": 4}, {"Y": 5}, {}],  # rows worth 1 and 2
            tile_points=tile_points,
        )
        return play(state, "-G1", "draw")

    tie = finish([3, 2, 0]).outcome()
    assert tie.end_reason is EndReason.DECK
    assert tie.scores == (0, 0, -4)
    assert tie.winners == (0, 1)
    single = finish([3, 2, 5]).outcome()
    assert single.scores == (0, 0, 1)
    assert single.winners == (2,)
    assert [sum(v for k, v in b.items() if k != "wish_count") for b in single.breakdown] == [
        0,
        0,
        1,
    ]


# -- every refusal names its rule, and changes nothing -------------------------------------


def _expected_rule(state: BoardState, action: Action) -> str:
    phase = state.phase_name
    if phase == "play":
        if action.kind in (ActionKind.LAY, ActionKind.DISCARD):
            if not 0 <= action.card < NUMBER_CARDS or action.target >= 0:
                return "B-1"
            if action.card not in state.hands[state.current_player]:
                return "B-10"
            return "B-13"
        return "B-10"
    if phase == "over":
        return "B-20" if state.end_reason is EndReason.DECK else "B-19"
    return {"draw": "B-15", "figure": "B-11", "clover": "B-17", "overflow": "B-14"}[phase]


def _positions() -> dict[str, BoardState]:
    ascending = new(
        hands=["G2 G3 G7 Y1 Y9 R5 P5 B10"], rows=[{"G": ["G3", "G5"], "Y": ["Y8", "Y6"]}, {}]
    )
    goal = new(
        hands=["P2 G2 G3 G4 G5 G6 G7 G8", "R2 R3 R4 R5 R6 R7 R8 R9"],
        rows=[{"G": ["G1"], "Y": ["Y1"], "P": ["P1"]}, {"R": ["R1"], "B": ["B1"]}],
        positions=[{"G": 7, "Y": 8, "P": 6}, {"R": 7, "B": 9}],
    )
    deck_end = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], deck="R5")
    return {
        "play": ascending,
        "draw": play(ascending.clone(), "-Y1"),
        "draw, no take-back": play(new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"]), "-G1"),
        "draw, take-back allowed": play(
            new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], variant={"no_take_back": False}), "-G1"
        ),
        "figure": play(new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"]), "G1"),
        "clover": play(_clover_position(), "G2"),
        "overflow": play(_overflow_position(), "G9"),
        "over, goal": play(goal, "P2"),
        "over, deck": play(deck_end, "-G1", "draw"),
        "over, truncated": play(
            new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"], variant={"turn_cap": 1}), "-G1", "draw"
        ),
    }


@pytest.mark.parametrize("name", list(_positions()))
def test_every_action_outside_the_legal_list_is_refused_naming_its_rule(name: str) -> None:
    state = _positions()[name]
    allowed = state.legal_actions()
    assert len(set(allowed)) == len(allowed)
    for action in ALL_ACTIONS:
        if action in allowed:
            state.check_action(action)
        else:
            refused(state, action, _expected_rule(state, action))


def test_malformed_actions_cannot_even_be_built() -> None:
    for fields in [(ActionKind.LAY, -1), (ActionKind.DISCARD, 99)]:
        with pytest.raises(ValueError, match="no such action"):
            Action(*fields)
    with pytest.raises(ValueError, match="no such action"):
        Action(ActionKind.FIGURE, -1, -1, 7)
    with pytest.raises(ValueError, match="no such action"):
        Action(ActionKind.ADVANCE, -1, -1, 9)


def test_card_game_actions_are_refused_in_the_board_game() -> None:
    state = new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"])
    refused(state, "*3", "B-1")
    refused(state, "-GX", "B-1")
    refused(state, "*5>G", "B-1")
    refused(state, "wish G5 Y5", "B-10")
    drawing = play(new(hands=["G1 G2 G3 G4 G5 G6 G7 G8"]), "-G1")
    refused(drawing, "draw *", "B-15")


# -- variants --------------------------------------------------------------------------------


def test_turn_cap_ends_the_game_as_truncated() -> None:
    state = GAME.new_game(3, seed=2, variant={"turn_cap": 4})
    state.play_random(random.Random(0))
    assert (state.over, state.turn, state.end_reason) == (True, 4, EndReason.TRUNCATED)
    outcome = state.outcome()
    assert outcome.truncated
    assert outcome.end_reason is EndReason.TRUNCATED
    assert state.view(0).to_json()["outcome"]["end_reason"] == "truncated"
    refused(state, "draw", "B-19")


def test_turn_cap_counts_complete_turns_and_defaults_to_none() -> None:
    capped = GAME.new_game(2, seed=2, variant={"turn_cap": 3})
    plain = GAME.new_game(2, seed=2)
    for _ in range(2):
        discard_any(capped)
        discard_any(plain)
    assert not capped.over
    discard_any(capped)
    discard_any(plain)
    assert capped.over
    assert not plain.over
    assert plain.variant.turn_cap == DEFAULT_TURN_CAP  # every game is finite
    assert plain.variant.no_take_back is True  # B-15: no take-back unless switched off


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        ({"turn_cap": 0}, "turn_cap must be at least 1"),
        ({"turn_cap": "ten"}, "turn_cap must be a whole number"),
        ({"no_take_back": "yes"}, "no_take_back must be true or false"),
        ({"take_back": True}, "unknown board-game variant"),
    ],
)
def test_bad_variant_switches_are_refused(variant: dict[str, object], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        GAME.new_game(2, seed=1, variant=variant)


def test_B5_score_marker_starts_at_0_for_every_seat_count() -> None:
    for players in (2, 3, 4):
        state = GAME.new_game(players, seed=9)
        assert state.points == [0] * players
        assert state.scores() == [-4] * players  # nothing but the empty wish-stone row yet
