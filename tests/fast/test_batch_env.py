"""keltis.fast.BatchEnv: equal to keltis.env decision by decision (keltis.fast.env_diff),
reproducible whatever the batch size, strict about illegal actions; its Gymnasium vector env.

A few hundred games per game and player count here (marked slow; a few short games in the
quick lane); benchmarks/batch_env_diff.py runs 10,000 per game and player count and commits
its result.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba", reason="keltis.fast needs numba: pip install 'keltis[fast]'")

from keltis.env.encode import encode
from keltis.fast import BatchEnv
from keltis.fast.diff import MismatchError
from keltis.fast.env_diff import env_differential

PLAYERS = (2, 3, 4)
ROOT = Path(__file__).parents[2]


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_cards_equal_to_keltis_env(players: int) -> None:
    lines: list[dict[str, Any]] = [
        {"opponents": None, "reward": "win", "n_games": 80},
        {"opponents": "greedy", "reward": "margin", "n_games": 100},
        {"opponents": "random", "reward": "win", "n_games": 100},
        {"opponents": "random", "reward": "margin", "n_games": 40, "variant": {"turn_cap": 20}},
        {"opponents": "medium", "reward": "win", "n_games": 40},
        {  # by game slot: medium seats in half the games, random ones in the others
            "opponents": [["medium"] * (players - 1), ["random"] * (players - 1)] * 16,
            "reward": "margin",
            "n_games": 40,
        },
    ]
    ends: set[str] = set()
    for number, line in enumerate(lines):
        result = env_differential("cards", players, batch=32, seed=30_000 + number, **line)
        assert result["games"] >= line["n_games"]
        assert result["decisions_compared"] > result["games"] * 10
        ends |= set(result["end_reasons"])
    assert {"closed", "truncated"} <= ends


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_board_equal_to_keltis_env(players: int) -> None:
    lines: list[dict[str, Any]] = [
        {"opponents": None, "reward": "win", "n_games": 40},
        {"opponents": "greedy", "reward": "margin", "n_games": 100},
        {"opponents": "random", "reward": "win", "n_games": 80},
        {"opponents": "random", "reward": "margin", "n_games": 40, "variant": {"turn_cap": 20}},
        {
            "opponents": ("greedy", "random", "random")[: players - 1],
            "reward": "win",
            "n_games": 20,
            "variant": {"no_take_back": False},
        },
    ]
    ends: set[str] = set()
    for number, line in enumerate(lines):
        result = env_differential("board", players, batch=32, seed=40_000 + number, **line)
        assert result["games"] >= line["n_games"]
        assert result["decisions_compared"] > result["games"] * 10
        ends |= set(result["end_reasons"])
    assert {"deck", "truncated"} <= ends


@pytest.mark.parametrize("game", ["cards", "board"])
def test_a_few_games_equal_to_keltis_env(game: str) -> None:
    """The quick lane's look: a few short games of each game, self-play and greedy seats."""
    capped = {"turn_cap": 12}
    for number, opponents in enumerate((None, "greedy")):
        result = env_differential(
            game, 3, 4, batch=4, seed=50 + number, opponents=opponents, variant=capped
        )
        assert result["games"] >= 4
        assert result["end_reasons"]


def test_the_check_sees_a_wrong_number(monkeypatch: pytest.MonkeyPatch) -> None:
    """A control: one number of the reference's observation changed, the check fails."""

    def off_by_a_bit(view: Any) -> Any:
        out = encode(view)
        out[-1] += 0.5
        return out

    monkeypatch.setattr("keltis.fast.env_diff.encode", off_by_a_bit)
    with pytest.raises(MismatchError, match="observations differ"):
        env_differential("cards", 2, 1, batch=2, seed=1)


def _first_legal_run(game: str, batch: int, steps: int) -> list[Any]:
    env = BatchEnv(game, 3, batch, seed=7, opponents=("greedy", "random"), reward="margin")
    obs, masks, _ = env.reset()
    seen: list[Any] = [obs[:4].copy()]
    for _ in range(steps):
        # a choice that depends on the game only: the last legal action
        actions = masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)
        obs, masks, _, rewards, dones = env.step(actions)
        seen += [obs[:4].copy(), rewards[:4].copy(), dones[:4].copy(), env.seats[:4].copy()]
    return seen


