"""The card game's rule checks agree with each other: for every position of seeded random
games, each kind's ``can_`` answer, :meth:`legal_actions`, :meth:`check_action` (the
``verify_`` side), :meth:`apply` and the trusted :meth:`apply_legal` say the same, and a
refused action leaves the state as it was."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from keltis.cards import CardState
from keltis.core.actions import ALL_ACTIONS, PASS_ACTION, Action, ActionKind
from keltis.core.errors import IllegalActionError

from .helpers import GAME, new, play

#: Every attribute of a state but its history (the view caches included).
_FIELDS = tuple(sorted(set(CardState.__slots__) - {"history"}))

#: Illegal actions tried on each position (all of them would make the test slow).
ILLEGAL_SAMPLE = 12


def _positions(players: int, seed: int) -> Iterator[CardState]:
    """Each position of a seeded random game, the finished one included (the same object,
    moved on after each yield)."""
    state = GAME.new_game(players, seed=seed)
    assert isinstance(state, CardState)
    rng = random.Random(seed)
    yield state
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
        yield state


def _can(state: CardState, action: Action) -> bool:
    """The ``can_`` method of the action's kind."""
    kind = action.kind
    if kind is ActionKind.LAY:
        return state.can_lay(action.card, action.target)
    if kind is ActionKind.DISCARD:
        return state.can_discard(action.card)
    if kind is ActionKind.CLAIM:
        return state.can_claim(action.card, action.card2)
    if kind is ActionKind.DRAW:
        return state.can_draw(action.target)
    if kind is ActionKind.PASS:
        return state.can_pass()
    return False  # board-game moves


def _verify(state: CardState, action: Action) -> None:
    """The ``verify_`` method of the action's kind (board-game moves: the full check)."""
    kind = action.kind
    if kind is ActionKind.LAY:
        state.verify_lay(action.card, action.target)
    elif kind is ActionKind.DISCARD:
        state.verify_discard(action.card)
    elif kind is ActionKind.CLAIM:
        state.verify_claim(action.card, action.card2)
    elif kind is ActionKind.DRAW:
        state.verify_draw(action.target)
    elif kind is ActionKind.PASS:
        state.verify_pass()
    else:
        state.check_action(action)


def _do(state: CardState, action: Action) -> None:
    """The public move method of the action's kind (verify, then do)."""
    kind = action.kind
    if kind is ActionKind.LAY:
        state.lay(action.card, action.target)
    elif kind is ActionKind.DISCARD:
        state.discard(action.card)
    elif kind is ActionKind.CLAIM:
        state.claim(action.card, action.card2)
    elif kind is ActionKind.DRAW:
        state.draw(action.target)
    elif kind is ActionKind.PASS:
        state.pass_()
    else:
        state.apply(action)


def snapshot(state: CardState) -> str:
    """Every attribute of ``state`` as one comparable text (cheaper than its JSON form; of
    the history, which only grows, its length and last action)."""
    history = state.history
    return repr([len(history), history[-1:], *(getattr(state, name) for name in _FIELDS)])


def _listed(action: Action, legal: set[Action]) -> bool:
    """Whether ``legal_actions`` lists ``action``: it lists each claim pair once (lowest
    card first), though the rules let the two cards be discarded in either order."""
    if action in legal:
        return True
    return action.kind is ActionKind.CLAIM and Action.claim(action.card2, action.card) in legal


def _refusal(call: object, *args: object) -> tuple[str, str, dict[str, str | int], str]:
    """The error ``call(*args)`` raises, as comparable fields."""
    assert callable(call)
    with pytest.raises(IllegalActionError) as caught:
        call(*args)
    error = caught.value
    return error.rule, error.key, error.params, str(error)


def _check_position(state: CardState, rng: random.Random) -> None:
    legal_list = state.legal_actions()
    legal = set(legal_list)
    assert len(legal) == len(legal_list)
    illegal: list[Action] = []
    for action in ALL_ACTIONS:
        can = _can(state, action)
        assert can == _listed(action, legal), action
        assert can == state.is_legal(action), action
        if not can:
            illegal.append(action)
    before = snapshot(state)
    for action in legal_list:
        state.check_action(action)
        _verify(state, action)
        checked, trusted, by_kind = state.clone(), state.clone(), state.clone()
        checked.apply(action)
        trusted.apply_legal(action)
        _do(by_kind, action)
        assert snapshot(checked) == snapshot(trusted) == snapshot(by_kind), action
    for action in rng.sample(illegal, min(ILLEGAL_SAMPLE, len(illegal))):
        refusal = _refusal(state.check_action, action)
        assert _refusal(_verify, state, action) == refusal, action
        assert _refusal(state.apply, action) == refusal, action
        assert _refusal(_do, state, action) == refusal, action
        assert snapshot(state) == before, action
    assert snapshot(state) == before


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1])
def test_can_legal_check_and_apply_agree_on_every_position(players: int, seed: int) -> None:
    rng = random.Random(seed * 10 + players)
    count = 0
    for state in _positions(players, seed):
        _check_position(state, rng)
        count += 1
    assert count > 20


def test_a_claim_may_discard_its_cards_in_either_order() -> None:
    state = new(hands=["G5 Y5 G0 G1 G2 R3 R4 R6"])
    assert "wish G5 Y5" in [str(a) for a in state.legal_actions()]
    assert "wish Y5 G5" not in [str(a) for a in state.legal_actions()]
    assert state.can_claim(Action.parse("Y5").card, Action.parse("G5").card)
    play(state, "wish Y5 G5")
    assert [str(a) for a in state.history] == ["wish Y5 G5"]


def test_the_move_methods_refuse_what_is_not_an_action() -> None:
    state = new(hands=["G5 Y5 G0 G1 G2 R3 R4 R6"])
    before = snapshot(state)
    green_5 = Action.parse("G5").card
    yellow_6 = Action.parse("Y6").card
    with pytest.raises(ValueError, match="no such action"):
        state.lay(green_5, 2)  # only a point card goes onto a colour row's end
    with pytest.raises(ValueError, match="no such action"):
        state.claim(green_5, yellow_6)  # two values
    with pytest.raises(ValueError, match="no such action"):
        state.draw(9)
    assert snapshot(state) == before


def test_the_phase_check_refuses_every_kind_out_of_its_phase() -> None:
    state = new(hands=["G5 Y5 G0 G1 G2 R3 R4 R6"])
    assert not state.can_draw()
    assert not state.can_pass()
    assert _refusal(state.verify_pass)[:2] == ("C-15", "pass_only_final")
    assert _refusal(state.verify_draw)[:2] == ("C-12", "play_before_draw")
    play(state, "-G5")
    assert not state.can_lay(Action.parse("Y5").card)
    assert _refusal(state.verify_discard, Action.parse("Y5").card)[:2] == (
        "C-12",
        "must_draw_cards",
    )
    assert _refusal(state.check_action, PASS_ACTION)[:2] == ("C-12", "must_draw_cards")
