"""Compiled or pure Python (``keltis._native``): the switch, the fall-back for a stale build,
and the same games either way.

Only the check of this process's own engine runs in both passes of ``make test``: the others
set the engine of the processes they start, or read files, so they are ``engine_free`` (run
once, not again under ``KELTIS_PURE_PYTHON=1``)."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from keltis import _native

#: Seeded random playouts of both games and bot games through the match layer (the heuristic
#: and a small search), hashed: views, records and outcomes.
HASH_GAMES = """
import hashlib, json, random
from keltis._native import engine
from keltis.bots import make_bot
from keltis.games import get_game
from keltis.match import Match
from keltis.record import PlayerInfo

h = hashlib.sha256()
for game in ("board", "cards"):
    for players in (2, 3, 4):
        for seed in range(4):
            state = get_game(game).new_game(players, seed=seed)
            state.play_random(random.Random(seed))
            h.update(json.dumps(state.to_json(), sort_keys=True).encode())
    specs = ["heuristic", "ismcts:iterations=40", "greedy"]
    match = Match.new(game, [PlayerInfo(s) for s in specs],
                      {i: make_bot(s, 5) for i, s in enumerate(specs)}, seed=3)
    while not match.over:
        step = match.play_bot()
        h.update(json.dumps(match.view(step.seat).to_json(), sort_keys=True).encode())
    h.update(json.dumps([match.record.actions, match.record.result]).encode())
print(json.dumps({"engine": engine(), "hash": h.hexdigest()}))
"""


def _run(code: str, *, pure: bool) -> dict[str, str]:
    env = dict(os.environ)
    env.pop(_native.PURE_ENV, None)
    if pure:
        env[_native.PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, str] = json.loads(done.stdout.splitlines()[-1])
    return result


@pytest.mark.slow
@pytest.mark.engine_free
@pytest.mark.timeout(900)
def test_seeded_games_are_the_same_compiled_and_pure() -> None:
    pure = _run(HASH_GAMES, pure=True)
    default = _run(HASH_GAMES, pure=False)
    assert pure["engine"] == "pure Python (KELTIS_PURE_PYTHON=1)"
    # what a process without the switch runs (this one may run with it)
    assert default["engine"] == _native.decide({})
    assert default["hash"] == pure["hash"]


@pytest.mark.engine_free
def test_the_switch_loads_the_sources() -> None:
    code = (
        "import json, keltis.board.state as s, keltis.board.policy as b\n"
        "from keltis._native import engine\n"
        "print(json.dumps({'engine': engine(), 'files': [s.__file__, b.__file__]}))"
    )
    result = _run(code, pure=True)
    assert result["engine"].startswith("pure Python")
    assert all(str(f).endswith(".py") for f in result["files"])


def test_the_engine_in_this_process_is_what_was_loaded() -> None:
    from keltis.board import state

    compiled = not str(state.__file__).endswith(".py")
    assert _native.is_compiled() == compiled
    assert _native.engine().startswith("compiled" if compiled else "pure Python")


def _fake_package(root: Path, *, built: bool) -> Path:
    """A package folder with the compiled modules' sources (and a fake extension)."""
    for name in _native.COMPILED:
        path = _native.source_path(name, root)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {name}\n")
    if built:
        state = _native.source_path("keltis.board.state", root)
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        state.with_name(state.stem + suffix).write_bytes(b"")
    return root


@pytest.mark.engine_free
def test_the_choice(tmp_path: Path) -> None:
    decide = _native.decide
    assert decide({"KELTIS_PURE_PYTHON": "1"}).endswith("(KELTIS_PURE_PYTHON=1)")
    plain = _fake_package(tmp_path / "plain", built=False)
    assert decide({}, plain).startswith("pure Python (not compiled")
    built = _fake_package(tmp_path / "built", built=True)
    assert decide({}, built).startswith("pure Python (the compiled modules are older")
    (built / _native.MANIFEST).write_text(json.dumps(_native.source_hashes(built)))
    assert decide({}, built) == "compiled (mypyc)"
    assert decide({"KELTIS_PURE_PYTHON": "yes"}, built).startswith("pure Python")
    # a source edited after the build: its compiled module would be old code
    _native.source_path("keltis.cards.state", built).write_text("# edited\n")
    assert decide({}, built).startswith("pure Python (the compiled modules are older")


@pytest.mark.engine_free
def test_the_makefile_rebuilds_on_every_compiled_source() -> None:
    root = Path(__file__).parent.parent
    done = subprocess.run(
        ["make", "-pn", "-f", "Makefile", "clean"], capture_output=True, text=True, cwd=root
    )
    line = next(x for x in done.stdout.splitlines() if x.startswith("NATIVE_SOURCES :="))
    listed = set(line.split(":=", 1)[1].split())
    for name in _native.COMPILED:
        assert str(_native.source_path(name, Path("src/keltis"))) in listed
