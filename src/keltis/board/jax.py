"""Keltis, the board game (RULES.md B-1 … B-24) in JAX, as a pgx environment (``keltis.jax``).

A game is a :class:`BoardState`, a pytree of arrays, and every rule is array arithmetic with
no Python branch on a traced value, so ``jax.jit``, ``jax.vmap`` and ``jax.lax.scan`` take the
environment's functions as they are. The rules are the numba kernel's
(``keltis.board.kernel``) written once more over counts instead of hand slots (a hand is the
copies of each card code it holds), with the same sequence of decisions in a turn: play (lay
or discard), the big or small figure for a new path (B-11), an overflow move or pass (B-14),
clover moves or pass (B-17, chaining), the draw (B-15). ``keltis.jax.diff`` proves the two
equal decision by decision from the same deals.

The observation is the documented encoding (``keltis.board.encoding``; ``docs/rl.md``), the
same float32 vector ``keltis.fast.BatchEnv`` gives for the same seat and position; the actions
are the board game's 124 ids (``keltis.board.actions``). Tiles are ``keltis.board.layout``'s
codes (0 none, 1-3 point tiles, 4 clover, 5 wish stone), ``_tiles[colour, row]``.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Final

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core as pgx_core
from pgx._src.struct import dataclass  # the pytree dataclass pgx's own games are built on

from keltis.board.actions import (
    ACTIONS,
    ADVANCE_BASE,
    DISCARD_BASE,
    DRAW_DECK,
    DRAW_PILE_BASE,
    FIGURE_BIG,
    FIGURE_SMALL,
    PASS_INDEX,
)
from keltis.board.encoding import PLAYER, TABLE
from keltis.board.layout import ALL_TILES, CLOVER, DEFAULT_LAYOUT, WISH, Layout, layout_from_json
from keltis.board.tables import BOARD_ROW_VALUES, BOARD_WISH_POINTS
from keltis.core.setup import DEFAULT_TURN_CAP
from keltis.jax.common import (
    Array,
    KeltisEnv,
    assemble,
    deal_cards,
    finish_step,
    fraction,
    i32,
    kernel_hands,
    load_batch,
    observation_size,
    one_hot,
    public_fields,
    redeal,  # noqa: F401  (the game part's redeal: the hidden information test's)
    select,
    shared_seat,
    shared_table,
    take_draw,
)

#: The environment's id (``state.env_id``, ``env.id``).
ENV_ID: Final = "keltis-board"

CODES: Final = 55
DECK_CARDS: Final = 110
#: Room per discard pile: every number card of a colour, twice.
PILE_ROOM: Final = 22
NUM_ACTIONS: Final = ACTIONS.size
#: The lays are the action ids below this one (``keltis.jax.diff``'s ``lays`` policy).
LAYS: Final = DISCARD_BASE
GOAL_ROW: Final = 7
LAST_ROW: Final = 9

# phases and end reasons: the kernel's and the reference's order
PLAY: Final = 0
FIGURE: Final = 1
CLOVER_MOVE: Final = 2
OVERFLOW: Final = 3
DRAW: Final = 4
OVER: Final = 5
END_GOAL: Final = 0
END_DECK: Final = 1
END_TRUNCATED: Final = 3

if (DISCARD_BASE, FIGURE_SMALL, FIGURE_BIG, ADVANCE_BASE, PASS_INDEX, DRAW_DECK) != (
    CODES, 2 * CODES, 2 * CODES + 1, 2 * CODES + 2, 2 * CODES + 7, 2 * CODES + 8,
):  # fmt: skip
    raise ImportError("the board game's action ids moved: keltis.board.jax lays them out anew")

#: The 110 cards (B-1): every number card twice.
FULL_DECK: Final = np.repeat(np.arange(CODES, dtype=np.int32), 2)
_TILES: Final = np.array(ALL_TILES, dtype=np.int32)
_COLOUR: Final = np.arange(CODES) // 11
_VALUE: Final = np.arange(CODES) % 11
_ROW_VALUES: Final = np.array(BOARD_ROW_VALUES, dtype=np.int32)  # B-2, by stone 0-9
_WISH_POINTS: Final = np.array(BOARD_WISH_POINTS, dtype=np.int32)  # B-23, by min(stones, 5)


@dataclass
class BoardState(pgx_core.State):  # type: ignore[misc]
    """One board game (``vmap`` makes a batch of them). The public fields are pgx's; the
    others hold the rules' state: per seat ``p`` its hand, the cards known to be in it (taken
    from a discard pile) and the cards in its rows, as copies per card code; per row its last
    value (-1: none) and direction (+1, -1, 0 open), the stone of its figure on each path
    (0: the start), the figures that left the start, the path of its big figure (-1: still on
    the start), its tile points and wish stones. The draw pile lies in ``_deck[:_deck_n]``,
    top last; discard pile ``k`` in ``_piles[k, :_pile_n[k]]``. ``_pending``: the path of the
    figure decision under way; ``_discarded``: the pile discarded to this turn (-1: none)."""

    _cur: Array
    _phase: Array
    _turn: Array
    _turn_cap: Array
    _no_take_back: Array
    _end: Array
    _pending: Array
    _discarded: Array
    _goal: Array
    _deck: Array
    _deck_n: Array
    _piles: Array
    _pile_n: Array
    _hand: Array
    _known: Array
    _rows: Array
    _rlast: Array
    _rdir: Array
    _pos: Array
    _started: Array
    _big: Array
    _points: Array
    _wishes: Array
    _tiles: Array

    @property
    def env_id(self) -> str:
        """The environment's id."""
        return ENV_ID


