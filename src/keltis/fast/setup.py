"""Set-ups into and out of the fast engine's state arrays.

``load_setup`` starts a fast game from the reference engine's explicit set-up (the JSON form
that ``Game.deal(players, seed)`` returns and records keep): the reference reads and checks it,
and its dealt hands, draw pile, tiles and first player are copied into a state array.
``deal_setup`` goes the other way: the cards and tiles the fast engine deals for a seed, as an
explicit set-up the reference can play. Only the start of a game is supported: set-ups with
laid rows, discard piles or collected tiles are refused.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from keltis.board import BoardState
from keltis.board.layout import TILE_LETTERS
from keltis.core.cards import CARD_TEXT, COLOUR_LETTERS
from keltis.core.errors import SetupError
from keltis.core.protocol import JSON, GameState
from keltis.fast import board, cards
from keltis.fast._rng import seed_game
from keltis.games import GAME_NAMES, get_game

State = npt.NDArray[np.int32]
Rng = npt.NDArray[np.uint64]

#: The entries of an explicit set-up that describe a deal (the start of a game).
DEALT_KEYS: Final = frozenset({"hands", "deck", "removed", "tiles", "first_player", "fill_seed"})


def kernel(game: str) -> ModuleType:
    """The kernel module of ``game`` (``keltis.fast.board`` or ``keltis.fast.cards``)."""
    if game == "board":
        return board
    if game == "cards":
        return cards
    raise ValueError(f"unknown game {game!r}: choose one of {', '.join(GAME_NAMES)}")


def read_variant(game: str, variant: JSON | None) -> tuple[int, bool]:
    """``(turn_cap, no_take_back)`` of a variant, read and checked by the reference engine.

    Every switch of both games is supported: ``turn_cap`` and, in the board game,
    ``no_take_back`` (B-15; on by default). The card game always forbids taking back (C-12).
    """
    spelt = get_game(game).variant_json(variant)
    return int(spelt["turn_cap"]), bool(spelt.get("no_take_back", True))


def seed_bits(seed: int) -> np.uint64:
    """A whole-number seed as the kernels' ``uint64`` (taken modulo 2**64)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be a whole number, not {seed!r}")
    return np.uint64(seed % 2**64)


def game_rng(seed: int, index: int) -> Rng:
    """The random-number state of game ``index`` of a batch seeded ``seed``."""
    rng = np.zeros(1, dtype=np.uint64)
    seed_game(rng, seed_bits(seed), index)
    return rng


def from_reference(state: GameState) -> State:
    """The fast state array of a reference game at its start (nothing played yet)."""
    if state.history or state.turn or state.over:
        raise SetupError("keltis.fast starts only from the start of a game")
    game = state.game_name
    cap, no_take_back = read_variant(game, state.variant.to_json())
    k = kernel(game)
    s: State = k.new_state()
    players = state.num_players
    if isinstance(state, BoardState):
        board.reset(s, players, cap, no_take_back)
        for colour in range(5):
            for row in range(10):
                s[board.TILES + colour * 10 + row] = state.tiles[colour][row]
    else:
        cards.reset(s, players, cap)
    for p, hand in enumerate(state.hands):
        for i, card in enumerate(hand):
            s[k.HAND + p * k.HAND_SIZE + i] = card
        s[k.HAND_N + p] = len(hand)
    for i, card in enumerate(state.deck):  # bottom first: the top is the end in both
        s[k.DECK + i] = card
    s[k.DECK_N] = len(state.deck)
    s[k.CUR] = state.first_player
    return s


def load_setup(game: str, players: int, setup: JSON, variant: JSON | None = None) -> State:
    """A fast state array from an explicit dealt set-up (``Game.deal``'s JSON form), checked
    by the reference engine; ``variant`` as in ``Game.new_game``."""
    if not isinstance(setup, dict):
        raise SetupError("an explicit set-up must be an object")
    other = sorted(set(setup) - DEALT_KEYS)
    if other:
        raise SetupError(
            "keltis.fast starts games only from a deal (hands, deck, removed, tiles, "
            f"first_player); this set-up also gives {', '.join(other)}"
        )
    rules = get_game(game)
    rules.check_players(players)
    return from_reference(rules.new_game(players, setup=setup, variant=variant))


def dealt_state(
    game: str, players: int, seed: int, index: int = 0, variant: JSON | None = None
) -> tuple[State, Rng]:
    """Game ``index`` of a fast batch seeded ``seed`` right after its deal, and the
    random-number state its policy goes on with (what ``simulate`` plays)."""
    get_game(game).check_players(players)
    cap, no_take_back = read_variant(game, variant)
    k = kernel(game)
    s: State = k.new_state()
    rng = game_rng(seed, index)
    scratch = np.zeros(k.DECK_CARDS, dtype=np.int32)
    if game == "board":
        board.deal(s, players, cap, no_take_back, rng, scratch)
    else:
        cards.deal(s, players, cap, rng, scratch)
    return s, rng


def deal_setup(game: str, players: int, seed: int, index: int = 0) -> JSON:
    """The cards (and board tiles) that game ``index`` of a fast batch seeded ``seed`` deals,
    as the reference's explicit set-up (``deck`` top first; the rest are ``removed``)."""
    s, _ = dealt_state(game, players, seed, index)
    return to_setup(game, s)


def to_setup(game: str, s: State) -> JSON:
    """The explicit set-up of a fast state at the start of a game."""
    k = kernel(game)
    players = int(s[k.NP])
    hands = [
        [int(c) for c in s[k.HAND + p * k.HAND_SIZE : k.HAND + p * k.HAND_SIZE + s[k.HAND_N + p]]]
        for p in range(players)
    ]
    deck = [int(c) for c in s[k.DECK : k.DECK + s[k.DECK_N]][::-1]]
    rest = [int(c) for c in k.FULL_DECK]
    for card in (c for h in hands for c in h):
        rest.remove(card)
    for card in deck:
        rest.remove(card)
    out: dict[str, Any] = {
        "hands": [[CARD_TEXT[c] for c in h] for h in hands],
        "deck": [CARD_TEXT[c] for c in deck],
        "removed": [CARD_TEXT[c] for c in rest],
    }
    if game == "board":
        out["tiles"] = {
            COLOUR_LETTERS[colour]: "".join(
                TILE_LETTERS[int(s[board.TILES + colour * 10 + row])] for row in range(1, 10)
            )
            for colour in range(5)
        }
    if int(s[k.CUR]):
        out["first_player"] = int(s[k.CUR])
    return out
