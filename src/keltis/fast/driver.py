"""What plays, steps, deals and shows games in compiled code, written once for both games.

``simulate`` (:func:`play_batch`), the tuner's matches (:func:`duel_batch`), the differential
test (:func:`play`) and ``BatchEnv`` (:func:`env_reset`, :func:`env_step`,
:func:`deal_episode`) run the functions here; each
game's kernel module (``keltis.board.kernel``, ``keltis.cards.kernel``) keeps only its rules
and its observation (``legal``, ``apply``, ``choose``, ``track``, ``observe``, ``score``,
``deal`` …) and the constants of its state layout.

The game is chosen at compile time by a *tag*: an empty array whose dtype names the game
(:func:`tag`). numba types arrays of different dtypes apart, so ``env_step(tag(game), …)`` is
compiled once per game, and each call through :data:`_ops` (an ``@overload`` that reads the
tag's dtype) becomes a direct call of that game's kernel. It is an ordinary argument type:
the compiled drivers are cached on disk like any kernel and called from Python at a
dispatcher's usual cost. (Two things that looked simpler are not: a dispatcher or a closure
passed in defeats the on-disk cache, and a literal game number forced with
``numba.literally`` costs milliseconds per call from Python.)
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Final, cast

import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.extending import overload
from numba.np.numpy_support import from_dtype as numba_from_dtype

from keltis.fast._jit import OPTIONS, kernel
from keltis.fast._rng import below, seed_game
from keltis.games import GAME_NAMES, get_game

#: The tags' dtypes, one per game in :data:`keltis.games.GAME_NAMES`' order.
_TAG_DTYPES: Final = (np.int8, np.int16, np.int32, np.int64)
_DTYPES: Final = dict(zip(GAME_NAMES, _TAG_DTYPES, strict=False))
_MODULES: Final[dict[Any, ModuleType]] = {
    numba_from_dtype(np.dtype(dtype)): get_game(name).part("kernel")
    for name, dtype in _DTYPES.items()
}


def tag(game: str) -> npt.NDArray[Any]:
    """The tag of ``game`` (a name of :data:`keltis.games.GAME_NAMES`) that the functions here
    take first."""
    get_game(game)  # an unknown name: its clear error
    return np.zeros(0, dtype=_DTYPES[game])


def _module(game_tag: Any) -> ModuleType | None:
    """The kernel module a tag's numba type names (``None``: not a tag)."""
    if isinstance(game_tag, types.Array) and game_tag.ndim == 1:
        return _MODULES.get(game_tag.dtype)
    return None


def _op(name: str) -> Any:
    """``name(tag, *args)``: the tagged game's kernel function ``name`` called with ``args``."""

    def op(game_tag: Any, *args: Any) -> Any:  # pragma: no cover - numba compiles the overload
        raise NotImplementedError(f"{name} is called from compiled code only")

    op.__name__ = op.__qualname__ = name

    @overload(op, jit_options=cast(Any, OPTIONS), strict=False)
    def typed(game_tag: Any, *args: Any) -> Any:
        module = _module(game_tag)
        if module is None:
            return None
        return _caller(getattr(module, name), len(args))

    return op


def _caller(function: Any, arity: int) -> Any:
    """A call of ``function`` with ``arity`` arguments after the tag. Spelt out per arity:
    numba neither inlines nor calls an inlined kernel (``choose``, ``score``) through
    ``*args``."""
    if arity == 1:

        def call1(game_tag: Any, a: Any) -> Any:
            return function(a)

        return call1
    if arity == 2:

        def call2(game_tag: Any, a: Any, b: Any) -> Any:
            return function(a, b)

        return call2
    if arity == 3:

        def call3(game_tag: Any, a: Any, b: Any, c: Any) -> Any:
            return function(a, b, c)

        return call3
    if arity == 5:

        def call5(game_tag: Any, a: Any, b: Any, c: Any, d: Any, e: Any) -> Any:
            return function(a, b, c, d, e)

        return call5
    if arity == 6:

        def call6(game_tag: Any, a: Any, b: Any, c: Any, d: Any, e: Any, f: Any) -> Any:
            return function(a, b, c, d, e, f)

        return call6
    raise TypeError(f"no call of {arity} arguments for a game's kernel function")


