"""Keltis: The Card Game (RULES.md C-1 … C-19) as numba kernels over one flat ``int32`` array.

The state of a game is one array (``new_state``) with the fields at the offsets below; the
decisions are the reference engine's dense action indices (``keltis.core.actions``), so a
legal list here and ``{a.index for a in CardState.legal_actions()}`` are the same set (the
differential test checks it at every step). Each rule is written once, in the kernels
``legal``, ``apply`` and ``score``; ``play`` and ``play_batch`` play whole games with them.

Cards are the reference's card codes (``keltis.core.card_codes``): number cards ``colour*11+value``,
closing cards ``55+colour``, point cards ``60+value``. Hands are unordered slots (the legal
list names each distinct card once, as the reference does).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Final

import numpy as np
from numba import njit

from keltis.cards.state import CardVariant
from keltis.core.gamestate import GameState
from keltis.fast._rng import below, seed_game

#: The rule switches, in the order of :class:`~keltis.cards.state.CardVariant`'s fields: a
#: state array holds them from ``RULES`` on, and ``reset`` takes them as one array in this
#: order (``keltis.fast.setup.switches`` builds it from a variant's JSON form). A switch added
#: to the variant must be implemented here too: until then this module refuses to load.
SWITCHES: Final = tuple(f.name for f in fields(CardVariant))
_IMPLEMENTED: Final = frozenset({"turn_cap"})
if set(SWITCHES) != _IMPLEMENTED:
    raise ImportError(
        "the card game's kernel does not implement the variant switches "
        + ", ".join(sorted(set(SWITCHES) - _IMPLEMENTED))
    )

# -- action indices (keltis.core.actions) ------------------------------------------------
LAY_ONTO_BASE: Final = 71
DISCARD_BASE: Final = 126
CLAIM_BASE: Final = 197
PASS_INDEX: Final = 528
DRAW_DECK: Final = 529
DRAW_PILE_BASE: Final = 530

# -- phases and end reasons (the reference's order) -----------------------------------------
PLAY: Final = 0
DRAW: Final = 1
FINAL: Final = 2
OVER: Final = 3
END_GOAL: Final = 0
END_DECK: Final = 1
END_CLOSED: Final = 2
END_TRUNCATED: Final = 3

HAND_SIZE: Final = 8
PILE_ROOM: Final = 32
DECK_CARDS: Final = 101
MAX_LEGAL: Final = 128


def _layout() -> dict[str, int]:
    fields = [
        ("NP", 1), ("CUR", 1), ("PHASE", 1), ("TURN", 1), ("END", 1), ("END_PENDING", 1),
        ("ENDER", 1), ("DRAWS", 1), ("BLOCKED", 1), ("LAYS", 1), ("CLOSED", 1),
        ("WISHMASK", 1), ("RULES", len(SWITCHES)), ("DECK_N", 1), ("HAND_N", 4),
        ("HAND", 4 * HAND_SIZE),
        ("DECK", DECK_CARDS), ("PILE_N", 6), ("PILE", 6 * PILE_ROOM), ("RLEN", 20),
        ("RLAST", 20), ("RDIR", 20), ("RCLOSED", 20), ("PROW", 4), ("WISH", 4),
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
END_PENDING: Final = _AT["END_PENDING"]
ENDER: Final = _AT["ENDER"]
DRAWS: Final = _AT["DRAWS"]
BLOCKED: Final = _AT["BLOCKED"]
LAYS: Final = _AT["LAYS"]
CLOSED: Final = _AT["CLOSED"]
WISHMASK: Final = _AT["WISHMASK"]
RULES: Final = _AT["RULES"]
TURN_CAP: Final = RULES + SWITCHES.index("turn_cap")
DECK_N: Final = _AT["DECK_N"]
HAND_N: Final = _AT["HAND_N"]
HAND: Final = _AT["HAND"]
DECK: Final = _AT["DECK"]
PILE_N: Final = _AT["PILE_N"]
PILE: Final = _AT["PILE"]
RLEN: Final = _AT["RLEN"]
RLAST: Final = _AT["RLAST"]
RDIR: Final = _AT["RDIR"]
RCLOSED: Final = _AT["RCLOSED"]
PROW: Final = _AT["PROW"]
WISH: Final = _AT["WISH"]
SIZE: Final = _AT["SIZE"]


def _copies(card: int) -> int:
    if card < 55:
        return 2 if 3 <= card % 11 <= 7 else 1
    return 2 if card < 60 else 1


#: The 101 cards (C-1-C-3) by code, lowest first.
FULL_DECK: Final = np.array([c for c in range(71) for _ in range(_copies(c))], dtype=np.int32)
#: Discard pile of each card (C-7): its colour, or 5 for point cards.
PILE_OF: Final = np.array([c // 11 if c < 55 else c - 55 if c < 60 else 5 for c in range(71)])
#: Claim slot of each card (actions' claim index): colour 0-4 for number cards, 5 for point
#: cards, -1 for closing cards (they cannot claim, C-8).
CLAIM_SLOT: Final = np.array([c // 11 if c < 55 else -1 if c < 60 else 5 for c in range(71)])
#: Value of each card; -1 for closing cards.
VALUE: Final = np.array([c % 11 if c < 55 else -1 if c < 60 else c - 60 for c in range(71)])
ROW_POINTS: Final = np.array([0, -4, -3, -2, 1, 2, 3, 6, 7, 10], dtype=np.int32)  # C-16
WISH_POINTS: Final = np.array([-4, -1, 0, 4, 6, 10], dtype=np.int32)  # C-18
ALL_WISHES: Final = sum(1 << v for v in range(1, 10))


def new_state() -> np.ndarray:
    """An empty state array (fill it with ``reset`` and a deal, or ``keltis.fast.load_setup``)."""
    return np.zeros(SIZE, dtype=np.int32)


def load_extra(s: np.ndarray, state: GameState) -> None:
    """A card game's start has nothing beyond hands and deck: nothing to copy."""


