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
from keltis.board.tables import GOAL_FIGURES, GOAL_ROW, LAST_ROW
from keltis.core.card_codes import CARD_TEXT, COLOUR_LETTERS, COLOUR_NAMES, NUM_COLOURS
from keltis.core.errors import SetupError
from keltis.core.protocol import JSON
from keltis.core.setup import (
    REMOVED_TWO_PLAYERS,
    check_hands,
    check_known,
    code_counts,
    place_rest,
    read_cards,
    read_int,
    read_per_colour,
    read_per_player,
    read_player_cards,
    setup_entries,
    surplus_codes,
    unplaced_cards,
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
        data = setup_entries(data, _KEYS)
        setup = cls(
            hands=read_player_cards(data["hands"], players, "hands", "hand", numbers_only=True)
        )
        if "deck" in data:
            setup.deck = _numbers(data["deck"], "deck")
        if "removed" in data:
            setup.removed = _numbers(data["removed"], "removed")
        if "tiles" in data:
            setup.tiles = _read_tiles(data["tiles"])
        setup.first_player = read_int(data.get("first_player", 0), "first_player", 0, players - 1)
        if "discards" in data:
            piles: list[list[int]] = [[] for _ in range(NUM_COLOURS)]
            for colour, cards in read_per_colour(data["discards"], "discards").items():
                piles[colour] = _numbers(cards, f"discard pile {COLOUR_LETTERS[colour]}")
            setup.piles = piles
        if "rows" in data:
            setup.rows = _read_rows(data["rows"], players)
        if "positions" in data:
            setup.positions = _read_positions(data["positions"], players, setup.rows)
        if "big" in data:
            setup.big = _read_big(data["big"], players)
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
            setup.known = read_player_cards(
                data["known"], players, "known", "known cards", numbers_only=True
            )
        if "fill_seed" in data:
            setup.fill_seed = read_int(data["fill_seed"], "fill_seed", 0, 2**63)
        return setup

    # -- building the state --------------------------------------------------------------

    def build(self, players: int, variant: BoardVariant, layout: Layout) -> BoardState:
        """The state this set-up describes, after checking it is consistent."""
        check_hands(self.hands, players, "board game", "B-7")
        rng = random.Random(self.fill_seed)
        state = BoardState.empty(players, variant, layout)
        if self.rows is not None:
            state.rows = [[list(r) for r in mine] for mine in self.rows]
        if self.piles is not None:
            state.piles = [list(p) for p in self.piles]
        deck_top_first, removed = self._deal_rest(state, players, rng)
        # tiles not given are dealt from the same generator, after the cards: one fill_seed
        # always fills a set-up the same way
        tiles = self.tiles if self.tiles is not None else layout.deal_tiles(rng)
        _check_tile_places(tiles, layout)
        state.first_player = state.current_player = self.first_player
        state.hands = [sorted(h) for h in self.hands]
        state.deck = list(reversed(deck_top_first))
        state.removed = list(removed)
        state.tiles = [list(t) for t in tiles]
        state.derive_rows()
        self._place_figures(state, players)
        if self.points is not None:
            state.points = list(self.points)
        if self.wishes is not None:
            state.wishes = list(self.wishes)
        _check_tile_counts(tiles, state.wishes)
        state.goal = sum(1 for x in state.pos for r in x if r >= GOAL_ROW)
        if state.goal >= GOAL_FIGURES:
            raise SetupError("set-up has 5 figures in the goal area: that game is over (B-19)")
        if self.known:
            state.known = [list(k) for k in self.known]
        check_known(state.hands, state.known, list_cards=False)
        return state

    def _deal_rest(
        self, state: BoardState, players: int, rng: random.Random
    ) -> tuple[list[int], list[int]]:
        """The draw pile (top first) and the removed cards, after refusing a card placed more
        often than its 2 copies (B-1): the cards placed nowhere else go there, shuffled, 30 of
        them set aside in a 2-player deal (B-8) when no rows or discard piles are given."""
        rest = unplaced_cards(
            [
                *self.hands,
                *state.piles,
                *(row for mine in state.rows for row in mine),
                self.deck or (),
                self.removed or (),
            ],
            COPIES,
            "set-up uses cards more often than the 2 copies that exist (B-1): ",
            show_copies=False,
        )
        dealing = self.rows is None and self.piles is None
        set_aside = REMOVED_TWO_PLAYERS if players == 2 and dealing else 0
        return place_rest(rest, rng, self.deck, self.removed, set_aside, "B-20")

    def _place_figures(self, state: BoardState, players: int) -> None:
        """Stand the figures (the given positions, else each on its row's length) and the big
        ones, refusing figures that do not match the laid rows (B-11, B-12, B-14) and big
        figures that are missing or stand on no path."""
        if self.positions is not None:
            state.pos = [list(x) for x in self.positions]
        else:
            state.pos = [[min(len(r), LAST_ROW) for r in mine] for mine in state.rows]
        for p in range(players):
            for colour in range(NUM_COLOURS):
                _check_figure(p, colour, state.pos[p][colour], len(state.rows[p][colour]))
        state.started = [sum(1 for r in x if r) for x in state.pos]
        if self.big is not None:
            state.big = list(self.big)
        for p in range(players):
            if state.big[p] >= 0 and not state.pos[p][state.big[p]]:
                raise SetupError(f"player {p}'s big figure stands on a path with no cards")
            if state.started[p] == FIGURES and state.big[p] < 0:
                raise SetupError(f"player {p} has figures on all 5 paths: say which is big")


#: The entries of an explicit set-up's JSON form.
_KEYS: Final = {
    "hands", "deck", "removed", "tiles", "first_player", "discards", "rows", "positions", "big",
    "tile_points", "wishes", "known", "fill_seed",
}  # fmt: skip


def _read_tiles(data: Any) -> list[list[int]]:
    """``tiles``: per path letter, the tiles of rows 1-9 as 9 letters of ``TILE_LETTERS``."""
    tiles = [[NO_TILE] * (LAST_ROW + 1) for _ in range(NUM_COLOURS)]
    for colour, text in read_per_colour(data, "tiles").items():
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
    return tiles


def _read_rows(data: Any, players: int) -> list[list[list[int]]]:
    """``rows``: per player, an object of the cards laid per path letter."""
    rows: list[list[list[int]]] = []
    for i, entry in enumerate(read_per_player(data, players, "rows")):
        mine: list[list[int]] = [[] for _ in range(NUM_COLOURS)]
        for colour, cards in read_per_colour(entry, f"rows of player {i}").items():
            mine[colour] = _numbers(cards, f"row {COLOUR_LETTERS[colour]} of player {i}")
        rows.append(mine)
    return rows


def _read_positions(data: Any, players: int, rows: list[list[list[int]]] | None) -> list[list[int]]:
    """``positions``: per player, an object of figure rows (0-9) per path letter."""
    positions: list[list[int]] = []
    for i, entry in enumerate(read_per_player(data, players, "positions")):
        # a path left out: its figure stands on the row's length, as with no positions
        laid: list[list[int]] = rows[i] if rows else [[]] * NUM_COLOURS
        mine = [min(len(row), LAST_ROW) for row in laid]
        for colour, row in read_per_colour(entry, f"positions of player {i}").items():
            mine[colour] = read_int(row, f"position {COLOUR_LETTERS[colour]}", 0, 9)
        positions.append(mine)
    return positions


def _read_big(data: Any, players: int) -> list[int]:
    """``big``: per player, the path letter of the big figure, ``null`` while it has none."""
    bigs = []
    for i, path in enumerate(read_per_player(data, players, "big")):
        if path is None:
            bigs.append(-1)
        else:
            index = COLOUR_LETTERS.find(str(path).upper()) if len(str(path)) == 1 else -1
            if index < 0:
                raise SetupError(f"big figure of player {i}: {path!r} is not a path")
            bigs.append(index)
    return bigs


def _check_tile_places(tiles: list[list[int]], layout: Layout) -> None:
    """Refuse tiles that do not list rows 0-9 of each path with no tile on row 0, and tiles on
    stones of ``layout`` that take none (B-4)."""
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


def _check_figure(player: int, colour: int, row: int, cards_laid: int) -> None:
    """Refuse a figure on row ``row`` of a path whose row holds ``cards_laid`` cards: a figure
    stands there exactly when the row has cards (B-11), at least one stone per card up to the
    end stone (B-12, B-14)."""
    if (row > 0) != bool(cards_laid):
        raise SetupError(
            f"player {player}: a figure stands on the {COLOUR_NAMES[colour]} path "
            "exactly when that row has cards (B-11)"
        )
    if row < min(cards_laid, LAST_ROW):
        raise SetupError(
            f"player {player}'s {COLOUR_NAMES[colour]} figure stands on row "
            f"{row}, but its row holds {cards_laid} cards and each "
            "card moves it one stone until the end stone (B-12, B-14)"
        )


def _check_tile_counts(tiles: list[list[int]], wishes: list[int]) -> None:
    """Refuse more tiles of a kind than exist (B-3): those on the paths, with the wish stones
    already collected (``wishes``) counted as wish tiles."""
    in_play = code_counts(tiles, len(TILE_LETTERS))
    in_play[NO_TILE] = 0
    in_play[WISH] += sum(wishes)
    extra_tiles = surplus_codes(in_play, _TILE_COUNTS)
    if extra_tiles:
        tile = extra_tiles[0]
        raise SetupError(
            f"set-up uses {in_play[tile]} tiles {TILE_LETTERS[tile]!r} "
            f"({TILE_NAMES[tile]}), but only {_TILE_COUNTS[tile]} exist (B-3)"
        )
