"""Which engine runs: the hot modules compiled with mypyc, or the same modules as pure Python.

The modules of :data:`COMPILED` are compiled by ``setup.py`` (mypyc, from the same typed
source) wherever a C compiler and mypyc are present; the extension modules lie next to their
``.py`` files, where Python's import system prefers them. :func:`install` runs first thing in
``keltis/__init__.py`` and decides, once per process, for all of them together:

* ``KELTIS_PURE_PYTHON=1`` (or ``true``, ``yes``): pure Python, whatever is built;
* compiled modules whose source changed since they were built (the build writes each
  source's SHA-256 to ``_native_build.json``): pure Python — running old code for new source
  would be wrong, and mixing compiled and pure modules is not supported by mypyc;
* otherwise the compiled modules when they are there.

Pure Python is forced by a meta-path finder that, for these modules alone, hands the import
system their ``.py`` file instead of the extension. ``keltis bench`` reports :func:`engine`.
This module uses only the standard library and is never compiled.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

#: The modules mypyc compiles: the rules engines and their set-up, the heuristic policies
#: (what playouts and searches spend most of their time in) and the match layer (every
#: decision of every front end passes through it); docs/performance.md has the measurements.
#: Views, events, previews, records and the front ends stay interpreted: they are not hot,
#: and they are subclassed or introspected. The search itself (``keltis.bots.ismcts``) is not
#: compiled: its bot class and options are introspected by ``keltis.bots.spec``.
COMPILED: Final = (
    "keltis.core.actions",
    "keltis.core.card_codes",
    "keltis.core.scoring",
    "keltis.core.setup",
    "keltis.core.gamestate",
    "keltis.core.policy",
    "keltis.board.layout",
    "keltis.board.tables",
    "keltis.board.state",
    "keltis.board.setup",
    "keltis.board.sample",
    "keltis.board.policy",
    "keltis.cards.tables",
    "keltis.cards.state",
    "keltis.cards.setup",
    "keltis.cards.sample",
    "keltis.cards.policy",
    "keltis.match",
)
#: The build's record of the sources it compiled (module -> SHA-256 of its ``.py``).
MANIFEST: Final = "_native_build.json"
#: The switch that forces pure Python.
PURE_ENV: Final = "KELTIS_PURE_PYTHON"

_PACKAGE: Final = Path(__file__).resolve().parent
_state: dict[str, str] = {}


def source_path(module: str, package_dir: Path = _PACKAGE) -> Path:
    """The ``.py`` file of ``module`` (a name of :data:`COMPILED`) under ``package_dir``."""
    return package_dir.joinpath(*module.split(".")[1:]).with_suffix(".py")


def source_hashes(package_dir: Path = _PACKAGE) -> dict[str, str]:
    """SHA-256 of each compiled module's source (what the build writes to :data:`MANIFEST`)."""
    return {
        name: hashlib.sha256(source_path(name, package_dir).read_bytes()).hexdigest()
        for name in COMPILED
    }


def _built(package_dir: Path) -> bool:
    """Whether extension modules of :data:`COMPILED` lie in ``package_dir``."""
    state = source_path("keltis.board.state", package_dir)
    return any(
        state.with_name(state.stem + suffix).exists()
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


def _pure_forced(environ: Mapping[str, str]) -> bool:
    return environ.get(PURE_ENV, "").strip().lower() in ("1", "true", "yes", "on")


class SourceFirst(importlib.abc.MetaPathFinder):
    """Imports the modules of :data:`COMPILED` from their ``.py`` files, never from an
    extension module beside them."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        """The source spec of a compiled module; ``None`` (the usual search) for others."""
        if fullname not in COMPILED or path is None:
            return None
        leaf = fullname.rpartition(".")[2]
        for folder in path:
            source = Path(folder) / f"{leaf}.py"
            if source.exists():
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def decide(environ: Mapping[str, str], package_dir: Path = _PACKAGE) -> str:
    """Which engine a process with ``environ`` runs from ``package_dir``: ``compiled
    (mypyc)`` or ``pure Python (why)`` (see the module docstring)."""
    if _pure_forced(environ):
        return f"pure Python ({PURE_ENV}=1)"
    if not _built(package_dir):
        return "pure Python (not compiled: no C compiler or mypyc at install)"
    try:
        recorded = json.loads((package_dir / MANIFEST).read_text())
    except (OSError, ValueError):
        recorded = None
    if recorded != source_hashes(package_dir):
        return "pure Python (the compiled modules are older than their source: reinstall)"
    return "compiled (mypyc)"


def install(environ: Mapping[str, str] = os.environ) -> str:
    """Choose the engine for this process (:func:`decide`), once, before any compiled module
    is imported; for pure Python, put :class:`SourceFirst` first on ``sys.meta_path``."""
    if not _state:
        reason = decide(environ)
        if not reason.startswith("compiled"):
            sys.meta_path.insert(0, SourceFirst())
        _state["reason"] = reason
    return _state["reason"]


def engine() -> str:
    """``compiled (mypyc)`` or ``pure Python (why)``, as :func:`install` chose, checked
    against where the rules engine was actually loaded from."""
    reason = install()
    # the first compiled module (after install: importing keltis runs this module first)
    probe = importlib.import_module(COMPILED[0])
    loaded_compiled = not str(probe.__file__).endswith(".py")
    if loaded_compiled != reason.startswith("compiled"):  # pragma: no cover - a bug here
        raise RuntimeError(f"the engine was to be {reason} but {probe.__file__} was loaded")
    return reason


def is_compiled() -> bool:
    """Whether this process runs the compiled modules."""
    return engine().startswith("compiled")


if __name__ == "keltis._native":  # imported by keltis, not read by setup.py
    install()
