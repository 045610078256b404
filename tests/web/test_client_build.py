"""The client's source: TypeScript that type-checks (``tsc --noEmit``, strict), a committed
build (``src/keltis/server/static``, what ``pip install`` users get) that is exactly what
the sources build to, and words only from the catalogs — every message key the client names
exists. Needs ``npm ci`` in ``web/`` (``make test`` runs it where npm is); skipped without
it, failed under ``KELTIS_REQUIRE_BROWSER=1`` (CI)."""

from __future__ import annotations

import filecmp
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from keltis.messages import MESSAGES
from keltis.server.app import STATIC_DIR
from web.conftest import ROOT, missing

WEB = ROOT / "web"
SOURCES = sorted((WEB / "src").glob("*.ts*"))


@pytest.fixture(scope="module")
def tools() -> Path:
    """web/'s installed tools (TypeScript, Vite)."""
    if shutil.which("npm") is None:
        missing("no npm: the client's tools cannot run")
    if not (WEB / "node_modules" / ".bin" / "vite").exists():
        missing("the client's tools are not installed: npm ci in web/ (make web)")
    return WEB / "node_modules" / ".bin"


@pytest.mark.slow
def test_the_typescript_type_checks(tools: Path) -> None:
    done = subprocess.run(
        [str(tools / "tsc"), "--noEmit", "-p", "tsconfig.json"],
        cwd=WEB,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_the_committed_build_is_what_the_sources_build_to(tools: Path, tmp_path: Path) -> None:
    out = tmp_path / "static"
    done = subprocess.run(
        [
            str(tools / "vite"),
            "build",
            "--outDir",
            str(out),
            "--emptyOutDir",
            "--logLevel",
            "error",
        ],
        cwd=WEB,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    built = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    shipped = sorted(p.relative_to(STATIC_DIR) for p in STATIC_DIR.rglob("*") if p.is_file())
    assert built == shipped, "the committed build is stale: run make web and commit it"
    for name in built:
        assert filecmp.cmp(out / name, STATIC_DIR / name, shallow=False), name


def test_every_message_the_client_names_exists() -> None:
    named: set[str] = set()
    prefixes: set[str] = set()
    for path in SOURCES:
        lines = path.read_text(encoding="utf-8").splitlines()
        text = "\n".join(line for line in lines if not line.lstrip().startswith(("//", "/*", "*")))
        named.update(re.findall(r"\bt\.t\(\s*\"([\w.]+)\"", text))
        named.update(re.findall(r"\bt\(\s*\"([\w.]+)\"", text))
        named.update(re.findall(r"this\.t\(\s*\"([\w.]+)\"", text))
        named.update(re.findall(r"\?\s*\"((?:web|act|ev|screen|end|score)\.[\w.]+)\"", text))
        named.update(re.findall(r":\s*\"((?:web|act|ev|screen|end|score)\.[\w.]+)\"", text))
        prefixes.update(re.findall(r"\bt\(\s*`([\w.]+\.)\$\{", text))
    assert len(named) > 60, sorted(named)
    assert len(prefixes) > 5, sorted(prefixes)
    unknown = sorted(key for key in named if key not in MESSAGES)
    assert not unknown, f"the client names messages the catalogs lack: {unknown}"
    for prefix in prefixes:
        assert any(key.startswith(prefix) for key in MESSAGES), prefix


def test_no_interface_text_is_written_in_the_client() -> None:
    """JSX text is symbols, numbers or a message: a word of English between tags would be a
    second copy of a string (and untranslated)."""
    words = re.compile(r"(?<![=-])>\s*([A-Za-z][A-Za-z ,.'’]{3,})\s*<")
    for path in (p for p in SOURCES if p.suffix == ".tsx"):
        found = words.findall(path.read_text(encoding="utf-8"))
        assert set(found) <= {"Keltis"}, f"{path.name}: {found}"  # (the game's name stays)


def test_the_client_offers_every_level_for_people_by_its_name() -> None:
    """The start page's and the new-match form's bot levels (``LEVELS`` in home.tsx) are the
    levels for people, weakest first; every level a seat may have, ``random`` too, has its
    name in the catalogs (``web.level.<level>``)."""
    from keltis.bots.levels import LEVELS
    from keltis.server.workers import BOT_LEVELS

    home = (WEB / "src" / "home.tsx").read_text(encoding="utf-8")
    found = re.search(r"const LEVELS: Level\[\] = \[([^\]]*)\];", home)
    assert found is not None
    assert re.findall(r"\"(\w+)\"", found.group(1)) == list(LEVELS)
    for level in BOT_LEVELS:
        assert f"web.level.{level}" in MESSAGES, level
