"""PettingZoo AEC environments: every seat an agent (``player_0`` … in seat order).

Use them through :mod:`keltis.env.keltis_board_v0` and :mod:`keltis.env.keltis_cards_v0`::

    from keltis.env import keltis_cards_v0

    env = keltis_cards_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(
            obs["action_mask"])
        env.step(action)

The agent selected is always the seat whose decision it is: a turn of several decisions (lay,
then draw) is several steps of the same agent. ``observe(agent)`` encodes that agent's own
view only (:mod:`keltis.env.encode`). Rewards are paid when the game ends, to every agent
(:data:`keltis.env.common.REWARDS`); a game cut off by the variant's turn cap truncates every
agent, with the same rewards from the standings at the cut.

Cycles. ``max_cycles`` gives every agent at most that many decisions: an agent that has made
them is truncated (no reward), and the ``fallback`` bot plays its seat from then on while the
others finish theirs, so all agents get the same number of decisions. ``max_steps`` truncates
every agent after that many decisions in all. :func:`parallel_env` is the game as a
PettingZoo parallel environment (``turn_based_aec_to_parallel``: each step every agent sends
an action and that of the agent to decide is played, reported in ``infos[a]["active_agent"]``);
there ``max_cycles`` counts those parallel steps.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]
from pettingzoo.utils.conversions import (  # type: ignore[import-untyped, unused-ignore]
    turn_based_aec_to_parallel,
)
from pettingzoo.utils.wrappers import (  # type: ignore[import-untyped, unused-ignore]
    OrderEnforcingWrapper,
)

from keltis.bots import Bot, make_bot
from keltis.core.protocol import JSON
from keltis.env.common import (
    action_index,
    check_options,
    ended_by_cap,
    episode_seed,
    fallback_seed,
    new_match,
    play_for,
    render_view,
    submit,
    terminal_reward,
)
from keltis.env.encode import action_mask, encode
from keltis.env.encode import action_space as actions_of
from keltis.env.gym_env import Observation, observation_space
from keltis.games import DEFAULT_GAME
from keltis.match import Match
from keltis.record import PlayerInfo


class KeltisAECEnv(AECEnv):  # type: ignore[misc, unused-ignore]
    """One game of Keltis (``game``: ``board`` or ``cards``) for 2-4 agents.

    Options as in :class:`keltis.env.gym_env.KeltisEnv`: ``reward`` (``win`` or ``margin``),
    ``illegal_action`` (``penalty``, the default: the agent gets ``illegal_reward`` and the
    ``fallback`` bot decides instead; or ``raise``), ``variant``; ``max_cycles`` and
    ``max_steps`` (see the module docstring); ``observation_key``: the name of the encoded
    view in the observation dict (``observation``; RLlib's action-masking module reads
    ``observations``, see :mod:`keltis.env.rllib`).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi"],
        "name": "keltis_v0",
        "is_parallelizable": True,
        "render_fps": 4,
    }

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        num_players: int = 2,
        *,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        max_steps: int | None = None,
        reward: str = "win",
        illegal_action: str = "penalty",
        illegal_reward: float = -1.0,
        fallback: str = "random",
        variant: JSON | None = None,
        observation_key: str = "observation",
    ) -> None:
        super().__init__()
        check_options(game, num_players, reward, illegal_action, fallback)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        for name, cap in (("max_cycles", max_cycles), ("max_steps", max_steps)):
            if cap is not None and cap < 1:
                raise ValueError(f"{name} must be at least 1, not {cap}")
        self.metadata = {**self.metadata, "name": f"keltis_{game}_v0"}
        self.game = game
        self.num_players = num_players
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.max_steps = max_steps
        self.reward_kind = reward
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.fallback_spec = fallback
        self.variant = variant
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self.observation_key = observation_key
        self._observation_spaces = {
            agent: observation_space(game, num_players, observation_key)
            for agent in self.possible_agents
        }
        self._action_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Discrete(actions_of(game).size) for agent in self.possible_agents
        }
        self._np_random: np.random.Generator | None = None
        self._match: Match | None = None
        self._fallback: Bot = make_bot(fallback, 0)
        self.seed_of_game = 0

    # -- spaces ------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same :class:`gymnasium.spaces.Dict` object for an agent every time."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(n)``: the game's action ids (``Game.actions``; ``n`` is 124 for the board
        game, 500 for the card game)."""
        return self._action_spaces[agent]

    @property
    def match(self) -> Match:
        """The match being played (its ``record`` is the game's record)."""
        if self._match is None:
            raise RuntimeError("no game yet: call reset() first")
        return self._match

    # -- the AEC protocol ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: from ``seed``, or the next one of the stream a seed started (a
        fresh random stream if none was ever given)."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = episode_seed(self._np_random)
        self.seed_of_game = game_seed
        self._fallback = make_bot(self.fallback_spec, fallback_seed(game_seed))
        agents = [PlayerInfo(agent, "agent") for agent in self.possible_agents]
        self._match = new_match(self.game, game_seed, agents, {}, self.variant)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._decisions = dict.fromkeys(self.agents, 0)
        self._steps = 0
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self._match.to_move]

    def observe(self, agent: str) -> Observation:
        """``agent``'s own view, encoded, with its legal-action mask (all 0 unless it is to
        decide)."""
        view = self.match.view(self.possible_agents.index(agent))
        return {self.observation_key: encode(view), "action_mask": action_mask(view)}

    def step(self, action: Any) -> None:
        """The selected agent's decision (an action id of the game; ``None`` for a finished
        agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to decide: None is only for a finished agent")
        match = self.match
        seat = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for name in self.agents:
            self.infos[name] = {}
        index = action_index(action)
        if not submit(match, seat, index, self.illegal_action, self._fallback):
            self.rewards[agent] += self.illegal_reward
            self.infos[agent]["illegal_action"] = index
        self._decisions[agent] += 1
        self._steps += 1
        if (
            self.max_cycles is not None
            and self._decisions[agent] >= self.max_cycles
            and not match.over  # a decision that ends the game ends it for its agent too
        ):
            self.truncations[agent] = True
        self._play_finished_seats()
        if match.over:
            self._finish()
        elif self.max_steps is not None and self._steps >= self.max_steps:
            for name in self.agents:
                self.truncations[name] = True
        if not match.over:
            self.agent_selection = self.possible_agents[match.to_move]
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | None:
        """The table as a spectator sees it, as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        if self._match is None:
            return ""
        return render_view(self._match.view(None))

    def close(self) -> None:
        """Nothing to release."""

    # -- inside ----------------------------------------------------------------------------

    def _done(self, agent: str) -> bool:
        return agent not in self.agents or self.terminations[agent] or self.truncations[agent]

    def _play_finished_seats(self) -> None:
        """While the seat to decide belongs to an agent truncated by ``max_cycles`` and some
        agent still plays, the fallback bot decides for it."""
        match = self.match
        while not match.over and self._done(self.possible_agents[match.to_move]):
            if all(self._done(agent) for agent in self.agents):
                return
            play_for(match, match.to_move, self._fallback)

    def _finish(self) -> None:
        outcome = self.match.outcome()
        capped = ended_by_cap(outcome)
        for agent in self.agents:
            if self._done(agent):
                continue
            seat = self.possible_agents.index(agent)
            self.rewards[agent] += terminal_reward(outcome, seat, self.reward_kind)
            if capped:
                self.truncations[agent] = True
            else:
                self.terminations[agent] = True
            self.infos[agent]["outcome"] = outcome.to_json()