@pytest.mark.parametrize("game", ["cards", "board"])
def test_reproducible_whatever_the_batch_size(game: str) -> None:
    small, large = _first_legal_run(game, 4, 300), _first_legal_run(game, 9, 300)
    assert all(np.array_equal(a, b) for a, b in zip(small, large, strict=True))


@pytest.mark.parametrize("game", ["cards", "board"])
def test_self_play_and_the_seat_to_move(game: str) -> None:
    env = BatchEnv(game, 4, 8, seed=3, opponents=None)
    obs, masks, to_move = env.reset()
    assert obs.shape == (8, env.size)
    assert obs.dtype == np.float32
    assert masks.shape == (8, env.actions.size) == (8, {"board": 124, "cards": 500}[game])
    assert masks.dtype == np.int8
    assert (to_move == 0).all()
    assert (env.seats == -1).all()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400 if game == "cards" else 1500):
        obs, masks, to_move, rewards, dones = env.step(
            np.argmax(masks * rng.random(masks.shape), axis=1)
        )
        assert rewards.shape == (8, 4)
        assert (rewards[~dones] == 0).all()
        assert (masks.sum(axis=1) > 0).all()
        ended += int(dones.sum())
        if dones.any():
            assert np.allclose(rewards[dones].sum(axis=1), 1.0)  # win shares
    assert ended > 0


@pytest.mark.parametrize("game", ["cards", "board"])
def test_an_illegal_action_changes_nothing(game: str) -> None:
    env = BatchEnv(game, 2, 3, seed=5)
    obs, masks, _ = env.reset()
    before = obs.copy()
    actions = np.argmax(masks, axis=1)
    actions[1] = int(np.flatnonzero(masks[1] == 0)[0])
    with pytest.raises(ValueError, match="not legal in game 1"):
        env.step(actions)
    assert np.array_equal(env.obs, before)
    with pytest.raises(ValueError, match="opponents play inside the kernel"):
        BatchEnv(game, 2, 3, opponents="heuristic")


@pytest.mark.parametrize("game", ["cards", "board"])
def test_the_observations_are_read_only_and_kept_up_to_date(game: str) -> None:
    """The kernel writes only what a step changed: a row changed from outside would stay
    wrong, so the rows handed out refuse changes, and each row equals the seat to move's
    observation written whole (here every step of a few hundred, self-play switching the
    viewer at every turn and the learner keeping its seat)."""
    for opponents in (None, "random"):
        env = BatchEnv(game, 3, 6, seed=8, opponents=opponents)
        obs, masks, to_move = env.reset()
        with pytest.raises(ValueError, match="read-only"):
            obs[0, 0] = 1.0
        k = env._k
        whole = np.zeros(env.size, dtype=np.float32)
        rng = np.random.default_rng(1)
        for _ in range(300):
            obs, masks, to_move, _, _ = env.step(np.argmax(masks * rng.random(masks.shape), axis=1))
            for b in range(env.batch):
                k.observe(env._states[b], env._extras[b], int(to_move[b]), env._offsets, whole)
                assert np.array_equal(obs[b], whole), (opponents, b)


@pytest.mark.parametrize("game", ["cards", "board"])
def test_the_vector_env(game: str) -> None:
    gym = pytest.importorskip("gymnasium")
    from keltis.fast.vector import BatchVectorEnv

    envs = BatchVectorEnv(game, 6, 2, "greedy", reward="win", autoreset_mode="SameStep")
    assert isinstance(envs, gym.vector.VectorEnv)
    obs, _info = envs.reset(seed=11)
    assert envs.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300 if game == "cards" else 600):
        mask = obs["action_mask"]
        obs, reward, terminated, truncated, infos = envs.step(
            np.argmax(mask * rng.random(mask.shape), axis=1)
        )
        if "final_info" in infos:
            ended = infos["_final_info"]
            assert (terminated | truncated)[ended].all()
            share = infos["final_info"]["win_share"][ended]
            assert np.array_equal(reward[ended], share)
            assert not any(final["action_mask"].any() for final in infos["final_obs"][ended])
            finished += int(ended.sum())
    assert finished > 0


