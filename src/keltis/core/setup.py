"""Reading the JSON form of set-ups and variants: shared checks with messages that say which
entry is wrong. Every function raises :class:`SetupError`."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Final

from keltis.core.actions import POINT_PILE
from keltis.core.cards import COLOUR_LETTERS, NUMBER_CARDS, parse_card
from keltis.core.errors import NotationError, SetupError


def fresh_seed() -> int:
    """A new random seed from the operating system, for a game created without one (two
    unseeded games never share a deal by accident)."""
    return random.SystemRandom().randrange(2**63)


#: Cards in each hand at the start (B-7, C-5).
HAND_SIZE: Final = 8
#: Cards set aside unseen in a 2-player game (B-8, C-6).
REMOVED_TWO_PLAYERS: Final = 30


def randbelow(rng: random.Random, n: int) -> int:
    """A number in ``0 … n-1`` drawn as ``random.Random._randbelow`` draws it (``n`` ≥ 1): a
    number of ``n.bit_length()`` bits, drawn again while it is ``n`` or more — so
    ``seq[randbelow(rng, len(seq))]`` is ``rng.choice(seq)``, without its Python-level calls."""
    bits = n.bit_length()
    j = rng.getrandbits(bits)
    while j >= n:
        j = rng.getrandbits(bits)
    return j


def shuffle(items: list[int], rng: random.Random) -> None:
    """``rng.shuffle(items)``: the same permutation from the same random numbers (one
    :func:`randbelow` a card), without ``random.shuffle``'s Python-level call for every card.
    Compiled, it takes a fraction of the time; every deal and every search's sampling
    shuffles. Tested against ``random.shuffle``."""
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(rng, i + 1)
        items[i], items[j] = items[j], items[i]


def code_counts(parts: Iterable[Iterable[int]], size: int) -> list[int]:
    """How often each code ``0 … size-1`` occurs in all of ``parts`` together (a card or tile
    count in a list: what ``Counter`` gives, without its Python-level calls). A code outside
    the range is refused."""
    counts = [0] * size
    for part in parts:
        for code in part:
            if not 0 <= code < size:
                raise SetupError(f"no card or tile has code {code}")
            counts[code] += 1
    return counts


def surplus_codes(counts: Sequence[int], limit: Sequence[int]) -> list[int]:
    """The codes counted more often than ``limit`` allows, in ascending order."""
    return [code for code, (n, most) in enumerate(zip(counts, limit, strict=True)) if n > most]


def missing_codes(counts: Sequence[int], full: Sequence[int]) -> list[int]:
    """What ``counts`` lacks of ``full``: each missing copy of a code, in ascending order
    (``sorted((Counter(full) - Counter(counted)).elements())``)."""
    out: list[int] = []
    for code, (n, want) in enumerate(zip(counts, full, strict=True)):
        for _ in range(want - n):
            out.append(code)
    return out


def unseen_cards(copies: Sequence[int], seen: Iterable[Iterable[int]]) -> list[int]:
    """The cards of a deck holding ``copies[code]`` of each card code that are not among the
    ``seen`` ones (each seen card takes one copy), in ascending order: for the games' sorted
    decks, ``(Counter(FULL_DECK) - Counter(seen)).elements()``."""
    return missing_codes(code_counts(seen, len(copies)), copies)


def deal_cards(
    rng: random.Random, full_deck: tuple[int, ...], players: int
) -> tuple[list[list[int]], list[int], list[int]]:
    """Shuffle ``full_deck`` with ``rng`` and deal it as both games do (B-6-B-8, C-5, C-6):
    ``HAND_SIZE`` cards to each player (sorted), then 30 set aside in a 2-player game, the
    rest the draw pile. Returns the hands, the draw pile top first and the removed cards."""
    cards = list(full_deck)
    shuffle(cards, rng)
    hands = [sorted(cards[p * HAND_SIZE : (p + 1) * HAND_SIZE]) for p in range(players)]
    rest = cards[players * HAND_SIZE :]
    removed = rest[:REMOVED_TWO_PLAYERS] if players == 2 else []
    return hands, rest[len(removed) :], removed


def read_cards(data: Any, what: str, *, numbers_only: bool = False) -> list[int]:
    """A list of card notations (``["G7", "RX", "*3"]``) as card codes.

    ``numbers_only`` refuses closing and point cards (the board game has none).
    """
    if not isinstance(data, list):
        example = "['G7', 'B10']" if numbers_only else "['G7', 'RX', '*3']"
        raise SetupError(f"{what} must be a list of cards like {example}")
    out = []
    for item in data:
        if not isinstance(item, str):
            raise SetupError(f"{what}: {item!r} is not a card")
        try:
            card = parse_card(item)
        except NotationError as error:
            raise SetupError(f"{what}: {error}") from None
        if numbers_only and card >= NUMBER_CARDS:
            raise SetupError(f"{what}: {item} is not a board-game card")
        out.append(card)
    return out


def colour_key(key: Any, what: str, *, point_pile: bool = False) -> int:
    """A colour letter (``G`` … ``B``) as its index; with ``point_pile``, ``*`` is the
    point-card pile (``POINT_PILE``)."""
    text = str(key).upper()
    if point_pile and text == "*":
        return POINT_PILE
    index = COLOUR_LETTERS.find(text) if len(text) == 1 else -1
    if index < 0:
        extra = " or * for the point-card pile" if point_pile else ""
        raise SetupError(f"{what}: {key!r} is not a colour letter (G, Y, R, P, B){extra}")
    return index


def read_per_colour(data: Any, what: str, *, point_pile: bool = False) -> dict[int, Any]:
    """An object keyed by colour letter (and ``*`` with ``point_pile``), keys as indexes."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise SetupError(f"{what} must be an object keyed by colour letter (G, Y, R, P, B)")
    return {colour_key(key, what, point_pile=point_pile): value for key, value in data.items()}


