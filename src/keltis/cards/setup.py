"""Card-game set-ups: the deal a seed makes, explicit set-ups and positions in their JSON form
(what records keep), and the checks that build a consistent :class:`CardState` from one. The
rules engine (``keltis.cards.state``) knows nothing of set-ups."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from keltis.cards.state import (
    _ALL_WISHES,
    CLOSED_ROWS_TO_END,
    COPIES,
    NUM_PILES,
    PILE_OF,
    CardState,
    CardVariant,
    deal,
    derive_rows,
    pile_mask,
)
from keltis.core.actions import POINT_PILE
from keltis.core.cards import CARD_TEXT, COLOUR_LETTERS, COLOUR_NAMES, NUM_CARD_CODES, NUM_COLOURS
from keltis.core.errors import SetupError
from keltis.core.protocol import JSON
from keltis.core.setup import (
    HAND_SIZE,
    REMOVED_TWO_PLAYERS,
    code_counts,
    colour_key,
    missing_codes,
    read_cards,
    read_int,
    read_per_player,
    refuse_unknown,
    shuffle,
    surplus_codes,
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
        if not isinstance(data, dict):
            raise SetupError("an explicit set-up must be an object")
        known_keys = {
            "hands", "deck", "removed", "first_player", "discards", "rows", "point_rows",
            "wish_stones", "known", "fill_seed",
        }  # fmt: skip
        refuse_unknown(data, known_keys, "set-up: unknown entries")
        if "hands" not in data:
            raise SetupError("set-up: 'hands' is required (one list of 8 cards per player)")
        hands = [
            read_cards(h, f"hand of player {i}")
            for i, h in enumerate(read_per_player(data["hands"], players, "hands"))
        ]
        setup = cls(hands=hands)
        if "deck" in data:
            setup.deck = read_cards(data["deck"], "deck")
        if "removed" in data:
            setup.removed = read_cards(data["removed"], "removed")
        setup.first_player = read_int(data.get("first_player", 0), "first_player", 0, players - 1)
        if "discards" in data:
            piles: list[list[int]] = [[] for _ in range(NUM_PILES)]
            discards = data["discards"]
            if not isinstance(discards, dict):
                raise SetupError("discards must be an object keyed by G, Y, R, P, B and *")
            for key, cards in discards.items():
                pile = colour_key(key, "discards", point_pile=True)
                piles[pile] = read_cards(cards, f"discard pile {key}")
            setup.piles = piles
        if "rows" in data:
            rows: list[list[list[int]]] = []
            for i, entry in enumerate(read_per_player(data["rows"], players, "rows")):
                if entry is None:
                    entry = {}
                if not isinstance(entry, dict):
                    raise SetupError(f"rows of player {i} must be an object keyed by colour letter")
                mine: list[list[int]] = [[] for _ in range(NUM_COLOURS)]
                for key, cards in entry.items():
                    colour = colour_key(key, f"rows of player {i}", point_pile=False)
                    mine[colour] = read_cards(cards, f"row {key} of player {i}")
                rows.append(mine)
            setup.rows = rows
        if "point_rows" in data:
            setup.point_rows = [
                read_cards(r, f"point row of player {i}")
                for i, r in enumerate(read_per_player(data["point_rows"], players, "point_rows"))
            ]
        if "wish_stones" in data:
            stones: list[list[int]] = []
            for i, entry in enumerate(read_per_player(data["wish_stones"], players, "wish_stones")):
                if not isinstance(entry, list):
                    raise SetupError(f"wish_stones of player {i} must be a list of values 1-9")
                stones.append([read_int(v, f"wish stone of player {i}", 1, 9) for v in entry])
            setup.wish_stones = stones
        if "known" in data:
            setup.known = [
                read_cards(k, f"known cards of player {i}")
                for i, k in enumerate(read_per_player(data["known"], players, "known"))
            ]
        if "fill_seed" in data:
            setup.fill_seed = read_int(data["fill_seed"], "fill_seed", 0, 2**63)
        return setup

    # -- building the state --------------------------------------------------------------

    def build(self, players: int, variant: CardVariant) -> CardState:
        """The state this set-up describes, after checking it is consistent."""
        if not 2 <= players <= 4:
            raise SetupError(f"the card game is for 2-4 players, not {players}")
        if len(self.hands) != players:
            raise SetupError(f"set-up has {len(self.hands)} hands for {players} players")
        for p, hand in enumerate(self.hands):
            if len(hand) != HAND_SIZE:
                raise SetupError(f"player {p} holds {len(hand)} cards; a hand has 8 (C-5)")
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
        for pile, cards in enumerate(piles):
            for card in cards:
                if PILE_OF[card] != pile:
                    raise SetupError(
                        f"{CARD_TEXT[card]} lies on the {_pile_name(pile)} discard pile; it "
                        f"belongs on the {_pile_name(PILE_OF[card])} pile (C-7)"
                    )
        placed = code_counts(
            [
                *self.hands,
                *piles,
                *(row for mine in rows for row in mine),
                *point_rows,
                self.deck or (),
                self.removed or (),
            ],
            NUM_CARD_CODES,
        )
        extra = surplus_codes(placed, COPIES)
        if extra:
            raise SetupError(
                "set-up uses cards more often than they exist (C-1-C-3): "
                + ", ".join(f"{CARD_TEXT[c]} x{placed[c]} (exists x{COPIES[c]})" for c in extra)
            )
        rest = missing_codes(placed, COPIES)
        rng = random.Random(self.fill_seed)
        shuffle(rest, rng)
        removed = self.removed
        deck_top_first = self.deck
        if deck_top_first is None:
            if removed is None:
                fresh = self.rows is None and self.piles is None and self.point_rows is None
                count = REMOVED_TWO_PLAYERS if players == 2 and fresh else 0
                removed, rest = rest[:count], rest[count:]
            deck_top_first = rest
        elif removed is None:
            removed = rest
        elif rest:
            raise SetupError(
                "set-up leaves cards nowhere (every card must be in a hand, the deck, the "
                "removed cards, a discard pile or a row): "
                + ", ".join(CARD_TEXT[c] for c in sorted(rest))
            )
        if not deck_top_first:
            raise SetupError(
                "the draw pile must hold at least one card (C-14 ends the game when its last "
                "card is drawn)"
            )
        stones = (
            [list(w) for w in self.wish_stones]
            if self.wish_stones is not None
            else [[] for _ in range(players)]
        )
        taken = Counter(v for w in stones for v in w)
        twice = sorted(v for v, n in taken.items() if n > 1)
        if twice:
            raise SetupError(
                f"wish stone card(s) {', '.join(map(str, twice))} claimed more than once (C-4)"
            )
        if any(not 1 <= v <= 9 for v in taken):
            raise SetupError("wish stone cards have values 1-9 (C-4)")

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
        state.wish_mask = _ALL_WISHES & ~sum(1 << v for v in taken)
        state.known = [list(k) for k in self.known] if self.known else [[] for _ in range(players)]
        for p in range(players):
            missing = missing_codes(
                code_counts([state.hands[p]], NUM_CARD_CODES),
                code_counts([state.known[p]], NUM_CARD_CODES),
            )
            if missing:
                raise SetupError(
                    f"player {p}'s known cards are not all in the hand: "
                    + ", ".join(CARD_TEXT[c] for c in missing)
                )
        return state