def empty_state(
    players: int, turn_cap: int = DEFAULT_TURN_CAP, no_take_back: bool = True
) -> BoardState:
    """A state with no cards and no tiles anywhere, before a deal."""
    n = players
    zeros = partial(jnp.zeros, dtype=jnp.int32)
    return BoardState(
        **public_fields(n, observation_size("board", n), NUM_ACTIONS),
        _cur=i32(0),
        _phase=i32(PLAY),
        _turn=i32(0),
        _turn_cap=i32(turn_cap),
        _no_take_back=jnp.bool_(no_take_back),
        _end=i32(-1),
        _pending=i32(-1),
        _discarded=i32(-1),
        _goal=i32(0),
        _deck=zeros(DECK_CARDS),
        _deck_n=i32(0),
        _piles=zeros((5, PILE_ROOM)),
        _pile_n=zeros(5),
        _hand=zeros((n, CODES)),
        _known=zeros((n, CODES)),
        _rows=zeros((n, CODES)),
        _rlast=jnp.full((n, 5), -1, dtype=jnp.int32),
        _rdir=zeros((n, 5)),
        _pos=zeros((n, 5)),
        _started=zeros(n),
        _big=jnp.full(n, -1, dtype=jnp.int32),
        _points=zeros(n),
        _wishes=zeros(n),
        _tiles=zeros((5, 10)),
    )


def tile_places(layout: Layout) -> np.ndarray:
    """The 25 tile places of ``layout`` as ``colour * 10 + row``, by path then row."""
    return np.array([c * 10 + r for c, r in layout.places()], dtype=np.int32)


def deal(
    key: Array,
    players: int,
    places: np.ndarray,
    turn_cap: int = DEFAULT_TURN_CAP,
    no_take_back: bool = True,
) -> BoardState:
    """Shuffle the tiles onto ``places`` (``tile_places``) and deal the cards with ``key``
    (B-6-B-8): 8 cards to each seat, 30 removed unseen with two players, the rest the draw
    pile; seat 0 begins."""
    tile_key, card_key = jax.random.split(key)
    tiles = jax.random.permutation(tile_key, jnp.asarray(_TILES))
    board = jnp.zeros(50, dtype=jnp.int32).at[jnp.asarray(places)].set(tiles).reshape(5, 10)
    hands, deck, left = deal_cards(card_key, FULL_DECK, players, CODES)
    state = empty_state(players, turn_cap, no_take_back)
    state = state.replace(_hand=hands, _deck=deck, _deck_n=left, _tiles=board)
    return finish_setup(state)


