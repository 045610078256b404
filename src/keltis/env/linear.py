"""The smallest learned player: a linear softmax policy over the observation, trained by
REINFORCE against keltis bots in the Gymnasium environment — numpy only, a minute of CPU.

It exists to show the whole path, from environment to a trained policy playing in
``keltis arena``, in five minutes (``docs/rl.md``); it is not a strong player (the card
game: it beats ``random`` after a few hundred games; the board game needs more than a linear
policy). ::

    python -m keltis.env.linear --game cards --episodes 400 --out cards-linear.npz
    keltis arena 'linear=keltis.env.linear:LinearBot:path=cards-linear.npz' random \\
        --game cards --games 100

Logits are ``W @ observation + b`` over the game's action ids (124 or 500); illegal actions
are masked out before the softmax. :class:`LinearBot` plays a saved policy from any seat
(observations are from the seat's own chair).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from keltis.core.protocol import View
from keltis.env.encode import (
    Array,
    action_space,
    check_layout,
    encode,
    layout_version,
    observation_size,
)
from keltis.env.learned import LearnedBot
from keltis.games import GAME_NAMES

FORMAT = 2
"""Version of the saved file (an ``.npz`` with ``weights``, ``bias``, ``game``, ``players``
and ``layout``, the observation layout's version; format 1 had no ``layout``)."""


@dataclass
class LinearPolicy:
    """Weights ``(actions, observation size)`` and biases ``(actions,)`` for one game and player
    count, ``actions`` the size of the game's action space (``keltis.env.encode.action_space``)."""

    game: str
    players: int
    weights: npt.NDArray[np.float32]
    bias: npt.NDArray[np.float32]

    @classmethod
    def zeros(cls, game: str, players: int) -> LinearPolicy:
        """The uniform policy (every legal action equally likely)."""
        size, actions = observation_size(game, players), action_space(game).size
        return cls(
            game,
            players,
            np.zeros((actions, size), dtype=np.float32),
            np.zeros(actions, dtype=np.float32),
        )

    def probabilities(
        self, observation: Array, legal: npt.NDArray[np.intp]
    ) -> npt.NDArray[np.float64]:
        """The softmax over the ``legal`` action ids (same order)."""
        logits = (self.weights[legal] @ observation + self.bias[legal]).astype(np.float64)
        logits -= logits.max()
        odds = np.exp(logits)
        return odds / odds.sum()  # type: ignore[no-any-return]

    def save(self, path: str | Path) -> None:
        """Write the policy to an ``.npz`` file, with the version of the observation layout
        it reads (:func:`keltis.env.encode.layout_version`)."""
        np.savez_compressed(
            path,
            format=FORMAT,
            game=self.game,
            players=self.players,
            layout=layout_version(self.game, self.players),
            weights=self.weights,
            bias=self.bias,
        )

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicy:
        """Read a policy written by :meth:`save`; one saved for another observation layout
        than this keltis's (or before layouts had versions) is refused with a
        :class:`ValueError` that says so."""
        with np.load(path) as data:
            if "format" not in data or int(data["format"]) not in (1, FORMAT):
                raise ValueError(f"{path}: not a keltis linear policy of format {FORMAT}")
            layout = str(data["layout"]) if "layout" in data else None
            check_layout(str(path), str(data["game"]), int(data["players"]), layout)
            policy = cls(
                str(data["game"]),
                int(data["players"]),
                data["weights"].astype(np.float32),
                data["bias"].astype(np.float32),
            )
        expected = (action_space(policy.game).size, observation_size(policy.game, policy.players))
        if policy.weights.shape != expected:
            raise ValueError(
                f"{path}: weights of shape {policy.weights.shape}, the {policy.game} game for "
                f"{policy.players} players needs {expected} (was the observation layout changed?)"
            )
        return policy


def train(
    game: str = "cards",
    opponents: str | Sequence[str] = "random",
    num_players: int = 2,
    *,
    episodes: int = 400,
    learning_rate: float = 0.05,
    seed: int = 0,
    progress: Callable[[int, float], None] | None = None,
    report_every: int = 100,
    seconds: float | None = None,
) -> LinearPolicy:
    """REINFORCE with a running-mean baseline in :class:`~keltis.env.gym_env.KeltisEnv`
    (``reward="margin"``, the learner's seat drawn per game); ``progress(episode, win
    rate of the last report_every games)`` is called every ``report_every`` episodes.
    ``seconds``: stop after the first game that ends past this much wall time, if that
    comes before ``episodes`` games (a budget in time is not reproducible: the same seed
    then trains on as many games as the machine manages)."""
    from keltis.env.gym_env import KeltisEnv  # here: Gymnasium is needed for training only

    env = KeltisEnv(game, opponents, num_players, reward="margin", illegal_action="raise")
    policy = LinearPolicy.zeros(game, num_players)
    rng = np.random.default_rng(seed)
    baseline = 0.0
    wins: list[float] = []
    deadline = None if seconds is None else time.perf_counter() + seconds
    for episode in range(episodes):
        obs, info = env.reset(seed=seed * 1_000_003 + episode)
        steps: list[tuple[Array, npt.NDArray[np.intp], npt.NDArray[np.float64], int]] = []
        while True:
            legal = np.flatnonzero(obs["action_mask"])
            p = policy.probabilities(obs["observation"], legal)
            choice = int(rng.choice(len(legal), p=p))
            steps.append((obs["observation"], legal, p, choice))
            obs, reward, terminated, truncated, info = env.step(np.int64(legal[choice]))
            if terminated or truncated:
                break
        advantage = float(reward) - baseline
        baseline += 0.05 * (float(reward) - baseline)
        for x, legal, p, choice in steps:
            grad = -p
            grad[choice] += 1.0
            step = (learning_rate * advantage * grad).astype(np.float32)
            policy.weights[legal] += np.outer(step, x)
            policy.bias[legal] += step
        outcome = info["outcome"]
        won = info["seat"] in outcome["winners"]
        wins.append(1.0 / len(outcome["winners"]) if won else 0.0)
        if progress is not None and (episode + 1) % report_every == 0:
            progress(episode + 1, float(np.mean(wins[-report_every:])))
        if deadline is not None and time.perf_counter() >= deadline:
            break
    return policy


@cache
def _load(path: str) -> LinearPolicy:
    return LinearPolicy.load(path)


class LinearBot(LearnedBot):
    """Plays a saved :class:`LinearPolicy` (``path``): its most likely legal action, or
    (``greedy=false``) one sampled from its probabilities."""

    name: ClassVar[str] = "linear"
    description: ClassVar[str] = "a linear policy trained with keltis.env.linear"
    policy: LinearPolicy

    def __init__(self, seed: int | None = None, path: str = "policy.npz", greedy: bool = True):
        super().__init__(seed, path, greedy)

    @classmethod
    def load(cls, path: str) -> LinearPolicy:
        """The linear policy in ``path`` (read once per process)."""
        return _load(path)

    def probabilities(self, view: View) -> npt.NDArray[np.floating]:
        """The softmax of the policy's logits over ``view.legal``."""
        legal = np.array([view.actions.index(a) for a in view.legal], dtype=np.intp)
        return self.policy.probabilities(encode(view), legal)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m keltis.env.linear``: train a linear policy and save it."""
    parser = argparse.ArgumentParser(
        prog="python -m keltis.env.linear",
        description="Train a linear policy against keltis bots (REINFORCE) and save it.",
    )
    parser.add_argument("--game", choices=GAME_NAMES, default="cards")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="random", help="bot spec of the other seats")
    parser.add_argument("--episodes", type=int, default=400)
    parser.add_argument("--learning-rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="policy.npz")
    args = parser.parse_args(argv)
    start = time.perf_counter()

    def report(episode: int, rate: float) -> None:
        seconds = time.perf_counter() - start
        print(f"{episode:6d} games  win rate (last 100) {rate:5.0%}  {seconds:5.0f} s", flush=True)

    policy = train(
        args.game,
        args.opponents,
        args.players,
        episodes=args.episodes,
        learning_rate=args.learning_rate,
        seed=args.seed,
        progress=report,
    )
    policy.save(args.out)
    print(
        f"saved {args.out}: play it with the bot spec 'keltis.env.linear:LinearBot:path={args.out}'"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
