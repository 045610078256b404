"""Where numba keeps ``keltis.fast``'s compiled kernels: the user's cache folder, never the
source tree.

numba's ``cache=True`` writes beside the sources (``__pycache__``) unless ``NUMBA_CACHE_DIR``
names a folder, so a checkout imported from its source tree filled its ``src/`` with compiled
files. :func:`use_user_cache_dir` (called by ``keltis.fast`` before any kernel is compiled)
sets ``NUMBA_CACHE_DIR`` to :func:`cache_dir` — ``$XDG_CACHE_HOME/keltis/numba``, else
``~/.cache/keltis/numba`` — unless the user has set it. It sets it for the whole process (and
the processes it starts), as numba reads only the environment: other numba code of the same
process caches there too. This module imports nothing of numba's.

The folder is named after a digest of the kernels' sources (:func:`sources_digest`): numba
checks a cached function against its own file only, so the batched env's driver
(``keltis.fast.driver``), compiled with the games' kernels inside it, would load stale code
after a change to a kernel's file. A change to any of those sources compiles everything anew
in a fresh folder.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]
#: The sources whose code or constants the compiled kernels hold (paths in the package).
SOURCES = (
    "fast/*.py",
    "board/actions.py",
    "board/kernel.py",
    "board/layout.py",
    "board/state.py",
    "cards/actions.py",
    "cards/kernel.py",
    "cards/state.py",
    "cards/tables.py",
    "core/actions.py",
    "core/card_codes.py",
)


#: The environment variable that chooses numba's reference counting (``keltis.fast._jit``):
#: kernels compiled with and without it are kept apart.
NRT_VARIABLE = "KELTIS_FAST_NRT"


def sources_digest() -> str:
    """A short digest of the :data:`SOURCES` as they are now (and of :data:`NRT_VARIABLE`)."""
    digest = hashlib.sha256(f"nrt={os.environ.get(NRT_VARIABLE, '')}".encode())
    for pattern in SOURCES:
        for path in sorted(_PACKAGE.glob(pattern)):
            digest.update(path.relative_to(_PACKAGE).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    """The folder for numba's cache when the user names none: ``keltis/numba/<digest>`` in
    ``$XDG_CACHE_HOME`` (an absolute path; the XDG convention ignores a relative one), else
    in ``~/.cache``; ``<digest>`` is :func:`sources_digest`."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "keltis" / "numba" / sources_digest()


def use_user_cache_dir() -> str:
    """Point numba's cache at :func:`cache_dir` unless ``NUMBA_CACHE_DIR`` is set; returns the
    folder numba caches into. Call it before the kernels are compiled: if numba is already
    imported it re-reads its configuration."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return chosen
    folder = str(cache_dir())
    os.environ["NUMBA_CACHE_DIR"] = folder
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba read the environment when it was imported: read it again
        config.reload_config()
    return folder
