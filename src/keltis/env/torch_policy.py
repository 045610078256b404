"""A policy network in PyTorch, and :class:`PPOBot`, which plays a saved one in any seat.

``examples/train_ppo.py`` trains the network with masked PPO in the Gymnasium environment
and saves it with :func:`save_policy`; :class:`PPOBot` loads the file and plays it wherever a
bot spec goes (``docs/rl.md``)::

    keltis arena 'learned=keltis.env.torch_policy:PPOBot:path=ppo-cards.pt' random greedy \\
        --game cards
    keltis arena learned=ppo-cards.pt random greedy --game cards      # the same, by suffix

The network is a multilayer perceptron over the observation (:mod:`keltis.env.encode`) with
one logit per action id of the game (124 or 500); illegal actions are masked out before the
softmax, so the policy only ever picks a legal action. Only this module (and the training script)
imports torch: the rest of :mod:`keltis.env` needs numpy only. A saved file holds the
policy's weights alone (the value network used in training is not needed to play), with the
game, the number of players, the observation layout's version (checked on load) and the layer
sizes, and reads back with ``torch.load(..., weights_only=True)`` (no pickled code).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from keltis.core.protocol import View
from keltis.env.encode import (
    action_space,
    check_layout,
    encode,
    layout_version,
    observation_size,
)
from keltis.env.learned import LearnedBot

FORMAT = 2
"""Version of the saved file (a ``torch.save`` dict: ``format``, ``game``, ``players``,
``layout`` (the observation layout's version), ``hidden``, ``state_dict``, ``meta``; format 1
had no ``layout``)."""

MASKED = -1e9
"""The logit an illegal action gets: its probability is exactly 0 after the softmax."""


def mlp(inputs: int, hidden: Sequence[int], outputs: int, last_gain: float) -> nn.Sequential:
    """Linear layers with tanh between them, orthogonally initialised (the usual PPO set-up:
    a small ``last_gain`` starts the policy near uniform over the legal actions)."""
    layers: list[nn.Module] = []
    sizes = [inputs, *hidden]
    for a, b in itertools.pairwise(sizes):
        layers += [_init(nn.Linear(a, b), 2**0.5), nn.Tanh()]
    layers.append(_init(nn.Linear(sizes[-1], outputs), last_gain))
    return nn.Sequential(*layers)


def _init(layer: nn.Linear, gain: float) -> nn.Linear:
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


class PolicyNet(nn.Module):
    """Observation → one logit per action of the game (``actions``: its action space's size,
    ``keltis.env.encode.action_space``), illegal ones masked."""

    def __init__(self, inputs: int, actions: int, hidden: Sequence[int] = (128, 128)) -> None:
        super().__init__()
        self.inputs = inputs
        self.actions = actions
        self.hidden = tuple(hidden)
        self.net = mlp(inputs, self.hidden, actions, last_gain=0.01)

    def forward(self, observation: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Masked logits: ``observation`` (batch, inputs) floats, ``mask`` (batch, actions)
        with a nonzero at each legal action."""
        logits: torch.Tensor = self.net(observation)
        return logits.masked_fill(mask == 0, MASKED)


@dataclass
class TorchPolicy:
    """A trained :class:`PolicyNet` for one game and number of players."""

    game: str
    players: int
    net: PolicyNet
    meta: dict[str, Any] = field(default_factory=dict)
    """What the trainer noted (budget, opponents, seed, …); not needed to play."""

    def probabilities(self, view: View) -> torch.Tensor:
        """The policy's probabilities over ``view.legal`` (same order)."""
        space = view.actions
        legal = torch.tensor([space.index(a) for a in view.legal], dtype=torch.long)
        mask = torch.zeros(space.size, dtype=torch.int8)
        mask[legal] = 1
        observation = torch.from_numpy(encode(view))
        with torch.inference_mode():
            logits = self.net(observation[None], mask[None])[0]
            return torch.softmax(logits[legal].double(), dim=0)


def save_policy(
    path: str | Path, net: PolicyNet, game: str, players: int, meta: dict[str, Any] | None = None
) -> None:
    """Write a policy for :func:`load_policy` (and :class:`PPOBot`). ``meta``: JSON-like
    notes kept with it."""
    torch.save(
        {
            "format": FORMAT,
            "game": game,
            "players": players,
            "layout": layout_version(game, players),
            "hidden": list(net.hidden),
            "state_dict": {k: v.detach().clone() for k, v in net.state_dict().items()},
            "meta": json.loads(json.dumps(meta or {})),  # plain types: weights_only reads them
        },
        path,
    )


def load_policy(path: str | Path) -> TorchPolicy:
    """Read a policy written by :func:`save_policy`; a file of another kind, format,
    observation layout (:func:`keltis.env.encode.layout_version`) or size is refused with a
    :class:`ValueError` that says why."""
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such policy file") from None
    except Exception as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ValueError(f"{path}: not a keltis PyTorch policy ({reason})") from None
    if not isinstance(data, dict) or data.get("format") not in (1, FORMAT):
        raise ValueError(f"{path}: not a keltis PyTorch policy of format {FORMAT}")
    game, players = str(data["game"]), int(data["players"])
    check_layout(str(path), game, players, data.get("layout"))
    size, actions = observation_size(game, players), action_space(game).size
    net = PolicyNet(size, actions, [int(h) for h in data["hidden"]])
    try:
        net.load_state_dict(data["state_dict"])
    except RuntimeError as error:
        raise ValueError(
            f"{path}: its weights do not fit the {game} game for {players} players "
            f"(was the observation layout changed?): {error}"
        ) from None
    net.eval()
    return TorchPolicy(game, players, net, dict(data.get("meta", {})))


@cache
def _load(path: str) -> TorchPolicy:
    return load_policy(path)


class PPOBot(LearnedBot):
    """Plays a saved :class:`PolicyNet` (``path``, a ``.pt`` file): its most likely legal
    action, or (``greedy=false``) one sampled from its probabilities with the bot's seed."""

    name: ClassVar[str] = "ppo"
    description: ClassVar[str] = "a neural policy trained with examples/train_ppo.py"
    policy: TorchPolicy

    def __init__(self, seed: int | None = None, path: str = "policy.pt", greedy: bool = True):
        super().__init__(seed, path, greedy)

    @classmethod
    def load(cls, path: str) -> TorchPolicy:
        """The network policy in ``path`` (read once per process)."""
        return _load(path)

    def probabilities(self, view: View) -> npt.NDArray[np.floating]:
        """The network's probabilities over ``view.legal``."""
        p: npt.NDArray[np.floating] = self.policy.probabilities(view).numpy()
        return p