def setup_extra(s: np.ndarray) -> dict[str, Any]:
    """A card game's explicit set-up has no entries beyond hands and cards."""
    return {}


@njit(cache=True)
def reset(s: np.ndarray, players: int, rules: np.ndarray) -> None:
    """A fresh game of ``players`` with empty hands and deck, under ``rules`` (the switches
    in :data:`SWITCHES` order)."""
    s[:] = 0
    s[NP] = players
    s[PHASE] = PLAY
    s[END] = -1
    s[END_PENDING] = -1
    s[ENDER] = -1
    s[WISHMASK] = ALL_WISHES
    for i in range(len(SWITCHES)):
        s[RULES + i] = rules[i]
    for i in range(20):
        s[RLAST + i] = -1


@njit(cache=True)
def deal(
    s: np.ndarray, players: int, rules: np.ndarray, rng: np.ndarray, cards: np.ndarray
) -> None:
    """Shuffle and deal (C-5, C-6) into ``s``; ``cards`` is scratch room for 101 cards."""
    reset(s, players, rules)
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
    # cards[start] is the top of the draw pile; the array keeps the top at the end.
    for i in range(left):
        s[DECK + i] = cards[n - 1 - i]
    s[DECK_N] = left


# -- legal decisions -----------------------------------------------------------------------


@njit(cache=True)
def _lays(s: np.ndarray, p: int, out: np.ndarray, n: int, final: bool) -> int:
    """Append the lays open to ``p`` (C-9-C-11; in the final phase C-15: existing rows only)."""
    hb = HAND + p * HAND_SIZE
    hn = s[HAND_N + p]
    for i in range(hn):
        c = s[hb + i]
        dup = False
        for j in range(i):
            if s[hb + j] == c:
                dup = True
                break
        if dup:
            continue
        if c < 55:
            col = c // 11
            v = c - col * 11
            r = p * 5 + col
            if s[RLEN + r] == 0:
                if not final:
                    out[n] = c
                    n += 1
            elif s[RCLOSED + r] == 0:
                d = s[RDIR + r]
                last = s[RLAST + r]
                if d == 0 or v == last or (d > 0 and v > last) or (d < 0 and v < last):
                    out[n] = c
                    n += 1
        elif c < 60:
            r = p * 5 + c - 55
            if s[RLEN + r] > 0 and s[RCLOSED + r] < 2:
                out[n] = c
                n += 1
        else:
            v = c - 60
            if not final or s[PROW + p] > 0:
                out[n] = c
                n += 1
            for col in range(5):
                r = p * 5 + col
                if s[RLEN + r] > 0 and s[RCLOSED + r] == 0 and s[RLAST + r] == v:
                    out[n] = LAY_ONTO_BASE + v * 5 + col
                    n += 1
    return n


