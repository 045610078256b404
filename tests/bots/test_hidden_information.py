"""Bots get nothing but their seat's view: hidden cards cannot reach them.

The proof is behavioural: two states that differ only in cards the bot cannot see (the other
hands, the draw pile, the removed cards) give the bot the same view, and then every bot makes
exactly the same choice for the same seed — the search with the same statistics too.
"""

from __future__ import annotations

import importlib.util
import json
import random
from dataclasses import fields
from pathlib import Path

import pytest

from keltis.bots import IsmctsBot, SearchConfig, make_bot
from keltis.bots.base import Bot
from keltis.bots.ismcts import search
from keltis.bots.weights import weights_of
from keltis.core.protocol import GameState, View
from keltis.games import get_game

from .helpers import GAMES, positions


def reshuffle_hidden(state: GameState, viewer: int, seed: int) -> GameState:
    """A copy of ``state`` whose cards hidden from ``viewer`` are dealt anew."""
    other = state.clone()
    hands: list[list[int]] = other.hands  # type: ignore[attr-defined]
    known: list[list[int]] = other.known  # type: ignore[attr-defined]
    pool: list[int] = list(other.deck) + list(other.removed)  # type: ignore[attr-defined]
    hidden_sizes = {}
    for seat, hand in enumerate(hands):
        if seat == viewer:
            continue
        rest = list(hand)
        for card in known[seat]:
            rest.remove(card)
        pool += rest
        hidden_sizes[seat] = len(rest)
    random.Random(seed).shuffle(pool)
    for seat, size in hidden_sizes.items():
        hands[seat][:] = sorted([*known[seat], *pool[:size]])
        del pool[:size]
    deck_size = len(other.deck)  # type: ignore[attr-defined]
    other.deck[:] = pool[:deck_size]  # type: ignore[attr-defined]
    other.removed[:] = pool[deck_size:]  # type: ignore[attr-defined]
    return other


def decision_positions(game: str) -> list[GameState]:
    """Positions with a real choice, some early, some late, for 2 and 4 players."""
    found = []
    for players, seed in ((2, 1), (4, 2)):
        for state in positions(game, players, seed, every=23):
            if len(state.legal_actions()) > 1:
                found.append(state)
    return found[::3]


@pytest.mark.parametrize("game", GAMES)
def test_reshuffled_hidden_cards_leave_the_view_unchanged(game: str) -> None:
    states = decision_positions(game)
    assert len(states) >= 5
    changed = 0
    for i, state in enumerate(states):
        seat = state.current_player
        other = reshuffle_hidden(state, seat, seed=i)
        assert other.view(seat) == state.view(seat)
        changed += other.to_json() != state.to_json()
    assert changed >= len(states) - 1  # the hidden cards really differ


#: The search with its playouts compiled (keltis.fast.search), where numba is installed.
KERNEL_SEARCH = pytest.param(
    "ismcts-kernel:iterations=40",
    marks=pytest.mark.skipif(
        importlib.util.find_spec("numba") is None, reason="ismcts-kernel needs keltis[fast]"
    ),
)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "spec", ["random", "greedy", "heuristic", "medium", "ismcts:iterations=40", KERNEL_SEARCH]
)
def test_choice_does_not_depend_on_hidden_cards(game: str, spec: str) -> None:
    assert_choices_ignore_hidden_cards(game, spec, 100)


def assert_choices_ignore_hidden_cards(game: str, spec: str, first_seed: int) -> None:
    """The bot of ``spec`` chooses the same at positions whose hidden cards are dealt anew."""
    for i, state in enumerate(decision_positions(game)[:6]):
        seat = state.current_player
        other = reshuffle_hidden(state, seat, seed=first_seed + i)
        first = make_bot(spec, seed=i).choose(state.view(seat))
        second = make_bot(spec, seed=i).choose(other.view(seat))
        assert first == second


@pytest.mark.parametrize("game", GAMES)
def test_search_statistics_do_not_depend_on_hidden_cards(game: str) -> None:
    config = SearchConfig(iterations=60, race=False)
    for i, state in enumerate(decision_positions(game)[:3]):
        seat = state.current_player
        other = reshuffle_hidden(state, seat, seed=7 + i)
        one = search(state.view(seat), config, random.Random(i))
        two = search(other.view(seat), config, random.Random(i))
        assert [(s.action, s.visits, s.value) for s in one.stats] == [
            (s.action, s.visits, s.value) for s in two.stats
        ]


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="needs keltis[fast]")
@pytest.mark.parametrize("game", GAMES)
def test_compiled_playouts_statistics_do_not_depend_on_hidden_cards(game: str) -> None:
    """The search with its playouts in the kernel (keltis.fast.search) turns each sampled
    deal into a state array: the deals come from the view alone, so do its statistics."""
    from keltis.fast.search import KernelPlayouts  # numba: only where keltis[fast] is

    config = SearchConfig(iterations=60, race=False)
    for i, state in enumerate(decision_positions(game)[:3]):
        seat = state.current_player
        other = reshuffle_hidden(state, seat, seed=17 + i)
        compiled = KernelPlayouts(game, state.num_players)
        one = search(state.view(seat), config, random.Random(i), playouts=compiled)
        two = search(other.view(seat), config, random.Random(i), playouts=compiled)
        assert [(s.action, s.visits, s.value) for s in one.stats] == [
            (s.action, s.visits, s.value) for s in two.stats
        ]


def test_bots_take_a_view_and_nothing_else() -> None:
    """``Bot.choose`` has one parameter, a View; the search's entry point likewise starts
    from a view."""
    import inspect

    for cls in (IsmctsBot, *Bot.__subclasses__()):
        params = list(inspect.signature(cls.choose).parameters)
        assert params == ["self", "view"], cls
    assert next(iter(inspect.signature(search).parameters)) == "view"
    view_fields = {f.name for f in fields(View)}
    assert "hands" not in view_fields
    assert "deck" not in view_fields


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bot", ["heuristic", "ismcts:iterations=40"])
def test_choice_under_other_weights_does_not_depend_on_hidden_cards(
    game: str, bot: str, tmp_path: Path
) -> None:
    """A bot given a weights file (``keltis.bots.weights``) takes the same path from its view:
    hidden cards still cannot reach it."""
    path = tmp_path / "weights.json"
    today = weights_of(get_game(game).part("policy").DEFAULT_TUNING)
    changed = {k: v * (1.5 if i % 2 else 0.6) for i, (k, v) in enumerate(today.items())}
    path.write_text(json.dumps({"game": game, "weights": changed}), encoding="utf-8")
    spec = f"{bot},tuning={path}" if ":" in bot else f"{bot}:weights={path}"
    assert_choices_ignore_hidden_cards(game, spec, 300)
