"""Ray RLlib on the PettingZoo environments: one shared, action-masked PPO policy for every
seat (observations are from each seat's own chair, so one policy plays them all).

Needs ``ray[rllib]`` and torch (the ``rl-train`` extra)::

    from keltis.env.rllib import ppo_config

    algo = ppo_config("cards", num_players=2).env_runners(num_env_runners=1).build_algo()
    for _ in range(10):
        print(algo.train()["env_runners"]["agent_episode_returns_mean"])  # per seat
    algo.save("/tmp/keltis-ppo")

Print the seats' returns, not ``episode_return_mean``: every seat plays the shared policy, so
that one adds up all seats of a game, a constant (1 under the ``win`` reward). And ask for no
more env runners (one CPU each) than Ray has CPUs, or ``build_algo`` waits for ever.
RLlib is imported only when these functions are called; ``docs/rl.md`` sizes the runners
from the machine and says how to run the same on a Ray cluster.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from keltis.games import GAME_NAMES

#: The shared policy's id in the multi-agent config.
POLICY = "shared"


def env_name(game: str) -> str:
    """The name :func:`register` gives ``game``'s environment in Ray's registry."""
    return f"keltis_{game}"


def make_rllib_env(game: str, config: dict[str, Any] | None = None) -> Any:
    """RLlib's ``PettingZooEnv`` around keltis' AEC environment of ``game``; ``config`` holds
    the options of :class:`keltis.env.aec.KeltisAECEnv` (``num_players``, ``reward`` …)."""
    from keltis.env.aec import KeltisAECEnv  # here: PettingZoo loads on a Ray worker, when used

    wrappers: Any = importlib.import_module("ray.rllib.env.wrappers.pettingzoo_env")
    options = dict(config or {})
    options.setdefault("observation_key", "observations")  # what the masking module reads
    return wrappers.PettingZooEnv(KeltisAECEnv(game, **options))


def register() -> None:
    """Register ``keltis_board`` and ``keltis_cards`` with Ray (``register_env``), so that a
    config names them and remote workers can build them."""
    registry: Any = importlib.import_module("ray.tune.registry")
    for game in GAME_NAMES:
        registry.register_env(env_name(game), _creator(game))


def _creator(game: str) -> Any:
    def create(config: Any) -> Any:
        return make_rllib_env(game, dict(config or {}))

    return create


def ppo_config(
    game: str = "cards",
    num_players: int = 2,
    *,
    hidden: Sequence[int] = (256, 256),
    env_options: dict[str, Any] | None = None,
) -> Any:
    """A ``PPOConfig`` for ``game``: every agent mapped to one policy (:data:`POLICY`) whose
    module masks illegal actions (RLlib's ``ActionMaskingTorchRLModule``). Adjust it as any
    RLlib config (``.env_runners(num_env_runners=…)``, ``.training(…)``) before
    ``build_algo()``."""
    register()
    ppo: Any = importlib.import_module("ray.rllib.algorithms.ppo")
    specs: Any = importlib.import_module("ray.rllib.core.rl_module.rl_module")
    multi: Any = importlib.import_module("ray.rllib.core.rl_module.multi_rl_module")
    masking: Any = importlib.import_module(
        "ray.rllib.examples.rl_modules.classes.action_masking_rlm"
    )
    module = specs.RLModuleSpec(
        module_class=masking.ActionMaskingTorchRLModule,
        model_config={"fcnet_hiddens": list(hidden), "head_fcnet_hiddens": []},
    )
    return (
        ppo.PPOConfig()
        .environment(env_name(game), env_config={"num_players": num_players, **(env_options or {})})
        .multi_agent(policies={POLICY}, policy_mapping_fn=_shared)
        .rl_module(rl_module_spec=multi.MultiRLModuleSpec(rl_module_specs={POLICY: module}))
    )


def _shared(agent_id: Any, episode: Any, **kwargs: Any) -> str:
    return POLICY
