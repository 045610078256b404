"""keltis.fast.vector: the batch as Gymnasium's vector API has it (issue 43 §2).

``gymnasium.make_vec("keltis/Cards-v1", vectorization_mode="vector_entry_point")`` (the
batch, ``BatchVectorEnv``) is compared step by step with ``SyncVectorEnv`` over the single
environment ``keltis/Cards-v1`` (``FastEnv``) in every autoreset mode: the same seeds and
legal actions give the same observations, rewards, flags and infos (``final_obs``,
``final_info`` and the ``_`` masks included), with Gymnasium's own ``data_equivalence``.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba", reason="keltis.fast needs numba: pip install 'keltis[fast]'")
gym = pytest.importorskip("gymnasium", reason="pip install 'keltis[rl]'")

from gymnasium.utils.env_checker import check_env, data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

import keltis.env  # noqa: E402  (registers the ids)
from keltis.fast import BatchEnv, make  # noqa: E402
from keltis.fast.vector import BatchVectorEnv, FastEnv  # noqa: E402

MODES = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED)
ENVS = 3
# enough learner decisions for two game ends per environment or so (random opponents:
# a cards game takes 54-191 of them, median 121; a board game 149-280, median 214)
STEPS = {"cards": 360, "board": 600}


def _pair(game: str, mode: AutoresetMode, **kwargs: Any) -> tuple[Any, Any]:
    env_id = keltis.env.FAST_GYM_IDS[game]
    batch = gym.make_vec(
        env_id, num_envs=ENVS, vectorization_mode="vector_entry_point", autoreset_mode=mode,
        **kwargs,
    )  # fmt: skip
    sync = gym.make_vec(
        env_id, num_envs=ENVS, vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": mode}, **kwargs,
    )  # fmt: skip
    return batch, sync


def _same(what: str, batch: Any, sync: Any) -> None:
    """``batch`` and ``sync`` are equal to Gymnasium (types, dtypes, shapes, keys, values);
    for a dict, says which key differs."""
    if isinstance(sync, dict) and isinstance(batch, dict):
        assert batch.keys() == sync.keys(), (what, sorted(batch), sorted(sync))
        for key in sync:
            _same(f"{what}[{key!r}]", batch[key], sync[key])
    assert data_equivalence(batch, sync, exact=True), (what, batch, sync)


@pytest.mark.parametrize(
    ("game", "opponents"),
    [("cards", "random"), ("board", "random"), ("cards", None), ("board", None)],
    ids=["cards", "board", "cards-self-play", "board-self-play"],
)
@pytest.mark.parametrize("mode", MODES)
def test_the_batch_steps_as_sync_vector_env_does(
    game: str, opponents: str | None, mode: AutoresetMode
) -> None:
    """Against random opponents and in self-play (``opponents=None``: every seat decided by
    the learner, the reward the deciding seat's, ``to_move`` and every seat's ``rewards`` in
    the infos)."""
    batch, sync = _pair(game, mode, opponents=opponents)
    assert isinstance(batch.unwrapped, BatchVectorEnv)
    assert isinstance(sync.unwrapped, SyncVectorEnv)
    assert batch.metadata["autoreset_mode"] == sync.metadata["autoreset_mode"] == mode
    obs = _both("reset", batch.reset(seed=7), sync.reset(seed=7))
    rng = np.random.default_rng(1)
    ends = 0
    # in self-play every seat's decision is a step: twice as many a game
    for step in range(STEPS[game] * (1 if opponents else 2)):
        if step == 5:  # seeds as a list, one environment going on to its next game
            obs = _both(
                "reset(list)", batch.reset(seed=[3, None, 90]), sync.reset(seed=[3, None, 90])
            )
        masks = obs["action_mask"]
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        got = batch.step(actions)
        want = sync.step(actions)
        for name, a, b in zip(
            ("obs", "reward", "terminated", "truncated", "infos"), got, want, strict=True
        ):
            _same(f"step {step} {name}", a, b)
        obs = got[0]
        ended = got[2] | got[3]
        ends += int(ended.sum())
        if mode == AutoresetMode.DISABLED and ended.any():
            # every other time from seeds (those of environments not reset are not read),
            # else each game's next one
            seeds = [100 + step + i if ends % 2 else None for i in range(ENVS)]
            obs = _both(
                f"step {step} reset_mask",
                batch.reset(seed=seeds, options={"reset_mask": ended.copy()}),
                sync.reset(seed=seeds, options={"reset_mask": ended.copy()}),
            )
    assert ends >= 2 * ENVS, ends


def _both(what: str, got: tuple[Any, Any], want: tuple[Any, Any]) -> Any:
    """The results of a reset, equal: the observations."""
    _same(f"{what} obs", got[0], want[0])
    _same(f"{what} info", got[1], want[1])
    return got[0]


class _Legal(gym.ActionWrapper):  # type: ignore[misc]
    """Any action id as a legal one (the ``i % k``-th of the ``k`` legal): Gymnasium's checker
    samples actions from the whole space, which the kernel refuses where not legal."""

    def action(self, action: Any) -> np.int64:
        legal = np.flatnonzero(self.env.unwrapped.action_masks())
        return np.int64(legal[int(action) % len(legal)])


@pytest.mark.parametrize("game", ["cards", "board"])
def test_gymnasiums_env_checker_passes_the_single_env(game: str) -> None:
    assert isinstance(gym.make(keltis.env.FAST_GYM_IDS[game]).unwrapped, FastEnv)
    with warnings.catch_warnings():
        # any warning of the checker's fails, but the one that it checks through a wrapper
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*different from the unwrapped")
        # made without a spec: Gymnasium would remake the wrapper from one
        check_env(_Legal(FastEnv(game)), skip_render_check=True)


def test_the_single_env_refuses_a_step_after_the_end() -> None:
    env = FastEnv("cards", opponents="greedy")
    obs, info = env.reset(seed=2)
    terminated = truncated = False
    while not (terminated or truncated):
        action = np.flatnonzero(obs["action_mask"])[0]
        obs, _reward, terminated, truncated, info = env.step(action)
    assert not obs["action_mask"].any()
    assert set(info) == {"seat", "scores", "rewards", "win_share"}
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(np.int64(0))


@pytest.mark.parametrize(("game", "players"), [("cards", 2), ("board", 3)])
def test_self_play_decides_for_every_seat_and_pays_the_deciding_one(
    game: str, players: int
) -> None:
    """``FastEnv(opponents=None)``: each observation is the view of the seat to move (as
    ``BatchEnv``'s self-play gives it), the step's reward is the deciding seat's, and the
    end's info holds every seat's reward."""
    env = FastEnv(game, players, opponents=None)
    ref = BatchEnv(game, players, 1, 0, opponents=None)
    ref_obs, ref_masks, ref_to_move = ref.reset([4])
    obs, info = env.reset(seed=4)
    assert info == {"seat": int(ref_to_move[0]), "to_move": int(ref_to_move[0])}
    rng = np.random.default_rng(3)
    seats_seen = set()
    done = False
    while not done:
        assert np.array_equal(obs["observation"], ref_obs[0])
        assert np.array_equal(obs["action_mask"], ref_masks[0])
        actor = int(ref_to_move[0])
        seats_seen.add(actor)
        action = rng.choice(np.flatnonzero(obs["action_mask"]))
        obs, reward, terminated, truncated, info = env.step(action)
        ref_obs, ref_masks, ref_to_move, ref_rewards, ref_dones = ref.step(np.array([action]))
        done = terminated or truncated
        assert done == bool(ref_dones[0])
        assert info["seat"] == actor
        assert reward == ref_rewards[0, actor]
        if not done:
            assert info["to_move"] == int(ref_to_move[0])
            assert set(info) == {"seat", "to_move"}
    assert seats_seen == set(range(players))
    assert info["to_move"] == actor  # the last observation is the deciding seat's
    assert np.array_equal(obs["observation"], ref.final_obs[0])
    assert np.array_equal(info["rewards"], ref_rewards[0])
    assert sorted(info["rewards"])[-1] > 0  # a game's end pays its winner
    best = info["scores"].max()
    assert info["win_share"] == (
        1 / (info["scores"] == best).sum() if info["scores"][actor] == best else 0.0
    )


def test_disabled_autoreset_needs_a_reset_of_the_finished_games() -> None:
    envs = BatchVectorEnv("cards", 2, autoreset_mode="Disabled", opponents="greedy")
    assert envs.metadata["autoreset_mode"] == AutoresetMode.DISABLED
    assert BatchVectorEnv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, _ = envs.reset(seed=1)
    ended = np.zeros(2, dtype=np.bool_)
    while not ended.any():
        obs, _, terminated, truncated, _ = envs.step(np.argmax(obs["action_mask"], axis=1))
        ended = terminated | truncated
    with pytest.raises(RuntimeError, match="reset_mask"):
        envs.step(np.argmax(obs["action_mask"], axis=1))
    obs, info = envs.reset(options={"reset_mask": ended})
    assert info["_seat"].tolist() == ended.tolist()
    assert obs["action_mask"].any(axis=1).all()
    envs.step(np.argmax(obs["action_mask"], axis=1))


def test_make_is_a_batch_env_as_pgx_makes_one() -> None:
    env = make("board", 3, 8, seed=5, opponents="greedy", reward="margin")
    assert isinstance(env, BatchEnv)
    assert env.info() == BatchEnv("board", 3, 8, 5, "greedy", reward="margin").info()


def test_the_example_of_docs_rl_md_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
    section = text.split("### The batch for Gymnasium and pgx users", 1)[1]
    block = re.search(r"^```python\n(.*?)^```", section, re.MULTILINE | re.DOTALL)
    assert block is not None
    exec(compile(block.group(1), "docs/rl.md", "exec"), {})
    assert re.fullmatch(r"\d+\.\d games won against greedy\n", capsys.readouterr().out)
