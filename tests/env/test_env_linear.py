"""The five-minute path of docs/rl.md in small: train a linear policy, save it, and play it as
a bot by its spec through the match layer and the arena's game runner."""

from __future__ import annotations

from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="pip install 'keltis[rl]'")
pytest.importorskip("gymnasium", reason="pip install 'keltis[rl]'")

from keltis.bots import make_bot  # noqa: E402
from keltis.env.linear import LinearBot, LinearPolicy, main, train  # noqa: E402
from keltis.match import Match  # noqa: E402
from keltis.record import PlayerInfo  # noqa: E402

# Every test here trains a policy (its own, or the module's ``policy_file``).
pytestmark = pytest.mark.train


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("linear") / "cards.npz"
    assert main(["--game", "cards", "--episodes", "20", "--out", str(path)]) == 0
    return path


def test_training_moves_the_weights_and_saving_keeps_them(tmp_path: Path) -> None:
    rates: list[float] = []
    policy = train(
        "cards", episodes=40, progress=lambda _, rate: rates.append(rate), report_every=20
    )
    assert len(rates) == 2
    assert 0.0 <= rates[0] <= 1.0
    assert np.abs(policy.weights).sum() > 0
    policy.save(tmp_path / "p.npz")
    again = LinearPolicy.load(tmp_path / "p.npz")
    assert (again.game, again.players) == ("cards", 2)
    assert np.array_equal(again.weights, policy.weights)
    assert np.array_equal(again.bias, policy.bias)


def test_the_saved_policy_plays_as_a_bot_by_its_spec(policy_file: Path) -> None:
    bot = make_bot(f"keltis.env.linear:LinearBot:path={policy_file}", seed=1)
    assert isinstance(bot, LinearBot)
    match = Match.new(
        "cards",
        [PlayerInfo("linear", "linear"), PlayerInfo("random", "random")],
        {0: bot, 1: make_bot("random", 2)},
        seed=4,
        narrate=False,
    )
    match.play_bots()
    assert match.over
    sampled = make_bot(f"keltis.env.linear:LinearBot:path={policy_file},greedy=false", 3)
    view = Match.new("cards", [PlayerInfo("a"), PlayerInfo("b")], seed=1).view(0)
    assert sampled.choose(view) in view.legal


def test_a_policy_refuses_another_game(policy_file: Path) -> None:
    bot = LinearBot(0, path=str(policy_file))
    view = Match.new("board", [PlayerInfo("a"), PlayerInfo("b")], seed=1).view(0)
    with pytest.raises(ValueError, match="plays the cards game for 2 players"):
        bot.choose(view)
