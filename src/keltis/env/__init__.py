"""Learning environments for keltis (the ``rl`` extra: ``pip install 'keltis[rl]'``).

- :mod:`keltis.env.encode` — observation tensors and legal-action masks from one seat's view
  (numpy only), shared by every adapter below;
- :mod:`keltis.env.gym_env` — a single-agent Gymnasium environment: the learner in one seat,
  keltis bots in the others; importing ``keltis.env`` registers ``keltis/Board-v0`` and
  ``keltis/Cards-v0`` with Gymnasium;
- :mod:`keltis.env.keltis_board_v0`, :mod:`keltis.env.keltis_cards_v0` — PettingZoo AEC
  environments (``env(num_players=…, render_mode=…)``), every seat an agent;
- :mod:`keltis.env.openspiel` — both games as OpenSpiel Python games (importing it registers
  ``python_keltis_board`` and ``python_keltis_cards`` with ``pyspiel``).

``docs/rl.md`` shows the observation layout and how to train.
"""

from __future__ import annotations

from keltis.env.encode import (
    Field,
    ObservationLayout,
    action_mask,
    action_space,
    encode,
    layout_table,
    layout_version,
    observation_layout,
    observation_size,
)
from keltis.games import GAME_NAMES

GYM_IDS = {name: f"keltis/{name.capitalize()}-v0" for name in GAME_NAMES}
"""The Gymnasium ids registered on ``import keltis.env`` (when Gymnasium is installed)."""

FAST_GYM_IDS = {name: f"keltis/{name.capitalize()}-v1" for name in GAME_NAMES}
"""The ids of the batch simulator's environments (``keltis.fast.vector``: needs numba when
made): ``gymnasium.make`` gives one game (``FastEnv``), ``gymnasium.make_vec`` with
``vectorization_mode="vector_entry_point"`` the batch (``BatchVectorEnv``)."""


def _register_gymnasium() -> None:
    try:
        import gymnasium
    except ImportError:  # the encoder needs numpy only
        return
    for game, env_id in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id, entry_point="keltis.env.gym_env:KeltisEnv", kwargs={"game": game}
            )
    for game, env_id in FAST_GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="keltis.fast.vector:FastEnv",
                vector_entry_point="keltis.fast.vector:BatchVectorEnv",
                kwargs={"game": game},
            )


_register_gymnasium()

__all__ = [
    "FAST_GYM_IDS",
    "GYM_IDS",
    "Field",
    "ObservationLayout",
    "action_mask",
    "action_space",
    "encode",
    "layout_table",
    "layout_version",
    "observation_layout",
    "observation_size",
]
