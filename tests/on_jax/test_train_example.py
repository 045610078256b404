"""examples/train_jax.py in small: three updates of the JAX policy gradient on the card game,
then its evaluation against random seats."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("jax", reason="keltis.jax needs jax: pip install 'keltis[jax]'")
pytest.importorskip("pgx", reason="keltis.jax needs pgx: pip install 'keltis[jax]'")
pytest.importorskip("optax", reason="the example trains with optax: pip install 'keltis[jax]'")

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "train_jax.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_jax_example", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.train
def test_three_updates_train_and_evaluate(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    argv = ["--updates", "3", "--batch", "8", "--steps", "64", "--eval-games", "16"]
    result = _script().main([*argv, "--report", "1", "--out", str(out)])
    assert result["updates"] == 3
    assert result["decisions"] == 3 * 8 * 64
    assert [entry["update"] for entry in result["log"]] == [1, 2, 3]
    for entry in result["log"]:
        assert all(math.isfinite(entry[k]) for k in ("policy", "value", "entropy"))
    # some of the learner's decisions were credited with their game's end by the third update
    assert result["log"][-1]["used"] > 1
    for when in ("before", "after"):
        evaluation = result[when]
        assert evaluation["all_ended"]
        low, high = evaluation["interval"]
        assert 0.0 <= low <= evaluation["share"] <= high <= 1.0
    assert json.loads(out.read_text())["updates"] == 3


def test_the_returns_credit_each_decision_with_its_games_end() -> None:
    import jax.numpy as jnp  # the module-level skip above guards the import

    train = _script()
    # one game slot: a game ends at step 2 (reward 1), the next one does not end in the window
    step = train.Step(
        obs=jnp.zeros((5, 1, 1)),
        mask=jnp.ones((5, 1, 1), bool),
        action=jnp.zeros((5, 1), int),
        learner=jnp.ones((5, 1), bool),
        reward=jnp.array([[0.0], [0.0], [1.0], [0.0], [0.0]]),
        done=jnp.array([[False], [False], [True], [False], [False]]),
    )
    result, ended = train.returns(step)
    assert result[:, 0].tolist() == [1.0, 1.0, 1.0, 0.0, 0.0]
    assert ended[:, 0].tolist() == [True, True, True, False, False]
