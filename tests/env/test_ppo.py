"""The PPO learner of docs/rl.md in small: examples/train_ppo.py trains a policy on a budget of
a few hundred steps and saves it; keltis.env.torch_policy.PPOBot plays it by its bot spec (the
long form and the policy-file form) through the match layer and the arena, legal actions only,
the same way for the same seeds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="pip install 'keltis[rl-train]' (or torch==2.13.0)")
pytest.importorskip("gymnasium", reason="pip install 'keltis[rl]'")

from keltis.bots import BotSpec, BotSpecError, make_bot  # noqa: E402
from keltis.cli import main  # noqa: E402
from keltis.core.protocol import View  # noqa: E402
from keltis.env.encode import action_mask, action_space, observation_size  # noqa: E402
from keltis.env.linear import LinearBot, LinearPolicy  # noqa: E402
from keltis.env.torch_policy import (  # noqa: E402
    MASKED,
    PolicyNet,
    PPOBot,
    load_policy,
    save_policy,
)
from keltis.match import Match  # noqa: E402
from keltis.record import PlayerInfo  # noqa: E402

SCRIPT = Path(__file__).parents[2] / "examples" / "train_ppo.py"
TINY = ["--game", "cards", "--steps", "256", "--envs", "2", "--rollout", "64",
        "--minibatches", "2", "--epochs", "2", "--window", "5", "--seed", "5",
        "--opponents", "random;greedy"]  # fmt: skip


def _train(out: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *TINY, "--out", str(out)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ppo") / "cards.pt"
    done = _train(out)
    assert f"learned={out}" in done.stdout
    return out


class Checked(PPOBot):
    """A PPOBot that notes whether each of its choices was among the legal actions."""

    choices: list[bool]

    def choose(self, view: View):  # type: ignore[no-untyped-def]
        action = super().choose(view)
        self.choices.append(action in view.legal)
        return action


@pytest.mark.train
def test_a_tiny_run_saves_a_policy_and_its_log(trained: Path) -> None:
    policy = load_policy(trained)
    assert (policy.game, policy.players) == ("cards", 2)
    assert policy.net.hidden == (128, 128)
    assert policy.meta["steps"] == 256
    assert policy.meta["opponents"] == ["random", "greedy"]
    assert trained.stat().st_size < 1_000_000
    log = json.loads(trained.with_name("cards-log.json").read_text())
    assert [row["steps"] for row in log["log"]] == [128, 256]
    assert set(log["log"][-1]["win_share"]) == {"random", "greedy"}
    assert log["cpu_seconds"] > 0


@pytest.mark.train
@pytest.mark.slow
def test_the_same_seed_trains_the_same_policy(trained: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.pt"
    _train(again)
    first, second = load_policy(trained).net.state_dict(), load_policy(again).net.state_dict()
    assert first.keys() == second.keys()
    assert all(torch.equal(first[k], second[k]) for k in first)


def test_illegal_actions_get_no_probability() -> None:
    net = PolicyNet(observation_size("cards", 2), 500)
    view = Match.new("cards", [PlayerInfo("a"), PlayerInfo("b")], seed=2).view(0)
    x = torch.zeros((1, observation_size("cards", 2)))
    mask = torch.from_numpy(action_mask(view))[None]
    logits = net(x, mask)[0]
    assert logits.shape == (500,)
    illegal = mask[0] == 0
    assert bool((logits[illegal] == MASKED).all())
    assert float(torch.softmax(logits.detach(), 0)[illegal].sum()) == 0.0


@pytest.mark.slow
@pytest.mark.parametrize("game", ["cards", "board"])
def test_the_bot_only_picks_legal_actions(game: str, tmp_path: Path) -> None:
    path = tmp_path / f"{game}.pt"  # untrained weights: any action could come out first
    torch.manual_seed(1)
    net = PolicyNet(observation_size(game, 2), action_space(game).size, (16,))
    save_policy(path, net, game, 2)
    for seed, greedy in ((1, True), (2, False)):
        bot = Checked(seed, path=str(path), greedy=greedy)
        bot.choices = []
        players = [PlayerInfo("ppo", "ppo"), PlayerInfo("random", "random")]
        match = Match.new(game, players, {0: bot, 1: make_bot("random", 9)}, seed=seed)
        match.play_bots()
        assert match.over
        assert bot.choices
        assert all(bot.choices)


@pytest.mark.train
def test_a_seeded_game_replays_the_same(trained: Path) -> None:
    def actions(seed: int) -> list[str]:
        bot = make_bot(f"keltis.env.torch_policy:PPOBot:path={trained},greedy=false", seed)
        players = [PlayerInfo("random", "random"), PlayerInfo("ppo", "ppo")]
        match = Match.new("cards", players, {0: make_bot("random", 1), 1: bot}, seed=3)
        match.play_bots()
        return [str(a) for a in match.record.actions]

    assert actions(4) == actions(4)


@pytest.mark.train
def test_the_policy_file_is_a_bot_spec(trained: Path, tmp_path: Path) -> None:
    spec = BotSpec.parse(f"learned={trained}")
    assert spec == BotSpec.parse(f"learned=keltis.env.torch_policy:PPOBot:path={trained}")
    assert BotSpec.parse(str(spec)) == spec
    assert isinstance(make_bot(f"{trained}:greedy=false", 1), PPOBot)
    linear = tmp_path / "linear.npz"
    LinearPolicy.zeros("cards", 2).save(linear)
    assert isinstance(make_bot(f"mine={linear}"), LinearBot)
    assert BotSpec.parse(f"mine={linear}").target == "keltis.env.linear:LinearBot"
    with pytest.raises(BotSpecError, match="names its policy file twice"):
        BotSpec.parse(f"{trained}:path=other.pt")
    with pytest.raises(BotSpecError, match="no such policy file"):
        make_bot(str(tmp_path / "nothing.pt"))
    (tmp_path / "junk.pt").write_text("junk")
    with pytest.raises(BotSpecError, match="not a keltis PyTorch policy"):
        make_bot(str(tmp_path / "junk.pt"))


@pytest.mark.train
def test_a_policy_refuses_another_game(trained: Path) -> None:
    bot = PPOBot(0, path=str(trained))
    view = Match.new("board", [PlayerInfo("a"), PlayerInfo("b")], seed=1).view(0)
    with pytest.raises(ValueError, match="plays the cards game for 2 players"):
        bot.choose(view)


@pytest.mark.train
@pytest.mark.parametrize("form", ["short", "long"])
def test_the_policy_plays_in_the_arena(
    trained: Path, form: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = (
        f"learned={trained}"
        if form == "short"
        else f"learned=keltis.env.torch_policy:PPOBot:path={trained}"
    )
    out = tmp_path / "arena"
    assert main(["arena", "--quiet", spec, "random", "--game", "cards", "--games", "2",
                 "--workers", "1", "--no-plot", "--json", "--out", str(out)]) == 0  # fmt: skip
    results = json.loads(capsys.readouterr().out)
    assert results["complete"]
    learned = next(b for b in results["bots"] if b["name"] == "learned")
    assert learned["seat_games"] == 2
