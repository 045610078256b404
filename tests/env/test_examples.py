"""examples/train_linear.py end to end on a budget of 2 seconds: it trains, saves a policy and its
curve, and the policy plays by its bot spec in ``keltis arena``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="pip install 'keltis[rl]'")
pytest.importorskip("gymnasium", reason="pip install 'keltis[rl]'")

from keltis.cli import main

SCRIPT = Path(__file__).parents[2] / "examples" / "train_linear.py"


@pytest.mark.train
def test_the_example_trains_a_policy_that_plays_in_the_arena(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    policy = tmp_path / "out" / "cards.npz"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--game", "cards", "--episodes", "5000", "--seconds", "2",
         "--every", "10", "--window", "10", "--seed", "3", "--out", str(policy)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert policy.exists()
    curve = json.loads(policy.with_suffix(".json").read_text())
    assert (curve["game"], curve["players"], curve["seed"]) == ("cards", 2, 3)
    assert 0 < curve["episodes"] < 5000  # the 2 s budget stopped it
    assert [p[0] for p in curve["points"]] == list(range(10, curve["episodes"] + 1, 10))
    assert all(0.0 <= p[1] <= 1.0 for p in curve["points"])
    assert f"learned=keltis.env.linear:LinearBot:path={policy}" in done.stdout

    out = tmp_path / "arena"
    spec = f"learned=keltis.env.linear:LinearBot:path={policy}"
    assert main(["arena", "--quiet", spec, "random", "--game", "cards", "--games", "2",
                 "--workers", "1", "--no-plot", "--json", "--out", str(out)]) == 0  # fmt: skip
    results = json.loads(capsys.readouterr().out)
    assert results["complete"]
    learned = next(b for b in results["bots"] if b["name"] == "learned")
    assert learned["seat_games"] == 2
    assert [s["seat_games"] for s in learned["by_seat"]] == [1, 1]
