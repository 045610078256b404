"""Keltis, the board game (RULES.md B-1 … B-24) as numba kernels over one flat ``int32`` array.

Same shape as :mod:`keltis.cards.kernel`: a state array with the fields at the offsets below,
decisions as the board game's action ids (``keltis.board.actions``), each rule written once in
``legal``, ``apply`` and ``score``. The turn is the reference's sequence of decisions: play
(lay or discard), the big or small figure for a new path when both are still waiting (B-11),
an overflow move or pass (B-14), clover moves or pass (B-17, chaining), the draw (B-15).

Tiles are the reference's codes (``keltis.board.layout``): 0 none, 1-3 point tiles,
4 clover, 5 wish stone; ``tiles[colour * 10 + row]``.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Final

import numpy as np

from keltis.board.actions import (
    ADVANCE_BASE,
    DISCARD_BASE,
    DRAW_DECK,
    DRAW_PILE_BASE,
    FIGURE_BIG,
    FIGURE_SMALL,
    PASS_INDEX,
)
from keltis.board.layout import TILE_LETTERS
from keltis.board.state import BoardState, BoardVariant
from keltis.core.card_codes import COLOUR_LETTERS
from keltis.core.gamestate import GameState
from keltis.fast._jit import kernel
from keltis.fast._rng import below

#: The rule switches, in the order of :class:`~keltis.board.state.BoardVariant`'s fields: a
#: state array holds them from ``RULES`` on, and ``reset`` takes them as one array in this
#: order (``keltis.fast.setup.switches`` builds it from a variant's JSON form). A switch added
#: to the variant must be implemented here too: until then this module refuses to load.
SWITCHES: Final = tuple(f.name for f in fields(BoardVariant))
_IMPLEMENTED: Final = frozenset({"no_take_back", "turn_cap"})
if set(SWITCHES) != _IMPLEMENTED:
    raise ImportError(
        "the board game's kernel does not implement the variant switches "
        + ", ".join(sorted(set(SWITCHES) - _IMPLEMENTED))
    )

# The action ids are the board game's (keltis.board.actions): lays 0-54, then discards, the
# figure choice, advances, pass and draws, in that order (the comparisons below rely on it).

PLAY: Final = 0
FIGURE: Final = 1
CLOVER_MOVE: Final = 2
OVERFLOW: Final = 3
DRAW: Final = 4
OVER: Final = 5
END_GOAL: Final = 0
END_DECK: Final = 1
END_TRUNCATED: Final = 3

CLOVER: Final = 4
WISH: Final = 5
HAND_SIZE: Final = 8
PILE_ROOM: Final = 24
DECK_CARDS: Final = 110
GOAL_ROW: Final = 7
LAST_ROW: Final = 9
MAX_LEGAL: Final = 64
#: Scratch room the batched env's driver (``keltis.fast.driver``) takes: a deck to shuffle, then
#: a legal list.
WORK: Final = DECK_CARDS + MAX_LEGAL


def _layout() -> dict[str, int]:
    fields = [
        ("NP", 1), ("CUR", 1), ("PHASE", 1), ("TURN", 1), ("END", 1), ("PENDING", 1),
        ("DISCARDED", 1), ("GOAL", 1), ("RULES", len(SWITCHES)), ("DECK_N", 1),
        ("HAND_N", 4), ("HAND", 4 * HAND_SIZE), ("DECK", DECK_CARDS), ("PILE_N", 5),
        ("PILE", 5 * PILE_ROOM), ("RLAST", 20), ("RDIR", 20), ("POS", 20), ("STARTED", 4),
        ("BIG", 4), ("POINTS", 4), ("WISHES", 4), ("TILES", 50), ("KNOWN", 4 * HAND_SIZE),
    ]  # fmt: skip
    out: dict[str, int] = {}
    at = 0
    for name, size in fields:
        out[name] = at
        at += size
    out["SIZE"] = at
    return out


_AT: Final = _layout()
NP: Final = _AT["NP"]
CUR: Final = _AT["CUR"]
PHASE: Final = _AT["PHASE"]
TURN: Final = _AT["TURN"]
END: Final = _AT["END"]
PENDING: Final = _AT["PENDING"]
DISCARDED: Final = _AT["DISCARDED"]
GOAL: Final = _AT["GOAL"]
RULES: Final = _AT["RULES"]
TURN_CAP: Final = RULES + SWITCHES.index("turn_cap")
NO_TAKE_BACK: Final = RULES + SWITCHES.index("no_take_back")
DECK_N: Final = _AT["DECK_N"]
HAND_N: Final = _AT["HAND_N"]
HAND: Final = _AT["HAND"]
DECK: Final = _AT["DECK"]
PILE_N: Final = _AT["PILE_N"]
PILE: Final = _AT["PILE"]
RLAST: Final = _AT["RLAST"]
RDIR: Final = _AT["RDIR"]
POS: Final = _AT["POS"]
STARTED: Final = _AT["STARTED"]
BIG: Final = _AT["BIG"]
POINTS: Final = _AT["POINTS"]
WISHES: Final = _AT["WISHES"]
TILES: Final = _AT["TILES"]
#: Per hand place, 1 where its card was taken from a discard pile (everyone saw it: the
#: reference's ``known``), kept while the card stays in the hand. The medium policy reads it.
KNOWN: Final = _AT["KNOWN"]
SIZE: Final = _AT["SIZE"]

#: The 110 cards (B-1): every number card twice.
FULL_DECK: Final = np.array([c for c in range(55) for _ in range(2)], dtype=np.int32)
#: The 25 tiles (B-3): 9 wish stones, 9 clovers, point tiles 1,1,2,2,2,3,3.
ALL_TILES: Final = np.array([WISH] * 9 + [CLOVER] * 9 + [1, 1, 2, 2, 2, 3, 3], dtype=np.int32)
#: The default layout's dark stones (RULES.md B-4; ``keltis.board.layout.DEFAULT_LAYOUT``).
DEFAULT_DARK: Final = ((2, 4, 6, 8), (1, 3, 5, 7), (2, 3, 5, 8), (1, 4, 6, 7), (3, 4, 6, 8))
#: Its 25 tile places with the end stones, as ``colour * 10 + row``, by path then row (the
#: order of ``Layout.places``).
DEFAULT_PLACES: Final = np.array(
    [c * 10 + r for c, dark in enumerate(DEFAULT_DARK) for r in (*dark, LAST_ROW)],
    dtype=np.int32,
)
ROW_VALUES: Final = np.array([0, -4, -3, -2, 1, 2, 3, 6, 7, 10], dtype=np.int32)  # B-2
WISH_POINTS: Final = np.array([-4, -3, 2, 3, 6, 10], dtype=np.int32)  # B-23
#: The greedy policy's bonus for the tile a step reaches (the project's greedy bot).
TILE_BONUS: Final = np.array([0.0, 1.0, 2.0, 3.0, 2.0, 3.0])


def new_state() -> np.ndarray:
    """An empty state array (fill it with ``reset`` and a deal, or ``keltis.fast.load_setup``)."""
    return np.zeros(SIZE, dtype=np.int32)


def load_state(s: np.ndarray, state: GameState) -> None:
    """Copy what a reference board game holds beyond the hands, the draw and discard piles
    and the turn (``keltis.fast.setup.state_array`` copies those): the paths' figures, rows,
    tiles, points and wish stones, the turn's pending colour and discard pile, and which hand
    cards were taken from a discard pile."""
    assert isinstance(state, BoardState)
    s[PENDING] = state.pending
    s[DISCARDED] = state.discarded_pile
    s[GOAL] = state.goal
    n = state.num_players
    s[RLAST : RLAST + 5 * n] = [v for row in state.last for v in row]
    s[RDIR : RDIR + 5 * n] = [d for row in state.dirs for d in row]
    s[POS : POS + 5 * n] = [r for row in state.pos for r in row]
    s[STARTED : STARTED + n] = state.started
    s[BIG : BIG + n] = state.big
    s[POINTS : POINTS + n] = state.points
    s[WISHES : WISHES + n] = state.wishes
    for p in range(n):
        if state.known[p]:
            known = list(state.known[p])
            for i, card in enumerate(state.hands[p]):
                if card in known:
                    known.remove(card)
                    s[KNOWN + p * HAND_SIZE + i] = 1
    s[TILES : TILES + 50] = [t for row in state.tiles for t in row]


def setup_extra(s: np.ndarray) -> dict[str, Any]:
    """The explicit set-up's entries beyond hands and cards for the start in ``s``: the
    tiles, by colour, rows 1 to 9."""
    return {
        "tiles": {
            COLOUR_LETTERS[colour]: "".join(
                TILE_LETTERS[int(s[TILES + colour * 10 + row])] for row in range(1, 10)
            )
            for colour in range(5)
        }
    }


@kernel()
def reset(s: np.ndarray, players: int, rules: np.ndarray) -> None:
    """A fresh game of ``players`` with empty hands, deck and board, under ``rules`` (the
    switches in :data:`SWITCHES` order)."""
    s[:] = 0
    s[NP] = players
    s[PHASE] = PLAY
    s[END] = -1
    s[PENDING] = -1
    s[DISCARDED] = -1
    for i in range(len(SWITCHES)):
        s[RULES + i] = rules[i]
    for i in range(20):
        s[RLAST + i] = -1
    for p in range(4):
        s[BIG + p] = -1


@kernel()
def deal(
    s: np.ndarray,
    players: int,
    rules: np.ndarray,
    rng: np.ndarray,
    cards: np.ndarray,
) -> None:
    """Shuffle the tiles onto the default layout and deal the cards (B-6-B-8) into ``s``;
    ``cards`` is scratch room for 110 cards."""
    reset(s, players, rules)
    for i in range(25):
        cards[i] = ALL_TILES[i]
    for i in range(24, 0, -1):
        j = below(rng, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
    for i in range(25):
        s[TILES + DEFAULT_PLACES[i]] = cards[i]
    n = DECK_CARDS
    for i in range(n):
        cards[i] = FULL_DECK[i]
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
    for p in range(players):
        for k in range(HAND_SIZE):
            s[HAND + p * HAND_SIZE + k] = cards[p * HAND_SIZE + k]
        s[HAND_N + p] = HAND_SIZE
    start = players * HAND_SIZE + (30 if players == 2 else 0)
    left = n - start
    for i in range(left):  # cards[start] is the top of the draw pile, kept at the end
        s[DECK + i] = cards[n - 1 - i]
    s[DECK_N] = left


# -- legal decisions -----------------------------------------------------------------------


@kernel(inline=True)
def _can_move(s: np.ndarray, p: int) -> bool:
    for col in range(5):
        r = s[POS + p * 5 + col]
        if 0 < r < LAST_ROW:
            return True
    return False


@kernel(inline=True)
def _fits(s: np.ndarray, p: int, card: int) -> bool:
    """Whether ``card`` may go on ``p``'s row of its colour (B-11-B-13)."""
    col = card // 11
    r = p * 5 + col
    last = s[RLAST + r]
    d = s[RDIR + r]
    v = card - col * 11
    # without branches: random hands would mispredict them
    return (last < 0) | (d == 0) | ((d > 0) & (v >= last)) | ((d < 0) & (v <= last))


