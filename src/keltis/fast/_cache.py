"""Where numba keeps ``keltis.fast``'s compiled kernels: the user's cache folder, never the
source tree.

numba's ``cache=True`` writes beside the sources (``__pycache__``) unless ``NUMBA_CACHE_DIR``
names a folder, so a checkout imported from its source tree filled its ``src/`` with compiled
files. :func:`use_user_cache_dir` (called by ``keltis.fast`` before any kernel is compiled)
sets ``NUMBA_CACHE_DIR`` to :func:`cache_dir` — ``$XDG_CACHE_HOME/keltis/numba``, else
``~/.cache/keltis/numba`` — unless the user has set it. It sets it for the whole process (and
the processes it starts), as numba reads only the environment: other numba code of the same
process caches there too. This module imports nothing of numba's.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def cache_dir() -> Path:
    """The folder for numba's cache when the user names none: ``keltis/numba`` in
    ``$XDG_CACHE_HOME`` (an absolute path; the XDG convention ignores a relative one), else
    in ``~/.cache``."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "keltis" / "numba"


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
