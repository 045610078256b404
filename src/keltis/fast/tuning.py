"""The heuristic's weights as data for the kernels: the medium policy (policy 2) reads them
from a ``float64`` array, so that other weights can be played (and tuned) at kernel speed
without compiling anew.

:func:`tuning_array` lays out a :class:`~keltis.cards.policy.CardTuning` or
:class:`~keltis.board.policy.BoardTuning` as its class's annotated fields in declaration order
(:func:`tuning_fields`); each game's kernel names the indices (``W_*`` constants in
``keltis.cards.kernel`` and ``keltis.board.kernel``). :func:`weights` is what the driver
passes: that array followed by scratch room for the scores of one decision.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from keltis.board.policy import DEFAULT_TUNING as BOARD_DEFAULT
from keltis.board.policy import BoardTuning
from keltis.cards.policy import DEFAULT_TUNING as CARDS_DEFAULT
from keltis.cards.policy import CardTuning

Tuning = CardTuning | BoardTuning
Weights = npt.NDArray[np.float64]

#: Each game's tuning class.
TUNINGS: Final[dict[str, type[CardTuning] | type[BoardTuning]]] = {
    "cards": CardTuning,
    "board": BoardTuning,
}
#: Scratch room after the weights for one decision: its scores and the numbers every
#: candidate uses (at least each kernel's ``SCRATCH``; a test checks it).
SCORE_ROOM: Final = 512


#: The card game's weights in array order: :class:`CardTuning`'s fields as declared.
CARD_FIELDS: Final = (
    "deck_draw_rate", "hand_share", "future_share", "lay_rate", "pair_share", "point_share",
    "gift_next", "gift_other", "deck_value", "open_margin", "close_margin", "known_discard",
    "spread",
)  # fmt: skip
#: The board game's weights in array order: :class:`BoardTuning`'s fields as declared.
BOARD_FIELDS: Final = (
    "deck_draw_rate", "hand_share", "future_share", "lay_rate", "tile_share", "wish_future",
    "clover_value", "big_min", "gift_next", "gift_other", "deck_value", "open_margin",
    "known_discard", "open_future_share",
)  # fmt: skip


def tuning_fields(kind: type[CardTuning] | type[BoardTuning]) -> tuple[str, ...]:
    """The weights of a tuning class, in the order of the array: its annotated fields in
    declaration order (spelt out here: the compiled policy modules keep no annotations; a
    test checks them against the sources)."""
    return CARD_FIELDS if issubclass(kind, CardTuning) else BOARD_FIELDS


def tuning_array(tuning: Tuning) -> Weights:
    """``tuning``'s weights as a ``float64`` array, in :func:`tuning_fields` order."""
    return np.array(
        [float(getattr(tuning, name)) for name in tuning_fields(type(tuning))], dtype=np.float64
    )


def default_tuning(game: str) -> Tuning:
    """The weights of today's medium level for ``game``."""
    if game not in TUNINGS:
        raise ValueError(f"no heuristic weights for a game called {game!r}")
    return CARDS_DEFAULT if game == "cards" else BOARD_DEFAULT


def weights(game: str, tuning: Tuning | None = None) -> Weights:
    """What the driver passes to a kernel's ``choose``: ``tuning``'s array (the default
    tuning's when ``None``), then :data:`SCORE_ROOM` numbers of scratch room."""
    chosen = default_tuning(game) if tuning is None else tuning
    if not isinstance(chosen, TUNINGS[game]):
        raise TypeError(f"the {game} game's weights are a {TUNINGS[game].__name__}")
    return np.concatenate([tuning_array(chosen), np.zeros(SCORE_ROOM, dtype=np.float64)])


__all__ = [
    "BOARD_FIELDS",
    "CARD_FIELDS",
    "SCORE_ROOM",
    "TUNINGS",
    "default_tuning",
    "tuning_array",
    "tuning_fields",
    "weights",
]