@kernel(inline=True)
def legal(s: np.ndarray, out: np.ndarray) -> int:
    """Write the current player's legal decisions (the game's action ids) to ``out``; return
    how many (0 once the game is over)."""
    phase = s[PHASE]
    p = s[CUR]
    if phase == PLAY:  # B-10
        hb = HAND + p * HAND_SIZE
        hn = s[HAND_N + p]
        n = 0
        seen = 0  # bit c: card c already listed (codes 0-54 fit one word)
        for i in range(hn):
            c = s[hb + i]
            bit = 1 << c
            if seen & bit:
                continue
            seen |= bit
            out[n] = DISCARD_BASE + c
            n += 1
            out[n] = c  # written, and counted where it fits
            n += _fits(s, p, c)
        return n
    if phase == DRAW:  # B-15
        n = 0
        if s[DECK_N] > 0:
            out[0] = DRAW_DECK
            n = 1
        blocked = s[DISCARDED] if s[NO_TAKE_BACK] else -1
        for k in range(5):
            out[n] = DRAW_PILE_BASE + k
            n += (s[PILE_N + k] > 0) & (k != blocked)
        return n
    if phase in (CLOVER_MOVE, OVERFLOW):  # B-17, B-14
        n = 0
        for col in range(5):
            r = s[POS + p * 5 + col]
            if 0 < r < LAST_ROW:
                out[n] = ADVANCE_BASE + col
                n += 1
        out[n] = PASS_INDEX
        return n + 1
    if phase == FIGURE:  # B-11
        out[0] = FIGURE_SMALL
        out[1] = FIGURE_BIG
        return 2
    return 0


# -- effects -------------------------------------------------------------------------------


@kernel(inline=True)
def _finish(s: np.ndarray, reason: int) -> None:
    s[PHASE] = OVER
    s[END] = reason
    s[CUR] = -1


@kernel(inline=True)
def _step(s: np.ndarray, p: int, col: int) -> None:
    """Move ``p``'s figure on ``col`` one stone forward and resolve the stone (B-16-B-19)."""
    at = POS + p * 5 + col
    row = s[at] + 1
    s[at] = row
    if row == GOAL_ROW:
        s[GOAL] += 1
        if s[GOAL] >= 5:  # B-19: the tile is not resolved, no draw
            _finish(s, END_GOAL)
            return
    place = TILES + col * 10 + row
    tile = s[place]
    if tile == WISH:  # B-18
        s[WISHES + p] += 1
        s[place] = 0
    elif tile == CLOVER:  # B-17
        if _can_move(s, p):
            s[PENDING] = col
            s[PHASE] = CLOVER_MOVE
            return
    elif tile > 0:  # B-16
        s[POINTS + p] += tile
    s[PHASE] = DRAW


