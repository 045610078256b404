"""The screens, drawn from explicit positions: what they show, and what they never show."""

from __future__ import annotations

import io
import re

from rich.console import RenderableType

from keltis.board.screen import BoardScreen
from keltis.cards.screen import CardsScreen
from keltis.core.actions import Action
from keltis.core.protocol import GameState
from keltis.games import get_game
from keltis.i18n import Translator
from keltis.tui.commands import COMMANDS, find_command
from keltis.tui.screen import GameScreen, TurnNote
from keltis.tui.style import ASCII, UNICODE, make_output

EN = Translator("en")
NAMES = ["Ann", "Bob"]


def render(renderable: RenderableType, width: int = 80) -> str:
    output = make_output(io.StringIO(), {}, width=width)
    output.console.print(renderable)
    out = output.console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


def board_position() -> GameState:
    """Ann (seat 0): big figure on green row 3, small on yellow row 2; Bob: red row 2.
    Tiles: a clover on green 4, a wish stone on yellow 3, a 3-point tile on red 3."""
    return get_game("board").new_game(
        2,
        setup={
            "hands": [
                ["G5", "G6", "Y0", "R9", "P1", "P2", "B7", "B8"],
                ["B0", "B0", "B1", "B1", "B2", "B2", "B3", "B3"],
            ],
            "rows": [{"G": ["G2", "G3", "G4"], "Y": ["Y9", "Y9"]}, {"R": ["R1", "R1"]}],
            "positions": [{"G": 3, "Y": 2}, {"R": 2}],
            "big": ["G", None],
            "tiles": {
                "G": "...C.....",
                "Y": "..W......",
                "R": "..3......",
                "P": ".........",
                "B": "........1",
            },
            "discards": {"P": ["P7"]},
        },
    )


def line_of_row(screen: str, row: int) -> str:
    found = re.search(rf"^\s*{row}\s+[+-]\d+\s.*$", screen, re.MULTILINE)
    assert found, f"no line for row {row}"
    return found.group(0)


def test_board_screen_shows_paths_tiles_and_figures() -> None:
    state = board_position()
    screen = BoardScreen(EN, UNICODE, NAMES)
    text = render(screen.render(state.view(0), []))
    row3 = line_of_row(text, 3)
    assert re.search(r"·\s\[1\]\s+◆\s+\+3\s+·\s+·\s*$", row3)  # Ann's big figure on green
    assert "♣" in line_of_row(text, 4)
    row2 = line_of_row(text, 2)
    assert re.search(r"·\s+·\s1\s+·\s2\s+·\s+·\s*$", row2)  # Ann on yellow, Bob on red
    assert not re.search(r"\d\s*$", line_of_row(text, 1))
    assert "+1" in line_of_row(text, 9)
    assert line_of_row(text, 9).split()[1] == "+10"
    assert line_of_row(text, 1).split()[1] == "-4"
    assert re.search(r"start stone:\s+1 1 1\s+│ \[2\] 2 2 2$", text, re.MULTILINE)
    assert "Your hand: G5 G6  │ Y0  │ R9  │ P1 P2  │ B7 B8" in text
    assert "Discard piles (top card, size): G –  Y –  R –  P7 (1)  B –" in text
    assert "to move: Ann (1)" in text
    assert "B0" not in text  # Bob's hand
    assert re.search(r"▶1\s+Ann\s+4↑\s+9↕\s+–\s+–\s+–\s+0\s+\+0\s+8\s+-11", text)
    assert re.search(r"2\s+Bob\s+–\s+–\s+1↕\s+–\s+–\s+0\s+\+0\s+8\s+-7", text)


def test_board_spectator_screen_shows_no_hand() -> None:
    text = render(BoardScreen(EN, UNICODE, NAMES).render(board_position().view(None), []))
    assert "Your hand" not in text
    assert "G5" not in text
    assert "B0" not in text


def test_board_action_labels_say_where_figures_go() -> None:
    state = board_position()
    screen = BoardScreen(EN, UNICODE, NAMES)
    view = state.view(0)
    label = {str(a): screen.action_label(view, a) for a in view.legal}
    assert label["G5"] == "green figure to row 4 (clover)"
    assert label["Y0"] == "yellow figure to row 3 (wish stone)"
    assert label["P1"] == "a figure onto the pink path, row 1"
    assert label["-B7"] == "discard onto the blue pile"
    assert label["R9"] == "a figure onto the red path, row 1"
    state.apply(Action.parse("-B7"))
    view = state.view(0)
    # B-15: the B7 just discarded cannot be drawn back; the pink pile's top can
    assert Action.parse("draw B") not in view.legal
    assert screen.action_label(view, Action.parse("draw P")) == "take P7 from the pink pile"
    assert screen.action_label(view, Action.parse("draw")) == EN("act.draw_deck")


