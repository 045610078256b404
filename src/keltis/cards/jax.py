"""Keltis: The Card Game (RULES.md C-1 … C-19) in JAX, as a pgx environment (``keltis.jax``).

A game is a :class:`CardsState`, a pytree of arrays, and every rule is array arithmetic with
no Python branch on a traced value, so ``jax.jit``, ``jax.vmap`` and ``jax.lax.scan`` take the
environment's functions as they are. The rules are the numba kernel's
(``keltis.cards.kernel``) written once more over counts instead of hand slots: a hand is the
copies of each card code it holds (``_hand[p, code]``), so "each distinct card once" in the
legal list is simply a mask. ``keltis.jax.diff`` proves the two equal decision by decision
(observation, legal mask, rewards, end) from the same deals.

The observation is the documented encoding (``keltis.cards.encoding``; ``docs/rl.md``): the
same float32 vector ``keltis.fast.BatchEnv`` and :func:`keltis.env.encode.encode` give for the
same seat and position. The actions are the card game's 500 ids (``keltis.cards.actions``).
"""

from __future__ import annotations

from typing import Any, Final

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core as pgx_core
from pgx._src.struct import dataclass  # the pytree dataclass pgx's own games are built on

from keltis.cards.actions import (
    ACTIONS,
    CLAIM_BASE,
    CLAIM_FIRST,
    CLAIM_SECOND,
    DISCARD_BASE,
    DRAW_DECK,
    DRAW_PILE_BASE,
    LAY_ONTO_BASE,
    PASS_INDEX,
)
from keltis.cards.encoding import PLAYER, TABLE
from keltis.cards.tables import CARD_ROW_POINTS, CARD_WISH_POINTS, COPIES
from keltis.core.card_codes import CARD_COLOUR, CARD_VALUE, CLOSING_BASE, POINT_BASE
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
ENV_ID: Final = "keltis-cards"

CODES: Final = 71
DECK_CARDS: Final = 101
#: Room per discard pile: a colour's 16 number and 2 closing cards (the point pile takes 11).
PILE_ROOM: Final = 18
NUM_ACTIONS: Final = ACTIONS.size
#: The lays are the action ids below this one (``keltis.jax.diff``'s ``lays`` policy).
LAYS: Final = DISCARD_BASE

# phases and end reasons: the kernel's and the reference's order
PLAY: Final = 0
DRAW: Final = 1
FINAL: Final = 2
OVER: Final = 3
END_DECK: Final = 1
END_CLOSED: Final = 2
END_TRUNCATED: Final = 3

if (LAY_ONTO_BASE, DISCARD_BASE, CLAIM_BASE) != (CODES, CODES + 55, 2 * CODES + 55):
    raise ImportError("the card game's action ids moved: keltis.cards.jax lays them out anew")

#: The 101 cards (C-1-C-3) by code, lowest first.
FULL_DECK: Final = np.array([c for c in range(CODES) for _ in range(COPIES[c])], dtype=np.int32)
#: Discard pile of each card (C-7): its colour, or 5 for a point card.
PILE_OF: Final = np.array([CARD_COLOUR[c] if c < POINT_BASE else 5 for c in range(CODES)])
_NUMBER_COLOUR: Final = np.array(CARD_COLOUR[:CLOSING_BASE])
_NUMBER_VALUE: Final = np.array(CARD_VALUE[:CLOSING_BASE])
_POINT_VALUES: Final = np.arange(11)


def _slot(card: int) -> int:
    return CARD_COLOUR[card] if card < CLOSING_BASE else 5