@kernel(inline=True)
def _lay(s: np.ndarray, p: int, card: int) -> None:
    col = card // 11
    v = card - col * 11
    r = p * 5 + col
    end = s[RLAST + r]
    s[RLAST + r] = v
    if end < 0:  # B-11: a figure enters the path
        big_waiting = s[BIG + p] < 0
        smalls_waiting = 4 - s[STARTED + p] + (0 if big_waiting else 1)
        s[STARTED + p] += 1
        if big_waiting and smalls_waiting > 0:
            s[PHASE] = FIGURE
            s[PENDING] = col
            return
        if big_waiting:
            s[BIG + p] = col
        _step(s, p, col)
        return
    if s[RDIR + r] == 0 and v != end:  # B-13
        s[RDIR + r] = 1 if v > end else -1
    if s[POS + r] >= LAST_ROW:  # B-14
        s[PENDING] = col
        s[PHASE] = OVERFLOW if _can_move(s, p) else DRAW
        return
    _step(s, p, col)


@kernel(inline=True)
def apply(s: np.ndarray, a: int) -> None:
    """Carry out decision ``a`` (a legal action id of the game) for the current player."""
    p = s[CUR]
    phase = s[PHASE]
    a = int(a)  # a 64-bit shift below, interpreted too (NUMBA_DISABLE_JIT)
    if phase == PLAY:
        card = a if a < DISCARD_BASE else a - DISCARD_BASE
        hb = HAND + p * HAND_SIZE
        kb = KNOWN + p * HAND_SIZE
        hn = s[HAND_N + p] - 1
        at = -1
        for i in range(hn + 1):  # a known copy leaves first, as the reference's known list
            if s[hb + i] == card and (at < 0 or s[kb + i] != 0):
                at = i
        s[hb + at] = s[hb + hn]
        s[kb + at] = s[kb + hn]
        s[HAND_N + p] = hn
        if a < DISCARD_BASE:
            _lay(s, p, card)
        else:
            k = card // 11
            n = s[PILE_N + k]
            s[PILE + k * PILE_ROOM + n] = card
            s[PILE_N + k] = n + 1
            s[DISCARDED] = k
            s[PHASE] = DRAW
        return
    if phase == DRAW:
        if a == DRAW_DECK:
            n = s[DECK_N] - 1
            s[DECK_N] = n
            card = s[DECK + n]
        else:
            k = a - DRAW_PILE_BASE
            n = s[PILE_N + k] - 1
            s[PILE_N + k] = n
            card = s[PILE + k * PILE_ROOM + n]
        hn = s[HAND_N + p]
        s[HAND + p * HAND_SIZE + hn] = card
        s[KNOWN + p * HAND_SIZE + hn] = 0 if a == DRAW_DECK else 1
        s[HAND_N + p] = hn + 1
        if a == DRAW_DECK and s[DECK_N] == 0:  # B-20
            _finish(s, END_DECK)
            return
        s[TURN] += 1
        if s[TURN] >= s[TURN_CAP]:
            _finish(s, END_TRUNCATED)
            return
        s[CUR] = (p + 1) % s[NP]
        s[PHASE] = PLAY
        s[DISCARDED] = -1
        return
    if phase == FIGURE:
        col = s[PENDING]
        if a == FIGURE_BIG:
            s[BIG + p] = col
        _step(s, p, col)
        return
    if a == PASS_INDEX:  # a clover or overflow declined
        s[PHASE] = DRAW
    else:
        _step(s, p, a - ADVANCE_BASE)


@kernel(inline=True)
def score(s: np.ndarray, p: int) -> int:
    """Seat ``p``'s total (B-21-B-23), as if the game ended now."""
    total = s[POINTS + p] + WISH_POINTS[min(s[WISHES + p], 5)]
    big = s[BIG + p]
    for col in range(5):
        value = ROW_VALUES[s[POS + p * 5 + col]]
        total += 2 * value if col == big else value
    return total


# -- policies and whole games --------------------------------------------------------------


@kernel()
def _fit(s: np.ndarray, p: int, col: int, v: int) -> float:
    """How well a card of ``col``/``v`` continues ``p``'s row (0-3), as the greedy bot rates it."""
    r = p * 5 + col
    last = s[RLAST + r]
    if last < 0:
        return 0.0
    d = s[RDIR + r]
    if (d > 0 and v < last) or (d < 0 and v > last):
        return 0.0
    return max(0.0, 3.0 - 0.5 * abs(v - last))


@kernel()
def _same_colour(s: np.ndarray, p: int, col: int) -> int:
    hb = HAND + p * HAND_SIZE
    same = 0
    for i in range(s[HAND_N + p]):
        if s[hb + i] // 11 == col:
            same += 1
    return same


@kernel()
def greedy_score(s: np.ndarray, a: int) -> float:
    """The project's greedy bot's one-step rating of decision ``a`` (keltis.bots.greedy)."""
    p = s[CUR]
    if a < DISCARD_BASE:  # lay
        col = a // 11
        v = a - col * 11
        r = p * 5 + col
        row = s[POS + r]
        if row == 0:
            same = _same_colour(s, p, col)
            return 1.0 + same if same >= 3 else -5.0 + same
        gap = 0
        if s[RLAST + r] >= 0:
            gap = abs(v - s[RLAST + r])
        if row >= LAST_ROW:
            return 2.0 - 0.1 * gap
        gain = float(ROW_VALUES[row + 1] - ROW_VALUES[row])
        if s[BIG + p] == col:
            gain *= 2
        bonus = TILE_BONUS[s[TILES + col * 10 + row + 1]]
        return 4.0 + gain + bonus - 0.5 * gap
    if a < FIGURE_SMALL:  # discard
        card = a - DISCARD_BASE
        col = card // 11
        if s[POS + p * 5 + col] == 0:
            return -_same_colour(s, p, col) * 0.5
        return -3.0 - _fit(s, p, col, card - col * 11)
    if a == FIGURE_BIG:
        return 1.0
    if a == FIGURE_SMALL:
        return 0.5
    if a < PASS_INDEX:  # advance
        col = a - ADVANCE_BASE
        row = s[POS + p * 5 + col]
        gain = float(ROW_VALUES[row + 1] - ROW_VALUES[row])
        if s[BIG + p] == col:
            gain *= 2
        return 1.0 + gain
    if a in (PASS_INDEX, DRAW_DECK):
        return 0.0
    k = a - DRAW_PILE_BASE  # a discard pile's top card
    card = s[PILE + k * PILE_ROOM + s[PILE_N + k] - 1]
    col = card // 11
    if s[POS + p * 5 + col] == 0:
        return -1.0
    return _fit(s, p, col, card - col * 11) - 2.0


