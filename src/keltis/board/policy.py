"""The board game's heuristic: a sensible human strategy, as a fast policy over a state.

The policy reads only what the player to move may know — public parts of the state (rows,
figures, tiles, discard piles, deck size, goal count, scores) and that player's own hand — so
it gives the same answer on any state consistent with the player's view. The heuristic bot
runs it on a state sampled from the view; search bots run it in playouts.

How it plays (see ``docs/bots.md``):

* **Projection.** Each row is valued by where its figure is expected to end: the current
  stone, plus the hand cards that still fit the row (weighted by how many of them can still be
  laid before the end), plus the cards still to come that would fit (by the room the row's
  direction leaves), read off the row values (-4 … 10), doubled for the big figure, plus the
  tiles on the stones the figure is expected to pass. An unopened row is worth its projection
  only if that is positive: a path is opened only with a hand that can carry it past the minus
  rows.
* **Play.** Every lay and discard is scored by how it changes that projection: laying a card
  that skips values kills the hand cards (and future cards) in between, so the bot lays the
  closest card and opens a row with the card at one end of its holding (which chooses
  ascending or descending from the hand). Discards add a penalty for feeding a card to a later
  player whose row it fits; the next player weighs most.
* **Tiles.** The stone a lay reaches adds its tile: a wish stone by how much one more is worth
  in the wish table, a point tile by its points, a clover by one more step.
* **Figures.** The big figure enters a path whose projection is the best in hand and reaches
  the goal area; clover and overflow moves go to the figure that gains most.
* **Draw.** A discard pile's top card is taken when it adds more to the projection than an
  unknown card from the draw pile would (never the card just discarded: B-15 forbids it, and
  under the take-back variant it would only stall).
* **End.** The expected number of turns left shrinks with the deck and with the goal count; as
  it shrinks, cards in hand and cards to come are worth less, so the bot stops investing (no
  new rows, lays whatever still fits). A move that ends the game (fifth figure into the goal
  area, last card of the deck) is made only when the bot would then win.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from typing import Final, cast

from keltis.board.layout import CLOVER, WISH
from keltis.board.state import (
    CLOVER_MOVE,
    DRAW,
    FIGURE,
    OVERFLOW,
    PLAY,
    BoardState,
)
from keltis.board.tables import (
    BOARD_ROW_VALUES,
    BOARD_WISH_POINTS,
    GOAL_FIGURES,
    GOAL_ROW,
    LAST_ROW,
)
from keltis.board.view import BoardView
from keltis.core.actions import (
    BIG_ACTION,
    DECK,
    PASS_ACTION,
    SMALL_ACTION,
    Action,
    ActionKind,
)
from keltis.core.card_codes import CARD_COLOUR, CARD_VALUE, NUM_COLOURS
from keltis.core.policy import GamePolicies, Policy, Projection, Scorer, best_scored
from keltis.core.protocol import View
from keltis.core.scoring import ASCENDING, DESCENDING, direction_after, follows

#: Row values extended past the end stone: each card laid there moves another figure.
_OVERFLOW_STEP: Final = 1.5
_VALUES: Final = tuple(
    [float(v) for v in BOARD_ROW_VALUES]
    + [BOARD_ROW_VALUES[-1] + _OVERFLOW_STEP * i for i in range(1, 30)]
)
_MAX_X: Final = len(_VALUES) - 1.001
#: Share of a fitting colour among unseen cards per value: 2 copies of 110 cards.
_PER_VALUE: Final = 2.0 / 110.0


class BoardTuning:
    """The heuristic's weights (class attributes, so experiments can subclass them)."""

    deck_draw_rate: float = 0.8
    """Share of turns that draw from the deck (the rest take a discard)."""
    hand_share: float = 0.8
    """Most a fitting hand card counts for before it is laid."""
    future_share: float = 1.0
    """How much of the expected fitting draws a row may count on."""
    lay_rate: float = 0.8
    """Share of the turns left that will lay a card (the rest discard)."""
    tile_share: float = 0.3
    """How much of the tiles on stones still to be reached a row counts."""
    wish_future: float = 2.5
    """Worth of a wish stone still to be reached (the table's average step)."""
    clover_value: float = 2.0
    big_min: float = 4.5
    """Least projected stone for the big figure."""
    gift_next: float = 2.5
    gift_other: float = 0.8
    deck_value: float = 0.6
    """Expected worth of an unknown card from the draw pile."""
    open_margin: float = 0.5
    """Extra worth a new row must promise before it is opened."""
    known_discard: float = 1.0
    """Penalty for discarding a card taken from a discard pile (it would let players pass
    cards round for ever)."""
    open_future_share: float = 0.5
    """How much of the expected fitting draws a row not yet opened may count on (the rest
    must come from the hand)."""

    def __init__(self, **changes: float) -> None:
        for key, value in changes.items():
            if not hasattr(type(self), key):
                raise ValueError(f"unknown board heuristic weight {key!r}")
            setattr(self, key, float(value))