@njit(cache=True)
def _can_lay_final(s: np.ndarray, p: int) -> bool:
    hb = HAND + p * HAND_SIZE
    for i in range(s[HAND_N + p]):
        c = s[hb + i]
        if c < 55:
            col = c // 11
            v = c - col * 11
            r = p * 5 + col
            if s[RLEN + r] > 0 and s[RCLOSED + r] == 0:
                d = s[RDIR + r]
                last = s[RLAST + r]
                if d == 0 or v == last or (d > 0 and v > last) or (d < 0 and v < last):
                    return True
        elif c < 60:
            r = p * 5 + c - 55
            if s[RLEN + r] > 0 and s[RCLOSED + r] < 2:
                return True
        else:
            if s[PROW + p] > 0:
                return True
            v = c - 60
            for col in range(5):
                r = p * 5 + col
                if s[RLEN + r] > 0 and s[RCLOSED + r] == 0 and s[RLAST + r] == v:
                    return True
    return False


@njit(cache=True, inline="always")
def legal(s: np.ndarray, out: np.ndarray) -> int:
    """Write the current player's legal decisions (dense action indices) to ``out``; return
    how many (0 once the game is over)."""
    phase = s[PHASE]
    p = s[CUR]
    if phase == PLAY:
        n = _lays(s, p, out, 0, False)
        hb = HAND + p * HAND_SIZE
        hn = s[HAND_N + p]
        wish = s[WISHMASK]
        first_claim = n
        for i in range(hn):  # C-8: two cards of one value 1-9 whose wish stone is still there
            a = s[hb + i]
            sa = CLAIM_SLOT[a]
            v = VALUE[a]
            if sa < 0 or v < 1 or v > 9 or not (wish >> v) & 1:
                continue
            for j in range(i + 1, hn):
                b = s[hb + j]
                sb = CLAIM_SLOT[b]
                if sb < 0 or VALUE[b] != v:
                    continue
                index = CLAIM_BASE + (v - 1) * 36 + min(sa, sb) * 6 + max(sa, sb)
                seen = False
                for k in range(first_claim, n):
                    if out[k] == index:
                        seen = True
                        break
                if not seen:
                    out[n] = index
                    n += 1
        for i in range(hn):  # C-7
            c = s[hb + i]
            dup = False
            for j in range(i):
                if s[hb + j] == c:
                    dup = True
                    break
            if not dup:
                out[n] = DISCARD_BASE + c
                n += 1
        return n
    if phase == DRAW:  # C-12: the draw pile, or a pile that received no card this turn
        out[0] = DRAW_DECK
        n = 1
        blocked = s[BLOCKED]
        for k in range(6):
            if s[PILE_N + k] > 0 and not (blocked >> k) & 1:
                out[n] = DRAW_PILE_BASE + k
                n += 1
        return n
    if phase == FINAL:  # C-15
        n = _lays(s, p, out, 0, True)
        out[n] = PASS_INDEX
        return n + 1
    return 0


# -- effects -------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _take(s: np.ndarray, p: int, card: int) -> None:
    hb = HAND + p * HAND_SIZE
    hn = s[HAND_N + p] - 1
    for i in range(hn + 1):
        if s[hb + i] == card:
            s[hb + i] = s[hb + hn]
            s[HAND_N + p] = hn
            return


@njit(cache=True, inline="always")
def _give(s: np.ndarray, p: int, card: int) -> None:
    hn = s[HAND_N + p]
    s[HAND + p * HAND_SIZE + hn] = card
    s[HAND_N + p] = hn + 1


@njit(cache=True)
def _to_pile(s: np.ndarray, card: int) -> int:
    k = PILE_OF[card]
    n = s[PILE_N + k]
    s[PILE + k * PILE_ROOM + n] = card
    s[PILE_N + k] = n + 1
    return k