# -- the medium policy: keltis.board.policy's heuristic, compiled ---------------------------
#
# ``medium_scores`` gives every legal decision the score ``keltis.board.policy.board_scores``
# gives it, with the same float operations in the same order (so the same bits): the
# projection of each row, the play, draw, figure and advance scores, read from what the player
# to move may know (its hand and known cards, the public board, piles, deck size, goal count,
# scores). The weights are data: a ``float64`` array of ``BoardTuning``'s weights in the order
# of :data:`TUNING_FIELDS` (``W_*`` index it), so they can be tuned without recompiling.
#
# A colour's holding (the values of that colour in the hand) is one integer: 4 bits per value
# hold its copies, so the hand without a card or with one more is a subtraction or an addition
# and no kernel needs an array of its own.

#: ``keltis.board.policy.BoardTuning``'s weights, in the order the weights array holds them.
TUNING_FIELDS: Final = (
    "deck_draw_rate", "hand_share", "future_share", "lay_rate", "tile_share", "wish_future",
    "clover_value", "big_min", "gift_next", "gift_other", "deck_value", "open_margin",
    "known_discard", "open_future_share",
)  # fmt: skip
W_DECK_DRAW_RATE: Final = 0
W_HAND_SHARE: Final = 1
W_FUTURE_SHARE: Final = 2
W_LAY_RATE: Final = 3
W_TILE_SHARE: Final = 4
W_WISH_FUTURE: Final = 5
W_CLOVER_VALUE: Final = 6
W_BIG_MIN: Final = 7
W_GIFT_NEXT: Final = 8
W_GIFT_OTHER: Final = 9
W_DECK_VALUE: Final = 10
W_OPEN_MARGIN: Final = 11
W_KNOWN_DISCARD: Final = 12
W_OPEN_FUTURE_SHARE: Final = 13

#: The projection's values by (fractional) stone: the row values, then past the end stone
#: 1.5 more per card (each moves another figure); ``keltis.board.policy._VALUES``.
PROJECTION: Final = np.array([float(v) for v in ROW_VALUES] + [10 + 1.5 * i for i in range(1, 30)])
_MAX_X: Final = len(PROJECTION) - 1.001
#: Share of a fitting colour among unseen cards per value: 2 copies of 110 cards.
_PER_VALUE: Final = 2.0 / 110.0
#: Scores within this of the best count as ties (``keltis.core.policy.best_scored``).
_TIE: Final = 1e-9


@kernel(inline=True)
def _holdings(s: np.ndarray, p: int) -> tuple[int, int, int, int, int]:
    """``p``'s cards by colour, each colour's as 4-bit copy counts by value."""
    hb = HAND + p * HAND_SIZE
    m0 = m1 = m2 = m3 = m4 = 0
    for i in range(s[HAND_N + p]):
        c = int(s[hb + i])  # a 64-bit shift below, interpreted too (NUMBA_DISABLE_JIT)
        col = c // 11
        bit = 1 << (4 * (c % 11))
        if col == 0:
            m0 += bit
        elif col == 1:
            m1 += bit
        elif col == 2:
            m2 += bit
        elif col == 3:
            m3 += bit
        else:
            m4 += bit
    return m0, m1, m2, m3, m4


@kernel(inline=True)
def _copies(m: int, low: int, high: int) -> int:
    """The copies in holding ``m`` of the values ``low`` to ``high``."""
    n = 0
    for v in range(low, high + 1):
        n += (m >> (4 * v)) & 15
    return n


@kernel(inline=True)
def _span_room(m: int) -> int:
    """Room a row opened from holding ``m`` (not empty) has: its lowest value ascending or its
    highest descending, whichever leaves more."""
    low = 0
    while (m >> (4 * low)) & 15 == 0:
        low += 1
    high = 10
    while (m >> (4 * high)) & 15 == 0:
        high -= 1
    return max(11 - low, high + 1)


@kernel(inline=True)
def _interp(x: float) -> float:
    if x <= 0.0:
        return 0.0
    if x > _MAX_X:
        x = _MAX_X
    i = int(x)
    low = PROJECTION[i]
    return low + (PROJECTION[i + 1] - low) * (x - i)


@kernel()
def _tiles(s: np.ndarray, w: np.ndarray, col: int, pos: int, steps: float) -> float:
    """Worth of the tiles a figure on ``pos`` of ``col`` passes on its way to ``steps``: the
    difference of the policy's prefix sums, summed in the same order."""
    end = int(steps)
    if end > LAST_ROW:
        end = LAST_ROW
    if end <= pos:
        return 0.0
    share = w[W_TILE_SHARE]
    total = 0.0
    at_pos = 0.0
    for r in range(1, end + 1):
        tile = s[TILES + col * 10 + r]
        if tile != 0:
            if tile == WISH:
                total += share * w[W_WISH_FUTURE]
            elif tile == CLOVER:
                total += share * w[W_CLOVER_VALUE]
            else:
                total += share * tile
        if r == pos:
            at_pos = total
    return total - at_pos


@kernel()
def _row(
    s: np.ndarray,
    p: int,
    w: np.ndarray,
    fh: float,
    fut: float,
    fut_open: float,
    col: int,
    pos: int,
    last: int,
    d: int,
    m: int,
) -> float:
    """Projected worth of ``p``'s row of ``col`` on ``pos`` after ``last`` in direction ``d``
    with holding ``m`` (the policy's ``_Me.row``)."""
    big = s[BIG + p]
    big_waiting = big < 0
    if pos == 0:
        n = _copies(m, 0, 10)
        if n == 0:
            return 0.0
        steps = fh * n + fut_open * _span_room(m)
        x = _interp(steps)
        if x <= 0.0:
            return 0.0
        if big_waiting and steps >= w[W_BIG_MIN]:
            x += x
        return x + _tiles(s, w, col, 0, steps)
    if d == 1:
        h = _copies(m, last, 10)
        room = 11 - last
    elif d == -1:
        h = _copies(m, 0, last)
        room = last + 1
    else:
        up = _copies(m, last, 10)
        down = _copies(m, 0, last)
        h = up if up > down else down
        room = 11 - last if 11 - last > last + 1 else last + 1
    opening = s[POS + p * 5 + col] == 0
    steps = pos + fh * h + (fut_open if opening else fut) * room
    x = _interp(steps)
    if big_waiting and steps >= w[W_BIG_MIN] and opening:
        x += x  # a row opened now takes the big figure if it promises to go far
    elif big == col:
        x += x
    return x + _tiles(s, w, col, pos, steps)


