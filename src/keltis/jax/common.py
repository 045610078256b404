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
