"""keltis.fast: a batch simulator of both games, compiled with numba (``pip install
'keltis[fast]'``).

A second implementation of the rules on flat integer arrays, for researchers who need millions
of playouts: ``simulate(game, players, n_games, policy, seed)`` deals and plays whole games
with a uniform random, a greedy or the medium level's policy and returns per-game scores,
winners, end reasons and decision counts as numpy arrays (:class:`SimResult`);
``BatchEnv(game, players, batch, seed, opponents=…)`` (or ``make(game, players, batch, …)``, as
pgx's ``make``) steps a batch of games for a learner with ``keltis.env``'s observations, masks
and rewards (``keltis.fast.env``; as Gymnasium environments: ``keltis.fast.vector``).
Decisions are each game's action ids (``Game.actions``), and a differential test
(``keltis.fast.diff``, ``benchmarks/fast_diff.py``) proves the legal decisions and outcomes
equal to the reference engine's (``keltis.fast.env_diff``: observations, masks, rewards;
``keltis.fast.medium_diff``: the medium policy's scores and choices against the Python
heuristic's; its weights as data: ``keltis.fast.tuning``). See docs/performance.md, "The
batch simulator (keltis.fast)". Compiled kernels are cached in the user's cache folder
(``$XDG_CACHE_HOME/keltis/numba/<sources digest>`` or
``~/.cache/keltis/numba/<sources digest>``), unless ``NUMBA_CACHE_DIR`` says otherwise
(:mod:`keltis.fast._cache`).
"""

from __future__ import annotations

from collections.abc import Sequence

from keltis.fast._cache import use_user_cache_dir

try:
    # Before numba compiles (or loads) a kernel: its cache goes to the user's cache folder,
    # not beside the sources (keltis.fast._cache; docs/performance.md).
    use_user_cache_dir()
    import numba  # noqa: F401
    import numpy  # noqa: F401
except ImportError as _missing:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"keltis.fast needs numba and numpy ({_missing.name} is not installed): "
        "pip install 'keltis[fast]'"
    ) from _missing

from keltis.core.protocol import JSON
from keltis.fast.batch import END_REASONS, POLICIES, SimResult, simulate
from keltis.fast.env import BatchEnv, BatchState
from keltis.fast.setup import deal_setup, load_setup
from keltis.fast.tuning import Tuning


def make(
    game: str,
    players: int = 2,
    batch: int = 64,
    *,
    seed: int = 0,
    opponents: str | Sequence[str] | Sequence[Sequence[str]] | None = "random",
    seat: int | None = None,
    reward: str = "win",
    variant: JSON | None = None,
    record: bool = False,
    tuning: Tuning | None = None,
) -> BatchEnv:
    """A batch of ``batch`` games of ``game`` (``cards`` or ``board``) for ``players`` seats
    (:class:`BatchEnv`, which says what the options are), as pgx's ``make`` gives an
    environment by name."""
    return BatchEnv(
        game, players, batch, seed, opponents, seat=seat, reward=reward, variant=variant,
        record=record, tuning=tuning,
    )  # fmt: skip


__all__ = [
    "END_REASONS",
    "POLICIES",
    "BatchEnv",
    "BatchState",
    "SimResult",
    "deal_setup",
    "load_setup",
    "make",
    "simulate",
]