@kernel()
def _context(
    s: np.ndarray, p: int, w: np.ndarray, held: tuple[int, int, int, int, int]
) -> tuple[float, float, float, float]:
    """The policy's per-decision numbers for ``p`` holding ``held`` (``_Me``): the share a
    fitting hand card counts for, the expected fitting draws per value of room (for an open
    row, for a row opened now), and the worth of one more wish stone."""
    t = s[DECK_N] / (s[NP] * w[W_DECK_DRAW_RATE])
    goal = s[GOAL]
    if goal >= 4:
        t = min(t, 2.0)
    elif goal >= 3:
        t = min(t, 5.0)
    fut = max(0.0, t - 1.0) * w[W_FUTURE_SHARE] * _PER_VALUE
    supply = 0.0
    for c in range(5):
        m = held[c]
        r = p * 5 + c
        if s[POS + r] == 0:
            n = _copies(m, 0, 10)
            if n >= 3:
                supply += n + fut * _span_room(m)
            continue
        end = s[RLAST + r]
        d = s[RDIR + r]
        if d == 1:
            h = _copies(m, end, 10)
            room = 11 - end
        elif d == -1:
            h = _copies(m, 0, end)
            room = end + 1
        else:
            up = _copies(m, end, 10)
            down = _copies(m, 0, end)
            h = up if up > down else down
            room = max(11 - end, end + 1)
        supply += h + fut * room
    share = w[W_HAND_SHARE]  # every turn lays at most one card: the rows share the turns left
    if supply > 0.0:
        share = min(share, t * w[W_LAY_RATE] / supply)
    fut = fut * share
    have = min(s[WISHES + p], 5)
    next_wish = float(WISH_POINTS[have + 1] - WISH_POINTS[have]) if have + 1 < 6 else 0.0
    return share, fut, fut * w[W_OPEN_FUTURE_SHARE], next_wish


@kernel(inline=True)
def _stone_gain(s: np.ndarray, w: np.ndarray, next_wish: float, col: int, row: int) -> float:
    """Worth to the player to move of the tile on ``row`` of ``col`` if its figure arrives."""
    if row > LAST_ROW:
        return 0.0
    tile = s[TILES + col * 10 + row]
    if tile == 0:
        return 0.0
    if tile == WISH:
        return next_wish
    if tile == CLOVER:
        return w[W_CLOVER_VALUE]
    return float(tile)


@kernel()
def _gift(s: np.ndarray, p: int, col: int, v: int, w: np.ndarray) -> float:
    """How much a discard of ``col``/``v`` helps the later players (their public rows)."""
    n = s[NP]
    worst = 0.0
    for k in range(1, n):
        o = (p + k) % n
        r = o * 5 + col
        pos = s[POS + r]
        if pos == 0 or pos >= LAST_ROW:
            continue
        last = s[RLAST + r]
        d = s[RDIR + r]
        if (d == 1 and v < last) or (d == -1 and v > last):
            continue
        gap = v - last if v >= last else last - v
        closeness = 1.0 if gap <= 1 else (0.6 if gap <= 3 else 0.25)
        weight = w[W_GIFT_NEXT] if k == 1 else w[W_GIFT_OTHER]
        step = ROW_VALUES[pos + 1] - ROW_VALUES[pos]
        if s[BIG + o] == col:
            step *= 2
        gift = weight * closeness * (1.0 + 0.5 * step)
        if gift > worst:
            worst = gift
    return worst


@kernel()
def _wins_if_over(s: np.ndarray, p: int, extra: float) -> bool:
    """Whether ``p`` would have the (shared) best score if the game ended now, ``extra``
    points added to its own."""
    mine = score(s, p) + extra
    won = True
    for o in range(s[NP]):
        if o != p and mine < score(s, o):
            won = False
    return won


@kernel()
def _step_value(s: np.ndarray, p: int, w: np.ndarray, next_wish: float, col: int) -> float:
    """What one step of ``p``'s figure on ``col`` (not past the end stone) reaches: a huge
    bonus or penalty where it ends the game (won or lost), else the tile it lands on."""
    row = s[POS + p * 5 + col]
    if row + 1 == GOAL_ROW and s[GOAL] + 1 >= 5:
        gain = float(ROW_VALUES[row + 1] - ROW_VALUES[row])
        if s[BIG + p] == col:
            gain = 2.0 * gain
        return 1000.0 if _wins_if_over(s, p, gain) else -1000.0
    return _stone_gain(s, w, next_wish, col, row + 1)


@kernel(inline=True)
def _known(s: np.ndarray, p: int, card: int) -> bool:
    """Whether a copy of ``card`` in ``p``'s hand was taken from a discard pile."""
    hb = HAND + p * HAND_SIZE
    kb = KNOWN + p * HAND_SIZE
    known = 0
    for i in range(s[HAND_N + p]):
        if s[hb + i] == card:
            known += s[kb + i]
    return known > 0


@kernel()
def _big_figure(
    s: np.ndarray,
    p: int,
    w: np.ndarray,
    fh: float,
    fut: float,
    held: tuple[int, int, int, int, int],
) -> bool:
    """Whether the path just opened takes the big figure (the policy's ``choose_figure``)."""
    colour = s[PENDING]
    m = held[colour]
    last = s[RLAST + p * 5 + colour]
    up = _copies(m, last, 10)
    down = _copies(m, 0, last)
    steps = 1.0 + fh * (up if up > down else down) + fut * max(11 - last, last + 1)
    if steps < w[W_BIG_MIN]:
        return False
    for c in range(5):
        if c == colour or s[POS + p * 5 + c] != 0:
            continue
        others = held[c]
        n = _copies(others, 0, 10)
        if n < 3:
            continue
        if fh * n + fut * _span_room(others) > steps + 1.0:
            return False  # a better path is waiting in the hand
    return True


#: What ``_prepare`` gives for a decision, by index: ``_context``'s numbers, then (in the play
#: phase) each colour's row as it stands (the projection every lay and discard changes).
_FH: Final = 0
_FUT: Final = 1
_FUT_OPEN: Final = 2
_NEXT_WISH: Final = 3
_BASE: Final = 4
Numbers = tuple[float, float, float, float, float, float, float, float, float]
Held = tuple[int, int, int, int, int]


