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