# Claims (C-8): each claim id's two cards and value. The legal list names a pair once, the
# lower claim slot first (a number card's colour 0-4, 5 for the point card), as the reference
# and the kernel do: the other order is an id too, accepted when typed, never offered.
_CLAIM_FIRST: Final = np.array(CLAIM_FIRST, dtype=np.int32)
_CLAIM_SECOND: Final = np.array(CLAIM_SECOND, dtype=np.int32)
_CLAIM_VALUE: Final = np.array([CARD_VALUE[c] for c in CLAIM_FIRST], dtype=np.int32)
_CLAIM_OFFERED: Final = np.array(
    [_slot(a) <= _slot(b) for a, b in zip(CLAIM_FIRST, CLAIM_SECOND, strict=True)]
)
_CLAIMS: Final = len(CLAIM_FIRST)
_ROW_POINTS: Final = np.array(CARD_ROW_POINTS, dtype=np.int32)  # C-16, by min(cards, 9)
_WISH_POINTS: Final = np.array(CARD_WISH_POINTS, dtype=np.int32)  # C-18, by min(stones, 5)


@dataclass
class CardsState(pgx_core.State):  # type: ignore[misc]
    """One card game (``vmap`` makes a batch of them). The public fields are pgx's; the
    others hold the rules' state: per seat ``p`` its hand, the cards known to be in it
    (taken from a discard pile) and the cards in its colour rows, as copies per card code;
    its rows' lengths, last values (-1: empty), directions (+1, -1, 0 open) and closing
    cards; the values in its point row and the wish stones (1-9) it claimed. The draw pile
    lies in ``_deck[:_deck_n]``, top last; discard pile ``k`` in ``_piles[k, :_pile_n[k]]``."""

    _cur: Array
    _phase: Array
    _turn: Array
    _turn_cap: Array
    _end: Array
    _end_pending: Array
    _ender: Array
    _draws: Array
    _lays: Array
    _closed: Array
    _blocked: Array
    _wish_row: Array
    _deck: Array
    _deck_n: Array
    _piles: Array
    _pile_n: Array
    _hand: Array
    _known: Array
    _rows: Array
    _rlen: Array
    _rlast: Array
    _rdir: Array
    _rclosed: Array
    _prow: Array
    _wishes: Array

    @property
    def env_id(self) -> str:
        """The environment's id."""
        return ENV_ID


def empty_state(players: int, turn_cap: int = DEFAULT_TURN_CAP) -> CardsState:
    """A state with no cards anywhere, before a deal (``deal`` or a loaded position fills it)."""
    n = players
    return CardsState(
        **public_fields(n, observation_size("cards", n), NUM_ACTIONS),
        _cur=i32(0),
        _phase=i32(PLAY),
        _turn=i32(0),
        _turn_cap=i32(turn_cap),
        _end=i32(-1),
        _end_pending=i32(-1),
        _ender=i32(-1),
        _draws=i32(0),
        _lays=i32(0),
        _closed=i32(0),
        _blocked=jnp.zeros(6, dtype=jnp.bool_),
        _wish_row=jnp.arange(10) > 0,
        _deck=jnp.zeros(DECK_CARDS, dtype=jnp.int32),
        _deck_n=i32(0),
        _piles=jnp.zeros((6, PILE_ROOM), dtype=jnp.int32),
        _pile_n=jnp.zeros(6, dtype=jnp.int32),
        _hand=jnp.zeros((n, CODES), dtype=jnp.int32),
        _known=jnp.zeros((n, CODES), dtype=jnp.int32),
        _rows=jnp.zeros((n, CODES), dtype=jnp.int32),
        _rlen=jnp.zeros((n, 5), dtype=jnp.int32),
        _rlast=jnp.full((n, 5), -1, dtype=jnp.int32),
        _rdir=jnp.zeros((n, 5), dtype=jnp.int32),
        _rclosed=jnp.zeros((n, 5), dtype=jnp.int32),
        _prow=jnp.zeros((n, 11), dtype=jnp.bool_),
        _wishes=jnp.zeros((n, 10), dtype=jnp.bool_),
    )


