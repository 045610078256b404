"""The proof that a game's JAX environment (``keltis.jax``) plays exactly as the numba kernel.

``compare`` plays games in self-play through ``keltis.fast.BatchEnv`` and the JAX environment
side by side, from the same deals (each new deal of the batch env is loaded into the JAX
batch with the game's ``from_kernel``), with the same random legal decision in both at every
step, and counts every difference: the observation of the seat to move, the legal mask and
the seat to move at each decision; at each end the rewards, whether the end was the turn cap,
and the last observation. ``benchmarks/jax_diff.py`` runs it over 10,000 games per game and
number of players and commits the counts (``benchmarks/results/jax-env-diff.json``); the
tests run it over a few hundred.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

import keltis.jax
from keltis.fast import BatchEnv
from keltis.games import get_game
from keltis.jax.common import select

Progress = Callable[[int, int], None]


def _load(module: Any, env: BatchEnv, players: int) -> Any:
    snap = env.snapshot()
    return module.from_kernel(snap.states, snap.extras, players)


@jax.jit
def _put(batch: Any, loaded: Any, games: jax.Array) -> Any:
    """``batch`` with the states where ``games`` is set replaced by ``loaded``'s."""
    return jax.vmap(select)(games, loaded, batch)


class _Tally:
    """Differences counted by kind, with the first few described."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.examples: list[str] = []

    def check(self, kind: str, equal: np.ndarray, at: int) -> None:
        bad = np.flatnonzero(~equal)
        self.counts[kind] = self.counts.get(kind, 0) + int(bad.size)
        if bad.size and len(self.examples) < 10:
            self.examples.append(f"{kind}: game slot {int(bad[0])} at step {at}")


def compare(
    game: str,
    players: int,
    games: int,
    *,
    batch: int = 256,
    seed: int = 0,
    reward: str = "win",
    variant: dict[str, Any] | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play ``games`` finished games in both environments (see the module) and return the
    counts: games, decisions, ends by kind and differences by kind (all 0 when they agree)."""
    module = get_game(game).part("jax")
    numba_env = BatchEnv(game, players, batch, seed, opponents=None, reward=reward, variant=variant)
    jax_env = keltis.jax.make(game, players, reward=reward, **(variant or {}))
    step = jax.jit(jax.vmap(jax_env.step))
    obs, masks, to_move = numba_env.reset()
    state = _load(module, numba_env, players)
    tally = _Tally()
    rng = np.random.default_rng(seed)
    finished = decisions = truncated = 0
    at = 0
    while finished < games:
        tally.check("observation", (np.asarray(state.observation) == obs).all(axis=1), at)
        tally.check("mask", (np.asarray(state.legal_action_mask) == (masks > 0)).all(axis=1), at)
        tally.check("to_move", np.asarray(state.current_player) == to_move, at)
        actions = _random_legal(rng, masks)
        obs, masks, to_move, rewards, dones = numba_env.step(actions)
        state = step(state, jnp.asarray(actions, dtype=jnp.int32))
        at += 1
        decisions += batch
        ended = np.asarray(state.terminated | state.truncated)
        tally.check("end", ended == dones, at)
        tally.check("truncated", np.asarray(state.truncated) == numba_env.truncated, at)
        paid = np.asarray(state.rewards)
        tally.check("rewards", (paid == rewards.astype(np.float32)).all(axis=1), at)
        done = np.flatnonzero(dones)
        if done.size:
            last = np.asarray(state.observation)[done] == numba_env.final_obs[done]
            tally.check("final observation", last.all(axis=1), at)
            finished += int(done.size)
            truncated += int(numba_env.truncated[done].sum())
            state = _put(state, _load(module, numba_env, players), jnp.asarray(dones))
            if progress is not None:
                progress(min(finished, games), games)
    return {
        "game": game,
        "players": players,
        "games": finished,
        "decisions": decisions,
        "truncated": truncated,
        "batch": batch,
        "seed": seed,
        "reward": reward,
        "differences": tally.counts,
        "examples": tally.examples,
    }


def _random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One uniformly drawn legal action id per row of ``masks``."""
    weights = rng.random(masks.shape) * (masks > 0)
    return np.asarray(weights.argmax(axis=1), dtype=np.int64)