@njit(cache=True)
def _finish(s: np.ndarray, reason: int) -> None:
    s[PHASE] = OVER
    s[END] = reason
    s[CUR] = -1
    s[DRAWS] = 0
    s[LAYS] = 0
    s[BLOCKED] = 0


@njit(cache=True)
def _final_from(s: np.ndarray, seat: int) -> None:
    """Give the final lays (C-15) to ``seat`` or the next seat up to the ender that can lay."""
    n = s[NP]
    while True:
        if _can_lay_final(s, seat):
            s[CUR] = seat
            s[PHASE] = FINAL
            s[LAYS] = 2
            return
        if seat == s[ENDER]:
            _finish(s, s[END_PENDING])
            return
        seat = (seat + 1) % n


@njit(cache=True)
def _end(s: np.ndarray, p: int, reason: int) -> None:
    """C-13 or C-14 ended the game in ``p``'s turn: on to the final lays."""
    s[TURN] += 1
    s[ENDER] = p
    s[END_PENDING] = reason
    s[DRAWS] = 0
    s[BLOCKED] = 0
    _final_from(s, (p + 1) % s[NP])


@njit(cache=True)
def _final_done(s: np.ndarray, p: int) -> None:
    s[LAYS] = 0
    if p == s[ENDER]:
        _finish(s, s[END_PENDING])
    else:
        _final_from(s, (p + 1) % s[NP])


@njit(cache=True)
def _lay(s: np.ndarray, p: int, a: int) -> None:
    if a >= LAY_ONTO_BASE:  # C-11: a point card on a row ending in its value
        v = (a - LAY_ONTO_BASE) // 5
        col = a - LAY_ONTO_BASE - v * 5
        _take(s, p, 60 + v)
        s[RLEN + p * 5 + col] += 1
        return
    _take(s, p, a)
    if a >= 60:  # C-11: the point row
        s[PROW + p] += 1
        return
    if a < 55:  # C-9 with B-13's direction
        col = a // 11
        v = a - col * 11
        r = p * 5 + col
        if s[RLEN + r] > 0 and s[RDIR + r] == 0 and v != s[RLAST + r]:
            s[RDIR + r] = 1 if v > s[RLAST + r] else -1
        s[RLEN + r] += 1
        s[RLAST + r] = v
        return
    r = p * 5 + a - 55  # C-10: a closing card
    s[RLEN + r] += 1
    s[RCLOSED + r] += 1
    if s[RCLOSED + r] == 1:
        s[CLOSED] += 1
        if s[CLOSED] >= 5 and s[PHASE] == PLAY:  # C-13
            _end(s, p, END_CLOSED)


@njit(cache=True, inline="always")
def apply(s: np.ndarray, a: int) -> None:
    """Carry out decision ``a`` (a legal dense action index) for the current player."""
    p = s[CUR]
    phase = s[PHASE]
    if phase == DRAW:
        if a == DRAW_DECK:
            n = s[DECK_N] - 1
            s[DECK_N] = n
            _give(s, p, s[DECK + n])
            if n == 0:  # C-14: a second refill draw is not made
                _end(s, p, END_DECK)
                return
        else:
            k = a - DRAW_PILE_BASE
            n = s[PILE_N + k] - 1
            s[PILE_N + k] = n
            _give(s, p, s[PILE + k * PILE_ROOM + n])
        s[DRAWS] -= 1
        if s[DRAWS] == 0:
            s[TURN] += 1
            if s[TURN] >= s[TURN_CAP]:
                _finish(s, END_TRUNCATED)
                return
            s[CUR] = (p + 1) % s[NP]
            s[PHASE] = PLAY
            s[BLOCKED] = 0
        return
    if phase == PLAY:
        if a < DISCARD_BASE:
            _lay(s, p, a)
            if s[PHASE] == PLAY:
                s[DRAWS] = 1
                s[PHASE] = DRAW
        elif a < CLAIM_BASE:  # C-7
            card = a - DISCARD_BASE
            _take(s, p, card)
            s[BLOCKED] = 1 << _to_pile(s, card)
            s[DRAWS] = 1
            s[PHASE] = DRAW
        else:  # C-8
            rest = a - CLAIM_BASE
            v = rest // 36 + 1
            pair = rest - (v - 1) * 36
            s1 = pair // 6
            s2 = pair - s1 * 6
            first = 60 + v if s1 == 5 else s1 * 11 + v
            second = 60 + v if s2 == 5 else s2 * 11 + v
            _take(s, p, first)
            _take(s, p, second)
            s[BLOCKED] = (1 << _to_pile(s, first)) | (1 << _to_pile(s, second))
            s[WISHMASK] &= ~(1 << v)
            s[WISH + p] += 1
            s[DRAWS] = 2
            s[PHASE] = DRAW
        return
    if phase == FINAL:
        if a == PASS_INDEX:
            _final_done(s, p)
            return
        _lay(s, p, a)
        s[LAYS] -= 1
        if s[LAYS] == 0 or not _can_lay_final(s, p):
            _final_done(s, p)


