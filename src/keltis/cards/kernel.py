"""Keltis: The Card Game (RULES.md C-1 … C-19) as numba kernels over one flat ``int32`` array.

The state of a game is one array (``new_state``) with the fields at the offsets below; the
decisions are the card game's action ids (``keltis.cards.actions``), so a legal list here and
``{ACTIONS.index(a) for a in CardState.legal_actions()}`` are the same set (the
differential test checks it at every step). Each rule is written once, in the kernels
``legal``, ``apply`` and ``score``; ``keltis.fast.driver`` plays, steps and shows whole games
with them (one driver for both games' kernels).

Cards are the reference's card codes (``keltis.core.card_codes``): number cards ``colour*11+value``,
closing cards ``55+colour``, point cards ``60+value``. Hands are unordered slots (the legal
list names each distinct card once, as the reference does).
"""

from __future__ import annotations

from dataclasses import fields
from math import sqrt
from typing import Any, Final

import numpy as np

from keltis.cards.actions import (
    CLAIM_BASE,
    CLAIM_IDS,
    DISCARD_BASE,
    DRAW_DECK,
    DRAW_PILE_BASE,
    LAY_ONTO_BASE,
    PASS_INDEX,
)
from keltis.cards.actions import CLAIM_FIRST as _CLAIM_FIRST
from keltis.cards.actions import CLAIM_SECOND as _CLAIM_SECOND
from keltis.cards.state import CardState, CardVariant
from keltis.core.gamestate import GameState
from keltis.core.outcome import EndReason
from keltis.fast._jit import kernel
from keltis.fast._rng import below

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

# -- action ids (keltis.cards.actions) ----------------------------------------------------
# Lays 0-70, point cards onto a row, discards, claims, pass, draws, in that order (the
# comparisons below rely on it). A claim's id is a table's: CLAIM_ID by value and the two
# cards' slots (slot: colour 0-4 of a number card, 5 for the point card), its cards by
# ``id - CLAIM_BASE`` in CLAIM_FIRST and CLAIM_SECOND.
CLAIM_ID: Final = np.array(CLAIM_IDS, dtype=np.int64)
CLAIM_FIRST: Final = np.array(_CLAIM_FIRST, dtype=np.int64)
CLAIM_SECOND: Final = np.array(_CLAIM_SECOND, dtype=np.int64)

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
#: Scratch room the batched env's driver (``keltis.fast.driver``) takes: a deck to shuffle, then
#: a legal list.
WORK: Final = DECK_CARDS + MAX_LEGAL
#: The cards known to be in each hand (taken from a discard pile, C-12; the medium policy
#: weighs discarding one): per seat, 2 bits of count per card code, 15 codes to a word.
KNOWN_WORDS: Final = 5


