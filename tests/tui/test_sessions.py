"""The terminal game's records and sessions: never overwriting a record, unique names, saving
into a folder, a failing save that loses nothing, --resume last and --saved, options that do
not go with --resume, undo (with consent in hot-seat), another game, the card game's own
"not a move" help, and hints without a search when there is nothing to choose."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest

from keltis.bots.hints import Hint
from keltis.cli import build_parser, main
from keltis.core.actions import Action
from keltis.i18n import Translator
from keltis.record import GameRecord, PlayerInfo
from keltis.tui import saves
from keltis.tui.app import run_play

from .helpers import MANY, AnswerInput, ScriptedInput, play

EN = Translator("en")


def run(argv: list[str], lines: list[str], env: dict[str, str]) -> tuple[int, str]:
    """``keltis play ARGV`` with scripted input and the given environment (no --save added)."""
    out = io.StringIO()
    status = run_play(build_parser().parse_args(["play", *argv]), ScriptedInput(lines), out, env)
    return status, out.getvalue()


def test_an_existing_record_is_never_overwritten(tmp_path: Path) -> None:
    old = play(["--seats", "human,greedy", "--seed", "1"], ["1"] * MANY, tmp=tmp_path)
    before = old.record.read_text(encoding="utf-8")
    assert main(["play", "--seats", "human,greedy", "--save", str(old.record)]) == 2
    assert old.record.read_text(encoding="utf-8") == before


def test_the_refusal_says_how_to_continue_instead(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    taken = tmp_path / "taken.json"
    taken.write_text("{}", encoding="utf-8")
    assert main(["play", "--lang", "de", "--save", str(taken)]) == 2
    err = capsys.readouterr().err
    assert f"--resume {taken}" in err
    assert "gibt es schon" in err  # in the player's language


def test_default_names_are_unique_even_within_one_second(tmp_path: Path) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path)}
    record = GameRecord.start("board", [PlayerInfo("a"), PlayerInfo("b")], seed=1)
    paths = [saves.claim(record, None, env) for _ in range(3)]
    assert len(set(paths)) == 3
    assert all(p.parent == saves.games_dir(env) for p in paths)
    assert paths[1].stem == f"{paths[0].stem}-2"


def test_two_games_started_together_get_two_files(tmp_path: Path) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path)}
    for _ in range(2):
        status, _ = run(["--seats", "human,greedy"], ["1"], env)
        assert status == 0
    assert len(list(saves.games_dir(env).glob("*.json"))) == 2


def test_save_into_a_folder_gets_a_default_name_there(tmp_path: Path) -> None:
    status, out = run(["--seats", "human,greedy", "--save", str(tmp_path)], ["1"], {})
    assert status == 0
    saved = list(tmp_path.glob("board-*.json"))
    assert len(saved) == 1
    assert str(saved[0]) in out.replace("\n", "")


def test_a_failing_save_is_reported_the_game_goes_on_and_nothing_is_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder of the record disappears mid-game (a file takes its place): each failed save
    is reported once, play goes on, no temporary file is left, and at the end the record is
    saved in the temporary folder instead, every move in it."""
    folder = tmp_path / "games"
    folder.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "fallback"))
    (tmp_path / "fallback").mkdir()
    out = io.StringIO()
    answers = iter(["1", "1", "BREAK", "1", "1", "1"])

    def answer(_printed: str) -> str:
        line = next(answers, "")
        if line == "BREAK":
            shutil.rmtree(folder)
            folder.write_text("in the way", encoding="utf-8")
            return "1"
        return line

    stdin = AnswerInput(out, answer, limit=6)
    args = build_parser().parse_args(
        ["play", "--seats", "human,greedy", "--seed", "3", "--save", str(folder / "g.json")]
    )
    assert run_play(args, stdin=stdin, out=out, env={}) == 0
    text = out.getvalue()
    assert text.count("The game could not be saved") == 1
    fallback = list((tmp_path / "fallback").glob("board-*.json"))
    assert len(fallback) == 1
    record, _ = GameRecord.load(fallback[0])
    assert len([a for a in record.actions if a]) >= 5
    assert not list(tmp_path.rglob("*.tmp"))


@pytest.mark.slow
def test_resume_last_continues_the_latest_unfinished_game_and_saved_lists_them(
    tmp_path: Path,
) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path)}
    run(["--seats", "human,random", "--seed", "1"], ["1"] * MANY, env)  # finished
    run(["--seats", "human,greedy", "--seed", "2"], ["1", "1"], env)  # left after two moves
    status, out = run(["--resume", "last"], ["1", "1"], env)
    assert status == 0
    assert "Continuing the game" in out
    latest = saves.last_unfinished(env)
    assert latest is not None
    record, _ = GameRecord.load(latest)
    assert record.seed == 2
    _, listing = run(["--saved"], [], env)
    assert listing.count("finished") == 2  # "finished" and "not finished"
    assert listing.index("not finished") < listing.index(", finished")