def finish_setup(state: BoardState) -> BoardState:
    """A loaded or dealt position's legal mask (its observation: ``Env.init`` adds it)."""
    return state.replace(
        current_player=jnp.maximum(state._cur, 0), legal_action_mask=legal_mask(state)
    )


# -- legal decisions ----------------------------------------------------------------------


def legal_mask(state: BoardState) -> Array:
    """The seat to move's legal decisions as a mask over the 124 action ids."""
    p = jnp.maximum(state._cur, 0)
    phase = state._phase
    hand = state._hand[p] > 0
    last = state._rlast[p][_COLOUR]
    d = state._rdir[p][_COLOUR]
    fits = (last < 0) | (d == 0) | ((d > 0) & (last <= _VALUE)) | ((d < 0) & (last >= _VALUE))
    none_c = jnp.zeros(CODES, bool)
    no2, yes2 = jnp.zeros(2, bool), jnp.ones(2, bool)
    no5, no6 = jnp.zeros(5, bool), jnp.zeros(6, bool)
    no, yes = jnp.zeros(1, bool), jnp.ones(1, bool)
    movable = (state._pos[p] > 0) & (state._pos[p] < LAST_ROW)
    blocked = jnp.where(state._no_take_back, state._discarded, -1)
    piles = (state._pile_n > 0) & (jnp.arange(5) != blocked)
    play = jnp.concatenate([hand & fits, hand, no2, no5, no, no6])
    figure = jnp.concatenate([none_c, none_c, yes2, no5, no, no6])
    move = jnp.concatenate([none_c, none_c, no2, movable, yes, no6])
    draw = jnp.concatenate([none_c, none_c, no2, no5, no, (state._deck_n > 0)[None], piles])
    moving = (phase == CLOVER_MOVE) | (phase == OVERFLOW)
    return jnp.select(
        [phase == PLAY, phase == FIGURE, moving, phase == DRAW], [play, figure, move, draw], False
    )


# -- effects ------------------------------------------------------------------------------


def _finish(state: BoardState, reason: int) -> BoardState:
    return state.replace(_phase=i32(OVER), _end=i32(reason), _cur=i32(-1))


def _can_move(state: BoardState, p: Array) -> Array:
    """Whether ``p`` has a figure on a path short of its end stone (B-14, B-17)."""
    return ((state._pos[p] > 0) & (state._pos[p] < LAST_ROW)).any()


def _advance(state: BoardState, p: Array, colour: Array) -> BoardState:
    """Move ``p``'s figure on ``colour`` one stone forward and resolve the stone (B-16-B-19)."""
    row = state._pos[p, colour] + 1
    goal = state._goal + (row == GOAL_ROW)
    state = state.replace(_pos=state._pos.at[p, colour].set(row), _goal=goal)
    tile = state._tiles[colour, row]
    wish = tile == WISH  # B-18
    clover = (tile == CLOVER) & _can_move(state, p)  # B-17
    points = jnp.where((tile > 0) & (tile < CLOVER), tile, 0)  # B-16
    resolved = state.replace(
        _wishes=state._wishes.at[p].add(wish.astype(jnp.int32)),
        _tiles=state._tiles.at[colour, row].set(jnp.where(wish, 0, tile)),
        _points=state._points.at[p].add(points),
        _pending=jnp.where(clover, colour, state._pending),
        _phase=jnp.where(clover, CLOVER_MOVE, DRAW),
    )
    # B-19: the fifth figure in the goal area ends the game; its stone is not resolved
    return select((row == GOAL_ROW) & (goal >= 5), _finish(state, END_GOAL), resolved)


