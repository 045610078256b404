"""The Gymnasium environment: Gymnasium's own checker on both games and 2-4 players, the
registered ids, bots through the match layer, rewards, illegal actions, truncation by the
turn cap, and the vector forms."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

gymnasium: Any = pytest.importorskip("gymnasium", reason="pip install 'keltis[rl]'")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import keltis.env  # noqa: E402  (registers the ids)
from keltis.bots import BotSpecError  # noqa: E402
from keltis.env.common import InvalidActionError  # noqa: E402
from keltis.env.encode import action_mask, encode  # noqa: E402
from keltis.match import Match  # noqa: E402

IDS = {"board": "keltis/Board-v0", "cards": "keltis/Cards-v0"}


def play_out(env: Any, seed: int) -> tuple[float, bool, bool, dict[str, Any], int]:
    """One episode with uniformly random legal actions: the last reward, terminated,
    truncated, info and the number of steps."""
    obs, info = env.reset(seed=seed)
    steps = 0
    rng = np.random.default_rng(seed)
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(rng.choice(legal))
        steps += 1
        if terminated or truncated:
            return reward, terminated, truncated, info, steps


def test_importing_keltis_env_registers_both_games() -> None:
    assert keltis.env.GYM_IDS == IDS
    for env_id in IDS.values():
        assert env_id in gymnasium.registry


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", ["board", "cards"])
def test_gymnasium_check_env_passes_without_warnings(game: str, players: int) -> None:
    env = gymnasium.make(IDS[game], num_players=players, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("game", ["board", "cards"])
def test_an_episode_pays_the_win_reward_once_at_the_end(game: str) -> None:
    env = gymnasium.make(IDS[game], opponents=("greedy", "random"))
    reward, terminated, truncated, info, steps = play_out(env, seed=4)
    assert terminated
    assert not truncated
    outcome = info["outcome"]
    seat = info["seat"]
    expected = 1 / len(outcome["winners"]) if seat in outcome["winners"] else 0.0
    assert reward == pytest.approx(expected)
    assert steps > 20
    assert env.unwrapped.num_players == 3


def test_the_learner_seat_rotates_with_the_seed_or_stays_fixed() -> None:
    env = gymnasium.make("keltis/Cards-v0", opponents="random", num_players=3)
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert seats == {0, 1, 2}
    fixed = gymnasium.make("keltis/Cards-v0", num_players=3, seat=2)
    assert {fixed.reset(seed=s)[1]["seat"] for s in range(5)} == {2}
    assert env.reset(seed=1, options={"seat": 1})[1]["seat"] == 1


def test_the_observation_is_the_learners_view_and_bots_play_through_the_match() -> None:
    env = gymnasium.make("keltis/Board-v0", opponents=("heuristic",))
    obs, info = env.reset(seed=7)
    match = env.unwrapped.match
    assert isinstance(match, Match)
    view = match.view(info["seat"])
    assert np.array_equal(obs["observation"], encode(view))
    assert np.array_equal(obs["action_mask"], action_mask(view))
    assert np.array_equal(env.unwrapped.action_masks(), action_mask(view).astype(bool))
    assert match.to_move == info["seat"]
    for _ in range(30):
        obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    # the episode is a game record: replaying it reaches the same position
    again = Match(match.record)
    assert again.ply == match.ply
    assert np.array_equal(encode(again.view(info["seat"])), obs["observation"])
    assert match.record.players[1 - info["seat"]].kind == "heuristic"


def test_same_seed_same_episode() -> None:
    runs = [play_out(gymnasium.make("keltis/Cards-v0", opponents="greedy"), 11) for _ in range(2)]
    assert runs[0] == runs[1]


def test_illegal_actions_raise_clearly_or_cost_the_penalty() -> None:
    strict = gymnasium.make("keltis/Board-v0", illegal_action="raise")
    obs, _ = strict.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    ply = strict.unwrapped.match.ply
    with pytest.raises(InvalidActionError, match=r"is not legal for seat \d now.*Legal: "):
        strict.step(illegal)
    with pytest.raises(InvalidActionError, match="the board game's action ids are 0-123"):
        strict.step(999)
    assert strict.unwrapped.match.ply == ply

    lenient = gymnasium.make("keltis/Board-v0", illegal_reward=-0.5)
    obs, _ = lenient.reset(seed=2)
    _, reward, _, _, info = lenient.step(illegal)
    assert reward == -0.5
    assert info["illegal_action"] == illegal
    assert lenient.unwrapped.match.ply > ply  # the fallback bot made the decision


def test_bad_options_are_refused_when_the_environment_is_made() -> None:
    with pytest.raises(BotSpecError):
        gymnasium.make("keltis/Board-v0", opponents=("no-such-bot",))
    with pytest.raises(ValueError, match="need 2 opponents"):
        gymnasium.make("keltis/Board-v0", opponents=("greedy",), num_players=3)
    with pytest.raises(ValueError, match="reward"):
        gymnasium.make("keltis/Board-v0", reward="points")
    with pytest.raises(ValueError, match="2-4 players"):
        gymnasium.make("keltis/Cards-v0", num_players=5)


def test_the_turn_cap_truncates_with_the_standings_as_reward() -> None:
    env = gymnasium.make("keltis/Cards-v0", reward="margin", variant={"turn_cap": 6})
    reward, terminated, truncated, info, _ = play_out(env, seed=3)
    assert truncated
    assert not terminated
    outcome = info["outcome"]
    assert outcome["end_reason"] == "truncated"
    scores = outcome["scores"]
    seat = info["seat"]
    assert reward == pytest.approx((scores[seat] - scores[1 - seat]) / 100)


def test_ansi_render_shows_the_learners_view() -> None:
    env = gymnasium.make("keltis/Cards-v0", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "your hand:" in text
    assert "(you)" in text
    assert "legal:" in text


def test_sync_vector_env_steps_a_batch() -> None:
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make("keltis/Board-v0", opponents="greedy") for _ in range(3)]
    )
    obs, _ = envs.reset(seed=[1, 2, 3])
    assert obs["observation"].shape == (3, 946)
    assert obs["action_mask"].shape == (3, 124)  # the board game's action ids
    rng = np.random.default_rng(0)
    for _ in range(40):
        actions = [rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]]
        obs, rewards, *_ = envs.step(np.array(actions))
        assert rewards.shape == (3,)
    envs.close()


def test_async_vector_env_from_the_registry() -> None:
    envs = gymnasium.make_vec("keltis/Cards-v0", num_envs=2, vectorization_mode="async")
    obs, _ = envs.reset(seed=5)
    for _ in range(10):
        actions = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
        obs, *_ = envs.step(np.array(actions))
    assert obs["observation"].shape == (2, 741)
    envs.close()


def _values(data: Any) -> list[Any]:
    """Every leaf value of a JSON-like structure."""
    if isinstance(data, dict):
        return [v for value in data.values() for v in _values(value)]
    if isinstance(data, list | tuple):
        return [v for value in data for v in _values(value)]
    return [data]


@pytest.mark.parametrize("game", ["board", "cards"])
def test_info_never_holds_the_seed_that_deals_the_hidden_cards(game: str) -> None:
    """Issue 29, trap 1: ``info["seed"]`` rebuilt the other hands and the draw pile. What an
    agent gets is the documented keys only, and no value is the deal's seed; the seed stays on
    the environment for whoever runs the training."""
    from keltis.env.gym_env import INFO_KEYS

    assert set(INFO_KEYS) == {"seat", "ply", "outcome", "illegal_action"}
    env = gymnasium.make(IDS[game], opponents=("greedy", "random"))
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        game_seed = env.unwrapped.seed_of_game
        infos = [info]
        assert set(info) == {"seat", "ply"}
        illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
        obs, *_, info = env.step(illegal)  # the penalty path adds illegal_action
        infos.append(info)
        rng = np.random.default_rng(seed)
        while True:
            obs, _, terminated, truncated, info = env.step(
                rng.choice(np.flatnonzero(obs["action_mask"]))
            )
            infos.append(info)
            if terminated or truncated:
                break
        assert "illegal_action" in infos[1]
        assert "outcome" in infos[-1]
        for info in infos:
            assert set(info) <= set(INFO_KEYS)
            assert game_seed not in _values(info)
