"""Train a Keltis player with masked PPO (PyTorch, CPU) and save it as a bot.

The learner sits in one seat of the Gymnasium environment (keltis/Cards-v0 or
keltis/Board-v0), keltis bots in the others; several environments run side by side
(``gymnasium.vector.SyncVectorEnv``), each against one opponent of ``--opponents`` in turn.
The policy is a small network over the observation whose logits for illegal actions are
masked out (the observation's ``action_mask``), so it never proposes one; a separate value
network gives PPO's baseline. The budget is a number of the learner's decisions
(environment steps), so a seed trains the same policy every time on the same machine. ::

    pip install -e '.[rl,arena]' torch==2.13.0
    python examples/train_ppo.py --game cards --out ppo-cards.pt   # 700,000 steps: 15-30 min
    python examples/train_ppo.py --env batch --opponents greedy --envs 64   # keltis.fast's batch
    keltis arena learned=ppo-cards.pt random greedy --game cards
    keltis play --game cards --seats 'human;learned=ppo-cards.pt'

Besides the policy (``--out``, a ``.pt`` file read by ``keltis.env.torch_policy.PPOBot``)
it writes the training log as JSON (``--log``, by default OUT with ``-log.json``): after
each update, the steps so far, the share of the last ``--window`` finished games the learner
won against each opponent (a shared victory counts 1/k), and PPO's losses.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from torch.distributions import Categorical

from keltis.env import GYM_IDS, action_space, observation_size
from keltis.env.torch_policy import PolicyNet, mlp, save_policy


def make_env(game: str, opponent: str, reward: str) -> Any:
    def build() -> gymnasium.Env[Any, Any]:
        return gymnasium.make(
            GYM_IDS[game],
            opponents=opponent,
            num_players=2,
            reward=reward,
            illegal_action="raise",  # the mask makes an illegal action impossible: check it
            disable_env_checker=True,
        )

    return build


#: The bot specs that ``--env batch`` plays inside the kernel, and the kernel's policy for
#: each (the medium level's heuristic is compiled there, proven to choose as the bot does).
IN_KERNEL = {
    "random": "random",
    "greedy": "greedy",
    "easy": "greedy",
    "heuristic": "medium",
    "medium": "medium",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("cards", "board"), default="cards")
    parser.add_argument(
        "--env",
        choices=("gym", "batch"),
        default="gym",
        help="gym: SyncVectorEnv over the Gymnasium env (any bot spec as opponent); batch: "
        "keltis.fast's BatchVectorEnv, the games stepped in compiled code (opponents random, "
        "greedy or easy, heuristic or medium, played inside the kernel)",
    )
    parser.add_argument(
        "--opponents",
        default="random,greedy,heuristic,heuristic",
        help="bot specs separated by ';' or ',', one per environment in turn",
    )
    parser.add_argument("--steps", type=int, default=700_000, help="budget: learner decisions")
    parser.add_argument("--envs", type=int, default=8, help="environments side by side")
    parser.add_argument("--rollout", type=int, default=256, help="steps per environment and update")
    parser.add_argument("--epochs", type=int, default=4, help="passes over each rollout")
    parser.add_argument("--minibatches", type=int, default=8)
    parser.add_argument("--hidden", default="128,128", help="layer sizes of both networks")
    parser.add_argument("--lr", type=float, default=1e-3, help="learning rate (annealed to 0)")
    parser.add_argument("--gamma", type=float, default=1.0, help="discount (the reward is final)")
    parser.add_argument("--lam", type=float, default=0.95, help="GAE lambda")
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    parser.add_argument("--reward", choices=("margin", "win"), default="margin")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--window", type=int, default=200, help="games per win-share point")
    parser.add_argument("--out", default="policy.pt", help="the policy file (.pt)")
    parser.add_argument("--log", default=None, help="training log (default: OUT-log.json)")
    args = parser.parse_args(argv)

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    opponents = [s.strip() for s in args.opponents.replace(";", ",").split(",") if s.strip()]
    env_opponents = [opponents[i % len(opponents)] for i in range(args.envs)]
    envs: Any
    if args.env == "batch":
        unknown = sorted(set(opponents) - set(IN_KERNEL))
        if unknown:
            parser.error(
                f"--env batch plays {', '.join(IN_KERNEL)} inside the kernel, not "
                + ", ".join(unknown)
            )
        from keltis.fast.vector import BatchVectorEnv  # only with --env batch: needs numba

        # Same-step autoreset as below; reset(seed=s) seeds environment i with s + i. Each
        # environment (a game slot of the batch) plays its own opponent.
        slots = [[IN_KERNEL[o]] for o in env_opponents]
        envs = BatchVectorEnv(
            args.game, args.envs, 2, slots, reward=args.reward,
            autoreset_mode=AutoresetMode.SAME_STEP,
        )  # fmt: skip
    else:
        envs = SyncVectorEnv(
            [make_env(args.game, o, args.reward) for o in env_opponents],
            autoreset_mode=AutoresetMode.SAME_STEP,  # a finished game's step returns the next deal
        )
    hidden = [int(h) for h in args.hidden.split(",")]
    size = observation_size(args.game, 2)
    actions = action_space(args.game).size  # the game's action ids: 124 or 500
    actor = PolicyNet(size, actions, hidden)
    critic = mlp(size, hidden, 1, last_gain=1.0)
    optimizer = torch.optim.Adam([*actor.parameters(), *critic.parameters()], lr=args.lr, eps=1e-5)

    n, t_max = args.envs, args.rollout
    batch = n * t_max
    updates = max(1, args.steps // batch)
    obs_buf = torch.zeros((t_max, n, size))
    mask_buf = torch.zeros((t_max, n, actions), dtype=torch.int8)
    act_buf = torch.zeros((t_max, n), dtype=torch.long)
    logp_buf = torch.zeros((t_max, n))
    val_buf = torch.zeros((t_max, n))
    rew_buf = torch.zeros((t_max, n))
    end_buf = torch.zeros((t_max, n))

    recent = {o: deque[float](maxlen=args.window) for o in opponents}
    games = dict.fromkeys(opponents, 0)
    log: list[dict[str, Any]] = []
    start, cpu_start = time.perf_counter(), time.process_time()
    obs, _ = envs.reset(seed=args.seed)
    for update in range(updates):
        for group in optimizer.param_groups:  # linear annealing of the learning rate
            group["lr"] = args.lr * (1 - update / updates)

        # 1. Play t_max decisions in every environment with the current policy.
        for t in range(t_max):
            x = torch.from_numpy(obs["observation"])
            m = torch.from_numpy(obs["action_mask"])
            with torch.no_grad():
                dist = Categorical(logits=actor(x, m))
                action = dist.sample()
                val_buf[t] = critic(x).squeeze(-1)
            obs_buf[t], mask_buf[t], act_buf[t] = x, m, action
            logp_buf[t] = dist.log_prob(action)
            obs, reward, terminated, truncated, infos = envs.step(action.numpy())
            rew_buf[t] = torch.from_numpy(np.asarray(reward, dtype=np.float32))
            ended = np.logical_or(terminated, truncated)
            end_buf[t] = torch.from_numpy(ended.astype(np.float32))
            for i in np.flatnonzero(ended):  # the learner's share of each finished game
                final = infos["final_info"]
                if "win_share" in final:  # BatchVectorEnv
                    share = float(final["win_share"][i])
                else:
                    winners = final["outcome"]["winners"][i]
                    share = 1 / len(winners) if final["seat"][i] in winners else 0.0
                recent[env_opponents[i]].append(share)
                games[env_opponents[i]] += 1

        # 2. Advantages by GAE; a finished game's last step has no next value.
        with torch.no_grad():
            next_value = critic(torch.from_numpy(obs["observation"])).squeeze(-1)
        advantages = torch.zeros((t_max, n))
        running = torch.zeros(n)
        for t in reversed(range(t_max)):
            following = next_value if t == t_max - 1 else val_buf[t + 1]
            going_on = 1.0 - end_buf[t]
            delta = rew_buf[t] + args.gamma * following * going_on - val_buf[t]
            running = delta + args.gamma * args.lam * going_on * running
            advantages[t] = running
        returns = advantages + val_buf

        # 3. PPO's clipped objective over shuffled minibatches.
        b_obs, b_mask = obs_buf.reshape(batch, size), mask_buf.reshape(batch, actions)
        b_act, b_logp = act_buf.reshape(batch), logp_buf.reshape(batch)
        b_adv, b_ret = advantages.reshape(batch), returns.reshape(batch)
        stats: dict[str, list[float]] = {"policy": [], "value": [], "entropy": [], "kl": []}
        for _ in range(args.epochs):
            for idx in np.array_split(rng.permutation(batch), args.minibatches):
                j = torch.from_numpy(idx)
                dist = Categorical(logits=actor(b_obs[j], b_mask[j]))
                ratio = (dist.log_prob(b_act[j]) - b_logp[j]).exp()
                adv = (b_adv[j] - b_adv[j].mean()) / (b_adv[j].std() + 1e-8)
                policy_loss = -torch.min(
                    ratio * adv, ratio.clamp(1 - args.clip, 1 + args.clip) * adv
                ).mean()
                value_loss = 0.5 * (critic(b_obs[j]).squeeze(-1) - b_ret[j]).pow(2).mean()
                entropy = dist.entropy().mean()
                loss = policy_loss + 0.5 * value_loss - args.entropy * entropy
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_([*actor.parameters(), *critic.parameters()], 0.5)
                optimizer.step()
                stats["policy"].append(policy_loss.item())
                stats["value"].append(value_loss.item())
                stats["entropy"].append(entropy.item())
                stats["kl"].append(((ratio - 1) - ratio.log()).mean().item())

        # 4. Log: win shares against each opponent over its last `window` games.
        row: dict[str, Any] = {
            "steps": (update + 1) * batch,
            "games": sum(games.values()),
            "seconds": round(time.perf_counter() - start, 1),
            "win_share": {o: round(float(np.mean(r)), 4) if r else None for o, r in recent.items()},
            **{k: round(float(np.mean(v)), 5) for k, v in stats.items()},
        }
        log.append(row)
        shares = "  ".join(f"{o} {s:4.0%}" for o, s in row["win_share"].items() if s is not None)
        print(
            f"{row['steps']:8d} steps {row['games']:6d} games  {shares}  "
            f"entropy {row['entropy']:.2f}  {row['seconds']:5.0f} s",
            flush=True,
        )

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    budget = {
        "game": args.game,
        "players": 2,
        "opponents": env_opponents,
        "steps": updates * batch,
        "games": sum(games.values()),
        "seed": args.seed,
        "hidden": hidden,
        "reward": args.reward,
        "hyperparameters": {
            k: getattr(args, k)
            for k in ("envs", "rollout", "epochs", "minibatches", "lr", "gamma", "lam", "clip")
        }
        | {"entropy": args.entropy, "threads": args.threads, "window": args.window},
        "seconds": round(time.perf_counter() - start, 1),
        "cpu_seconds": round(time.process_time() - cpu_start, 1),
        "torch": str(torch.__version__),
    }
    save_policy(out, actor, args.game, 2, budget)
    log_path = Path(args.log) if args.log else out.with_name(out.stem + "-log.json")
    log_path.write_text(json.dumps({**budget, "log": log}, indent=1) + "\n", encoding="utf-8")
    print(f"saved {out} and {log_path} after {budget['steps']} steps, {budget['games']} games")
    print(f"bot spec: 'learned=keltis.env.torch_policy:PPOBot:path={out}' (or learned={out})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