def _lay(state: BoardState, p: Array, card: Array) -> BoardState:
    """Lay ``card`` in ``p``'s row of its colour (B-10-B-14)."""
    colour = card // 11
    value = card % 11
    end = state._rlast[p, colour]
    state = state.replace(
        _rlast=state._rlast.at[p, colour].set(value), _rows=state._rows.at[p, card].add(1)
    )
    # B-11: a figure enters the path; with the big one and a small one waiting, a choice
    big_waiting = state._big[p] < 0
    smalls_waiting = 4 - state._started[p] + jnp.where(big_waiting, 0, 1)
    entered = state.replace(_started=state._started.at[p].add(1))
    choose = entered.replace(_phase=i32(FIGURE), _pending=colour)
    big = jnp.where(big_waiting, colour, entered._big[p])
    placed = _advance(entered.replace(_big=entered._big.at[p].set(big)), p, colour)
    new_row = select(big_waiting & (smalls_waiting > 0), choose, placed)
    # B-12, B-13: the row follows its direction; B-14: past the end stone, an overflow move
    turns = (state._rdir[p, colour] == 0) & (value != end)
    direction = jnp.where(turns, jnp.sign(value - end), state._rdir[p, colour])
    state = state.replace(_rdir=state._rdir.at[p, colour].set(direction))
    overflow = state.replace(_pending=colour, _phase=jnp.where(_can_move(state, p), OVERFLOW, DRAW))
    later = select(state._pos[p, colour] >= LAST_ROW, overflow, _advance(state, p, colour))
    return select(end < 0, new_row, later)


def _play(state: BoardState, p: Array, a: Array) -> BoardState:
    """A lay or a discard (B-10); a known copy of the card leaves the hand first."""
    card = jnp.where(a < DISCARD_BASE, a, a - DISCARD_BASE)
    state = state.replace(
        _hand=state._hand.at[p, card].add(-1),
        _known=state._known.at[p, card].set(jnp.maximum(state._known[p, card] - 1, 0)),
    )
    k = card // 11
    discarded = state.replace(
        _piles=state._piles.at[k, state._pile_n[k]].set(card),
        _pile_n=state._pile_n.at[k].add(1),
        _discarded=k,
        _phase=i32(DRAW),
    )
    return select(a < DISCARD_BASE, _lay(state, p, card), discarded)


def _draw(state: BoardState, p: Array, a: Array, n: int) -> BoardState:
    """A draw (B-15); the last card of the draw pile ends the game (B-20), else the turn."""
    from_deck, pile = a == DRAW_DECK, jnp.clip(a - DRAW_PILE_BASE, 0, 4)
    state, last_card = take_draw(state, p, from_deck, pile)
    turn = state._turn + 1
    passed = state.replace(_turn=turn, _cur=(p + 1) % n, _phase=i32(PLAY), _discarded=i32(-1))
    over = select(
        turn >= state._turn_cap, _finish(state.replace(_turn=turn), END_TRUNCATED), passed
    )
    return select(last_card, _finish(state, END_DECK), over)


def _figure(state: BoardState, p: Array, a: Array) -> BoardState:
    """The big or the small figure enters the pending path (B-11)."""
    colour = state._pending
    big = jnp.where(a == FIGURE_BIG, colour, state._big[p])
    return _advance(state.replace(_big=state._big.at[p].set(big)), p, colour)


def _move(state: BoardState, p: Array, a: Array) -> BoardState:
    """A clover's or an overflow's move (B-17, B-14), or a pass."""
    colour = jnp.clip(a - ADVANCE_BASE, 0, 4)
    return select(a == PASS_INDEX, state.replace(_phase=i32(DRAW)), _advance(state, p, colour))


def apply(state: BoardState, action: Array, n: int) -> BoardState:
    """Carry out the legal decision ``action`` for the seat to move (the rules' state only)."""
    p = jnp.maximum(state._cur, 0)
    a = i32(action)
    # the rules never read the observation and the mask: left out, no rule copies them
    seen, mask = state.observation, state.legal_action_mask
    state = state.replace(observation=jnp.zeros(0), legal_action_mask=jnp.zeros(0, bool))
    branches = [
        lambda s: _play(s, p, a),
        lambda s: _figure(s, p, a),
        lambda s: _move(s, p, a),
        lambda s: _move(s, p, a),
        lambda s: _draw(s, p, a, n),
    ]
    state = jax.lax.switch(jnp.clip(state._phase, 0, DRAW), branches, state)
    return state.replace(observation=seen, legal_action_mask=mask)


