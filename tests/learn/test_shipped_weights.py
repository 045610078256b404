"""Every shipped policy loads with this keltis: the learned level's networks
(``keltis/learn/weights``) and the policies in ``benchmarks/results`` (linear and PPO), each on
its game's own action ids (``Game.actions``) and the current observation layout, and each plays
a legal move. ``keltis.learn.convert_actions`` converts an old file and refuses any other."""

from __future__ import annotations

from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from keltis.core.actions import ALL_ACTIONS  # noqa: E402
from keltis.env.encode import action_space, layout_version  # noqa: E402
from keltis.env.linear import LinearBot, LinearPolicy  # noqa: E402
from keltis.games import GAME_NAMES, get_game  # noqa: E402
from keltis.learn.convert_actions import convert, kept_rows, old_layout_version  # noqa: E402
from keltis.learn.net import load_net, shipped_path  # noqa: E402
from keltis.learn.search import prior_ranking  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", GAME_NAMES)
def test_each_shipped_network_loads_on_its_games_ids(game: str, players: int) -> None:
    net = load_net(str(shipped_path(game, players)))
    assert (net.game, net.players) == (game, players)
    assert net.wp.shape[1] == net.bp.shape[0] == action_space(game).size
    state = get_game(game).new_game(players, seed=5)
    view = state.view(state.current_player)
    ranking = prior_ranking(net, view)
    assert set(ranking) == set(view.legal)
    state.apply(max(view.legal, key=lambda a: ranking[a]))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_each_shipped_linear_policy_loads_on_its_games_ids(game: str) -> None:
    path = RESULTS / f"learned-{game}.npz"
    policy = LinearPolicy.load(path)
    assert policy.weights.shape[0] == policy.bias.shape[0] == action_space(game).size
    bot = LinearBot(seed=1, path=str(path))
    state = get_game(game).new_game(policy.players, seed=6)
    state.apply(bot.choose(state.view(state.current_player)))  # legal, or apply raises


@pytest.mark.parametrize("game", GAME_NAMES)
def test_each_shipped_ppo_checkpoint_loads_on_its_games_ids(game: str) -> None:
    pytest.importorskip("torch", reason="pip install torch")
    from keltis.env.torch_policy import PPOBot, load_policy  # here: torch is optional

    path = RESULTS / f"ppo-{game}.pt"
    policy = load_policy(path)
    assert policy.net.actions == action_space(game).size
    assert policy.meta["game"] == game
    bot = PPOBot(seed=1, path=str(path))
    state = get_game(game).new_game(policy.players, seed=7)
    state.apply(bot.choose(state.view(state.current_player)))


def test_an_old_file_converts_by_keeping_its_games_rows(tmp_path: Path) -> None:
    game, players = "board", 2
    rows = kept_rows(game)
    assert [ALL_ACTIONS[i] for i in rows] == list(action_space(game).actions)
    size = LinearPolicy.zeros(game, players).weights.shape[1]
    weights = np.arange(len(ALL_ACTIONS) * size, dtype=np.float32).reshape(-1, size)
    bias = np.arange(len(ALL_ACTIONS), dtype=np.float32)
    old = tmp_path / "old.npz"
    np.savez_compressed(
        old, format=2, game=game, players=players, layout=old_layout_version(game, players),
        weights=weights, bias=bias,
    )  # fmt: skip
    new = tmp_path / "new.npz"
    assert convert(old, new) == (game, players)
    policy = LinearPolicy.load(new)
    assert np.array_equal(policy.weights, weights[rows])
    assert np.array_equal(policy.bias, bias[rows])
    with pytest.raises(ValueError, match="already saved with the board game's own action ids"):
        convert(new, tmp_path / "again.npz")
    np.savez_compressed(old, format=2, game=game, players=players, layout="7-0", weights=weights)
    with pytest.raises(ValueError, match="this tool converts only that layout"):
        convert(old, tmp_path / "other.npz")
    assert layout_version(game, players).startswith("2-")
