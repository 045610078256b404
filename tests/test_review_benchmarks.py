"""benchmarks/review_calibration.py and benchmarks/review_speed.py: the calibration's
statistics on hand-made input, a tiny run of each, and the calibration run resuming."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from keltis import review as reviews
from keltis.record import GameRecord

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
#: A review budget small enough for a test.
TINY = "iterations=16,width=1,luck_playouts=2"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"{name}_benchmark", BENCHMARKS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def calibration() -> ModuleType:
    return load("review_calibration")


@pytest.fixture(scope="module")
def speed() -> ModuleType:
    return load("review_speed")


def test_the_brier_score_and_the_reliability_table_by_hand(calibration: ModuleType) -> None:
    # Two games: predictions 0.05, 0.15 and 0.95; outcomes a loss, a loss and a win...
    one = [(0.05, 0.0), (0.95, 1.0)]
    # ...and predictions 0.15 (a shared victory of two: 0.5) and 0.95 (a loss).
    two = [(0.15, 0.5), (0.95, 0.0)]
    pairs = one + two
    assert calibration.brier(pairs) == pytest.approx((0.05**2 + 0.05**2 + 0.35**2 + 0.95**2) / 4)
    table = calibration.reliability([one, two], resamples=200)
    assert [row["bin"] for row in table] == [[0.0, 0.1], [0.1, 0.2], [0.9, 1.0]]
    assert [row["count"] for row in table] == [1, 1, 2]
    assert [row["games"] for row in table] == [1, 1, 2]
    assert [row["mean_predicted"] for row in table] == [0.05, 0.15, 0.95]
    assert [row["observed"] for row in table] == [0.0, 0.5, 0.5]
    # One game in a bin: every resample that has the bin sees that game's rate.
    assert table[0]["observed_ci95"] == [0.0, 0.0]
    assert table[1]["observed_ci95"] == [0.5, 0.5]
    # Two games, one a win and one a loss in the bin: resamples give 0, 0.5 or 1.
    assert table[2]["observed_ci95"] == [0.0, 1.0]


def test_a_prediction_of_one_falls_in_the_last_bin(calibration: ModuleType) -> None:
    assert calibration.bin_of(1.0) == calibration.bin_of(0.9) == calibration.BINS - 1
    assert calibration.bin_of(0.0) == 0
    assert calibration.bin_of(0.1) == 1


def test_the_bootstrap_resamples_whole_games(calibration: ModuleType) -> None:
    # Identical games: whatever the resample, the Brier score is the same.
    game = [(0.2, 0.0), (0.7, 1.0)]
    score = calibration.brier(game)
    assert calibration.bootstrap_games([game, game, game], calibration.brier, 100) == [
        round(score, 4),
        round(score, 4),
    ]
    # A perfect game and a hopeless one: the interval spans from one to the other.
    perfect, hopeless = [(1.0, 1.0)] * 5, [(1.0, 0.0)] * 5
    low, high = calibration.bootstrap_games([perfect, hopeless], calibration.brier, 400)
    assert low == 0.0
    assert high == 1.0
    assert calibration.bootstrap_games([perfect], calibration.brier, 100) is None


def test_the_summary_compares_with_the_base_rate(calibration: ModuleType) -> None:
    rows = [
        {
            "players": 4,
            "play_cpu": 2.0,
            "positions": [
                {"best": 0.9, "played": 0.8, "outcome": 1.0, "cpu": 0.5},
                {"best": 0.1, "played": 0.1, "outcome": 0.0, "cpu": 0.3},
            ],
        },
        {
            "players": 4,
            "play_cpu": 4.0,
            "positions": [{"best": 0.2, "played": 0.2, "outcome": 0.0, "cpu": 0.4}],
        },
    ]
    summary = calibration.summarise("board-4p", rows, resamples=50)
    assert (summary["games"], summary["positions"]) == (2, 3)
    assert summary["brier"] == pytest.approx((0.01 + 0.01 + 0.04) / 3, abs=1e-4)
    # The base rate predicts 1/4 everywhere.
    assert summary["brier_base_rate"] == pytest.approx((0.75**2 + 0.25**2 * 2) / 3, abs=1e-4)
    assert summary["skill"] == pytest.approx(1 - 0.02 / 0.2292, abs=1e-3)
    assert summary["brier_played"] == pytest.approx((0.04 + 0.01 + 0.04) / 3, abs=1e-4)
    assert summary["mean_predicted"] == 0.4
    assert summary["mean_outcome"] == pytest.approx(1 / 3, abs=1e-4)
    assert summary["cpu_s_per_position"] == 0.4
    assert summary["cpu_s_per_game_played"] == 3.0


def test_decisions_are_chosen_evenly_over_the_game(calibration: ModuleType) -> None:
    decisions = list(range(0, 200, 2))
    chosen = calibration.chosen_decisions(decisions, 10, seed=410001)
    assert len(chosen) == 10
    assert set(chosen) <= set(decisions)
    assert chosen == sorted(chosen)
    assert chosen[0] < 20  # from the opening...
    assert chosen[-1] >= 180  # ...to the end
    assert calibration.chosen_decisions([3, 5], 10, seed=1) == [3, 5]


def test_a_shared_victory_counts_in_part(calibration: ModuleType) -> None:
    assert calibration.outcome_shares([1, 3], 4) == [0.0, 0.5, 0.0, 0.5]
    assert calibration.outcome_shares([0], 2) == [1.0, 0.0]


def test_a_tiny_calibration_run_writes_its_games_and_resumes(
    calibration: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "calibration.json"
    argv = ["--games", "1", "--per-game", "3", "--spec", "heuristic", "--budget", TINY]
    argv += ["--configs", "board-2p,cards-4p", "--resamples", "20", "--out", str(out)]
    assert calibration.main(argv) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(out.read_text(encoding="utf-8"))
    assert printed["budget"] == reviews.ReviewBudget.parse(TINY).to_json()
    assert [c["config"] for c in printed["configs"]] == ["board-2p", "cards-4p"]
    assert (printed["overall"]["games"], printed["overall"]["positions"]) == (2, 6)
    assert printed["overall"]["reliability"]
    lines = out.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    row = json.loads(lines[0])
    # A prediction is the review's own raw share: the step run again on the kept record agrees,
    # and the summary's calibrated part shows it through the review's map.
    record = GameRecord.from_json(row["record"])
    position = row["positions"][1]
    step = reviews.run_step(
        record, f"decision:{position['index']}", reviews.ReviewBudget.parse(TINY)
    )
    assert (step["seat"], step["best"]["raw"]) == (position["seat"], position["best"])
    shown = reviews.calibrated(position["best"], row["game"], row["players"])
    assert step["best"]["win"] == pytest.approx(shown, abs=1e-4)
    assert printed["calibrated"]["map"]
    assert position["outcome"] == (
        1 / len(row["winners"]) if position["seat"] in row["winners"] else 0.0
    )
    # Run again: every game is there already, so nothing is played.
    assert calibration.main(argv) == 0
    assert len(out.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()) == 2
    # The luck's playouts do not change a decision's step: those games still count...
    luck = [*argv[:-2], "--summary-only", "--out", str(out), "--budget", TINY + "0"]
    assert calibration.main(luck) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["overall"]["games"] == 2
    # ...but another search budget is another measurement: it does not count them.
    assert calibration.main([*argv[:-2], "--summary-only", "--out", str(out), "--budget", ""]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["overall"]["games"] == 0


def test_a_tiny_speed_run_splits_decisions_and_luck(
    speed: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "speed.json"
    assert speed.main(["--seeds", "1", "--budget", TINY, "--out", str(out)]) == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    assert json.loads(capsys.readouterr().out) == document
    assert document["engine"]
    assert [s["game"] for s in document["summaries"]] == ["board", "cards"]
    for row in document["reviews"]:
        assert row["seat"] == row["seed"] % 2
        assert row["decisions"] > 20
        assert row["luck_events"] > 20
        parts = row["decisions_cpu_s"] + row["luck_cpu_s"] + row["setup_cpu_s"]
        assert parts == pytest.approx(row["cpu_s"], abs=0.05)
