"""Undoing recent moves (keltis.cards.rewind): on real games, every state the walk passes
through shows the table as it was before that decision, and replaying the undone moves gives
back the state it started from, hands and draw pile included."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from keltis.cards import CardState
from keltis.cards.policy import cards_policy
from keltis.cards.rewind import rewind
from keltis.core.actions import DECK, Action, ActionKind

from .helpers import GAME, snapshot


def _public(state: CardState) -> tuple[object, ...]:
    """Everything about a state but the hands' contents, the draw pile's order and history."""
    return (
        state.current_player,
        state.phase,
        state.draws_left,
        state.blocked,
        state.filled,
        state.turn,
        state.piles,
        state.rows,
        state.point_rows,
        state.wish_mask,
        state.wish_stones,
        state.closed_rows,
        state.last,
        state.dirs,
        state.onto,
        state.layable,
        len(state.deck),
        [len(h) for h in state.hands],
    )


def _without_history(state: CardState) -> dict[str, object]:
    """A snapshot without the history, and without the cards known to come from a pile: a
    card laid back into a hand is not known to have come from one (checked apart)."""
    data: dict[str, object] = json.loads(snapshot(state))
    for key in ("history", "actors", "recent", "ply", "known_cards"):
        data.pop(key, None)
    return data


def _played(players: int, seed: int) -> list[tuple[CardState, Action]]:
    """Every decision of a seeded heuristic game: the state before it and the action."""
    state = GAME.new_game(players, seed=seed)
    assert isinstance(state, CardState)
    rng = random.Random(seed)
    out = []
    while not state.over:
        action = cards_policy(state, rng)
        out.append((state.clone(), action))
        state.apply(action)
    return out


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_rewinding_shows_each_decision_as_it_was_and_replays_to_the_start(
    players: int, seed: int
) -> None:
    played = _played(players, seed)
    walked = stops = 0
    for ply in range(1, len(played)):
        now = played[ply][0]
        view = now.view(now.current_player)
        moves = [(p, Action.parse(text)) for p, text in view.recent]
        past = now.clone()
        undone = []
        for action in rewind(past, moves, -1, random.Random(ply)):  # no seat: yield all
            undone.append(action)
            before, taken = played[ply - len(undone)]
            assert taken == action
            assert _public(past) == _public(before)
            assert action in past.legal_actions()
            # cards known to come from a pile: never more than were (a card laid back into
            # a hand is not known to have come from one)
            mover = past.current_player
            assert not Counter(past.known[mover]) - Counter(before.known[mover])
        if now.ender < 0 and len(undone) < len(moves):
            # the reasons to stop early: a draw whose turn began before the list (which
            # piles it blocked is not known), or a card drawn from a pile, not seen discarded
            # there, when the player has laid a card of that pile since
            at = len(moves) - 1 - len(undone)
            mover, stopped = moves[at]
            assert stopped.kind is ActionKind.DRAW
            if not all(p == mover and a.kind is ActionKind.DRAW for p, a in moves[:at]):
                assert stopped.target != DECK
                stops += 1
        elif now.ender < 0:
            assert len(undone) == len(moves)
        walked += len(undone)
        for action in reversed(undone):
            past.apply(action)
        assert _without_history(past) == _without_history(now)
    assert walked > 8 * len(played)
    assert stops < len(played) // 4


def test_the_viewers_own_moves_are_undone_but_not_yielded() -> None:
    played = _played(2, 5)
    state = next(s for s, _ in played[20:] if s.phase == 1)  # someone's draw, after a play
    me = state.current_player
    moves = [(p, Action.parse(text)) for p, text in state.view(me).recent]
    assert moves[-1][0] == me
    past = state.clone()
    yielded = list(rewind(past, moves, me, random.Random(0)))
    others = [a for p, a in reversed(moves) if p != me]
    assert yielded == others[: len(yielded)]
    assert len(yielded) >= len(others) - 1  # the oldest, a draw, may start before the list


def test_nothing_is_undone_once_the_game_has_ended() -> None:
    played = _played(2, 6)
    final = [s for s, _ in played if s.ender >= 0]
    assert final
    state = final[0]
    moves = [(p, Action.parse(text)) for p, text in state.view(0).recent]
    past = state.clone()
    assert list(rewind(past, moves, 0, random.Random(0))) == []
    assert snapshot(past) == snapshot(state)
