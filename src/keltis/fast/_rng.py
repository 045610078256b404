"""The simulator's random numbers: xorshift64* seeded per game by splitmix64.

Game ``i`` of a batch with seed ``s`` starts from ``splitmix64(s, i)``, so a game replays the
same whatever the batch size. These are not Python's ``random``: a fast seed deals other cards
than the reference engine's seed of the same number.
"""

from __future__ import annotations

import numpy as np

from keltis.fast._jit import kernel

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STAR = np.uint64(0x2545F4914F6CDD1D)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S12 = np.uint64(12)
_S25 = np.uint64(25)
_S32 = np.uint64(32)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@kernel()
def seed_game(rng: np.ndarray, seed: np.uint64, game: int) -> None:
    """Set ``rng`` (a ``uint64[1]``) to the start of game ``game`` of a batch seeded ``seed``."""
    z = seed + (np.uint64(game) + _ONE) * _GOLDEN
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    z = z ^ (z >> _S31)
    if z == _ZERO:
        z = _ONE
    rng[0] = z


@kernel(inline=True)
def below(rng: np.ndarray, n: int) -> int:
    """A uniform whole number in ``range(n)`` (``n`` ≥ 1)."""
    x = rng[0]
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
    rng[0] = x
    r = (x * _STAR) >> _S32
    return int((r * np.uint64(n)) >> _S32)
