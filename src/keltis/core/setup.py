"""What both games' set-ups and samplers share: dealing, reading the JSON form of set-ups and
variants, the checks that an explicit set-up is consistent (with messages that say which entry
is wrong) and dealing the cards a player has not seen. Every check raises :class:`SetupError`."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Final

from keltis.core.actions import POINT_PILE
from keltis.core.card_codes import (
    CARD_TEXT,
    COLOUR_LETTERS,
    NUM_CARD_CODES,
    NUMBER_CARDS,
    parse_card,
)
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
    :func:`randbelow` a card), without ``random.shuffle``'s Python-level call for every card
    (every deal and every search's sampling shuffles). Tested against ``random.shuffle``."""
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


# -- checking an explicit set-up -----------------------------------------------------------


def check_hands(hands: Sequence[Sequence[int]], players: int, game: str, rule: str) -> None:
    """Refuse a seat count outside 2-4 and hands that are not one hand of :data:`HAND_SIZE`
    cards per seat. ``game`` names the game in the message (``"board game"``), ``rule`` the
    rule that deals the hands (``"B-7"``)."""
    if not 2 <= players <= 4:
        raise SetupError(f"the {game} is for 2-4 players, not {players}")
    if len(hands) != players:
        raise SetupError(f"set-up has {len(hands)} hands for {players} players")
    for p, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise SetupError(f"player {p} holds {len(hand)} cards; a hand has {HAND_SIZE} ({rule})")


def unplaced_cards(
    parts: Iterable[Iterable[int]], copies: Sequence[int], too_many: str, *, show_copies: bool
) -> list[int]:
    """The cards of a deck holding ``copies[code]`` of each card code that none of ``parts``
    (hands, piles, rows …) places, in ascending order. A card placed more often than it exists
    is refused: the message is ``too_many`` followed by each such card and how often it is
    placed (with ``show_copies``, also how often it exists)."""
    placed = code_counts(parts, len(copies))
    extra = surplus_codes(placed, copies)
    if extra:
        raise SetupError(
            too_many + ", ".join(_overused(c, placed[c], copies[c], show_copies) for c in extra)
        )
    return missing_codes(placed, copies)


def _overused(card: int, placed: int, exist: int, show_copies: bool) -> str:
    """One card of :func:`unplaced_cards`' refusal: ``G7 x3``, or ``G7 x3 (exists x2)``."""
    text = f"{CARD_TEXT[card]} x{placed}"
    return f"{text} (exists x{exist})" if show_copies else text


def place_rest(
    rest: list[int],
    rng: random.Random,
    deck: list[int] | None,
    removed: list[int] | None,
    set_aside: int,
    rule: str,
) -> tuple[list[int], list[int]]:
    """Where the cards a set-up does not place (``rest``, shuffled here with ``rng``) go, and
    the draw pile (``deck``, top first) and removed cards that result. With no ``deck`` given,
    the first ``set_aside`` of them are removed (unless ``removed`` is given) and the others
    become the draw pile; with a deck but no removed cards, they are the removed cards; with
    both given, no card may be left over. An empty draw pile is refused: ``rule`` ends the
    game when its last card is drawn. Returns the draw pile top first and the removed cards."""
    shuffle(rest, rng)
    if deck is None:
        if removed is None:
            removed, rest = rest[:set_aside], rest[set_aside:]
        deck = rest
    elif removed is None:
        removed = rest
    elif rest:
        raise SetupError(
            "set-up leaves cards nowhere (every card must be in a hand, the deck, the "
            "removed cards, a discard pile or a row): "
            + ", ".join(CARD_TEXT[c] for c in sorted(rest))
        )
    if not deck:
        raise SetupError(
            f"the draw pile must hold at least one card ({rule} ends the game when its last "
            "card is drawn)"
        )
    return deck, removed


def check_known(
    hands: Sequence[Sequence[int]], known: Sequence[Sequence[int]], *, list_cards: bool
) -> None:
    """Refuse cards known to be in a hand (``known[p]``: taken from a discard pile) that the
    hand does not hold; with ``list_cards`` the message names them."""
    for p, hand in enumerate(hands):
        missing = missing_codes(
            code_counts([hand], NUM_CARD_CODES), code_counts([known[p]], NUM_CARD_CODES)
        )
        if missing:
            message = f"player {p}'s known cards are not all in the hand"
            if list_cards:
                message += ": " + ", ".join(CARD_TEXT[c] for c in missing)
            raise SetupError(message)


# -- sampling: a full state from one player's view ------------------------------------------

#: The refusal of a sampler given a spectator's view.
NO_HAND: Final = "a spectator's view has no hand to sample from"


def unseen_by(
    viewer: int,
    hand: Sequence[int],
    known_cards: Sequence[Sequence[int]],
    face_up: Iterable[Sequence[int]],
    rows: Iterable[Iterable[Sequence[int]]],
    copies: Sequence[int],
) -> list[int]:
    """The cards seat ``viewer`` has not seen, in ascending order: a deck of ``copies[code]``
    of each card code less the seat's ``hand``, the piles ``face_up`` on the table, every
    player's ``rows`` and the cards known to be in other hands (``known_cards``)."""
    seen: list[Sequence[int]] = [hand, *face_up]
    for mine in rows:
        seen.extend(mine)
    seen.extend(known for p, known in enumerate(known_cards) if p != viewer)
    return unseen_cards(copies, seen)


def deal_unseen(
    unseen: list[int],
    rng: random.Random,
    viewer: int,
    hand: Sequence[int],
    known_cards: Sequence[Sequence[int]],
    hand_sizes: Sequence[int],
    deck_size: int,
) -> tuple[list[list[int]], list[int], list[int]]:
    """Shuffle the cards ``viewer`` has not seen (``unseen``, from :func:`unseen_by`) with
    ``rng`` and deal them to the hidden places in the sizes the viewer sees: the rest of each
    other hand (beside the cards known to be in it), then the draw pile (``deck_size`` cards),
    then the removed cards (what is left). Returns the hands (sorted; the viewer's is
    ``hand``), the draw pile and the removed cards."""
    shuffle(unseen, rng)
    hands: list[list[int]] = []
    for p in range(len(hand_sizes)):
        if p == viewer:
            hands.append(sorted(hand))
            continue
        hidden = hand_sizes[p] - len(known_cards[p])
        hands.append(sorted([*known_cards[p], *unseen[:hidden]]))
        del unseen[:hidden]
    return hands, unseen[:deck_size], unseen[deck_size:]


# -- reading the JSON form -------------------------------------------------------------------


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


def read_player_cards(
    data: Any, players: int, key: str, what: str, *, numbers_only: bool = False
) -> list[list[int]]:
    """A list of cards per seat (the set-up's entry ``key``), each read by :func:`read_cards`
    and named ``"{what} of player {seat}"`` in messages."""
    return [
        read_cards(entry, f"{what} of player {i}", numbers_only=numbers_only)
        for i, entry in enumerate(read_per_player(data, players, key))
    ]


def setup_entries(data: Any, keys: set[str]) -> dict[str, Any]:
    """An explicit set-up's JSON form as an object, refused if it is no object, has entries
    not in ``keys`` or lacks ``hands`` (the one entry every set-up needs)."""
    if not isinstance(data, dict):
        raise SetupError("an explicit set-up must be an object")
    refuse_unknown(data, keys, "set-up: unknown entries")
    if "hands" not in data:
        raise SetupError("set-up: 'hands' is required (one list of 8 cards per player)")
    return data


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
