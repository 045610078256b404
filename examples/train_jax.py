"""Train a Keltis player in JAX against random seats, on keltis.jax (pgx's API), on the CPU.

An actor-critic policy gradient, all of it compiled: ``--batch`` games run side by side
(``jax.vmap(env.step)``) for ``--steps`` decisions in one ``lax.scan``, a finished game dealt
anew in its slot; the learner plays seat 0 in the even slots and seat 1 in the odd ones, the
other seats pick uniformly among their legal actions. The policy is a small network over the
observation with the illegal actions' logits masked out, and a value head as the baseline;
each of the learner's decisions is credited with its game's result (``win``: 1, a shared
victory 1/k), decisions of games that do not end inside the window wait for the next one.
Optimised with optax's Adam. Before and after, the learner's share of wins over
``--eval-games`` games against random seats, with its 95% interval, on evaluation seeds far
from the training seeds. ::

    pip install -e '.[jax]'
    python examples/train_jax.py --game cards --seconds 180      # ~3 min on a 2-core CPU
    python examples/train_jax.py --game board --seconds 600 --out jax-board.json

Prints a line per ``--report`` updates and the result as JSON (``--out`` writes it too).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

import keltis.jax
from keltis.jax.common import select

#: The evaluation's seeds lie this far from the training seed.
EVAL_SEED_OFFSET = 1_000_000


class Step(NamedTuple):
    """What one decision of the rollout leaves for the update."""

    obs: jax.Array
    mask: jax.Array
    action: jax.Array
    learner: jax.Array
    reward: jax.Array
    done: jax.Array


def init_params(key: jax.Array, size: int, actions: int, hidden: int) -> dict[str, jax.Array]:
    """A two-layer network: the shared hidden layer, the policy's logits and the value."""
    k1, k2, k3 = jax.random.split(key, 3)
    return {
        "w1": jax.random.normal(k1, (size, hidden)) * math.sqrt(2 / size),
        "b1": jnp.zeros(hidden),
        "wp": jax.random.normal(k2, (hidden, actions)) * 0.01,
        "bp": jnp.zeros(actions),
        "wv": jax.random.normal(k3, (hidden, 1)) * 0.01,
        "bv": jnp.zeros(1),
    }


def forward(params: dict[str, jax.Array], obs: jax.Array, mask: jax.Array) -> tuple[Any, Any]:
    """Masked logits (illegal actions far below the rest: never drawn, and finite, so that no
    0 × inf spoils a gradient) and the value of ``obs``."""
    hidden = jnp.tanh(obs @ params["w1"] + params["b1"])
    logits = jnp.where(mask, hidden @ params["wp"] + params["bp"], -1e9)
    return logits, (hidden @ params["wv"] + params["bv"])[..., 0]


def make_rollout(env: Any, batch: int, steps: int) -> Any:
    """``rollout(params, state, key)``: ``steps`` decisions in every game of the batch."""
    seats = jnp.arange(batch) % 2

    def one(carry: Any, key: jax.Array) -> tuple[Any, Step]:
        params, state = carry
        mine, theirs, deal = jax.random.split(key, 3)
        logits, _ = forward(params, state.observation, state.legal_action_mask)
        learner = state.current_player == seats
        chosen = jax.random.categorical(mine, logits)
        other = jax.random.categorical(theirs, jnp.where(state.legal_action_mask, 0.0, -jnp.inf))
        action = jnp.where(learner, chosen, other)
        after = jax.vmap(env.step)(state, action)
        done = after.terminated | after.truncated
        reward = after.rewards[jnp.arange(batch), seats]
        fresh = jax.vmap(env.init)(jax.random.split(deal, batch))
        record = Step(state.observation, state.legal_action_mask, action, learner, reward, done)
        return (params, jax.vmap(select)(done, fresh, after)), record

    def rollout(params: Any, state: Any, key: jax.Array) -> tuple[Any, Step]:
        (_, state), trace = jax.lax.scan(one, (params, state), jax.random.split(key, steps))
        return state, trace

    return rollout


def returns(trace: Step) -> tuple[jax.Array, jax.Array]:
    """Each decision's game result for the learner, and whether its game ended in the window
    (the others are left out of this update)."""

    def back(carry: Any, step: Step) -> tuple[Any, Any]:
        result, ends = carry
        result = jnp.where(step.done, step.reward, result)
        ends = step.done | ends
        return (result, ends), (result, ends)

    start = (jnp.zeros_like(trace.reward[0]), jnp.zeros_like(trace.done[0]))
    _, (result, ended) = jax.lax.scan(back, start, trace, reverse=True)
    return result, ended


