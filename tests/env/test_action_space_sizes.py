"""Each learning interface offers its game's own action ids: ``Discrete(124)`` for the board
game and ``Discrete(500)`` for the card game in Gymnasium and PettingZoo, masks as wide,
OpenSpiel's ``num_distinct_actions`` the same, and the batched environment's masks too."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

gymnasium: Any = pytest.importorskip("gymnasium", reason="pip install 'keltis[rl]'")
np = pytest.importorskip("numpy")

import keltis.env  # noqa: E402  (registers the ids)
from keltis.env.encode import action_mask, action_space  # noqa: E402
from keltis.games import get_game  # noqa: E402

SIZES = {"board": 124, "cards": 500}


@pytest.mark.parametrize("game", sorted(SIZES))
def test_gymnasium_spaces_are_the_games(game: str) -> None:
    env = gymnasium.make(keltis.env.GYM_IDS[game])
    assert env.action_space == gymnasium.spaces.Discrete(SIZES[game])
    assert env.observation_space["action_mask"].shape == (SIZES[game],)
    obs, _ = env.reset(seed=1)
    assert obs["action_mask"].shape == (SIZES[game],)
    legal = np.flatnonzero(obs["action_mask"])
    view = env.unwrapped.match.view(env.unwrapped.seat)
    assert sorted(legal) == sorted(action_space(game).index(a) for a in view.legal)
    env.step(int(legal[0]))  # a legal id of the game's space is played
    env.close()


@pytest.mark.parametrize("game", sorted(SIZES))
def test_pettingzoo_spaces_are_the_games(game: str) -> None:
    pytest.importorskip("pettingzoo", reason="pip install 'keltis[rl]'")
    from keltis.env import aec  # here: PettingZoo is an optional extra

    env = aec.KeltisAECEnv(game, 3)
    env.reset(seed=2)
    for agent in env.possible_agents:
        assert env.action_space(agent) == gymnasium.spaces.Discrete(SIZES[game])
        assert env.observation_space(agent)["action_mask"].shape == (SIZES[game],)
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask.shape == (SIZES[game],)


@pytest.mark.parametrize("game", sorted(SIZES))
def test_openspiel_num_distinct_actions_is_the_games(game: str) -> None:
    if importlib.util.find_spec("pyspiel") is None:
        pytest.skip("pip install 'keltis[rl]' (open_spiel)")
    import pyspiel  # here: OpenSpiel is an optional extra

    from keltis.env.openspiel import SHORT_NAMES  # here: registers the games with pyspiel

    spiel = pyspiel.load_game(SHORT_NAMES[game])
    assert spiel.num_distinct_actions() == SIZES[game]
    state = spiel.new_initial_state()
    legal = state.legal_actions()
    assert max(legal) < SIZES[game]
    space = action_space(game)
    assert [state.action_to_string(a) for a in legal] == [space.notation[a] for a in legal]
    state.apply_action(legal[-1])


@pytest.mark.parametrize("game", sorted(SIZES))
def test_a_views_mask_is_as_wide_as_the_space(game: str) -> None:
    state = get_game(game).new_game(2, seed=4)
    assert action_mask(state.view(state.current_player)).shape == (SIZES[game],)
    assert action_mask(state.view(1 - state.current_player)).sum() == 0


@pytest.mark.parametrize("game", sorted(SIZES))
def test_the_batched_environments_masks_are_the_games(game: str) -> None:
    pytest.importorskip("numba", reason="keltis.fast needs numba: pip install 'keltis[fast]'")
    from keltis.fast import BatchEnv  # here: numba is an optional extra

    env = BatchEnv(game, players=2, batch=3, seed=0, opponents="random")
    _, masks, _ = env.reset()
    assert masks.shape == (3, SIZES[game])
    assert env.actions.size == SIZES[game]
    assert (masks.sum(axis=1) > 0).all()
