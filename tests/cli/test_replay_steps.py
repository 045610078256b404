"""``keltis replay`` on a terminal steps through the positions of a record: forward, back, to a
move number, first, last, quit. Each screen is the spectator's view of that position (the same
as ``record.replay(upto=k).view(None)``), never a hidden card; after the last move of a
finished game the final scores. ``--at N`` prints one position; translated throughout."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from rich.console import Group

from keltis.bots import make_bot
from keltis.cli import build_parser, main
from keltis.i18n import Translator
from keltis.messages import MESSAGES
from keltis.record import GameRecord, PlayerInfo
from keltis.replay import run_replay
from keltis.tui.app import make_screen
from keltis.tui.replay_view import Positions
from keltis.tui.style import make_output

#: Plain output (no escape sequences), so that screens can be compared as text.
PLAIN = {"NO_COLOR": "1"}
RULE = "═" * 20
#: A card in notation, as screens show it: G7, B10, RX, *3.
CARD = re.compile(r"(?<![\w*])(?:[GYRPB](?:10|[0-9]|X)|\*(?:10|[0-9]))(?!\w)")


class Terminal(io.StringIO):
    """Captured output or scripted input that claims to be a terminal."""

    def isatty(self) -> bool:
        return True


class Keys(Terminal):
    """Typed lines from a script, then the end of input (or ``then`` raised)."""

    def __init__(self, lines: Iterable[str], then: type[BaseException] | None = None) -> None:
        super().__init__()
        self.lines = list(lines)
        self.then = then

    def readline(self, size: int | None = -1) -> str:
        if self.lines:
            return self.lines.pop(0) + "\n"
        if self.then is not None:
            raise self.then
        return ""


def _record(
    tmp_path: Path, game: str, seats: list[str], seed: int, upto: int | None = None
) -> Path:
    players = [PlayerInfo(f"{kind.capitalize()} {i + 1}", kind) for i, kind in enumerate(seats)]
    record = GameRecord.start(game, players, seed=seed)
    state = record.new_state()
    bots = [make_bot(kind, 10 + i) for i, kind in enumerate(seats)]
    while not state.over and (upto is None or len(state.history) < upto):
        state.apply(bots[state.current_player].choose(state.view(state.current_player)))
    record.finish(state)
    return record.save(tmp_path / f"{game}-{seed}.json")


@pytest.fixture
def board_file(tmp_path: Path) -> Path:
    return _record(tmp_path, "board", ["greedy", "random"], 11)


@pytest.fixture
def cards_file(tmp_path: Path) -> Path:
    return _record(tmp_path, "cards", ["greedy", "random", "greedy"], 21)


def step(path: Path, keys: Iterable[str], *options: str, **kw: object) -> tuple[int, list[str]]:
    """Run ``keltis replay PATH`` on a (pretend) terminal with typed ``keys``; the exit
    status and the screens, cut where each new position starts."""
    args = build_parser().parse_args(["replay", str(path), *options])
    out = Terminal()
    then = kw.get("then")
    assert then is None or isinstance(then, type)
    status = run_replay(args, stdin=Keys(keys, then), out=out, env=PLAIN)
    return status, [part for part in out.getvalue().split(RULE) if part.strip()]


def public_part(path: Path, ply: int, lang: str = "en") -> str:
    """The table of position ``ply`` drawn from ``record.replay(upto=ply).view(None)``, as the
    replay's screen must contain it."""
    record, _ = GameRecord.load(path)
    view = record.replay(upto=ply).view(None)
    out = io.StringIO()
    output = make_output(out, PLAIN)
    screen = make_screen(record.game, Translator(lang), output, [p.name for p in record.players])
    output.console.print(
        Group(screen.header(view), screen.table(view), screen.players(view), screen.piles(view))
    )
    return out.getvalue()


def shown_ply(screen: str, last: int) -> int:
    """Which position a screen says it shows."""
    if "The start of the game" in screen:
        return 0
    found = re.search(rf"Move (\d+) of {last}: ", screen)
    assert found, screen
    return int(found[1])


def test_forward_back_jump_first_last_and_quit(board_file: Path) -> None:
    record, _ = GameRecord.load(board_file)
    last = len(record.actions)
    status, screens = step(board_file, ["", "n", "b", "17", "p", "l", "f", "9", "q"])
    assert status == 0
    expected = [0, 1, 2, 1, 17, 16, last, 0, 9]
    assert [shown_ply(s, last) for s in screens] == expected
    for screen, ply in zip(screens, expected, strict=True):
        assert public_part(board_file, ply) in screen
        assert "Enter/n: next · b: back" in screen
    assert "The start of the game: " in screens[0]
    assert f"Move 1 of {last}: Greedy 1 (1) – {record.actions[0]}: " in screens[1]
    # the last moves list, as in the game: who did what, in words
    assert "Last moves:" in screens[4]
    assert "none yet" in screens[0]