@njit(cache=True)
def score(s: np.ndarray, p: int) -> int:
    """Seat ``p``'s total (C-16-C-18), as if the game ended now."""
    total = s[PROW + p]
    for col in range(5):
        total += ROW_POINTS[min(s[RLEN + p * 5 + col], 9)]
    return total + WISH_POINTS[min(s[WISH + p], 5)]


# -- policies and whole games --------------------------------------------------------------


@njit(cache=True, inline="always")
def choose(s: np.ndarray, out: np.ndarray, n: int, policy: int, rng: np.ndarray) -> int:
    """Policy 0: uniform over the legal list. Policy 1: greedy, as the project's greedy bot
    plays the card game: a lay if there is one (uniform among lays), else uniform."""
    if policy == 0 or n == 1:
        return out[below(rng, n)]
    lays = 0
    for i in range(n):
        if out[i] < DISCARD_BASE:
            lays += 1
    if lays == 0:
        return out[below(rng, n)]
    pick = below(rng, lays)
    for i in range(n):
        if out[i] < DISCARD_BASE:
            if pick == 0:
                return out[i]
            pick -= 1
    return out[0]


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


# -- the batched learning environment (keltis.fast.BatchEnv) ---------------------------------
#
# The observation (keltis.env.encode, keltis.cards.encoding) needs a few things the rules'
# state does not keep: which cards lie in each seat's rows, the point cards of its point row,
# the wish stones it claimed and the cards known in its hand (taken from a discard pile).
# ``track`` keeps them in a second array (``X_SIZE`` numbers per game), called before each
# ``apply``; ``observe`` writes the observation of one seat from both arrays.

X_ROWS: Final = 0  # per seat, 71 counts: copies of each card in its colour rows
X_KNOWN: Final = 4 * 71  # per seat, 71 counts: copies known in its hand
X_PROW: Final = 8 * 71  # per seat, bits of the values in its point row
X_WISH: Final = 8 * 71 + 4  # per seat, bits of the wish stones it claimed
X_SIZE: Final = 8 * 71 + 8

#: The observation's fields ``observe`` fills, table part then player block: the field names
#: of ``keltis.cards.encoding``. ``offsets`` (``keltis.fast.env``) lists, in this order, each
#: table field's offset, then each player field's offset within a block, then the table
#: part's size and a block's size.
OBS_TABLE: Final = (
    "phase", "to_move", "turn", "hand", "deck", "removed", "wish_row", "pile_tops",
    "pile_sizes", "piles", "blocked", "draws_left", "final_lays_left", "closed_rows", "ender",
)  # fmt: skip
OBS_PLAYER: Final = (
    "rows", "point_row", "row_lengths", "row_last", "directions", "wishes", "score",
    "hand_size", "known",
)  # fmt: skip
_NT: Final = len(OBS_TABLE)


@njit(cache=True, inline="always")
def _forget(x: np.ndarray, p: int, card: int) -> None:
    """A card left ``p``'s hand: one known copy of it is no longer known to be there."""
    if x[X_KNOWN + p * 71 + card] > 0:
        x[X_KNOWN + p * 71 + card] -= 1


