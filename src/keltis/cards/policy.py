"""The card game's heuristic: a sensible human strategy, as a fast policy over a state.

Like the board game's heuristic (``keltis.board.policy``) it reads only what the player
to move may know — public rows, piles, wish stones, deck size, closed rows and that player's
own hand — so it gives the same answer on any state consistent with the player's view.

How it plays (see ``docs/bots.md``):

* **Projection.** Each colour row is valued by the number of cards it is expected to end with
  (C-16: -4 … 10): the cards laid, plus the hand cards that still fit its direction and the
  cards still to come that would fit, both scaled so that all rows together do not expect more
  cards than there are turns left. An unopened row is worth its projection only if that is
  positive: a row is opened only with a hand that can carry it past the minus counts. Wish
  stones are valued by the table (C-18) at the stones held plus the pairs in hand that could
  still claim one; point cards in hand by the point each will bring.
* **Play.** Every lay, discard and claim is scored by how it changes that projection: laying a
  card that skips values kills the hand cards and future cards in between, so the bot lays the
  closest card and opens a row with the card at one end of its holding (which chooses
  ascending or descending from the hand). A point card goes on the end of a row when its value
  matches, else on the point row. A claim weighs the wish stone against the two cards it
  costs. A closing card is laid when its row has little left to gain, and never when it
  would end the game (the fifth closed row, C-13) unless the bot would then win. Discards add
  a penalty for cards a later player's rows would take (the next player weighs most).
* **Draw.** A discard pile's top card is taken when it adds more to the projection than an
  unknown card from the draw pile would.
* **End.** The expected number of turns left shrinks with the deck and the closed rows; as it
  shrinks, cards in hand and to come are worth less, so the bot stops opening rows and lays
  what fits. In the final phase (C-15) it lays the two cards that add most points.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from math import sqrt
from typing import Final, cast

from keltis.cards.rewind import rewind
from keltis.cards.state import (
    CLOSED_ROWS_TO_END,
    DRAW,
    FINAL,
    PLAY,
    CardState,
)
from keltis.cards.tables import CARD_ROW_POINTS, CARD_WISH_POINTS
from keltis.core.actions import DECK, POINT_PILE, Action, ActionKind
from keltis.core.card_codes import CLOSING_BASE, NUM_COLOURS, NUMBER_CARDS, POINT_BASE
from keltis.core.policy import GamePolicies, Policy, Projection, Rewinder, Scorer, best_scored
from keltis.core.protocol import View
from keltis.core.scoring import ASCENDING, DESCENDING, direction_after, follows

_ROW: Final = tuple(float(v) for v in CARD_ROW_POINTS)
_WISH: Final = tuple(float(v) for v in CARD_WISH_POINTS)
#: Copies of each number value in a colour (C-1): one of 0, 1, 2, 8, 9, 10; two of 3-7.
_COPIES: Final = (1, 1, 1, 2, 2, 2, 2, 2, 1, 1, 1)
#: _ROOM_UP[v]: copies of the values v..10 of one colour; _ROOM_DOWN[v]: of 0..v.
_ROOM_UP: Final = tuple(sum(_COPIES[v:]) for v in range(11))
_ROOM_DOWN: Final = tuple(sum(_COPIES[: v + 1]) for v in range(11))
_ALL_CARDS: Final = 101.0


class CardTuning:
    """The heuristic's weights (instances can change them for experiments)."""

    deck_draw_rate: float = 0.85
    """Share of draws taken from the deck (the rest come from discard piles)."""
    hand_share: float = 0.8
    """Most a fitting hand card counts for before it is laid."""
    future_share: float = 1.0
    """How much of the expected fitting draws a row may count on."""
    lay_rate: float = 0.75
    """Share of the turns left that will lay a card (the rest discard or claim)."""
    pair_share: float = 0.5
    """How much a pair in hand that could claim a wish stone counts towards one."""
    point_share: float = 0.8
    """How much a point card in hand counts towards the point it brings."""
    gift_next: float = 1.5
    gift_other: float = 0.6
    deck_value: float = 0.4
    """Expected worth of an unknown card from the draw pile."""
    open_margin: float = 0.5
    """Extra worth a new row must promise before it is opened."""
    close_margin: float = 0.3
    """Extra worth a row must gain before a closing card shuts it."""
    known_discard: float = 1.0
    """Penalty for discarding a card taken from a discard pile (it would let players pass
    cards round for ever)."""
    spread: float = 0.7
    """Uncertainty of the cards a row still expects (see ``_Me._spread``)."""

    def __init__(self, **changes: float) -> None:
        for key, value in changes.items():
            if not hasattr(type(self), key):
                raise ValueError(f"unknown card heuristic weight {key!r}")
            setattr(self, key, float(value))


