"""One wording of a move (``keltis.core.labels``, ``keltis.board.labels``,
``keltis.cards.labels``): every legal action and every event carries a label — a catalog
message with its parameters — that every language can fill, and an action's JSON carries its
parts so that no front end takes notation apart."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from keltis.core.actions import ALL_ACTIONS, BIG, DECK, POINT_PILE, Action, ActionKind
from keltis.core.card_codes import CARD_COLOUR, CARD_TEXT, COLOUR_LETTERS
from keltis.core.events import event_json
from keltis.core.labels import CARD_PARAMS, Label, event_label
from keltis.core.protocol import action_json
from keltis.games import GAME_NAMES
from keltis.i18n import LANGUAGES, Translator
from keltis.match import Match
from keltis.messages import MESSAGES
from keltis.record import GameRecord, PlayerInfo
from keltis.wire import validate
from support import random_states

#: Any field left unfilled, in any language.
UNFILLED = re.compile(r"\{\w*(:\w*)?\}")


def labels_of(label: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield label
    for note in label["notes"]:
        yield from labels_of(note)


def assert_worded(label: dict[str, Any], translators: list[Translator]) -> None:
    """Each part of ``label`` is a catalog message whose every field its params fill, in
    every language; colours are letters, cards notation, nothing else a text."""
    for part in labels_of(label):
        message = MESSAGES.get(part["key"])
        assert message is not None, part
        for name, value in part["params"].items():
            if name in CARD_PARAMS:
                assert value in CARD_TEXT, part
            elif isinstance(value, str):
                assert value in (*COLOUR_LETTERS, "*") or re.fullmatch(r"[+-]\d+", value), part
    for t in translators:
        text = t.label(label)
        assert text, (t.lang, label)
        assert not UNFILLED.search(text), (t.lang, label, text)
        assert label["key"] not in text, (t.lang, label, text)


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_action_and_event_has_a_label_every_language_fills(
    game: str, players: int
) -> None:
    translators = [Translator(lang) for lang in LANGUAGES]
    keys: set[str] = set()
    for seed in range(2):
        for i, state in enumerate(random_states(game, players, 100 + seed)):
            if i % 3 and not state.over:
                continue
            view = state.view(state.current_player if not state.over else None).to_json()
            for legal in view["legal"]:
                assert_worded(legal["label"], translators)
                keys.add(legal["label"]["key"])
                for event in legal["preview"]["events"]:
                    assert event["label"] == event_label(event).to_json()
                    assert_worded(event["label"], translators[:1])
    # The game's every kind of move was worded (a seeded random game reaches them all).
    expected = {"act.draw_deck", "act.draw_pile", "act.discard"}
    expected |= (
        {"act.lay_open", "act.lay_step", "act.figure.big", "act.figure.small"}
        if game == "board"
        else {"act.cards.lay", "act.cards.pass", "act.cards.point_row"}
    )
    assert expected <= keys, expected - keys


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_step_event_of_a_match_has_a_label_for_every_receiver(game: str) -> None:
    record = GameRecord.start(game, [PlayerInfo(f"p{i}") for i in range(3)], seed=5)
    match = Match(record)
    rng = random.Random(5)
    translators = [Translator(lang) for lang in LANGUAGES]
    types: set[str] = set()
    while not match.over:
        seat = match.to_move
        step = match.submit(seat, rng.choice(match.view(seat).legal))
        for viewer in (step.seat, None):
            data = step.to_json(viewer)
            if step.ply % 5 == 0:
                validate("step", data)  # slow: every 5th step
            for event in data["events"]:
                types.add(event["type"])
                assert event["label"] == event_label(event).to_json()
                assert_worded(event["label"], translators)
    assert {"lay", "discard", "draw_deck", "end"} <= types


def test_event_labels_choose_the_form_for_the_case() -> None:
    assert event_label({"type": "draw_pile", "card": "*5", "pile": "*"}).key == (
        "ev.draw_pile.point"
    )
    assert event_label({"type": "draw_pile", "card": "G5", "pile": "G"}) == Label(
        "ev.draw_pile", {"card": "G5", "pile": "G"}
    )
    assert event_label({"type": "draw_deck"}).key == "ev.draw_deck"
    assert event_label({"type": "draw_deck", "card": "B3"}).key == "ev.draw_deck.card"
    assert event_label({"type": "figure", "big": True}) == Label("ev.figure.big")
    assert event_label({"type": "figure", "big": False}) == Label("ev.figure.small")
    assert event_label({"type": "moved", "path": "R", "row": 3, "big": True}).key == "ev.moved.big"
    assert event_label({"type": "end", "reason": "deck"}) == Label("ev.end.deck")
    # The label is built from the wire form; the Python event gives the same.
    event = ("lay_onto", {"card": "*4", "onto": 2})
    assert event_json(event)["label"] == {
        "key": "ev.lay_onto",
        "params": {"card": "*4", "onto": "R"},
        "notes": [],
    }
    assert Translator("de").event(event) == Translator("de").label(event_json(event)["label"])


def test_a_label_is_worded_with_the_colour_forms_of_the_language() -> None:
    label = Label(
        "act.advance", {"path": "G", "row": 4}, (Label("act.tile.points", {"points": 3}),)
    )
    assert Translator("en").label(label) == "green figure to row 4 (+3 points)"
    assert Translator("en").label(label.to_json()) == Translator("en").label(label)
    german = Translator("de").label(label)
    assert "grün" in german.lower()
    assert "G" not in german.replace("Grün", "")


def test_every_action_carries_its_parts() -> None:
    """``cards``, ``pile``, ``onto``, ``path`` and ``big`` say what the notation says, for
    every action of the notation (the index is the caller's: each game numbers its own)."""
    for index, action in enumerate(ALL_ACTIONS):
        data = action_json(action, index)
        assert data["index"] == index
        kind = action.kind
        cards = {
            ActionKind.LAY: [CARD_TEXT[action.card]],
            ActionKind.DISCARD: [CARD_TEXT[action.card]],
            ActionKind.CLAIM: [CARD_TEXT[action.card], CARD_TEXT[action.card2]],
        }.get(kind, [])
        assert data["cards"] == cards, data
        assert " ".join(data["cards"]) in data["notation"] or not cards, data
        if kind is ActionKind.DISCARD:
            colour = CARD_COLOUR[action.card]
            assert data["pile"] == ("*" if colour < 0 else COLOUR_LETTERS[colour])
        elif kind is ActionKind.DRAW:
            target = action.target
            expected = "deck" if target == DECK else "*" if target == POINT_PILE else None
            assert data["pile"] == (expected or COLOUR_LETTERS[target])
        else:
            assert data["pile"] is None
        if kind is ActionKind.LAY and action.target >= 0:
            assert data["onto"] == COLOUR_LETTERS[action.target]
            assert data["notation"].endswith(f">{data['onto']}")
        else:
            assert data["onto"] is None
        assert data["path"] == (
            COLOUR_LETTERS[action.target] if kind is ActionKind.ADVANCE else None
        )
        assert data["big"] == (action.target == BIG if kind is ActionKind.FIGURE else None)
        assert Action.parse(data["notation"]) == action


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_score_parts_add_up_to_the_score_and_to_the_engines_breakdown(
    game: str, players: int
) -> None:
    """Each player's ``parts`` (what the browser shows when a score is tapped) add up to the
    score shown, for every seat at every step of a seeded game, and at the end equal the
    engine's own breakdown."""
    for state in random_states(game, players, 7):
        for viewer in [*range(players), None]:
            for p in state.view(viewer).to_json()["players"]:
                parts = p["parts"]
                each = parts["paths"] if game == "board" else parts["rows"]
                other = parts["tiles"] if game == "board" else parts["point_row"]
                assert sum(each.values()) + other + parts["wishes"] == p["score"], p
    outcome = state.outcome()
    final = state.view(None).to_json()
    for seat, p in enumerate(final["players"]):
        parts, breakdown = p["parts"], outcome.breakdown[seat]
        if game == "board":
            assert sum(parts["paths"].values()) == breakdown["figures"]
            assert parts["tiles"] == breakdown["tiles"]
        else:
            assert sum(parts["rows"].values()) == breakdown["rows"]
            assert parts["point_row"] == breakdown["point_row"]
        assert parts["wishes"] == breakdown["wishes"]
        assert parts["wish_count"] == breakdown["wish_count"]
        assert p["score"] == outcome.scores[seat]
