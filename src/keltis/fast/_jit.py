"""How the game kernels are compiled.

A kernel that allocates nothing is compiled without numba's reference counting: with it,
every array view and every call taking arrays costs a pair of atomic increments, measured at
a quarter of a ``keltis.fast.BatchEnv`` step (docs/performance.md). Such a kernel cannot
create an array; scratch room is passed in.

numba has no public option for that: ``_nrt=False`` is a private one (its leading underscore).
So it is used only where :func:`private_nrt_option` finds numba still offering it, and a numba
that does not is refused when ``keltis.fast`` is imported, with what to do — rather than
failing in the middle of a compile with numba's own "Unrecognized options" error. Setting
``KELTIS_FAST_NRT=1`` compiles with reference counting, with public options only (slower:
docs/performance.md says by how much).
"""

from __future__ import annotations

import os
from typing import Any

from numba import __version__ as numba_version
from numba import njit

from keltis.fast._cache import NRT_VARIABLE


def with_reference_counting() -> bool:
    """Whether the kernels are compiled with reference counting (``KELTIS_FAST_NRT=1``)."""
    return os.environ.get(NRT_VARIABLE, "") == "1"


def private_nrt_option() -> bool:
    """Whether this numba still takes the private ``_nrt`` compile option."""
    try:
        from numba.core.cpu import CPUTargetOptions
    except ImportError:  # pragma: no cover - depends on numba's layout
        return False
    return hasattr(CPUTargetOptions, "_nrt")


def options() -> dict[str, Any]:
    """The compile options every kernel shares (overloads that kernels call take them too)."""
    if with_reference_counting():
        return {}
    if not private_nrt_option():
        raise ImportError(
            f"keltis.fast compiles its kernels without reference counting through numba's "
            f"private option _nrt=False, and numba {numba_version} no longer offers it. "
            f"Install the numba version keltis names (pip install 'keltis[fast]'), or set "
            f"{NRT_VARIABLE}=1 to compile with reference counting (public options only; "
            f"slower, see docs/performance.md)."
        )
    return {"_nrt": False}


#: The options in force (read once, when the kernels are first imported).
OPTIONS: dict[str, Any] = options()


def kernel(*, inline: bool = False) -> Any:
    """The decorator of a kernel: cached, without reference counting (unless
    ``KELTIS_FAST_NRT=1``), and with ``inline`` inlined into its callers by numba."""
    chosen: dict[str, Any] = {"cache": True, **OPTIONS}
    if inline:
        chosen["inline"] = "always"
    return njit(**chosen)