def const(game_tag: Any, name: str) -> int:  # pragma: no cover - numba compiles the overload
    """The tagged game's constant ``name`` (a literal string): its value, folded in."""
    raise NotImplementedError("const is called from compiled code only")


@overload(const, inline="always", jit_options=cast(Any, OPTIONS))
def _const(game_tag: Any, name: Any) -> Any:
    module = _module(game_tag)
    if module is None or not isinstance(name, types.StringLiteral):
        return None
    value = int(getattr(module, name.literal_value))

    def folded(game_tag: Any, name: Any) -> int:
        return value

    return folded


# the games' kernel functions the driver calls, by the names both kernels give them
legal = _op("legal")
apply = _op("apply")
choose = _op("choose")
track = _op("track")
observe = _op("observe")
score = _op("score")
projection = _op("projection")
deal = _op("deal")
all_shown = _op("_all_shown")
small = _op("_small")
shown = _op("_shown")


@kernel()
def deal_episode(
    game_tag: np.ndarray,
    s: np.ndarray,
    rng: np.ndarray,
    seed: np.uint64,
    index: int,
    episode: int,
    players: int,
    rules: np.ndarray,
    deck: np.ndarray,
    fixed_seat: int,
) -> int:
    """Deal episode ``episode`` of game ``index`` of a batch seeded ``seed`` into ``s`` (its
    own stream ``rng``: from the seed, the game's index and the episode, never the batch);
    return the learner's seat (``fixed_seat``, or drawn when it is -1; -1 in self-play, -2)."""
    seed_game(rng, seed, index)
    seed_game(rng, rng[0], episode)
    deal(game_tag, s, players, rules, rng, deck)
    if fixed_seat == -1:
        return below(rng, players)
    return fixed_seat if fixed_seat >= 0 else -1


@kernel(inline=True)
def _policies(config: np.ndarray, b: int) -> np.ndarray:
    """Game ``b``'s policies by seat relative to the learner's: ``config`` holds one row of 4
    for the whole batch, or one per game, between its first two numbers and the last."""
    rows = (config.shape[0] - 3) // 4
    at = 2 + 4 * (b % rows)
    return config[at : at + 4]


@kernel()
def _advance(
    game_tag: np.ndarray,
    s: np.ndarray,
    x: np.ndarray,
    rng: np.ndarray,
    seat: int,
    policies: np.ndarray,
    scratch: np.ndarray,
    trace: np.ndarray,
    at: int,
    offsets: np.ndarray,
    out: np.ndarray,
    weights: np.ndarray,
) -> int:
    """The seats not driven by the learner move (``policies`` by seat relative to the learner's)
    until the learner is to decide or the game is over; returns ``at`` plus the moves made
    (written to ``trace`` from ``at`` when it has room). ``out``: the game's observation row;
    ``weights``: the medium policy's (``keltis.fast.tuning.weights``)."""
    cur = const(game_tag, "CUR")
    n = s[const(game_tag, "NP")]
    while s[const(game_tag, "PHASE")] != const(game_tag, "OVER") and seat >= 0 and s[cur] != seat:
        m = legal(game_tag, s, scratch)
        k = s[cur] - seat
        a = choose(game_tag, s, scratch, m, policies[k + n if k < 0 else k], rng, weights)
        track(game_tag, s, x, a, offsets, out)
        apply(game_tag, s, a)
        if trace.shape[0] > 0:
            trace[at] = a
        at += 1
    return at