@pytest.mark.train
def test_train_ppo_runs_on_the_batch_for_the_board_game(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="pip install 'keltis[rl-train]' (or torch==2.13.0)")
    pytest.importorskip("gymnasium", reason="pip install 'keltis[rl]'")
    out = tmp_path / "board.pt"
    args = ["--env", "batch", "--game", "board", "--opponents", "greedy", "--envs", "4",
            "--rollout", "32", "--steps", "256", "--minibatches", "2", "--epochs", "1",
            "--out", str(out)]  # fmt: skip
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_ppo.py"), *args],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    log = json.loads(out.with_name("board-log.json").read_text())
    assert log["log"][-1]["steps"] == 256


@pytest.mark.train
def test_train_ppo_runs_on_the_batch_against_mixed_opponents(tmp_path: Path) -> None:
    """The batch plays the default line-up, heuristic seats included (medium in the kernel),
    one opponent per environment; the log counts the games against each."""
    pytest.importorskip("torch", reason="pip install 'keltis[rl-train]' (or torch==2.13.0)")
    pytest.importorskip("gymnasium", reason="pip install 'keltis[rl]'")
    out = tmp_path / "cards.pt"
    args = ["--env", "batch", "--game", "cards", "--opponents", "random,heuristic", "--envs",
            "4", "--rollout", "64", "--steps", "512", "--minibatches", "2", "--epochs", "1",
            "--out", str(out)]  # fmt: skip
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_ppo.py"), *args],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    log = json.loads(out.with_name("cards-log.json").read_text())
    assert log["log"][-1]["steps"] == 512


