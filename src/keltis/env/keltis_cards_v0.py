"""PettingZoo environment of Keltis: The Card Game (see :mod:`keltis.env.aec`).

``env(num_players=2, render_mode=None, **options)`` is the AEC environment (wrapped in
PettingZoo's order enforcing), ``raw_env`` the same unwrapped and ``parallel_env`` its
parallel form. Options: ``max_cycles``, ``max_steps``, ``reward``, ``illegal_action``,
``illegal_reward``, ``fallback``, ``variant`` (:class:`keltis.env.aec.KeltisAECEnv`).
"""

from __future__ import annotations

from typing import Any

from keltis.env.aec import KeltisAECEnv, make_env, make_parallel

GAME = "cards"


def env(num_players: int = 2, render_mode: str | None = None, **options: Any) -> Any:
    """The AEC environment for ``num_players`` (2-4) agents ``player_0`` …"""
    return make_env(GAME, num_players, render_mode=render_mode, **options)


def raw_env(num_players: int = 2, render_mode: str | None = None, **options: Any) -> KeltisAECEnv:
    """The AEC environment without PettingZoo's wrappers."""
    return KeltisAECEnv(GAME, num_players, render_mode=render_mode, **options)


def parallel_env(num_players: int = 2, render_mode: str | None = None, **options: Any) -> Any:
    """The parallel form: each step every agent sends an action; the one to decide plays."""
    return make_parallel(GAME, num_players, render_mode=render_mode, **options)
