"""Board-game set-ups: the deal a seed makes, explicit set-ups and positions in their JSON
form (what records keep), and the checks that build a consistent :class:`BoardState` from
one. The rules engine (``keltis.board.state``) knows nothing of set-ups."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from keltis.board.layout import (
    ALL_TILES,
    DEFAULT_LAYOUT,
    NO_TILE,
    TILE_LETTERS,
    TILE_NAMES,
    WISH,
    Layout,
)
from keltis.board.state import COPIES, FIGURES, BoardState, BoardVariant, deal
from keltis.core.cards import CARD_TEXT, COLOUR_LETTERS, COLOUR_NAMES, NUM_CARD_CODES, NUM_COLOURS
from keltis.core.errors import SetupError
from keltis.core.protocol import JSON
from keltis.core.scoring import GOAL_FIGURES, GOAL_ROW, LAST_ROW
from keltis.core.setup import (
    HAND_SIZE,
    REMOVED_TWO_PLAYERS,
    code_counts,
    missing_codes,
    read_cards,
    read_int,
    read_per_colour,
    read_per_player,
    refuse_unknown,
    shuffle,
    surplus_codes,
)

#: How many copies of each tile code exist (B-3).
_TILE_COUNTS: Final = code_counts([ALL_TILES], len(TILE_LETTERS))


def _numbers(data: Any, what: str) -> list[int]:
    return read_cards(data, what, numbers_only=True)


@dataclass
class BoardSetup:
    """An explicit set-up or position. Only ``hands`` is required; the rest defaults to the
    start of a game. Cards not placed anywhere are shuffled (with ``fill_seed``) into the draw
    pile, after setting 30 aside as removed in a 2-player deal (B-8: no rows or discard piles
    given) unless ``removed`` is given; with ``deck`` given, they become the removed cards.
    ``deck`` lists the draw pile top first.

    Beyond the start of a game it can describe any position: laid rows, figure positions, the
    big figure's path, discard piles, collected tiles and the player to move. Every one of
    the 110 cards must be somewhere exactly once.
    """

    hands: list[list[int]]
    deck: list[int] | None = None
    removed: list[int] | None = None
    tiles: list[list[int]] | None = None
    """tiles[colour][row] for rows 0-9; ``None``: shuffled onto the layout with fill_seed."""
    first_player: int = 0
    piles: list[list[int]] | None = None
    rows: list[list[list[int]]] | None = None
    positions: list[list[int]] | None = None
    """positions[player][colour]: the row of the figure on that path, 0 if none (``None``: every
    figure on its row's length; the JSON form defaults each path it leaves out the same way)."""
    big: list[int] | None = None
    points: list[int] | None = None
    wishes: list[int] | None = None
    known: list[list[int]] | None = None
    fill_seed: int = 0

    @classmethod
    def from_seed(cls, players: int, seed: int, layout: Layout = DEFAULT_LAYOUT) -> BoardSetup:
        """Shuffle tiles and cards with ``random.Random(seed)`` and deal (B-6-B-8)."""
        hands, deck, removed, tiles = deal(players, seed, layout)
        return cls(hands=hands, deck=deck, removed=removed, tiles=tiles)

    # -- JSON ----------------------------------------------------------------------------

    def to_json(self) -> JSON:
        """The record form (cards as notation, tiles as one string per path)."""
        out: JSON = {"hands": [[CARD_TEXT[c] for c in h] for h in self.hands]}
        if self.deck is not None:
            out["deck"] = [CARD_TEXT[c] for c in self.deck]
        if self.removed is not None:
            out["removed"] = [CARD_TEXT[c] for c in self.removed]
        if self.tiles is not None:
            out["tiles"] = {
                COLOUR_LETTERS[c]: "".join(TILE_LETTERS[t] for t in self.tiles[c][1:])
                for c in range(NUM_COLOURS)
            }
        if self.first_player:
            out["first_player"] = self.first_player
        if self.piles is not None:
            out["discards"] = {
                COLOUR_LETTERS[c]: [CARD_TEXT[x] for x in pile]
                for c, pile in enumerate(self.piles)
                if pile
            }
        if self.rows is not None:
            out["rows"] = [
                {
                    COLOUR_LETTERS[c]: [CARD_TEXT[x] for x in row]
                    for c, row in enumerate(rows)
                    if row
                }
                for rows in self.rows
            ]
        if self.positions is not None:
            out["positions"] = [
                {COLOUR_LETTERS[c]: r for c, r in enumerate(pos) if r} for pos in self.positions
            ]
        if self.big is not None:
            out["big"] = [COLOUR_LETTERS[b] if b >= 0 else None for b in self.big]
        if self.points is not None:
            out["tile_points"] = list(self.points)
        if self.wishes is not None:
            out["wishes"] = list(self.wishes)
        if self.known is not None:
            out["known"] = [[CARD_TEXT[c] for c in k] for k in self.known]
        if self.fill_seed:
            out["fill_seed"] = self.fill_seed
        return out

    @classmethod
    def from_json(cls, data: Any, players: int) -> BoardSetup:
        """Read the record form, with messages that say which entry is wrong."""
        if not isinstance(data, dict):
            raise SetupError("an explicit set-up must be an object")
        known_keys = {
            "hands", "deck", "removed", "tiles", "first_player", "discards", "rows",
            "positions", "big", "tile_points", "wishes", "known", "fill_seed",
        }  # fmt: skip
        refuse_unknown(data, known_keys, "set-up: unknown entries")
        if "hands" not in data:
            raise SetupError("set-up: 'hands' is required (one list of 8 cards per player)")
        hands = [
            _numbers(h, f"hand of player {i}")
            for i, h in enumerate(read_per_player(data["hands"], players, "hands"))
        ]
        setup = cls(hands=hands)
        if "deck" in data:
            setup.deck = _numbers(data["deck"], "deck")
        if "removed" in data:
            setup.removed = _numbers(data["removed"], "removed")
        if "tiles" in data:
            tiles = [[NO_TILE] * (LAST_ROW + 1) for _ in range(NUM_COLOURS)]
            for colour, text in read_per_colour(data["tiles"], "tiles").items():
                if not isinstance(text, str) or len(text) != LAST_ROW:
                    raise SetupError(
                        f"tiles of path {COLOUR_LETTERS[colour]} must be 9 characters "
                        f"(rows 1-9) from {TILE_LETTERS!r}, e.g. '.W.C.1.2W'"
                    )
                for row, letter in enumerate(text.upper(), start=1):
                    if letter not in TILE_LETTERS:
                        raise SetupError(
                            f"tiles of path {COLOUR_LETTERS[colour]} row {row}: {letter!r} is "
                            f"not one of {TILE_LETTERS!r}"
                        )
                    tiles[colour][row] = TILE_LETTERS.index(letter)
            setup.tiles = tiles
        setup.first_player = read_int(data.get("first_player", 0), "first_player", 0, players - 1)
        if "discards" in data:
            piles: list[list[int]] = [[] for _ in range(NUM_COLOURS)]
            for colour, cards in read_per_colour(data["discards"], "discards").items():
                piles[colour] = _numbers(cards, f"discard pile {COLOUR_LETTERS[colour]}")
            setup.piles = piles
        if "rows" in data:
            rows: list[list[list[int]]] = []
            for i, entry in enumerate(read_per_player(data["rows"], players, "rows")):
                mine: list[list[int]] = [[] for _ in range(NUM_COLOURS)]
                for colour, cards in read_per_colour(entry, f"rows of player {i}").items():
                    mine[colour] = _numbers(cards, f"row {COLOUR_LETTERS[colour]} of player {i}")
                rows.append(mine)
            setup.rows = rows
        if "positions" in data:
            positions: list[list[int]] = []
            for i, entry in enumerate(read_per_player(data["positions"], players, "positions")):
                # a path left out: its figure stands on the row's length, as with no positions
                laid: list[list[int]] = setup.rows[i] if setup.rows else [[]] * NUM_COLOURS
                mine_pos = [min(len(row), LAST_ROW) for row in laid]
                for colour, row in read_per_colour(entry, f"positions of player {i}").items():
                    mine_pos[colour] = read_int(row, f"position {COLOUR_LETTERS[colour]}", 0, 9)
                positions.append(mine_pos)
            setup.positions = positions
        if "big" in data:
            bigs = []
            for i, path in enumerate(read_per_player(data["big"], players, "big")):
                if path is None:
                    bigs.append(-1)
                else:
                    index = COLOUR_LETTERS.find(str(path).upper()) if len(str(path)) == 1 else -1
                    if index < 0:
                        raise SetupError(f"big figure of player {i}: {path!r} is not a path")
                    bigs.append(index)
            setup.big = bigs
        if "tile_points" in data:
            setup.points = [
                read_int(x, "tile_points", 0, 10_000)
                for x in read_per_player(data["tile_points"], players, "tile_points")
            ]
        if "wishes" in data:
            setup.wishes = [
                read_int(x, "wishes", 0, 9)
                for x in read_per_player(data["wishes"], players, "wishes")
            ]
        if "known" in data:
            setup.known = [
                _numbers(k, f"known cards of player {i}")
                for i, k in enumerate(read_per_player(data["known"], players, "known"))
            ]
        if "fill_seed" in data:
            setup.fill_seed = read_int(data["fill_seed"], "fill_seed", 0, 2**63)
        return setup

    # -- building the state --------------------------------------------------------------

    def build(self, players: int, variant: BoardVariant, layout: Layout) -> BoardState:
        """The state this set-up describes, after checking it is consistent."""
        if not 2 <= players <= 4:
            raise SetupError(f"the board game is for 2-4 players, not {players}")
        if len(self.hands) != players:
            raise SetupError(f"set-up has {len(self.hands)} hands for {players} players")
        for p, hand in enumerate(self.hands):
            if len(hand) != HAND_SIZE:
                raise SetupError(f"player {p} holds {len(hand)} cards; a hand has 8 (B-7)")
        rng = random.Random(self.fill_seed)
        state = BoardState.empty(players, variant, layout)
        if self.rows is not None:
            state.rows = [[list(r) for r in mine] for mine in self.rows]
        if self.piles is not None:
            state.piles = [list(p) for p in self.piles]
        placed = code_counts(
            [
                *self.hands,
                *state.piles,
                *(row for mine in state.rows for row in mine),
                self.deck or (),
                self.removed or (),
            ],
            NUM_CARD_CODES,
        )
        extra = surplus_codes(placed, COPIES)
        if extra:
            raise SetupError(
                "set-up uses cards more often than the 2 copies that exist (B-1): "
                + ", ".join(f"{CARD_TEXT[c]} x{placed[c]}" for c in extra)
            )
        rest = missing_codes(placed, COPIES)
        shuffle(rest, rng)
        removed = self.removed
        deck_top_first = self.deck
        if deck_top_first is None:
            if removed is None:
                dealing = self.rows is None and self.piles is None
                count = REMOVED_TWO_PLAYERS if players == 2 and dealing else 0
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
                "the draw pile must hold at least one card (B-20 ends the game "
                "when its last card is drawn)"
            )
        tiles = self.tiles if self.tiles is not None else layout.deal_tiles(rng)
        places = set(layout.places())
        for colour in range(NUM_COLOURS):
            if len(tiles[colour]) != LAST_ROW + 1 or tiles[colour][0] != NO_TILE:
                raise SetupError("tiles must list rows 0-9 per path with no tile on row 0")
            for row in range(1, LAST_ROW + 1):
                if tiles[colour][row] != NO_TILE and (colour, row) not in places:
                    raise SetupError(
                        f"a tile lies on {COLOUR_NAMES[colour]} row {row}, which is not a dark "
                        f"stone or end stone of layout {layout.name!r} (B-4)"
                    )

        state.first_player = state.current_player = self.first_player
        state.hands = [sorted(h) for h in self.hands]
        state.deck = list(reversed(deck_top_first))
        state.removed = list(removed)
        state.tiles = [list(t) for t in tiles]
        state.derive_rows()
        if self.positions is not None:
            state.pos = [list(x) for x in self.positions]
        else:
            state.pos = [[min(len(r), LAST_ROW) for r in mine] for mine in state.rows]
        for p in range(players):
            for colour in range(NUM_COLOURS):
                if (state.pos[p][colour] > 0) != bool(state.rows[p][colour]):
                    raise SetupError(
                        f"player {p}: a figure stands on the {COLOUR_NAMES[colour]} path "
                        "exactly when that row has cards (B-11)"
                    )
                cards_laid = len(state.rows[p][colour])
                if state.pos[p][colour] < min(cards_laid, LAST_ROW):
                    raise SetupError(
                        f"player {p}'s {COLOUR_NAMES[colour]} figure stands on row "
                        f"{state.pos[p][colour]}, but its row holds {cards_laid} cards and each "
                        "card moves it one stone until the end stone (B-12, B-14)"
                    )
        state.started = [sum(1 for r in x if r) for x in state.pos]
        if self.big is not None:
            state.big = list(self.big)
        for p in range(players):
            if state.big[p] >= 0 and not state.pos[p][state.big[p]]:
                raise SetupError(f"player {p}'s big figure stands on a path with no cards")
            if state.started[p] == FIGURES and state.big[p] < 0:
                raise SetupError(f"player {p} has figures on all 5 paths: say which is big")
        if self.points is not None:
            state.points = list(self.points)
        if self.wishes is not None:
            state.wishes = list(self.wishes)
        in_play = code_counts(tiles, len(TILE_LETTERS))
        in_play[NO_TILE] = 0
        in_play[WISH] += sum(state.wishes)
        extra_tiles = surplus_codes(in_play, _TILE_COUNTS)
        if extra_tiles:
            tile = extra_tiles[0]
            raise SetupError(
                f"set-up uses {in_play[tile]} tiles {TILE_LETTERS[tile]!r} "
                f"({TILE_NAMES[tile]}), but only {_TILE_COUNTS[tile]} exist (B-3)"
            )
        state.goal = sum(1 for x in state.pos for r in x if r >= GOAL_ROW)
        if state.goal >= GOAL_FIGURES:
            raise SetupError("set-up has 5 figures in the goal area: that game is over (B-19)")
        if self.known:
            state.known = [list(k) for k in self.known]
        for p in range(players):
            held = code_counts([state.hands[p]], NUM_CARD_CODES)
            if surplus_codes(code_counts([state.known[p]], NUM_CARD_CODES), held):
                raise SetupError(f"player {p}'s known cards are not all in the hand")
        return state
