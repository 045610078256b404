"""A single-agent Gymnasium environment: the learner in one seat, keltis bots in the others.

::

    import gymnasium
    import keltis.env  # registers keltis/Board-v0 and keltis/Cards-v0

    env = gymnasium.make("keltis/Board-v0", opponents=("greedy", "heuristic"))
    obs, info = env.reset(seed=1)
    while True:
        legal = obs["action_mask"].nonzero()[0]
        obs, reward, terminated, truncated, info = env.step(legal[0])
        if terminated or truncated:
            break

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``
(:mod:`keltis.env.encode`); actions are the game's action ids (``Game.actions``: 0-123 in the
board game, 0-499 in the card game), the mask as long as there are ids. The
opponents move through the same :class:`keltis.match.Match` as everywhere else, between the
learner's decisions. The reward is paid when the game ends (see
:data:`keltis.env.common.REWARDS`); a game cut off by the variant's turn cap ends with
``truncated=True`` and the same reward from the standings at the cut, so stalling earns
nothing.

``info`` holds only what the learner may know (:data:`INFO_KEYS`): never the game's seed, from
which the other hands and the draw pile would follow. The seed of the episode's deal stays on
the environment, ``env.unwrapped.seed_of_game``, for whoever runs the training (not the agent).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from keltis.bots import Bot, make_bot
from keltis.bots.base import derive_seed
from keltis.core.protocol import JSON
from keltis.env.common import (
    action_index,
    check_options,
    ended_by_cap,
    episode_seed,
    fallback_seed,
    new_match,
    render_view,
    submit,
    terminal_reward,
)
from keltis.env.encode import action_mask, encode, observation_layout
from keltis.env.encode import action_space as actions_of
from keltis.games import DEFAULT_GAME
from keltis.match import Match
from keltis.record import PlayerInfo

Observation = dict[str, npt.NDArray[Any]]

#: Everything ``info`` may hold, none of it hidden from the learner: ``seat`` (the learner's),
#: ``ply`` (decisions so far in the game), ``outcome`` (once the game is over: scores, winners,
#: end reason) and ``illegal_action`` (the id, after an action that was not legal). Never the
#: game's seed: it determines every hidden card (``seed_of_game`` keeps it, on the environment).
INFO_KEYS: Final = ("seat", "ply", "outcome", "illegal_action")


def observation_space(game: str, players: int, key: str = "observation") -> spaces.Dict:
    """The observation space of both adapters: the encoded view (under ``key``) and the
    legal-action mask (``action_mask``)."""
    low, high = observation_layout(game, players).bounds()
    return spaces.Dict(
        {
            key: spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (actions_of(game).size,), dtype=np.int8),
        }
    )


class KeltisEnv(gym.Env[Observation, np.int64]):
    """Keltis for one learner against keltis bots.

    - ``game``: ``board`` or ``cards``.
    - ``opponents``: a bot spec (every other seat plays it) or one spec per other seat, in
      turn order after the learner (``("greedy", "hard:seconds=0.1")``); any spec
      :func:`keltis.bots.make_bot` reads.
    - ``num_players``: 2-4; by default one more than the opponents given as a sequence, else 2.
    - ``seat``: the learner's seat, or ``None`` (default) for a seat drawn from the episode's
      seed, so the learner plays every position; ``reset(options={"seat": 1})`` fixes one
      episode's seat.
    - ``reward``: ``win`` (1 for a win, 1/k for a victory shared by k, else 0) or ``margin``
      ((own score − best other score) / 100).
    - ``illegal_action``: ``penalty`` (default): an action that is not legal pays
      ``illegal_reward`` and the ``fallback`` bot makes that decision, so every action of the
      action space is accepted (what ``check_env`` and random agents need); ``raise``: an
      :class:`~keltis.env.common.InvalidActionError` naming the legal actions.
    - ``variant``: rule switches (``{"turn_cap": 200}``), as in records.
    - ``render_mode``: ``ansi`` for :meth:`render` to return the learner's view as text.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        opponents: str | Sequence[str] = "random",
        num_players: int | None = None,
        *,
        seat: int | None = None,
        reward: str = "win",
        illegal_action: str = "penalty",
        illegal_reward: float = -1.0,
        fallback: str = "random",
        variant: JSON | None = None,
        render_mode: str | None = None,
    ) -> None:
        specs = [opponents] if isinstance(opponents, str) else list(opponents)
        if num_players is None:
            num_players = 2 if isinstance(opponents, str) else len(specs) + 1
        if isinstance(opponents, str):
            specs = specs * (num_players - 1)
        self._fallback = check_options(game, num_players, reward, illegal_action, fallback)
        if len(specs) != num_players - 1:
            raise ValueError(
                f"{num_players} players need {num_players - 1} opponents, not {len(specs)}"
            )
        for spec in specs:
            make_bot(spec, 0)  # refuse a bad spec now, not at the first reset
        if seat is not None and not 0 <= seat < num_players:
            raise ValueError(f"no seat {seat} in a {num_players}-player game")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.game = game
        self.num_players = num_players
        self.opponents = tuple(specs)
        self.fixed_seat = seat
        self.reward_kind = reward
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.fallback_spec = fallback
        self.variant = variant
        self.render_mode = render_mode
        self.observation_space = observation_space(game, num_players)
        self.action_space = spaces.Discrete(actions_of(game).size)
        self.seat = 0
        self.seed_of_game = 0
        """The seed of the current episode's deal (to reproduce it: never hand it to the
        learner, it determines every hidden card)."""
        self._match: Match | None = None

    @property
    def match(self) -> Match:
        """The match being played (its ``record`` is the episode's game record)."""
        if self._match is None:
            raise RuntimeError("no game yet: call reset() first")
        return self._match

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game (from ``seed``, or the environment's random stream) and let the
        bots move until the learner is to decide."""
        super().reset(seed=seed)
        game_seed = episode_seed(self.np_random)
        seat = self.fixed_seat
        if options and options.get("seat") is not None:
            seat = int(options["seat"])
            if not 0 <= seat < self.num_players:
                raise ValueError(f"no seat {seat} in a {self.num_players}-player game")
        if seat is None:
            seat = int(self.np_random.integers(self.num_players))
        bots: dict[int, Bot] = {}
        players = [PlayerInfo("learner", "agent")] * self.num_players
        for k, spec in enumerate(self.opponents, 1):
            other = (seat + k) % self.num_players
            bots[other] = make_bot(spec, derive_seed(game_seed, "bot", other))
            players[other] = PlayerInfo(spec, spec)
        self.seat = seat
        self.seed_of_game = game_seed
        self._fallback = make_bot(self.fallback_spec, fallback_seed(game_seed))
        self._match = new_match(self.game, game_seed, players, bots, self.variant)
        self._match.play_bots()
        return self._observe(), self._info()

    def step(
        self, action: np.int64
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """The learner's decision (an action id of the game), then the bots' until the learner is to
        decide again or the game ends."""
        match = self.match
        if match.over:
            raise RuntimeError("the game is over: call reset() to deal a new one")
        index = action_index(action)
        reward = 0.0
        info: dict[str, Any] = {}
        if not submit(match, self.seat, index, self.illegal_action, self._fallback):
            reward += self.illegal_reward
            info["illegal_action"] = index
        match.play_bots()
        terminated = truncated = False
        if match.over:
            outcome = match.outcome()
            reward += terminal_reward(outcome, self.seat, self.reward_kind)
            truncated = ended_by_cap(outcome)
            terminated = not truncated
        return self._observe(), reward, terminated, truncated, {**self._info(), **info}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learner now, as booleans (``sb3_contrib``'s masking)."""
        return action_mask(self.match.view(self.seat), dtype=bool)

    def render(self) -> str | None:  # type: ignore[override]
        """The learner's view as text (``render_mode="ansi"``), else ``None``."""
        if self.render_mode != "ansi":
            return None
        if self._match is None:
            return ""
        return render_view(self._match.view(self.seat))

    def _observe(self) -> Observation:
        view = self.match.view(self.seat)
        return {"observation": encode(view), "action_mask": action_mask(view)}

    def _info(self) -> dict[str, Any]:
        match = self.match
        info: dict[str, Any] = {"seat": self.seat, "ply": match.ply}
        if match.over:
            info["outcome"] = match.outcome().to_json()
        return info
