"""keltis.learn: self-play data, training (torch), the network with numpy, the learned search."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from keltis.bots.base import derive_seed
from keltis.bots.spec import make_bot
from keltis.env.encode import action_space, encode, layout_version, observation_size
from keltis.games import get_game
from keltis.learn.net import ARRAYS, MARGIN_SCALE, ValueNet, load_net, save_net
from keltis.learn.search import LearnedConfig, LearnedSearchBot
from keltis.learn.selfplay import SelfPlayConfig, game_seed, generate, mask_bytes, play_games


def random_net(game: str, players: int, path: Path, hidden: int = 16, seed: int = 0) -> Path:
    """A weights file of random weights (what an untrained network holds)."""
    rng = np.random.default_rng(seed)
    size, actions = observation_size(game, players), action_space(game).size
    shapes = {
        "w1": (size, hidden), "b1": (hidden,), "w2": (hidden, hidden), "b2": (hidden,),
        "wp": (hidden, actions), "bp": (actions,), "wv": (hidden, 2), "bv": (2,),
    }  # fmt: skip
    weights = {k: rng.normal(0, 0.1, shape).astype(np.float32) for k, shape in shapes.items()}
    meta = {"game": game, "players": players, "layout": layout_version(game, players)}
    save_net(path, weights, meta)
    return path


@pytest.mark.parametrize("game", ["board", "cards"])
def test_selfplay_rows_are_views_and_results(game: str) -> None:
    """Every row is the encoding of that seat's own view at that moment (nothing else: no
    hidden card reaches the data but through a view); its result is the game's."""
    config = SelfPlayConfig(game, 2, games=1, seed=3, sample=0.3)
    data = play_games(config, [0])
    rows = len(data["action"])
    assert rows > 0
    assert rows % 2 == 0
    assert data["obs"].shape == (rows, observation_size(game, 2))
    assert data["legal"].shape == (rows, mask_bytes(game))
    # Replay the same game with the same bots and collect every seat's encoding.
    rules = get_game(game)
    seed = game_seed(3, game, 2, 0)
    state = rules.new_game(2, seed=seed)
    bots = [make_bot("heuristic", seed=derive_seed(seed, "bot", p)) for p in range(2)]
    pick = random.Random(derive_seed(seed, "sample"))
    expected = []
    while not state.over:
        mover = state.current_player
        view = state.view(mover)
        action = bots[mover].choose(view)
        if len(view.legal) > 1 and pick.random() < 0.3:
            for p in range(2):
                legal = view.legal if p == mover else []
                index = rules.actions.index(action) if p == mover else -1
                expected.append((encode(state.view(p)), index, legal))
        state.apply_legal(action)
    assert len(expected) == rows
    for i, (obs, action_index, legal) in enumerate(expected):
        assert np.array_equal(data["obs"][i], obs.astype(np.float16))
        assert data["action"][i] == action_index
        mask = np.unpackbits(data["legal"][i])[: rules.actions.size]
        assert sorted(np.flatnonzero(mask)) == sorted(rules.actions.index(a) for a in legal)
    outcome = state.outcome()
    winners = outcome.winners
    for i in range(0, rows, 2):
        assert data["win"][i] + data["win"][i + 1] == pytest.approx(1.0)
        assert data["margin"][i] == -data["margin"][i + 1]
    seat0 = [e for e in range(rows) if e % 2 == 0]
    if winners == (0,):
        assert all(data["win"][e] == 1.0 for e in seat0)


def test_selfplay_is_the_same_whatever_the_workers(tmp_path: Path) -> None:
    config = SelfPlayConfig("cards", 2, games=4, seed=9, sample=0.2)
    one = generate(config, tmp_path / "one.npz", workers=1, chunk=1)
    two = generate(config, tmp_path / "two.npz", workers=2, chunk=3)
    with np.load(one) as a, np.load(two) as b:
        for name in ("obs", "action", "legal", "win", "margin", "game"):
            assert np.array_equal(a[name], b[name]), name
        assert str(a["meta_layout"]) == layout_version("cards", 2)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 5}, "player"),
        ({"games": 0}, "games"),
        ({"sample": 0.0}, "sample"),
        ({"bot": "nonsense-bot"}, "nonsense"),
    ],
)
def test_selfplay_config_refuses_bad_values(kwargs: dict[str, object], message: str) -> None:
    base: dict[str, object] = {"game": "cards", "players": 2, "games": 1, "seed": 0}
    with pytest.raises(ValueError, match=message):
        SelfPlayConfig(**{**base, **kwargs})  # type: ignore[arg-type]