def loss_fn(params: Any, trace: Step, entropy_cost: float) -> tuple[jax.Array, Any]:
    """The policy gradient's loss with the value as baseline, and its parts."""
    result, ended = returns(trace)
    used = trace.learner & ended
    logits, value = forward(params, trace.obs, trace.mask)
    logp = jax.nn.log_softmax(logits)
    chosen = jnp.take_along_axis(logp, trace.action[..., None], axis=-1)[..., 0]
    advantage = jax.lax.stop_gradient(result - value)
    count = jnp.maximum(used.sum(), 1)
    policy = -jnp.where(used, chosen * advantage, 0.0).sum() / count
    values = jnp.where(used, (result - value) ** 2, 0.0).sum() / count
    probs = jnp.exp(logp)
    entropy = -jnp.where(used[..., None] & trace.mask, probs * logp, 0.0).sum() / count
    total = policy + 0.5 * values - entropy_cost * entropy
    return total, {"policy": policy, "value": values, "entropy": entropy, "used": count}


def evaluate(env: Any, params: Any, games: int, seed: int) -> dict[str, Any]:
    """The learner's share of wins over ``games`` whole games against random seats (seat 0
    in the even games, 1 in the odd ones), with a 95% Wilson interval."""
    seats = jnp.arange(games) % 2

    def body(carry: Any) -> Any:
        state, paid, key = carry
        key, mine, theirs = jax.random.split(key, 3)
        logits, _ = forward(params, state.observation, state.legal_action_mask)
        other = jax.random.categorical(theirs, jnp.where(state.legal_action_mask, 0.0, -jnp.inf))
        action = jnp.where(
            state.current_player == seats, jax.random.categorical(mine, logits), other
        )
        state = jax.vmap(env.step)(state, action)
        return state, paid + state.rewards[jnp.arange(games), seats], key

    def playing(carry: Any) -> Any:
        state = carry[0]
        return ~(state.terminated | state.truncated).all()

    @jax.jit
    def play(key: jax.Array) -> Any:
        deal, moves = jax.random.split(key)
        state = jax.vmap(env.init)(jax.random.split(deal, games))
        state, paid, _ = jax.lax.while_loop(playing, body, (state, jnp.zeros(games), moves))
        return paid, state.terminated | state.truncated

    paid, ended = play(jax.random.key(seed))
    share = float(paid.sum()) / games
    return {"games": games, "share": round(share, 4), "interval": _wilson(share, games),
            "all_ended": bool(ended.all())}  # fmt: skip


def _wilson(share: float, n: int, z: float = 1.96) -> list[float]:
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(centre - half, 4), round(centre + half, 4)]


def train(args: argparse.Namespace) -> dict[str, Any]:
    """Train as the command line says; the log and the evaluations."""
    env = keltis.jax.make(args.game, 2)
    key = jax.random.key(args.seed)
    key, init_key, deal_key = jax.random.split(key, 3)
    params = init_params(init_key, env.observation_shape[0], env.num_actions, args.hidden)
    optimiser = optax.adam(args.learning_rate)
    opt_state = optimiser.init(params)
    rollout = make_rollout(env, args.batch, args.steps)
    eval_seed = args.seed + EVAL_SEED_OFFSET
    before = evaluate(env, params, args.eval_games, eval_seed)

    @jax.jit
    def update(params: Any, opt_state: Any, state: Any, key: jax.Array) -> Any:
        state, trace = rollout(params, state, key)
        grads, parts = jax.grad(loss_fn, has_aux=True)(params, trace, args.entropy)
        changes, opt_state = optimiser.update(grads, opt_state, params)
        return optax.apply_updates(params, changes), opt_state, state, parts

    state = jax.jit(jax.vmap(env.init))(jax.random.split(deal_key, args.batch))
    log = []
    started = time.process_time()
    updates = 0
    while updates < args.updates and time.process_time() - started < args.seconds:
        key, sub = jax.random.split(key)
        params, opt_state, state, parts = update(params, opt_state, state, sub)
        updates += 1
        entry = {"update": updates, "decisions": updates * args.batch * args.steps}
        entry |= {name: round(float(value), 5) for name, value in parts.items()}
        entry["cpu_seconds"] = round(time.process_time() - started, 1)
        log.append(entry)
        if updates % args.report == 0:
            print(json.dumps(entry), flush=True)
    trained = time.process_time() - started  # compiling the update included
    after = evaluate(env, params, args.eval_games, eval_seed)
    return {
        "game": args.game,
        "updates": updates,
        "decisions": updates * args.batch * args.steps,
        "cpu_seconds": round(trained, 1),
        "before": before,
        "after": after,
        "options": {k: v for k, v in vars(args).items() if k != "out"},
        "log": log,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Parse the command line, train, print and write the result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["board", "cards"], default="cards")
    parser.add_argument("--seconds", type=float, default=180.0, help="CPU seconds of training")
    parser.add_argument("--updates", type=int, default=1_000_000, help="at most this many")
    parser.add_argument("--batch", type=int, default=64, help="games side by side")
    parser.add_argument("--steps", type=int, default=512, help="decisions per game and update")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    parser.add_argument("--eval-games", type=int, default=1_000)
    parser.add_argument("--report", type=int, default=10, help="print every this many updates")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="write the result as JSON")
    args = parser.parse_args(argv)
    result = train(args)
    summary = {k: v for k, v in result.items() if k != "log"}
    print(json.dumps(summary))
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return result


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
