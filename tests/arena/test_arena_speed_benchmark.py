"""benchmarks/arena_speed.py: one measurement in this process, its counts and its lines."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "arena_speed.py"


@pytest.fixture(scope="module")
def arena_speed() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))  # it imports benchmarks/speed.py
    try:
        spec = importlib.util.spec_from_file_location("arena_speed_benchmark", SCRIPT)
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return module


@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_measurement_plays_the_same_deals_three_ways(arena_speed: ModuleType, game: str) -> None:
    got = arena_speed.child(game, 3, 4, 2)
    # the tournament and the worker's games are the same games (random bots, the same seeds)
    assert got["game_decisions"] == got["arena_decisions"] > 0
    assert got["paired_bench_decisions"] == got["bench_decisions"] > 0
    for key in ("bench_cpu", "arena_cpu", "paired_bench_cpu", "game_cpu"):
        assert got[key] > 0.0
    assert got["engine"]


def test_the_lines_carry_both_ratios(
    arena_speed: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "arena.json"
    engines = arena_speed.ENGINES
    arena_speed.ENGINES = ("pure",)  # one child process is enough here
    try:
        code = arena_speed.main(
            [
                "--game",
                "cards",
                "--players",
                "2",
                "--games",
                "2",
                "--rounds",
                "1",
                "--out",
                str(out),
            ]
        )
    finally:
        arena_speed.ENGINES = engines
    assert code == 0
    [line] = json.loads(out.read_text(encoding="utf-8"))["lines"]
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == line
    assert (line["game"], line["players"], line["engine"], line["games"]) == ("cards", 2, "pure", 2)
    assert line["ratio"] > 0
    assert line["game_ratio"] > 0
    assert line["build"].startswith("pure Python")
