"""Properties of every card-game state: conservation of cards and wish stones, hand sizes,
legal actions agreeing with the full check, illegal actions changing nothing, views that do not
depend on hidden cards, copies and samples consistent with the original — checked on seeded
random games and on hypothesis-chosen positions."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keltis.cards import CardState
from keltis.core.actions import ALL_ACTIONS, Action, ActionKind
from keltis.core.errors import IllegalActionError
from keltis.core.protocol import EndReason

from .helpers import GAME, check_invariants, rehidden, snapshot


def _random_states(players: int, seed: int) -> list[CardState]:
    """Every state of one seeded random game, in order (copies)."""
    state = GAME.new_game(players, seed=seed)
    rng = random.Random(seed)
    states = [state.clone()]
    while not state.over:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        states.append(state.clone())
    return states


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_thousands_of_seeded_random_games_all_end(players: int) -> None:
    ends: Counter[EndReason] = Counter()
    for seed in range(1000):
        state = GAME.new_game(players, seed=seed)
        state.play_random(random.Random(seed))
        assert state.over
        assert state.current_player == -1
        assert state.legal_actions() == []
        assert state.end_reason in (EndReason.CLOSED, EndReason.DECK)
        check_invariants(state)
        outcome = state.outcome()
        assert outcome.winners
        assert max(outcome.scores) == outcome.scores[outcome.winners[0]]
        ends[state.end_reason] += 1
    assert ends[EndReason.CLOSED] > 0


def test_the_same_seed_plays_the_same_game() -> None:
    one = GAME.new_game(3, seed=42)
    two = GAME.new_game(3, seed=42)
    one.play_random(random.Random(1))
    two.play_random(random.Random(1))
    assert one.history == two.history
    assert one.to_json() == two.to_json()


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 1000), min_size=1, max_size=400),
)
def test_invariants_along_any_line_of_play(players: int, seed: int, choices: list[int]) -> None:
    state = GAME.new_game(players, seed=seed)
    for choice in choices:
        if state.over:
            break
        actions = state.legal_actions()
        assert actions
        assert len(set(actions)) == len(actions)
        for action in actions:
            assert Action.parse(str(action)) == action
        state.apply(actions[choice % len(actions)])
        check_invariants(state)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (4, 4)])
def test_legal_actions_are_exactly_the_actions_the_check_accepts(players: int, seed: int) -> None:
    for state in _random_states(players, seed):
        legal = state.legal_actions()
        accepted = {a for a in ALL_ACTIONS if state.is_legal(a)}
        # a claim is listed once (lowest card first) but accepted in either order
        listed = set(legal) | {
            Action.claim(a.card2, a.card) for a in legal if a.kind is ActionKind.CLAIM
        }
        assert accepted == listed


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (4, 6)])
def test_an_illegal_action_changes_nothing(players: int, seed: int) -> None:
    for state in _random_states(players, seed)[::7]:
        before = snapshot(state)
        legal = set(state.legal_actions())
        for action in ALL_ACTIONS:
            if action in legal or state.is_legal(action):
                continue
            with pytest.raises(IllegalActionError) as caught:
                state.apply(action)
            assert caught.value.rule.startswith("C-")
        assert snapshot(state) == before


@pytest.mark.parametrize(("players", "seed"), [(2, 7), (3, 8), (4, 9)])
def test_views_do_not_depend_on_hidden_cards(players: int, seed: int) -> None:
    rng = random.Random(seed)
    for state in _random_states(players, seed)[::3]:
        spectator = state.view(None)
        assert spectator.hand is None
        assert spectator.legal == ()
        for viewer in [*range(players), None]:
            view = state.view(viewer)
            assert rehidden(state, viewer, rng).view(viewer) == view
            if viewer is not None:
                assert dataclasses.replace(view, viewer=None, hand=None, legal=()) == spectator
                if viewer == state.current_player:
                    assert view.legal == tuple(state.legal_actions())
                else:
                    assert view.legal == ()


@pytest.mark.parametrize(("players", "seed"), [(2, 10), (4, 11)])
def test_a_clone_is_independent(players: int, seed: int) -> None:
    for state in _random_states(players, seed)[::25]:
        before = snapshot(state)
        copy = state.clone()
        assert snapshot(copy) == before
        copy.play_random(random.Random(seed))
        assert snapshot(state) == before


@pytest.mark.parametrize(("players", "seed"), [(2, 12), (3, 13), (4, 14)])
def test_sampled_states_are_consistent_with_the_view(players: int, seed: int) -> None:
    rng = random.Random(seed)
    for state in _random_states(players, seed)[::5]:
        if state.over:
            continue
        for viewer in range(players):
            view = state.view(viewer)
            sampled = GAME.sample_state(view, rng)
            check_invariants(sampled)
            assert sampled.view(viewer) == dataclasses.replace(view, recent=(), ply=0)
            assert sampled.hands[viewer] == state.hands[viewer]
            if viewer == state.current_player:
                assert sampled.legal_actions() == state.legal_actions()
            sampled.play_random(rng)
            assert sampled.over
            check_invariants(sampled)


def test_sampling_needs_a_seat() -> None:
    state = GAME.new_game(2, seed=1)
    with pytest.raises(ValueError, match="spectator"):
        GAME.sample_state(state.view(None), random.Random(1))
    board = __import__("keltis.games", fromlist=["get_game"]).get_game("board").new_game(2, seed=1)
    with pytest.raises(TypeError, match="CardView"):
        GAME.sample_state(board.view(0), random.Random(1))
