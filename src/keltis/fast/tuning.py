"""The heuristic's weights as data for the kernels: the medium policy (policy 2) reads them
from a ``float64`` array, so that other weights can be played (and tuned) at kernel speed
without compiling anew.

:func:`tuning_array` lays out a :class:`~keltis.cards.policy.CardTuning` or
:class:`~keltis.board.policy.BoardTuning` as its class's annotated fields in declaration order
(:func:`tuning_fields`: each game's kernel lists them as ``TUNING_FIELDS`` and names their
indices, the ``W_*`` constants of ``keltis.cards.kernel`` and ``keltis.board.kernel``).
:func:`weights` is what the driver passes: that array followed by scratch room for the scores
of one decision. :func:`duel` plays weights against weights in the kernel (the tuner's
matches, :mod:`keltis.fast.tune`): every seat the medium policy, each under its own weights.
"""

from __future__ import annotations

from typing import Final, Protocol

import numpy as np
import numpy.typing as npt

from keltis.bots.weights import tuning_of
from keltis.fast import driver
from keltis.fast.setup import seed_bits, switches
from keltis.games import GAME_NAMES, get_game


class Tuning(Protocol):
    """A game's heuristic weights: the ``DEFAULT_TUNING`` of its policy module is one
    (``keltis.cards.policy.CardTuning``, ``keltis.board.policy.BoardTuning``); its weights
    are float attributes, named by the game's kernel (``TUNING_FIELDS``)."""


Weights = npt.NDArray[np.float64]

#: Scratch room after the weights for one decision: its scores and the numbers every
#: candidate uses (at least each kernel's ``SCRATCH``; a test checks it).
SCORE_ROOM: Final = 512


def default_tuning(game: str, players: int | None = None) -> Tuning:
    """The weights of the medium level for ``game`` with ``players`` seats (its shipped set:
    :mod:`keltis.bots.weights`), or with ``players`` ``None`` the heuristic's own defaults
    (its policy module's ``DEFAULT_TUNING``, which the hard level's playouts use and the tuner
    starts from); ``ValueError`` for an unknown game."""
    if players is not None:
        get_game(game).check_players(players)
        level: Tuning = tuning_of(game, "medium", players)
        return level
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


def weights(game: str, tuning: Tuning | None = None, players: int | None = None) -> Weights:
    """What the driver passes to a kernel's ``choose``: ``tuning``'s array (when ``None``:
    :func:`default_tuning` for ``players``), then :data:`SCORE_ROOM` numbers of scratch room."""
    default = default_tuning(game)
    chosen = default_tuning(game, players) if tuning is None else tuning
    if not isinstance(chosen, type(default)):
        raise TypeError(f"the {game} game's weights are a {type(default).__name__}")
    return np.concatenate([tuning_array(chosen), np.zeros(SCORE_ROOM, dtype=np.float64)])


def from_array(game: str, values: npt.ArrayLike) -> Tuning:
    """The ``game``'s tuning whose weights are ``values`` (in :func:`tuning_fields` order)."""
    fields = tuning_fields(game)
    given = np.asarray(values, dtype=np.float64)
    if given.shape != (len(fields),):
        raise ValueError(f"the {game} game has {len(fields)} weights, not {given.shape}")
    tuning: Tuning = type(default_tuning(game))(
        **{name: float(v) for name, v in zip(fields, given.tolist(), strict=True)}
    )
    return tuning


def duel(
    game: str,
    players: int,
    hero: Tuning | Weights,
    seed: int,
    deals: range,
    *,
    field: Tuning | Weights | None = None,
) -> npt.NDArray[np.float64]:
    """The share of the victory the medium policy under ``hero``'s weights wins against
    ``players - 1`` medium seats under ``field``'s (today's weights when ``None``), one number
    per deal of ``deals`` (games of ``seed``'s kernel stream): the deal is played ``players``
    times, ``hero`` in each seat once (the same cards and draws: paired by seat), and the
    number is the mean of its shares (1 for a win, 1/k for a victory shared by k, else 0).
    Weights are a tuning or its :func:`tuning_array`."""
    get_game(game).check_players(players)
    table = np.stack([_weights_of(game, hero), _weights_of(game, field)])
    n = len(deals)
    game_deals = np.repeat(np.asarray(deals, dtype=np.int64), players)
    rows = np.ones((n * players, players), dtype=np.int32)
    hero_seats = np.tile(np.arange(players), n)
    rows[np.arange(n * players), hero_seats] = 0
    scores = np.zeros((n * players, players), dtype=np.int32)
    driver.duel_batch(
        driver.tag(game), players, seed_bits(seed), game_deals, switches(game, None), rows,
        table, scores,
    )  # fmt: skip
    best = scores.max(axis=1)
    winners = (scores == best[:, None]).sum(axis=1)
    mine = scores[np.arange(n * players), hero_seats]
    shares = np.where(mine == best, 1.0 / winners, 0.0)
    means: npt.NDArray[np.float64] = shares.reshape(n, players).mean(axis=1)
    return means


def _weights_of(game: str, given: Tuning | Weights | None) -> Weights:
    """What the kernel reads for ``given``: :func:`weights` of a tuning (today's for ``None``),
    or an array of the weights followed by the scratch room."""
    if given is None or not isinstance(given, np.ndarray):
        return weights(game, given)
    fields = tuning_fields(game)
    if given.shape != (len(fields),):
        raise ValueError(f"the {game} game has {len(fields)} weights, not {given.shape}")
    return np.concatenate([given.astype(np.float64), np.zeros(SCORE_ROOM, dtype=np.float64)])


__all__ = [
    "SCORE_ROOM",
    "Tuning",
    "default_tuning",
    "duel",
    "from_array",
    "game_of",
    "tuning_array",
    "tuning_fields",
    "weights",
]
