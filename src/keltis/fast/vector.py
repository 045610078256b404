"""The batch simulator for Gymnasium (needs Gymnasium: ``pip install 'keltis[rl,fast]'``):
``BatchVectorEnv``, :class:`~keltis.fast.env.BatchEnv` as a ``gymnasium.vector.VectorEnv``,
and ``FastEnv``, one game of it as a ``gymnasium.Env``.

``gymnasium.make_vec("keltis/Cards-v1", num_envs=64, vectorization_mode="vector_entry_point")``
gives a ``BatchVectorEnv`` and ``gymnasium.make("keltis/Cards-v1")`` a ``FastEnv`` (likewise
``keltis/Board-v1``; the ``-v0`` ids are the Python engine's :mod:`keltis.env.gym_env`). The
batch is what ``gymnasium.vector.SyncVectorEnv`` over ``FastEnv`` environments gives a training
loop, step for step (a test compares the two in every autoreset mode), at the batch's speed:
observations ``{"observation": (n, size) float32, "action_mask": (n, actions) int8}``, one
action id per environment (legal in its mask: an illegal one raises ``ValueError``), the
learner's reward, ``terminated`` and ``truncated`` (the turn cap). The other seats are played
inside the kernel (``random``, ``greedy`` or ``medium``, by seat or by environment).

``opponents=None`` is self-play: the learner decides for every seat, each observation is the
view of the seat to decide next, and a step's reward is the reward of the seat that made the
decision (the one the action was chosen for: ``infos["seat"]``); ``infos["to_move"]`` says
whose view the returned observation is. A game's end pays every seat at once, so where a game
ended ``infos["rewards"]`` holds every seat's reward: a learner that keeps one trajectory per
seat credits each seat's last decision with it (the reward of a step alone only pays the seat
that ended the game).

Seeds as ``SyncVectorEnv`` gives them: ``reset(seed=s)`` seeds environment ``i`` with
``s + i``, ``reset(seed=[s0, s1, …])`` with ``s_i``; a ``FastEnv`` reset with seed ``s`` deals
the game environment ``i`` deals from ``s`` (``BatchEnv``'s stream ``(s, 0, e)``), so both
deal the same games and the kernel's opponents make the same moves. ``reset()`` without a seed
deals each environment's next game (the first one: from the constructor's ``seed``, as
``BatchEnv`` does).

``autoreset_mode`` (``metadata["autoreset_mode"]``) is Gymnasium's:

- ``NEXT_STEP`` (default): the step that ends a game returns its last observation (its
  ``action_mask`` all zero: nothing is legal after the end), the final reward and
  ``terminated`` or ``truncated``; the next step ignores that environment's action and returns
  the next game's first observation, reward 0, neither flag set.
- ``SAME_STEP``: the step that ends a game returns the next game's first observation; the
  finished one's last observation is in ``infos["final_obs"]`` (an object array, the
  environment's observation where ``infos["_final_obs"]`` is set, else ``None``) and its
  info in ``infos["final_info"]`` (with its ``_`` masks), ``infos["seat"]`` being the new
  game's.
- ``DISABLED``: no game is dealt by a step; ``reset(options={"reset_mask": mask})`` deals
  the games of ``mask`` (a step before that raises ``RuntimeError``).

``infos`` is shaped as Gymnasium's vector envs shape it: ``seat`` (the learner's; in
self-play the deciding seat's, and ``to_move``) for every environment, and where a game ended
``scores`` and ``rewards`` (every seat's) and ``win_share`` (the learner's: 1 for a win, 1/k for
a victory shared by k), each key with its mask ``_key``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from keltis.core.protocol import JSON
from keltis.env.gym_env import observation_space
from keltis.fast.env import BatchEnv

Observation = dict[str, npt.NDArray[Any]]


def _actors(env: BatchEnv) -> npt.NDArray[np.int32]:
    """The seat that decides next in each game: the learner's, or in self-play the seat to
    move."""
    return env.to_move.copy() if env.self_play else env.seats.copy()


def _win_share(scores: npt.NDArray[np.int32], seats: npt.NDArray[np.int32]) -> Any:
    """The learner's share of the victory in each game (1/k for a victory shared by k)."""
    best = scores.max(axis=1)
    winners = (scores == best[:, None]).sum(axis=1)
    mine = scores[np.arange(len(seats)), seats]
    return np.where(mine == best, 1.0 / winners, 0.0)


