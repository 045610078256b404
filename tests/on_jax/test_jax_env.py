"""keltis.jax: both games as pgx environments in JAX.

The proof of equality with the numba kernel (keltis.jax.diff) on a few hundred games per game
and player count (benchmarks/jax_diff.py runs 10,000 and commits them), the hidden-information
check, the deal, pgx's API and the compiled rollouts (jit, vmap, lax.scan).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="keltis.jax needs jax: pip install 'keltis[jax]'")
pgx = pytest.importorskip("pgx", reason="keltis.jax needs pgx: pip install 'keltis[jax]'")
pytest.importorskip("numba", reason="the proof compares with keltis.fast: 'keltis[fast]'")

import jax.numpy as jnp  # noqa: E402

import keltis.jax  # noqa: E402
from keltis.board.layout import ALL_TILES, Layout  # noqa: E402
from keltis.cards.tables import COPIES  # noqa: E402
from keltis.env.encode import observation_size  # noqa: E402
from keltis.games import get_game  # noqa: E402
from keltis.jax.diff import compare  # noqa: E402

GAMES = ("board", "cards")
PLAYERS = (2, 3, 4)


def _clean(result: dict[str, Any]) -> None:
    assert result["examples"] == []
    assert set(result["differences"].values()) == {0}


@pytest.mark.parametrize("game", GAMES)
def test_two_player_random_games_equal_the_kernel(game: str) -> None:
    result = compare(game, 2, 40, batch=20, seed=1)
    _clean(result)
    assert result["games"] >= 40
    assert result["decisions"] > 40 * 100


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("game", GAMES)
def test_random_games_equal_the_kernel(game: str, players: int) -> None:
    result = compare(game, players, 200, batch=100, seed=20_000 + players)
    _clean(result)
    assert result["games"] >= 200


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("game", GAMES)
def test_games_against_medium_equal_the_kernel(game: str, players: int) -> None:
    """The heuristic's games reach what random ones rarely do: the goal end (B-19), overflow
    and clover moves, the card game's closed rows (C-13) and last lays (C-15); the learner's
    decisions there are lays where it can (``lays``)."""
    result = compare(game, players, 100, batch=50, seed=30_000, opponents="medium", policy="lays")
    _clean(result)
    wanted = "goal" if game == "board" else "closed"
    assert result["ends"][wanted] > 10


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_variants_and_margin_rewards_equal_the_kernel(game: str) -> None:
    variant: dict[str, Any] = {"turn_cap": 30}
    if game == "board":
        variant["no_take_back"] = False
    result = compare(
        game, 3, 100, batch=50, seed=40_000, reward="margin", policy="lays", variant=variant
    )
    _clean(result)
    assert result["ends"]["truncated"] > 50


# -- hidden information --------------------------------------------------------------------


def _random_rollout(env: Any, games: int, steps: int, seed: int) -> list[Any]:
    """States of ``games`` random games after 0, steps/4, … steps decisions each."""
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))
    state = init(jax.random.split(jax.random.key(seed), games))
    key = jax.random.key(seed + 1)
    seen = [state]
    for i in range(steps):
        key, sub = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        state = step(state, jax.random.categorical(sub, logits))
        if (i + 1) % (steps // 4) == 0:
            seen.append(state)
    return seen


def _one(batch: Any, b: int) -> Any:
    return jax.tree_util.tree_map(lambda a: a[b], batch)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("game", GAMES)
def test_redealing_what_a_seat_cannot_see_leaves_its_observation(game: str, players: int) -> None:
    env = keltis.jax.make(game, players)
    observe = jax.jit(env.observe)
    module = get_game(game).part("jax")
    rng = np.random.default_rng(7)
    changed = 0
    for batch in _random_rollout(env, 8, 120, seed=3):
        for b in range(8):
            state = _one(batch, b)
            for viewer in range(players):
                other = module.redeal(state, viewer, rng)
                before = np.asarray(observe(state, viewer))
                after = np.asarray(observe(other, viewer))
                assert np.array_equal(before, after), (game, players, b, viewer)
                changed += not np.array_equal(np.asarray(state._hand), np.asarray(other._hand))
                # the re-deal keeps every card: the same multiset of hidden cards
                assert int(other._hand.sum()) == int(state._hand.sum())
    assert changed > 40  # the check has teeth: most re-deals move cards between hands


def test_a_seat_sees_its_own_hand_and_not_the_others() -> None:
    env = keltis.jax.make("cards", 3)
    state = env.init(jax.random.key(5))
    lay = _layout("cards", 3)
    for seat in range(3):
        seen = np.asarray(env.observe(state, seat))
        hand = seen[lay.slice("hand")] * 2
        assert np.array_equal(hand, np.asarray(state._hand[seat], dtype=np.float32))


def _layout(game: str, players: int) -> Any:
    from keltis.env.encode import observation_layout  # the test's own helper import

    return observation_layout(game, players)


# -- the deal ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_the_card_deal_follows_c5_c6(players: int) -> None:
    env = keltis.jax.make("cards", players)
    state = env.init(jax.random.key(players))
    hand = np.asarray(state._hand)
    assert hand.sum(axis=1).tolist() == [8] * players
    deck = np.asarray(state._deck)[: int(state._deck_n)]
    assert len(deck) == 101 - 8 * players - (30 if players == 2 else 0)
    held = Counter(deck.tolist()) + Counter(
        {c: int(hand[:, c].sum()) for c in range(71) if hand[:, c].sum()}
    )
    assert all(count <= COPIES[card] for card, count in held.items())
    assert int(state.current_player) == 0
    assert np.asarray(state._wish_row).tolist() == [False] + [True] * 9


@pytest.mark.parametrize("players", PLAYERS)
def test_the_board_deal_follows_b6_b8(players: int) -> None:
    env = keltis.jax.make("board", players)
    state = env.init(jax.random.key(players))
    assert np.asarray(state._hand).sum(axis=1).tolist() == [8] * players
    assert int(state._deck_n) == 110 - 8 * players - (30 if players == 2 else 0)
    tiles = np.asarray(state._tiles)
    assert sorted(t for t in tiles.reshape(-1) if t) == sorted(t for t in ALL_TILES if t)
    placed = {(c, r) for c in range(5) for r in range(10) if tiles[c, r]}
    default = {(c, r) for c, dark in enumerate(((2, 4, 6, 8), (1, 3, 5, 7), (2, 3, 5, 8),
               (1, 4, 6, 7), (3, 4, 6, 8))) for r in (*dark, 9)}  # fmt: skip
    assert placed <= default
    assert all(tiles[c, 9] for c in range(5))  # every end stone holds a tile


def test_a_board_layout_is_a_construction_argument() -> None:
    dark = ((1, 2, 3, 4), (1, 2, 3, 4), (5, 6, 7, 8), (5, 6, 7, 8), (1, 3, 5, 7))
    layout = Layout("test", dark)
    for given in (layout, layout.to_json()):
        env = keltis.jax.make("board", 2, layout=given)
        tiles = np.asarray(env.init(jax.random.key(0))._tiles)
        assert {(c, r) for c in range(5) for r in range(10) if tiles[c, r]} == {
            (c, r) for c in range(5) for r in (*dark[c], 9)
        }


def test_the_same_key_deals_the_same_game_and_another_key_another() -> None:
    env = keltis.jax.make("board", 3)
    a, b = env.init(jax.random.key(11)), env.init(jax.random.key(11))
    c = env.init(jax.random.key(12))
    assert np.array_equal(np.asarray(a._deck), np.asarray(b._deck))
    assert np.array_equal(np.asarray(a._tiles), np.asarray(b._tiles))
    assert not np.array_equal(np.asarray(a._deck), np.asarray(c._deck))


# -- pgx's API, compiled rollouts ------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_environment_is_a_pgx_env(game: str) -> None:
    env = keltis.jax.make(game, 3)
    assert isinstance(env, pgx.core.Env)
    assert env.num_players == 3
    assert env.num_actions == get_game(game).actions.size
    assert env.observation_shape == (observation_size(game, 3),)
    assert env.id == f"keltis-{game}" == env.init(jax.random.key(0)).env_id
    assert env.version == "v1"


@pytest.mark.parametrize("game", GAMES)
def test_a_scan_rollout_plays_whole_games_under_jit_and_vmap(game: str) -> None:
    env = keltis.jax.make(game, 2)
    games = 32

    def body(carry: Any, key: Any) -> tuple[Any, Any]:
        state, paid = carry
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        actions = jax.random.categorical(key, logits)
        state = jax.vmap(env.step)(state, actions)
        return (state, paid + state.rewards), None

    @jax.jit
    def rollout(key: Any) -> Any:
        init_key, play_key = jax.random.split(key)
        state = jax.vmap(env.init)(jax.random.split(init_key, games))
        keys = jax.random.split(play_key, 1500)
        (state, paid), _ = jax.lax.scan(body, (state, jnp.zeros((games, 2))), keys)
        return state, paid

    state, paid = rollout(jax.random.key(2))
    assert bool(state.terminated.all())
    # the win reward: the seats sharing the best score share 1, paid once at the end
    assert np.allclose(np.asarray(paid).sum(axis=1), 1.0)


@pytest.mark.parametrize("players", PLAYERS)
def test_an_illegal_action_ends_the_game_as_pgx_does(players: int) -> None:
    env = keltis.jax.make("cards", players)
    state = env.init(jax.random.key(0))
    illegal = int(np.flatnonzero(~np.asarray(state.legal_action_mask))[0])
    after = env.step(state, jnp.int32(illegal))
    assert bool(after.terminated)
    rewards = np.asarray(after.rewards)
    assert rewards[0] == -1.0  # seat 0 chose it
    assert np.allclose(rewards[1:], 1 / (players - 1))  # the others share +1


def test_make_refuses_what_it_cannot_build() -> None:
    with pytest.raises(ValueError, match="2-4 players"):
        keltis.jax.make("cards", 5)
    with pytest.raises(ValueError, match="reward"):
        keltis.jax.make("board", 2, reward="score")
    with pytest.raises(ValueError, match="layout"):
        keltis.jax.make("cards", 2, layout="default")
    with pytest.raises(Exception, match=r"turn_cap|switch"):
        keltis.jax.make("cards", 2, take_back=True)
    with pytest.raises(Exception, match="chess"):
        keltis.jax.make("chess", 2)
