"""The screens fit the terminal: compact at 80 × 24, roomy when there is room, the layout of
the size the terminal has when a screen is drawn (a resize is picked up), and in hot-seat no
hand left in the scroll-back."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console, RenderableType

from keltis.bots import make_bot
from keltis.core.card_codes import CARD_TEXT
from keltis.core.protocol import View
from keltis.i18n import Translator
from keltis.match import Match
from keltis.record import GameRecord, PlayerInfo
from keltis.tui.app import CLEAR_SCROLLBACK, make_screen, seat_names
from keltis.tui.screen import GameScreen, TurnNote, is_compact
from keltis.tui.style import make_output

from .helpers import AnswerInput, TtyIO, play, screens

EN = Translator("en")
#: The bots of a seeded game: fast, and not all alike.
KINDS = ["greedy", "random", "heuristic", "greedy"]
#: Under the end screen: a blank line, where the record went, the question to play again.
AFTER_END = 3


def drawn(renderable: RenderableType, width: int, height: int) -> list[str]:
    """The lines ``renderable`` takes on a ``width`` × ``height`` terminal."""
    console = Console(width=width, height=height, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text().splitlines()


def decisions(game: str, players: int, seed: int, t: Translator = EN) -> Iterator[tuple[
    GameScreen, View, list[TurnNote]
]]:  # fmt: skip
    """Every decision of a seeded game of bots — the view of the seat to move, with the last
    moves as the terminal notes them — then the final spectator view."""
    kinds = KINDS[:players]
    names = seat_names(["human", *kinds[1:]], None, t)
    match = Match.new(
        game,
        [PlayerInfo(n, k) for n, k in zip(names, kinds, strict=True)],
        {seat: make_bot(kind) for seat, kind in enumerate(kinds)},
        seed=seed,
    )
    screen = make_screen(game, t, make_output(io.StringIO(), {}), names)
    notes: list[TurnNote] = []
    while not match.over:
        yield screen, match.view(match.to_move), notes
        step = match.play_bot()
        if not notes or notes[-1].seat != step.seat:
            notes.append(TurnNote(step.seat))
            del notes[:-8]
        notes[-1].moves.append(str(step.action))
        notes[-1].phrases.append(t.events(list(step.events)))
    yield screen, match.view(None), notes


def check_fits(
    screen: GameScreen, view: View, notes: list[TurnNote], width: int, height: int
) -> list[str]:
    """Draw a screen (with the legends on each seat's first) and check it fits: its lines and
    the prompt under it, or at the end the scores and what follows them."""
    legend = bool(view.legal) and view.viewer not in screen.legend_shown
    screen.legend_shown.add(view.viewer)
    lines = drawn(screen.fit(view, notes, legend=legend), width, height)
    where = f"turn {view.turn + 1}, ply {view.ply}:\n" + "\n".join(lines)
    assert max(len(line) for line in lines) <= width, where
    if view.outcome is None:
        assert len(lines) + 1 <= height, where  # the prompt takes the last line
        assert view.legal
        for number, action in enumerate(view.legal, 1):  # every option, by number
            assert re.search(rf"(^|\s){number} {re.escape(str(action))}(\s|$)", where)
    else:
        results = drawn(screen.results(view.outcome), width, height)
        assert len(lines) + 1 + len(results) + AFTER_END <= height, where
        assert max(len(line) for line in results) <= width
    return lines


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", ["board", "cards"])
def test_every_screen_of_a_game_fits_80x24(game: str, players: int) -> None:
    count = 0
    for screen, view, notes in decisions(game, players, seed=3 + players):
        lines = check_fits(screen, view, notes, 80, 24)
        assert "╌" not in "".join(lines)  # the compact layout: no frame lines
        count += 1
    assert count > 100


@pytest.mark.parametrize("lang", ["de", "cs", "sk", "hu", "pl", "es"])
def test_screens_fit_80x24_in_every_language(lang: str) -> None:
    t = Translator(lang)
    for game in ("board", "cards"):
        for number, (screen, view, notes) in enumerate(decisions(game, 4, 11, t)):
            if number % 11 == 0 or view.over:
                check_fits(screen, view, notes, 80, 24)


@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_large_terminal_gets_the_roomy_layout(game: str) -> None:
    assert is_compact(80, 24)
    assert is_compact(120, 30)  # wide but short
    assert is_compact(90, 60)  # tall but narrow
    assert not is_compact(160, 50)
    rule = {"board": "╌", "cards": "─"}[game]
    for number, (screen, view, notes) in enumerate(decisions(game, 4, 5)):
        if number % 9 and not view.over:
            continue
        lines = check_fits(screen, view, notes, 160, 50)
        assert max(len(line) for line in lines) <= 100  # never wider than 100 columns
        assert rule in "".join(lines)  # the roomy layout's frame lines


def test_the_compact_board_keeps_what_the_roomy_one_shows() -> None:
    """The compact board screen shows the board, the goal area's count, the start stone,
    the discard piles, the players' rows, the hand and the options, each once."""
    for screen, view, notes in decisions("board", 2, 8):
        if view.ply >= 60 and view.phase == "play":
            text = "\n".join(check_fits(screen, view, notes, 80, 24))
            break
    assert re.search(r"^9\s+\+10\s", text, re.MULTILINE)
    assert re.search(r"^1\s+-4\s", text, re.MULTILINE)
    assert re.search(r"Goal area \(rows 7–9\): \d/5", text)
    assert "start stone:" in text
    assert "Discard piles:" in text
    assert "set aside: 30 cards" in text  # two players: thirty cards out of the game
    assert text.count("Your hand: ") == 1
    for seat in range(2):
        assert re.search(rf"^▶?{seat + 1}\s+\S", text, re.MULTILINE)


def test_legends_are_shown_once_and_in_help(tmp_path: Path) -> None:
    roomy = {"COLUMNS": "120", "LINES": "60"}
    legend = EN("board.legend", clover="♣", wish="◆")
    run = play(["--seats", "human,greedy", "--seed", "3"], ["1"] * 6, tmp=tmp_path, env=roomy)
    parts = screens(run.output)
    assert legend in " ".join(parts[0].split())
    assert all(legend.split(".")[0] not in part for part in parts[1:])
    again = play(
        ["--seats", "human,greedy", "--seed", "3"], ["1", "help"], tmp=tmp_path, name="b.json"
    )
    after = " ".join(screens(again.output)[-1].split())
    assert legend in after  # help explains the symbols
    players = EN("players.legend", up="↑", down="↓", open="↕", wish="◆")
    assert players in after


class Resizable:
    """A terminal whose size a test changes: ``os.get_terminal_size`` reports it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, columns: int, lines: int) -> None:
        self.size = os.terminal_size((columns, lines))
        monkeypatch.setattr(os, "get_terminal_size", lambda fd=0: self.size)


@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_resized_terminal_gets_the_layout_of_its_new_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    terminal = Resizable(monkeypatch, 80, 24)
    sizes = iter([(160, 50), (80, 24), (100, 40)])

    def answer(shown: str) -> str:
        terminal.size = os.terminal_size(next(sizes, (80, 24)))
        return "redraw"

    out = TtyIO()
    stdin = AnswerInput(out, answer, limit=3)
    # COLUMNS and LINES of the environment go stale on a resize: a terminal ignores them
    env = {"COLUMNS": "80", "LINES": "24", "TERM": "xterm"}
    play(["--game", game, "--seats", "human,greedy", "--seed", "2"], tmp=tmp_path, out=out,
         stdin=stdin, env=env)  # fmt: skip
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.getvalue())
    title = EN(f"title.{game}")
    drawn_screens = plain.split(title)[1:]
    assert len(drawn_screens) == 4  # the first screen, then three redraws at new sizes
    rule = {"board": "╌", "cards": "─"}[game]
    roomy = [rule in part.split("> ")[0] for part in drawn_screens]
    assert roomy == [False, True, False, True]
    sizes_drawn = [(80, 24), (160, 50), (80, 24), (100, 40)]
    for part, (columns, lines) in zip(drawn_screens, sizes_drawn, strict=True):
        screen = part.split("\n> ")[0].splitlines()
        assert len(screen) + 1 <= lines
        assert max(len(line) for line in screen) <= min(columns, 100)


class Scrollback:
    """What a terminal keeps of the output: the screen and, above it, the scroll-back. Like
    VTE (GNOME Terminal, …), clearing the screen (``ESC [2J``) moves what it showed into the
    scroll-back; ``ESC [3J`` erases the scroll-back."""

    def __init__(self) -> None:
        self.history = ""
        self.screen = ""

    def feed(self, text: str) -> None:
        for piece in re.split(r"(\x1b\[[0-9;?]*[A-Za-z])", text):
            if piece == "\x1b[2J":
                self.history += self.screen
                self.screen = ""
            elif piece == "\x1b[3J":
                self.history = ""
            elif not piece.startswith("\x1b"):
                self.screen += piece

    def kept(self) -> str:
        return self.history + self.screen


@pytest.mark.parametrize("seats", [["--hotseat", "--players", "3"], ["--seats", "human,human"]])
def test_a_hand_over_leaves_no_hand_in_the_scroll_back(tmp_path: Path, seats: list[str]) -> None:
    enter = EN("prompt.enter")
    handover = EN("msg.handover", name="@").split("@")[0]
    out = TtyIO()
    stdin = AnswerInput(out, lambda shown: "" if shown.rstrip().endswith(enter) else "1")
    stdin.limit = 60
    play([*seats, "--seed", "12"], tmp=tmp_path, out=out, stdin=stdin, env={"TERM": "xterm"})
    text = out.getvalue()
    hand = EN("screen.hand")
    terminal = Scrollback()
    done = 0
    handovers = 0
    for found in re.finditer(re.escape(handover), text):
        terminal.feed(text[done : found.start()])
        done = found.start()
        # the hand-over starts with the clearing, in the order that erases the scroll-back last
        before = text.rindex(CLEAR_SCROLLBACK, 0, found.start())
        assert hand not in text[before : found.start()]
        assert hand not in terminal.kept()
        handovers += 1
    assert handovers >= 10
    assert text.count(hand) >= handovers  # each player saw a hand after the hand-over
    # the old order (scroll-back first, then the screen) would have left a hand behind
    second = [found.start() for found in re.finditer(re.escape(handover), text)][1]
    wrong = Scrollback()
    wrong.feed(text[:second].replace(CLEAR_SCROLLBACK, "\x1b[3J\x1b[2J\x1b[H"))
    assert hand in wrong.kept()


def test_a_hand_over_in_plain_output_pushes_the_screen_away(tmp_path: Path) -> None:
    class TtyInput(AnswerInput):
        def isatty(self) -> bool:
            return True

    enter = EN("prompt.enter")
    out = TtyIO()
    stdin = TtyInput(out, lambda shown: "" if shown.rstrip().endswith(enter) else "1", limit=12)
    play(["--hotseat", "--players", "2", "--seed", "12"], tmp=tmp_path, out=out, stdin=stdin,
         env={"NO_COLOR": "1"})  # fmt: skip
    text = out.getvalue()
    assert "\x1b" not in text
    second = text.index(EN("msg.handover", name="Player 2 (2)"))
    shown = text.rindex(EN("screen.hand"), 0, second)
    assert "\n" * 20 in text[shown:second]  # blank lines push the last screen out of sight


@pytest.mark.slow
def test_a_whole_hot_seat_game_shows_each_player_only_their_hand(tmp_path: Path) -> None:
    """Three people at one keyboard, the compact layout: every screen shows the hand of the
    seat it was drawn for, and no other."""
    enter = EN("prompt.enter")
    out = TtyIO()
    stdin = AnswerInput(out, lambda shown: "" if shown.rstrip().endswith(enter) else "1")
    stdin.limit = 150  # some fifty moves each
    run = play(["--hotseat", "--players", "3", "--seed", "4"], tmp=tmp_path, out=out,
               stdin=stdin, env={"NO_COLOR": "1"})  # fmt: skip
    record, _ = GameRecord.load(run.record)
    state = record.new_state()
    hands = []
    for action in record.actions:  # each move was chosen on a screen of its own
        hands.append(sorted(CARD_TEXT[c] for c in state.hands[state.current_player]))
        state.apply_text(action)
    shown = re.findall(r"Your hand: (.*)", run.output)
    assert len(hands) > 100
    # the input ended at a hand-over, or on a screen that waited for a move
    assert len(shown) - len(hands) in (0, 1)
    assert [sorted(line.replace("│", " ").split()) for line in shown[: len(hands)]] == hands
