"""Ray RLlib trains on the PettingZoo environment through RLlib's own PettingZoo wrapper: one
PPO iteration of a shared, action-masked policy, on a private local Ray instance.

RLlib's PPO needs torch: ``pip install 'keltis[rl-train]'`` (``make test`` installs it).
"""

from __future__ import annotations

import importlib.util
import math
from typing import Any

import pytest

# Checked without importing them: RLlib and torch take seconds to import, and every test
# worker collects this module.
if importlib.util.find_spec("torch") is None:
    pytest.skip(
        "RLlib's PPO needs torch, which is not installed: pip install 'keltis[rl-train]'",
        allow_module_level=True,
    )
if importlib.util.find_spec("tree") is None:  # dm-tree: the first of RLlib's own dependencies
    pytest.skip(
        "RLlib's dependencies are not installed: pip install 'keltis[rl-train]'",
        allow_module_level=True,
    )
ray: Any = pytest.importorskip("ray", reason="pip install 'keltis[rl-train]'")

from keltis.arena.ray_connect import connect_ray  # noqa: E402
from keltis.env.rllib import POLICY, make_rllib_env, ppo_config  # noqa: E402

# A Ray instance takes 5-25 s to start on a busy 2-core machine; building the algorithm as
# much again.
pytestmark = [pytest.mark.slow, pytest.mark.ray, pytest.mark.train, pytest.mark.timeout(600)]


def test_rllibs_pettingzoo_wrapper_takes_the_environment() -> None:
    env = make_rllib_env("board", {"num_players": 3})
    obs, _ = env.reset(seed=1)
    (agent,) = obs
    assert set(obs[agent]) == {"observations", "action_mask"}
    assert obs[agent]["observations"].shape == (1186,)
    legal = int(obs[agent]["action_mask"].nonzero()[0][0])
    _, _, terminated, truncated, _ = env.step({agent: legal})
    assert not terminated["__all__"]
    assert not truncated["__all__"]


def test_one_ppo_iteration_of_a_shared_masked_policy() -> None:
    """One iteration on games cut at 10 turns, so that some end: the metrics docs/rl.md prints
    are there, one return per seat, and they add up to the constant ``episode_return_mean``
    (the ``win`` reward pays 1 a game in all), which is why the page prints the seats'."""
    started = connect_ray("local", num_cpus=2)
    try:
        config = (
            ppo_config(
                "cards", num_players=2, hidden=(32,), env_options={"variant": {"turn_cap": 10}}
            )
            .env_runners(num_env_runners=0, rollout_fragment_length=100)
            .training(train_batch_size_per_learner=200, minibatch_size=50, num_epochs=1)
        )
        algo = config.build_algo()
        try:
            result = algo.train()
        finally:
            algo.stop()
    finally:
        if started:
            ray.shutdown()
    assert result["training_iteration"] == 1
    assert result["num_env_steps_sampled_lifetime"] >= 200
    loss = result["learners"][POLICY]["total_loss"]
    assert math.isfinite(float(loss))
    runners = result["env_runners"]
    assert runners["num_episodes"] >= 1
    seats = runners["agent_episode_returns_mean"]
    assert set(seats) == {"player_0", "player_1"}
    assert math.isclose(sum(float(r) for r in seats.values()), 1.0)
    assert math.isclose(float(runners["episode_return_mean"]), 1.0)
