"""What both games' JAX environments share: the state selection, the rewards and the
observation's size (``keltis.env.encode``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Final, TypeVar

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core as pgx_core

from keltis.env.encode import observation_size as _observation_size

Array = jax.Array
#: Cards in a full hand, in both games (B-7, C-5).
HAND_SIZE: Final = 8
T = TypeVar("T")


def select(condition: Array, then: T, otherwise: T) -> T:
    """``then`` where ``condition`` holds, else ``otherwise``: two states (pytrees of the same
    shape) chosen field by field without a Python branch on a traced value."""
    chosen: T = jax.tree_util.tree_map(lambda a, b: jnp.where(condition, a, b), then, otherwise)
    return chosen


#: ``d / 100`` for margins d of -200 … 200 and ``1 / k`` for k = 0 … 4 seats, as float32
#: rounded from the exact quotient, as numpy rounds it (tables: XLA may turn a division by a
#: constant into a multiplication, a bit off).
_MARGINS: Final = (np.arange(-200, 201) / 100).astype(np.float32)
_SHARES: Final = (1 / np.maximum(np.arange(5), 1)).astype(np.float32)


def rewards_of(scores: Array, margin: bool) -> Array:
    """Every seat's reward for a finished game's ``scores`` (``keltis.env.common``): ``win``
    gives 1/k to each of the k seats sharing the best score, ``margin`` own score minus the
    best other score, / 100."""
    if margin:
        n = scores.shape[0]
        others = jnp.where(jnp.eye(n, dtype=bool), -1000, scores[None, :]).max(axis=1)
        return jnp.asarray(_MARGINS)[jnp.clip(scores - others, -200, 200) + 200]
    winners = scores == scores.max()
    return jnp.where(winners, jnp.asarray(_SHARES)[winners.sum()], jnp.float32(0))


def observation_size(game: str, players: int) -> int:
    """The observation's length for ``game`` and ``players`` seats."""
    return _observation_size(game, players)


def fraction(x: Array, denominator: int, low: int = 0, high: int = 128) -> Array:
    """``x / denominator`` as float32 for whole ``x`` in ``low`` … ``high``, rounded from the
    exact quotient as numpy rounds it (a table: XLA may turn a division by a constant into a
    multiplication, a bit off, and the observation must equal the numba kernel's)."""
    table = (np.arange(low, high + 1) / denominator).astype(np.float32)
    return jnp.asarray(table)[jnp.clip(x, low, high) - low]


def one_hot(index: Array, size: int, on: Array | bool = True) -> Array:
    """A float32 one-hot of ``index`` (all 0 where ``on`` is false or ``index`` is outside)."""
    return ((jnp.arange(size) == index) & on).astype(jnp.float32)


def turn_share(turn: Array, cap: Array) -> Array:
    """Completed turns / the turn cap (1 at most), as the observation's ``turn`` field."""
    return jnp.minimum(turn / jnp.maximum(cap, 1), 1.0)


class KeltisEnv(pgx_core.Env):  # type: ignore[misc]
    """What both games' pgx environments share (each game's module subclasses it with its
    ``_init``, ``_step`` and ``_observe``): the seats, the reward, ``observe`` for any seat,
    the id and version."""

    #: The environment's id (``"keltis-board"``, ``"keltis-cards"``).
    env_id: str = ""

    def __init__(self, players: int, *, margin: bool) -> None:
        super().__init__()
        self._players = players
        self._margin = margin

    def observe(self, state: Any, player_id: Array | None = None) -> Array:
        """Seat ``player_id``'s observation (default: the seat to move's); only what that
        seat's view holds goes in (other hands and the draw pile only as counts)."""
        seat = state.current_player if player_id is None else player_id
        return jax.lax.stop_gradient(self._observe(state, seat))

    def _step_with_illegal_action(self, state: Any, loser: Array) -> Any:
        """An illegal action ends the game at once, as in pgx: the seat that chose it gets
        -1 and the others share +1 (pgx gives each other seat ``players - 1``, which only
        sums to 0 with two players)."""
        n = self._players
        rewards = jnp.full(n, 1 / (n - 1), dtype=jnp.float32).at[loser].set(-1.0)
        return state.replace(rewards=rewards, terminated=jnp.bool_(True))

    @property
    def id(self) -> str:
        """The environment's id."""
        return self.env_id

    @property
    def version(self) -> str:
        """The environment's version: raised when what a state or step means changes."""
        return "v1"

    @property
    def num_players(self) -> int:
        """Seats at the table."""
        return self._players


