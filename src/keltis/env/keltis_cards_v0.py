"""PettingZoo environment of Keltis: The Card Game (see :mod:`keltis.env.aec`).

``env(num_players=2, render_mode=None, **options)`` is the AEC environment (wrapped in
PettingZoo's order enforcing), ``raw_env`` the same unwrapped and ``parallel_env`` its
parallel form. Options: ``max_cycles``, ``max_steps``, ``reward``, ``illegal_action``,
``illegal_reward``, ``fallback``, ``variant`` (:class:`keltis.env.aec.KeltisAECEnv`).
"""

from __future__ import annotations

from keltis.env.aec import module_functions

GAME = "cards"

env, raw_env, parallel_env = module_functions(GAME)
