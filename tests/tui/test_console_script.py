"""The real ``keltis play`` console script, with piped input, as a new user would run it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from keltis.record import GameRecord

from .helpers import ANSI, MANY


def _keltis() -> str:
    script = Path(sys.executable).parent / "keltis"
    assert script.exists(), f"the keltis console script is not installed next to {sys.executable}"
    return str(script)


def test_keltis_play_with_piped_input_finishes_and_saves(tmp_path: Path) -> None:
    record_path = tmp_path / "piped.json"
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    result = subprocess.run(
        [_keltis(), "play", "--seats", "human,greedy", "--seed", "21", "--save", str(record_path)],
        input="help\n" + "1\n" * MANY,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert not ANSI.search(result.stdout)  # piped output is plain text
    assert "Keltis – the board game" in result.stdout
    assert f"Game record saved: {record_path}" in result.stdout
    record, lines = GameRecord.load(record_path)
    state = record.replay(lines=lines)
    assert state.over
    assert record.result == state.outcome().to_json()


def test_keltis_play_default_record_place_and_resume_hint(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    result = subprocess.run(
        [_keltis(), "play", "--seed", "2"],
        input="1\n1\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    saved = list((tmp_path / "data" / "keltis" / "games").glob("board-*.json"))
    assert len(saved) == 1
    assert f"keltis play --resume {saved[0]}" in result.stdout
    record, _ = GameRecord.load(saved[0])
    assert [p.kind for p in record.players] == ["human", "medium", "medium"]
    assert len(list(record.actions)) >= 2
