"""keltis.fast.sb3: BatchEnv as a Stable-Baselines3 VecEnv, with sb3-contrib's action masks."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")

from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

from keltis.fast.env import BatchEnv
from keltis.fast.sb3 import BatchVecEnv


@pytest.mark.parametrize("game", ["board", "cards"])
def test_steps_equal_the_batch_envs(game: str) -> None:
    """Observations, masks, rewards, dones and last observations are BatchEnv's, in SB3's
    form (a list of infos with ``terminal_observation``)."""
    vec = BatchVecEnv(game, num_envs=4, players=2, opponents="random", seed=3)
    ref = BatchEnv(game, 2, 4, 3, opponents="random")
    obs = vec.reset()
    ref_obs, ref_masks, _ = ref.reset()
    assert obs.shape == (4, vec.observation_space.shape[0])
    assert np.array_equal(obs, ref_obs)
    assert is_masking_supported(vec)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        masks = get_action_masks(vec)
        assert np.array_equal(masks, ref_masks.astype(bool))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        seats = ref.seats.copy()
        vec.step_async(actions)
        obs, reward, dones, infos = vec.step_wait()
        ref_obs, ref_masks, _, ref_rewards, ref_dones = ref.step(actions)
        assert np.array_equal(obs, ref_obs)
        assert np.array_equal(dones, ref_dones)
        assert np.allclose(reward, ref_rewards[np.arange(4), seats])
        for b in range(4):
            if dones[b]:
                finished += 1
                assert np.array_equal(infos[b]["terminal_observation"], ref.final_obs[b])
                assert infos[b]["TimeLimit.truncated"] is False
            else:
                assert "terminal_observation" not in infos[b]
    assert finished > 0


def test_self_play_pays_the_deciding_seat() -> None:
    """``opponents=None``: the learner decides for every seat; the reward is the deciding
    seat's, the infos say whose decision it was, whose view comes next, and at an end every
    seat's reward."""
    vec = BatchVecEnv("cards", num_envs=3, players=2, opponents=None, seed=5)
    ref = BatchEnv("cards", 2, 3, 5, opponents=None)
    obs = vec.reset()
    ref_obs, _, ref_to_move = ref.reset()
    assert np.array_equal(obs, ref_obs)
    rng = np.random.default_rng(2)
    finished = 0
    for _ in range(300):
        masks = get_action_masks(vec)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        actors = ref_to_move.copy()
        vec.step_async(actions)
        obs, reward, dones, infos = vec.step_wait()
        ref_obs, _, ref_to_move, ref_rewards, ref_dones = ref.step(actions)
        assert np.array_equal(obs, ref_obs)
        assert np.array_equal(dones, ref_dones)
        assert np.allclose(reward, ref_rewards[np.arange(3), actors])
        for b in range(3):
            assert infos[b]["seat"] == actors[b]
            assert infos[b]["to_move"] == ref_to_move[b]
            if dones[b]:
                finished += 1
                assert infos[b]["rewards"] == ref_rewards[b].tolist()
                assert max(infos[b]["rewards"]) > 0
            else:
                assert "rewards" not in infos[b]
    assert finished > 0


def test_seeded_and_refusing_what_it_cannot_do() -> None:
    vec = BatchVecEnv("cards", num_envs=2, seed=0)
    first = vec.reset()
    vec.seed(0)
    assert np.array_equal(vec.reset(), first)
    vec.seed(1)
    assert not np.array_equal(vec.reset(), first)
    vec.seed(0)
    assert np.array_equal(vec.reset(), first)
    assert not np.array_equal(vec.reset(), first)  # no seed: the sequence's next games
    assert vec.env_is_wrapped(object) == [False, False]
    assert len(vec.get_attr("game", indices=[1])) == 1
    with pytest.raises(AttributeError, match="no method"):
        vec.env_method("render")
    with pytest.raises(AttributeError, match="one set of settings"):
        vec.set_attr("game", "board")


@pytest.mark.train
def test_maskable_ppo_learns_on_it_unchanged() -> None:
    """sb3-contrib's MaskablePPO trains on it as on any VecEnv (a short run: it runs, it
    only ever picks legal actions, and it is reproducible from its seed)."""
    from sb3_contrib import MaskablePPO

    def run() -> np.ndarray:
        env = BatchVecEnv("cards", num_envs=8, players=2, opponents="greedy", seed=1)
        model = MaskablePPO("MlpPolicy", env, seed=0, n_steps=32, batch_size=128, n_epochs=1)
        model.learn(512)
        obs = env.reset()
        actions, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        assert env.action_masks()[np.arange(8), actions].all()
        return np.asarray(actions)

    assert np.array_equal(run(), run())
