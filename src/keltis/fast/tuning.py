"""The heuristic's weights as data for the kernels: the medium policy (policy 2) reads them
from a ``float64`` array, so that other weights can be played (and tuned) at kernel speed
without compiling anew.

:func:`tuning_array` lays out a :class:`~keltis.cards.policy.CardTuning` or
:class:`~keltis.board.policy.BoardTuning` as its class's annotated fields in declaration order
(:func:`tuning_fields`: each game's kernel lists them as ``TUNING_FIELDS`` and names their
indices, the ``W_*`` constants of ``keltis.cards.kernel`` and ``keltis.board.kernel``).
:func:`weights` is what the driver passes: that array followed by scratch room for the scores
of one decision.
"""

from __future__ import annotations

from typing import Final, Protocol

import numpy as np
import numpy.typing as npt

from keltis.games import GAME_NAMES, get_game


class Tuning(Protocol):
    """A game's heuristic weights: the ``DEFAULT_TUNING`` of its policy module is one
    (``keltis.cards.policy.CardTuning``, ``keltis.board.policy.BoardTuning``); its weights
    are float attributes, named by the game's kernel (``TUNING_FIELDS``)."""


Weights = npt.NDArray[np.float64]

#: Scratch room after the weights for one decision: its scores and the numbers every
#: candidate uses (at least each kernel's ``SCRATCH``; a test checks it).
SCORE_ROOM: Final = 512


def default_tuning(game: str) -> Tuning:
    """The weights of today's medium level for ``game`` (its policy module's
    ``DEFAULT_TUNING``; ``ValueError`` for an unknown game)."""
    tuning: Tuning = get_game(game).part("policy").DEFAULT_TUNING
    return tuning


def game_of(tuning: Tuning) -> str:
    """The game whose weights ``tuning`` are (``TypeError`` for anything else)."""
    for game in GAME_NAMES:
        if isinstance(tuning, type(default_tuning(game))):
            return game
    raise TypeError(f"{type(tuning).__name__} is no game's heuristic weights")


def tuning_fields(game: str) -> tuple[str, ...]:
    """The weights of ``game``'s heuristic in the order of the array: its kernel's
    ``TUNING_FIELDS`` (its tuning class's annotated fields in declaration order; a test checks
    them against the sources, since the compiled policy modules keep no annotations)."""
    fields: tuple[str, ...] = get_game(game).part("kernel").TUNING_FIELDS
    return fields


def tuning_array(tuning: Tuning) -> Weights:
    """``tuning``'s weights as a ``float64`` array, in :func:`tuning_fields` order."""
    return np.array(
        [float(getattr(tuning, name)) for name in tuning_fields(game_of(tuning))],
        dtype=np.float64,
    )


def weights(game: str, tuning: Tuning | None = None) -> Weights:
    """What the driver passes to a kernel's ``choose``: ``tuning``'s array (the default
    tuning's when ``None``), then :data:`SCORE_ROOM` numbers of scratch room."""
    default = default_tuning(game)
    chosen = default if tuning is None else tuning
    if not isinstance(chosen, type(default)):
        raise TypeError(f"the {game} game's weights are a {type(default).__name__}")
    return np.concatenate([tuning_array(chosen), np.zeros(SCORE_ROOM, dtype=np.float64)])


__all__ = [
    "SCORE_ROOM",
    "Tuning",
    "default_tuning",
    "game_of",
    "tuning_array",
    "tuning_fields",
    "weights",
]
