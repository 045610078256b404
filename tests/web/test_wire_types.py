"""The client's wire types are generated from the published JSON Schemas, never copied by
hand: ``web/src/wire.gen.ts`` is exactly what ``npm run types`` (web/scripts/gen-types.mjs,
json-schema-to-typescript) writes from ``src/keltis/schemas/``, and ``web/src/types.ts``
only names those types. Needs ``npm ci`` in ``web/`` (``make test`` runs it where npm is);
skipped without it, failed under ``KELTIS_REQUIRE_BROWSER=1`` (CI)."""

from __future__ import annotations

import difflib
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from web.conftest import ROOT, missing

WEB = ROOT / "web"
GENERATED = WEB / "src" / "wire.gen.ts"
GENERATOR = WEB / "scripts" / "gen-types.mjs"
REGENERATE = "cd web && npm run types"


@pytest.fixture(scope="module")
def node() -> str:
    """Node, with web/'s installed generator."""
    found = shutil.which("node")
    if found is None:
        missing("no node: the wire types cannot be generated")
    if not (WEB / "node_modules" / "json-schema-to-typescript").is_dir():
        missing("the client's tools are not installed: npm ci in web/ (make web)")
    return str(found)


def test_the_committed_wire_types_are_what_the_schemas_generate(node: str, tmp_path: Path) -> None:
    fresh = tmp_path / "wire.gen.ts"
    done = subprocess.run(
        [node, str(GENERATOR), "--out", str(fresh)],
        cwd=WEB,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    want = fresh.read_text(encoding="utf-8")
    have = GENERATED.read_text(encoding="utf-8") if GENERATED.exists() else ""
    if have != want:
        diff = "".join(
            list(
                difflib.unified_diff(
                    have.splitlines(keepends=True),
                    want.splitlines(keepends=True),
                    "web/src/wire.gen.ts (committed)",
                    "generated from src/keltis/schemas",
                )
            )[:40]
        )
        pytest.fail(
            "web/src/wire.gen.ts is not what the schemas generate: run "
            f"`{REGENERATE}` and commit it (never edit it by hand)\n{diff}"
        )


def test_the_generator_reads_only_the_schemas() -> None:
    """Every schema file is read, and no address outside them (the `$id`s are names, not
    places: nothing is fetched)."""
    text = GENERATED.read_text(encoding="utf-8")
    assert text.startswith("// Generated from src/keltis/schemas/"), text[:200]
    assert REGENERATE in text
    for name in ("View", "Step", "GameInfo", "GameRecord", "LiveMessage"):
        assert re.search(rf"^export (type|interface) {name}\b", text, re.M), name
    assert "resolve: { external: false }" in GENERATOR.read_text(encoding="utf-8")


def test_types_ts_writes_no_wire_type_by_hand() -> None:
    """``types.ts`` names the generated types (aliases, re-exports); an interface, an object
    type or a union of values written there would be a second copy of a schema."""
    text = (WEB / "src" / "types.ts").read_text(encoding="utf-8")
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    assert "interface " not in code
    for alias in re.findall(r"^export type \w+ =([^;]*);", code, re.M | re.S):
        assert "{" not in alias, alias
        assert "|" not in alias, alias
