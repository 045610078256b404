"""Card-game records and the command line: records round-trip and replay exactly (seeded and
explicit set-ups), ``keltis replay`` and ``keltis replay --json`` work as for the board game,
bad records are refused naming the line and rule, and ``keltis bench --game cards`` runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from keltis.bots import make_bot
from keltis.cards import CardSetup
from keltis.cli import main
from keltis.core.errors import RecordError
from keltis.record import GameRecord, PlayerInfo

from .helpers import snapshot


def _played(record: GameRecord, bots: tuple[str, ...]) -> GameRecord:
    state = record.new_state()
    players = [make_bot(name, seat) for seat, name in enumerate(bots)]
    while not state.over:
        seat = state.current_player
        state.apply(players[seat].choose(state.view(seat)))
    record.finish(state)
    return record


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    record = GameRecord.start(
        "cards",
        [PlayerInfo("Ann", "greedy"), PlayerInfo("Bob", "random"), PlayerInfo("Cy", "random")],
        seed=21,
    )
    return _played(record, ("greedy", "random", "random")).save(tmp_path / "cards.json")


def test_a_saved_record_replays_to_the_same_final_state(record_file: Path) -> None:
    record, lines = GameRecord.load(record_file)
    assert record.game == "cards"
    assert len(lines) == len(record.actions)
    state = record.replay(lines=lines)
    assert state.over
    assert record.result == state.outcome().to_json()
    again = GameRecord.loads(record.dumps())[0].replay()
    assert snapshot(again) == snapshot(state)


def test_an_explicit_set_up_record_replays() -> None:
    setup = CardSetup.from_seed(2, 5).to_json()
    setup["first_player"] = 1
    record = GameRecord.start("cards", [PlayerInfo("A"), PlayerInfo("B")], setup=setup)
    _played(record, ("random", "random"))
    loaded, _ = GameRecord.loads(record.dumps())
    assert loaded.setup == setup
    state = loaded.replay()
    assert state.over
    assert state.actors[0] == 1
    assert state.outcome().to_json() == record.result


def test_replay_json_for_a_card_game(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record_file), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "cards"
    assert data["over"] is True
    assert data["end_reason"] in {"closed", "deck"}
    for seat, parts in enumerate(data["breakdown"]):
        assert set(parts) == {"rows", "point_row", "wishes", "wish_count"}
        points = sum(v for k, v in parts.items() if not k.endswith("_count"))
        assert points == data["scores"][seat]
    best = max(data["scores"])
    assert data["winners"] == [s for s, v in enumerate(data["scores"]) if v == best]
    assert len(data["state"]["hands"]) == 3
    assert "wish_row" in data["state"]


def test_replay_text_for_a_card_game(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, _ = GameRecord.load(record_file)
    assert main(["replay", str(record_file)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("card game, 3 players (seed 21)")
    assert f"{len(record.actions):5d}. " in out
    assert "Game over" in out
    assert "winner" in out
    assert "wish stones held" in out


def test_an_illegal_action_in_a_record_names_line_and_rule(tmp_path: Path) -> None:
    setup = {
        "hands": [
            ["G3", "G5", "G6", "Y1", "Y2", "R1", "R2", "*5"],
            ["B3", "B5", "B6", "P1", "P2", "R3", "R4", "*6"],
        ]
    }
    record = GameRecord.start("cards", [PlayerInfo("A"), PlayerInfo("B")], setup=setup)
    record.actions = ["G5", "draw", "B5", "draw", "G6", "draw", "B6", "draw", "G3"]
    path = record.save(tmp_path / "bad.json")
    loaded, lines = GameRecord.load(path)
    with pytest.raises(RecordError, match=r"action 9: 'G3' by seat 0 is illegal: C-9: .*ascending"):
        loaded.replay(lines=lines)
    assert main(["replay", str(path)]) == 2


def test_actions_after_the_end_are_refused(tmp_path: Path, record_file: Path) -> None:
    record, _ = GameRecord.load(record_file)
    record.actions.append("draw")
    record.result = None
    with pytest.raises(RecordError, match="after the end of the game"):
        record.replay()


def test_bench_for_the_card_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--game", "cards", "--players", "4", "--seconds", "0.2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "cards"
    assert data["games"] >= 1
    assert set(data["end_reasons"]) <= {"closed", "deck"}


def test_play_in_the_terminal_with_bots_only(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    seats = ["--seats", "random,greedy", "--seed", "4"]
    code = main(["play", "--game", "cards", *seats, "--save", str(path)])
    assert code == 0
    record, _ = GameRecord.load(path)
    assert record.game == "cards"
    assert record.replay().over
