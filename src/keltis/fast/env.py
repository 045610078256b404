"""``BatchEnv``: many games stepped together in compiled code, with the learning interfaces'
observations, masks and rewards (the pgx / EnvPool way).

::

    from keltis.fast import BatchEnv

    env = BatchEnv("cards", players=2, batch=256, seed=0, opponents="greedy")
    obs, masks, to_move = env.reset()            # (256, size) float32, (256, 500) int8, (256,)
    while True:
        actions = choose(obs, masks)             # one legal action id per game
        obs, masks, to_move, rewards, dones = env.step(actions)

Each game of the batch is one :mod:`keltis.fast` kernel state. ``step`` applies one action per
game for the seat to move, lets the seats not driven by the learner move inside the kernel
(``opponents``: ``random``, ``greedy`` or ``medium``, as :func:`keltis.fast.simulate` plays
them), and
deals a finished game's next episode in place: ``dones[b]`` says game ``b`` ended,
``rewards[b]`` holds every seat's reward for it (``win`` or ``margin``, as
:data:`keltis.env.common.REWARDS`), and :attr:`BatchEnv.final_obs` its last observation, seen
by :attr:`BatchEnv.final_seat` (the learner's seat; in self-play the seat that made the last
decision); ``obs`` and ``masks`` are already the new game's. ``opponents=None`` is self-play:
the learner decides for every seat, ``to_move`` says which.

The observation and the mask are exactly :func:`keltis.env.encode.encode` and
:func:`~keltis.env.encode.action_mask` of the seat to move's view, and the rewards
:func:`keltis.env.common.terminal_reward`'s (``keltis.fast.env_diff`` proves it decision by
decision against the reference engine). Episode ``e`` of game ``b`` is dealt and played from
its own random stream, derived from ``(seed, b, e)``: the same seed replays the same games
whatever the batch size. ``reset(seed=[s0, s1, …])`` seeds each game on its own: game ``b``
then plays the stream ``(s_b, 0, e)``, the games a one-game batch seeded ``s_b`` plays (what a
Gymnasium vector env needs: :mod:`keltis.fast.vector`). The arrays returned are the
environment's own, overwritten by the next call: copy what you keep. The observations are
read-only: the kernel keeps each game's row up to date from step to step (a step writes only
what changed: writing every number anew was half of a step), so a change made to them would
stay wrong; copy them to change them (``np.array(obs)``; ``torch.tensor(obs)`` copies,
``torch.from_numpy`` would share them and warns).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Final, cast

import numpy as np
import numpy.typing as npt

from keltis.core.protocol import JSON
from keltis.env.common import REWARDS
from keltis.env.encode import observation_layout
from keltis.fast import driver
from keltis.fast.batch import POLICIES, check_policy
from keltis.fast.setup import kernel, seed_bits, switches, to_setup
from keltis.fast.tuning import Tuning, weights
from keltis.games import get_game

Observations = npt.NDArray[np.float32]
Masks = npt.NDArray[np.int8]
Seats = npt.NDArray[np.int32]
Rewards = npt.NDArray[np.float64]
Flags = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class BatchState:
    """Games of a :class:`BatchEnv` as data (:meth:`BatchEnv.snapshot`): each game's kernel
    state, its counters of what its observation row shows, its random stream, its episode and
    learner's seat, and the observation, mask and seat to move it shows; one row per game."""

    game: str
    players: int
    states: npt.NDArray[np.int32] = field(repr=False)
    extras: npt.NDArray[np.int8] = field(repr=False)
    rngs: npt.NDArray[np.uint64] = field(repr=False)
    episodes: npt.NDArray[np.int64] = field(repr=False)
    seats: npt.NDArray[np.int32] = field(repr=False)
    obs: npt.NDArray[np.float32] = field(repr=False)
    masks: npt.NDArray[np.int8] = field(repr=False)
    to_move: npt.NDArray[np.int32] = field(repr=False)

    def __len__(self) -> int:
        return int(self.states.shape[0])


#: The learner's seat in ``config``: drawn per episode, or self-play (every seat).
_DRAWN: Final = -1
_SELF_PLAY: Final = -2