DEFAULT_TUNING: Final = CardTuning()


def _row_points(x: float) -> float:
    """C-16's table, read between whole card counts (flat from 9 cards on)."""
    if x <= 0.0:
        return 0.0
    if x >= 9.0:
        return 10.0
    i = int(x)
    low = _ROW[i]
    return low + (_ROW[i + 1] - low) * (x - i)


def _wish_points(x: float) -> float:
    """C-18's table, read between whole numbers of stones (flat from 5 on)."""
    if x >= 5.0:
        return 10.0
    i = int(x)
    low = _WISH[i]
    return low + (_WISH[i + 1] - low) * (x - i)


def turns_left(state: CardState, tuning: CardTuning = DEFAULT_TUNING) -> float:
    """Expected turns left for each player (deck size and closed rows; public)."""
    t = len(state.deck) / (state.num_players * tuning.deck_draw_rate)
    closed = state.closed_rows
    if closed >= CLOSED_ROWS_TO_END - 1:
        return min(t, 1.5)
    if closed >= CLOSED_ROWS_TO_END - 2:
        return min(t, 4.0)
    return t


def _room(last: int, direction: int) -> int:
    if direction == ASCENDING:
        return _ROOM_UP[last]
    if direction == DESCENDING:
        return _ROOM_DOWN[last]
    up = _ROOM_UP[last]
    down = _ROOM_DOWN[last]
    return up if up > down else down


def _fit_count(vals: list[int], last: int, direction: int) -> int:
    if direction == ASCENDING:
        return len(vals) - bisect_left(vals, last)
    if direction == DESCENDING:
        return bisect_right(vals, last)
    up = len(vals) - bisect_left(vals, last)
    down = bisect_right(vals, last)
    return up if up > down else down


class _Me:
    """Per-decision numbers for one player (built once, used by every candidate)."""

    __slots__ = (
        "by_colour",
        "closers",
        "fh",
        "fut",
        "p",
        "pairs",
        "points",
        "state",
        "t",
        "tuning",
        "values",
    )

    def __init__(self, state: CardState, p: int, tuning: CardTuning) -> None:
        self.state = state
        self.p = p
        self.tuning = tuning
        t = turns_left(state, tuning)
        self.t = t
        by_colour: list[list[int]] = [[], [], [], [], []]
        closers = [0, 0, 0, 0, 0]
        points = 0
        values = [0] * 11
        for card in state.hands[p]:
            if card < NUMBER_CARDS:
                colour = card // 11
                value = card - colour * 11
                by_colour[colour].append(value)
                values[value] += 1
            elif card < POINT_BASE:
                closers[card - CLOSING_BASE] += 1
            else:
                points += 1
                values[card - POINT_BASE] += 1
        self.by_colour = by_colour
        self.closers = closers
        self.points = points
        self.values = values
        wishes = state.wish_mask
        self.pairs = sum(1 for v in range(1, 10) if values[v] >= 2 and wishes >> v & 1)
        fut = max(0.0, t - 1.0) * tuning.future_share / _ALL_CARDS
        rows = state.rows[p]
        last = state.last[p]
        dirs = state.dirs[p]
        closings = state.closings[p]
        supply = 0.0
        for c in range(NUM_COLOURS):
            vals = by_colour[c]
            if closings[c]:
                continue
            if not rows[c]:
                if len(vals) >= 3:
                    supply += len(vals) + fut * max(_ROOM_UP[vals[0]], _ROOM_DOWN[vals[-1]])
                continue
            supply += _fit_count(vals, last[c], dirs[c]) + fut * _room(last[c], dirs[c])
        share = tuning.hand_share
        if supply > 0.0:
            share = min(share, t * tuning.lay_rate / supply)
        self.fh = share
        self.fut = fut * share

    def row(
        self, colour: int, count: int, last: int, direction: int, closed: int, vals: list[int]
    ) -> float:
        """Projected points of my row of ``colour`` with ``count`` cards laid."""
        if closed:
            extra = self.fh if closed == 1 and self.closers[colour] else 0.0
            return _row_points(count + extra)
        if count == 0:
            n = len(vals)
            if not n:
                return 0.0
            hand = self.fh * n
            future = self.fut * max(_ROOM_UP[vals[0]], _ROOM_DOWN[vals[-1]])
            x = self._spread(hand + future, hand, future)
            return x if x > 0.0 else 0.0
        hand = self.fh * (_fit_count(vals, last, direction) + self.closers[colour])
        future = self.fut * _room(last, direction)
        return self._spread(count + hand + future, hand, future)

    def _spread(self, steps: float, hand: float, future: float) -> float:
        """The row points of an uncertain card count: the mean of three readings around
        ``steps``, so that cards in hand and to come are worth less than cards laid, also
        near the table's flat top."""
        spread = self.tuning.spread * sqrt(future + 0.3 * hand)
        return 0.5 * _row_points(steps) + 0.25 * (
            _row_points(steps - spread) + _row_points(steps + spread)
        )

    def base_row(self, colour: int) -> float:
        """Projected points of my row of ``colour`` as it stands."""
        state = self.state
        p = self.p
        return self.row(
            colour,
            len(state.rows[p][colour]),
            state.last[p][colour],
            state.dirs[p][colour],
            state.closings[p][colour],
            self.by_colour[colour],
        )

    def extras(self, points: int, pairs: int, stones: int) -> float:
        """Projected points of the point row and wish stones."""
        tuning = self.tuning
        state = self.state
        return (
            len(state.point_rows[self.p])
            + tuning.point_share * self.fh * points
            + _wish_points(stones + tuning.pair_share * self.fh * pairs)
        )