def load_batch(
    empty: Any, fields: dict[str, Any], players: int, finish: Callable[[Any], Any], observe: Any
) -> Any:
    """A batch of positions: ``empty`` (one game's empty state) repeated, with ``fields`` set
    (numpy arrays, batch first), then completed by ``finish`` (legal mask, seat to move) and
    given the seat to move's observation (``observe(state, seat, players)``)."""
    typed = {name: np.asarray(v, dtype=getattr(empty, name).dtype) for name, v in fields.items()}
    return _load(empty, typed, players, finish, observe)


@partial(jax.jit, static_argnums=(2, 3, 4))
def _load(
    empty: Any, fields: dict[str, Any], players: int, finish: Callable[[Any], Any], observe: Any
) -> Any:
    size = next(iter(fields.values())).shape[0]
    state = jax.tree_util.tree_map(lambda a: jnp.broadcast_to(a, (size, *a.shape)), empty)
    state = jax.vmap(finish)(state.replace(**fields))
    seen = jax.vmap(observe, in_axes=(0, 0, None))(state, state.current_player, players)
    return state.replace(observation=seen)


def redeal_cards(
    state: Any, viewer: int, rng: np.random.Generator, codes: int
) -> tuple[np.ndarray, np.ndarray]:
    """The hands and draw pile of ``state`` (one game) with every card ``viewer`` cannot see
    dealt anew: the other seats' hands but the cards known in them, and the draw pile (its
    size kept). The hidden information test: the viewer's observation must not change."""
    hand = np.array(state._hand)
    known = np.array(state._known)
    deck = np.array(state._deck)
    deck_n = int(state._deck_n)
    others = [q for q in range(hand.shape[0]) if q != viewer]
    unseen = {q: hand[q] - known[q] for q in others}
    hidden = [np.repeat(np.arange(codes), unseen[q]) for q in others]
    pool = rng.permutation(np.concatenate([*hidden, deck[:deck_n]]).astype(np.int32))
    at = 0
    for q in others:
        size = int(unseen[q].sum())
        hand[q] = known[q] + np.bincount(pool[at : at + size], minlength=codes)
        at += size
    deck[:deck_n] = pool[at:]
    return hand, deck


# -- pieces of the rules and the observation both games write alike --------------------------


def i32(x: Any) -> Array:
    """``x`` as an int32 array."""
    return jnp.asarray(x, dtype=jnp.int32)


def take_draw(state: Any, p: Array, from_deck: Array, pile: Array) -> tuple[Any, Array]:
    """Seat ``p`` draws the top card of the draw pile (``from_deck``) or of discard pile
    ``pile``: the card joins the hand, known to everyone when it came from a discard pile.
    Also whether it was the draw pile's last card."""
    deck_n = state._deck_n - 1
    pile_n = state._pile_n[pile] - 1
    card = jnp.where(
        from_deck,
        state._deck[jnp.clip(deck_n, 0, state._deck.shape[0] - 1)],
        state._piles[pile, jnp.clip(pile_n, 0, state._piles.shape[1] - 1)],
    )
    state = state.replace(
        _hand=state._hand.at[p, card].add(1),
        _deck_n=jnp.where(from_deck, deck_n, state._deck_n),
        _pile_n=jnp.where(from_deck, state._pile_n, state._pile_n.at[pile].set(pile_n)),
        _known=state._known.at[p, card].add((~from_deck).astype(jnp.int32)),
    )
    return state, from_deck & (deck_n == 0)


def finish_step(
    state: Any, mover: Array, over: Array, cut: Array, totals: Array, mask: Array, margin: bool
) -> Any:
    """pgx's fields after a decision of ``mover``: who moves next (the mover stays once the
    game is ``over``), every seat's reward at the end (``win`` or ``margin``, of ``totals``),
    whether the end was the turn cap (``cut``: truncated), and the legal ``mask``."""
    return state.replace(
        current_player=jnp.where(over, mover, state._cur),
        rewards=jnp.where(over, rewards_of(totals, margin), 0.0),
        terminated=over & ~cut,
        truncated=cut,
        legal_action_mask=mask,
    )


def pile_fields(state: Any, codes: int, room: int) -> dict[str, Array]:
    """The discard piles' fields of the observation: the top card of each (1 at its code),
    each pile's size / ``room``, every card in the piles (copies / 2)."""
    piles = state._piles.shape[0]
    in_pile = jnp.arange(state._piles.shape[1])[None, :] < state._pile_n[:, None]
    tops = state._piles[jnp.arange(piles), jnp.maximum(state._pile_n - 1, 0)]
    halves = jnp.where(in_pile.reshape(-1), jnp.float32(0.5), jnp.float32(0.0))
    return {
        "pile_tops": jnp.zeros(codes, jnp.float32).at[tops].max(state._pile_n > 0),
        "pile_sizes": fraction(state._pile_n, room),
        "piles": jnp.zeros(codes, jnp.float32).at[state._piles.reshape(-1)].add(halves),
    }