def test_the_end_shows_the_final_table_and_the_scores_not_the_hands(board_file: Path) -> None:
    record, _ = GameRecord.load(board_file)
    state = record.replay()
    status, screens = step(board_file, ["l"])
    assert status == 0
    end = screens[-1]
    assert "Game over" in end
    assert "Winner: " in end or "Shared victory: " in end
    for seat, score in enumerate(state.outcome().scores):
        assert re.search(rf"{record.players[seat].name}.*(?<![\w-]){score}(?!\w)", end)
    assert "Your hand" not in end
    before = screens[0]
    assert "Game over" not in before


def test_no_screen_shows_a_hidden_card(board_file: Path) -> None:
    """Every card on a screen is one everyone has seen: in the spectator's view (piles, cards
    known to be in a hand) or in a move played so far. A card in a hand, unseen, never."""
    record, _ = GameRecord.load(board_file)
    last = len(record.actions)
    plies = sorted({*range(12), *range(0, last, 9), last - 1, last})
    status, screens = step(board_file, [str(k) for k in plies[1:]])
    assert status == 0
    hidden_somewhere = 0
    for screen, ply in zip(screens, plies, strict=True):
        assert shown_ply(screen, last) == ply
        state = record.replay(upto=ply)
        public = set(CARD.findall(json.dumps(state.view(None).to_json())))
        public |= set(CARD.findall(" ".join(record.actions[:ply])))
        shown = set(CARD.findall(screen))
        assert shown <= public, (ply, shown - public)
        hands = {text for hand in state.to_json()["hands"] for text in hand}
        hidden = hands - public
        hidden_somewhere += bool(hidden)
        assert not hidden & shown
        assert "Your hand" not in screen
    assert hidden_somewhere >= len(plies) - 1  # the test has teeth: hands hold unseen cards


def test_a_card_game_steps_too(cards_file: Path) -> None:
    record, _ = GameRecord.load(cards_file)
    last = len(record.actions)
    status, screens = step(cards_file, ["n", "n", "b", str(last)])
    assert status == 0
    assert [shown_ply(s, last) for s in screens] == [0, 1, 2, 1, last]
    for screen, ply in zip(screens, [0, 1, 2, 1, last], strict=True):
        assert public_part(cards_file, ply) in screen
    assert "Game over" in screens[-1]


def test_an_unfinished_record_says_where_it_stops(tmp_path: Path) -> None:
    path = _record(tmp_path, "board", ["greedy", "random"], 5, upto=30)
    status, screens = step(path, ["l"])
    assert status == 0
    assert "Move 30 of 30" in screens[-1]
    assert "The record stops here, before the end of the game." in screens[-1]
    assert "Game over" not in screens[-1]


def test_what_cannot_be_done_is_said_and_the_position_kept(board_file: Path) -> None:
    record, _ = GameRecord.load(board_file)
    last = len(record.actions)
    status, screens = step(board_file, ["b", "zz", str(last + 1), "l", "n", "quit"])
    assert status == 0
    assert "This is the start of the game: there is no earlier move." in screens[0]
    assert "Cannot read “zz”: type n, b, a move number, f, l or q." in screens[0]
    assert f"There is no move {last + 1}: choose from 0 to {last}." in screens[0]
    assert "This is the last move of the record." in screens[1]
    assert len(screens) == 2


def test_end_of_input_and_ctrl_c_leave_quietly(board_file: Path) -> None:
    assert step(board_file, ["n"])[0] == 0
    assert step(board_file, ["n"], then=KeyboardInterrupt)[0] == 130


def test_in_czech_every_word_is_czech(board_file: Path) -> None:
    record, _ = GameRecord.load(board_file)
    last = len(record.actions)
    status, screens = step(board_file, ["n", "b", "x", "l", "n"], "--lang", "cs")
    assert status == 0
    assert f"Začátek hry: záznam má {last} kroků." in screens[0]
    assert "„x“ nerozumím" in screens[2]
    assert f"Krok 1 z {last}: Greedy 1 (1) – {record.actions[0]}: " in screens[1]
    assert "Enter/n: další · b: zpět" in screens[1]
    assert "Toto je poslední krok záznamu." in screens[-1]
    assert public_part(board_file, 1, "cs") in screens[1]
    english = [
        MESSAGES[k].english.split("{")[0]
        for k in ("replay.move", "replay.keys", "replay.at_end", "screen.last_moves", "end.winner")
    ]
    for screen in screens:
        for words in english:
            assert words not in screen


@pytest.mark.parametrize("lang", ["de", "cs", "sk", "hu", "pl", "es"])
def test_every_language_has_the_replay_words(lang: str) -> None:
    t = Translator(lang)
    stepping = ["start", "move", "stops", "keys", "at_end", "at_start", "no_move", "unknown"]
    for key in [f"replay.{name}" for name in stepping]:
        assert t.template(key) != MESSAGES[key].english, (lang, key)


