"""Test helpers shared by both games' tests: playing moves, refusals that must change
nothing, re-dealing hidden cards, and the pieces of the golden playthroughs."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest

from keltis.bots import make_bot
from keltis.core.actions import Action
from keltis.core.card_codes import CARD_TEXT
from keltis.core.errors import IllegalActionError, KeltisError
from keltis.core.protocol import Game, GameState
from keltis.games import get_game
from keltis.i18n import LANGUAGES, Translator

S = TypeVar("S", bound=GameState)


def play(state: S, *moves: str) -> S:
    """Apply ``moves`` (notation) in order; returns the state."""
    for move in moves:
        state.apply(Action.parse(move))
    return state


def legal(state: GameState) -> list[str]:
    """The legal actions in notation."""
    return [str(a) for a in state.legal_actions()]


def snapshot(state: GameState) -> str:
    """Everything about a state, history included, as one comparable text."""
    data = state.to_json()
    data["history"] = [str(a) for a in state.history]
    data["actors"] = list(state.actors)
    return json.dumps(data, sort_keys=True)


def refused(
    state: GameState,
    move: str | Action,
    rule: str,
    take_snapshot: Callable[[Any], str] = snapshot,
) -> IllegalActionError:
    """Assert that ``move`` is refused citing ``rule`` and leaves ``state`` unchanged."""
    action = Action.parse(move) if isinstance(move, str) else move
    before = take_snapshot(state)
    assert action not in state.legal_actions()
    assert not state.is_legal(action)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    assert caught.value.rule == rule, str(caught.value)
    assert str(caught.value).startswith(f"{rule}: ")
    assert take_snapshot(state) == before
    assert_translated(caught.value)
    return caught.value


def assert_translated(error: KeltisError) -> None:
    """Every language words the refusal itself, with no raw placeholder, keeping the rule id
    of an illegal move."""
    assert error.key, f"no refusal key: {error}"
    prefix = f"{error.rule}: " if isinstance(error, IllegalActionError) else ""
    english = Translator("en").refusal(error)
    assert english.startswith(prefix)
    for lang in LANGUAGES:
        text = Translator(lang).refusal(error)
        assert text.startswith(prefix), (lang, text)
        assert "{" not in text, (lang, text)
        assert "}" not in text, (lang, text)
        if lang != "en":
            assert text != english, (lang, text)


def rehide(state: S, viewer: int | None, rng: random.Random) -> S:
    """A copy with every card ``viewer`` cannot see dealt anew: the other hands' cards not
    known to all, the draw pile and the removed cards (sizes kept)."""
    other = state.clone()
    pool: list[int] = []
    hidden_counts: list[int] = []
    for seat, hand in enumerate(other.hands):
        if seat == viewer:
            hidden_counts.append(0)
            continue
        hidden = list((Counter(hand) - Counter(other.known[seat])).elements())
        hidden_counts.append(len(hidden))
        pool += hidden
    pool += other.deck + other.removed
    rng.shuffle(pool)
    for seat, count in enumerate(hidden_counts):
        if count:
            other.hands[seat] = sorted([*other.known[seat], *pool[:count]])
            del pool[:count]
    other.deck = pool[: len(state.deck)]
    other.removed = pool[len(state.deck) :]
    return other


# -- golden playthroughs -----------------------------------------------------------------


def compact(data: Any) -> str:
    """JSON without spaces, keys sorted: one line per view in the golden files."""
    return json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def bot_states(rules: Game, spec: dict[str, Any]) -> Iterator[tuple[GameState, int, str | None]]:
    """Each state of a game played by seeded random bots, with the seat that acted last and
    its action (``None`` first). ``spec``: ``players``, ``variant`` and ``seed`` or ``setup``."""
    players = spec["players"]
    state = rules.new_game(
        players, seed=spec.get("seed"), setup=spec.get("setup"), variant=spec["variant"]
    )
    base = spec.get("seed", 0) * 10
    bots = [make_bot("random", base + p) for p in range(players)]
    yield state, -1, None
    while not state.over:
        seat = state.current_player
        action = bots[seat].choose(state.view(seat))
        state.apply(action)
        yield state, seat, str(action)


def nested_lists(data: Any) -> Iterator[list[Any]]:
    """Every list inside a JSON value, at any depth."""
    if isinstance(data, list):
        yield data
        for item in data:
            yield from nested_lists(item)
    elif isinstance(data, dict):
        for item in data.values():
            yield from nested_lists(item)


def assert_no_leak(state: GameState, viewer: int | None, view: dict[str, Any]) -> None:
    """The JSON view of ``viewer`` holds no other hand, nor the draw pile or removed cards."""
    assert not {"hands", "deck", "removed"} & set(view)
    own = [CARD_TEXT[c] for c in state.hands[viewer]] if viewer is not None else None
    assert view["hand"] == own
    secrets = []
    for seat, hand in enumerate(state.hands):
        if seat != viewer and Counter(hand) != Counter(state.known[seat]):
            secrets.append([CARD_TEXT[c] for c in hand])
    if len(state.deck) > 1:
        deck = [CARD_TEXT[c] for c in state.deck]
        secrets += [deck, deck[::-1]]
    if len(state.removed) > 1:
        secrets.append([CARD_TEXT[c] for c in state.removed])
    for found in nested_lists(view):
        assert found not in secrets, f"view of seat {viewer} shows hidden cards {found}"


def random_states(game: str, players: int, seed: int) -> Iterator[GameState]:
    """Each state of a seeded random game (the finished one included)."""
    state = get_game(game).new_game(players, seed=seed)
    rng = random.Random(seed)
    yield state
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
        yield state
