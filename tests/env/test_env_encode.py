"""The observation encoder: built from one seat's view only (re-dealing every card the seat
cannot see never changes a tensor), fixed size per game and player count, within the bounds
its layout declares, and a mask that is exactly the legal actions."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

np = pytest.importorskip("numpy", reason="keltis.env needs numpy (pip install 'keltis[rl]')")

from keltis.core.protocol import GameState  # noqa: E402
from keltis.env.encode import (  # noqa: E402
    SCORE_SCALE,
    action_mask,
    encode,
    observation_layout,
    observation_size,
)
from keltis.games import get_game  # noqa: E402
from support import rehide  # noqa: E402

GAMES = ("board", "cards")
PLAYERS = (2, 3, 4)


def positions(game: str, players: int, seed: int, every: int) -> Iterator[GameState]:
    """Every ``every``-th position of a seeded random game, and its last one."""
    state = get_game(game).new_game(players, seed=seed)
    rng = random.Random(seed)
    while not state.over:
        if len(state.history) % every == 0:
            yield state
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    yield state


def test_the_sizes_are_fixed_per_game_and_player_count() -> None:
    sizes = {(g, n): observation_size(g, n) for g in GAMES for n in PLAYERS}
    assert sizes == {
        ("board", 2): 946,
        ("board", 3): 1186,
        ("board", 4): 1426,
        ("cards", 2): 741,
        ("cards", 3): 985,
        ("cards", 4): 1229,
    }


@pytest.mark.parametrize("game", GAMES)
def test_the_layout_is_contiguous_and_names_each_field_once(game: str) -> None:
    lay = observation_layout(game, 3)
    names = [f.name for f in lay.table]
    assert len(set(names)) == len(names)
    assert len({f.name for f in lay.player}) == len(lay.player)
    at = 0
    for f in lay.table:
        assert lay.offset(f.name) == at
        at += f.size
    for k in range(3):
        for f in lay.player:
            assert lay.offset(f.name, k) == at
            assert lay.slice(f.name, k) == slice(at, at + f.size)
            at += f.size
    assert at == lay.size
    low, high = lay.bounds()
    assert low.shape == high.shape == (lay.size,)
    assert (low <= high).all()
    assert (low < high).any()
    with pytest.raises(KeyError):
        lay.offset("nothing")
    with pytest.raises(IndexError):
        lay.offset("score", 3)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("game", GAMES)
def test_hidden_cards_never_change_a_tensor_and_the_mask_is_the_legal_actions(
    game: str, players: int
) -> None:
    rng = random.Random(players)
    lay = observation_layout(game, players)
    low, high = lay.bounds()
    checked = 0
    for seed in range(3):
        for state in positions(game, players, seed, every=5):
            for seat in range(players):
                view = state.view(seat)
                x = encode(view)
                assert x.dtype == np.float32
                assert x.shape == (lay.size,)
                assert (x >= low).all(), (seed, len(state.history))
                assert (x <= high).all(), (seed, len(state.history))
                for _ in range(2):
                    other = rehide(state, seat, rng).view(seat)
                    assert np.array_equal(encode(other), x), (seed, len(state.history), seat)
                mask = action_mask(view)
                assert mask.dtype == np.int8
                space = get_game(game).actions
                assert mask.shape == (space.size,)
                legal = (
                    {space.index(a) for a in state.legal_actions()}
                    if seat == state.current_player
                    else set()
                )
                assert set(np.flatnonzero(mask).tolist()) == legal
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("game", GAMES)
def test_player_blocks_start_with_the_viewer_then_follow_turn_order(game: str) -> None:
    state = next(s for s in positions(game, 4, 9, every=40) if len(s.history) >= 40)
    scores = state.scores()
    lay = observation_layout(game, 4)
    for seat in range(4):
        x = encode(state.view(seat))
        for k in range(4):
            shown = x[lay.offset("score", k)]
            assert shown == pytest.approx(scores[(seat + k) % 4] / SCORE_SCALE)
        if state.current_player >= 0:
            to_move = x[lay.slice("to_move")]
            assert to_move[(state.current_player - seat) % 4] == 1.0
            assert to_move.sum() == 1.0


@pytest.mark.parametrize("game", GAMES)
def test_the_hand_is_the_viewers_own(game: str) -> None:
    state = get_game(game).new_game(2, seed=3)
    lay = observation_layout(game, 2)
    for seat in range(2):
        hand = encode(state.view(seat))[lay.slice("hand")]
        assert hand.sum() * 2 == len(state.hands[seat])
        for card in state.hands[seat]:
            assert hand[card] > 0


def test_a_finished_game_encodes_with_an_empty_mask() -> None:
    final = list(positions("cards", 2, 5, every=10_000))[-1]
    assert final.over
    view = final.view(0)
    x = encode(view)
    lay = observation_layout("cards", 2)
    assert x[lay.offset("phase") + 3] == 1.0  # over
    assert not action_mask(view).any()


def test_a_spectator_view_is_refused_and_out_is_reused() -> None:
    state = get_game("board").new_game(2, seed=1)
    with pytest.raises(ValueError, match="seat's view"):
        encode(state.view(None))
    out = np.full(observation_size("board", 2), 7.0, dtype=np.float32)
    assert encode(state.view(0), out) is out
    assert np.array_equal(out, encode(state.view(0)))
    assert action_mask(state.view(0), dtype=bool).dtype == np.bool_