@njit(cache=True)
def track(s: np.ndarray, x: np.ndarray, a: int) -> None:
    """Update the observation's extra counters ``x`` for decision ``a``, before ``apply``."""
    p = s[CUR]
    if s[PHASE] == DRAW:
        if a != DRAW_DECK:
            k = a - DRAW_PILE_BASE
            card = s[PILE + k * PILE_ROOM + s[PILE_N + k] - 1]
            x[X_KNOWN + p * 71 + card] += 1
        return
    if a == PASS_INDEX:
        return
    if a < LAY_ONTO_BASE:
        if a >= 60:
            x[X_PROW + p] |= 1 << (a - 60)
        else:
            x[X_ROWS + p * 71 + a] += 1
        _forget(x, p, a)
    elif a < DISCARD_BASE:
        card = 60 + (a - LAY_ONTO_BASE) // 5
        x[X_ROWS + p * 71 + card] += 1
        _forget(x, p, card)
    elif a < CLAIM_BASE:
        _forget(x, p, a - DISCARD_BASE)
    else:
        rest = a - CLAIM_BASE
        v = rest // 36 + 1
        pair = rest - (v - 1) * 36
        s1 = pair // 6
        s2 = pair - s1 * 6
        _forget(x, p, 60 + v if s1 == 5 else s1 * 11 + v)
        _forget(x, p, 60 + v if s2 == 5 else s2 * 11 + v)
        x[X_WISH + p] |= 1 << v


@njit(cache=True)
def observe(
    s: np.ndarray, x: np.ndarray, viewer: int, offsets: np.ndarray, out: np.ndarray
) -> None:
    """Write seat ``viewer``'s observation into ``out`` (float32, zeroed here): the numbers
    ``keltis.env.encode.encode(state.view(viewer))`` gives."""
    out[:] = 0.0
    n = s[NP]
    phase = s[PHASE]
    out[offsets[0] + phase] = 1.0
    if s[CUR] >= 0:
        out[offsets[1] + (s[CUR] - viewer) % n] = 1.0
    cap = s[TURN_CAP]
    if cap == 0:
        cap = 1
    out[offsets[2]] = min(s[TURN] / cap, 1.0)
    hand = offsets[3]
    hb = HAND + viewer * HAND_SIZE
    for i in range(s[HAND_N + viewer]):
        out[hand + s[hb + i]] += 0.5
    out[offsets[4]] = s[DECK_N] / DECK_CARDS
    out[offsets[5]] = 1.0 if n == 2 else 0.0  # 30 cards removed unseen, / 30
    wish = s[WISHMASK]
    for v in range(1, 10):
        if (wish >> v) & 1:
            out[offsets[6] + v - 1] = 1.0
    tops, sizes, piles = offsets[7], offsets[8], offsets[9]
    for k in range(6):
        m = s[PILE_N + k]
        base = PILE + k * PILE_ROOM
        if m > 0:
            out[tops + s[base + m - 1]] = 1.0
        out[sizes + k] = m / 18
        for i in range(m):
            out[piles + s[base + i]] += 0.5
    blocked = s[BLOCKED]
    for k in range(6):
        if (blocked >> k) & 1:
            out[offsets[10] + k] = 1.0
    if phase == DRAW:
        out[offsets[11]] = s[DRAWS] / 2
    if phase == FINAL:
        out[offsets[12]] = s[LAYS] / 2
    out[offsets[13]] = s[CLOSED] / 10
    ender = s[ENDER]
    out[offsets[14] + ((ender - viewer) % n if ender >= 0 else 4)] = 1.0
    f = offsets[_NT:]
    table, block = f[len(OBS_PLAYER)], f[len(OBS_PLAYER) + 1]
    for k in range(n):
        seat = (viewer + k) % n
        at = table + k * block
        rows = at + f[0]
        for c in range(71):
            out[rows + c] = x[X_ROWS + seat * 71 + c] * 0.5
        prow = x[X_PROW + seat]
        for v in range(11):
            if (prow >> v) & 1:
                out[at + f[1] + v] = 1.0
        for col in range(5):
            r = seat * 5 + col
            length = s[RLEN + r]
            out[at + f[2] + col] = length / 29
            if length > 0:
                last = 11 if s[RCLOSED + r] > 0 else s[RLAST + r]
                out[at + f[3] + col * 12 + last] = 1.0
            d = s[RDIR + r]
            out[at + f[4] + col * 3 + (0 if d == 0 else 1 if d > 0 else 2)] = 1.0
        wishes = x[X_WISH + seat]
        for v in range(1, 10):
            if (wishes >> v) & 1:
                out[at + f[5] + v - 1] = 1.0
        out[at + f[6]] = score(s, seat) / 100.0
        out[at + f[7]] = s[HAND_N + seat] / HAND_SIZE
        known = at + f[8]
        for c in range(71):
            out[known + c] = x[X_KNOWN + seat * 71 + c] * 0.5