def _layout() -> dict[str, int]:
    fields = [
        ("NP", 1), ("CUR", 1), ("PHASE", 1), ("TURN", 1), ("END", 1), ("END_PENDING", 1),
        ("ENDER", 1), ("DRAWS", 1), ("BLOCKED", 1), ("LAYS", 1), ("CLOSED", 1),
        ("WISHMASK", 1), ("RULES", len(SWITCHES)), ("DECK_N", 1), ("HAND_N", 4),
        ("HAND", 4 * HAND_SIZE),
        ("DECK", DECK_CARDS), ("PILE_N", 6), ("PILE", 6 * PILE_ROOM), ("RLEN", 20),
        ("RLAST", 20), ("RDIR", 20), ("RCLOSED", 20), ("PROW", 4), ("WISH", 4),
        ("KNOWN", 4 * KNOWN_WORDS),
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
KNOWN: Final = _AT["KNOWN"]
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


def load_state(s: np.ndarray, state: GameState) -> None:
    """Copy what a reference card game holds beyond the hands, the draw and discard piles
    and the turn (``keltis.fast.setup.state_array`` copies those): the rows, point rows and
    wish stones, the turn's draws, blocked piles and final lays, the end under way, and the
    cards known in each hand."""
    assert isinstance(state, CardState)
    s[END_PENDING] = -1 if state.end_pending is None else tuple(EndReason).index(state.end_pending)
    s[ENDER] = state.ender
    s[DRAWS] = state.draws_left
    s[BLOCKED] = state.blocked
    s[LAYS] = state.lays_left
    s[CLOSED] = state.closed_rows
    s[WISHMASK] = state.wish_mask
    n = state.num_players
    s[RLEN : RLEN + 5 * n] = [len(laid) for row in state.rows for laid in row]
    s[RLAST : RLAST + 5 * n] = [v for row in state.last for v in row]
    s[RDIR : RDIR + 5 * n] = [d for row in state.dirs for d in row]
    s[RCLOSED : RCLOSED + 5 * n] = [c for row in state.closings for c in row]
    s[PROW : PROW + n] = [len(row) for row in state.point_rows]
    s[WISH : WISH + n] = [len(stones) for stones in state.wish_stones]
    for p in range(n):
        for card in state.known[p]:
            word = card // 15
            s[KNOWN + p * KNOWN_WORDS + word] += 1 << (2 * (card - word * 15))


def setup_extra(s: np.ndarray) -> dict[str, Any]:
    """A card game's explicit set-up has no entries beyond hands and cards."""
    return {}


@kernel()
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


@kernel()
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


@kernel(inline=True)
def _firsts(s: np.ndarray, p: int) -> int:
    """Bit ``i`` set where ``p``'s hand slot ``i`` holds the first copy of its card (the legal
    list names each distinct card once, in hand order)."""
    hb = HAND + p * HAND_SIZE
    low = 0  # cards 0-63 seen
    high = 0  # cards 64-70 seen
    firsts = 0
    for i in range(s[HAND_N + p]):
        c = s[hb + i]
        if c < 64:
            bit = 1 << c
            if not low & bit:
                low |= bit
                firsts |= 1 << i
        else:
            bit = 1 << (c - 64)
            if not high & bit:
                high |= bit
                firsts |= 1 << i
    return firsts


@kernel()
def _lays(s: np.ndarray, p: int, out: np.ndarray, n: int, final: bool, firsts: int) -> int:
    """Append the lays open to ``p`` (C-9-C-11; in the final phase C-15: existing rows only)
    with each distinct card (``firsts``: see ``_firsts``)."""
    hb = HAND + p * HAND_SIZE
    hn = s[HAND_N + p]
    for i in range(hn):
        if not (firsts >> i) & 1:
            continue
        c = s[hb + i]
        # each candidate is written, and counted where legal: no branch to mispredict
        out[n] = c
        if c < 55:
            col = c // 11
            v = c - col * 11
            r = p * 5 + col
            length = s[RLEN + r]
            d = s[RDIR + r]
            last = s[RLAST + r]
            open_row = (length > 0) & (s[RCLOSED + r] == 0)
            fits = (d == 0) | ((d > 0) & (v >= last)) | ((d < 0) & (v <= last))
            n += ((length == 0) & (not final)) | (open_row & fits)
        elif c < 60:
            r = p * 5 + c - 55
            n += (s[RLEN + r] > 0) & (s[RCLOSED + r] < 2)
        else:
            v = c - 60
            n += (not final) | (s[PROW + p] > 0)
            for col in range(5):
                r = p * 5 + col
                out[n] = LAY_ONTO_BASE + v * 5 + col
                n += (s[RLEN + r] > 0) & (s[RCLOSED + r] == 0) & (s[RLAST + r] == v)
    return n


@kernel()
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


@kernel(inline=True)
def legal(s: np.ndarray, out: np.ndarray) -> int:
    """Write the current player's legal decisions (the game's action ids) to ``out``; return
    how many (0 once the game is over)."""
    phase = s[PHASE]
    p = s[CUR]
    if phase == PLAY:
        firsts = _firsts(s, p)
        n = _lays(s, p, out, 0, False, firsts)
        hb = HAND + p * HAND_SIZE
        hn = s[HAND_N + p]
        wish = s[WISHMASK]
        # C-8: two cards of one value 1-9 whose wish stone is still there. Each slot's value
        # (4 bits; 0: the card cannot claim) and claim slot (3 bits), packed for the pairs.
        values = 0
        slots = 0
        for i in range(hn):
            a = s[hb + i]
            sa = CLAIM_SLOT[a]
            v = VALUE[a]
            if sa >= 0 and 1 <= v <= 9 and (wish >> v) & 1:
                values |= v << (4 * i)
                slots |= sa << (3 * i)
        first_claim = n
        for i in range(hn):
            v = (values >> (4 * i)) & 15
            if v == 0:
                continue
            sa = (slots >> (3 * i)) & 7
            for j in range(i + 1, hn):
                if (values >> (4 * j)) & 15 != v:
                    continue
                sb = (slots >> (3 * j)) & 7
                index = CLAIM_ID[(v - 1) * 36 + min(sa, sb) * 6 + max(sa, sb)]
                seen = False
                for k in range(first_claim, n):
                    if out[k] == index:
                        seen = True
                        break
                if not seen:
                    out[n] = index
                    n += 1
        for i in range(hn):  # C-7
            out[n] = DISCARD_BASE + s[hb + i]
            n += (firsts >> i) & 1
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
        n = _lays(s, p, out, 0, True, _firsts(s, p))
        out[n] = PASS_INDEX
        return n + 1
    return 0


# -- effects -------------------------------------------------------------------------------


@kernel(inline=True)
def known_count(s: np.ndarray, p: int, card: int) -> int:
    """Copies of ``card`` known to be in ``p``'s hand (taken from a discard pile)."""
    word = card // 15
    return (s[KNOWN + p * KNOWN_WORDS + word] >> (2 * (card - word * 15))) & 3


@kernel(inline=True)
def _take(s: np.ndarray, p: int, card: int) -> None:
    """``card`` leaves ``p``'s hand, and a known copy of it (if any) is no longer known."""
    word = card // 15
    at = KNOWN + p * KNOWN_WORDS + word
    shift = 2 * (card - word * 15)
    if (s[at] >> shift) & 3:
        s[at] -= 1 << shift
    hb = HAND + p * HAND_SIZE
    hn = s[HAND_N + p] - 1
    for i in range(hn + 1):
        if s[hb + i] == card:
            s[hb + i] = s[hb + hn]
            s[HAND_N + p] = hn
            return


@kernel(inline=True)
def _give(s: np.ndarray, p: int, card: int) -> None:
    hn = s[HAND_N + p]
    s[HAND + p * HAND_SIZE + hn] = card
    s[HAND_N + p] = hn + 1


@kernel()
def _to_pile(s: np.ndarray, card: int) -> int:
    k = PILE_OF[card]
    n = s[PILE_N + k]
    s[PILE + k * PILE_ROOM + n] = card
    s[PILE_N + k] = n + 1
    return k


@kernel()
def _finish(s: np.ndarray, reason: int) -> None:
    s[PHASE] = OVER
    s[END] = reason
    s[CUR] = -1
    s[DRAWS] = 0
    s[LAYS] = 0
    s[BLOCKED] = 0


@kernel()
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


@kernel()
def _end(s: np.ndarray, p: int, reason: int) -> None:
    """C-13 or C-14 ended the game in ``p``'s turn: on to the final lays."""
    s[TURN] += 1
    s[ENDER] = p
    s[END_PENDING] = reason
    s[DRAWS] = 0
    s[BLOCKED] = 0
    _final_from(s, (p + 1) % s[NP])


@kernel()
def _final_done(s: np.ndarray, p: int) -> None:
    s[LAYS] = 0
    if p == s[ENDER]:
        _finish(s, s[END_PENDING])
    else:
        _final_from(s, (p + 1) % s[NP])


@kernel()
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


@kernel(inline=True)
def apply(s: np.ndarray, a: int) -> None:
    """Carry out decision ``a`` (a legal action id of the game) for the current player."""
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
            card = s[PILE + k * PILE_ROOM + n]
            _give(s, p, card)
            word = card // 15
            s[KNOWN + p * KNOWN_WORDS + word] += 1 << (2 * (card - word * 15))
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
            first = CLAIM_FIRST[a - CLAIM_BASE]
            second = CLAIM_SECOND[a - CLAIM_BASE]
            v = VALUE[first]
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


@kernel(inline=True)
def score(s: np.ndarray, p: int) -> int:
    """Seat ``p``'s total (C-16-C-18), as if the game ended now."""
    total = s[PROW + p]
    for col in range(5):
        total += ROW_POINTS[min(s[RLEN + p * 5 + col], 9)]
    return total + WISH_POINTS[min(s[WISH + p], 5)]


# -- the medium policy (keltis.cards.policy, compiled) ---------------------------------------
#
# ``medium_scores`` gives every legal decision the score ``keltis.cards.policy.cards_scores``
# gives it, with the same float arithmetic in the same order (the proof in
# ``keltis.fast.medium_diff`` compares them at every decision). The weights come in as an
# array (``keltis.fast.tuning``): ``W_*`` name the index of each ``CardTuning`` field. A hand
# colour's values (the policy's sorted ``by_colour`` list) are packed cumulative counts, a
# *pack*: 4 bits per value v, how many of the values are v or less (so a count over a range
# of values is one subtraction, and a value comes or goes by adding or taking
# ``FROM_VALUE[v]``); the hand's values are counts, 4 bits per value (``values``). It reads
# what the player to move may know: its hand, the cards known in it, and the public rows,
# piles and stones.

#: ``keltis.cards.policy.CardTuning``'s weights, in the order the weights array holds them.
TUNING_FIELDS: Final = (
    "deck_draw_rate", "hand_share", "future_share", "lay_rate", "pair_share", "point_share",
    "gift_next", "gift_other", "deck_value", "open_margin", "close_margin", "known_discard",
    "spread",
)  # fmt: skip
W_DECK_DRAW_RATE: Final = 0
W_HAND_SHARE: Final = 1
W_FUTURE_SHARE: Final = 2
W_LAY_RATE: Final = 3
W_PAIR_SHARE: Final = 4
W_POINT_SHARE: Final = 5
W_GIFT_NEXT: Final = 6
W_GIFT_OTHER: Final = 7
W_DECK_VALUE: Final = 8
W_OPEN_MARGIN: Final = 9
W_CLOSE_MARGIN: Final = 10
W_KNOWN_DISCARD: Final = 11
W_SPREAD: Final = 12
#: How many weights. After them ``w`` is scratch room for one decision: ``choose`` keeps
#: the scores there (``MAX_LEGAL``), and ``medium_scores`` the numbers it uses for every
#: candidate, each worked out once: per colour the row's projection as it stands, the hand's
#: values and closing cards of it; per card code the loss when it leaves the hand unlaid and
#: its worth to the next players (``_S_*`` offsets; :data:`SCRATCH` numbers in all).
N_WEIGHTS: Final = 13
_S_BASE: Final = N_WEIGHTS + MAX_LEGAL
_S_PACK: Final = _S_BASE + 5
_S_CLOSERS: Final = _S_PACK + 5
_S_WITHOUT: Final = _S_CLOSERS + 5
_S_GIFT: Final = _S_WITHOUT + 71
SCRATCH: Final = _S_GIFT + 71

#: _ROOM_UP[v]: copies of the values v..10 of one colour; _ROOM_DOWN[v]: of 0..v.
_COPIES: Final = (1, 1, 1, 2, 2, 2, 2, 2, 1, 1, 1)
ROOM_UP: Final = np.array([sum(_COPIES[v:]) for v in range(11)], dtype=np.int64)
ROOM_DOWN: Final = np.array([sum(_COPIES[: v + 1]) for v in range(11)], dtype=np.int64)
ROW_FLOATS: Final = ROW_POINTS.astype(np.float64)
WISH_FLOATS: Final = WISH_POINTS.astype(np.float64)


@kernel(inline=True)
def _row_points(x: float) -> float:
    if x <= 0.0:
        return 0.0
    if x >= 9.0:
        return 10.0
    i = int(x)
    low = ROW_FLOATS[i]
    return low + (ROW_FLOATS[i + 1] - low) * (x - i)


@kernel(inline=True)
def _wish_points(x: float) -> float:
    if x >= 5.0:
        return 10.0
    i = int(x)
    low = WISH_FLOATS[i]
    return low + (WISH_FLOATS[i + 1] - low) * (x - i)


@kernel(inline=True)
def _room(last: int, direction: int) -> int:
    if direction > 0:
        return ROOM_UP[last]
    if direction < 0:
        return ROOM_DOWN[last]
    up = ROOM_UP[last]
    down = ROOM_DOWN[last]
    return up if up > down else down


#: FROM_VALUE[v]: what one value v adds to a pack (1 in the fields of v and above).
FROM_VALUE: Final = np.array([sum(1 << (4 * f) for f in range(v, 11)) for v in range(11)])


@kernel(inline=True)
def _count(pack: int, low: int, high: int) -> int:
    """How many values ``low``..``high`` a pack holds."""
    below = (pack >> (4 * (low - 1))) & 15 if low > 0 else 0
    return ((pack >> (4 * high)) & 15) - below


@kernel()
def _lowest(pack: int) -> int:
    for v in range(11):
        if (pack >> (4 * v)) & 15:
            return v
    return -1


@kernel()
def _highest(pack: int) -> int:
    total = (pack >> 40) & 15
    for v in range(11):
        if (pack >> (4 * v)) & 15 == total:
            return v
    return -1


@kernel(inline=True)
def _fit_count(pack: int, last: int, direction: int) -> int:
    if direction > 0:
        return _count(pack, last, 10)
    if direction < 0:
        return _count(pack, 0, last)
    up = _count(pack, last, 10)
    down = _count(pack, 0, last)
    return up if up > down else down


@kernel()
def _hand(s: np.ndarray, p: int, w: np.ndarray) -> None:
    """Write ``p``'s hand by colour to the scratch room: its values as a pack
    (``_S_PACK``) and its closing cards (``_S_CLOSERS``)."""
    for c in range(5):
        w[_S_PACK + c] = 0.0
        w[_S_CLOSERS + c] = 0.0
    hb = HAND + p * HAND_SIZE
    for i in range(s[HAND_N + p]):
        card = s[hb + i]
        if card < 55:
            c = card // 11
            w[_S_PACK + c] += FROM_VALUE[card - c * 11]
        elif card < 60:
            w[_S_CLOSERS + card - 55] += 1.0


@kernel(inline=True)
def _pack(w: np.ndarray, colour: int) -> int:
    """The hand's values of ``colour``, as a pack (written by ``_hand``)."""
    return int(w[_S_PACK + colour])


@kernel(inline=True)
def _closers(w: np.ndarray, colour: int) -> int:
    return int(w[_S_CLOSERS + colour])


@kernel()
def _values(s: np.ndarray, p: int) -> int:
    """The values of ``p``'s number and point cards, 4 bits of count per value."""
    values = 0
    hb = HAND + p * HAND_SIZE
    for i in range(s[HAND_N + p]):
        v = VALUE[s[hb + i]]
        if v >= 0:
            values += 1 << (4 * v)
    return values


@kernel()
def _pairs(s: np.ndarray, values: int) -> int:
    """Values 1-9 held twice or more whose wish stone is still there."""
    wishes = s[WISHMASK]
    n = 0
    for v in range(1, 10):
        if ((values >> (4 * v)) & 15) >= 2 and (wishes >> v) & 1:
            n += 1
    return n


@kernel(inline=True)
def _pairs_after(s: np.ndarray, values: int, pairs: int, v: int, change: int) -> int:
    """``_pairs`` once ``change`` copies of value ``v`` (-1: a closing card, no value) join
    the hand or leave it, from the hand's ``values`` and its ``pairs``: only ``v``'s count
    changes, so only its pair can come or go."""
    if v < 1 or v > 9 or not (s[WISHMASK] >> v) & 1:
        return pairs
    before = (values >> (4 * v)) & 15
    after = before + change
    return pairs - (1 if before >= 2 else 0) + (1 if after >= 2 else 0)


@kernel()
def _points(s: np.ndarray, p: int) -> int:
    n = 0
    hb = HAND + p * HAND_SIZE
    for i in range(s[HAND_N + p]):
        n += s[hb + i] >= 60
    return n


@kernel()
def _turns_left(s: np.ndarray, w: np.ndarray) -> float:
    t = s[DECK_N] / (s[NP] * w[W_DECK_DRAW_RATE])
    closed = s[CLOSED]
    if closed >= 4:
        return min(t, 1.5)
    if closed >= 3:
        return min(t, 4.0)
    return t


@kernel()
def _shares(s: np.ndarray, p: int, w: np.ndarray, t: float) -> tuple[float, float]:
    """The policy's ``_Me.fh`` and ``_Me.fut`` for ``p``."""
    fut = max(0.0, t - 1.0) * w[W_FUTURE_SHARE] / 101.0
    supply = 0.0
    for c in range(5):
        r = p * 5 + c
        if s[RCLOSED + r]:
            continue
        pack = _pack(w, c)
        if not s[RLEN + r]:
            n = _count(pack, 0, 10)
            if n >= 3:
                supply += n + fut * max(ROOM_UP[_lowest(pack)], ROOM_DOWN[_highest(pack)])
            continue
        supply += _fit_count(pack, s[RLAST + r], s[RDIR + r]) + fut * _room(
            s[RLAST + r], s[RDIR + r]
        )
    share = w[W_HAND_SHARE]
    if supply > 0.0:
        share = min(share, t * w[W_LAY_RATE] / supply)
    return share, fut * share


@kernel(inline=True)
def _spread(w: np.ndarray, steps: float, hand: float, future: float) -> float:
    spread = w[W_SPREAD] * sqrt(future + 0.3 * hand)
    return 0.5 * _row_points(steps) + 0.25 * (
        _row_points(steps - spread) + _row_points(steps + spread)
    )


@kernel(inline=True)
def _row(
    w: np.ndarray,
    fh: float,
    fut: float,
    closers: int,
    count: int,
    last: int,
    direction: int,
    closed: int,
    pack: int,
) -> float:
    """The policy's ``_Me.row``: projected points of a row (``pack``: the hand's values of
    its colour, ``closers``: the hand's closing cards of it)."""
    if closed:
        extra = fh if closed == 1 and closers else 0.0
        return _row_points(count + extra)
    if count == 0:
        n = _count(pack, 0, 10)
        if not n:
            return 0.0
        hand = fh * n
        future = fut * max(ROOM_UP[_lowest(pack)], ROOM_DOWN[_highest(pack)])
        x = _spread(w, hand + future, hand, future)
        return x if x > 0.0 else 0.0
    hand = fh * (_fit_count(pack, last, direction) + closers)
    future = fut * _room(last, direction)
    return _spread(w, count + hand + future, hand, future)


@kernel()
def _base_row(
    s: np.ndarray, p: int, w: np.ndarray, fh: float, fut: float, c: int, pack: int, closers: int
) -> float:
    """``_row`` of ``p``'s row of colour ``c`` as it stands."""
    r = p * 5 + c
    return _row(w, fh, fut, closers, s[RLEN + r], s[RLAST + r], s[RDIR + r], s[RCLOSED + r], pack)


@kernel(inline=True)
def _extras(
    s: np.ndarray, p: int, w: np.ndarray, fh: float, points: int, pairs: int, stones: int
) -> float:
    return (
        s[PROW + p]
        + w[W_POINT_SHARE] * fh * points
        + _wish_points(stones + w[W_PAIR_SHARE] * fh * pairs)
    )


@kernel()
def _without(s: np.ndarray, p: int, w: np.ndarray, fh: float, fut: float, card: int) -> float:
    """Change of a colour row's projection when ``card`` leaves the hand unlaid."""
    if card >= 60:
        return 0.0
    c = card - 55 if card >= 55 else card // 11
    pack = _pack(w, c)
    closers = _closers(w, c)
    base = w[_S_BASE + c]
    if card >= 55:
        return _base_row(s, p, w, fh, fut, c, pack, closers - 1) - base
    return _base_row(s, p, w, fh, fut, c, pack - FROM_VALUE[card - c * 11], closers) - base


@kernel()
def _gift(s: np.ndarray, p: int, card: int, w: np.ndarray) -> float:
    """How much a discard of ``card`` would help the later players (their public rows)."""
    n = s[NP]
    if card >= 60:
        return 0.3 * w[W_GIFT_NEXT]
    worst = 0.0
    closing = card >= 55
    colour = card - 55 if closing else card // 11
    value = -1 if closing else card - colour * 11
    for k in range(1, n):
        o = (p + k) % n
        r = o * 5 + colour
        count = s[RLEN + r]
        if not count or s[RCLOSED + r] >= 2:
            continue
        if closing:
            gift = 0.5
        else:
            if s[RCLOSED + r]:
                continue
            last = s[RLAST + r]
            d = s[RDIR + r]
            if (d > 0 and value < last) or (d < 0 and value > last):
                continue
            gap = value - last if value >= last else last - value
            closeness = 1.0 if gap <= 1 else (0.6 if gap <= 3 else 0.25)
            step = ROW_FLOATS[min(count + 1, 9)] - ROW_FLOATS[min(count, 9)]
            gift = closeness * (0.5 + 0.5 * step)
        gift *= w[W_GIFT_NEXT] if k == 1 else w[W_GIFT_OTHER]
        if gift > worst:
            worst = gift
    return worst


@kernel()
def _ends_with_win(s: np.ndarray, p: int, gain: float) -> bool:
    """Whether ``p`` would lead (or share the lead) if the game ended now, ``gain`` added."""
    mine = score(s, p) + gain
    wins = True
    for o in range(s[NP]):
        if o != p and not mine >= score(s, o) + 1:
            wins = False
    return wins


@kernel()
def _claim_cards(a: int) -> tuple[int, int]:
    return CLAIM_FIRST[a - CLAIM_BASE], CLAIM_SECOND[a - CLAIM_BASE]


@kernel()
def _claim_gain(
    s: np.ndarray,
    p: int,
    w: np.ndarray,
    fh: float,
    a: int,
    values: int,
    pairs: int,
    points: int,
    stones: int,
    base_extras: float,
) -> float:
    """The score of claim ``a`` (two cards of one value for a wish stone), in ``_score_play``'s
    terms: the cards it gives up, the extras after it, the gifts it leaves, a card drawn."""
    card, second = _claim_cards(a)
    gain = w[_S_WITHOUT + card] + w[_S_WITHOUT + second]
    gain += _extras(
        s,
        p,
        w,
        fh,
        points - (card >= 60) - (second >= 60),
        _pairs_after(s, values, pairs, VALUE[card], -2),  # two cards of one value
        stones + 1,
    )
    gain -= base_extras
    gain -= w[_S_GIFT + card] + w[_S_GIFT + second]
    gain += w[W_DECK_VALUE]
    return gain


@kernel()
def _discard_gain(
    s: np.ndarray,
    p: int,
    w: np.ndarray,
    fh: float,
    card: int,
    values: int,
    pairs: int,
    points: int,
    stones: int,
    base_extras: float,
) -> float:
    """The score of discarding ``card``, in ``_score_play``'s terms."""
    gain = w[_S_WITHOUT + card] - w[_S_GIFT + card]
    if known_count(s, p, card):
        gain -= w[W_KNOWN_DISCARD]
    if card >= 60 or card < 55:
        gain += (
            _extras(
                s,
                p,
                w,
                fh,
                points - (card >= 60),
                _pairs_after(s, values, pairs, VALUE[card], -1),
                stones,
            )
            - base_extras
        )
    return gain


@kernel()
def _score_play(s: np.ndarray, out: np.ndarray, n: int, w: np.ndarray, scores: np.ndarray) -> None:
    p = s[CUR]
    _hand(s, p, w)
    fh, fut = _shares(s, p, w, _turns_left(s, w))
    for c in range(5):  # each row's projection as it stands
        w[_S_BASE + c] = _base_row(s, p, w, fh, fut, c, _pack(w, c), _closers(w, c))
    hb = HAND + p * HAND_SIZE
    for i in range(s[HAND_N + p]):  # what claims and discards ask for, once per card
        card = s[hb + i]
        w[_S_WITHOUT + card] = _without(s, p, w, fh, fut, card)
        w[_S_GIFT + card] = _gift(s, p, card, w)
    values = _values(s, p)
    points = _points(s, p)
    pairs = _pairs(s, values)
    stones = s[WISH + p]
    base_extras = _extras(s, p, w, fh, points, pairs, stones)
    for i in range(n):
        a = out[i]
        if a >= CLAIM_BASE:
            gain = _claim_gain(s, p, w, fh, a, values, pairs, points, stones, base_extras)
        elif a >= DISCARD_BASE:
            gain = _discard_gain(
                s, p, w, fh, a - DISCARD_BASE, values, pairs, points, stones, base_extras
            )
        elif a >= 60:  # a point card: on a row ending in its value, or on the point row
            v = (a - LAY_ONTO_BASE) // 5 if a >= LAY_ONTO_BASE else a - 60
            extras = (
                _extras(s, p, w, fh, points - 1, _pairs_after(s, values, pairs, v, -1), stones)
                - base_extras
            )
            if a >= LAY_ONTO_BASE:
                c = a - LAY_ONTO_BASE - v * 5
                r = p * 5 + c
                pack = _pack(w, c)
                closers = _closers(w, c)
                now = _row(w, fh, fut, closers, s[RLEN + r] + 1, s[RLAST + r], s[RDIR + r], 0, pack)
                gain = now - w[_S_BASE + c] + extras
            else:
                gain = 1.0 + extras
        elif a >= 55:  # a closing card
            c = a - 55
            r = p * 5 + c
            pack = _pack(w, c)
            closers = _closers(w, c)
            closings = s[RCLOSED + r]
            now = _row(
                w, fh, fut, closers - 1, s[RLEN + r] + 1, s[RLAST + r], s[RDIR + r],
                closings + 1, pack,
            )  # fmt: skip
            base = w[_S_BASE + c]
            gain = now - base - w[W_CLOSE_MARGIN]
            if not closings and s[CLOSED] + 1 >= 5:
                gain += 1000.0 if _ends_with_win(s, p, now - base) else -1000.0
        else:  # a number card
            c = a // 11
            v = a - c * 11
            r = p * 5 + c
            pack = _pack(w, c)
            closers = _closers(w, c)
            rest = pack - FROM_VALUE[v]
            extras = (
                _extras(s, p, w, fh, points, _pairs_after(s, values, pairs, v, -1), stones)
                - base_extras
            )
            count = s[RLEN + r]
            if count == 0:
                now = _row(w, fh, fut, closers, 1, v, 0, 0, rest) - w[W_OPEN_MARGIN]
            else:
                d = s[RDIR + r]
                last = s[RLAST + r]
                if d == 0 and v != last:
                    d = 1 if v > last else -1
                now = _row(w, fh, fut, closers, count + 1, v, d, 0, rest)
            gain = now - w[_S_BASE + c] + extras
        scores[i] = gain


@kernel()
def _score_draw(s: np.ndarray, out: np.ndarray, n: int, w: np.ndarray, scores: np.ndarray) -> None:
    p = s[CUR]
    _hand(s, p, w)
    fh, fut = _shares(s, p, w, _turns_left(s, w))
    values = _values(s, p)
    points = _points(s, p)
    stones = s[WISH + p]
    held = _pairs(s, values)
    before = _extras(s, p, w, fh, points, held, stones)
    for i in range(n):
        a = out[i]
        if a == DRAW_DECK:
            gain = w[W_DECK_VALUE]
            if s[DECK_N] == 1:  # C-14: drawing the last card ends the game
                gain = 1000.0 if _ends_with_win(s, p, 0.0) else -1000.0
            scores[i] = gain
            continue
        k = a - DRAW_PILE_BASE
        card = s[PILE + k * PILE_ROOM + s[PILE_N + k] - 1]
        face = VALUE[card]
        pairs = _pairs_after(s, values, held, face, 1)
        if k == 5:
            gain = _extras(s, p, w, fh, points + 1, pairs, stones) - before
        elif card >= 55:
            c = card - 55
            pack = _pack(w, c)
            closers = _closers(w, c)
            old = _base_row(s, p, w, fh, fut, c, pack, closers)
            gain = _base_row(s, p, w, fh, fut, c, pack, closers + 1) - old
        else:
            c = card // 11
            pack = _pack(w, c)
            closers = _closers(w, c)
            old = _base_row(s, p, w, fh, fut, c, pack, closers)
            gain = _base_row(s, p, w, fh, fut, c, pack + FROM_VALUE[face], closers) - old
            gain += _extras(s, p, w, fh, points, pairs, stones) - before
        scores[i] = gain


@kernel()
def _score_final(s: np.ndarray, out: np.ndarray, n: int, scores: np.ndarray) -> None:
    p = s[CUR]
    for i in range(n):
        a = out[i]
        if a == PASS_INDEX:
            scores[i] = 0.0
            continue
        if 60 <= a < LAY_ONTO_BASE:
            scores[i] = 1.0
            continue
        c = (a - LAY_ONTO_BASE) % 5 if a >= LAY_ONTO_BASE else a - 55 if a >= 55 else a // 11
        count = s[RLEN + p * 5 + c]
        gain = ROW_FLOATS[min(count + 1, 9)] - ROW_FLOATS[min(count, 9)]
        scores[i] = gain + 0.01


@kernel()
def medium_scores(
    s: np.ndarray, out: np.ndarray, n: int, w: np.ndarray, scores: np.ndarray
) -> None:
    """Write into ``scores[i]`` the medium policy's score of the legal decision ``out[i]``
    (``i < n``) of the player to move: ``keltis.cards.policy.cards_scores``' number for
    it under the weights ``w`` (``W_*`` order)."""
    phase = s[PHASE]
    if phase == PLAY:
        _score_play(s, out, n, w, scores)
    elif phase == DRAW:
        _score_draw(s, out, n, w, scores)
    elif phase == FINAL:
        _score_final(s, out, n, scores)


@kernel()
def projection(s: np.ndarray, w: np.ndarray, out: np.ndarray) -> None:
    """Write into ``out[p]`` every seat's projected final score under weights ``w`` (and the
    scratch room after them): the point row, the wish stones and the pairs to claim, and each
    row's projection from the seat's own hand (the number
    ``keltis.cards.policy.cards_projection`` gives; a search judges its cut-off playouts by
    it)."""
    t = _turns_left(s, w)
    for p in range(s[NP]):
        _hand(s, p, w)
        fh, fut = _shares(s, p, w, t)
        total = _extras(s, p, w, fh, _points(s, p), _pairs(s, _values(s, p)), s[WISH + p])
        for c in range(5):
            total += _base_row(s, p, w, fh, fut, c, _pack(w, c), _closers(w, c))
        out[p] = total


@kernel()
def _best(out: np.ndarray, n: int, scores: np.ndarray, rng: np.ndarray) -> int:
    """The best-scored decision, ties (within 1e-9, as ``keltis.core.policy.best_scored``)
    broken uniformly."""
    best = scores[0]
    for i in range(1, n):
        if scores[i] > best:
            best = scores[i]
    ties = 0
    for i in range(n):
        ties += scores[i] >= best - 1e-9
    pick = below(rng, ties) if ties > 1 else 0
    for i in range(n):
        if scores[i] >= best - 1e-9:
            if pick == 0:
                return out[i]
            pick -= 1
    return out[0]


# -- policies and whole games --------------------------------------------------------------


@kernel(inline=True)
def choose(
    s: np.ndarray, out: np.ndarray, n: int, policy: int, rng: np.ndarray, w: np.ndarray
) -> int:
    """Policy 0: uniform over the legal list. Policy 1: greedy, as the project's greedy bot
    plays the card game: a lay if there is one (uniform among lays), else uniform. Policy 2:
    medium, the heuristic bot's choice (``medium_scores`` under the weights ``w``, which
    keeps the scores after the ``N_WEIGHTS`` weights; the best, ties uniform)."""
    if policy == 0 or n == 1:
        return out[below(rng, n)]
    if policy == 2:
        scores = w[N_WEIGHTS : N_WEIGHTS + n]
        medium_scores(s, out, n, w, scores)
        return _best(out, n, scores, rng)
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


# -- the batched learning environment (keltis.fast.BatchEnv) ---------------------------------
#
# The observation (keltis.env.encode, keltis.cards.encoding) needs a few things the rules'
# state does not keep: which cards lie in each seat's rows, the point cards of its point row,
# the wish stones it claimed and the cards known in its hand (taken from a discard pile).
# ``track`` keeps them in a second array (``X_SIZE`` small numbers per game, ``int8``), called
# before each ``apply``; ``observe`` writes the observation of one seat from both arrays.
#
# A game's observation row is kept up to date rather than written anew at every step (what
# that saves: docs/performance.md). ``X_VIEWER`` says whose view the row holds; ``track``
# changes its card counts as cards move (hand, piles, rows, known cards), and ``_show``
# rewrites only the small fields (``_small``: the table's, the player blocks of the seats that
# moved and in them the rows laid on) and the pile tops that changed. A row of another seat,
# or of none (-1: a new deal), is written whole by ``observe``.

X_ROWS: Final = 0  # per seat, 71 counts: copies of each card in its colour rows
X_KNOWN: Final = 4 * 71  # per seat, 71 counts: copies known in its hand
X_PROW: Final = 8 * 71  # per seat, 11 flags: the values in its point row
X_WISH: Final = X_PROW + 4 * 11  # per seat, 10 flags: the wish stones (1-9) it claimed
X_TOPS: Final = X_WISH + 4 * 10  # per pile, the top card the observation row shows (-1: none)
X_VIEWER: Final = X_TOPS + 6  # the seat whose view the observation row holds (-1: none)
X_DIRTY: Final = X_VIEWER + 1  # per seat, 1 where its player block changed since shown
X_MOVED: Final = X_DIRTY + 4  # per pile, 1 where it got or lost a card since shown
X_LAID: Final = X_MOVED + 6  # per seat and colour row, 1 where a card was laid since shown
X_SIZE: Final = X_LAID + 20

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
# where ``offsets`` holds each field's offset (a player field's within its block)
_PHASE, _TO_MOVE, _TURN, _HAND, _DECK, _REMOVED, _WISH_ROW, _TOPS = range(8)
_SIZES, _PILES, _BLOCKED, _DRAWS, _LAYS, _CLOSED, _ENDER = range(8, _NT)
_ROWS, _POINT_ROW, _LENGTHS, _LAST, _DIRS, _WISHES, _SCORE, _HAND_SIZE, _KNOWN = range(
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
    at = X_KNOWN + p * 71 + card
    known = x[at] > 0
    if known:
        x[at] -= 1
    v = x[X_VIEWER]
    if v >= 0:
        if p == v:
            out[offsets[_HAND] + card] -= 0.5
        if known:
            out[_block(s, v, offsets, p) + offsets[_KNOWN] + card] -= 0.5


@kernel(inline=True)
def _laid(
    s: np.ndarray, x: np.ndarray, p: int, card: int, offsets: np.ndarray, out: np.ndarray
) -> None:
    """``p`` laid ``card`` in a colour row."""
    x[X_ROWS + p * 71 + card] += 1
    v = x[X_VIEWER]
    if v >= 0:
        out[_block(s, v, offsets, p) + offsets[_ROWS] + card] += 0.5


@kernel(inline=True)
def _discarded(x: np.ndarray, card: int, offsets: np.ndarray, out: np.ndarray) -> None:
    """``card`` went onto its discard pile (its top is shown by ``_show``)."""
    x[X_MOVED + PILE_OF[card]] = 1
    if x[X_VIEWER] >= 0:
        out[offsets[_PILES] + card] += 0.5


@kernel()
def track(s: np.ndarray, x: np.ndarray, a: int, offsets: np.ndarray, out: np.ndarray) -> None:
    """Update the observation's extra counters ``x`` for decision ``a``, before ``apply``, and
    the card counts of the observation row ``out`` (of seat ``x[X_VIEWER]``, if any)."""
    p = s[CUR]
    v = x[X_VIEWER]
    x[X_DIRTY + p] = 1
    if s[PHASE] == DRAW:
        if a == DRAW_DECK:
            card = s[DECK + s[DECK_N] - 1]
        else:
            k = a - DRAW_PILE_BASE
            card = s[PILE + k * PILE_ROOM + s[PILE_N + k] - 1]
            x[X_KNOWN + p * 71 + card] += 1
            x[X_MOVED + k] = 1
            if v >= 0:
                out[offsets[_PILES] + card] -= 0.5
                out[_block(s, v, offsets, p) + offsets[_KNOWN] + card] += 0.5
        if p == v:
            out[offsets[_HAND] + card] += 0.5
        return
    if a == PASS_INDEX:
        return
    if a < LAY_ONTO_BASE:
        if a >= 60:
            x[X_PROW + p * 11 + a - 60] = 1
        else:
            _laid(s, x, p, a, offsets, out)
            x[X_LAID + p * 5 + (a // 11 if a < 55 else a - 55)] = 1
        _leaves(s, x, p, a, offsets, out)
    elif a < DISCARD_BASE:
        card = 60 + (a - LAY_ONTO_BASE) // 5
        _laid(s, x, p, card, offsets, out)
        x[X_LAID + p * 5 + (a - LAY_ONTO_BASE) % 5] = 1
        _leaves(s, x, p, card, offsets, out)
    elif a < CLAIM_BASE:
        card = a - DISCARD_BASE
        _leaves(s, x, p, card, offsets, out)
        _discarded(x, card, offsets, out)
    else:
        first = CLAIM_FIRST[a - CLAIM_BASE]
        second = CLAIM_SECOND[a - CLAIM_BASE]
        value = VALUE[first]
        _leaves(s, x, p, first, offsets, out)
        _leaves(s, x, p, second, offsets, out)
        _discarded(x, first, offsets, out)
        _discarded(x, second, offsets, out)
        x[X_WISH + p * 10 + value] = 1


@kernel()
def _small(
    s: np.ndarray, x: np.ndarray, viewer: int, offsets: np.ndarray, out: np.ndarray, every: bool
) -> None:
    """Write the observation's small fields (all but the card counts and the pile tops), each
    whole: the part of ``viewer``'s observation that ``track`` does not keep up to date. The
    player blocks: ``every`` one, or those of the seats that moved since (``X_DIRTY``, cleared
    here) with their rows laid on since (``X_LAID``, cleared here)."""
    n = s[NP]
    phase = s[PHASE]
    one_hot = out[offsets[_PHASE] : offsets[_PHASE] + 4]
    for i in range(4):
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
    wish = s[WISHMASK]
    bits = out[offsets[_WISH_ROW] : offsets[_WISH_ROW] + 9]
    for v in range(9):
        bits[v] = (wish >> (v + 1)) & 1
    sizes = out[offsets[_SIZES] : offsets[_SIZES] + 6]
    for k in range(6):
        sizes[k] = s[PILE_N + k] / 18
    blocked = s[BLOCKED]
    bits = out[offsets[_BLOCKED] : offsets[_BLOCKED] + 6]
    for k in range(6):
        bits[k] = (blocked >> k) & 1
    out[offsets[_DRAWS]] = s[DRAWS] / 2 if phase == DRAW else 0.0
    out[offsets[_LAYS]] = s[LAYS] / 2 if phase == FINAL else 0.0
    out[offsets[_CLOSED]] = s[CLOSED] / 10
    one_hot = out[offsets[_ENDER] : offsets[_ENDER] + 5]
    for i in range(5):
        one_hot[i] = 0.0
    ender = s[ENDER]
    one_hot[(ender - viewer + n) % n if ender >= 0 else 4] = 1.0
    for seat in range(n):
        if not every:
            if x[X_DIRTY + seat] == 0:
                continue
            x[X_DIRTY + seat] = 0
        o = out[_block(s, viewer, offsets, seat) :]
        flags = o[offsets[_POINT_ROW] : offsets[_POINT_ROW] + 11]
        for v in range(11):
            flags[v] = x[X_PROW + seat * 11 + v]
        for col in range(5):  # the rows laid on since shown, or every row
            r = seat * 5 + col
            if not every:
                if x[X_LAID + r] == 0:
                    continue
                x[X_LAID + r] = 0
            length = s[RLEN + r]
            o[offsets[_LENGTHS] + col] = length / 29
            last = o[offsets[_LAST] + col * 12 : offsets[_LAST] + col * 12 + 12]
            for i in range(12):
                last[i] = 0.0
            if length > 0:
                last[11 if s[RCLOSED + r] > 0 else s[RLAST + r]] = 1.0
            direction = o[offsets[_DIRS] + col * 3 : offsets[_DIRS] + col * 3 + 3]
            d = s[RDIR + r]
            direction[0] = 1.0 if d == 0 else 0.0
            direction[1] = 1.0 if d > 0 else 0.0
            direction[2] = 1.0 if d < 0 else 0.0
        flags = o[offsets[_WISHES] : offsets[_WISHES] + 9]
        for v in range(9):
            flags[v] = x[X_WISH + seat * 10 + v + 1]
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
    hand = out[offsets[_HAND] : offsets[_HAND] + 71]
    for i in range(s[HAND_N + viewer]):
        hand[s[HAND + viewer * HAND_SIZE + i]] += 0.5
    tops = out[offsets[_TOPS] : offsets[_TOPS] + 71]
    piles = out[offsets[_PILES] : offsets[_PILES] + 71]
    for k in range(6):
        m = s[PILE_N + k]
        pile = s[PILE + k * PILE_ROOM : PILE + k * PILE_ROOM + m]
        if m > 0:
            tops[pile[m - 1]] = 1.0
        for i in range(m):
            piles[pile[i]] += 0.5
    for seat in range(s[NP]):
        o = out[_block(s, viewer, offsets, seat) :]
        rows = o[offsets[_ROWS] : offsets[_ROWS] + 71]
        known = o[offsets[_KNOWN] : offsets[_KNOWN] + 71]
        counts = x[X_ROWS + seat * 71 : X_ROWS + seat * 71 + 71]
        for c in range(71):
            rows[c] = counts[c] * np.float32(0.5)
        counts = x[X_KNOWN + seat * 71 : X_KNOWN + seat * 71 + 71]
        for c in range(71):
            known[c] = counts[c] * np.float32(0.5)
    _small(s, x, viewer, offsets, out, True)


@kernel(inline=True)
def _all_shown(x: np.ndarray) -> None:
    """The row was written whole: no seat's block, and no row, is waiting to be shown."""
    for i in range(4):
        x[X_DIRTY + i] = 0
    for i in range(20):
        x[X_LAID + i] = 0


@kernel()
def _shown(s: np.ndarray, x: np.ndarray, offsets: np.ndarray, obs: np.ndarray, fresh: bool) -> None:
    """Show the tops of the piles that changed since the row showed them (``fresh``: the row
    was just written whole): remember what the row shows."""
    tops = obs[offsets[_TOPS] : offsets[_TOPS] + 71]
    for k in range(6):
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