def read_per_player(data: Any, players: int, what: str) -> list[Any]:
    """A list with one entry per seat."""
    if not isinstance(data, list) or len(data) != players:
        raise SetupError(f"{what} must be a list with one entry per player ({players})")
    return data


def read_int(data: Any, what: str, low: int, high: int) -> int:
    """A whole number (not a bool) from ``low`` to ``high``."""
    if not isinstance(data, int) or isinstance(data, bool) or not low <= data <= high:
        raise SetupError(f"{what} must be a whole number {low}-{high}, not {data!r}")
    return data


#: Turns after which a game ends as *truncated* unless its variant says otherwise. Real games
#: last a few hundred turns at most; the cap makes every game finite (``GameInfo``'s
#: ``max_game_length`` is derived from it).
DEFAULT_TURN_CAP: Final = 1000


def read_turn_cap(data: Any) -> int:
    """The ``turn_cap`` switch of a variant: a whole number of turns, at least 1; ``null`` or
    absent (as in records written before every game had a cap) is :data:`DEFAULT_TURN_CAP`."""
    if data is None:
        return DEFAULT_TURN_CAP
    if not isinstance(data, int) or isinstance(data, bool):
        raise SetupError(key="turn_cap_not_number", params={"value": repr(data)})
    check_turn_cap(data)
    return data


def check_turn_cap(cap: int) -> None:
    """Refuse a turn cap below 1."""
    if cap < 1:
        raise SetupError(key="turn_cap_low", params={"cap": cap})


def refuse_unknown(data: dict[str, Any], known: set[str], message: str) -> None:
    """Refuse keys of ``data`` that are not in ``known``: ``message`` followed by their names
    (e.g. ``"set-up: unknown entries"``)."""
    unknown = set(data) - known
    if unknown:
        raise SetupError(f"{message} {', '.join(sorted(unknown))}")