def test_at_prints_one_position(board_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, _ = GameRecord.load(board_file)
    last = len(record.actions)
    assert main(["replay", str(board_file), "--at", "12"]) == 0
    out = capsys.readouterr().out
    assert f"Move 12 of {last}: " in out
    assert public_part(board_file, 12) in out
    assert "Enter/n" not in out  # nothing to type: it is printed, not stepped through
    assert main(["replay", str(board_file), "--at", str(last)]) == 0
    assert "Game over" in capsys.readouterr().out
    assert main(["replay", str(board_file), "--at", "0", "--lang", "de"]) == 0
    assert "Spielbeginn" in capsys.readouterr().out


def test_at_a_move_the_record_lacks_exits_2(
    board_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record, _ = GameRecord.load(board_file)
    last = len(record.actions)
    assert main(["replay", str(board_file), "--at", str(last + 1)]) == 2
    assert f"keltis replay: There is no move {last + 1}: choose from 0 to {last}." in (
        capsys.readouterr().err
    )
    assert main(["replay", str(board_file), "--at", "-1", "--lang", "pl"]) == 2
    assert "Nie ma ruchu -1" in capsys.readouterr().err


def test_at_json_and_text_exclude_each_other(board_file: Path) -> None:
    for options in (["--at", "3", "--json"], ["--text", "--json"], ["--at", "3", "--text"]):
        with pytest.raises(SystemExit) as caught:
            main(["replay", str(board_file), *options])
        assert caught.value.code == 2


def test_text_on_a_terminal_and_anything_not_a_terminal_print_the_moves(board_file: Path) -> None:
    record, _ = GameRecord.load(board_file)
    last = len(record.actions)
    args = build_parser().parse_args(["replay", str(board_file), "--text"])
    out = Terminal()
    assert run_replay(args, stdin=Keys([]), out=out, env=PLAIN) == 0
    assert out.getvalue().startswith("board game, 2 players (seed 11)")
    assert f"{last:5d}. " in out.getvalue()
    args = build_parser().parse_args(["replay", str(board_file)])
    piped = io.StringIO()
    assert run_replay(args, stdin=Keys([]), out=piped, env=PLAIN) == 0
    assert piped.getvalue() == out.getvalue()


def test_a_damaged_record_is_refused_before_the_first_screen(
    board_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(board_file.read_text())
    data["result"]["scores"][0] += 1
    board_file.write_text(json.dumps(data, indent=2))
    args = build_parser().parse_args(["replay", str(board_file)])
    with pytest.raises(Exception, match="does not match its replay"):
        run_replay(args, stdin=Keys(["q"]), out=Terminal(), env=PLAIN)
    assert main(["replay", str(board_file), "--at", "3"]) == 2
    assert "does not match its replay" in capsys.readouterr().err
    assert main(["replay", str(board_file), "--at", "3", "--no-check"]) == 0


def test_positions_are_replayed_once_and_match_the_record(board_file: Path) -> None:
    """Going back is a look-up, not a replay: every position is kept, each the spectator's
    view of the record replayed that far."""
    record, lines = GameRecord.load(board_file)
    before = record.dumps()
    positions = Positions.build(record, lines)
    assert record.dumps() == before  # the record is left as it was
    assert positions.last == len(record.actions)
    for ply in (0, 1, 50, positions.last):
        expected = record.replay(upto=ply).view(None).to_json()
        assert positions.views[ply].to_json() == expected
    assert positions.outcome is not None
    assert positions.outcome.to_json() == record.result


def test_on_a_small_terminal_each_position_fits_its_height(board_file: Path) -> None:
    """On a colour terminal the screen is laid out for the terminal's size, leaving room for
    the move line, the keys and the prompt (the final table too)."""
    from keltis.tui.screen import GameScreen

    if not hasattr(GameScreen, "fit"):
        pytest.skip("the screens cannot lay themselves out for a size yet")
    record, _ = GameRecord.load(board_file)
    last = len(record.actions)
    env = {"COLUMNS": "80", "LINES": "24", "TERM": "xterm-256color"}
    args = build_parser().parse_args(["replay", str(board_file)])
    out = Terminal()
    assert run_replay(args, stdin=Keys(["", "60", "l"]), out=out, env=env) == 0
    height = make_output(Terminal(), env).console.size.height
    ansi = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
    screens = [ansi.sub("", part) for part in out.getvalue().split("\x1b[2J") if part.strip()]
    assert len(screens) == 4
    for screen, ply in zip(screens, [0, 1, 60, last], strict=True):
        shown = screen[: screen.rindex("> ") + 2]  # up to the prompt; then the typed line
        assert shown.count("\n") < height, shown
        assert ("The start of the game" if ply == 0 else f"Move {ply} of {last}: ") in shown
    assert "Game over" in screens[-1]