def test_resume_last_with_nothing_saved_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["play", "--resume", "last"]) == 2
    assert "There is no unfinished saved game" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--game", "cards"], "is a record of Keltis – the board game: leave out --game"),
        (["--players", "4"], "is a game of 2 players: leave out --players"),
        (["--seed", "5"], "--seed sets up a new game"),
        (["--hotseat"], "--hotseat sets up a new game"),
    ],
)
def test_options_that_do_not_go_with_resume_are_refused(
    tmp_path: Path, options: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    first = play(["--seats", "human,greedy", "--seed", "2"], ["1"], tmp=tmp_path)
    before = first.record.read_text(encoding="utf-8")
    assert main(["play", "--resume", str(first.record), *options]) == 2
    assert message in capsys.readouterr().err
    assert first.record.read_text(encoding="utf-8") == before
    # the matching game and player count are fine
    ok = play(
        ["--resume", str(first.record), "--game", "board", "--players", "2"], [], tmp=tmp_path
    )
    assert ok.status == 0


def test_undo_takes_back_the_last_decision_against_bots(tmp_path: Path) -> None:
    within = play(["--seats", "human,greedy", "--seed", "4"], ["1", "undo"], tmp=tmp_path)
    assert GameRecord.load(within.record)[0].actions == []  # the lay, before its draw
    assert EN("msg.undone", count=1) in within.output
    again = play(
        ["--seats", "human,greedy", "--seed", "4"], ["1", "1", "undo"], tmp=tmp_path, name="b.json"
    )
    record, _ = GameRecord.load(again.record)
    assert len(record.actions) == 1  # the draw and the bot's replies are gone
    assert re.search(r"\d+ moves? taken back", again.output)
    # the bots answer a replayed decision exactly as before
    redo = play(
        ["--seats", "human,greedy", "--seed", "4"],
        ["1", "1", "undo", "1", "1"],
        tmp=tmp_path,
        name="c.json",
    )
    plain = play(
        ["--seats", "human,greedy", "--seed", "4"], ["1", "1", "1"], tmp=tmp_path, name="d.json"
    )
    assert GameRecord.load(redo.record)[0].actions == GameRecord.load(plain.record)[0].actions


def test_undo_with_nothing_to_take_back(tmp_path: Path) -> None:
    first = play(["--seats", "human,greedy", "--seed", "4"], ["undo"], tmp=tmp_path)
    assert EN("msg.undo_nothing") in first.output


def test_hot_seat_undo_needs_the_others_consent(tmp_path: Path) -> None:
    # Ann discards and draws, the keyboard goes to Bob, who does the same, back to Ann: she
    # asks to undo her draw; Bob says no, then yes.
    intents = iter(["", "discard", "draw", "", "discard", "draw", "", "undo", "n", "undo", "y"])
    out = io.StringIO()

    def answer(printed: str) -> str:
        intent = next(intents, "")
        if intent == "discard":
            hand = printed.rsplit("Your hand:", 1)[1].split()
            return "-" + hand[0]
        return intent

    args = build_parser().parse_args(
        ["play", "--hotseat", "--players", "2", "--seed", "8", "--save", str(tmp_path / "g.json")]
    )
    assert run_play(args, stdin=AnswerInput(out, answer, limit=11), out=out, env={}) == 0
    text = out.getvalue()
    assert "Player 1 (1) wants to take back their last move. Player 2 (2), do you agree?" in text
    assert EN("msg.undo_refused", other="Player 2 (2)") in text
    record, _ = GameRecord.load(tmp_path / "g.json")
    assert len(record.actions) == 1  # back to Ann's draw


@pytest.mark.slow
def test_play_again_starts_a_new_game_with_a_new_record(tmp_path: Path) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path)}
    lines = ["1"] * 400 + ["y", "1"]

    class Until(ScriptedInput):
        """Take the first option until the game asks to play again, then say yes."""

        def readline(self, size: int | None = -1) -> str:
            if "Play again?" in out.getvalue() and not self.said_yes:
                self.said_yes = True
                return "y\n"
            return super().readline(size)

    out = io.StringIO()
    stdin = Until(lines)
    stdin.said_yes = False
    args = build_parser().parse_args(["play", "--seats", "human,random", "--seed", "1"])
    assert run_play(args, stdin=stdin, out=out, env=env) == 0
    records = sorted(saves.games_dir(env).glob("*.json"))
    assert len(records) == 2
    seeds = {GameRecord.load(p)[0].seed for p in records}
    assert len(seeds) == 2  # a new deal


def test_the_card_game_explains_its_own_moves(tmp_path: Path) -> None:
    cards = play(["--game", "cards", "--seats", "human,greedy"], ["hello"], tmp=tmp_path)
    assert "wish G5 *5" in cards.output
    assert "big or small" not in cards.output
    board = play(["--seats", "human,greedy"], ["hello"], tmp=tmp_path, name="b.json")
    assert "big or small" in board.output


def test_a_hint_with_one_legal_move_needs_no_search(tmp_path: Path) -> None:
    # the card game's first turn: after a lay every discard pile is empty, so only "draw"
    state = GameRecord.start("cards", [PlayerInfo("a"), PlayerInfo("b")], seed=3).new_state()
    lay = next(a for a in state.legal_actions() if a.kind.name == "LAY")
    run_ = play(
        ["--game", "cards", "--seats", "human,greedy", "--seed", "3"],
        [str(lay), "hint"],
        tmp=tmp_path,
    )
    assert "Only one move is possible: draw" in run_.output
    assert EN("msg.thinking") not in run_.output


def test_a_hint_says_how_sure_it_is() -> None:
    hint = Hint(Action.parse("G7"), win=0.5, margin=1.0, playouts=100)
    assert hint.spread == pytest.approx(0.098, abs=0.001)
    assert Hint(Action.parse("G7"), 0.5, 1.0, 0).spread == 1.0
    assert hint.to_json()["spread"] == 0.098