@kernel()
def _prepare(s: np.ndarray, w: np.ndarray) -> tuple[Numbers, Held]:
    """The numbers every decision of the player to move shares (the policy's ``_Me`` and
    ``score_play``'s ``base``), and its holdings by colour."""
    p = s[CUR]
    held = _holdings(s, p)
    fh, fut, fut_open, next_wish = _context(s, p, w, held)
    b0 = b1 = b2 = b3 = b4 = 0.0
    if s[PHASE] == PLAY:
        r = p * 5
        b0 = _row(s, p, w, fh, fut, fut_open, 0, s[POS + r], s[RLAST + r], s[RDIR + r], held[0])
        r += 1
        b1 = _row(s, p, w, fh, fut, fut_open, 1, s[POS + r], s[RLAST + r], s[RDIR + r], held[1])
        r += 1
        b2 = _row(s, p, w, fh, fut, fut_open, 2, s[POS + r], s[RLAST + r], s[RDIR + r], held[2])
        r += 1
        b3 = _row(s, p, w, fh, fut, fut_open, 3, s[POS + r], s[RLAST + r], s[RDIR + r], held[3])
        r += 1
        b4 = _row(s, p, w, fh, fut, fut_open, 4, s[POS + r], s[RLAST + r], s[RDIR + r], held[4])
    return (fh, fut, fut_open, next_wish, b0, b1, b2, b3, b4), held


@kernel()
def _medium_score(s: np.ndarray, a: int, w: np.ndarray, me: Numbers, held: Held) -> float:
    """The medium policy's score of decision ``a`` (``_prepare``'s ``me`` and ``held``)."""
    p = s[CUR]
    phase = s[PHASE]
    fh = me[_FH]
    fut = me[_FUT]
    fut_open = me[_FUT_OPEN]
    a = int(a)  # a 64-bit shift below, interpreted too (NUMBA_DISABLE_JIT)
    if phase == PLAY:
        card = a if a < DISCARD_BASE else a - DISCARD_BASE
        c = card // 11
        v = card - c * 11
        rest = held[c] - (1 << (4 * v))
        r = p * 5 + c
        pos = s[POS + r]
        last = s[RLAST + r]
        d = s[RDIR + r]
        base = me[_BASE + c]
        if a >= DISCARD_BASE:
            without = _row(s, p, w, fh, fut, fut_open, c, pos, last, d, rest)
            gain = without - base - _gift(s, p, c, v, w)
            if _known(s, p, card):
                gain -= w[W_KNOWN_DISCARD]
            return gain
        if pos == 0:
            gain = _row(s, p, w, fh, fut, fut_open, c, 1, v, 0, rest) - base - w[W_OPEN_MARGIN]
            return gain + _stone_gain(s, w, me[_NEXT_WISH], c, 1)
        if d == 0 and v != last:  # B-13: the first different value fixes the direction
            d = 1 if v > last else -1
        gain = _row(s, p, w, fh, fut, fut_open, c, pos + 1, v, d, rest) - base
        if pos < LAST_ROW:
            gain += _step_value(s, p, w, me[_NEXT_WISH], c)
        return gain
    if phase == DRAW:
        if a == DRAW_DECK:
            if s[DECK_N] == 1:  # B-20: drawing the last card ends the game
                return 1000.0 if _wins_if_over(s, p, 0.0) else -1000.0
            return w[W_DECK_VALUE]
        k = a - DRAW_PILE_BASE
        if k == s[DISCARDED]:  # legal only under the take-back variant (B-15)
            return -100.0  # taking back one's own discard only stalls
        card = int(s[PILE + k * PILE_ROOM + s[PILE_N + k] - 1])
        c = card // 11
        v = card - c * 11
        m = held[c]
        r = p * 5 + c
        pos = s[POS + r]
        last = s[RLAST + r]
        d = s[RDIR + r]
        before = _row(s, p, w, fh, fut, fut_open, c, pos, last, d, m)
        after = _row(s, p, w, fh, fut, fut_open, c, pos, last, d, m + (1 << (4 * v)))
        return after - before
    if phase == FIGURE:
        big = _big_figure(s, p, w, fh, fut, held)
        return 1.0 if big == (a == FIGURE_BIG) else 0.0
    if a == PASS_INDEX:  # a clover or overflow move declined
        return 0.0
    col = a - ADVANCE_BASE
    row = s[POS + p * 5 + col]
    gain = float(ROW_VALUES[row + 1] - ROW_VALUES[row])
    if s[BIG + p] == col:
        gain = 2.0 * gain
    return gain + _step_value(s, p, w, me[_NEXT_WISH], col) + 0.01 * row


@kernel()
def medium_scores(
    s: np.ndarray, out: np.ndarray, n: int, w: np.ndarray, scores: np.ndarray
) -> None:
    """Write into ``scores[i]`` the medium policy's score of legal decision ``out[i]`` for the
    player to move, under weights ``w`` (:data:`TUNING_FIELDS`): the number
    ``keltis.board.policy.board_scores`` gives that action."""
    me, held = _prepare(s, w)
    for i in range(n):
        scores[i] = _medium_score(s, out[i], w, me, held)


@kernel()
def projection(s: np.ndarray, w: np.ndarray, out: np.ndarray) -> None:
    """Write into ``out[p]`` every seat's projected final score under weights ``w``: points so
    far, the wish stones' points and each row's projection from the seat's own hand (the
    number ``keltis.board.policy.board_projection`` gives; a search judges its cut-off
    playouts by it)."""
    for p in range(s[NP]):
        held = _holdings(s, p)
        fh, fut, fut_open, _ = _context(s, p, w, held)
        total = float(s[POINTS + p] + WISH_POINTS[min(s[WISHES + p], 5)])
        for c in range(5):
            r = p * 5 + c
            total += _row(
                s, p, w, fh, fut, fut_open, c, s[POS + r], s[RLAST + r], s[RDIR + r], held[c]
            )
        out[p] = total


@kernel()
def _medium_choice(s: np.ndarray, out: np.ndarray, n: int, rng: np.ndarray, w: np.ndarray) -> int:
    """The medium policy's decision: the best-scored, uniform among those within ``_TIE`` of
    the best (``keltis.core.policy.best_scored``).

    One pass keeps the best score so far and draws among the decisions within ``_TIE`` of it.
    A new best more than ``_TIE`` above the last drops all those before; one less than that
    above it might keep some of them, so then the scores are taken again in a second pass
    against the final best (this kernel has no array to keep them in)."""
    me, held = _prepare(s, w)
    best = -1e300
    ties = 0
    pick = out[0]
    again = False
    for i in range(n):
        rating = _medium_score(s, out[i], w, me, held)
        if rating > best:
            again |= rating <= best + _TIE
            best = rating
            ties = 1
            pick = out[i]
        elif rating >= best - _TIE:
            ties += 1
            if below(rng, ties) == 0:
                pick = out[i]
    if not again:
        return pick
    ties = 0
    for i in range(n):
        if _medium_score(s, out[i], w, me, held) >= best - _TIE:
            ties += 1
            if ties == 1 or below(rng, ties) == 0:
                pick = out[i]
    return pick