def test_net_file_round_trip_and_layout_check(tmp_path: Path) -> None:
    path = random_net("cards", 2, tmp_path / "net.npz")
    net = load_net(str(path))
    obs = np.stack([np.zeros(observation_size("cards", 2), np.float32)] * 3)
    judged = net(obs)
    assert judged.logits.shape == (3, 500)  # the card game's action ids
    assert ((judged.win > 0) & (judged.win < 1)).all()
    win, margin = net.value(obs)
    assert np.allclose(win, judged.win)
    assert np.allclose(margin, judged.margin)
    # Another layout's version is refused with a message that says so.
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["meta_layout"] = np.array("v0-elsewhere")
    with pytest.raises(ValueError, match="layout"):
        ValueNet(arrays, "old.npz")
    del arrays["w2"]
    with pytest.raises(ValueError, match="not a keltis network"):
        ValueNet(arrays, "broken.npz")


def test_shipped_networks_load_and_stay_small() -> None:
    """A network for every game and player count, for this observation layout, ≤ 5 MB."""
    from keltis.learn.net import shipped_net, shipped_path

    total = 0
    for game in ("board", "cards"):
        for players in (2, 3, 4):
            net = shipped_net(game, players)
            assert (net.game, net.players) == (game, players)
            assert net.recipe
            total += shipped_path(game, players).stat().st_size
    assert total <= 5 * 1024 * 1024


def test_learned_search_plays_a_reproducible_game(tmp_path: Path) -> None:
    path = random_net("cards", 2, tmp_path / "net.npz")

    def play(seed: int) -> list[str]:
        state = get_game("cards").new_game(2, seed=5)
        config = LearnedConfig(
            iterations=24, seconds=None, weights=str(path), value_weight=0.5, prior=True
        )
        bots = [LearnedSearchBot(seed, config), make_bot("heuristic", seed=1)]
        moves = []
        while not state.over:
            action = bots[state.current_player].choose(state.view(state.current_player))
            moves.append(str(action))
            state.apply_legal(action)
        return moves

    assert play(7) == play(7)


def test_learned_search_refuses_another_games_network(tmp_path: Path) -> None:
    path = random_net("board", 2, tmp_path / "net.npz")
    state = get_game("cards").new_game(2, seed=5)
    bot = LearnedSearchBot(1, LearnedConfig(iterations=8, weights=str(path)))
    with pytest.raises(ValueError, match="board game for 2 players"):
        bot.choose(state.view(state.current_player))


def test_learned_search_is_a_bot_spec_but_no_level() -> None:
    """The learned search is there for research (``learned-search``), with the shipped
    network by default; it measured weaker than hard, so it is no level for people."""
    from keltis.bots.levels import find_level

    bot = make_bot("learned-search:iterations=10", seed=1)
    assert isinstance(bot, LearnedSearchBot)
    assert bot.learned.weights is None
    assert find_level("expert") is None
    state = get_game("board").new_game(2, seed=2)
    while len(state.view(state.current_player).legal) < 2:
        state.apply_legal(state.legal_actions()[0])
    view = state.view(state.current_player)
    assert bot.choose(view) in view.legal


@pytest.mark.train
def test_training_resumes_where_it_stopped(tmp_path: Path) -> None:
    """Seeded training gives the same weights, also when interrupted after an epoch and
    resumed; the run folder has its checkpoint, history and curves; the exported file is a
    network the search loads, equal to the torch model up to float16."""
    torch = pytest.importorskip("torch")
    from keltis.learn.train import TrainConfig, train

    shard = generate(SelfPlayConfig("cards", 2, games=6, seed=1, sample=0.5), tmp_path / "s.npz", 1)
    config = TrainConfig(epochs=2, hidden=16, batch=64, seed=4)
    whole = train([shard], tmp_path / "whole", config)

    def stop_after_first(_line: str) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train([shard], tmp_path / "cut", config, progress=stop_after_first)
    resumed = train([shard], tmp_path / "cut", config)
    for a, b in zip(whole.model.parameters(), resumed.model.parameters(), strict=True):
        assert torch.equal(a, b)
    assert len(resumed.history) == 2
    for name in ("checkpoint.pt", "history.json", "curves.png"):
        assert (tmp_path / "cut" / name).is_file()
    with pytest.raises(ValueError, match="another configuration"):
        train([shard], tmp_path / "cut", TrainConfig(epochs=3, hidden=16, batch=64, seed=4))
    whole.export(tmp_path / "net.npz", "test")
    net = load_net(str(tmp_path / "net.npz"))
    with np.load(shard) as data:
        obs = data["obs"][:8].astype(np.float32)
    with torch.no_grad():
        logits, value = whole.model(torch.from_numpy(obs))
    judged = net(obs)
    assert np.allclose(judged.logits, logits.numpy(), atol=0.05)
    assert np.allclose(judged.margin, value[:, 1].numpy() * MARGIN_SCALE, atol=0.5)
    assert sorted(ARRAYS) == sorted(whole.model.arrays())