def deal(key: Array, players: int, turn_cap: int = DEFAULT_TURN_CAP) -> CardsState:
    """Shuffle with ``key`` and deal (C-5, C-6): 8 cards to each seat, 30 removed unseen with
    two players, the rest the draw pile; seat 0 begins."""
    hands, deck, left = deal_cards(key, FULL_DECK, players, CODES)
    state = empty_state(players, turn_cap)
    return finish_setup(state.replace(_hand=hands, _deck=deck, _deck_n=left))


def finish_setup(state: CardsState) -> CardsState:
    """A loaded or dealt position's legal mask (its observation: ``Env.init`` adds it)."""
    return state.replace(
        current_player=jnp.maximum(state._cur, 0),
        legal_action_mask=legal_mask(state),
    )


# -- legal decisions ----------------------------------------------------------------------


def _lay_mask(
    hand: Array, rlen: Array, rlast: Array, rdir: Array, rclosed: Array, prow: Array, final: Array
) -> Array:
    """One seat's legal lays, ids 0-125 (C-9-C-11; ``final``: C-15, existing rows only)."""
    open_row = (rlen > 0) & (rclosed == 0)
    length = rlen[_NUMBER_COLOUR]
    d = rdir[_NUMBER_COLOUR]
    last = rlast[_NUMBER_COLOUR]
    fits = (d == 0) | ((d > 0) & (last <= _NUMBER_VALUE)) | ((d < 0) & (last >= _NUMBER_VALUE))
    number = (hand[:CLOSING_BASE] > 0) & (
        ((length == 0) & ~final) | (open_row[_NUMBER_COLOUR] & fits)
    )
    closing = (hand[CLOSING_BASE:POINT_BASE] > 0) & (rlen > 0) & (rclosed < 2)
    point = (hand[POINT_BASE:] > 0) & (~final | prow.any())
    onto = (
        (hand[POINT_BASE:, None] > 0)
        & open_row[None, :]
        & (rlast[None, :] == _POINT_VALUES[:, None])
    )
    return jnp.concatenate([number, closing, point, onto.reshape(-1)])


def _can_lay_final(state: CardsState) -> Array:
    """Per seat: whether it has a last card it may lay (C-15)."""
    masks = jax.vmap(_lay_mask, in_axes=(0, 0, 0, 0, 0, 0, None))(
        state._hand, state._rlen, state._rlast, state._rdir, state._rclosed, state._prow,
        jnp.bool_(True),
    )  # fmt: skip
    return masks.any(axis=1)


def legal_mask(state: CardsState) -> Array:
    """The seat to move's legal decisions as a mask over the 500 action ids."""
    p = jnp.maximum(state._cur, 0)
    phase = state._phase
    hand = state._hand[p]
    lays = _lay_mask(
        hand, state._rlen[p], state._rlast[p], state._rdir[p], state._rclosed[p],
        state._prow[p], phase == FINAL,
    )  # fmt: skip
    first = hand[_CLAIM_FIRST]
    second = hand[_CLAIM_SECOND]
    pair = jnp.where(_CLAIM_FIRST == _CLAIM_SECOND, first >= 2, (first > 0) & (second > 0))
    claims = _CLAIM_OFFERED & state._wish_row[_CLAIM_VALUE] & pair
    none_c, none_claims = jnp.zeros(CODES, bool), jnp.zeros(_CLAIMS, bool)
    no, yes = jnp.zeros(1, bool), jnp.ones(1, bool)
    no_draws = jnp.zeros(7, bool)
    play = jnp.concatenate([lays, hand > 0, claims, no, no_draws])
    final = jnp.concatenate([lays, none_c, none_claims, yes, no_draws])
    piles = (state._pile_n > 0) & ~state._blocked
    draw = jnp.concatenate([jnp.zeros(PASS_INDEX + 1, bool), yes, piles])
    return jnp.select([phase == PLAY, phase == DRAW, phase == FINAL], [play, draw, final], False)


# -- effects ------------------------------------------------------------------------------


