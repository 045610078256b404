"""The proof that a game's JAX environment (``keltis.jax``) plays exactly as the numba kernel.

``compare`` plays games through ``keltis.fast.BatchEnv`` and the JAX environment side by side,
from the same deals (each new deal of the batch env is loaded into the JAX batch with the
game's ``from_kernel``), with the same decisions in both, and counts every difference: the
observation of the seat to move, the legal mask and the seat to move at each of the
learner's decisions; at each end the rewards, whether the end was the turn cap, and the last
observation. The learner's decisions are random: uniform, or ``lays`` (nine times in ten the
legal lay of the lowest id, so the seats keep to a few rows and reach closed rows and last
lays far more often). In self-play the learner decides for every seat; with ``opponents``
(``medium``: the heuristic, whose games reach the board game's goal end, overflow and clover
moves) the other seats play inside the kernel and the JAX environment replays their
decisions. ``benchmarks/jax_diff.py`` runs it over 10,000 games per game and number of
players and commits the counts (``benchmarks/results/jax-env-diff.json``); the tests run it
over a few hundred.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

import keltis.jax
from keltis.core.outcome import EndReason
from keltis.fast import BatchEnv
from keltis.games import get_game
from keltis.jax.common import select

Progress = Callable[[int, int], None]
#: How ``compare`` chooses each decision.
POLICIES = ("random", "lays")


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
    policy: str = "random",
    opponents: str | None = None,
    variant: dict[str, Any] | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play ``games`` finished games in both environments (see the module) and return the
    counts: games, decisions, ends by kind and differences by kind (all 0 when they agree).

    ``opponents`` (``random``, ``greedy``, ``medium``): the batch env's other seats play so
    inside the kernel, and the JAX environment replays their decisions (each one checked legal
    there first); the learner's decisions follow ``policy``. ``None``: self-play, every
    decision by ``policy``."""
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    module = get_game(game).part("jax")
    lays = module.LAYS if policy == "lays" else 0
    numba_env = BatchEnv(
        game, players, batch, seed, opponents=opponents, reward=reward, variant=variant,
        record=opponents is not None,
    )  # fmt: skip
    jax_env = keltis.jax.make(game, players, reward=reward, **(variant or {}))
    step = jax.jit(jax.vmap(jax_env.step))
    observe = jax.jit(jax.vmap(jax_env.observe))
    obs, masks, to_move = numba_env.reset()
    state = _load(module, numba_env, players)
    tally = _Tally()
    rng = np.random.default_rng(seed)
    finished = decisions = 0
    ends = dict.fromkeys((reason.value for reason in EndReason), 0)
    at = 0
    while finished < games:
        tally.check("observation", (np.asarray(state.observation) == obs).all(axis=1), at)
        tally.check("mask", (np.asarray(state.legal_action_mask) == (masks > 0)).all(axis=1), at)
        tally.check("to_move", np.asarray(state.current_player) == to_move, at)
        actions = _choose(rng, masks, lays)
        obs, masks, to_move, rewards, dones = numba_env.step(actions)
        at += 1
        if opponents is None:
            state = step(state, jnp.asarray(actions, dtype=jnp.int32))
            decisions += batch
        else:
            state, replayed = _replay(step, state, numba_env, tally, at)
            decisions += replayed
        ended = np.asarray(state.terminated | state.truncated)
        tally.check("end", ended == dones, at)
        tally.check("truncated", np.asarray(state.truncated) == numba_env.truncated, at)
        paid = np.asarray(state.rewards)
        tally.check("rewards", (paid == rewards.astype(np.float32)).all(axis=1), at)
        done = np.flatnonzero(dones)
        if done.size:
            seen = np.asarray(observe(state, jnp.asarray(numba_env.final_seat)))
            tally.check("final observation", (seen[done] == numba_env.final_obs[done]).all(1), at)
            finished += int(done.size)
            for end in np.asarray(state._end)[done]:
                ends[tuple(EndReason)[int(end)].value] += 1
            state = _put(state, _load(module, numba_env, players), jnp.asarray(dones))
            if progress is not None:
                progress(min(finished, games), games)
    return {
        "game": game,
        "players": players,
        "games": finished,
        "decisions": decisions,
        "ends": ends,
        "batch": batch,
        "seed": seed,
        "reward": reward,
        "policy": policy,
        "opponents": opponents,
        "variant": variant or {},
        "differences": tally.counts,
        "examples": tally.examples,
    }


def _replay(step: Any, state: Any, env: BatchEnv, tally: _Tally, at: int) -> tuple[Any, int]:
    """Apply in ``state`` the decisions the batch env's last step made in each game (its
    trace: the learner's, then the other seats' up to the learner's next decision or the
    game's end), each checked legal first; also how many were replayed."""
    trace = env.trace
    lengths = env.trace_end
    for j in range(int(lengths.max())):
        active = j < lengths
        actions = np.where(active, trace[:, j], 0)
        legal = np.asarray(state.legal_action_mask)[np.arange(len(actions)), actions]
        tally.check("replayed decision legal", legal | ~active, at)
        state = _step_where(step, state, jnp.asarray(actions, jnp.int32), jnp.asarray(active))
    return state, int(lengths.sum())


@partial(jax.jit, static_argnums=0)
def _step_where(step: Any, state: Any, actions: jax.Array, active: jax.Array) -> Any:
    """``step`` in the games where ``active`` is set; the others stay as they are."""
    return jax.vmap(select)(active, step(state, actions), state)


def _choose(rng: np.random.Generator, masks: np.ndarray, lays: int) -> np.ndarray:
    """One legal action id per row of ``masks``: uniform, or (``lays`` > 0: the ids below it
    are the lays) nine times in ten the legal lay of the lowest id where one is legal."""
    legal = masks > 0
    chosen = (rng.random(masks.shape) * legal).argmax(axis=1)
    if lays:
        lowest = legal[:, :lays].argmax(axis=1)
        eager = legal[:, :lays].any(axis=1) & (rng.random(masks.shape[0]) < 0.9)
        chosen = np.where(eager, lowest, chosen)
    return np.asarray(chosen, dtype=np.int64)
