"""The command starts light: ``keltis --help`` and ``keltis play`` load no arena (its
tournament runner, Ray, ratings) and no search unless a search bot plays (``hard``, or
``ismcts``: the bot registry imports it when first looked up); ``keltis arena`` still gets
its whole parser."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from keltis.cli import build_parser


def _modules(code: str) -> list[str]:
    """The keltis modules a fresh interpreter has loaded after running ``code``."""
    script = (
        f"import sys, json\n{code}\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('keltis'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    loaded: list[str] = json.loads(out.stdout.splitlines()[-1])
    return loaded


def test_help_loads_neither_the_arena_nor_the_search() -> None:
    loaded = _modules("import keltis.cli\nkeltis.cli.build_parser(['--help']).format_help()")
    assert not [m for m in loaded if m.startswith("keltis.arena")]
    assert "keltis.bots.ismcts" not in loaded
    assert "keltis.bots.hints" not in loaded
    assert "keltis.cli" in loaded


def test_play_loads_no_arena() -> None:
    loaded = _modules(
        "import keltis.cli, keltis.tui.app\nkeltis.cli.build_parser(['play', '--seed', '1'])"
    )
    assert not [m for m in loaded if m.startswith("keltis.arena")]
    assert "keltis.bots.ismcts" not in loaded


def test_the_search_loads_only_for_a_search_bot() -> None:
    people = (
        "from keltis.bots import make_bot\nfor s in ('easy', 'medium', 'random'): make_bot(s, 1)"
    )
    assert "keltis.bots.ismcts" not in _modules(people)
    for spec in ("hard", "ismcts:iterations=5", "Morrigan"):
        assert "keltis.bots.ismcts" in _modules(
            f"from keltis.bots import make_bot\nmake_bot({spec!r}, 1)"
        )
    names = "from keltis.bots import IsmctsBot, SearchConfig\nassert SearchConfig().iterations > 0"
    assert "keltis.bots.ismcts" in _modules(names)


@pytest.mark.parametrize("argv", [None, ["arena", "--help"]])
def test_the_arena_parser_is_whole_when_asked_for(argv: list[str] | None) -> None:
    parser = build_parser(argv)
    arena = parser.parse_args(["arena", "greedy", "random", "--games", "3"])
    assert arena.bots == ["greedy", "random"]
    assert arena.games == 3


def test_help_lists_the_arena() -> None:
    assert "play a seeded tournament" in build_parser(["--help"]).format_help()