@kernel()
def _start(
    game_tag: np.ndarray,
    b: int,
    states: np.ndarray,
    extras: np.ndarray,
    rngs: np.ndarray,
    episodes: np.ndarray,
    seats: np.ndarray,
    config: np.ndarray,
    rules: np.ndarray,
    seeds: np.ndarray,
    indices: np.ndarray,
    work: np.ndarray,
    trace: np.ndarray,
    at: int,
    offsets: np.ndarray,
    obs: np.ndarray,
    weights: np.ndarray,
) -> int:
    """Deal game ``b``'s current episode (from its seed ``seeds[b]`` and index ``indices[b]``)
    and let the other seats move up to the learner."""
    s = states[b]
    x = extras[b]
    rng = rngs[b : b + 1]
    room = const(game_tag, "DECK_CARDS")
    seats[b] = deal_episode(
        game_tag, s, rng, seeds[b], indices[b], episodes[b], config[0], rules, work[:room],
        config[1],
    )  # fmt: skip
    for i in range(const(game_tag, "X_SIZE")):
        x[i] = 0
    x[const(game_tag, "X_VIEWER")] = -1
    return _advance(
        game_tag, s, x, rng, seats[b], _policies(config, b), work[room:], trace, at, offsets,
        obs[b],
        weights,
    )  # fmt: skip


@kernel()
def _show(
    game_tag: np.ndarray,
    s: np.ndarray,
    x: np.ndarray,
    offsets: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    scratch: np.ndarray,
) -> None:
    """The seat to move's observation (kept up to date where the row holds its view, else
    written whole) and legal mask."""
    viewer = s[const(game_tag, "CUR")]
    fresh = x[const(game_tag, "X_VIEWER")] != viewer
    if fresh:
        observe(game_tag, s, x, viewer, offsets, obs)
        x[const(game_tag, "X_VIEWER")] = viewer
        all_shown(game_tag, x)
    else:
        small(game_tag, s, x, viewer, offsets, obs, False)
    shown(game_tag, s, x, offsets, obs, fresh)
    for i in range(mask.shape[0]):
        mask[i] = 0
    for i in range(legal(game_tag, s, scratch)):
        mask[scratch[i]] = 1


@kernel()
def env_reset(
    game_tag: np.ndarray,
    states: np.ndarray,
    extras: np.ndarray,
    rngs: np.ndarray,
    episodes: np.ndarray,
    seats: np.ndarray,
    config: np.ndarray,
    rules: np.ndarray,
    seeds: np.ndarray,
    indices: np.ndarray,
    offsets: np.ndarray,
    obs: np.ndarray,
    masks: np.ndarray,
    to_move: np.ndarray,
    trace: np.ndarray,
    trace_n: np.ndarray,
    work: np.ndarray,
    which: np.ndarray,
    weights: np.ndarray,
) -> None:
    """Deal the games ``b`` of the batch where ``which[b]`` is set (their episode
    ``episodes[b]`` of the stream ``(seeds[b], indices[b])``, as :func:`deal_episode`) and
    show the seat to move; the others stay as they are. ``config``:
    players, the learner's seat (-1: drawn per episode, -2: self-play), then the policy of each
    seat relative to the learner's (0 random, 1 greedy, 2 medium; 4 numbers, for the whole
    batch or for each game in turn), then the reward (0 win, 1 margin). ``work``: scratch room
    (the kernel's ``WORK`` numbers); ``weights``: the medium policy's
    (``keltis.fast.tuning.weights``)."""
    scratch = work[const(game_tag, "DECK_CARDS") :]
    for b in range(states.shape[0]):
        if not which[b]:
            continue
        at = _start(
            game_tag, b, states, extras, rngs, episodes, seats, config, rules, seeds, indices,
            work, trace[b], 0, offsets, obs, weights,
        )  # fmt: skip
        trace_n[b] = at
        _show(game_tag, states[b], extras[b], offsets, obs[b], masks[b], scratch)
        to_move[b] = states[b, const(game_tag, "CUR")]


@kernel()
def _rewards(
    game_tag: np.ndarray, s: np.ndarray, margin: bool, scores: np.ndarray, rewards: np.ndarray
) -> None:
    """A finished game's scores and every seat's reward: ``win`` (1/k to each of k sharing
    the best score) or ``margin`` ((own - best other) / 100), as keltis.env.common pays."""
    n = s[const(game_tag, "NP")]
    best = -1000
    for q in range(n):
        scores[q] = score(game_tag, s, q)
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


