"""How the game kernels are compiled.

A kernel that allocates nothing is compiled without numba's reference counting
(``_nrt=False``, an option numba keeps for this): with it, every array view and every call
taking arrays costs a pair of atomic increments, measured at a quarter of a
``keltis.fast.BatchEnv`` step (docs/performance.md). Such a kernel cannot create an array;
scratch room is passed in.
"""

from __future__ import annotations

from typing import Any

from numba import njit

#: The compile options every kernel shares (overloads that kernels call take them too).
OPTIONS: dict[str, Any] = {"_nrt": False}


def kernel(*, inline: bool = False) -> Any:
    """The decorator of a kernel: cached, without reference counting, and with ``inline``
    inlined into its callers by numba."""
    options: dict[str, Any] = {"cache": True, **OPTIONS}
    if inline:
        options["inline"] = "always"
    return njit(**options)
