"""Keltis on JAX: both games as pgx environments, compiled with ``jit`` and ``vmap``.

::

    import jax
    import keltis.jax

    env = keltis.jax.make("cards", 2)                 # a pgx.Env
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    keys = jax.random.split(jax.random.key(0), 1024)
    state = init(keys)                                # 1,024 games at once
    state = step(state, actions)                      # one legal action id per game

A state is a pytree of arrays (``state.observation``, ``legal_action_mask``, ``rewards``,
``terminated``, ``truncated``, ``current_player`` as pgx has them); ``env.observe(state, seat)``
gives any seat's observation, the documented encoding (docs/rl.md) that ``keltis.fast.BatchEnv``
gives for the same seat and position. Randomness comes only from the keys: the deal at
``init``; a step draws nothing at random. ``keltis.jax.diff`` proves each game equal to the
numba kernel decision by decision (docs/performance.md).
"""

from __future__ import annotations

from typing import Any

from keltis.games import get_game


def make(game: str, players: int = 2, **variant: Any) -> Any:
    """``game``'s environment for ``players`` seats, as ``pgx.make`` gives one (a ``pgx.Env``).

    ``variant``: the game's rule switches (``turn_cap``; the board game's ``no_take_back``),
    its options (the board game's ``layout``: a ``keltis.board.layout.Layout`` or its JSON
    form) and ``reward`` (``win``, the default, or ``margin``)."""
    g = get_game(game)
    g.check_players(players)
    reward = variant.pop("reward", "win")
    if reward not in ("win", "margin"):
        raise ValueError(f"reward must be 'win' or 'margin', not {reward!r}")
    options = {name: variant.pop(name) for name in ("layout",) if name in variant}
    switches = g.variant_json(variant or None)
    return g.part("jax").make_env(players, switches, reward, options)