@kernel()
def env_step(
    game_tag: np.ndarray,
    states: np.ndarray,
    extras: np.ndarray,
    rngs: np.ndarray,
    episodes: np.ndarray,
    seats: np.ndarray,
    config: np.ndarray,
    rules: np.ndarray,
    seeds: np.ndarray,
    indices: np.ndarray,
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
    work: np.ndarray,
    which: np.ndarray,
    weights: np.ndarray,
) -> int:
    """Apply ``actions[b]`` in the games ``b`` where ``which[b]`` is set (the others stay as
    they are: not done, no reward), let the other seats move, and deal a finished game's next
    episode in place (its end: ``rewards``, ``dones``, ``truncated``, ``scores``, ``final_obs``
    seen by ``final_seat``). ``config[-1]`` is the reward: 0 win, 1 margin. Returns -1, or the
    first game whose action is not legal (then nothing is changed)."""
    batch = states.shape[0]
    for b in range(batch):
        a = actions[b]
        if which[b] and (a < 0 or a >= masks.shape[1] or masks[b, a] == 0):
            return b
    scratch = work[const(game_tag, "DECK_CARDS") :]
    cur = const(game_tag, "CUR")
    n = config[0]
    margin = config[config.shape[0] - 1] == 1
    for b in range(batch):
        if not which[b]:
            dones[b] = False
            truncated[b] = False
            rewards[b, :] = 0.0
            trace_end[b] = 0
            trace_n[b] = 0
            continue
        s = states[b]
        x = extras[b]
        row = trace[b]
        a = int(actions[b])
        p = s[cur]
        track(game_tag, s, x, a, offsets, obs[b])
        apply(game_tag, s, a)
        if row.shape[0] > 0:
            row[0] = a
        at = _advance(
            game_tag, s, x, rngs[b : b + 1], seats[b], _policies(config, b), scratch, row, 1,
            offsets, obs[b], weights,
        )  # fmt: skip
        trace_end[b] = at
        done = s[const(game_tag, "PHASE")] == const(game_tag, "OVER")
        dones[b] = done
        truncated[b] = done and s[const(game_tag, "END")] == const(game_tag, "END_TRUNCATED")
        if not done:
            for q in range(n):
                rewards[b, q] = 0.0
        else:
            _rewards(game_tag, s, margin, scores[b], rewards[b])
            seen_by = seats[b] if seats[b] >= 0 else p
            final_seat[b] = seen_by
            observe(game_tag, s, x, seen_by, offsets, final_obs[b])
            episodes[b] += 1
            at = _start(
                game_tag, b, states, extras, rngs, episodes, seats, config, rules, seeds,
                indices, work, row, at, offsets, obs, weights,
            )  # fmt: skip
        trace_n[b] = at
        _show(game_tag, s, x, offsets, obs[b], masks[b], scratch)
        to_move[b] = s[cur]
    return -1


@njit(cache=True)
def play(
    game_tag: np.ndarray,
    s: np.ndarray,
    policy: int,
    rng: np.ndarray,
    record: bool,
    legal_out: np.ndarray,
    offsets: np.ndarray,
    choices: np.ndarray,
    weights: np.ndarray,
) -> int:
    """Play the game in ``s`` to its end with ``policy`` drawing on ``rng`` (the medium
    policy's ``weights``: ``keltis.fast.tuning.weights``); return the number of decisions.
    With ``record``, also write every legal list (``legal_out`` from ``offsets[i]`` to
    ``offsets[i + 1]``) and every choice (the differential test's trace)."""
    out = np.zeros(const(game_tag, "MAX_LEGAL"), dtype=np.int32)
    step = 0
    at = 0
    if record:
        offsets[0] = 0
    while s[const(game_tag, "PHASE")] != const(game_tag, "OVER"):
        n = legal(game_tag, s, out)
        a = choose(game_tag, s, out, n, policy, rng, weights)
        if record:
            for i in range(n):
                legal_out[at + i] = out[i]
            at += n
            offsets[step + 1] = at
            choices[step] = a
        apply(game_tag, s, a)
        step += 1
    return step


