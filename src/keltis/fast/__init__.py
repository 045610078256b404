"""keltis.fast: a batch simulator of both games, compiled with numba (``pip install
'keltis[fast]'``).

A second implementation of the rules on flat integer arrays, for researchers who need millions
of playouts: ``simulate(game, players, n_games, policy, seed)`` deals and plays whole games
with a uniform random, a greedy or the medium level's policy and returns per-game scores,
winners, end reasons and decision counts as numpy arrays (:class:`SimResult`);
``BatchEnv(game, players, batch, seed, opponents=…)`` steps a batch of games for a learner
with ``keltis.env``'s observations, masks and rewards (``keltis.fast.env``; as a Gymnasium
vector env: ``keltis.fast.vector``). Decisions are the reference engine's dense action
indices, and a differential test (``keltis.fast.diff``, ``benchmarks/fast_diff.py``) proves
the legal decisions and outcomes equal to the reference engine's (``keltis.fast.env_diff``:
observations, masks, rewards; ``keltis.fast.medium_diff``: the medium policy's scores and
choices against the Python heuristic's; its weights as data: ``keltis.fast.tuning``).
See docs/performance.md, "The batch simulator (keltis.fast)". Compiled kernels are cached in the
user's cache folder (``$XDG_CACHE_HOME/keltis/numba/<sources digest>`` or
``~/.cache/keltis/numba/<sources digest>``), unless
``NUMBA_CACHE_DIR`` says otherwise (:mod:`keltis.fast._cache`).
"""

from __future__ import annotations

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

from keltis.fast.batch import END_REASONS, POLICIES, SimResult, simulate
from keltis.fast.env import BatchEnv, BatchState
from keltis.fast.setup import deal_setup, load_setup

__all__ = [
    "END_REASONS",
    "POLICIES",
    "BatchEnv",
    "BatchState",
    "SimResult",
    "deal_setup",
    "load_setup",
    "simulate",
]
