"""``BatchVecEnv``: :class:`~keltis.fast.env.BatchEnv` as a Stable-Baselines3 ``VecEnv`` (needs
``stable-baselines3``; action masking with ``sb3-contrib``'s ``MaskablePPO``)::

    from sb3_contrib import MaskablePPO
    from keltis.fast.sb3 import BatchVecEnv

    env = BatchVecEnv("cards", num_envs=64, players=2, opponents="greedy", seed=0)
    model = MaskablePPO("MlpPolicy", env, seed=0).learn(100_000)

Stable-Baselines3 has its own vector API (``step_async``/``step_wait``, a list of infos, the
finished episode's last observation in ``info["terminal_observation"]``), so the Gymnasium
vector env (:mod:`keltis.fast.vector`) is not what its algorithms take. Here the observation is
the flat vector of :func:`keltis.env.encode.encode` (a ``Box``), the legal actions come from
:meth:`BatchVecEnv.action_masks` (what ``MaskablePPO`` asks every step: ``env_method
("action_masks")``), the reward is the learner's, and a game cut off by the turn cap says so
in ``info["TimeLimit.truncated"]``. The other seats are played inside the kernel (``random``,
``greedy`` or ``medium``); a finished game is dealt again in the same step, as SB3 expects.

``opponents=None`` is self-play: the learner decides for every seat, each observation is the
view of the seat to decide next, and a step's reward is the reward of the seat that made the
decision (``info["seat"]``; ``info["to_move"]``: whose view the returned observation is). A
game's end pays every seat at once: where a game ended, ``info["rewards"]`` holds every seat's
reward (the step's reward is only the deciding seat's).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from keltis.core.protocol import JSON
from keltis.env.encode import action_space as actions_of
from keltis.env.gym_env import observation_space
from keltis.fast.env import BatchEnv


class BatchVecEnv(VecEnv):
    """``num_envs`` games of ``game`` for ``players`` seats, the learner against
    ``opponents`` (see :class:`~keltis.fast.env.BatchEnv` for the options; ``None``:
    self-play, as the module says)."""

    def __init__(
        self,
        game: str,
        num_envs: int,
        players: int = 2,
        opponents: str | Sequence[str] | Sequence[Sequence[str]] | None = "random",
        *,
        seat: int | None = None,
        reward: str = "win",
        variant: JSON | None = None,
        seed: int = 0,
    ) -> None:
        box = observation_space(game, players)["observation"]
        self.render_mode = None  # nothing to draw (SB3 asks before it warns)
        super().__init__(num_envs, box, spaces.Discrete(actions_of(game).size))
        self.game = game
        self.players = players
        self.batch = BatchEnv(
            game, players, num_envs, seed, opponents, seat=seat, reward=reward, variant=variant
        )
        self._actions = np.zeros(num_envs, dtype=np.int64)
        self._next_seed: int | None = None

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Deal the batch from ``seed`` at the next :meth:`reset` (one seed for the batch)."""
        if seed is not None:
            self._next_seed = seed
        return [seed] * self.num_envs

    def reset(self) -> npt.NDArray[np.float32]:
        """Deal a new game in every slot and return the observations (batch × size): from
        the seed asked for, if one was; else the next games of the batch's seed sequence."""
        if self._seeds[0] is not None:  # model.learn(…) / env.seed(…) asked for a seed
            self._next_seed = int(self._seeds[0])
            self._reset_seeds()
        obs, _, _ = self.batch.reset(self._next_seed)
        self._next_seed = None
        return obs.copy()

    def step_async(self, actions: npt.NDArray[np.int64]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(
        self,
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        list[dict[str, Any]],
    ]:
        env = self.batch
        seats = env.to_move.copy() if env.self_play else env.seats.copy()
        obs, _, to_move, rewards, dones = env.step(self._actions)
        reward = rewards[np.arange(self.num_envs), seats].astype(np.float32)
        if env.self_play:
            infos: list[dict[str, Any]] = [
                {"seat": int(seat), "to_move": int(now)}
                for seat, now in zip(seats.tolist(), to_move.tolist(), strict=True)
            ]
        else:
            infos = [{} for _ in range(self.num_envs)]
        for b in np.flatnonzero(dones):
            infos[b]["terminal_observation"] = env.final_obs[b].copy()
            infos[b]["TimeLimit.truncated"] = bool(env.truncated[b])
            infos[b]["scores"] = env.scores[b].tolist()
            infos[b]["rewards"] = env.rewards[b].tolist()
        return obs.copy(), reward, dones.copy(), infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game now (batch × the game's action count, booleans)."""
        return self.batch.masks.astype(bool)

    def close(self) -> None:
        """Nothing to release: the games are arrays of this process."""

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(f"BatchVecEnv has one set of settings for all games: {attr_name}")

    def env_method(
        self, method_name: str, *args: Any, indices: VecEnvIndices = None, **kwargs: Any
    ) -> list[Any]:
        """``action_masks``: each game's mask; other methods are refused."""
        if method_name != "action_masks":
            raise AttributeError(f"BatchVecEnv games have no method {method_name!r}")
        masks = self.action_masks()
        return [masks[i] for i in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def _indices(self, indices: VecEnvIndices) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)