@njit(cache=True)
def deal_episode(
    s: np.ndarray,
    rng: np.ndarray,
    seed: np.uint64,
    index: int,
    episode: int,
    players: int,
    rules: np.ndarray,
    cards: np.ndarray,
    fixed_seat: int,
) -> int:
    """Deal episode ``episode`` of game ``index`` of a batch seeded ``seed`` into ``s`` (its
    own stream ``rng``: from the seed, the game's index and the episode, never the batch);
    return the learner's seat (``fixed_seat``, or drawn when it is -1; -1 in self-play, -2)."""
    seed_game(rng, seed, index)
    seed_game(rng, rng[0], episode)
    deal(s, players, rules, rng, cards)
    if fixed_seat == -1:
        return below(rng, players)
    return fixed_seat if fixed_seat >= 0 else -1


@njit(cache=True)
def _advance(
    s: np.ndarray,
    x: np.ndarray,
    rng: np.ndarray,
    seat: int,
    policies: np.ndarray,
    scratch: np.ndarray,
    trace: np.ndarray,
    at: int,
) -> int:
    """The seats not driven by the learner move (``policies`` by seat relative to the learner's)
    until the learner is to decide or the game is over; returns ``at`` plus the moves made
    (written to ``trace`` from ``at`` when it has room)."""
    n = s[NP]
    while s[PHASE] != OVER and seat >= 0 and s[CUR] != seat:
        m = legal(s, scratch)
        a = choose(s, scratch, m, policies[(s[CUR] - seat) % n], rng)
        track(s, x, a)
        apply(s, a)
        if trace.shape[0] > 0:
            trace[at] = a
        at += 1
    return at


@njit(cache=True)
def _start(
    b: int,
    states: np.ndarray,
    extras: np.ndarray,
    rngs: np.ndarray,
    episodes: np.ndarray,
    seats: np.ndarray,
    config: np.ndarray,
    rules: np.ndarray,
    seed: np.uint64,
    cards: np.ndarray,
    scratch: np.ndarray,
    trace: np.ndarray,
    at: int,
) -> int:
    """Deal game ``b``'s current episode and let the other seats move up to the learner."""
    s = states[b]
    rng = rngs[b : b + 1]
    players = config[0]
    seats[b] = deal_episode(s, rng, seed, b, episodes[b], players, rules, cards, config[1])
    extras[b, :] = 0
    return _advance(s, extras[b], rng, seats[b], config[2:], scratch, trace, at)


@njit(cache=True)
def _show(
    s: np.ndarray,
    x: np.ndarray,
    offsets: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    scratch: np.ndarray,
) -> None:
    """The seat to move's observation and legal mask."""
    observe(s, x, s[CUR], offsets, obs)
    mask[:] = 0
    for i in range(legal(s, scratch)):
        mask[scratch[i]] = 1