def make_env(game: str, num_players: int = 2, **options: Any) -> Any:
    """``raw_env`` with PettingZoo's order-enforcing wrapper (what ``env()`` returns)."""
    return OrderEnforcingWrapper(KeltisAECEnv(game, num_players, **options))


def make_parallel(game: str, num_players: int = 2, **options: Any) -> Any:
    """The parallel form; its ``max_cycles`` caps parallel steps (one decision each)."""
    cap = options.pop("max_cycles", None)
    if cap is not None:
        options["max_steps"] = cap
    return turn_based_aec_to_parallel(KeltisAECEnv(game, num_players, **options))


def mask_of(observation: Observation) -> npt.NDArray[Any]:
    """The action mask of an observation dict (a convenience for sampling loops)."""
    return observation["action_mask"]


class EnvFactory(Protocol):
    """``env``, ``raw_env`` or ``parallel_env`` of a PettingZoo module."""

    def __call__(self, num_players: int = 2, render_mode: str | None = None, **options: Any) -> Any:
        """An environment for ``num_players`` (2-4) agents ``player_0`` …"""


def module_functions(game: str) -> tuple[EnvFactory, EnvFactory, EnvFactory]:
    """``env``, ``raw_env`` and ``parallel_env`` of ``game``'s PettingZoo module
    (``keltis.env.keltis_board_v0``, …): the AEC environment wrapped in PettingZoo's order
    enforcing, the same unwrapped, and its parallel form."""

    def env(num_players: int = 2, render_mode: str | None = None, **options: Any) -> Any:
        """The AEC environment for ``num_players`` (2-4) agents ``player_0`` …"""
        return make_env(game, num_players, render_mode=render_mode, **options)

    def raw_env(num_players: int = 2, render_mode: str | None = None, **options: Any) -> Any:
        """The AEC environment without PettingZoo's wrappers."""
        return KeltisAECEnv(game, num_players, render_mode=render_mode, **options)

    def parallel_env(num_players: int = 2, render_mode: str | None = None, **options: Any) -> Any:
        """The parallel form: each step every agent sends an action; the one to decide plays."""
        return make_parallel(game, num_players, render_mode=render_mode, **options)

    return env, raw_env, parallel_env
