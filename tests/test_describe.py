"""Move descriptions: events come from spectator views and say when and why a game ends."""

from __future__ import annotations

import random

import pytest

from keltis.describe import Event, describe
from keltis.games import get_game
from keltis.i18n import LANGUAGES, Translator


def _play(game: str, players: int, seed: int) -> list[list[Event]]:
    state = get_game(game).new_game(players, seed=seed)
    rng = random.Random(seed)
    steps = []
    while not state.over:
        before = state.view(None)
        action = rng.choice(state.legal_actions())
        state.apply(action)
        steps.append(describe(before, action, state.view(None)))
    return steps


@pytest.mark.parametrize("seed", range(5))
def test_card_game_end_is_announced_once_when_it_happens(seed: int) -> None:
    steps = _play("cards", 3, seed)
    ends = [i for i, events in enumerate(steps) if any(key == "end" for key, _ in events)]
    assert len(ends) == 1
    finals = [i for i, events in enumerate(steps) if any(key == "final" for key, _ in events)]
    assert finals in ([], ends)
    ending = dict(steps[ends[0]])["end"]
    assert ending["reason"] in {"closed", "deck"}
    if finals:  # the last lays come after the announcement
        assert ends[0] < len(steps) - 1


@pytest.mark.parametrize("seed", range(3))
def test_board_game_end_is_announced_on_the_last_move(seed: int) -> None:
    steps = _play("board", 2, seed)
    ends = [i for i, events in enumerate(steps) if any(key == "end" for key, _ in events)]
    assert ends == [len(steps) - 1]


def test_deck_draws_never_name_the_card() -> None:
    state = get_game("board").new_game(2, seed=4)
    state.apply(state.legal_actions()[-1])  # a discard
    before = state.view(None)
    action = state.legal_actions()[0]
    assert str(action) == "draw"
    events = describe(before, action, (state.apply(action), state.view(None))[1])
    assert events == [("draw_deck", {})]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_of_a_game_has_a_phrase(lang: str) -> None:
    t = Translator(lang)
    for game in ("board", "cards"):
        for events in _play(game, 4, 2):
            for event in events:
                phrase = t.event(event)
                assert phrase, event
                assert not phrase.startswith("ev."), (event, phrase)