def scores(state: BoardState) -> Array:
    """Every seat's total (B-21-B-23), as if the game ended now."""
    values = jnp.asarray(_ROW_VALUES)[state._pos]
    double = jnp.arange(5)[None, :] == state._big[:, None]
    figures = jnp.where(double, 2 * values, values).sum(axis=1)
    return state._points + jnp.asarray(_WISH_POINTS)[jnp.minimum(state._wishes, 5)] + figures


def step(state: BoardState, action: Array, n: int, margin: bool) -> BoardState:
    """``apply``, then pgx's fields: who moves, the legal mask, and at the end every seat's
    reward (``win`` or ``margin``) and whether the end was the turn cap (truncated)."""
    p = jnp.maximum(state._cur, 0)
    state = apply(state, action, n)
    over = state._phase == OVER
    cut = over & (state._end == END_TRUNCATED)
    return finish_step(state, p, over, cut, scores(state), legal_mask(state), margin)


# -- the observation (keltis.board.encoding) -----------------------------------------------


def _table(state: BoardState, viewer: Array, n: int) -> dict[str, Array]:
    """The table part's fields, each as ``keltis.board.encoding`` fills it."""
    phase = state._phase
    deciding = (phase == FIGURE) | (phase == CLOVER_MOVE) | (phase == OVERFLOW)
    return {
        **shared_table(state, viewer, n, 6),
        "tiles": jax.vmap(one_hot, in_axes=(0, None))(state._tiles[:, 1:].reshape(-1), 6),
        "goal": fraction(state._goal, 5)[None],
        "pending": one_hot(jnp.where(deciding, state._pending, 5), 6),
        "discarded_pile": one_hot(jnp.where(state._discarded >= 0, state._discarded, 5), 6),
    }


def _player(state: BoardState, seat: Array, total: Array) -> dict[str, Array]:
    """One seat's player block's fields (``total``: its score)."""
    last = state._rlast[seat]
    d = state._rdir[seat]
    big = state._big[seat]
    return {
        **shared_seat(state, seat, total),
        "row_last": jax.vmap(one_hot, in_axes=(0, None, 0))(last, 11, last >= 0),
        "directions": jnp.stack([d == 0, d > 0, d < 0], axis=1),
        "figures": jax.vmap(one_hot, in_axes=(0, None))(state._pos[seat], 10),
        "big": one_hot(jnp.where(big >= 0, big, 5), 6),
        "tile_points": fraction(state._points[seat], 14)[None],
        "wishes": fraction(state._wishes[seat], 9, 0, 9)[None],
    }


_TABLE_NAMES: Final = tuple(f.name for f in TABLE)
_PLAYER_NAMES: Final = tuple(f.name for f in PLAYER)


def observe(state: BoardState, viewer: Array, n: int) -> Array:
    """Seat ``viewer``'s observation: the numbers ``keltis.env.encode.encode`` gives for its
    view (table part, then a player block per seat starting with the viewer's)."""
    totals = scores(state)
    seats = [(viewer + k) % n for k in range(n)]
    blocks = [_player(state, seat, totals[seat]) for seat in seats]
    return assemble(_table(state, viewer, n), blocks, _TABLE_NAMES, _PLAYER_NAMES)


# -- the pgx environment ------------------------------------------------------------------