def _take(state: CardsState, p: Array, card: Array) -> CardsState:
    """``card`` leaves ``p``'s hand, and a known copy of it (if any) is no longer known."""
    known = state._known[p, card]
    return state.replace(
        _hand=state._hand.at[p, card].add(-1),
        _known=state._known.at[p, card].set(jnp.maximum(known - 1, 0)),
    )


def _to_pile(state: CardsState, card: Array) -> tuple[CardsState, Array]:
    """``card`` onto its discard pile (C-7); also the pile's number."""
    k = jnp.asarray(PILE_OF)[card]
    n = state._pile_n[k]
    return state.replace(
        _piles=state._piles.at[k, n].set(card), _pile_n=state._pile_n.at[k].add(1)
    ), k


def _finish(state: CardsState, reason: Array) -> CardsState:
    return state.replace(
        _phase=i32(OVER), _end=i32(reason), _cur=i32(-1), _draws=i32(0), _lays=i32(0),
        _blocked=jnp.zeros(6, bool),
    )  # fmt: skip


def _final_from(state: CardsState, seat: Array, n: int) -> CardsState:
    """The final lays (C-15) go to ``seat`` or the next seat up to the ender that can lay;
    if none can, the game is over."""
    distance = (jnp.arange(n) - seat) % n
    last = (state._ender - seat) % n
    candidates = _can_lay_final(state) & (distance <= last)
    first = jnp.argmin(jnp.where(candidates, distance, n))
    laying = state.replace(_cur=i32(first), _phase=i32(FINAL), _lays=i32(2))
    return select(candidates.any(), laying, _finish(state, state._end_pending))


def _end(state: CardsState, p: Array, reason: int, n: int) -> CardsState:
    """C-13 or C-14 ended the game in ``p``'s turn: on to the final lays."""
    state = state.replace(
        _turn=state._turn + 1, _ender=p, _end_pending=i32(reason), _draws=i32(0),
        _blocked=jnp.zeros(6, bool),
    )  # fmt: skip
    return _final_from(state, (p + 1) % n, n)


def _final_done(state: CardsState, p: Array, n: int) -> CardsState:
    state = state.replace(_lays=i32(0))
    return select(
        p == state._ender,
        _finish(state, state._end_pending),
        _final_from(state, (p + 1) % n, n),
    )


