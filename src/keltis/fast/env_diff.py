"""The differential test of :class:`~keltis.fast.env.BatchEnv` against ``keltis.env``: the
same set-ups and choices, the same observations, masks and rewards at every decision.

A :class:`BatchEnv` is stepped with ``record=True`` and a learner choosing uniformly among
the legal actions (its own numpy stream). Every game of the batch is followed by a reference
game (``Game.new_game`` from the episode's deal, :meth:`BatchEnv.episode_setup`) that replays
the decisions the kernel made (the learner's and the other seats'). At every decision the
learner sees, the batch's observation and mask must equal
:func:`keltis.env.encode.encode` and :func:`~keltis.env.encode.action_mask` of the reference's
view for the seat to move (float32 numbers compared exactly); where a game ends, its last
observation must equal the encoded view of :attr:`BatchEnv.final_seat`, the rewards of every
seat :func:`keltis.env.common.terminal_reward`'s, the scores and the truncation flag the
reference's. The first difference raises :class:`~keltis.fast.diff.MismatchError`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from keltis.core.protocol import JSON, GameState
from keltis.env.common import ended_by_cap, terminal_reward
from keltis.env.encode import action_mask, encode, observation_layout
from keltis.fast.diff import MismatchError
from keltis.fast.env import BatchEnv
from keltis.games import get_game


def env_differential(
    game: str,
    players: int,
    n_games: int,
    *,
    batch: int = 64,
    seed: int = 0,
    opponents: str | Sequence[str] | None = None,
    reward: str = "win",
    variant: JSON | None = None,
) -> dict[str, Any]:
    """Play until ``n_games`` games have ended in a :class:`BatchEnv` of ``batch`` games and
    compare every decision with the reference (see the module); returns what was compared."""
    env = BatchEnv(
        game, players, batch, seed, opponents, reward=reward, variant=variant, record=True
    )
    rules = get_game(game)
    lay = observation_layout(game, players)
    chooser = np.random.default_rng(seed)
    refs: list[GameState] = []
    _, masks, _ = env.reset()
    for b in range(batch):
        refs.append(_start(env, b, 0, 0, rules, variant))
    compared = kernel_moves = 0
    ends: Counter[str] = Counter()
    for b in range(batch):
        compared += _check(env, refs[b], b, lay.size)
    while sum(ends.values()) < n_games:
        actions = np.argmax(masks * chooser.random(masks.shape), axis=1)
        env.step(actions)
        for b in range(batch):
            ref = refs[b]
            moves = env.trace[b, : env.trace_end[b]].tolist()
            if moves[0] != actions[b]:
                raise MismatchError(f"game {b}: the trace does not start with the action")
            for a in moves:
                ref.apply(rules.actions.action(a))
            kernel_moves += len(moves) - 1
            if bool(env.dones[b]) != ref.over:
                raise MismatchError(
                    _where(env, b, ref, "the batch and the reference disagree on the end")
                )
            if ref.over:
                ends[_check_end(env, ref, b, reward)] += 1
                ref = refs[b] = _start(
                    env, b, int(env.episodes[b]), int(env.trace_end[b]), rules, variant
                )
            compared += _check(env, ref, b, lay.size)
    return {
        "game": game,
        "players": players,
        "batch": batch,
        "seed": seed,
        "opponents": None if opponents is None else env.opponents,
        "reward": reward,
        "variant": env.variant,
        "games": sum(ends.values()),
        "decisions_compared": compared,
        "other_seats_moves_replayed": kernel_moves,
        "end_reasons": dict(sorted(ends.items())),
    }


def _start(
    env: BatchEnv, b: int, episode: int, skip: int, rules: Any, variant: JSON | None
) -> GameState:
    """The reference game of episode ``episode`` of game ``b``, with the moves the kernel made
    before the learner's first decision (the trace from ``skip``)."""
    setup, seat = env.episode_setup(b, episode)
    if seat != int(env.seats[b]):
        raise MismatchError(f"game {b} episode {episode}: learner seat {env.seats[b]} != {seat}")
    ref: GameState = rules.new_game(env.players, setup=setup, variant=variant)
    for a in env.trace[b, skip : env.trace_n[b]].tolist():
        ref.apply(rules.actions.action(a))
    return ref


def _check(env: BatchEnv, ref: GameState, b: int, size: int) -> int:
    """The observation and mask of game ``b`` against the reference's view of the seat to
    move; 1 (one decision compared)."""
    seat = ref.current_player
    if seat != int(env.to_move[b]) or (env.seats[b] >= 0 and seat != env.seats[b]):
        raise MismatchError(_where(env, b, ref, f"seat to move {env.to_move[b]}, reference {seat}"))
    view = ref.view(seat)
    expected = encode(view)
    if not np.array_equal(env.obs[b], expected):
        raise MismatchError(_where(env, b, ref, _difference(env.obs[b], expected)))
    if not np.array_equal(env.masks[b], action_mask(view)):
        raise MismatchError(_where(env, b, ref, "legal masks differ"))
    return 1


def _check_end(env: BatchEnv, ref: GameState, b: int, reward: str) -> str:
    """A finished game's last observation, rewards, scores and truncation flag."""
    outcome = ref.outcome()
    seen_by = int(env.final_seat[b])
    expected = encode(ref.view(seen_by))
    if not np.array_equal(env.final_obs[b], expected):
        raise MismatchError(_where(env, b, ref, "final " + _difference(env.final_obs[b], expected)))
    rewards = [terminal_reward(outcome, q, reward) for q in range(env.players)]
    if env.rewards[b].tolist() != rewards or env.scores[b].tolist() != list(outcome.scores):
        raise MismatchError(
            _where(
                env,
                b,
                ref,
                f"rewards {env.rewards[b].tolist()} {env.scores[b].tolist()}, "
                f"reference {rewards} {list(outcome.scores)}",
            )
        )
    if bool(env.truncated[b]) != ended_by_cap(outcome):
        raise MismatchError(_where(env, b, ref, "truncation flags differ"))
    return outcome.end_reason.value


def _difference(got: np.ndarray, expected: np.ndarray) -> str:
    at = np.flatnonzero(got != expected)
    shown = ", ".join(f"[{i}] {got[i]} != {expected[i]}" for i in at[:8])
    return f"observations differ at {len(at)} numbers: {shown}"


def _where(env: BatchEnv, b: int, ref: GameState, what: str) -> str:
    history = " ".join(f"{p}:{a}" for p, a in zip(ref.actors, ref.history, strict=True))
    return (
        f"{what} (game {b}, episode {env.episodes[b]}, {env.info()}; reference phase "
        f"{ref.phase_name}, player {ref.current_player})\n  history: {history}"
    )
