"""Card-game set-ups: the deal a seed makes, explicit set-ups and positions in their JSON form
(what records keep), and the checks that build a consistent :class:`CardState` from one. The
rules engine (``keltis.cards.state``) knows nothing of set-ups."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Final

from keltis.cards.state import (
    _ALL_WISHES,
    CLOSED_ROWS_TO_END,
    NUM_PILES,
    PILE_OF,
    CardState,
    CardVariant,
    deal,
    derive_rows,
    pile_mask,
)
from keltis.cards.tables import COPIES
from keltis.core.actions import POINT_PILE
from keltis.core.card_codes import CARD_TEXT, COLOUR_LETTERS, COLOUR_NAMES, NUM_COLOURS
from keltis.core.errors import SetupError
from keltis.core.protocol import JSON
from keltis.core.setup import (
    REMOVED_TWO_PLAYERS,
    check_hands,
    check_known,
    colour_key,
    place_rest,
    read_cards,
    read_int,
    read_per_player,
    read_player_cards,
    setup_entries,
    unplaced_cards,
)


def _pile_name(pile: int) -> str:
    return "point-card" if pile == POINT_PILE else COLOUR_NAMES[pile]


@dataclass
class CardSetup:
    """An explicit set-up or position. Only ``hands`` is required; the rest defaults to the
    start of a game. Cards not placed anywhere are shuffled (with ``fill_seed``) into the draw
    pile, after setting 30 aside as removed in a 2-player game (C-6) unless ``removed`` is
    given. ``deck`` lists the draw pile top first.

    Beyond the start of a game it can describe any position at the start of a turn: discard
    piles, laid colour rows and point rows, claimed wish stones, cards known to be in a hand,
    and the player to move. Every one of the 101 cards must be somewhere exactly once.
    """

    hands: list[list[int]]
    deck: list[int] | None = None
    removed: list[int] | None = None
    first_player: int = 0
    piles: list[list[int]] | None = None
    """Six discard piles, bottom first: colours 0-4, then point cards."""
    rows: list[list[list[int]]] | None = None
    point_rows: list[list[int]] | None = None
    wish_stones: list[list[int]] | None = None
    """Per player: values of the wish stone cards claimed."""
    known: list[list[int]] | None = None
    fill_seed: int = 0

    @classmethod
    def from_seed(cls, players: int, seed: int) -> CardSetup:
        """Shuffle the 101 cards with ``random.Random(seed)`` and deal (C-5, C-6)."""
        hands, deck, removed = deal(players, seed)
        return cls(hands=hands, deck=deck, removed=removed)

    # -- JSON ----------------------------------------------------------------------------

    def to_json(self) -> JSON:
        """The record form (cards as notation)."""

        def texts(cards: list[int]) -> list[str]:
            return [CARD_TEXT[c] for c in cards]

        out: JSON = {"hands": [texts(h) for h in self.hands]}
        if self.deck is not None:
            out["deck"] = texts(self.deck)
        if self.removed is not None:
            out["removed"] = texts(self.removed)
        if self.first_player:
            out["first_player"] = self.first_player
        if self.piles is not None:
            out["discards"] = {
                ("*" if i == POINT_PILE else COLOUR_LETTERS[i]): texts(pile)
                for i, pile in enumerate(self.piles)
                if pile
            }
        if self.rows is not None:
            out["rows"] = [
                {COLOUR_LETTERS[c]: texts(row) for c, row in enumerate(rows) if row}
                for rows in self.rows
            ]
        if self.point_rows is not None:
            out["point_rows"] = [texts(r) for r in self.point_rows]
        if self.wish_stones is not None:
            out["wish_stones"] = [list(w) for w in self.wish_stones]
        if self.known is not None:
            out["known"] = [texts(k) for k in self.known]
        if self.fill_seed:
            out["fill_seed"] = self.fill_seed
        return out

    @classmethod
    def from_json(cls, data: Any, players: int) -> CardSetup:
        """Read the record form, with messages that say which entry is wrong."""
        data = setup_entries(data, _KEYS)
        setup = cls(hands=read_player_cards(data["hands"], players, "hands", "hand"))
        if "deck" in data:
            setup.deck = read_cards(data["deck"], "deck")
        if "removed" in data:
            setup.removed = read_cards(data["removed"], "removed")
        setup.first_player = read_int(data.get("first_player", 0), "first_player", 0, players - 1)
        if "discards" in data:
            setup.piles = _read_piles(data["discards"])
        if "rows" in data:
            setup.rows = _read_rows(data["rows"], players)
        if "point_rows" in data:
            setup.point_rows = read_player_cards(
                data["point_rows"], players, "point_rows", "point row"
            )
        if "wish_stones" in data:
            stones: list[list[int]] = []
            for i, entry in enumerate(read_per_player(data["wish_stones"], players, "wish_stones")):
                if not isinstance(entry, list):
                    raise SetupError(f"wish_stones of player {i} must be a list of values 1-9")
                stones.append([read_int(v, f"wish stone of player {i}", 1, 9) for v in entry])
            setup.wish_stones = stones
        if "known" in data:
            setup.known = read_player_cards(data["known"], players, "known", "known cards")
        if "fill_seed" in data:
            setup.fill_seed = read_int(data["fill_seed"], "fill_seed", 0, 2**63)
        return setup

    # -- building the state --------------------------------------------------------------

    def build(self, players: int, variant: CardVariant) -> CardState:
        """The state this set-up describes, after checking it is consistent."""
        check_hands(self.hands, players, "card game", "C-5")
        self._check_shapes(players)
        rows = (
            [[list(r) for r in mine] for mine in self.rows]
            if self.rows is not None
            else [[[] for _ in range(NUM_COLOURS)] for _ in range(players)]
        )
        piles = (
            [list(x) for x in self.piles]
            if self.piles is not None
            else [[] for _ in range(NUM_PILES)]
        )
        point_rows = (
            [list(x) for x in self.point_rows]
            if self.point_rows is not None
            else [[] for _ in range(players)]
        )
        _check_piles(piles)
        deck_top_first, removed = self._deal_rest(rows, piles, point_rows, players)
        stones = (
            [list(w) for w in self.wish_stones]
            if self.wish_stones is not None
            else [[] for _ in range(players)]
        )
        claimed = _claimed_wishes(stones)

        state = CardState.empty(players, variant)
        state.first_player = state.current_player = self.first_player
        state.hands = [sorted(h) for h in self.hands]
        state.deck = list(reversed(deck_top_first))
        state.removed = list(removed)
        state.piles = piles
        state.filled = pile_mask(piles)
        state.rows = rows
        state.point_rows = point_rows
        derive_rows(state)
        if state.closed_rows >= CLOSED_ROWS_TO_END:
            raise SetupError(
                f"set-up has {state.closed_rows} rows with a closing card: that game is over (C-13)"
            )
        state.wish_stones = stones
        state.wish_mask = _ALL_WISHES & ~sum(1 << v for v in claimed)
        state.known = [list(k) for k in self.known] if self.known else [[] for _ in range(players)]
        check_known(state.hands, state.known, list_cards=True)
        return state

    def _check_shapes(self, players: int) -> None:
        """Refuse a first player who is no seat and per-player entries, rows and piles that do
        not have one entry per player, colour or pile."""
        if not 0 <= self.first_player < players:
            raise SetupError(f"first_player must be a seat 0-{players - 1}")
        for what, per_player in (
            ("rows", self.rows),
            ("point_rows", self.point_rows),
            ("wish_stones", self.wish_stones),
            ("known", self.known),
        ):
            if per_player is not None and len(per_player) != players:
                raise SetupError(f"{what} must have one entry per player ({players})")
        if self.rows is not None and any(len(r) != NUM_COLOURS for r in self.rows):
            raise SetupError("rows must list the 5 colour rows of each player")
        if self.piles is not None and len(self.piles) != NUM_PILES:
            raise SetupError("piles must list the 6 discard piles (5 colours, then point cards)")

    def _deal_rest(
        self,
        rows: list[list[list[int]]],
        piles: list[list[int]],
        point_rows: list[list[int]],
        players: int,
    ) -> tuple[list[int], list[int]]:
        """The draw pile (top first) and the removed cards, after refusing a card placed more
        often than it exists (C-1-C-3): the cards placed nowhere else go there, shuffled with
        ``fill_seed``, 30 of them set aside in a 2-player game (C-6) when no rows, point rows
        or discard piles are given."""
        rest = unplaced_cards(
            [
                *self.hands,
                *piles,
                *(row for mine in rows for row in mine),
                *point_rows,
                self.deck or (),
                self.removed or (),
            ],
            COPIES,
            "set-up uses cards more often than they exist (C-1-C-3): ",
            show_copies=True,
        )
        fresh = self.rows is None and self.piles is None and self.point_rows is None
        set_aside = REMOVED_TWO_PLAYERS if players == 2 and fresh else 0
        rng = random.Random(self.fill_seed)
        return place_rest(rest, rng, self.deck, self.removed, set_aside, "C-14")


#: The entries of an explicit set-up's JSON form.
_KEYS: Final = {
    "hands", "deck", "removed", "first_player", "discards", "rows", "point_rows",
    "wish_stones", "known", "fill_seed",
}  # fmt: skip


def _read_piles(data: Any) -> list[list[int]]:
    """``discards``: the cards of each discard pile, keyed by colour letter or ``*``."""
    piles: list[list[int]] = [[] for _ in range(NUM_PILES)]
    if not isinstance(data, dict):
        raise SetupError("discards must be an object keyed by G, Y, R, P, B and *")
    for key, cards in data.items():
        pile = colour_key(key, "discards", point_pile=True)
        piles[pile] = read_cards(cards, f"discard pile {key}")
    return piles


def _read_rows(data: Any, players: int) -> list[list[list[int]]]:
    """``rows``: per player, an object of the cards laid per colour letter."""
    rows: list[list[list[int]]] = []
    for i, entry in enumerate(read_per_player(data, players, "rows")):
        if entry is None:
            entry = {}
        if not isinstance(entry, dict):
            raise SetupError(f"rows of player {i} must be an object keyed by colour letter")
        mine: list[list[int]] = [[] for _ in range(NUM_COLOURS)]
        for key, cards in entry.items():
            colour = colour_key(key, f"rows of player {i}", point_pile=False)
            mine[colour] = read_cards(cards, f"row {key} of player {i}")
        rows.append(mine)
    return rows


def _check_piles(piles: list[list[int]]) -> None:
    """Refuse a card on a discard pile other than its own (C-7)."""
    for pile, cards in enumerate(piles):
        for card in cards:
            if PILE_OF[card] != pile:
                raise SetupError(
                    f"{CARD_TEXT[card]} lies on the {_pile_name(pile)} discard pile; it "
                    f"belongs on the {_pile_name(PILE_OF[card])} pile (C-7)"
                )


def _claimed_wishes(stones: list[list[int]]) -> list[int]:
    """The values of the wish stone cards ``stones`` claims (per player), each once in the
    order first claimed, refusing one claimed twice or a value outside 1-9 (C-4)."""
    taken = Counter(v for w in stones for v in w)
    twice = sorted(v for v, n in taken.items() if n > 1)
    if twice:
        raise SetupError(
            f"wish stone card(s) {', '.join(map(str, twice))} claimed more than once (C-4)"
        )
    if any(not 1 <= v <= 9 for v in taken):
        raise SetupError("wish stone cards have values 1-9 (C-4)")
    return list(taken)