def assemble(
    table: dict[str, Array],
    blocks: list[dict[str, Array]],
    table_names: tuple[str, ...],
    player_names: tuple[str, ...],
) -> Array:
    """The observation vector: the table part's fields, then each player block's, in the
    encoding's order (``keltis.<game>.encoding``'s ``TABLE`` and ``PLAYER``)."""
    parts = [jnp.asarray(table[name], jnp.float32).reshape(-1) for name in table_names]
    for block in blocks:
        parts += [jnp.asarray(block[name], jnp.float32).reshape(-1) for name in player_names]
    return jnp.concatenate(parts)


def kernel_hands(states: np.ndarray, at: int, counts_at: int, players: int, codes: int) -> Any:
    """The hands of a batch of numba kernel states (``HAND`` slots at ``at``, their counts at
    ``counts_at``, 8 slots a seat) as copies per card code, ``(batch, players, codes)``."""
    batch = states.shape[0]
    hands = np.zeros((batch, players, codes), dtype=np.int32)
    for p in range(players):
        for i in range(HAND_SIZE):
            held = i < states[:, counts_at + p]
            rows, cards = np.flatnonzero(held), states[held, at + p * HAND_SIZE + i]
            np.add.at(hands, (rows, np.full_like(rows, p), cards), 1)
    return hands


def public_fields(players: int, size: int, actions: int) -> dict[str, Array]:
    """pgx's fields of a state before a deal: seat 0 to move, an observation of ``size``
    zeros, no rewards, not over, an empty mask over ``actions`` ids, no step yet."""
    return {
        "current_player": i32(0),
        "observation": jnp.zeros(size, dtype=jnp.float32),
        "rewards": jnp.zeros(players, dtype=jnp.float32),
        "terminated": jnp.bool_(False),
        "truncated": jnp.bool_(False),
        "legal_action_mask": jnp.zeros(actions, dtype=jnp.bool_),
        "_step_count": i32(0),
    }


def deal_cards(
    key: Array, deck: np.ndarray, players: int, codes: int
) -> tuple[Array, Array, Array]:
    """Shuffle the cards of ``deck`` with ``key`` and deal 8 to each seat, 30 removed unseen
    with two players (B-7, B-8, C-5, C-6): the hands as copies per card code, the draw pile
    (top last) and its size."""
    n = players
    cards = jax.random.permutation(key, jnp.asarray(deck))
    dealt = cards[: n * HAND_SIZE].reshape(n, HAND_SIZE)
    hands = jnp.zeros((n, codes), dtype=jnp.int32).at[jnp.arange(n)[:, None], dealt].add(1)
    start = n * HAND_SIZE + (30 if n == 2 else 0)
    left = len(deck) - start
    # cards[start] is the top of the draw pile: the array keeps the top last
    pile = jnp.zeros(len(deck), dtype=jnp.int32).at[:left].set(cards[start:][::-1])
    return hands, pile, i32(left)


def shared_table(state: Any, viewer: Array, players: int, phases: int) -> dict[str, Array]:
    """The table fields both games' observations have: phase, who decides, turn, the
    viewer's hand, the draw pile's size, the cards removed unseen, the discard piles."""
    n = players
    cur = state._cur
    deck = state._deck.shape[0]
    return {
        "phase": one_hot(state._phase, phases),
        "to_move": one_hot((cur - viewer) % n, 4, cur >= 0),
        "turn": turn_share(state._turn, state._turn_cap)[None],
        "hand": state._hand[viewer] * jnp.float32(0.5),
        "deck": fraction(state._deck_n, deck)[None],
        "removed": jnp.full(1, 1.0 if n == 2 else 0.0),
        **pile_fields(state, state._hand.shape[1], state._piles.shape[1]),
    }


def shared_seat(state: Any, seat: Array, total: Array) -> dict[str, Array]:
    """The player-block fields both games have: the cards in the seat's rows, its score
    (``total`` / 100), its hand's size / 8 and the cards known in its hand."""
    return {
        "rows": state._rows[seat] * jnp.float32(0.5),
        "score": fraction(total, 100, -100, 100)[None],
        "hand_size": (state._hand[seat].sum() / HAND_SIZE)[None],
        "known": state._known[seat] * jnp.float32(0.5),
    }


def redeal(state: Any, viewer: int, rng: np.random.Generator) -> Any:
    """``state`` (one game) with every card ``viewer`` cannot see dealt anew: the other seats'
    hands but the cards known in them, and the draw pile (its size kept). The hidden
    information test: ``observe(redeal(s, v, rng), v)`` must equal ``observe(s, v)``."""
    hand, deck = redeal_cards(state, viewer, rng, state._hand.shape[1])
    return state.replace(_hand=jnp.asarray(hand), _deck=jnp.asarray(deck))