def _pairs_without(me: _Me, *values: int) -> int:
    """Claimable pairs left in my hand after ``values`` leave it (a value -1: a card without
    one). With no values it counts ``me.values`` afresh."""
    if len(values) == 1:  # the common case, from ``me.pairs`` without a recount
        v = values[0]
        if 1 <= v <= 9 and me.values[v] == 2 and me.state.wish_mask >> v & 1:
            return me.pairs - 1
        return me.pairs
    counts = me.values[:]
    for v in values:
        if v >= 0:
            counts[v] -= 1
    wishes = me.state.wish_mask
    return sum(1 for v in range(1, 10) if counts[v] >= 2 and wishes >> v & 1)


def _value_of(card: int) -> int:
    if card < NUMBER_CARDS:
        return card % 11
    if card >= POINT_BASE:
        return card - POINT_BASE
    return -1


def _gift(state: CardState, p: int, card: int, tuning: CardTuning) -> float:
    """How much a discard of ``card`` would help the later players (their public rows)."""
    n = state.num_players
    if card >= POINT_BASE:
        return 0.3 * tuning.gift_next  # a point for anyone who takes it
    worst = 0.0
    closing = card >= NUMBER_CARDS
    colour = card - CLOSING_BASE if closing else card // 11
    value = -1 if closing else card - colour * 11
    for k in range(1, n):
        o = (p + k) % n
        count = len(state.rows[o][colour])
        if not count or state.closings[o][colour] >= 2:
            continue
        if closing:
            gift = 0.5
        else:
            if state.closings[o][colour]:
                continue
            last = state.last[o][colour]
            direction = state.dirs[o][colour]
            if not follows(direction, last, value):
                continue
            gap = value - last if value >= last else last - value
            closeness = 1.0 if gap <= 1 else (0.6 if gap <= 3 else 0.25)
            step = _ROW[min(count + 1, 9)] - _ROW[min(count, 9)]
            gift = closeness * (0.5 + 0.5 * step)
        gift *= tuning.gift_next if k == 1 else tuning.gift_other
        if gift > worst:
            worst = gift
    return worst


def _ends_with_win(state: CardState, p: int, gain: float) -> bool:
    """Whether ``p`` would lead (or share the lead) if the game ended now, ``gain`` added."""
    scores = state.scores()
    mine = scores[p] + gain
    return all(mine >= s + 1 for o, s in enumerate(scores) if o != p)


def score_play(state: CardState, tuning: CardTuning = DEFAULT_TUNING) -> list[tuple[float, Action]]:
    """Every legal lay, claim and discard of the player to move, scored (higher is better)."""
    scorer = _PlayScorer(state, tuning)
    out: list[tuple[float, Action]] = []
    for action in state.legal_actions():
        kind = action.kind
        if kind is ActionKind.CLAIM:
            out.append((scorer.claim(action.card, action.card2), action))
        elif kind is ActionKind.DISCARD:
            out.append((scorer.discard(action.card), action))
        else:
            out.append((scorer.lay(action.card, action.target), action))
    return out