def obs_offsets(game: str, players: int, k: ModuleType) -> npt.NDArray[np.int64]:
    """Where the kernel's observation writes each field (``OBS_TABLE``, ``OBS_PLAYER`` of the
    game's kernel), read from :func:`keltis.env.encode.observation_layout`: table offsets,
    offsets within a player block, then the table part's and a block's size."""
    lay = observation_layout(game, players)
    table = [lay.offset(name) for name in k.OBS_TABLE]
    player = [lay.offset(name, 0) - lay.table_size for name in k.OBS_PLAYER]
    if len(k.OBS_TABLE) != len(lay.table) or len(k.OBS_PLAYER) != len(lay.player):
        raise ImportError(f"the {game} kernel's observation does not fill every field")
    return np.array([*table, *player, lay.table_size, lay.block_size], dtype=np.int64)


def json_opponents(
    opponents: tuple[str, ...] | tuple[tuple[str, ...], ...],
) -> list[str] | list[list[str]]:
    """Opponents as JSON lists (by seat, or by game slot and seat)."""
    if opponents and not isinstance(opponents[0], str):
        return [list(row) for row in opponents]
    return list(cast(tuple[str, ...], opponents))


class BatchEnv:
    """``batch`` games of ``game`` for ``players`` seats, stepped together (see the module).

    - ``opponents``: ``random``, ``greedy`` or ``medium`` (the medium level's heuristic) for
      every seat but the learner's, or one per other seat in turn order after the learner's,
      or such a list per game slot (``batch`` lists: slot ``b`` plays ``opponents[b]``);
      ``None``: self-play, the learner decides for every seat.
    - ``tuning``: the ``medium`` opponents' weights (the game's ``CardTuning`` or
      ``BoardTuning``; the medium level's when ``None``).
    - ``seat``: the learner's seat, or ``None`` (default) for a seat drawn per episode from
      its stream (ignored in self-play).
    - ``reward``: ``win`` (1 for a win, 1/k for a victory shared by k, else 0) or ``margin``
      ((own score - best other score) / 100), paid to every seat when its game ends.
    - ``variant``: rule switches (``{"turn_cap": 200}``), as in records.
    - ``record``: keep the decisions each step made in every game (:attr:`trace`), for the
      differential test.
    """

    def __init__(
        self,
        game: str,
        players: int = 2,
        batch: int = 64,
        seed: int = 0,
        opponents: str | Sequence[str] | Sequence[Sequence[str]] | None = "random",
        *,
        seat: int | None = None,
        reward: str = "win",
        variant: JSON | None = None,
        record: bool = False,
        tuning: Tuning | None = None,
    ) -> None:
        get_game(game).check_players(players)
        k = self._k = kernel(game)
        self._tag = driver.tag(game)
        if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
            raise ValueError(f"batch must be a whole number of at least 1, not {batch!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.game = game
        self.players = players
        self.batch = batch
        self.actions = get_game(game).actions
        """The game's action space: a mask has an entry per id (124 for the board game, 500
        for the card game)."""
        self.seed = seed
        self.reward = reward
        self.variant = get_game(game).variant_json(variant)
        self.self_play = opponents is None
        self.opponents = self._opponents(opponents)
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"no seat {seat} in a {players}-player game")
        self.fixed_seat = seat
        self.seeds = np.full(batch, seed_bits(seed), dtype=np.uint64)
        """The seed of each game's stream (``seed`` modulo 2**64 unless reset with a list)."""
        self.indices = np.arange(batch, dtype=np.int64)
        """The index of each game in its stream (its slot, or 0 for a game seeded alone)."""
        self._rules = switches(game, variant)
        self.tuning = tuning
        self._weights = weights(game, tuning, players)
        self._config = self._kernel_config(seat)
        self._offsets = obs_offsets(game, players, k)
        self.size = observation_layout(game, players).size
        self._states = np.zeros((batch, k.SIZE), dtype=np.int32)
        self._extras = np.zeros((batch, k.X_SIZE), dtype=np.int8)
        self._rngs = np.zeros(batch, dtype=np.uint64)
        self._work = np.zeros(k.WORK, dtype=np.int32)
        self.episodes = np.zeros(batch, dtype=np.int64)
        """How many episodes each game has finished (the episode being played)."""
        self.seats = np.zeros(batch, dtype=np.int32)
        """The learner's seat in each game (-1 in self-play)."""
        self._obs = np.zeros((batch, self.size), dtype=np.float32)
        self.obs: Observations = self._obs.view()
        """The observation of the seat to move in each game: read-only (the kernel keeps each
        row up to date from step to step, so a change made here would stay wrong)."""
        self.obs.flags.writeable = False
        # the kernel's own masks, which it checks each action against; the public ones show
        # the same memory through a read-only buffer (a plain view could be made writable
        # again), so that no change made to them can let an illegal action through
        self._masks = np.zeros((batch, self.actions.size), dtype=np.int8)
        self.masks: Masks = np.frombuffer(self._masks.data.toreadonly(), np.int8).reshape(
            self._masks.shape
        )
        """The legal actions of the seat to move in each game (1: legal): read-only."""
        self.to_move: Seats = np.zeros(batch, dtype=np.int32)
        self.rewards: Rewards = np.zeros((batch, players), dtype=np.float64)
        self.dones: Flags = np.zeros(batch, dtype=np.bool_)
        self.truncated: Flags = np.zeros(batch, dtype=np.bool_)
        """Which games of the last step ended by the variant's turn cap."""
        self.scores = np.zeros((batch, players), dtype=np.int32)
        """The final scores of the games the last step ended (valid where ``dones``)."""
        self.final_obs: Observations = np.zeros((batch, self.size), dtype=np.float32)
        """The last observation of the games the last step ended (valid where ``dones``)."""
        self.final_seat: Seats = np.zeros(batch, dtype=np.int32)
        """The seat whose view :attr:`final_obs` is."""
        room = 2 * (get_game(game).max_game_length(players, int(self.variant["turn_cap"])) + 2)
        self.trace = np.zeros((batch, room if record else 0), dtype=np.int32)
        """With ``record``: every decision the last call made in each game, in order: the
        learner's action, the other seats' moves, and (where the game ended, from
        ``trace_end``) the next episode's moves before the learner's first decision."""
        self.trace_n = np.zeros(batch, dtype=np.int32)
        self.trace_end = np.zeros(batch, dtype=np.int32)
        self._started = False

    def _kernel_config(self, seat: int | None) -> npt.NDArray[np.int32]:
        """What the driver reads of the settings: the players, the learner's seat (or drawn,
        or self-play), 4 policy codes for the whole batch or per game slot (the learner's
        seat, then the other seats' in turn order) and the reward's code."""
        rows = (
            self.opponents
            if self.opponents and not isinstance(self.opponents[0], str)
            else [self.opponents]
        )
        # 4 numbers a row: the learner's seat (0), then the other seats' (none in self-play)
        policies = [
            code for row in rows for code in ([0] + [POLICIES.index(o) for o in row] + [0] * 3)[:4]
        ]
        learner = _SELF_PLAY if self.self_play else _DRAWN if seat is None else seat
        return np.array(
            [self.players, learner, *policies, REWARDS.index(self.reward)], dtype=np.int32
        )

    def _opponents(
        self, opponents: str | Sequence[str] | Sequence[Sequence[str]] | None
    ) -> tuple[str, ...] | tuple[tuple[str, ...], ...]:
        """The opponents of every game (a tuple by seat), or of each game slot (a tuple of
        those, one per slot)."""
        if opponents is None:
            return ()
        if not isinstance(opponents, str) and opponents and not isinstance(opponents[0], str):
            if len(opponents) != self.batch:
                raise ValueError(
                    f"opponents by game slot need {self.batch} lists, not {len(opponents)}"
                )
            return tuple(self._seat_opponents(row) for row in opponents)
        return self._seat_opponents(cast(str | Sequence[str], opponents))

    def _seat_opponents(self, opponents: str | Sequence[str]) -> tuple[str, ...]:
        specs = [opponents] * (self.players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != self.players - 1:
            raise ValueError(
                f"{self.players} players need {self.players - 1} opponents, not {len(specs)}"
            )
        for spec in specs:
            if spec not in POLICIES:
                raise ValueError(
                    f"opponents play inside the kernel: {', '.join(POLICIES)}, not {spec!r}"
                )
            check_policy(spec)
        return tuple(specs)

    def reset(self, seed: int | Sequence[int] | None = None) -> tuple[Observations, Masks, Seats]:
        """Deal a new game in every slot: the observations, legal masks and seats to move.

        With ``seed``, the batch is dealt from that seed anew (episode 0 of every game: the
        same seed replays the same games); a list of seeds, one per game, seeds each game on
        its own (game ``b`` plays what a one-game batch seeded ``seed[b]`` plays). Without
        one, the first reset deals episode 0 from the constructor's seed and each later one
        goes on along each game's sequence: its next episode, never a deal played before (a
        game cut short is abandoned)."""
        if isinstance(seed, int):
            self.seed = seed
            self.seeds[:] = seed_bits(seed)
            self.indices[:] = np.arange(self.batch)
            self.episodes[:] = 0
        elif seed is not None:
            self._reseed(np.ones(self.batch, dtype=np.bool_), seed)
        elif self._started:
            self.episodes += 1
        self._deal(np.ones(self.batch, dtype=np.bool_))
        self.trace_end[:] = 0
        self.dones[:] = False
        self.rewards[:] = 0.0
        self._started = True
        return self.obs, self.masks, self.to_move

    def reset_games(
        self, games: npt.ArrayLike, seeds: Sequence[int] | None = None
    ) -> tuple[Observations, Masks, Seats]:
        """Deal a new game in the slots ``games`` only (indices, or a boolean mask of the
        batch): each one's next episode of its seed sequence (the game in it is abandoned),
        or with ``seeds`` (one per slot chosen, in slot order) episode 0 of a game seeded on
        its own, as :meth:`reset` with a list; the other games go on untouched. Returns the
        whole batch's observations, masks and seats to move."""
        if not self._started:
            raise RuntimeError("call reset() first")
        which = self._which(games)
        if seeds is None:
            self.episodes[which] += 1
        else:
            self._reseed(which, seeds)
        self._deal(which)
        self.trace_end[which] = 0
        self.dones[which] = False
        self.rewards[which] = 0.0
        return self.obs, self.masks, self.to_move

    def snapshot(self, games: npt.ArrayLike | None = None) -> BatchState:
        """A copy of the games in the slots ``games`` (indices or a boolean mask; all when
        ``None``) as data: what :meth:`restore` puts back, into the same slots or others —
        to search from a position, or to play a game on in several ways."""
        which = np.arange(self.batch) if games is None else np.flatnonzero(self._which(games))
        return BatchState(
            game=self.game,
            players=self.players,
            states=self._states[which].copy(),
            extras=self._extras[which].copy(),
            rngs=self._rngs[which].copy(),
            episodes=self.episodes[which].copy(),
            seats=self.seats[which].copy(),
            obs=self._obs[which].copy(),
            masks=self._masks[which].copy(),
            to_move=self.to_move[which].copy(),
        )

    def restore(self, state: BatchState, games: npt.ArrayLike | None = None) -> None:
        """Put the games of ``state`` (a :meth:`snapshot`, of this env or another of the same
        game and number of players) into the slots ``games`` (indices, one per game of the
        snapshot, in its order; default: the first ``len(state)`` slots). A restored game
        plays on exactly as the snapshot's would from there; its next episodes are dealt
        from the slot's seed and index (:attr:`seeds`, :attr:`indices`)."""
        if state.game != self.game or state.players != self.players:
            raise ValueError(
                f"a snapshot of {state.game} for {state.players} players does not fit this "
                f"batch of {self.game} for {self.players}"
            )
        slots = np.arange(len(state)) if games is None else np.asarray(games)
        if slots.dtype.kind not in "iu" or slots.shape != (len(state),):
            raise ValueError(f"games must be {len(state)} slot indices, one per snapshot game")
        if len(set(slots.tolist())) != len(slots) or not all(0 <= g < self.batch for g in slots):
            raise ValueError(f"games must be distinct slots of the batch (0-{self.batch - 1})")
        self._states[slots] = state.states
        self._extras[slots] = state.extras
        self._rngs[slots] = state.rngs
        self.episodes[slots] = state.episodes
        self.seats[slots] = state.seats
        self._obs[slots] = state.obs
        self._masks[slots] = state.masks
        self.to_move[slots] = state.to_move
        self.dones[slots] = False
        self.rewards[slots] = 0.0
        self._started = True

    def _reseed(self, which: npt.NDArray[np.bool_], seeds: Sequence[int]) -> None:
        """Seed the games ``which`` on their own: ``seeds`` one per game chosen, in slot order
        (each one's stream ``(seed, 0, e)``, from episode 0)."""
        chosen = np.flatnonzero(which)
        bits = [seed_bits(s) for s in seeds]
        if len(bits) != len(chosen):
            raise ValueError(f"{len(chosen)} games need {len(chosen)} seeds, not {len(bits)}")
        self.seeds[chosen] = bits
        self.indices[chosen] = 0
        self.episodes[chosen] = 0

    def _which(self, games: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """``games`` (slot indices or a boolean mask of the batch) as a boolean mask."""
        chosen = np.asarray(games)
        if chosen.size == 0:
            return np.zeros(self.batch, dtype=np.bool_)
        if chosen.dtype == np.bool_:
            if chosen.shape != (self.batch,):
                raise ValueError(f"a mask of games must have shape ({self.batch},)")
            return chosen.copy()
        if chosen.dtype.kind not in "iu" or chosen.ndim != 1:
            raise ValueError("games must be slot indices (whole numbers) or a boolean mask")
        if chosen.size and (chosen.min() < 0 or chosen.max() >= self.batch):
            raise ValueError(f"no game slot {chosen.tolist()} in a batch of {self.batch}")
        which = np.zeros(self.batch, dtype=np.bool_)
        which[chosen] = True
        return which

    def _deal(self, which: npt.NDArray[np.bool_]) -> None:
        driver.env_reset(
            self._tag,
            self._states,
            self._extras,
            self._rngs,
            self.episodes,
            self.seats,
            self._config,
            self._rules,
            self.seeds,
            self.indices,
            self._offsets,
            self._obs,
            self._masks,
            self.to_move,
            self.trace,
            self.trace_n,
            self._work,
            which,
            self._weights,
        )

    def step(
        self, actions: npt.ArrayLike, games: npt.ArrayLike | None = None
    ) -> tuple[Observations, Masks, Seats, Rewards, Flags]:
        """One decision per game (the game's action ids, legal in :attr:`masks`) for the seat to
        move; returns the observations, masks and seats to move (of the new game where one
        ended), the rewards by seat (``batch × players``, non-zero only where a game ended)
        and the done flags. With ``games`` (slot indices or a boolean mask), only those games
        move: the others' actions are not read, they stay as they are (not done, no reward).
        An illegal action raises ``ValueError`` and changes nothing."""
        if not self._started:
            raise RuntimeError("call reset() first")
        given = np.asarray(actions)
        if given.dtype.kind not in "iu":
            # a cast would cut 0.5 down to the legal action 0 without a word
            raise ValueError(
                f"actions must be whole numbers (the game's action ids), not {given.dtype} values"
            )
        if given.shape != (self.batch,):
            raise ValueError(f"actions must have shape ({self.batch},), not {given.shape}")
        chosen = np.ascontiguousarray(given, dtype=np.int64)
        which = np.ones(self.batch, dtype=np.bool_) if games is None else self._which(games)
        bad = int(
            driver.env_step(
                self._tag,
                self._states,
                self._extras,
                self._rngs,
                self.episodes,
                self.seats,
                self._config,
                self._rules,
                self.seeds,
                self.indices,
                self._offsets,
                chosen,
                self._obs,
                self._masks,
                self.to_move,
                self.rewards,
                self.dones,
                self.truncated,
                self.scores,
                self.final_obs,
                self.final_seat,
                self.trace,
                self.trace_n,
                self.trace_end,
                self._work,
                which,
                self._weights,
            )
        )
        if bad >= 0:
            legal = np.flatnonzero(self._masks[bad]).tolist()
            raise ValueError(
                f"action {int(chosen[bad])} is not legal in game {bad} (legal: {legal})"
            )
        return self.obs, self.masks, self.to_move, self.rewards, self.dones

    def episode_setup(self, index: int, episode: int) -> tuple[JSON, int]:
        """The deal of episode ``episode`` of game ``index`` as the reference engine's explicit
        set-up, and the learner's seat in it (-1 in self-play)."""
        k = self._k
        s = np.zeros(k.SIZE, dtype=np.int32)
        rng = np.zeros(1, dtype=np.uint64)
        cards = np.zeros(k.DECK_CARDS, dtype=np.int32)
        seat = int(
            driver.deal_episode(
                self._tag,
                s,
                rng,
                self.seeds[index],
                self.indices[index],
                episode,
                self.players,
                self._rules,
                cards,
                int(self._config[1]),
            )
        )
        return to_setup(self.game, s), seat

    def reseeded(self, seed: int) -> BatchEnv:
        """A new batch of the same settings, dealt from ``seed`` (the vector envs' reseeding)."""
        return BatchEnv(
            self.game,
            self.players,
            self.batch,
            seed,
            None if self.self_play else self.opponents,
            seat=self.fixed_seat,
            reward=self.reward,
            variant=self.variant,
            record=self.trace.shape[1] > 0,
            tuning=self.tuning,
        )

    def info(self) -> dict[str, Any]:
        """What the environment is, as JSON."""
        return {
            "game": self.game,
            "players": self.players,
            "batch": self.batch,
            "seed": self.seed,
            "opponents": None if self.self_play else json_opponents(self.opponents),
            "seat": self.fixed_seat,
            "reward": self.reward,
            "variant": dict(self.variant),
            "observation_size": self.size,
        }
