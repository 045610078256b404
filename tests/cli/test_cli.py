"""The `keltis` command: replay (text and JSON), bench, and errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from keltis.bots import make_bot
from keltis.cli import main
from keltis.record import GameRecord, PlayerInfo


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    record = GameRecord.start(
        "board", [PlayerInfo("Ann", "greedy"), PlayerInfo("Bob", "random")], seed=11
    )
    state = record.new_state()
    bots = [make_bot("greedy", 1), make_bot("random", 2)]
    while not state.over:
        state.apply(bots[state.current_player].choose(state.view(state.current_player)))
    record.finish(state)
    return record.save(tmp_path / "game.json")


def test_replay_json_has_final_scores(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(record_file), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["over"] is True
    assert data["end_reason"] in {"goal", "deck"}
    assert len(data["scores"]) == 2
    for seat, parts in enumerate(data["breakdown"]):
        points = sum(v for k, v in parts.items() if not k.endswith("_count"))
        assert points == data["scores"][seat]
    best = max(data["scores"])
    assert data["winners"] == [s for s, v in enumerate(data["scores"]) if v == best]
    assert len(data["state"]["hands"]) == 2


def test_replay_text_shows_every_move(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record, _ = GameRecord.load(record_file)
    assert main(["replay", str(record_file)]) == 0
    out = capsys.readouterr().out
    assert f"{len(record.actions):5d}. " in out
    assert "Game over" in out
    assert "winner" in out


def test_replay_of_an_unfinished_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = GameRecord.start("board", [PlayerInfo("A"), PlayerInfo("B")], seed=3)
    state = record.new_state()
    state.apply(state.legal_actions()[0])
    record.finish(state)
    path = record.save(tmp_path / "partial.json")
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["over"] is False
    assert data["end_reason"] is None


def test_bad_record_exits_2_with_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n  "format": "keltis-record",\n  oops\n}\n')
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "keltis replay: line 3: not valid JSON" in err


def test_tampered_result_is_reported(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(record_file.read_text())
    data["result"]["scores"][0] += 1
    record_file.write_text(json.dumps(data, indent=2))
    assert main(["replay", str(record_file), "--json"]) == 2
    assert "does not match its replay" in capsys.readouterr().err
    assert main(["replay", str(record_file), "--json", "--no-check"]) == 0


def test_missing_file_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "/nonexistent/game.json"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_bench_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--game", "board", "--players", "2", "--seconds", "0.2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "board"
    assert data["players"] == 2
    assert data["games"] >= 1
    assert data["games_per_second"] > 0
    assert sum(data["end_reasons"].values()) == data["games"]


@pytest.mark.parametrize("args", [["bench", "--players", "5"], ["bench", "--seconds", "0"]])
def test_bad_options_are_refused(args: list[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(args)
    assert caught.value.code == 2


def test_console_script_runs(record_file: Path) -> None:
    keltis = Path(sys.executable).parent / "keltis"
    result = subprocess.run(
        [str(keltis), "replay", str(record_file), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["over"] is True
