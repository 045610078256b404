"""Card and action notation: every action round-trips; bad text gives a clear error."""

from __future__ import annotations

import pytest

from keltis.core.actions import ALL_ACTIONS, Action, ActionKind, parse_action
from keltis.core.card_codes import (
    NUM_CARD_CODES,
    card_colour,
    card_text,
    card_value,
    closing_card,
    number_card,
    parse_card,
    point_card,
)
from keltis.core.errors import NotationError


def test_every_card_code_round_trips() -> None:
    for code in range(NUM_CARD_CODES):
        assert parse_card(card_text(code)) == code
        assert parse_card(card_text(code).lower()) == code


def test_card_codes() -> None:
    assert card_text(number_card(0, 7)) == "G7"
    assert card_text(number_card(4, 10)) == "B10"
    assert card_text(closing_card(2)) == "RX"
    assert card_text(point_card(3)) == "*3"
    assert card_colour(point_card(3)) == -1
    assert card_value(closing_card(1)) == -1
    assert card_value(number_card(3, 0)) == 0


def test_every_action_round_trips_through_text() -> None:
    seen = set()
    for action in ALL_ACTIONS:
        assert parse_action(str(action)) == action
        seen.add(str(action))
    assert len(seen) == len(ALL_ACTIONS) == 536


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("G7", Action.lay(number_card(0, 7))),
        (" g7 ", Action.lay(number_card(0, 7))),
        ("-B10", Action.discard(number_card(4, 10))),
        ("*7>G", Action.lay(point_card(7), 0)),
        ("wish G5 *5", Action.claim(number_card(0, 5), point_card(5))),
        ("wish g5,y5", Action.claim(number_card(0, 5), number_card(1, 5))),
        ("big", Action.figure(True)),
        ("small", Action.figure(False)),
        (">p", Action.advance(3)),
        ("pass", Action(ActionKind.PASS)),
        ("stop", Action(ActionKind.PASS)),
        ("draw", Action.draw()),
        ("draw r", Action.draw(2)),
        ("draw *", Action.draw(5)),
    ],
)
def test_parse(text: str, expected: Action) -> None:
    assert parse_action(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "nothing typed"),
        ("G11", "not a move"),
        ("hello", "not a move"),
        ("-Q3", "not a card"),
        ("wish G5", "two cards"),
        ("wish G5 G6", "same value"),
        ("wish G10 B10", "1–9"),
        ("G7>R", "only a point card"),
        (">X", "not a colour"),
        ("draw Q", "not a colour"),
    ],
)
def test_bad_notation_is_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_action(text)


@pytest.mark.parametrize(
    ("kind", "card", "card2", "target"),
    [
        (ActionKind.DISCARD, 99, -1, -1),
        (ActionKind.LAY, -5, -1, -1),
        (ActionKind.LAY, 7, -1, 2),  # only point cards go onto another row
        (ActionKind.CLAIM, 5, 7, -1),  # different values
        (ActionKind.CLAIM, 10, 21, -1),  # value 10 has no wish stone
        (ActionKind.FIGURE, -1, -1, 2),
        (ActionKind.ADVANCE, -1, -1, 5),
        (ActionKind.DRAW, -1, -1, 6),
        (ActionKind.PASS, 3, -1, -1),
    ],
)
def test_actions_outside_the_action_space_cannot_be_built(
    kind: ActionKind, card: int, card2: int, target: int
) -> None:
    with pytest.raises(ValueError, match="no such action"):
        Action(kind, card, card2, target)
