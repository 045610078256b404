"""Build: the hot modules compiled with mypyc where it can, pure Python where it cannot.

Everything about the package is in ``pyproject.toml``; this file only adds the extension
modules. They are compiled from the same typed source (``keltis._native.COMPILED``) when

* mypyc is importable (``pyproject.toml`` lists mypy among the build requirements),
* a C compiler is found (``$CC`` or ``cc``), and
* neither ``KELTIS_PURE_PYTHON`` nor ``KELTIS_NO_COMPILE`` is set to ``1``;

otherwise the package is pure Python. An editable install (``pip install -e .``, as the
Makefile does) builds the extension modules in place, beside their sources; the build writes
each compiled source's SHA-256 to ``src/keltis/_native_build.json``, and at import keltis runs
pure Python instead of compiled modules older than their source (``keltis._native``).
See docs/performance.md.
"""

from __future__ import annotations

import json
import os
import runpy
import shutil
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
NATIVE = runpy.run_path(str(ROOT / "src" / "keltis" / "_native.py"), run_name="keltis_native")


def _switched_off(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _why_not() -> str | None:
    """Why the modules cannot or shall not be compiled here (``None``: they will be)."""
    for name in (NATIVE["PURE_ENV"], "KELTIS_NO_COMPILE"):
        if _switched_off(name):
            return f"{name} is set"
    if shutil.which(os.environ.get("CC", "cc")) is None:
        return "no C compiler"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed"
    return None


def ext_modules() -> list[Any]:
    """The mypyc extension modules, or none (with a note on stderr saying why)."""
    why = _why_not()
    if why is not None:
        print(f"keltis: building pure Python ({why})", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    sources = [str(NATIVE["source_path"](m, Path("src/keltis"))) for m in NATIVE["COMPILED"]]
    print(f"keltis: compiling {len(sources)} modules with mypyc", file=sys.stderr)
    return list(mypycify(sources, opt_level="3"))


class BuildExt(build_ext):
    """``build_ext`` that records the compiled sources' hashes beside the modules."""

    def run(self) -> None:
        super().run()
        if not self.extensions:
            return
        hashes = json.dumps(NATIVE["source_hashes"](ROOT / "src" / "keltis"), indent=1)
        targets = [Path(self.build_lib) / "keltis"]
        if self.inplace:
            targets.append(ROOT / "src" / "keltis")
        for folder in targets:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / NATIVE["MANIFEST"]).write_text(hashes + "\n")


setup(ext_modules=ext_modules(), cmdclass={"build_ext": BuildExt})