def _lay(state: CardsState, p: Array, a: Array) -> tuple[CardsState, Array]:
    """Lay decision ``a`` (ids 0-125) for ``p``; also whether it closed a fifth row (C-13)."""
    onto = a >= LAY_ONTO_BASE
    v_onto = (a - LAY_ONTO_BASE) // 5
    card = jnp.where(onto, POINT_BASE + v_onto, a)
    point_row = ~onto & (a >= POINT_BASE)
    number = a < CLOSING_BASE
    closing = (a >= CLOSING_BASE) & (a < POINT_BASE)
    colour = jnp.where(onto, (a - LAY_ONTO_BASE) % 5, jnp.where(number, a // 11, a - CLOSING_BASE))
    colour = jnp.clip(colour, 0, 4)
    in_row = ~point_row
    state = _take(state, p, card)
    length = state._rlen[p, colour]
    last = state._rlast[p, colour]
    value = a % 11
    turns = number & (length > 0) & (state._rdir[p, colour] == 0) & (value != last)
    direction = jnp.where(turns, jnp.sign(value - last), state._rdir[p, colour])
    closed = state._rclosed[p, colour]
    newly = closing & (closed == 0)
    closed_rows = state._closed + newly.astype(jnp.int32)
    state = state.replace(
        _rows=state._rows.at[p, card].add(in_row.astype(jnp.int32)),
        _rlen=state._rlen.at[p, colour].add(in_row.astype(jnp.int32)),
        _rlast=state._rlast.at[p, colour].set(jnp.where(number, value, last)),
        _rdir=state._rdir.at[p, colour].set(direction),
        _rclosed=state._rclosed.at[p, colour].add(closing.astype(jnp.int32)),
        _closed=closed_rows,
        _prow=state._prow.at[p, jnp.clip(card - POINT_BASE, 0, 10)].max(point_row),
    )
    return state, newly & (closed_rows >= 5) & (state._phase == PLAY)


def _play(state: CardsState, p: Array, a: Array, n: int) -> CardsState:
    """A lay (C-9-C-11), a discard (C-7) or a claim (C-8), then the draws are due."""
    laid, closes = _lay(state, p, jnp.minimum(a, DISCARD_BASE - 1))
    laid = select(closes, _end(laid, p, END_CLOSED, n), laid.replace(_draws=i32(1)))
    card = jnp.clip(a - DISCARD_BASE, 0, CODES - 1)
    discarded, k = _to_pile(_take(state, p, card), card)
    discarded = discarded.replace(_blocked=jnp.arange(6) == k, _draws=i32(1))
    c = jnp.clip(a - CLAIM_BASE, 0, _CLAIMS - 1)
    first, second = jnp.asarray(_CLAIM_FIRST)[c], jnp.asarray(_CLAIM_SECOND)[c]
    value = jnp.asarray(_CLAIM_VALUE)[c]
    claimed = _take(_take(state, p, first), p, second)
    claimed, k1 = _to_pile(claimed, first)
    claimed, k2 = _to_pile(claimed, second)
    claimed = claimed.replace(
        _blocked=(jnp.arange(6) == k1) | (jnp.arange(6) == k2),
        _wish_row=claimed._wish_row.at[value].set(False),
        _wishes=claimed._wishes.at[p, value].set(True),
        _draws=i32(2),
    )
    after = select(a < DISCARD_BASE, laid, select(a < CLAIM_BASE, discarded, claimed))
    # a lay that ended the game left the play phase; every other decision leads to the draws
    return after.replace(_phase=jnp.where(after._phase == PLAY, DRAW, after._phase))


def _draw(state: CardsState, p: Array, a: Array, n: int) -> CardsState:
    """A draw (C-12) from the draw pile or a discard pile; the last card of the draw pile
    ends the game (C-14), the last draw due ends the turn."""
    from_deck, pile = a == DRAW_DECK, jnp.clip(a - DRAW_PILE_BASE, 0, 5)
    state, last_card = take_draw(state, p, from_deck, pile)
    ended = _end(state, p, END_DECK, n)
    state = state.replace(_draws=state._draws - 1)
    turn = state._turn + 1
    truncated = _finish(state.replace(_turn=turn), i32(END_TRUNCATED))
    passed = state.replace(
        _turn=turn, _cur=(p + 1) % n, _phase=i32(PLAY), _blocked=jnp.zeros(6, bool)
    )
    turn_over = select(turn >= state._turn_cap, truncated, passed)
    after = select(state._draws == 0, turn_over, state)
    return select(last_card, ended, after)


def _final_lay(state: CardsState, p: Array, a: Array, n: int) -> CardsState:
    """One of the last two lays (C-15), or a pass."""
    laid, _ = _lay(state, p, jnp.minimum(a, DISCARD_BASE - 1))
    laid = laid.replace(_lays=laid._lays - 1)
    done = (laid._lays == 0) | ~_can_lay_final(laid)[p]
    laid = select(done, _final_done(laid, p, n), laid)
    return select(a == PASS_INDEX, _final_done(state, p, n), laid)


def apply(state: CardsState, action: Array, n: int) -> CardsState:
    """Carry out the legal decision ``action`` for the seat to move (the rules' state only)."""
    p = jnp.maximum(state._cur, 0)
    a = i32(action)
    # the rules never read the observation and the mask: left out, no rule copies them
    seen, mask = state.observation, state.legal_action_mask
    state = state.replace(observation=jnp.zeros(0), legal_action_mask=jnp.zeros(0, bool))
    state = jax.lax.switch(
        jnp.clip(state._phase, 0, 2),
        [
            lambda s: _play(s, p, a, n),
            lambda s: _draw(s, p, a, n),
            lambda s: _final_lay(s, p, a, n),
        ],
        state,
    )
    return state.replace(observation=seen, legal_action_mask=mask)


def scores(state: CardsState) -> Array:
    """Every seat's total (C-16-C-18), as if the game ended now."""
    rows = jnp.asarray(_ROW_POINTS)[jnp.minimum(state._rlen, 9)].sum(axis=1)
    stones = jnp.asarray(_WISH_POINTS)[jnp.minimum(state._wishes.sum(axis=1), 5)]
    return state._prow.sum(axis=1) + rows + stones


def step(state: CardsState, action: Array, n: int, margin: bool) -> CardsState:
    """``apply``, then pgx's fields: who moves, the legal mask, and at the end every seat's
    reward (``win`` or ``margin``) and whether the end was the turn cap (truncated)."""
    p = jnp.maximum(state._cur, 0)
    state = apply(state, action, n)
    over = state._phase == OVER
    cut = over & (state._end == END_TRUNCATED)
    return finish_step(state, p, over, cut, scores(state), legal_mask(state), margin)


# -- the observation (keltis.cards.encoding) -----------------------------------------------


def _table(state: CardsState, viewer: Array, n: int) -> dict[str, Array]:
    """The table part's fields, each as ``keltis.cards.encoding`` fills it."""
    phase = state._phase
    return {
        **shared_table(state, viewer, n, 4),
        "wish_row": state._wish_row[1:],
        "blocked": state._blocked,
        "draws_left": jnp.where(phase == DRAW, state._draws / 2, 0.0)[None],
        "final_lays_left": jnp.where(phase == FINAL, state._lays / 2, 0.0)[None],
        "closed_rows": fraction(state._closed, 10)[None],
        "ender": one_hot(jnp.where(state._ender >= 0, (state._ender - viewer) % n, 4), 5),
    }


def _player(state: CardsState, seat: Array, total: Array) -> dict[str, Array]:
    """One seat's player block's fields (``total``: its score)."""
    rlen = state._rlen[seat]
    d = state._rdir[seat]
    last = jnp.where(state._rclosed[seat] > 0, 11, state._rlast[seat])
    return {
        **shared_seat(state, seat, total),
        "point_row": state._prow[seat],
        "row_lengths": fraction(rlen, 29),
        "row_last": jax.vmap(one_hot, in_axes=(0, None, 0))(last, 12, rlen > 0).reshape(-1),
        "directions": jnp.stack([d == 0, d > 0, d < 0], axis=1).reshape(-1),
        "wishes": state._wishes[seat, 1:],
    }


_TABLE_NAMES: Final = tuple(f.name for f in TABLE)
_PLAYER_NAMES: Final = tuple(f.name for f in PLAYER)


def observe(state: CardsState, viewer: Array, n: int) -> Array:
    """Seat ``viewer``'s observation: the numbers ``keltis.env.encode.encode`` gives for its
    view (table part, then a player block per seat starting with the viewer's)."""
    totals = scores(state)
    seats = [(viewer + k) % n for k in range(n)]
    blocks = [_player(state, seat, totals[seat]) for seat in seats]
    return assemble(_table(state, viewer, n), blocks, _TABLE_NAMES, _PLAYER_NAMES)


# -- the pgx environment ------------------------------------------------------------------


class CardsEnv(KeltisEnv):
    """The card game for ``players`` seats as a pgx environment (``keltis.jax.make``).

    ``turn_cap``: the variant's turn cap (the game ends truncated after that many turns);
    ``reward``: ``win`` (1/k to each of the k seats sharing the best score) or ``margin`` (own
    score minus the best other score, / 100), paid at the last step as ``BatchEnv`` pays them.
    """

    env_id = ENV_ID

    def __init__(
        self, players: int = 2, *, turn_cap: int = DEFAULT_TURN_CAP, reward: str = "win"
    ) -> None:
        super().__init__(players, margin=reward == "margin")
        self._turn_cap = turn_cap

    def _init(self, key: Array) -> CardsState:
        return deal(key, self._players, self._turn_cap)

    def _step(self, state: CardsState, action: Array, key: Array | None) -> CardsState:
        del key  # every card is dealt at init: a step draws nothing at random
        return step(state, action, self._players, self._margin)

    def _observe(self, state: CardsState, player_id: Array) -> Array:
        return observe(state, player_id, self._players)


def make_env(
    players: int, switches: dict[str, Any], reward: str, options: dict[str, Any]
) -> CardsEnv:
    """The environment of ``keltis.jax.make`` (``switches``: the variant's JSON, checked)."""
    if options:
        raise ValueError(f"the card game has no option {', '.join(sorted(options))}")
    return CardsEnv(players, turn_cap=int(switches["turn_cap"]), reward=reward)


# -- positions from elsewhere: the numba kernel's, re-dealt hidden cards ---------------------


def from_kernel(states: np.ndarray, extras: np.ndarray, players: int) -> CardsState:
    """A batch of positions of the numba kernel (``keltis.fast.BatchEnv.snapshot``'s ``states``
    and ``extras``: the rules' state and the observation's counters), as a batched state with
    its legal masks and the observation of the seat to move."""
    # the kernel module needs numba: only a caller holding kernel states (the proof) gets here
    from keltis.cards import kernel as k

    s = np.asarray(states, dtype=np.int64)
    x = np.asarray(extras, dtype=np.int64)
    b, n = s.shape[0], players
    hands = kernel_hands(s, k.HAND, k.HAND_N, n, CODES)
    bits = s[:, [k.BLOCKED]] >> np.arange(6)
    wish = s[:, [k.WISHMASK]] >> np.arange(10)
    piles = np.stack(
        [s[:, k.PILE + j * k.PILE_ROOM : k.PILE + j * k.PILE_ROOM + PILE_ROOM] for j in range(6)],
        axis=1,
    )

    def seat_rows(at: int, width: int) -> np.ndarray:
        return s[:, at : at + width * n].reshape(b, n, width)

    def counters(at: int, width: int) -> np.ndarray:
        return x[:, at : at + width * n].reshape(b, n, width)

    fields = {
        "_cur": s[:, k.CUR], "_phase": s[:, k.PHASE], "_turn": s[:, k.TURN],
        "_turn_cap": s[:, k.TURN_CAP], "_end": s[:, k.END], "_end_pending": s[:, k.END_PENDING],
        "_ender": s[:, k.ENDER], "_draws": s[:, k.DRAWS], "_lays": s[:, k.LAYS],
        "_closed": s[:, k.CLOSED], "_blocked": (bits & 1) > 0, "_wish_row": (wish & 1) > 0,
        "_deck": s[:, k.DECK : k.DECK + DECK_CARDS], "_deck_n": s[:, k.DECK_N],
        "_piles": piles, "_pile_n": s[:, k.PILE_N : k.PILE_N + 6], "_hand": hands,
        "_known": counters(k.X_KNOWN, CODES), "_rows": counters(k.X_ROWS, CODES),
        "_rlen": seat_rows(k.RLEN, 5), "_rlast": seat_rows(k.RLAST, 5),
        "_rdir": seat_rows(k.RDIR, 5), "_rclosed": seat_rows(k.RCLOSED, 5),
        "_prow": counters(k.X_PROW, 11) > 0, "_wishes": counters(k.X_WISH, 10) > 0,
    }  # fmt: skip
    return load_batch(empty_state(n), fields, n, finish_setup, observe)