@kernel(inline=True)
def choose(
    s: np.ndarray, out: np.ndarray, n: int, policy: int, rng: np.ndarray, w: np.ndarray
) -> int:
    """Policy 0: uniform over the legal list. Policy 1: greedy (the greedy bot's rating,
    uniform among the best). Policy 2: medium (the heuristic under weights ``w``, which the
    other policies ignore: :func:`medium_scores`)."""
    if policy == 0 or n == 1:
        return out[below(rng, n)]
    if policy == 2:
        return _medium_choice(s, out, n, rng, w)
    best = -1e300
    ties = 0
    pick = out[0]
    for i in range(n):
        rating = greedy_score(s, out[i])
        if rating > best:
            best = rating
            ties = 1
            pick = out[i]
        elif rating == best:
            ties += 1
            if below(rng, ties) == 0:
                pick = out[i]
    return pick


# -- the batched learning environment (keltis.fast.BatchEnv) ---------------------------------
#
# The observation (keltis.env.encode, keltis.board.encoding) needs a few things the rules'
# state does not keep: which cards lie in each seat's rows and the cards known in its hand
# (taken from a discard pile). ``track`` keeps them in a second array (``X_SIZE`` small
# numbers per game, ``int8``), called before each ``apply``; ``observe`` writes the
# observation of one seat from both arrays.
#
# A game's observation row is kept up to date rather than written anew at every step (what
# that saves: docs/performance.md). ``X_VIEWER`` says whose view the row holds; ``track``
# changes its card counts as cards move (hand, piles, rows, known cards), and ``_show``
# rewrites only the small fields (``_small``: the table's, and the player blocks of the seats
# that moved), the pile tops and the tiles that changed. A row of another seat, or of none
# (-1: a new deal), is written whole by ``observe``.

X_ROWS: Final = 0  # per seat, 55 counts: copies of each card in its rows
X_KNOWN: Final = 4 * 55  # per seat, 55 counts: copies known in its hand
X_TILES: Final = 8 * 55  # per stone (column * 10 + row), the tile the observation row shows
X_TOPS: Final = X_TILES + 50  # per pile, the top card the observation row shows (-1: none)
X_VIEWER: Final = X_TOPS + 5  # the seat whose view the observation row holds (-1: none)
X_DIRTY: Final = X_VIEWER + 1  # per seat, 1 where its player block changed since shown
X_MOVED: Final = X_DIRTY + 4  # per pile, 1 where it got or lost a card since shown
X_TAKEN: Final = X_MOVED + 5  # the wish tiles taken when the row last showed the tiles
X_SIZE: Final = X_TAKEN + 1

#: The observation's fields ``observe`` fills, table part then player block: the field names
#: of ``keltis.board.encoding``. ``offsets`` (``keltis.fast.env``) lists, in this order, each
#: table field's offset, then each player field's offset within a block, then the table
#: part's size and a block's size.
OBS_TABLE: Final = (
    "phase", "to_move", "turn", "hand", "deck", "removed", "tiles", "pile_tops", "pile_sizes",
    "piles", "goal", "pending", "discarded_pile",
)  # fmt: skip
OBS_PLAYER: Final = (
    "rows", "row_last", "directions", "figures", "big", "tile_points", "wishes", "score",
    "hand_size", "known",
)  # fmt: skip
_NT: Final = len(OBS_TABLE)
# where ``offsets`` holds each field's offset (a player field's within its block)
_PHASE, _TO_MOVE, _TURN, _HAND, _DECK, _REMOVED, _TILES, _TOPS, _SIZES = range(9)
_PILES, _GOAL, _PENDING, _DISCARDED = range(9, _NT)
_ROWS, _LAST, _DIRS, _FIGURES, _BIG, _POINTS, _WISHES, _SCORE, _HAND_SIZE, _KNOWN = range(
    _NT, _NT + len(OBS_PLAYER)
)
_TABLE_SIZE: Final = _NT + len(OBS_PLAYER)
_BLOCK_SIZE: Final = _TABLE_SIZE + 1


@kernel(inline=True)
def _block(s: np.ndarray, viewer: int, offsets: np.ndarray, seat: int) -> int:
    """Where seat ``seat``'s player block starts in ``viewer``'s observation."""
    k = seat - viewer
    if k < 0:
        k += s[NP]
    return offsets[_TABLE_SIZE] + k * offsets[_BLOCK_SIZE]


@kernel(inline=True)
def _leaves(
    s: np.ndarray, x: np.ndarray, p: int, card: int, offsets: np.ndarray, out: np.ndarray
) -> None:
    """A card left ``p``'s hand: one known copy of it is no longer known to be there; the
    observation row's counts follow."""
    at = X_KNOWN + p * 55 + card
    known = x[at] > 0
    if known:
        x[at] -= 1
    v = x[X_VIEWER]
    if v >= 0:
        if p == v:
            out[offsets[_HAND] + card] -= 0.5
        if known:
            out[_block(s, v, offsets, p) + offsets[_KNOWN] + card] -= 0.5