DEFAULT_TUNING: Final = BoardTuning()


def _interp(x: float) -> float:
    if x <= 0.0:
        return 0.0
    if x > _MAX_X:
        x = _MAX_X
    i = int(x)
    low = _VALUES[i]
    return low + (_VALUES[i + 1] - low) * (x - i)


def turns_left(state: BoardState, tuning: BoardTuning | None = None) -> float:
    """Expected turns left for each player (deck size and goal count; public)."""
    rate = (tuning or DEFAULT_TUNING).deck_draw_rate
    t = len(state.deck) / (state.num_players * rate)
    goal = state.goal
    if goal >= GOAL_FIGURES - 1:
        return min(t, 2.0)
    if goal >= GOAL_FIGURES - 2:
        return min(t, 5.0)
    return t


class _Me:
    """Per-decision numbers for the player to move (built once, used by every candidate)."""

    __slots__ = (
        "_next_wish",
        "big_waiting",
        "by_colour",
        "fh",
        "fut",
        "fut_open",
        "mult",
        "p",
        "state",
        "t",
        "tile_gain",
        "tuning",
    )

    def __init__(self, state: BoardState, p: int, tuning: BoardTuning) -> None:
        self.state = state
        self.p = p
        self.tuning = tuning
        t = turns_left(state, tuning)
        self.t = t
        by_colour: list[list[int]] = [[], [], [], [], []]
        for card in state.hands[p]:
            by_colour[card // 11].append(card % 11)
        self.by_colour = by_colour
        pos = state.pos[p]
        last = state.last[p]
        dirs = state.dirs[p]
        fut = max(0.0, t - 1.0) * tuning.future_share * _PER_VALUE
        supply = 0.0
        for c in range(NUM_COLOURS):
            vals = by_colour[c]
            if pos[c] == 0:
                if len(vals) >= 3:
                    supply += len(vals) + fut * max(11 - vals[0], vals[-1] + 1)
                continue
            end = last[c]
            direction = dirs[c]
            if direction == ASCENDING:
                room = 11 - end
            elif direction == DESCENDING:
                room = end + 1
            else:
                room = max(11 - end, end + 1)
            supply += _fit_count(vals, end, direction) + fut * room
        # Every turn lays at most one card: the rows share the turns left.
        share = tuning.hand_share
        if supply > 0.0:
            share = min(share, t * tuning.lay_rate / supply)
        self.fh = share
        self.fut = fut * share
        self.fut_open = self.fut * tuning.open_future_share
        big = state.big[p]
        self.big_waiting = big < 0
        self.mult = [2.0 if c == big else 1.0 for c in range(NUM_COLOURS)]
        wish = BOARD_WISH_POINTS
        have = min(state.wishes[p], len(wish) - 1)
        next_wish = float(wish[have + 1] - wish[have]) if have + 1 < len(wish) else 0.0
        self.tile_gain: list[list[float] | None] = [None, None, None, None, None]
        self._next_wish = next_wish

    _next_wish: float

    def stone_gain(self, colour: int, row: int, tuning: BoardTuning) -> float:
        """Worth to me of the tile on ``row`` of ``colour``'s path if my figure arrives now."""
        tile = self.state.tiles[colour][row] if row <= LAST_ROW else 0
        if not tile:
            return 0.0
        if tile == WISH:
            return self._next_wish
        if tile == CLOVER:
            return tuning.clover_value
        return float(tile)

    def row(self, colour: int, pos: int, last: int, direction: int, vals: list[int]) -> float:
        """Projected worth of my row of ``colour`` (see the module docstring)."""
        if pos == 0:
            n = len(vals)
            if not n:
                return 0.0
            room = max(11 - vals[0], vals[-1] + 1)
            steps = self.fh * n + self.fut_open * room
            x = _interp(steps)
            if x <= 0.0:
                return 0.0
            if self.big_waiting and steps >= self.tuning.big_min:
                x += x
            return x + self._tiles(colour, 0, steps)
        if direction == ASCENDING:
            h = len(vals) - bisect_left(vals, last)
            room = 11 - last
        elif direction == DESCENDING:
            h = bisect_right(vals, last)
            room = last + 1
        else:
            up = len(vals) - bisect_left(vals, last)
            down = bisect_right(vals, last)
            h = up if up > down else down
            room = 11 - last if 11 - last > last + 1 else last + 1
        opening = not self.state.pos[self.p][colour]
        steps = pos + self.fh * h + (self.fut_open if opening else self.fut) * room
        x = _interp(steps)
        if self.big_waiting and steps >= self.tuning.big_min and opening:
            x += x  # a row opened now takes the big figure if it promises to go far
        elif self.mult[colour] == 2.0:
            x += x
        return x + self._tiles(colour, pos, steps)

    def _tiles(self, colour: int, pos: int, steps: float) -> float:
        end = int(steps)
        if end > LAST_ROW:
            end = LAST_ROW
        if end <= pos:
            return 0.0
        cum = self.tile_gain[colour]
        if cum is None:
            cum = self.tile_gain[colour] = _tile_gains(self.state.tiles[colour], self.tuning)
        return cum[end] - cum[pos]


_TILE_CACHE: dict[tuple[float, float, float, tuple[int, ...]], list[float]] = {}


def _tile_gains(row_tiles: list[int], tuning: BoardTuning) -> list[float]:
    """Prefix sums, by row, of what the tiles on one path are worth to a passing figure."""
    key = (tuning.tile_share, tuning.wish_future, tuning.clover_value, tuple(row_tiles))
    cum = _TILE_CACHE.get(key)
    if cum is not None:
        return cum
    share = tuning.tile_share
    cum = [0.0]
    total = 0.0
    for r in range(1, LAST_ROW + 1):
        tile = row_tiles[r]
        if tile:
            if tile == WISH:
                total += share * tuning.wish_future
            elif tile == CLOVER:
                total += share * tuning.clover_value
            else:
                total += share * tile
        cum.append(total)
    if len(_TILE_CACHE) > 50_000:
        _TILE_CACHE.clear()
    _TILE_CACHE[key] = cum
    return cum


def _fit_count(vals: list[int], last: int, direction: int) -> int:
    if direction == ASCENDING:
        return len(vals) - bisect_left(vals, last)
    if direction == DESCENDING:
        return bisect_right(vals, last)
    up = len(vals) - bisect_left(vals, last)
    down = bisect_right(vals, last)
    return up if up > down else down


def _gift(state: BoardState, p: int, colour: int, value: int, tuning: BoardTuning) -> float:
    """How much a discard of ``colour``/``value`` helps the later players (public rows)."""
    n = state.num_players
    worst = 0.0
    for k in range(1, n):
        o = (p + k) % n
        pos = state.pos[o][colour]
        if pos == 0 or pos >= LAST_ROW:
            continue
        last = state.last[o][colour]
        direction = state.dirs[o][colour]
        if not follows(direction, last, value):
            continue
        gap = value - last if value >= last else last - value
        closeness = 1.0 if gap <= 1 else (0.6 if gap <= 3 else 0.25)
        weight = tuning.gift_next if k == 1 else tuning.gift_other
        step = BOARD_ROW_VALUES[pos + 1] - BOARD_ROW_VALUES[pos]
        if state.big[o] == colour:
            step *= 2
        gift = weight * closeness * (1.0 + 0.5 * step)
        if gift > worst:
            worst = gift
    return worst


def _wins_if_over(state: BoardState, p: int, extra: float) -> bool:
    """Whether ``p`` would have the (shared) best score if the game ended now, with ``extra``
    points added to ``p``."""
    scores = state.scores()
    mine = scores[p] + extra
    return all(mine >= s for o, s in enumerate(scores) if o != p)


def _ends_game(state: BoardState, p: int, colour: int) -> bool:
    """Whether one step of ``p``'s figure on ``colour`` puts the fifth figure in the goal."""
    return state.pos[p][colour] + 1 == GOAL_ROW and state.goal + 1 >= GOAL_FIGURES


def _step_points(state: BoardState, p: int, colour: int) -> float:
    row = state.pos[p][colour]
    gain = float(BOARD_ROW_VALUES[row + 1] - BOARD_ROW_VALUES[row])
    return 2.0 * gain if state.big[p] == colour else gain


def _end_move_value(state: BoardState, p: int, colour: int) -> float:
    """A huge bonus if ending the game with this step wins, a huge penalty if it loses."""
    return 1000.0 if _wins_if_over(state, p, _step_points(state, p, colour)) else -1000.0


def score_play(
    state: BoardState, tuning: BoardTuning = DEFAULT_TUNING
) -> list[tuple[float, Action]]:
    """Every lay and discard of the player to move, scored (higher is better)."""
    p = state.current_player
    me = _Me(state, p, tuning)
    pos = state.pos[p]
    last = state.last[p]
    dirs = state.dirs[p]
    by_colour = me.by_colour
    base = [me.row(c, pos[c], last[c], dirs[c], by_colour[c]) for c in range(NUM_COLOURS)]
    layable = state.layable[p]
    known = state.known[p]
    out: list[tuple[float, Action]] = []
    previous = -1
    for card in state.hands[p]:
        if card == previous:
            continue
        previous = card
        c = card // 11
        v = card % 11
        vals = by_colour[c]
        rest = vals[:]
        rest.remove(v)
        without = me.row(c, pos[c], last[c], dirs[c], rest)
        gain = without - base[c] - _gift(state, p, c, v, tuning)
        if card in known:
            gain -= tuning.known_discard
        out.append((gain, Action.discard(card)))
        if not layable >> card & 1:
            continue
        row = pos[c]
        if row == 0:
            gain = me.row(c, 1, v, 0, rest) - base[c] - tuning.open_margin
            gain += me.stone_gain(c, 1, tuning)
        else:
            direction = direction_after(dirs[c], last[c], v)
            gain = me.row(c, row + 1, v, direction, rest) - base[c]
            if row < LAST_ROW:
                if _ends_game(state, p, c):
                    gain += _end_move_value(state, p, c)
                else:
                    gain += me.stone_gain(c, row + 1, tuning)
        out.append((gain, Action.lay(card)))
    return out


def score_draw(
    state: BoardState, tuning: BoardTuning = DEFAULT_TUNING
) -> list[tuple[float, Action]]:
    """Every draw open to the player to move, scored (higher is better)."""
    p = state.current_player
    out: list[tuple[float, Action]] = []
    deck = state.deck
    piles = state.piles
    me: _Me | None = None
    for action in state.legal_actions():
        source = action.target
        if source == DECK:
            value = tuning.deck_value
            if len(deck) == 1:  # B-20: drawing the last card ends the game
                value = 1000.0 if _wins_if_over(state, p, 0.0) else -1000.0
            out.append((value, action))
            continue
        if source == state.discarded_pile:  # legal only under the take-back variant (B-15)
            out.append((-100.0, action))  # taking back one's own discard only stalls
            continue
        if me is None:
            me = _Me(state, p, tuning)
        card = piles[source][-1]
        c = card // 11
        v = card % 11
        vals = me.by_colour[c]
        pos = state.pos[p][c]
        last = state.last[p][c]
        direction = state.dirs[p][c]
        before = me.row(c, pos, last, direction, vals)
        more = vals[:]
        more.insert(bisect_left(more, v), v)
        after = me.row(c, pos, last, direction, more)
        out.append((after - before, action))
    return out


def score_advance(
    state: BoardState, tuning: BoardTuning = DEFAULT_TUNING
) -> list[tuple[float, Action]]:
    """Clover or overflow: every figure that may step, and pass, scored."""
    p = state.current_player
    out: list[tuple[float, Action]] = [(0.0, PASS_ACTION)]
    me = _Me(state, p, tuning)
    for action in state.legal_actions():
        if action.kind is not ActionKind.ADVANCE:
            continue
        c = action.target
        row = state.pos[p][c]
        gain = _step_points(state, p, c)
        if _ends_game(state, p, c):
            gain += _end_move_value(state, p, c)
        else:
            gain += me.stone_gain(c, row + 1, tuning)
        out.append((gain + 0.01 * row, action))
    return out


def choose_figure(state: BoardState, tuning: BoardTuning = DEFAULT_TUNING) -> Action:
    """Big or small figure for the path just opened (B-11)."""
    p = state.current_player
    colour = state.pending
    me = _Me(state, p, tuning)
    vals = me.by_colour[colour]
    last = state.last[p][colour]
    steps = 1.0 + me.fh * _fit_count(vals, last, 0) + me.fut * max(11 - last, last + 1)
    if steps < tuning.big_min:
        return SMALL_ACTION
    for c in range(NUM_COLOURS):
        others = me.by_colour[c]
        if c == colour or state.pos[p][c] or len(others) < 3:
            continue
        room = max(11 - others[0], others[-1] + 1)
        if me.fh * len(others) + me.fut * room > steps + 1.0:
            return SMALL_ACTION  # a better path is waiting in the hand
    return BIG_ACTION


def board_scores(
    state: BoardState, tuning: BoardTuning = DEFAULT_TUNING
) -> list[tuple[float, Action]]:
    """Heuristic scores of every legal action of the player to move (higher is better)."""
    phase = state.phase
    if phase == PLAY:
        return score_play(state, tuning)
    if phase == DRAW:
        return score_draw(state, tuning)
    if phase == FIGURE:
        big = choose_figure(state, tuning) is BIG_ACTION
        return [(1.0 if big else 0.0, BIG_ACTION), (0.0 if big else 1.0, SMALL_ACTION)]
    if phase in (CLOVER_MOVE, OVERFLOW):
        return score_advance(state, tuning)
    raise ValueError("the game is over: there is no decision to take")


def board_policy(
    state: BoardState, rng: random.Random, tuning: BoardTuning = DEFAULT_TUNING
) -> Action:
    """The heuristic's decision for the player to move: the best-scored legal action, ties
    broken with ``rng``."""
    if state.phase == FIGURE:
        return choose_figure(state, tuning)
    return best_scored(board_scores(state, tuning), rng)


def board_projection(state: BoardState, tuning: BoardTuning = DEFAULT_TUNING) -> list[float]:
    """Every player's projected final score: points so far plus each row's projection.

    On a state sampled for a search this uses the sampled hands; it is an evaluation for
    cut-off playouts, not something a player would see.
    """
    out: list[float] = []
    wish = BOARD_WISH_POINTS
    for p in range(state.num_players):
        me = _Me(state, p, tuning)
        pos = state.pos[p]
        last = state.last[p]
        dirs = state.dirs[p]
        total = float(state.points[p] + wish[min(state.wishes[p], len(wish) - 1)])
        for c in range(NUM_COLOURS):
            total += me.row(c, pos[c], last[c], dirs[c], me.by_colour[c])
        out.append(total)
    return out


# -- the greedy bot's rating (one step, from a view) --------------------------------------


def greedy_gain(view: View, action: Action) -> float:
    """The greedy bot's one-step rating of ``action`` from a board-game ``view`` (higher is
    better): see :mod:`keltis.bots.greedy`."""
    assert isinstance(view, BoardView)
    me = view.viewer
    assert me is not None
    assert view.hand is not None
    kind = action.kind
    if kind is ActionKind.LAY:
        colour = CARD_COLOUR[action.card]
        value = CARD_VALUE[action.card]
        row = view.positions[me][colour]
        same = sum(1 for c in view.hand if CARD_COLOUR[c] == colour)
        if row == 0:
            return 1.0 + same if same >= 3 else -5.0 + same
        gap = 0
        laid = view.rows[me][colour]
        if laid:
            last = CARD_VALUE[laid[-1]]
            gap = abs(value - last)
        if row >= LAST_ROW:
            return 2.0 - 0.1 * gap
        gain = BOARD_ROW_VALUES[row + 1] - BOARD_ROW_VALUES[row]
        if view.big[me] == colour:
            gain *= 2
        tile = view.tiles[colour][row + 1]
        bonus = {1: 1, 2: 2, 3: 3, 4: 2, 5: 3}.get(tile, 0)
        return 4.0 + gain + bonus - 0.5 * gap
    if kind is ActionKind.DISCARD:
        colour = CARD_COLOUR[action.card]
        value = CARD_VALUE[action.card]
        if view.positions[me][colour] == 0:
            same = sum(1 for c in view.hand if CARD_COLOUR[c] == colour)
            return -same * 0.5
        return -3.0 - _fit(view, me, colour, value)
    if kind is ActionKind.DRAW:
        if action.target == DECK:
            return 0.0
        card = view.piles[action.target][-1]
        colour = CARD_COLOUR[card]
        if view.positions[me][colour] == 0:
            return -1.0
        return _fit(view, me, colour, CARD_VALUE[card]) - 2.0
    if kind is ActionKind.FIGURE:
        return 1.0 if action.target == 1 else 0.5
    if kind is ActionKind.ADVANCE:
        row = view.positions[me][action.target]
        gain = BOARD_ROW_VALUES[row + 1] - BOARD_ROW_VALUES[row]
        if view.big[me] == action.target:
            gain *= 2
        return 1.0 + gain
    return 0.0  # pass


def _fit(view: View, me: int, colour: int, value: int) -> float:
    """How well a card of ``colour``/``value`` continues ``me``'s row (0-3)."""
    assert isinstance(view, BoardView)
    laid = view.rows[me][colour]
    if not laid:
        return 0.0
    last = CARD_VALUE[laid[-1]]
    direction = view.directions[me][colour]
    if not follows(direction, last, value):
        return 0.0
    return max(0.0, 3.0 - 0.5 * abs(value - last))


#: The board game's heuristics, as ``keltis.board.BoardGame.heuristics()`` hands them out.
POLICIES: Final = GamePolicies(
    cast(Policy, board_policy),
    cast(Scorer, board_scores),
    cast(Projection, board_projection),
    greedy_gain,
)

__all__ = [
    "DEFAULT_TUNING",
    "POLICIES",
    "BoardTuning",
    "board_policy",
    "board_projection",
    "board_scores",
    "choose_figure",
    "score_advance",
    "score_draw",
    "score_play",
    "turns_left",
]