@njit(cache=True)
def env_reset(
    states: np.ndarray,
    extras: np.ndarray,
    rngs: np.ndarray,
    episodes: np.ndarray,
    seats: np.ndarray,
    config: np.ndarray,
    rules: np.ndarray,
    seed: np.uint64,
    offsets: np.ndarray,
    obs: np.ndarray,
    masks: np.ndarray,
    to_move: np.ndarray,
    trace: np.ndarray,
    trace_n: np.ndarray,
) -> None:
    """Deal every game of the batch (its episode ``episodes[b]``) and show the seat to move.
    ``config``: players, the learner's seat (-1: drawn per episode, -2: self-play), then the
    policy of each seat relative to the learner's (0 random, 1 greedy)."""
    cards = np.zeros(DECK_CARDS, dtype=np.int32)
    scratch = np.zeros(MAX_LEGAL, dtype=np.int32)
    for b in range(states.shape[0]):
        row = trace[b]
        at = _start(
            b, states, extras, rngs, episodes, seats, config, rules, seed, cards, scratch, row, 0
        )
        trace_n[b] = at
        _show(states[b], extras[b], offsets, obs[b], masks[b], scratch)
        to_move[b] = states[b, CUR]


@njit(cache=True)
def _rewards(s: np.ndarray, margin: bool, scores: np.ndarray, rewards: np.ndarray) -> None:
    """A finished game's scores and every seat's reward: ``win`` (1/k to each of k sharing
    the best score) or ``margin`` ((own - best other) / 100), as keltis.env.common pays."""
    n = s[NP]
    best = -1000
    for q in range(n):
        scores[q] = score(s, q)
        best = max(best, scores[q])
    winners = 0
    for q in range(n):
        if scores[q] == best:
            winners += 1
    for q in range(n):
        if margin:
            other = -1000
            for r in range(n):
                if r != q:
                    other = max(other, scores[r])
            rewards[q] = (scores[q] - other) / 100.0
        else:
            rewards[q] = 1.0 / winners if scores[q] == best else 0.0


@njit(cache=True)
def env_step(
    states: np.ndarray,
    extras: np.ndarray,
    rngs: np.ndarray,
    episodes: np.ndarray,
    seats: np.ndarray,
    config: np.ndarray,
    rules: np.ndarray,
    seed: np.uint64,
    offsets: np.ndarray,
    actions: np.ndarray,
    obs: np.ndarray,
    masks: np.ndarray,
    to_move: np.ndarray,
    rewards: np.ndarray,
    dones: np.ndarray,
    truncated: np.ndarray,
    scores: np.ndarray,
    final_obs: np.ndarray,
    final_seat: np.ndarray,
    trace: np.ndarray,
    trace_n: np.ndarray,
    trace_end: np.ndarray,
) -> int:
    """Apply ``actions[b]`` in every game ``b``, let the other seats move, and deal a finished
    game's next episode in place (its end: ``rewards``, ``dones``, ``truncated``, ``scores``,
    ``final_obs`` seen by ``final_seat``). ``config[-1]`` is the reward: 0 win, 1 margin.
    Returns -1, or the first game whose action is not legal (then nothing is changed)."""
    batch = states.shape[0]
    for b in range(batch):
        a = actions[b]
        if a < 0 or a >= masks.shape[1] or masks[b, a] == 0:
            return b
    cards = np.zeros(DECK_CARDS, dtype=np.int32)
    scratch = np.zeros(MAX_LEGAL, dtype=np.int32)
    n = config[0]
    margin = config[config.shape[0] - 1] == 1
    for b in range(batch):
        s = states[b]
        x = extras[b]
        row = trace[b]
        a = int(actions[b])
        p = s[CUR]
        track(s, x, a)
        apply(s, a)
        if row.shape[0] > 0:
            row[0] = a
        at = _advance(s, x, rngs[b : b + 1], seats[b], config[2:], scratch, row, 1)
        trace_end[b] = at
        done = s[PHASE] == OVER
        dones[b] = done
        truncated[b] = done and s[END] == END_TRUNCATED
        if not done:
            for q in range(n):
                rewards[b, q] = 0.0
        else:
            _rewards(s, margin, scores[b], rewards[b])
            seen_by = seats[b] if seats[b] >= 0 else p
            final_seat[b] = seen_by
            observe(s, x, seen_by, offsets, final_obs[b])
            episodes[b] += 1
            at = _start(
                b,
                states,
                extras,
                rngs,
                episodes,
                seats,
                config,
                rules,
                seed,
                cards,
                scratch,
                row,
                at,
            )
        trace_n[b] = at
        _show(s, x, offsets, obs[b], masks[b], scratch)
        to_move[b] = s[CUR]
    return -1
