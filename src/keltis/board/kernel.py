"""Keltis, the board game (RULES.md B-1 … B-24) as numba kernels over one flat ``int32`` array.

Same shape as :mod:`keltis.cards.kernel`: a state array with the fields at the offsets below,
decisions as the reference engine's dense action indices, each rule written once in
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
from numba import njit

from keltis.board.layout import TILE_LETTERS
from keltis.board.state import BoardState, BoardVariant
from keltis.core.card_codes import COLOUR_LETTERS
from keltis.core.gamestate import GameState
from keltis.fast._rng import below, seed_game

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

DISCARD_BASE: Final = 126
FIGURE_SMALL: Final = 521
FIGURE_BIG: Final = 522
ADVANCE_BASE: Final = 523
PASS_INDEX: Final = 528
DRAW_DECK: Final = 529
DRAW_PILE_BASE: Final = 530

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


def _layout() -> dict[str, int]:
    fields = [
        ("NP", 1), ("CUR", 1), ("PHASE", 1), ("TURN", 1), ("END", 1), ("PENDING", 1),
        ("DISCARDED", 1), ("GOAL", 1), ("RULES", len(SWITCHES)), ("DECK_N", 1),
        ("HAND_N", 4), ("HAND", 4 * HAND_SIZE), ("DECK", DECK_CARDS), ("PILE_N", 5),
        ("PILE", 5 * PILE_ROOM), ("RLAST", 20), ("RDIR", 20), ("POS", 20), ("STARTED", 4),
        ("BIG", 4), ("POINTS", 4), ("WISHES", 4), ("TILES", 50),
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


def load_extra(s: np.ndarray, state: GameState) -> None:
    """Copy what a reference board game's start has beyond hands and deck: the tiles."""
    assert isinstance(state, BoardState)
    for colour in range(5):
        for row in range(10):
            s[TILES + colour * 10 + row] = state.tiles[colour][row]


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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True, inline="always")
def _can_move(s: np.ndarray, p: int) -> bool:
    for col in range(5):
        r = s[POS + p * 5 + col]
        if 0 < r < LAST_ROW:
            return True
    return False


@njit(cache=True, inline="always")
def _fits(s: np.ndarray, p: int, card: int) -> bool:
    """Whether ``card`` may go on ``p``'s row of its colour (B-11-B-13)."""
    col = card // 11
    r = p * 5 + col
    last = s[RLAST + r]
    if last < 0:
        return True
    d = s[RDIR + r]
    v = card - col * 11
    return d == 0 or v == last or (d > 0 and v > last) or (d < 0 and v < last)


@njit(cache=True, inline="always")
def legal(s: np.ndarray, out: np.ndarray) -> int:
    """Write the current player's legal decisions (dense action indices) to ``out``; return
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
            if _fits(s, p, c):
                out[n] = c
                n += 1
        return n
    if phase == DRAW:  # B-15
        n = 0
        if s[DECK_N] > 0:
            out[0] = DRAW_DECK
            n = 1
        blocked = s[DISCARDED] if s[NO_TAKE_BACK] else -1
        for k in range(5):
            if s[PILE_N + k] > 0 and k != blocked:
                out[n] = DRAW_PILE_BASE + k
                n += 1
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


@njit(cache=True, inline="always")
def _finish(s: np.ndarray, reason: int) -> None:
    s[PHASE] = OVER
    s[END] = reason
    s[CUR] = -1


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def apply(s: np.ndarray, a: int) -> None:
    """Carry out decision ``a`` (a legal dense action index) for the current player."""
    p = s[CUR]
    phase = s[PHASE]
    if phase == PLAY:
        card = a if a < DISCARD_BASE else a - DISCARD_BASE
        hb = HAND + p * HAND_SIZE
        hn = s[HAND_N + p] - 1
        for i in range(hn + 1):
            if s[hb + i] == card:
                s[hb + i] = s[hb + hn]
                break
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


@njit(cache=True)
def score(s: np.ndarray, p: int) -> int:
    """Seat ``p``'s total (B-21-B-23), as if the game ended now."""
    total = s[POINTS + p] + WISH_POINTS[min(s[WISHES + p], 5)]
    big = s[BIG + p]
    for col in range(5):
        value = ROW_VALUES[s[POS + p * 5 + col]]
        total += 2 * value if col == big else value
    return total


# -- policies and whole games --------------------------------------------------------------


@njit(cache=True)
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


@njit(cache=True)
def _same_colour(s: np.ndarray, p: int, col: int) -> int:
    hb = HAND + p * HAND_SIZE
    same = 0
    for i in range(s[HAND_N + p]):
        if s[hb + i] // 11 == col:
            same += 1
    return same


@njit(cache=True)
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


@njit(cache=True, inline="always")
def choose(s: np.ndarray, out: np.ndarray, n: int, policy: int, rng: np.ndarray) -> int:
    """Policy 0: uniform over the legal list. Policy 1: greedy (the greedy bot's rating,
    uniform among the best)."""
    if policy == 0 or n == 1:
        return out[below(rng, n)]
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


@njit(cache=True)
def play(
    s: np.ndarray,
    policy: int,
    rng: np.ndarray,
    record: bool,
    legal_out: np.ndarray,
    offsets: np.ndarray,
    choices: np.ndarray,
) -> int:
    """Play the game in ``s`` to its end with ``policy`` drawing on ``rng``; return the number
    of decisions. With ``record``, also write every legal list (``legal_out`` from
    ``offsets[i]`` to ``offsets[i + 1]``) and every choice (the differential test's trace)."""
    out = np.zeros(MAX_LEGAL, dtype=np.int32)
    step = 0
    at = 0
    if record:
        offsets[0] = 0
    while s[PHASE] != OVER:
        n = legal(s, out)
        a = choose(s, out, n, policy, rng)
        if record:
            for i in range(n):
                legal_out[at + i] = out[i]
            at += n
            offsets[step + 1] = at
            choices[step] = a
        apply(s, a)
        step += 1
    return step


@njit(cache=True)
def play_batch(
    players: int,
    n_games: int,
    policy: int,
    seed: np.uint64,
    rules: np.ndarray,
    scores: np.ndarray,
    ends: np.ndarray,
    decisions: np.ndarray,
    turns: np.ndarray,
) -> None:
    """Deal and play ``n_games`` games; fill the per-game result arrays."""
    s = np.zeros(SIZE, dtype=np.int32)
    cards = np.zeros(DECK_CARDS, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    no_legal = np.zeros(1, dtype=np.int32)
    no_offsets = np.zeros(1, dtype=np.int64)
    for g in range(n_games):
        seed_game(rng, seed, g)
        deal(s, players, rules, rng, cards)
        decisions[g] = play(s, policy, rng, False, no_legal, no_offsets, no_legal)
        for p in range(players):
            scores[g, p] = score(s, p)
        ends[g] = s[END]
        turns[g] = s[TURN]
