"""``keltis play`` driven with scripted input: whole games, bad input, saving, resuming."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from keltis.cli import main
from keltis.core.card_codes import CARD_TEXT
from keltis.i18n import Translator
from keltis.record import GameRecord
from keltis.replay import replay_file
from keltis.tui.app import CLEAR_SCROLLBACK, EXIT_INTERRUPTED, resume_command, seat_names

from .helpers import ANSI, MANY, AnswerInput, ScriptedInput, TtyIO, play, screens

EN = Translator("en")


def flat(text: str) -> str:
    """``text`` with every run of white space as one space (Rich wraps long lines)."""
    return " ".join(text.split())


def _finished(record_path: Path) -> GameRecord:
    record, lines = GameRecord.load(record_path)
    state = record.replay(lines=lines)
    assert state.over
    assert record.result == state.outcome().to_json()
    return record


# the board game: a whole game of screens, several times as long as the card game
@pytest.mark.parametrize("game", [pytest.param("board", marks=pytest.mark.slow), "cards"])
def test_a_game_against_bots_finishes_and_saves_a_replayable_record(
    tmp_path: Path, game: str
) -> None:
    run = play(
        ["--game", game, "--seats", "human,greedy,random", "--seed", "4"],
        ["1"] * MANY,
        tmp=tmp_path,
    )
    assert run.status == 0
    record = _finished(run.record)
    assert [p.kind for p in record.players] == ["human", "greedy", "random"]
    assert record.seed == 4
    assert EN("msg.saved", path=str(run.record)) in run.output
    # the game is over: no hint to continue it
    assert EN("msg.resume", command=resume_command(run.record)) not in run.output
    end = EN(f"end.{record.result['end_reason']}") if record.result else "?"
    assert end in run.output
    assert "Winner: " in run.output or "Shared victory: " in run.output
    out = io.StringIO()
    replay_file(run.record, as_json=False, out=out)  # `keltis replay` reads it back
    assert f"{len(record.actions):5d}." in out.getvalue()


@pytest.mark.slow
def test_every_human_decision_gets_a_screen_with_its_options(tmp_path: Path) -> None:
    run = play(["--seats", "human,random", "--seed", "8"], ["1"] * MANY, tmp=tmp_path)
    record = _finished(run.record)
    state = record.new_state()
    prompts = 0
    parts = screens(run.output)
    for text in record.actions:
        if state.current_player == 0:
            screen = parts[prompts]
            view = state.view(0)
            for number, action in enumerate(view.legal, start=1):
                assert re.search(rf"\b{number}\s+{re.escape(str(action))}\s", screen), (
                    number,
                    action,
                )
            prompts += 1
        state.apply_text(text)
    assert prompts == run.output.count("\n> ")


def test_bad_input_reprompts_with_the_reason_and_the_game_goes_on(tmp_path: Path) -> None:
    lines = ["", "xyz", "0", "99", "draw", "wish G5 *5", "1", "1"]
    run = play(["--seats", "human,random", "--seed", "1"], lines, tmp=tmp_path)
    out = run.output
    assert EN("err.empty") in out
    assert EN("err.notation", text="xyz", reason="").rstrip() in out
    assert "not a move: type a card to lay it (G7)" in out
    assert EN("err.number", number=0, count=16) in out or "There is no option 0" in out
    assert "There is no option 99" in out
    assert (
        "That move is not allowed here: B-10: first play a card (lay it or discard it), not draw"
        in " ".join(out.split())
    )
    assert "That move is not allowed here: B-" in out.split("wish G5 *5", 1)[1]
    record, _ = GameRecord.load(run.record)
    assert len(record.actions) >= 2  # "1" then "1" were played after the errors
    state = record.replay()
    assert not state.over
    assert EN("msg.eof") in out


def test_a_refused_move_is_explained_in_the_players_language(tmp_path: Path) -> None:
    run = play(
        ["--seats", "human,random", "--seed", "1", "--lang", "cs"], ["draw", "1"], tmp=tmp_path
    )
    assert (
        "Tento tah tu není dovolen: B-10: nejdřív zahraj kartu (vylož ji, nebo odhoď), ne lízni"
        in " ".join(run.output.split())
    )
    record, _ = GameRecord.load(run.record)
    assert record.actions  # the game went on after the refusal


def test_a_move_can_be_typed_in_notation(tmp_path: Path) -> None:
    first = play(["--seats", "human,random", "--seed", "3"], [], tmp=tmp_path, name="a.json")
    record, _ = GameRecord.load(first.record)
    hand = record.new_state().view(0).hand
    assert hand is not None
    card = CARD_TEXT[hand[0]]
    run = play(
        ["--seats", "human,random", "--seed", "3"], [f"-{card.lower()}", "draw"], tmp=tmp_path
    )
    record, _ = GameRecord.load(run.record)
    assert record.actions[:2] == [f"-{card}", "draw"]


def test_plain_output_has_no_escape_sequences(tmp_path: Path) -> None:
    run = play(["--seats", "human,greedy", "--seed", "2"], ["1"] * 30, tmp=tmp_path)
    assert "G" in run.output
    assert not ANSI.search(run.output)


def test_no_color_on_a_terminal_has_no_escape_sequences(tmp_path: Path) -> None:
    coloured = play(
        ["--seats", "human,greedy", "--seed", "2"], ["1"] * 6, tmp=tmp_path, out=TtyIO()
    )
    assert ANSI.search(coloured.output)  # a terminal does get colours …
    plain = play(
        ["--seats", "human,greedy", "--seed", "2"],
        ["1"] * 6,
        tmp=tmp_path,
        out=TtyIO(),
        env={"NO_COLOR": "1"},
        name="plain.json",
    )
    assert not ANSI.search(plain.output)  # … unless NO_COLOR is set
    dumb = play(
        ["--seats", "human,greedy", "--seed", "2"],
        ["1"] * 6,
        tmp=tmp_path,
        out=TtyIO(),
        env={"TERM": "dumb"},
        name="dumb.json",
    )
    assert not ANSI.search(dumb.output)


def test_ctrl_c_saves_the_record_and_says_how_to_go_on(tmp_path: Path) -> None:
    run = play(
        ["--seats", "human,greedy", "--seed", "5"], ["1", "1", "1"], tmp=tmp_path,
        then=KeyboardInterrupt,
    )  # fmt: skip
    assert run.status == EXIT_INTERRUPTED
    assert EN("msg.interrupted") in run.output
    assert EN("msg.resume", command=resume_command(run.record)) in run.output
    record, _ = GameRecord.load(run.record)
    assert record.result is None
    humans = [a for a, s in zip(record.actions, _actors(record), strict=True) if s == 0]
    assert len(humans) == 3


def _actors(record: GameRecord) -> list[int]:
    state = record.replay()
    return list(state.actors)


def test_end_of_input_saves_the_record(tmp_path: Path) -> None:
    run = play(["--seats", "human,greedy", "--seed", "5"], ["1", "1"], tmp=tmp_path)
    assert run.status == 0
    assert EN("msg.eof") in run.output
    record, _ = GameRecord.load(run.record)
    assert [s for s in _actors(record) if s == 0] == [0, 0]


def test_quit_saves_and_leaves(tmp_path: Path) -> None:
    stdin = ScriptedInput(["1", "quit", "1"])
    run = play(["--seats", "human,greedy", "--seed", "5"], tmp=tmp_path, stdin=stdin)
    assert stdin.read_count == 2
    assert EN("msg.quit") in run.output
    record, _ = GameRecord.load(run.record)
    assert len(record.actions) == 1


@pytest.mark.slow
def test_resume_continues_the_same_game(tmp_path: Path) -> None:
    first = play(["--seats", "human,greedy,random", "--seed", "6"], ["1"] * 7, tmp=tmp_path)
    start, _ = GameRecord.load(first.record)
    assert len(start.actions) >= 7
    assert start.result is None
    second = play(["--resume", str(first.record)], ["1"] * MANY, tmp=tmp_path)
    assert EN("msg.resumed", path=str(first.record), count=len(start.actions)) in second.output
    done = _finished(first.record)  # saved back to the same file
    assert done.actions[: len(start.actions)] == start.actions
    assert done.seed == start.seed
    assert done.players == start.players
    assert len(done.actions) > len(start.actions)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_resumed_game_goes_on_as_an_unbroken_one_would(tmp_path: Path, game: str) -> None:
    """The bots' choices depend on the game's seed and the moves so far, not on when the game
    was resumed: stopping and resuming changes nothing."""
    args = ["--game", game, "--seats", "human,greedy,random,heuristic", "--seed", "12"]
    unbroken = play(args, ["1"] * MANY, tmp=tmp_path, name="unbroken.json")
    first = play(args, ["1"] * 9, tmp=tmp_path, name="broken.json")
    play(["--resume", str(first.record)], ["1"] * MANY, tmp=tmp_path)
    whole = _finished(unbroken.record)
    resumed = _finished(first.record)
    assert resumed.actions == whole.actions
    assert resumed.result == whole.result


@pytest.mark.slow
def test_resume_of_a_finished_game_shows_the_result(tmp_path: Path) -> None:
    first = play(["--seats", "human,random", "--seed", "9"], ["1"] * MANY, tmp=tmp_path)
    again = play(["--resume", str(first.record)], [], tmp=tmp_path)
    assert again.status == 0
    assert "\n> " not in again.output
    assert "Winner: " in again.output or "Shared victory: " in again.output


def test_help_and_redraw_commands(tmp_path: Path) -> None:
    run = play(["--seats", "human,random", "--seed", "1"], ["help", "redraw"], tmp=tmp_path)
    out = run.output
    assert flat(EN("help.board")) in flat(out)
    assert flat(EN("help.input.board")) in flat(out)
    for word in ("help", "redraw", "quit"):
        assert re.search(rf"^\s+{word}\b", out, re.MULTILINE)
    assert out.count(EN("title.board")) == 2  # the screen, then the redrawn screen


@pytest.mark.parametrize("game", ["board", "cards"])
def test_hint_suggests_legal_moves_with_estimates(tmp_path: Path, game: str) -> None:
    run = play(["--game", game, "--seats", "human,random", "--seed", "2"], ["hint"], tmp=tmp_path)
    hints = re.findall(
        r"Suggestion: (\S+(?: \S+){0,2}) \(.*?\) – chance to win (\d+)%", flat(run.output)
    )
    assert 1 <= len(hints) <= 3
    record = GameRecord.load(run.record)[0].replay()
    legal = {str(a) for a in record.legal_actions()}
    for move, win in hints:
        assert move in legal
        assert 0 <= int(win) <= 100


def _hand_line(screen: str) -> str | None:
    found = re.search(r"Your hand: (.*)", screen)
    return found.group(1) if found else None


@pytest.mark.slow
@pytest.mark.parametrize(
    "seats", [["--hotseat", "--players", "2"], ["--seats", "human,greedy,human"]]
)
def test_hot_seat_never_shows_another_humans_hand(tmp_path: Path, seats: list[str]) -> None:
    enter = EN("prompt.enter")
    out = TtyIO()
    stdin = AnswerInput(out, lambda shown: "" if shown.rstrip().endswith(enter) else "1")
    run = play([*seats, "--seed", "12"], tmp=tmp_path, out=out, stdin=stdin, env={"NO_COLOR": "1"})
    record = _finished(run.record)
    humans = {s for s, p in enumerate(record.players) if p.kind == "human"}
    state = record.new_state()
    handovers = run.output.split(EN("msg.handover", name="@").split("@")[0])
    assert len(handovers) > 10  # the human seats alternate
    done = 0
    for part in handovers[1:]:
        seat_shown = int(re.match(r"[^(]*\((\d)\)", part).group(1)) - 1  # type: ignore[union-attr]
        for screen in screens(part)[1:]:  # the first part is the hand-over prompt itself
            hand = _hand_line(screen)
            if hand is None:
                continue  # the final screen (spectator view)
            while state.current_player not in humans:  # the bot's moves since
                state.apply_text(record.actions[done])
                done += 1
            assert state.current_player == seat_shown
            mine = sorted(CARD_TEXT[c] for c in state.hands[seat_shown])
            assert sorted(hand.replace("│", " ").split()) == mine
            state.apply_text(record.actions[done])
            done += 1
    assert all(seat not in humans for seat in _actors(record)[done:])


def test_hot_seat_clears_the_terminal_before_the_hand_over(tmp_path: Path) -> None:
    enter = EN("prompt.enter")
    out = TtyIO()
    stdin = AnswerInput(out, lambda shown: "" if shown.rstrip().endswith(enter) else "1")
    stdin.limit = 12
    play(["--hotseat", "--players", "2", "--seed", "12"], tmp=tmp_path, out=out, stdin=stdin)
    text = out.getvalue()
    first = text.index(EN("msg.handover", name="Player 2 (2)"))
    assert CLEAR_SCROLLBACK in text[:first]
    assert text.rindex(CLEAR_SCROLLBACK, 0, first) > text.index("Your hand")


@pytest.mark.parametrize("lang", ["en", "de", "cs", "sk", "hu", "pl", "es"])
@pytest.mark.parametrize("game", ["board", "cards"])
def test_every_language_renders_a_screen(tmp_path: Path, lang: str, game: str) -> None:
    t = Translator(lang)
    run = play(
        ["--game", game, "--seats", "human,greedy", "--seed", "3", "--lang", lang],
        ["help", "1", "1", "1", "1", "1"],
        tmp=tmp_path,
    )
    out = run.output
    assert t(f"title.{game}") in out
    assert t("screen.last_moves") in out
    assert flat(t(f"help.{game}")) in flat(out)
    assert flat(t(f"help.input.{game}")) in flat(out)
    assert t("msg.eof") in out
    phase = t(f"phase.{game}.play", name=t("name.you") + " (1)")
    assert phase.split(":")[0] in out
    assert not re.search(r"\{\w+(:\w+)?\}", out)  # no template left unfilled
    wide = [line for line in out.splitlines() if len(line) > 80 and str(run.record) not in line]
    assert wide == []  # 80 columns are enough (only a line naming the record may be longer)
    assert not re.search(r"\b(ev|act|phase|screen|players|board|cards|msg|err)\.\w+", out)


def test_language_comes_from_the_environment(tmp_path: Path) -> None:
    run = play(
        ["--seats", "human,greedy", "--seed", "3"], [], tmp=tmp_path, env={"LANG": "pl_PL.UTF-8"}
    )
    assert Translator("pl")("title.board") in run.output


def test_ascii_output_gets_ascii_symbols(tmp_path: Path) -> None:
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii")  # strict: keltis must not crash on it
    play(["--seats", "human,greedy", "--seed", "3"], ["1"], tmp=tmp_path, out=out)
    out.flush()
    text = raw.getvalue().decode("ascii")
    assert EN("title.board").replace("–", "?") in text
    assert "%" in text or "@" in text


def test_list_bots(tmp_path: Path) -> None:
    run = play(["--list-bots"], [], tmp=tmp_path)
    assert run.status == 0
    assert "greedy" in run.output
    assert "random" in run.output
    assert not run.record.exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seats", "human,alien"], "seat 2: unknown bot 'alien'"),
        (["--seats", "human"], "2-4 players"),
        (["--lang", "xx"], "unknown language 'xx'"),
        (["--game", "cards", "--take-back"], "--take-back is for the board game only"),
        (["--resume", "/nonexistent/game.json"], "cannot read"),
    ],
)
def test_bad_options_fail_with_a_clear_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("keltis play: ")
    assert message in err


def test_an_unwritable_record_path_fails_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["play", "--save", str(blocker / "game.json")]) == 2
    assert "keltis play: " in capsys.readouterr().err


def test_level_seats_are_named_by_their_persona() -> None:
    names = seat_names(["human", "easy", "hard", "random"], None, EN)
    assert names == ["You", "Brigid bot 2", "Morrigan bot 3", "Random bot 4"]
    assert seat_names(["hard", "human"], "Ann", Translator("cs")) == ["Bot Morrigan 1", "Ann"]


@pytest.mark.parametrize(
    ("options", "variant"),
    [
        ([], {"no_take_back": True}),
        (["--take-back"], {"no_take_back": False}),
        (["--no-take-back"], {"no_take_back": True}),  # the old switch: now the default
        (["--game", "cards"], {}),
    ],
)
def test_the_record_states_the_take_back_rule(
    tmp_path: Path, options: list[str], variant: dict[str, bool]
) -> None:
    # B-15: no take-back unless --take-back; the record says which, whatever the default.
    run = play(["--seats", "human,greedy", "--seed", "5", *options], ["quit"], tmp=tmp_path)
    assert run.status == 0
    record, _ = GameRecord.load(run.record)
    # records spell out every switch (the turn cap too)
    assert {k: record.variant[k] for k in variant} == variant
    assert "turn_cap" in record.variant