class _PlayScorer:
    """The play phase's scores for the player to move: each kind of action rated against
    the projection of keeping the hand as it is."""

    def __init__(self, state: CardState, tuning: CardTuning) -> None:
        p = state.current_player
        self.state = state
        self.tuning = tuning
        self.p = p
        self.me = me = _Me(state, p, tuning)
        self.base = [me.base_row(c) for c in range(NUM_COLOURS)]
        self.stones = len(state.wish_stones[p])
        self.base_extras = me.extras(me.points, me.pairs, self.stones)
        # A card's loss to its row and its worth to the next players, once per card (claims
        # and discards ask for the same cards many times).
        self.lost: dict[int, float] = {}
        self.gifts: dict[int, float] = {}

    def without(self, card: int) -> float:
        """The row's loss when ``card`` leaves the hand unlaid (cached)."""
        value = self.lost.get(card)
        if value is None:
            value = self.lost[card] = _without(self.me, self.base, card)
        return value

    def gift(self, card: int) -> float:
        """What ``card`` is worth to the next players when it lands on a pile (cached)."""
        value = self.gifts.get(card)
        if value is None:
            value = self.gifts[card] = _gift(self.state, self.p, card, self.tuning)
        return value

    def claim(self, card: int, second: int) -> float:
        """Giving up two cards for a wish stone (C-14)."""
        me = self.me
        gain = self.without(card) + self.without(second)
        gain += me.extras(
            me.points - (card >= POINT_BASE) - (second >= POINT_BASE),
            _pairs_without(me, _value_of(card), _value_of(second)),
            self.stones + 1,
        )
        gain -= self.base_extras
        gain -= self.gift(card) + self.gift(second)
        gain += self.tuning.deck_value
        return gain

    def discard(self, card: int) -> float:
        """Putting ``card`` on its discard pile."""
        me = self.me
        gain = self.without(card) - self.gift(card)
        if card in self.state.known[self.p]:
            gain -= self.tuning.known_discard
        if card >= POINT_BASE or card < NUMBER_CARDS:
            gain += (
                me.extras(
                    me.points - (card >= POINT_BASE),
                    _pairs_without(me, _value_of(card)),
                    self.stones,
                )
                - self.base_extras
            )
        return gain

    def lay(self, card: int, onto: int) -> float:
        """Laying ``card`` (a point card ``onto`` a colour row, or on its own)."""
        me, base, state, p = self.me, self.base, self.state, self.p
        rows, last, dirs = state.rows[p], state.last[p], state.dirs[p]
        if card >= POINT_BASE:
            pairs = _pairs_without(me, card - POINT_BASE)
            extras = me.extras(me.points - 1, pairs, self.stones) - self.base_extras
            if onto >= 0:
                c = onto
                now = me.row(c, len(rows[c]) + 1, last[c], dirs[c], 0, me.by_colour[c])
                return now - base[c] + extras
            return 1.0 + extras
        if card >= NUMBER_CARDS:  # a closing card
            c = card - CLOSING_BASE
            closings = state.closings[p]
            me.closers[c] -= 1
            now = me.row(c, len(rows[c]) + 1, last[c], dirs[c], closings[c] + 1, me.by_colour[c])
            me.closers[c] += 1
            gain = now - base[c] - self.tuning.close_margin
            if not closings[c] and state.closed_rows + 1 >= CLOSED_ROWS_TO_END:
                gain += 1000.0 if _ends_with_win(state, p, now - base[c]) else -1000.0
            return gain
        c = card // 11
        v = card - c * 11
        rest = me.by_colour[c][:]
        rest.remove(v)
        pairs = _pairs_without(me, v)
        extras = me.extras(me.points, pairs, self.stones) - self.base_extras
        count = len(rows[c])
        if count == 0:
            now = me.row(c, 1, v, 0, 0, rest) - self.tuning.open_margin
        else:
            direction = direction_after(dirs[c], last[c], v)
            now = me.row(c, count + 1, v, direction, 0, rest)
        return now - base[c] + extras


def _without(me: _Me, base: list[float], card: int) -> float:
    """Change of a colour row's projection when ``card`` leaves the hand unlaid."""
    state = me.state
    p = me.p
    if card >= POINT_BASE:
        return 0.0
    if card >= NUMBER_CARDS:
        c = card - CLOSING_BASE
        me.closers[c] -= 1
        now = me.base_row(c)
        me.closers[c] += 1
        return now - base[c]
    c = card // 11
    rest = me.by_colour[c][:]
    rest.remove(card - c * 11)
    now = me.row(
        c,
        len(state.rows[p][c]),
        state.last[p][c],
        state.dirs[p][c],
        state.closings[p][c],
        rest,
    )
    return now - base[c]


