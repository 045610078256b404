"""Each game its own actions: a dense space of the actions the game can accept (124 in the
board game, 500 in the card game), in the canonical order of ``ALL_ACTIONS``; an action of
the other game is refused by name, and the rules accept no action outside the space."""

from __future__ import annotations

import random

import pytest

from keltis.core.actions import ALL_ACTIONS, ActionKind, ActionSpace, parse_action
from keltis.core.errors import KeltisError, NotationError
from keltis.core.refusals import render
from keltis.games import GAME_NAMES, get_game
from keltis.match import Match
from keltis.record import PlayerInfo

SIZES = {"board": 124, "cards": 500}
TITLES = {"board": "the board game", "cards": "the card game"}


@pytest.mark.parametrize("game", GAME_NAMES)
def test_each_game_has_its_own_dense_space(game: str) -> None:
    space = get_game(game).actions
    assert isinstance(space, ActionSpace)
    assert space.size == len(space) == SIZES[game]
    assert get_game(game).info(2).num_distinct_actions == SIZES[game]
    for index in range(space.size):  # every id round-trips through its action and notation
        action = space.action(index)
        assert space.index(action) == index
        assert space.notation[index] == str(action)
        assert space.index(space.parse(str(action))) == index
    order = {a: i for i, a in enumerate(ALL_ACTIONS)}  # the old shared order, kept
    assert [order[a] for a in space.actions] == sorted(order[a] for a in space.actions)


def test_the_games_keep_only_their_own_kinds() -> None:
    board, cards = get_game("board").actions, get_game("cards").actions
    assert {a.kind for a in board.actions} == set(ActionKind) - {ActionKind.CLAIM}
    assert {a.kind for a in cards.actions} == set(ActionKind) - {
        ActionKind.FIGURE,
        ActionKind.ADVANCE,
    }
    # figures are the board game's, claims and point cards the card game's; both lay,
    # discard, pass and draw
    assert set(board.actions) | set(cards.actions) <= set(ALL_ACTIONS)
    assert parse_action("wish G1 G1") not in cards  # one copy of G1 (C-1): never a claim
    assert parse_action("wish G5 G5") in cards  # two copies of G5
    assert parse_action("wish Y5 G5") in cards  # either order: both are accepted (C-8)


@pytest.mark.parametrize(
    ("game", "text"),
    [("board", "wish G5 *5"), ("board", "*3"), ("board", "draw *"), ("board", "-GX"),
     ("cards", "big"), ("cards", ">G"), ("cards", "small"), ("cards", "wish G1 G1")],
)  # fmt: skip
def test_an_action_of_the_other_game_is_refused_by_the_space(game: str, text: str) -> None:
    space = get_game(game).actions
    action = parse_action(text)  # a well-formed action of the shared notation
    with pytest.raises(NotationError) as caught:
        space.parse(text)
    assert caught.value.key == f"not_a_move.{game}"  # the game's own list of moves
    assert str(caught.value) == render(f"not_a_move.{game}", {})
    with pytest.raises(ValueError, match="is not an action of") as wrong:
        space.index(action)
    assert str(wrong.value) == f"{text} is not an action of {TITLES[game]}"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_an_id_outside_the_space_is_refused(game: str) -> None:
    space = get_game(game).actions
    for index in (-1, space.size, 536):
        with pytest.raises(ValueError, match=rf"outside 0\.\.{space.size - 1}"):
            space.action(index)
    match = Match.new(game, [PlayerInfo("a"), PlayerInfo("b")], seed=1)
    with pytest.raises(NotationError) as caught:
        match.submit(0, space.size)
    assert caught.value.key == "no_action_index"
    assert str(caught.value).endswith(f"they run from 0 to {space.size - 1}")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_rules_accept_nothing_outside_the_space(game: str) -> None:
    """Every legal action has an id, and so has every action ``check_action`` accepts."""
    rules = get_game(game)
    space = rules.actions
    offered = set()
    for seed in range(8):
        state = rules.new_game(2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not state.over:
            legal = state.legal_actions()
            offered.update(legal)
            if rng.random() < 0.05:
                for action in ALL_ACTIONS:
                    try:
                        state.check_action(action)
                    except KeltisError:
                        continue
                    assert action in space, action
            state.apply(rng.choice(legal))
    assert offered <= set(space.actions)
    if game == "board":  # the board game offers every action of its space in a few games
        assert offered == set(space.actions)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_wire_carries_the_games_ids(game: str) -> None:
    match = Match.new(game, [PlayerInfo("a"), PlayerInfo("b")], seed=3)
    view = match.view(match.to_move)
    space = get_game(game).actions
    for action, data in zip(view.legal, view.to_json()["legal"], strict=True):
        assert data["index"] == space.index(action)
    step = match.submit(match.to_move, space.index(view.legal[0]))
    assert step.to_json(None)["action"]["index"] == space.index(view.legal[0])