class BoardEnv(KeltisEnv):
    """The board game for ``players`` seats as a pgx environment (``keltis.jax.make``).

    ``turn_cap`` and ``no_take_back``: the variant's switches (B-15); ``layout``: the dark
    stones the tiles are dealt onto (B-4; the default reconstruction unless given);
    ``reward``: ``win`` or ``margin``, paid at the last step as ``BatchEnv`` pays them.
    """

    env_id = ENV_ID

    def __init__(
        self,
        players: int = 2,
        *,
        turn_cap: int = DEFAULT_TURN_CAP,
        no_take_back: bool = True,
        layout: Layout = DEFAULT_LAYOUT,
        reward: str = "win",
    ) -> None:
        super().__init__(players, margin=reward == "margin")
        self._turn_cap = turn_cap
        self._no_take_back = no_take_back
        self._places = tile_places(layout)

    def _init(self, key: Array) -> BoardState:
        return deal(key, self._players, self._places, self._turn_cap, self._no_take_back)

    def _step(self, state: BoardState, action: Array, key: Array | None) -> BoardState:
        del key  # every card and tile is dealt at init: a step draws nothing at random
        return step(state, action, self._players, self._margin)

    def _observe(self, state: BoardState, player_id: Array) -> Array:
        return observe(state, player_id, self._players)


def make_env(
    players: int, switches: dict[str, Any], reward: str, options: dict[str, Any]
) -> BoardEnv:
    """The environment of ``keltis.jax.make`` (``switches``: the variant's JSON, checked;
    ``options``: ``layout``, a :class:`~keltis.board.layout.Layout` or its JSON form)."""
    unknown = set(options) - {"layout"}
    if unknown:
        raise ValueError(f"the board game has no option {', '.join(sorted(unknown))}")
    layout = options.get("layout", DEFAULT_LAYOUT)
    if not isinstance(layout, Layout):
        layout = layout_from_json(layout)
    return BoardEnv(
        players,
        turn_cap=int(switches["turn_cap"]),
        no_take_back=bool(switches["no_take_back"]),
        layout=layout,
        reward=reward,
    )


# -- positions from elsewhere: the numba kernel's, re-dealt hidden cards ---------------------


def from_kernel(states: np.ndarray, extras: np.ndarray, players: int) -> BoardState:
    """A batch of positions of the numba kernel (``keltis.fast.BatchEnv.snapshot``'s ``states``
    and ``extras``: the rules' state and the observation's counters), as a batched state with
    its legal masks and the observation of the seat to move."""
    # the kernel module needs numba: only a caller holding kernel states (the proof) gets here
    from keltis.board import kernel as k

    s = np.asarray(states, dtype=np.int64)
    x = np.asarray(extras, dtype=np.int64)
    b, n = s.shape[0], players
    hands = kernel_hands(s, k.HAND, k.HAND_N, n, CODES)
    piles = np.stack(
        [s[:, k.PILE + j * k.PILE_ROOM : k.PILE + j * k.PILE_ROOM + PILE_ROOM] for j in range(5)],
        axis=1,
    )

    def per_seat(at: int, width: int = 1) -> np.ndarray:
        return s[:, at : at + width * n].reshape((b, n, width) if width > 1 else (b, n))

    def counters(at: int) -> np.ndarray:
        return x[:, at : at + CODES * n].reshape(b, n, CODES)

    fields = {
        "_cur": s[:, k.CUR], "_phase": s[:, k.PHASE], "_turn": s[:, k.TURN],
        "_turn_cap": s[:, k.TURN_CAP], "_no_take_back": s[:, k.NO_TAKE_BACK] != 0,
        "_end": s[:, k.END], "_pending": s[:, k.PENDING], "_discarded": s[:, k.DISCARDED],
        "_goal": s[:, k.GOAL], "_deck": s[:, k.DECK : k.DECK + DECK_CARDS],
        "_deck_n": s[:, k.DECK_N], "_piles": piles, "_pile_n": s[:, k.PILE_N : k.PILE_N + 5],
        "_hand": hands, "_known": counters(k.X_KNOWN), "_rows": counters(k.X_ROWS),
        "_rlast": per_seat(k.RLAST, 5), "_rdir": per_seat(k.RDIR, 5), "_pos": per_seat(k.POS, 5),
        "_started": per_seat(k.STARTED), "_big": per_seat(k.BIG),
        "_points": per_seat(k.POINTS), "_wishes": per_seat(k.WISHES),
        "_tiles": s[:, k.TILES : k.TILES + 50].reshape(b, 5, 10),
    }  # fmt: skip
    return load_batch(empty_state(n), fields, n, finish_setup, observe)