@kernel()
def track(s: np.ndarray, x: np.ndarray, a: int, offsets: np.ndarray, out: np.ndarray) -> None:
    """Update the observation's extra counters ``x`` for decision ``a``, before ``apply``, and
    the card counts of the observation row ``out`` (of seat ``x[X_VIEWER]``, if any)."""
    p = s[CUR]
    v = x[X_VIEWER]
    x[X_DIRTY + p] = 1
    phase = s[PHASE]
    if phase == DRAW:
        if a == DRAW_DECK:
            card = s[DECK + s[DECK_N] - 1]
        else:
            k = a - DRAW_PILE_BASE
            card = s[PILE + k * PILE_ROOM + s[PILE_N + k] - 1]
            x[X_KNOWN + p * 55 + card] += 1
            x[X_MOVED + k] = 1
            if v >= 0:
                out[offsets[_PILES] + card] -= 0.5
                out[_block(s, v, offsets, p) + offsets[_KNOWN] + card] += 0.5
        if p == v:
            out[offsets[_HAND] + card] += 0.5
    elif phase == PLAY:
        if a < DISCARD_BASE:
            x[X_ROWS + p * 55 + a] += 1
            if v >= 0:
                out[_block(s, v, offsets, p) + offsets[_ROWS] + a] += 0.5
            _leaves(s, x, p, a, offsets, out)
        else:
            card = a - DISCARD_BASE
            _leaves(s, x, p, card, offsets, out)
            x[X_MOVED + card // 11] = 1
            if v >= 0:
                out[offsets[_PILES] + card] += 0.5


@kernel()
def _small(
    s: np.ndarray, x: np.ndarray, viewer: int, offsets: np.ndarray, out: np.ndarray, every: bool
) -> None:
    """Write the observation's small fields (all but the card counts, the tiles and the pile
    tops), each whole: the part of ``viewer``'s observation that ``track`` does not keep up to
    date. The player blocks: ``every`` one, or those of the seats that moved since
    (``X_DIRTY``, cleared here)."""
    n = s[NP]
    phase = s[PHASE]
    one_hot = out[offsets[_PHASE] : offsets[_PHASE] + 6]
    for i in range(6):
        one_hot[i] = 0.0
    one_hot[phase] = 1.0
    one_hot = out[offsets[_TO_MOVE] : offsets[_TO_MOVE] + 4]
    for i in range(4):
        one_hot[i] = 0.0
    cur = s[CUR]
    if cur >= 0:
        one_hot[cur - viewer + n if cur < viewer else cur - viewer] = 1.0
    cap = s[TURN_CAP]
    if cap == 0:
        cap = 1
    out[offsets[_TURN]] = min(s[TURN] / cap, 1.0)
    out[offsets[_DECK]] = s[DECK_N] / DECK_CARDS
    out[offsets[_REMOVED]] = 1.0 if n == 2 else 0.0  # 30 cards removed unseen, / 30
    sizes = out[offsets[_SIZES] : offsets[_SIZES] + 5]
    for k in range(5):
        sizes[k] = s[PILE_N + k] / 22
    out[offsets[_GOAL]] = s[GOAL] / 5
    one_hot = out[offsets[_PENDING] : offsets[_PENDING] + 6]
    for i in range(6):
        one_hot[i] = 0.0
    one_hot[s[PENDING] if phase in (FIGURE, CLOVER_MOVE, OVERFLOW) else 5] = 1.0
    one_hot = out[offsets[_DISCARDED] : offsets[_DISCARDED] + 6]
    for i in range(6):
        one_hot[i] = 0.0
    discarded = s[DISCARDED]
    one_hot[discarded if discarded >= 0 else 5] = 1.0
    for seat in range(n):
        if not every:
            if x[X_DIRTY + seat] == 0:
                continue
            x[X_DIRTY + seat] = 0
        o = out[_block(s, viewer, offsets, seat) :]
        lasts = o[offsets[_LAST] : offsets[_LAST] + 55]
        dirs = o[offsets[_DIRS] : offsets[_DIRS] + 15]
        figures = o[offsets[_FIGURES] : offsets[_FIGURES] + 50]
        big = o[offsets[_BIG] : offsets[_BIG] + 6]
        for i in range(55):
            lasts[i] = 0.0
        for i in range(15):
            dirs[i] = 0.0
        for i in range(50):
            figures[i] = 0.0
        for i in range(6):
            big[i] = 0.0
        for col in range(5):
            r = seat * 5 + col
            last = s[RLAST + r]
            if last >= 0:
                lasts[col * 11 + last] = 1.0
            d = s[RDIR + r]
            dirs[col * 3 + (0 if d == 0 else 1 if d > 0 else 2)] = 1.0
            figures[col * 10 + s[POS + r]] = 1.0
        b = s[BIG + seat]
        big[b if b >= 0 else 5] = 1.0
        o[offsets[_POINTS]] = s[POINTS + seat] / 14
        o[offsets[_WISHES]] = min(s[WISHES + seat] / 9, 1.0)
        o[offsets[_SCORE]] = score(s, seat) / 100.0
        o[offsets[_HAND_SIZE]] = s[HAND_N + seat] / HAND_SIZE


@kernel()
def observe(
    s: np.ndarray, x: np.ndarray, viewer: int, offsets: np.ndarray, out: np.ndarray
) -> None:
    """Write seat ``viewer``'s observation into ``out`` (float32, zeroed here): the numbers
    ``keltis.env.encode.encode(state.view(viewer))`` gives."""
    for i in range(out.shape[0]):
        out[i] = 0.0
    hand = out[offsets[_HAND] : offsets[_HAND] + 55]
    for i in range(s[HAND_N + viewer]):
        hand[s[HAND + viewer * HAND_SIZE + i]] += 0.5
    tiles = out[offsets[_TILES] : offsets[_TILES] + 270]
    for col in range(5):
        for row in range(1, 10):
            tiles[(col * 9 + row - 1) * 6 + s[TILES + col * 10 + row]] = 1.0
    tops = out[offsets[_TOPS] : offsets[_TOPS] + 55]
    piles = out[offsets[_PILES] : offsets[_PILES] + 55]
    for k in range(5):
        m = s[PILE_N + k]
        pile = s[PILE + k * PILE_ROOM : PILE + k * PILE_ROOM + m]
        if m > 0:
            tops[pile[m - 1]] = 1.0
        for i in range(m):
            piles[pile[i]] += 0.5
    for seat in range(s[NP]):
        o = out[_block(s, viewer, offsets, seat) :]
        rows = o[offsets[_ROWS] : offsets[_ROWS] + 55]
        known = o[offsets[_KNOWN] : offsets[_KNOWN] + 55]
        counts = x[X_ROWS + seat * 55 : X_ROWS + seat * 55 + 55]
        for c in range(55):
            rows[c] = counts[c] * np.float32(0.5)
        counts = x[X_KNOWN + seat * 55 : X_KNOWN + seat * 55 + 55]
        for c in range(55):
            known[c] = counts[c] * np.float32(0.5)
    _small(s, x, viewer, offsets, out, True)


@kernel(inline=True)
def _all_shown(x: np.ndarray) -> None:
    """The row was written whole: no seat's block is waiting to be shown."""
    for i in range(4):
        x[X_DIRTY + i] = 0


@kernel()
def _shown(s: np.ndarray, x: np.ndarray, offsets: np.ndarray, obs: np.ndarray, fresh: bool) -> None:
    """Show the tops of the piles and the tiles that changed since the row showed them
    (``fresh``: the row was just written whole): remember what the row shows. A tile leaves
    the board only as a wish stone taken (B-18), so the tiles are looked at when one was."""
    tops = obs[offsets[_TOPS] : offsets[_TOPS] + 55]
    for k in range(5):
        if not fresh and x[X_MOVED + k] == 0:
            continue
        x[X_MOVED + k] = 0
        m = s[PILE_N + k]
        top = s[PILE + k * PILE_ROOM + m - 1] if m > 0 else -1
        shown = x[X_TOPS + k]
        if not fresh and top != shown:
            if shown >= 0:
                tops[shown] = 0.0
            if top >= 0:
                tops[top] = 1.0
        x[X_TOPS + k] = top
    taken = 0
    for q in range(s[NP]):
        taken += s[WISHES + q]
    if not fresh and taken == x[X_TAKEN]:
        return
    x[X_TAKEN] = taken
    tiles = obs[offsets[_TILES] : offsets[_TILES] + 270]
    for col in range(5):
        for row in range(1, 10):
            tile = s[TILES + col * 10 + row]
            shown = x[X_TILES + col * 10 + row]
            if not fresh and tile != shown:
                tiles[(col * 9 + row - 1) * 6 + shown] = 0.0
                tiles[(col * 9 + row - 1) * 6 + tile] = 1.0
            x[X_TILES + col * 10 + row] = tile
