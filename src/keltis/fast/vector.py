"""``BatchVectorEnv``: :class:`~keltis.fast.env.BatchEnv` as a ``gymnasium.vector.VectorEnv``
(needs Gymnasium: ``pip install 'keltis[rl,fast]'``).

It is what ``gymnasium.vector.SyncVectorEnv`` over ``keltis/Cards-v0`` or ``keltis/Board-v0``
environments gives a training loop (CleanRL-style scripts, Stable-Baselines3 through a VecEnv
adapter), at the batch's speed: observations ``{"observation": (n, size) float32,
"action_mask": (n, 536) int8}``, one dense action id per environment, the learner's reward,
``terminated`` and ``truncated`` (the turn cap). The other seats are played inside the kernel
(``random``, ``greedy`` or ``medium``, by seat or by environment); self-play has no single
learner and is not offered here (use ``BatchEnv``).

A finished game is dealt again in the same step (``AutoresetMode.SAME_STEP``): the step
returns the new game's observation, and ``infos["final_obs"]`` / ``infos["final_info"]`` the
finished one's last observation (its ``action_mask`` all zero: nothing is legal after the
end) and ``seat``, ``scores``, ``win_share`` (1 for a win, 1/k for a victory shared by k),
with the masks ``infos["_final_obs"]``, ``infos["_final_info"]`` saying which environments
they concern.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from keltis.core.actions import NUM_ACTIONS
from keltis.core.protocol import JSON
from keltis.env.gym_env import observation_space
from keltis.fast.env import BatchEnv

Observation = dict[str, npt.NDArray[Any]]


class BatchVectorEnv(gym.vector.VectorEnv[Observation, npt.NDArray[np.int64], Any]):
    """``num_envs`` games of ``game`` for ``players`` seats, the learner against
    ``opponents`` (see :class:`~keltis.fast.env.BatchEnv` for the options)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        num_envs: int,
        players: int = 2,
        opponents: str | Sequence[str] | Sequence[Sequence[str]] = "random",
        *,
        seat: int | None = None,
        reward: str = "win",
        variant: JSON | None = None,
        seed: int = 0,
    ) -> None:
        self.num_envs = num_envs
        self.game = game
        self.players = players
        self.batch = BatchEnv(
            game, players, num_envs, seed, opponents, seat=seat, reward=reward, variant=variant
        )
        self.single_observation_space = observation_space(game, players)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game in every environment: from ``seed`` (an int, the batch's seed) when
        given; without one, the next games of the batch's seed sequence (never a deal played
        before, as ``SyncVectorEnv`` deals new games)."""
        if seed is not None and not isinstance(seed, int):
            raise TypeError("BatchVectorEnv takes one seed for the whole batch")
        obs, masks, _ = self.batch.reset(seed)
        return self._observe(obs, masks), {"seat": self.batch.seats.copy()}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Observation,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One learner decision per environment."""
        env = self.batch
        seats = env.seats.copy()
        obs, masks, _, rewards, dones = env.step(np.asarray(actions))
        reward = rewards[np.arange(self.num_envs), seats].copy()
        truncated = env.truncated.copy()
        terminated = dones & ~truncated
        infos: dict[str, Any] = {"seat": env.seats.copy()}
        if dones.any():
            ended = dones.copy()
            scores = env.scores
            best = scores.max(axis=1, keepdims=True)
            winners = (scores == best).sum(axis=1)
            mine = scores[np.arange(self.num_envs), seats]
            infos["final_obs"] = {
                "observation": env.final_obs.copy(),
                "action_mask": np.zeros((self.num_envs, NUM_ACTIONS), dtype=np.int8),
            }
            infos["_final_obs"] = ended
            infos["final_info"] = {
                "seat": seats,
                "scores": scores.copy(),
                "win_share": np.where(mine == best[:, 0], 1.0 / winners, 0.0),
                "_seat": ended,
                "_scores": ended,
                "_win_share": ended,
            }
            infos["_final_info"] = ended
        return self._observe(obs, masks), reward, terminated, truncated, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (``sb3_contrib``'s masking)."""
        return self.batch.masks.astype(bool)

    @staticmethod
    def _observe(obs: npt.NDArray[np.float32], masks: npt.NDArray[np.int8]) -> Observation:
        return {"observation": obs.copy(), "action_mask": masks.copy()}
