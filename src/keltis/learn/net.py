"""The learned judgement's network, evaluated with numpy (no torch needed to play).

One network per game and player count, a small multilayer perceptron on one seat's
observation (:func:`keltis.env.encode.encode`): two hidden layers with ReLU, then two heads —

* the **prior**: a logit for each action id of the game (124 or 500; a softmax over the legal
  ones is the probability that the player it was trained on would choose each);
* the **value**: the seat's chance to win (a logit) and its expected margin over the best
  other seat (in units of :data:`MARGIN_SCALE` points).

A weights file is a ``.npz`` with the arrays of :data:`ARRAYS` (stored as float16: the
shipped files stay small) and ``meta_*`` entries: the game, the player count, the observation
layout's version (checked on load: :func:`keltis.env.encode.check_layout`) and the recipe
that made it. The shipped weights are ``keltis/learn/weights/<game>-<players>.npz``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from keltis.env.encode import action_space, check_layout, observation_size

#: A margin of this many points is 1.0 at the value head's output.
MARGIN_SCALE: Final = 20.0
#: The weight arrays of a file, input layer first.
ARRAYS: Final = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")

Matrix = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Judgement:
    """The network's outputs for a batch of observations."""

    logits: Matrix
    """(batch, the game's action count) prior logits (meaningful over the legal actions only)."""
    win: npt.NDArray[np.float32]
    """(batch,) chance to win."""
    margin: npt.NDArray[np.float32]
    """(batch,) expected margin in points."""


class ValueNet:
    """A network read from a weights file (:func:`load_net` caches them per path)."""

    def __init__(self, arrays: dict[str, npt.NDArray[np.generic]], source: str) -> None:
        try:
            self.game = str(arrays["meta_game"])
            self.players = int(arrays["meta_players"])
            layout = str(arrays["meta_layout"])
            self.recipe = str(arrays["meta_recipe"]) if "meta_recipe" in arrays else ""
            weights = {name: np.asarray(arrays[name], dtype=np.float32) for name in ARRAYS}
        except KeyError as missing:
            raise ValueError(f"{source} is not a keltis network file (no {missing})") from None
        check_layout(source, self.game, self.players, layout)
        self.w1, self.b1 = weights["w1"], weights["b1"]
        self.w2, self.b2 = weights["w2"], weights["b2"]
        self.wp, self.bp = weights["wp"], weights["bp"]
        self.wv, self.bv = weights["wv"], weights["bv"]
        size = observation_size(self.game, self.players)
        hidden = self.w2.shape[0]
        shapes = {
            "w1": (size, hidden),
            "w2": (hidden, self.w2.shape[1]),
            "wp": (self.w2.shape[1], action_space(self.game).size),
            "wv": (self.w2.shape[1], 2),
        }
        for name, shape in shapes.items():
            if weights[name].shape != shape:
                raise ValueError(f"{source}: {name} has shape {weights[name].shape}, not {shape}")

    def hidden(self, obs: Matrix) -> Matrix:
        """The last hidden layer's activations for a (batch, size) array."""
        h = np.maximum(obs @ self.w1 + self.b1, 0.0)
        out: Matrix = np.maximum(h @ self.w2 + self.b2, 0.0)
        return out

    def value(self, obs: Matrix) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Chance to win and expected margin (points) of each observation's seat (the value
        head alone: cheaper than the whole judgement)."""
        return self._value(self.hidden(obs))

    def __call__(self, obs: Matrix) -> Judgement:
        h = self.hidden(obs)
        win, margin = self._value(h)
        return Judgement(h @ self.wp + self.bp, win, margin)

    def _value(self, h: Matrix) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        v = h @ self.wv + self.bv
        win = 1.0 / (1.0 + np.exp(-np.clip(v[:, 0], -30.0, 30.0)))
        return win.astype(np.float32), (v[:, 1] * MARGIN_SCALE).astype(np.float32)


def save_net(
    path: Path, weights: dict[str, npt.NDArray[np.generic]], meta: dict[str, object]
) -> None:
    """Write ``weights`` (:data:`ARRAYS`, stored as float16) and ``meta`` (``game``,
    ``players``, ``layout``, ``recipe``) to ``path``."""
    missing = [name for name in ARRAYS if name not in weights]
    if missing:
        raise ValueError(f"weights lack {', '.join(missing)}")
    arrays: dict[str, Any] = {name: np.asarray(weights[name], dtype=np.float16) for name in ARRAYS}
    arrays.update({f"meta_{k}": np.array(v) for k, v in meta.items()})
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)


@functools.cache
def load_net(path: str) -> ValueNet:
    """The network in the file at ``path`` (read once per process)."""
    with np.load(path, allow_pickle=False) as data:
        return ValueNet({name: data[name] for name in data.files}, path)


def shipped_path(game: str, players: int) -> Path:
    """Where the shipped weights of ``game`` for ``players`` seats are."""
    return Path(str(resources.files("keltis.learn") / "weights" / f"{game}-{players}.npz"))


def shipped_net(game: str, players: int) -> ValueNet:
    """The shipped network of ``game`` for ``players`` seats."""
    path = shipped_path(game, players)
    if not path.is_file():
        raise FileNotFoundError(f"no shipped network for the {game} game with {players} players")
    return load_net(str(path))
