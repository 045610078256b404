"""The PettingZoo environments: PettingZoo's own api_test, seed_test and max_cycles_test (and
the parallel API test) on both games and 2-4 players, observations from each agent's own
view, rewards, cycles and truncation."""

from __future__ import annotations

import functools
import types
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="pip install 'keltis[rl]'")
np = pytest.importorskip("numpy")

from pettingzoo.test import (  # noqa: E402
    api_test,
    max_cycles_test,
    parallel_api_test,
    seed_test,
)

from keltis.env import keltis_board_v0, keltis_cards_v0  # noqa: E402
from keltis.env.common import InvalidActionError  # noqa: E402
from keltis.env.encode import action_mask, encode  # noqa: E402

MODULES = {"board": keltis_board_v0, "cards": keltis_cards_v0}
CASES = [(game, players) for game in MODULES for players in (2, 3, 4)]
IDS = [f"{game}-{players}p" for game, players in CASES]

# PettingZoo warns about any observation that is a dict rather than an array, unless the
# environment is one of its own classic games; the action mask has to travel in that dict.
_DICT_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


def random_play(env: Any, seed: int, cycles: int | None = None) -> dict[str, int]:
    """Run the AEC loop with masked random actions; how often each agent decided."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    decisions = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter(cycles or 2**63):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        decisions[agent] += 1
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return decisions


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_pettingzoo_api_test(game: str, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(MODULES[game].env(num_players=players, render_mode="ansi"), num_cycles=1000)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(_DICT_WARNINGS)]
    assert not unexpected


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_pettingzoo_seed_test(game: str, players: int) -> None:
    seed_test(functools.partial(MODULES[game].env, num_players=players), num_cycles=500)


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_pettingzoo_max_cycles_test(game: str, players: int) -> None:
    module = MODULES[game]
    if players == 2:  # the module itself, with its defaults
        max_cycles_test(module)
        return
    max_cycles_test(
        types.SimpleNamespace(
            env=functools.partial(module.env, num_players=players),
            parallel_env=functools.partial(module.parallel_env, num_players=players),
        )
    )


@pytest.mark.parametrize("game", MODULES)
def test_pettingzoo_parallel_api_test(game: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(MODULES[game].parallel_env(num_players=3), num_cycles=200)


@pytest.mark.parametrize("game", MODULES)
def test_each_agent_observes_its_own_view(game: str) -> None:
    env = MODULES[game].raw_env(num_players=3)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(25):
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)
        view = env.match.view(seat)
        assert np.array_equal(obs["observation"], encode(view))
        assert np.array_equal(obs["action_mask"], action_mask(view))
        assert obs["action_mask"].any() == (agent == env.agent_selection)


@pytest.mark.parametrize("reward", ["win", "margin"])
def test_rewards_are_paid_at_the_end_to_everyone(reward: str) -> None:
    env = keltis_cards_v0.env(num_players=3, reward=reward)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    total = dict.fromkeys(env.possible_agents, 0.0)
    final: dict[str, Any] = {}
    for agent in env.agent_iter():
        obs, got, terminated, truncated, info = env.last()
        total[agent] += got
        if terminated or truncated:
            assert terminated
            assert not truncated
            final[agent] = info["outcome"]
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    outcome = final["player_0"]
    scores = outcome["scores"]
    for seat, agent in enumerate(env.possible_agents):
        if reward == "win":
            won = seat in outcome["winners"]
            assert total[agent] == pytest.approx(1 / len(outcome["winners"]) if won else 0.0)
        else:
            best_other = max(s for p, s in enumerate(scores) if p != seat)
            assert total[agent] == pytest.approx((scores[seat] - best_other) / 100)


@pytest.mark.parametrize("game", MODULES)
def test_max_cycles_gives_every_agent_the_same_number_of_decisions(game: str) -> None:
    env = MODULES[game].env(num_players=3, max_cycles=9)
    assert random_play(env, seed=2) == dict.fromkeys(env.possible_agents, 9)
    assert not env.agents


def test_the_turn_cap_truncates_every_agent() -> None:
    env = keltis_board_v0.env(num_players=2, variant={"turn_cap": 4})
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    ends = {}
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            ends[agent] = (terminated, truncated, info["outcome"]["end_reason"])
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert ends == dict.fromkeys(env.possible_agents, (False, True, "truncated"))


def test_illegal_actions_cost_the_penalty_or_raise() -> None:
    env = keltis_board_v0.raw_env(num_players=2)
    env.reset(seed=5)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.infos[agent]["illegal_action"] == illegal
    assert env.rewards[agent] == -1.0
    assert env.match.ply == 1

    strict = keltis_board_v0.raw_env(num_players=2, illegal_action="raise")
    strict.reset(seed=5)
    with pytest.raises(InvalidActionError):
        strict.step(illegal)
    assert strict.match.ply == 0


def test_ansi_render_is_the_spectators_table() -> None:
    env = keltis_cards_v0.env(num_players=2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "seat 0 to move" in text
    assert "your hand" not in text
    assert keltis_cards_v0.env(num_players=2).unwrapped.render() is None