def score_draw(state: CardState, tuning: CardTuning = DEFAULT_TUNING) -> list[tuple[float, Action]]:
    """Every draw open to the player to move, scored (higher is better)."""
    p = state.current_player
    out: list[tuple[float, Action]] = []
    me: _Me | None = None
    for action in state.legal_actions():
        source = action.target
        if source == DECK:
            value = tuning.deck_value
            if len(state.deck) == 1:  # C-14: drawing the last card ends the game
                value = 1000.0 if _ends_with_win(state, p, 0.0) else -1000.0
            out.append((value, action))
            continue
        if me is None:
            me = _Me(state, p, tuning)
        card = state.piles[source][-1]
        stones = len(state.wish_stones[p])
        before = me.extras(me.points, me.pairs, stones)
        face = _value_of(card)
        if face >= 0:
            me.values[face] += 1
        pairs = _pairs_without(me)
        if face >= 0:
            me.values[face] -= 1
        if source == POINT_PILE:
            gain = me.extras(me.points + 1, pairs, stones) - before
        elif card >= NUMBER_CARDS:
            c = card - CLOSING_BASE
            old = me.base_row(c)
            me.closers[c] += 1
            gain = me.base_row(c) - old
            me.closers[c] -= 1
        else:
            c = card // 11
            old = me.base_row(c)
            vals = me.by_colour[c]
            more = vals[:]
            more.insert(bisect_left(more, face), face)
            me.by_colour[c] = more
            gain = me.base_row(c) - old
            me.by_colour[c] = vals
            gain += me.extras(me.points, pairs, stones) - before
        out.append((gain, action))
    return out


def score_final(state: CardState) -> list[tuple[float, Action]]:
    """The end phase (C-15): the points each lay adds now; ``pass`` scores 0."""
    p = state.current_player
    rows = state.rows[p]
    out: list[tuple[float, Action]] = []
    for action in state.legal_actions():
        if action.kind is ActionKind.PASS:
            out.append((0.0, action))
            continue
        card = action.card
        if card >= POINT_BASE and action.target < 0:
            out.append((1.0, action))
            continue
        c = (
            action.target
            if action.target >= 0
            else (card - CLOSING_BASE if card >= NUMBER_CARDS else card // 11)
        )
        count = len(rows[c])
        gain = _ROW[min(count + 1, 9)] - _ROW[min(count, 9)]
        out.append((gain + 0.01, action))
    return out


def cards_scores(
    state: CardState, tuning: CardTuning = DEFAULT_TUNING
) -> list[tuple[float, Action]]:
    """Heuristic scores of every legal action of the player to move (higher is better)."""
    phase = state.phase
    if phase == PLAY:
        return score_play(state, tuning)
    if phase == DRAW:
        return score_draw(state, tuning)
    if phase == FINAL:
        return score_final(state)
    raise ValueError("the game is over: there is no decision to take")


def cards_policy(
    state: CardState, rng: random.Random, tuning: CardTuning = DEFAULT_TUNING
) -> Action:
    """The heuristic's decision for the player to move: the best-scored legal action, ties
    broken with ``rng``."""
    return best_scored(cards_scores(state, tuning), rng)


def cards_projection(state: CardState, tuning: CardTuning = DEFAULT_TUNING) -> list[float]:
    """Every player's projected final score (an evaluation for cut-off playouts; on a state
    sampled for a search it uses the sampled hands)."""
    out: list[float] = []
    for p in range(state.num_players):
        me = _Me(state, p, tuning)
        total = me.extras(me.points, me.pairs, len(state.wish_stones[p]))
        for c in range(NUM_COLOURS):
            total += me.base_row(c)
        out.append(total)
    return out


def greedy_gain(view: View, action: Action) -> float:
    """The greedy bot's one-step rating of ``action`` in the card game: a lay rather than
    anything else (see :mod:`keltis.bots.greedy`)."""
    return 1.0 if action.kind is ActionKind.LAY else 0.0


#: The card game's heuristics, as ``keltis.cards.CardGame.heuristics()`` hands them out, with
#: the rewinding of recent moves that a search uses to weigh its samples.
POLICIES: Final = GamePolicies(
    cast(Policy, cards_policy),
    cast(Scorer, cards_scores),
    cast(Projection, cards_projection),
    greedy_gain,
    cast(Rewinder, rewind),
)

__all__ = [
    "DEFAULT_TUNING",
    "POLICIES",
    "CardTuning",
    "cards_policy",
    "cards_projection",
    "cards_scores",
    "score_draw",
    "score_final",
    "score_play",
    "turns_left",
]
