"""Property tests (hypothesis) of the board-game engine over seeded random games.

Each example is a seeded game played by uniformly random legal actions; hypothesis chooses
the seat count, the seed and where to look. The properties: the 110 cards are always
somewhere exactly once; hand sizes follow the turn; figures never move back nor past row 9
and at most one stone per decision; the goal count, wish stones and tile points only grow;
the engine's caches agree with the rows; the legal list is exactly what ``check_action``
accepts; notation, records and seeded set-ups round-trip; hidden cards never reach a view;
and ``sample_board_state`` gives a consistent state.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from keltis.board import DEFAULT_LAYOUT, BoardSetup, BoardState, BoardVariant, sample_board_state
from keltis.board.actions import ACTIONS
from keltis.board.layout import ALL_TILES, CLOVER, NO_TILE
from keltis.board.state import FULL_DECK, layable_mask
from keltis.core.actions import ALL_ACTIONS, Action
from keltis.core.card_codes import CARD_VALUE
from keltis.core.protocol import EndReason
from keltis.core.scoring import direction_after
from keltis.record import GameRecord, PlayerInfo

from .helpers import GAME, rehide

PLAYERS = st.integers(min_value=2, max_value=4)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
#: Most examples look at the first part of a game, some run to the end.
STEPS = st.one_of(st.integers(min_value=0, max_value=120), st.integers(min_value=0, max_value=900))


def walk(players: int, seed: int, variant: dict[str, object] | None = None) -> Iterator[BoardState]:
    """The states of a seeded random game, from the start to the end (one object, mutated)."""
    state = GAME.new_game(players, seed=seed, variant=variant)
    rng = random.Random(seed)
    yield state
    while not state.over:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        yield state


def reach(players: int, seed: int, steps: int) -> BoardState:
    """The state after ``steps`` random actions (or the end of the game, if sooner)."""
    for state in walk(players, seed):
        if len(state.history) >= steps:
            return state
    return state


def all_cards(state: BoardState) -> Counter[int]:
    cards: Counter[int] = Counter(state.deck)
    cards.update(state.removed)
    for hand in state.hands:
        cards.update(hand)
    for pile in state.piles:
        cards.update(pile)
    for mine in state.rows:
        for row in mine:
            cards.update(row)
    return cards


def check_invariants(state: BoardState) -> None:
    assert all_cards(state) == Counter(FULL_DECK)
    phase = state.phase_name
    for seat, hand in enumerate(state.hands):
        mid_turn = seat == state.current_player and phase != "play"
        ended_mid_turn = state.end_reason is EndReason.GOAL and seat == state.actors[-1]
        assert len(hand) == (7 if mid_turn or ended_mid_turn else 8)
        assert hand == sorted(hand)
        assert not Counter(state.known[seat]) - Counter(hand)
    for seat in range(state.num_players):
        pos = state.pos[seat]
        assert all(0 <= r <= 9 for r in pos)
        choosing = phase == "figure" and seat == state.current_player
        assert state.started[seat] == sum(1 for r in pos if r) + choosing
        big = state.big[seat]
        assert big == -1 or pos[big] > 0
        for colour, row in enumerate(state.rows[seat]):
            if phase == "figure" and (seat, colour) == (state.current_player, state.pending):
                assert (pos[colour], len(row)) == (0, 1)  # its figure is still to choose
            else:
                assert (pos[colour] > 0) == bool(row)
                assert pos[colour] >= min(len(row), 9)
            direction, last = 0, -1
            for card in row:
                assert card // 11 == colour
                if last >= 0:
                    direction = direction_after(direction, last, CARD_VALUE[card])
                last = CARD_VALUE[card]
            assert (state.dirs[seat][colour], state.last[seat][colour]) == (direction, last)
        assert state.layable[seat] == layable_mask(state.dirs[seat], state.last[seat])
    in_goal = sum(1 for pos in state.pos for r in pos if r >= 7)
    assert state.goal == in_goal
    assert (in_goal >= 5) == (state.end_reason is EndReason.GOAL)
    assert (not state.deck) == (state.end_reason is EndReason.DECK)
    tiles = Counter(t for path in state.tiles for t in path if t != NO_TILE)
    tiles[5] += sum(state.wishes)
    assert tiles == Counter(ALL_TILES)  # only wish stones leave the board, to a player


@settings(max_examples=40, deadline=None)
@given(players=PLAYERS, seed=SEEDS)
def test_invariants_hold_at_every_step(players: int, seed: int) -> None:
    before: BoardState | None = None
    for state in walk(players, seed):
        check_invariants(state)
        if before is not None:
            moved = 0
            for seat in range(players):
                for colour in range(5):
                    step = state.pos[seat][colour] - before.pos[seat][colour]
                    assert step >= 0  # figures never move back
                    moved += step
                    row, old = state.rows[seat][colour], before.rows[seat][colour]
                    assert row[: len(old)] == old  # rows only grow
            assert moved <= 1  # one stone per decision at most
            assert state.goal >= before.goal
            assert all(a >= b for a, b in zip(state.wishes, before.wishes, strict=True))
            assert all(a >= b for a, b in zip(state.points, before.points, strict=True))
            assert state.turn in (before.turn, before.turn + 1)
        before = state.clone()
    assert before is not None
    assert before.over


@settings(max_examples=60, deadline=None)
@given(players=PLAYERS, seed=SEEDS, steps=STEPS)
def test_legal_actions_are_exactly_what_check_action_accepts(
    players: int, seed: int, steps: int
) -> None:
    state = reach(players, seed, steps)
    legal = state.legal_actions()
    accepted = [a for a in ALL_ACTIONS if state.is_legal(a)]
    assert sorted(legal, key=ACTIONS.index) == accepted
    for action in legal:
        assert Action.parse(str(action)) is action  # cached constructors: the same object
        assert ACTIONS.action(ACTIONS.index(action)) == action


@settings(max_examples=30, deadline=None)
@given(players=PLAYERS, seed=SEEDS, steps=STEPS, no_take_back=st.booleans())
def test_a_record_round_trips(players: int, seed: int, steps: int, no_take_back: bool) -> None:
    seats = [PlayerInfo(f"seat {p}", "random") for p in range(players)]
    variant = {"no_take_back": no_take_back, "turn_cap": None}
    record = GameRecord.start("board", seats, seed=seed, variant=variant)
    state = record.new_state()
    rng = random.Random(seed)
    while not state.over and len(state.history) < steps:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    record.finish(state)
    loaded, lines = GameRecord.loads(record.dumps())
    assert len(lines) == len(state.history)
    replayed = loaded.replay()
    assert replayed.to_json() == state.to_json()
    assert replayed.history == state.history
    # the same game from the explicit form of its seeded set-up
    dealt = BoardSetup.from_seed(players, seed).to_json()
    explicit = GameRecord.start("board", seats, setup=dealt, variant=variant)
    explicit.actions = list(record.actions)
    assert explicit.replay().to_json() == state.to_json()


@settings(max_examples=60, deadline=None)
@given(players=PLAYERS, seed=SEEDS, steps=STEPS, data=st.data())
def test_an_opponents_hidden_cards_never_change_my_view(
    players: int, seed: int, steps: int, data: st.DataObject
) -> None:
    state = reach(players, seed, steps)
    me = data.draw(st.integers(0, players - 1), label="viewer")
    them = data.draw(st.sampled_from([p for p in range(players) if p != me]), label="opponent")
    hidden = list((Counter(state.hands[them]) - Counter(state.known[them])).elements())
    views = {viewer: state.view(viewer).to_json() for viewer in (me, None)}
    if hidden and state.deck:
        swapped = state.clone()
        mine = data.draw(st.sampled_from(hidden), label="card from the hand")
        index = data.draw(st.integers(0, len(state.deck) - 1), label="deck position")
        swapped.hands[them].remove(mine)
        swapped.hands[them].append(swapped.deck[index])
        swapped.hands[them].sort()
        swapped.deck[index] = mine
        for viewer, view in views.items():
            assert swapped.view(viewer).to_json() == view
    redealt = rehide(state, me, random.Random(seed))
    assert redealt.view(me).to_json() == views[me]
    assert rehide(state, None, random.Random(seed)).view(None).to_json() == views[None]


@settings(max_examples=60, deadline=None)
@given(players=PLAYERS, seed=SEEDS, steps=STEPS, data=st.data())
def test_sampled_states_agree_with_the_view(
    players: int, seed: int, steps: int, data: st.DataObject
) -> None:
    state = reach(players, seed, steps)
    me = data.draw(st.integers(0, players - 1), label="viewer")
    view = state.view(me)
    sampled = sample_board_state(view, random.Random(seed))
    assert all_cards(sampled) == Counter(FULL_DECK)
    expected = view.to_json()
    got = sampled.view(me).to_json()
    del expected["recent"], got["recent"]  # the sample has no history,
    del expected["ply"], got["ply"]  # so its ply counts from 0
    assert got == expected
    for seat in range(players):
        assert not Counter(sampled.known[seat]) - Counter(sampled.hands[seat])
    assert len(sampled.removed) == len(state.removed)
    if not sampled.over:
        check_invariants(sampled)
        sampled.play_random(random.Random(seed))  # the sample plays on like a real game
        assert sampled.over


@settings(max_examples=30, deadline=None)
@given(players=PLAYERS, seed=SEEDS)
def test_a_seeded_game_equals_its_set_up_built_explicitly(players: int, seed: int) -> None:
    fast = BoardState.new(players, seed=seed)
    built = BoardSetup.from_seed(players, seed).build(players, BoardVariant(), DEFAULT_LAYOUT)
    for name in BoardState.__slots__:
        assert getattr(fast, name) == getattr(built, name), name
    assert fast.to_json() == built.to_json()
    assert GAME.new_game(players, seed=seed).to_json() == fast.to_json()


def test_clovers_and_point_tiles_never_leave_the_board() -> None:
    state = GAME.new_game(3, seed=4)
    clovers = [(c, r) for c in range(5) for r in range(10) if state.tiles[c][r] == CLOVER]
    state.play_random(random.Random(4))
    assert all(state.tiles[c][r] == CLOVER for c, r in clovers)