def test_reseeded_keeps_every_setting() -> None:
    """``reseeded`` (the vector envs' reset with a seed) deals as a new batch of the same
    settings would from that seed."""
    settings: dict[str, Any] = {"seat": 1, "reward": "margin", "variant": {"turn_cap": 300}}
    env = BatchEnv("cards", 3, 4, 0, ["greedy", "random"], **settings)
    again = env.reseeded(5)
    fresh = BatchEnv("cards", 3, 4, 5, ["greedy", "random"], **settings)
    assert again.info() == fresh.info()
    for a, b in zip(again.reset(), fresh.reset(), strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("game", ["cards", "board"])
def test_the_masks_handed_out_cannot_let_an_illegal_action_through(game: str) -> None:
    """Setting a mask entry to 1 once let the kernel accept an illegal action (a card then
    existed three times): the masks handed out are read-only, and the kernel checks against
    its own copy, which the view handed out cannot be made to change."""
    env = BatchEnv(game, 2, 3, seed=5)
    _, masks, _ = env.reset()
    with pytest.raises(ValueError, match="read-only"):
        masks[1, 0] = 1
    with pytest.raises(ValueError, match="WRITEABLE"):
        masks.flags.writeable = True
    illegal = int(np.flatnonzero(masks[1] == 0)[0])
    actions = np.argmax(masks, axis=1)
    actions[1] = illegal
    with pytest.raises(ValueError, match="not legal in game 1"):
        env.step(actions)
    assert not env.masks[1, illegal]


@pytest.mark.parametrize("game", ["cards", "board"])
def test_actions_that_are_not_whole_numbers_are_refused(game: str) -> None:
    """0.5 was once cut down to action 0 without a word."""
    env = BatchEnv(game, 2, 2, seed=5)
    _, masks, _ = env.reset()
    before = np.array(masks)
    legal = np.argmax(masks, axis=1)
    for wrong in (legal + 0.5, legal.astype(np.float64), np.array([True, True]), ["0", "1"]):
        with pytest.raises(ValueError, match="whole numbers"):
            env.step(wrong)
    assert np.array_equal(env.masks, before)
    env.step(legal.astype(np.int32))  # any integer type is taken
    env.step([int(a) for a in np.argmax(env.masks, axis=1)])  # and a list of ints


def _deals(env: BatchEnv) -> list[Any]:
    return [env.episode_setup(b, int(env.episodes[b]))[0] for b in range(env.batch)]


@pytest.mark.parametrize("game", ["cards", "board"])
def test_a_reset_without_a_seed_deals_new_games_and_a_seed_replays(game: str) -> None:
    """``reset()`` without a seed once dealt episode 0 again; Gymnasium's vector envs deal new
    games. It now goes on along the seed's sequence; ``reset(seed)`` reproduces."""
    env = BatchEnv(game, 2, 4, seed=9)
    first = env.reset()[0].copy()
    deals = [_deals(env)]
    for _ in range(3):
        env.reset()
        deals.append(_deals(env))
    seen = [json.dumps(d, sort_keys=True) for round_ in deals for d in round_]
    assert len(set(seen)) == len(seen)  # 16 deals, none twice
    again = env.reset(seed=9)[0]
    assert np.array_equal(again, first)
    assert _deals(env) == deals[0]
    other = BatchEnv(game, 2, 4, seed=10)
    assert np.array_equal(env.reset(seed=10)[0], other.reset()[0])


@pytest.mark.parametrize("game", ["cards", "board"])
def test_the_vector_envs_reset_without_a_seed_deals_new_games(game: str) -> None:
    gym = pytest.importorskip("gymnasium")
    del gym
    from keltis.fast.vector import BatchVectorEnv

    envs = BatchVectorEnv(game, 3, 2, "random", seed=4)
    first, _ = envs.reset(seed=4)
    second, _ = envs.reset()
    assert not np.array_equal(first["observation"], second["observation"])
    third, _ = envs.reset(seed=4)
    assert np.array_equal(first["observation"], third["observation"])


def _play(env: BatchEnv, steps: int, seed: int) -> list[tuple[Any, ...]]:
    """``steps`` steps with legal actions drawn from ``seed``: what each returned, copied."""
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(steps):
        masks = env.masks
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        obs, masks, to_move, rewards, dones = env.step(actions)
        seen.append(
            (actions, obs.copy(), masks.copy(), to_move.copy(), rewards.copy(), dones.copy())
        )
    return seen


def _same(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> bool:
    return all(
        all(np.array_equal(x, y) for x, y in zip(one, other, strict=True))
        for one, other in zip(a, b, strict=True)
    )


@pytest.mark.parametrize("game", ["cards", "board"])
def test_a_snapshot_restored_plays_on_exactly_as_before(game: str) -> None:
    """Games as data (issue 43 §3): a snapshot taken mid-game and restored replays the same
    steps to the same observations, masks, rewards and ends — episodes ending on the way
    included — for learner seats against opponents and in self-play."""
    for opponents in ("greedy", None):
        env = BatchEnv(game, 3, 5, seed=21, opponents=opponents)
        env.reset()
        _play(env, 40, seed=1)
        snap = env.snapshot()
        assert len(snap) == 5
        steps = 250 if game == "cards" else 600  # long enough that games end on the way
        first = _play(env, steps, seed=2)
        env.restore(snap)
        again = _play(env, steps, seed=2)
        assert _same(first, again)
        assert any(step[5].any() for step in first)  # some games ended on the way


@pytest.mark.parametrize("game", ["cards", "board"])
def test_a_game_restored_into_other_slots_is_the_same_game(game: str) -> None:
    env = BatchEnv(game, 2, 4, seed=3, opponents=None)
    env.reset()
    _play(env, 10, seed=4)
    one = env.snapshot([1])
    env.restore(one, [2])
    env.restore(env.snapshot(np.array([False, True, False, False])), np.array([3]))
    for slot in (2, 3):
        assert np.array_equal(env.obs[slot], env.obs[1])
        assert np.array_equal(env.masks[slot], env.masks[1])
    rng = np.random.default_rng(5)
    for _ in range(8):  # the same moves in the three copies keep them equal
        choice = int(np.argmax(env.masks[1] * rng.random(env.masks.shape[1])))
        actions = np.argmax(env.masks, axis=1)
        actions[1:] = choice
        _, _, _, _, dones = env.step(actions)
        if dones[1:].any():
            break
        assert np.array_equal(env.obs[2], env.obs[1])
        assert np.array_equal(env.obs[3], env.obs[1])


@pytest.mark.parametrize("game", ["cards", "board"])
def test_resetting_some_games_deals_them_their_next_episode_only(game: str) -> None:
    env = BatchEnv(game, 2, 4, seed=8)
    env.reset()
    _play(env, 5, seed=6)
    before = env.snapshot()
    episodes = env.episodes.copy()
    obs, masks, _ = env.reset_games([0, 2])
    assert env.episodes.tolist() == [episodes[0] + 1, episodes[1], episodes[2] + 1, episodes[3]]
    for slot in (1, 3):  # untouched
        assert np.array_equal(obs[slot], before.obs[slot])
        assert np.array_equal(masks[slot], before.masks[slot])
    for slot in (0, 2):  # the next deal of the seed's sequence: as another batch deals it
        other = BatchEnv(game, 2, 4, seed=8)
        other.reset()
        other.episodes[slot] = env.episodes[slot] - 1
        other.reset_games([slot])
        assert np.array_equal(other.obs[slot], obs[slot])
        assert np.array_equal(other.masks[slot], masks[slot])
        assert not np.array_equal(obs[slot], before.obs[slot])
    assert env.reset_games([])[0] is env.obs  # nothing to reset: nothing changes
    mask = np.zeros(4, dtype=np.bool_)
    mask[3] = True
    env.reset_games(mask)
    assert env.episodes[3] == episodes[3] + 1


def test_snapshots_and_resets_refuse_what_does_not_fit() -> None:
    env = BatchEnv("cards", 2, 3, seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        env.reset_games([0])
    env.reset()
    with pytest.raises(ValueError, match="no game slot"):
        env.reset_games([3])
    with pytest.raises(ValueError, match="shape"):
        env.reset_games(np.array([True, False]))
    with pytest.raises(ValueError, match="slot indices"):
        env.reset_games([0.5])
    snap = env.snapshot([0, 1])
    with pytest.raises(ValueError, match="2 slot indices"):
        env.restore(snap, [0])
    with pytest.raises(ValueError, match="distinct slots"):
        env.restore(snap, [1, 1])
    with pytest.raises(ValueError, match="distinct slots"):
        env.restore(snap, [2, 3])
    with pytest.raises(ValueError, match="does not fit"):
        BatchEnv("board", 2, 3, seed=1).restore(snap)
    with pytest.raises(ValueError, match="does not fit"):
        BatchEnv("cards", 3, 3, seed=1).restore(snap)


def test_a_list_of_seeds_deals_each_game_as_a_batch_of_one() -> None:
    """``BatchEnv.reset([s0, s1, …])``: game ``b`` is dealt and played as a one-game batch
    seeded ``s_b`` (the stream the single env and the vector env share)."""
    env = BatchEnv("cards", 2, 3, seed=0, opponents="random")
    obs, masks, _ = env.reset([5, 6, 7])
    one = BatchEnv("cards", 2, 1, seed=6, opponents="random")
    alone, alone_masks, _ = one.reset()
    assert np.array_equal(obs[1], alone[0])
    assert np.array_equal(masks[1], alone_masks[0])
    assert env.seeds.tolist() == [5, 6, 7]
    assert env.indices.tolist() == [0, 0, 0]
    assert not np.array_equal(obs[0], obs[1])
    # reset(int) is the batch's stream again: game b is (seed, b)
    again, _, _ = env.reset(6)
    assert env.indices.tolist() == [0, 1, 2]
    assert np.array_equal(again[0], alone[0])
    assert not np.array_equal(again[1], alone[0])
    with pytest.raises(ValueError, match="3 games need 3 seeds"):
        env.reset([1, 2])


def test_a_step_of_some_games_leaves_the_others_as_they_are() -> None:
    env = BatchEnv("board", 2, 3, seed=4, opponents="greedy")
    _, masks, _ = env.reset()
    before = env.snapshot()
    actions = np.argmax(masks, axis=1)
    actions[1] = -1  # not read
    env.step(actions, games=[0, 2])
    after = env.snapshot([1])
    assert np.array_equal(after.states[0], before.states[1])
    assert np.array_equal(after.obs[0], before.obs[1])
    assert not env.dones[1]
    assert env.rewards[1].tolist() == [0.0, 0.0]
    assert not np.array_equal(env.snapshot([0]).states[0], before.states[0])
