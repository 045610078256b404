"""Shared helpers of the card-game tests: explicit set-ups, playing moves, refusals."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from keltis.cards import CardGame, CardState
from keltis.cards.state import FULL_DECK
from keltis.core.actions import Action
from keltis.core.errors import IllegalActionError
from keltis.games import get_game
from support import legal as legal
from support import play as play
from support import refused as _refused
from support import rehide

GAME = get_game("cards")
assert isinstance(GAME, CardGame)

#: Eight cards no rule test lays or claims with: the hands of seats that are not watched.
FILLER = (
    "B0 B1 B2 B8 B9 B10 P0 P10",
    "Y0 Y10 R0 R10 B3 B4 P1 P2",
    "Y8 Y9 R8 R9 P8 P9 B6 B7",
)

_CARD_LISTS = ("deck", "removed")


def new(
    players: int = 2,
    *,
    hands: list[str],
    variant: dict[str, Any] | None = None,
    rows: list[dict[str, str]] | None = None,
    point_rows: list[str] | None = None,
    discards: dict[str, str] | None = None,
    **setup: Any,
) -> CardState:
    """A state from an explicit set-up. Cards may be given as space-separated text: ``hands``
    (seats without one get a :data:`FILLER` hand), ``deck``, ``removed``, the cards of each
    row (``rows=[{"G": "G3 G5"}, {}]``), point rows and discard piles. Cards the set-up does
    not place go into the draw pile, or to the removed cards when ``deck`` is given."""
    given = [h.split() for h in hands]
    given += [FILLER[i].split() for i in range(players - len(given))]
    data: dict[str, Any] = {"hands": given}
    if rows is not None:
        data["rows"] = [{k: v.split() for k, v in mine.items()} for mine in rows]
    if point_rows is not None:
        data["point_rows"] = [r.split() for r in point_rows]
    if discards is not None:
        data["discards"] = {k: v.split() for k, v in discards.items()}
    for key, value in setup.items():
        data[key] = value.split() if key in _CARD_LISTS and isinstance(value, str) else value
    return GAME.new_game(players, setup=data, variant=variant)


def snapshot(state: CardState) -> str:
    """Everything about a state, history and internal bookkeeping included, as one text."""
    data = state.to_json()
    data["history"] = [str(a) for a in state.history]
    data["actors"] = list(state.actors)
    data["internal"] = [
        state.layable,
        state.onto,
        state.last,
        state.closings,
        state.wish_mask,
        state.blocked,
        state.filled,
        state.lays_left,
        state.draws_left,
        state.ender,
        str(state.end_pending),
    ]
    return json.dumps(data, sort_keys=True)


def text(cards: list[int] | tuple[int, ...]) -> str:
    """Cards as space-separated notation."""
    from keltis.core.card_codes import CARD_TEXT

    return " ".join(CARD_TEXT[c] for c in cards)


def everywhere(state: CardState) -> Counter[int]:
    """Every card of the state, wherever it lies."""
    found: Counter[int] = Counter()
    for hand in state.hands:
        found.update(hand)
    for pile in state.piles:
        found.update(pile)
    for mine in state.rows:
        for row in mine:
            found.update(row)
    for row in state.point_rows:
        found.update(row)
    found.update(state.deck)
    found.update(state.removed)
    return found


def check_invariants(state: CardState) -> None:
    """The invariants every reachable state keeps (cards and wish stones conserved, hand
    sizes, the bookkeeping agreeing with the rows)."""
    assert everywhere(state) == Counter(FULL_DECK)
    stones = sorted([*state.wish_row, *(v for mine in state.wish_stones for v in mine)])
    assert stones == list(range(1, 10))
    phase = state.phase_name
    if phase == "play":
        assert all(len(h) == 8 for h in state.hands)
    elif phase == "draw":
        p = state.current_player
        assert len(state.hands[p]) + state.draws_left == 8
        assert all(len(h) == 8 for q, h in enumerate(state.hands) if q != p)
    else:
        assert all(5 <= len(h) <= 8 for h in state.hands)
    assert state.closed_rows == sum(
        1 for mine in state.rows for row in mine if any(55 <= c < 60 for c in row)
    )
    for p, known in enumerate(state.known):
        assert not Counter(known) - Counter(state.hands[p])
    assert state.filled == sum(1 << i for i, pile in enumerate(state.piles) if pile)


def refused(state: CardState, move: str | Action, rule: str) -> IllegalActionError:
    """Assert that ``move`` is refused citing ``rule`` and changes nothing, internal
    bookkeeping included."""
    return _refused(state, move, rule, snapshot)


rehidden = rehide