@njit(cache=True)
def duel_batch(
    game_tag: np.ndarray,
    players: int,
    seed: np.uint64,
    deals: np.ndarray,
    rules: np.ndarray,
    rows: np.ndarray,
    weights: np.ndarray,
    scores: np.ndarray,
) -> None:
    """Deal and play ``len(deals)`` games with the medium policy in every seat, each seat under
    its own weights: game ``g`` is game ``deals[g]`` of ``seed``'s stream (two games of the
    same deal are dealt and drawn alike), seat ``p`` of it plays the weights
    ``weights[rows[g, p]]`` (rows of ``keltis.fast.tuning.weights``). Fills ``scores``."""
    s = np.zeros(const(game_tag, "SIZE"), dtype=np.int32)
    deck = np.zeros(const(game_tag, "DECK_CARDS"), dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    out = np.zeros(const(game_tag, "MAX_LEGAL"), dtype=np.int32)
    cur = const(game_tag, "CUR")
    for g in range(deals.shape[0]):
        seed_game(rng, seed, deals[g])
        deal(game_tag, s, players, rules, rng, deck)
        while s[const(game_tag, "PHASE")] != const(game_tag, "OVER"):
            n = legal(game_tag, s, out)
            a = choose(game_tag, s, out, n, 2, rng, weights[rows[g, s[cur]]])
            apply(game_tag, s, a)
        for p in range(players):
            scores[g, p] = score(game_tag, s, p)


@njit(cache=True)
def playouts(
    game_tag: np.ndarray,
    s: np.ndarray,
    actions: np.ndarray,
    cut: int,
    rng: np.ndarray,
    weights: np.ndarray,
    scores: np.ndarray,
    over: np.ndarray,
) -> None:
    """A search's playouts from one position: for each ``actions[i]``, a copy of ``s`` with
    that decision made, then played on by the medium policy under ``weights`` for ``cut``
    completed turns (-1: to the end), every copy from the same random state ``rng`` (equal
    luck). ``scores[i, p]``: seat ``p``'s final score where the game ended (``over[i]``),
    else its projected one (the kernel's ``projection``)."""
    work = np.empty_like(s)
    out = np.zeros(const(game_tag, "MAX_LEGAL"), dtype=np.int32)
    r = np.zeros(1, dtype=np.uint64)
    turn = const(game_tag, "TURN")
    finished = const(game_tag, "OVER")
    phase = const(game_tag, "PHASE")
    for i in range(actions.shape[0]):
        work[:] = s
        r[0] = rng[0]
        apply(game_tag, work, actions[i])
        stop = work[turn] + cut if cut >= 0 else 2**31 - 1
        while work[phase] != finished and work[turn] < stop:
            n = legal(game_tag, work, out)
            apply(game_tag, work, choose(game_tag, work, out, n, 2, r, weights))
        over[i] = work[phase] == finished
        if over[i]:
            for p in range(work[const(game_tag, "NP")]):
                scores[i, p] = score(game_tag, work, p)
        else:
            projection(game_tag, work, weights, scores[i])


@njit(cache=True)
def play_batch(
    game_tag: np.ndarray,
    players: int,
    n_games: int,
    policy: int,
    seed: np.uint64,
    rules: np.ndarray,
    scores: np.ndarray,
    ends: np.ndarray,
    decisions: np.ndarray,
    turns: np.ndarray,
    weights: np.ndarray,
) -> None:
    """Deal and play ``n_games`` games; fill the per-game result arrays."""
    s = np.zeros(const(game_tag, "SIZE"), dtype=np.int32)
    deck = np.zeros(const(game_tag, "DECK_CARDS"), dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    no_legal = np.zeros(1, dtype=np.int32)
    no_offsets = np.zeros(1, dtype=np.int64)
    for g in range(n_games):
        seed_game(rng, seed, g)
        deal(game_tag, s, players, rules, rng, deck)
        decisions[g] = play(
            game_tag, s, policy, rng, False, no_legal, no_offsets, no_legal, weights
        )
        for p in range(players):
            scores[g, p] = score(game_tag, s, p)
        ends[g] = s[const(game_tag, "END")]
        turns[g] = s[const(game_tag, "TURN")]
