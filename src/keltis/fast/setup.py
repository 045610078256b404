"""Set-ups into and out of the fast engine's state arrays.

``load_setup`` starts a fast game from the reference engine's explicit set-up (the JSON form
that ``Game.deal(players, seed)`` returns and records keep): the reference reads and checks it,
and its dealt hands, draw pile, tiles and first player are copied into a state array.
``deal_setup`` goes the other way: the cards and tiles the fast engine deals for a seed, as an
explicit set-up the reference can play. Only the start of a game is supported: set-ups with
laid rows, discard piles or collected tiles are refused. ``state_array`` copies a reference
game at any point of its play (a search's playouts start from a sampled deal).
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from keltis.core.card_codes import CARD_TEXT
from keltis.core.errors import SetupError
from keltis.core.outcome import EndReason
from keltis.core.protocol import JSON, GameState
from keltis.fast._rng import seed_game
from keltis.games import get_game

State = npt.NDArray[np.int32]
Rng = npt.NDArray[np.uint64]
Switches = npt.NDArray[np.int32]

#: The entries of an explicit set-up that describe a deal (the start of a game).
DEALT_KEYS: Final = frozenset({"hands", "deck", "removed", "tiles", "first_player", "fill_seed"})


@functools.cache
def kernel(game: str) -> ModuleType:
    """The kernel module of ``game``: its package's ``kernel`` part (``keltis.board.kernel``,
    ``keltis.cards.kernel``)."""
    return get_game(game).part("kernel")


def switches(game: str, variant: JSON | None) -> Switches:
    """A variant's switches as the kernel of ``game`` takes them (in the order of its
    ``SWITCHES``, the variant dataclass's fields), read and checked by the reference engine;
    ``None``: the default rules."""
    spelt = get_game(game).variant_json(variant)
    return np.array([int(spelt[name]) for name in kernel(game).SWITCHES], dtype=np.int32)


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
    return state_array(state)


def state_array(state: GameState) -> State:
    """The fast state array of a reference game at any point of its play: the same position,
    to play on in the kernels (a search's playouts do). Each hand keeps the reference's
    order, each pile its order (the top at the end); what the reference keeps beyond the
    cards and the turn, each game's kernel copies (its ``load_state``)."""
    k = kernel(state.game_name)
    live: Any = state  # both games' states have piles and phases: the kernels number them alike
    s: State = k.new_state()
    k.reset(s, state.num_players, _switches(state.game_name, live.variant))
    for p, hand in enumerate(state.hands):
        at = k.HAND + p * k.HAND_SIZE
        s[at : at + len(hand)] = hand
        s[k.HAND_N + p] = len(hand)
    deck = state.deck  # bottom first: the top is the end in both
    s[k.DECK : k.DECK + len(deck)] = deck
    s[k.DECK_N] = len(deck)
    for pile, cards in enumerate(live.piles):
        at = k.PILE + pile * k.PILE_ROOM
        s[at : at + len(cards)] = cards
        s[k.PILE_N + pile] = len(cards)
    s[k.CUR] = -1 if state.over else state.current_player
    s[k.PHASE] = live.phase
    s[k.TURN] = state.turn
    reason = state.end_reason
    s[k.END] = -1 if reason is None else tuple(EndReason).index(reason)
    k.load_state(s, state)
    return s


@functools.lru_cache(maxsize=64)
def _switches(game: str, variant: Any) -> Switches:
    """:func:`switches` of a variant object (frozen: the same object, the same array)."""
    return switches(game, variant.to_json())


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
    k = kernel(game)
    s: State = k.new_state()
    rng = game_rng(seed, index)
    k.deal(s, players, switches(game, variant), rng, np.zeros(k.DECK_CARDS, dtype=np.int32))
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
    out.update(k.setup_extra(s))
    if int(s[k.CUR]):
        out["first_player"] = int(s[k.CUR])
    return out
