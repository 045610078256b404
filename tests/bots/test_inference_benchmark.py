"""benchmarks/inference.py: its measurement on a small game, and its command line."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "inference.py"


@pytest.fixture(scope="module")
def inference() -> ModuleType:
    spec = importlib.util.spec_from_file_location("inference_benchmark", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_setting_is_measured_on_the_same_decisions(inference: ModuleType) -> None:
    rows = inference.measure(2, 1, 3, [None, (0.1, 16)], 5000)
    plain, inferred = rows
    assert (plain["temperature"], plain["samples"], plain["gain"]) == (None, 1, 1.0)
    assert (inferred["temperature"], inferred["samples"]) == (0.1, 16)
    assert plain["decisions"] == inferred["decisions"] > 20
    assert 5 < plain["hidden"] == inferred["hidden"] <= 8
    assert 0 < plain["right"] < plain["hidden"]
    assert inferred["gain"] == pytest.approx(inferred["right"] / plain["right"], abs=0.01)
    assert inferred["ms_per_deal"] > plain["ms_per_deal"]


def test_the_command_prints_and_writes_json_lines(tmp_path: Path) -> None:
    out = tmp_path / "inference.json"
    done = subprocess.run(
        [
            *(sys.executable, str(SCRIPT), "--players", "3", "--games", "1", "--deals", "1"),
            *("--settings", "0.5:2", "--out", str(out)),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["samples"] for row in printed] == [1, 2]
    assert all(row["players"] == 3 for row in printed)
    assert json.loads(out.read_text()) == printed