class FastEnv(gym.Env[Observation, np.int64]):
    """One game of ``game`` for ``players`` seats on the batch simulator, the learner against
    ``opponents`` (see :class:`~keltis.fast.env.BatchEnv` for the options; ``None``: self-play,
    as the module says): what one environment of :class:`BatchVectorEnv` is, and
    ``keltis/Cards-v1``'s (``Board-v1``'s) entry point. ``seed``: the first reset's when it
    is given none (``None``: drawn from Gymnasium's ``np_random``). A step after the game's
    end raises ``RuntimeError``."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int = 2,
        opponents: str | Sequence[str] | None = "random",
        *,
        seat: int | None = None,
        reward: str = "win",
        variant: JSON | None = None,
        seed: int | None = None,
    ) -> None:
        self.game = game
        self.players = players
        self.batch = BatchEnv(
            game, players, 1, seed or 0, opponents, seat=seat, reward=reward, variant=variant
        )
        self._first_seed = seed
        self.observation_space = observation_space(game, players)
        self.action_space = spaces.Discrete(self.batch.actions.size)
        self._started = False
        self._over = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a game: from ``seed`` when given, else the game's next episode."""
        super().reset(seed=seed)
        env = self.batch
        if seed is None and not self._started:
            first = self._first_seed
            seed = int(self.np_random.integers(2**63)) if first is None else first
        if seed is not None:
            env.reset([seed])
        elif not self._over:  # a game cut short: the next episode
            env.reset_games([0])
        # else the step that ended the game has dealt the next episode already
        self._started = True
        self._over = False
        seat = int(_actors(env)[0])
        info = {"seat": seat, "to_move": seat} if env.self_play else {"seat": seat}
        return _observe_one(env), info

    def step(
        self, action: np.int64
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """The learner's decision (an action id of the game), then the other seats' moves until the
        learner is to decide again or the game ends."""
        if self._over:
            raise RuntimeError("the game is over: call reset() to deal a new one")
        env = self.batch
        seat = int(_actors(env)[0])
        env.step(np.array([action]))
        reward = float(env.rewards[0, seat])
        info: dict[str, Any] = {"seat": seat}
        if env.self_play:
            info["to_move"] = int(env.final_seat[0] if env.dones[0] else env.to_move[0])
        if not env.dones[0]:
            return _observe_one(env), reward, False, False, info
        self._over = True
        info["scores"] = env.scores[0].copy()
        info["rewards"] = env.rewards[0].copy()
        info["win_share"] = float(_win_share(env.scores[:1], np.array([seat]))[0])
        truncated = bool(env.truncated[0])
        return _final(env, [True])[0], reward, not truncated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (``sb3_contrib``'s masking)."""
        legal: npt.NDArray[np.bool_] = self.batch.masks[0].astype(np.bool_)
        return legal & (not self._over)


class BatchVectorEnv(gym.vector.VectorEnv[Observation, npt.NDArray[np.int64], Any]):
    """``num_envs`` games of ``game`` for ``players`` seats, the learner against
    ``opponents`` (see :class:`~keltis.fast.env.BatchEnv` for the options; ``None``:
    self-play, as the module says), reset after a game's end as ``autoreset_mode`` says (an
    ``AutoresetMode`` or its value)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

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
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.num_envs = num_envs
        self.game = game
        self.players = players
        self.batch = BatchEnv(
            game, players, num_envs, seed, opponents, seat=seat, reward=reward, variant=variant
        )
        self.single_observation_space = observation_space(game, players)
        self.single_action_space = spaces.Discrete(self.batch.actions.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._started = False
        # the games whose last step ended them: the batch has dealt their next episode
        # already (in the step), which the next step (NEXT_STEP) or reset shows
        self._over = np.zeros(num_envs, dtype=np.bool_)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game in every environment, or in those of ``options["reset_mask"]``
        (a boolean array): environment ``i`` from ``seed + i`` (an int), from ``seed[i]`` (a
        list), else its next game."""
        n = self.num_envs
        seeds: list[int | None]
        if seed is None:
            seeds = [None] * n
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"{n} environments need {n} seeds, not {len(seeds)}")
        which = np.ones(n, dtype=np.bool_)
        if options is not None and "reset_mask" in options:
            mask = options["reset_mask"]
            if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (n,):
                raise ValueError(f"options['reset_mask'] must be a boolean array of shape ({n},)")
            which = mask.copy()
        env = self.batch
        seeded = which & np.array([s is not None for s in seeds])
        if not self._started:
            if not which.all():
                raise RuntimeError("reset every environment first (no reset_mask)")
            env.reset([s for s in seeds if s is not None] if seeded.all() else None)
            if seeded.all():
                seeded[:] = False
        else:
            env.reset_games(which & ~seeded & ~self._over)
        if seeded.any():
            env.reset_games(
                seeded, [s for s, w in zip(seeds, seeded, strict=True) if w and s is not None]
            )
        self._started = True
        self._over[which] = False
        obs = _observe(env)
        info = {"seat": _actors(env).astype(np.int64), "_seat": which}
        if env.self_play:
            info.update(to_move=info["seat"].copy(), _to_move=which.copy())
        if not which.all():
            info["seat"][~which] = 0
            if env.self_play:
                info["to_move"][~which] = 0
            obs = self._last_obs(obs, which)
        self._obs = obs
        return _copy(obs), info

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
        mode = self.autoreset_mode
        if not self._started:
            raise RuntimeError("call reset() first")
        if mode == AutoresetMode.DISABLED and self._over.any():
            raise RuntimeError(
                f"environments {np.flatnonzero(self._over).tolist()} are over: reset them "
                "(options={'reset_mask': mask}) before stepping (autoreset is disabled)"
            )
        n = self.num_envs
        moved = ~self._over if mode == AutoresetMode.NEXT_STEP else np.ones(n, dtype=np.bool_)
        seats = _actors(env)
        if moved.any():
            env.step(np.asarray(actions), moved)
        ended = env.dones & moved
        reward = np.where(moved, env.rewards[np.arange(n), seats], 0.0)
        truncated = env.truncated & ended
        terminated = ended & ~truncated
        infos: dict[str, Any] = {}
        end_info = _end_info(env, ended, seats) if ended.any() else {}
        obs = _observe(env)
        if mode == AutoresetMode.SAME_STEP:
            if ended.any():
                final = np.full(n, None, dtype=object)
                for b, one in zip(np.flatnonzero(ended), _final(env, ended), strict=True):
                    final[b] = one
                infos["final_obs"] = final
                infos["_final_obs"] = ended.copy()
                infos["final_info"] = {
                    **_seat_info(env, ended, np.where(ended, seats, 0), env.final_seat),
                    **end_info,
                }
                infos["_final_info"] = ended.copy()
            # a game that ended shows the new one's reset info
            now = _actors(env)
            infos.update(_seat_info(env, np.ones(n, np.bool_), np.where(ended, now, seats), now))
        else:
            for b, one in zip(np.flatnonzero(ended), _final(env, ended), strict=True):
                obs["observation"][b] = one["observation"]
                obs["action_mask"][b] = one["action_mask"]
            after = np.where(ended, env.final_seat, env.to_move)
            infos.update(_seat_info(env, np.ones(n, np.bool_), seats, after))
            infos.update(end_info)
            self._over = ended.copy()
        self._obs = obs
        return _copy(obs), reward, terminated, truncated, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (``sb3_contrib``'s masking; none where a game
        is over)."""
        masks = self.batch.masks.astype(bool)
        masks[self._over] = False
        return masks

    def _last_obs(self, obs: Observation, which: npt.NDArray[np.bool_]) -> Observation:
        """``obs`` where ``which`` is set, elsewhere the observation returned last (a partial
        reset leaves the other environments' as they were, as ``SyncVectorEnv`` does)."""
        for key, rows in obs.items():
            rows[~which] = self._obs[key][~which]
        return obs


def _seat_info(
    env: BatchEnv, where: npt.NDArray[np.bool_], seats: npt.ArrayLike, to_move: npt.ArrayLike
) -> dict[str, Any]:
    """The infos' ``seat`` (and in self-play ``to_move``) of the environments ``where``."""
    info = {"seat": np.where(where, seats, 0).astype(np.int64), "_seat": where.copy()}
    if env.self_play:
        info["to_move"] = np.where(where, to_move, 0).astype(np.int64)
        info["_to_move"] = where.copy()
    return info


def _end_info(
    env: BatchEnv, ended: npt.NDArray[np.bool_], seats: npt.NDArray[np.int32]
) -> dict[str, Any]:
    """The infos of the games that ended: every seat's scores and rewards, the share of the
    victory of ``seats`` (the learner's, or the deciding seat's)."""
    return {
        "scores": np.where(ended[:, None], env.scores, 0).astype(np.int32),
        "_scores": ended.copy(),
        "rewards": np.where(ended[:, None], env.rewards, 0.0),
        "_rewards": ended.copy(),
        "win_share": np.where(ended, _win_share(env.scores, seats), 0.0),
        "_win_share": ended.copy(),
    }


def _observe(env: BatchEnv) -> Observation:
    """A copy of the batch's observations and masks."""
    return {"observation": np.array(env.obs), "action_mask": np.array(env.masks)}


def _observe_one(env: BatchEnv) -> Observation:
    """A copy of a one-game batch's observation and mask."""
    return {"observation": env.obs[0].copy(), "action_mask": env.masks[0].copy()}


def _final(env: BatchEnv, games: npt.ArrayLike) -> list[Observation]:
    """The last observation of each game of ``games`` (a boolean mask) the last step ended,
    one dict per game: nothing is legal after the end."""
    return [
        {
            "observation": env.final_obs[b].copy(),
            "action_mask": np.zeros(env.actions.size, dtype=np.int8),
        }
        for b in np.flatnonzero(games)
    ]


def _copy(obs: Observation) -> Observation:
    return {key: rows.copy() for key, rows in obs.items()}