def test_board_options_fit_80_columns_with_discards_apart() -> None:
    state = board_position()
    screen = BoardScreen(EN, UNICODE, NAMES)
    text = render(screen.options(state.view(0)))
    lines = text.splitlines()
    assert "discard:" in lines[0]
    assert all(len(line) <= 80 for line in lines)
    assert len(lines) == 1 + 8  # the heading, then one line per lay beside one per discard
    assert re.search(r"^\s*1 G5\s+green figure to row 4 \(clover\)\s+9 -G5\s*$", lines[1])


def test_last_moves_show_the_notes() -> None:
    state = board_position()
    screen: GameScreen = BoardScreen(EN, UNICODE, NAMES)
    notes = [TurnNote(1, ["-B0", "draw"], ["discards B0", "draws from the draw pile"])]
    text = render(screen.render(state.view(0), notes))
    assert re.search(r"Bob \(2\)\s+-B0 draw\s+discards B0; draws from the draw pile", text)


def card_position() -> GameState:
    """Ann: green 3 5 (ascending), red 8 with a closing card, point row *1, wish stone 4."""
    return get_game("cards").new_game(
        2,
        setup={
            "hands": [
                ["G7", "GX", "Y3", "Y3", "*3", "*5", "P6", "B9"],
                ["B0", "B1", "B2", "B8", "B10", "P0", "P1", "P2"],
            ],
            "rows": [{"G": ["G3", "G5"], "R": ["R8", "RX"]}, {}],
            "point_rows": [["*1"], []],
            "wish_stones": [[4], []],
        },
    )


def test_card_screen_shows_rows_wish_stones_and_options() -> None:
    state = card_position()
    screen = CardsScreen(EN, UNICODE, NAMES)
    view = state.view(0)
    text = render(screen.render(view, []))
    assert "Wish stones on the table: 1 2 3 5 6 7 8 9" in text
    assert "Rows with a closing card (all players): 1 of 5" in text
    assert re.search(r"G green\s+5↑ ×2\s+–", text)
    assert re.search(r"R red\s+8↕■ ×2\s+–", text)
    assert re.search(r"\* point row\s+×1\s+–", text)
    assert re.search(r"◆ wish stones\s+4\s+–", text)
    assert "B10" not in text  # Bob's hand
    label = {str(a): screen.action_label(view, a) for a in view.legal}
    assert label["G7"] == "onto your green row (length 3, -2 pts)"
    assert label["GX"] == "closing card on your green row"
    assert label["*5>G"] == "onto your green row (length 3, -2 pts)"
    assert label["*3"] == "onto your point row (+1 point)"
    assert label["wish Y3 *3"] == "take wish stone 3, then draw 2"
    assert label["-*3"] == "discard onto the point-card pile"
    assert "Your hand: G7 GX  │ Y3 Y3  │ P6  │ B9  │ *3 *5" in text


def test_glyphs_fall_back_to_ascii() -> None:
    state = board_position()
    text = render(BoardScreen(EN, ASCII, NAMES).render(state.view(0), []))
    assert "%" in line_of_row(text, 4)
    assert "♣" not in text
    assert "◆" not in text


def test_commands_are_one_table() -> None:
    assert find_command("HELP") == (COMMANDS[0], "")
    found = find_command("q now")
    assert found is not None
    assert found[0].name == "quit"
    assert found[1] == "now"
    assert find_command("G7") is None
    assert find_command("draw") is None
    words = [w for c in COMMANDS for w in c.words]
    assert len(words) == len(set(words))
    for command in COMMANDS:  # a command word is never also a move
        for word in command.words:
            try:
                Action.parse(word)
            except ValueError:
                continue
            raise AssertionError(f"{word!r} is both a command and a move")
        assert EN(command.help_key) != command.help_key


def test_the_final_table_is_ordered_by_rank() -> None:
    from keltis.core.protocol import EndReason, Outcome

    parts = [{"figures": s, "tiles": 0, "wishes": 0, "wish_count": 0} for s in (10, 30, 30, 5)]
    outcome = Outcome((10, 30, 30, 5), tuple(parts), (1, 2), EndReason.GOAL)
    screen = BoardScreen(EN, UNICODE, ["Ann", "Bob", "Cy", "Dee"])
    text = render(screen.results(outcome, compact=False), width=100)
    found = re.findall(r"(\d)\.[\s│]+(\w+) \((\d)\)", text)
    assert found == [("1", "Bob", "2"), ("1", "Cy", "3"), ("3", "Ann", "1"), ("4", "Dee", "4")]
