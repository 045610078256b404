"""The code keeps the shape docs/architecture.md describes, as ``tools/architecture.py``
measures it: no import circles, no import from a lower layer up, every import inside a
function saying why, the games named only in their packages and the registry (and the few
places the doc lists), and no function longer than about 80 lines."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "architecture", ROOT / "tools" / "architecture.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["architecture"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_no_import_circles(tool: ModuleType) -> None:
    assert tool.circles(tool.imports()) == []


def test_every_module_has_a_layer_and_no_import_points_up(tool: ModuleType) -> None:
    for module in tool.modules():
        tool.layer_of(module)  # raises for a module in no layer
    up = [f"{e.source}:{e.line} -> {e.target}" for e in tool.upward(tool.imports())]
    assert up == []


def test_imports_inside_functions_say_why(tool: ModuleType) -> None:
    silent = [
        f"{e.source}:{e.line} -> {e.target}"
        for e in tool.imports()
        if e.in_function and not e.reason
    ]
    assert silent == []


def test_games_are_named_only_where_the_doc_says(tool: ModuleType) -> None:
    places = tool.game_names()["places"]
    # PettingZoo's convention: one module per environment (docs/architecture.md)
    allowed = {"keltis/env/keltis_board_v0.py", "keltis/env/keltis_cards_v0.py"}
    assert {p.split(":")[0] for p in places} <= allowed, places
    assert len(places) <= 3


def test_no_function_is_much_longer_than_80_lines(tool: ModuleType) -> None:
    longest = tool.longest_functions(top=1)[0]
    assert int(longest.split()[0]) <= 85, longest


def test_the_tool_finds_what_it_looks_for(tool: ModuleType, tmp_path: Path) -> None:
    """A control: on a small tree with a circle, an upward import, a silent import inside a
    function and a game's name, each measure reports it."""
    src = tmp_path / "keltis"
    (src / "core").mkdir(parents=True)
    (src / "__init__.py").write_text("")
    (src / "core" / "__init__.py").write_text("")
    (src / "core" / "a.py").write_text("from keltis.core import b\nimport keltis.games\n")
    (src / "core" / "b.py").write_text("from keltis.core import a\n")
    (src / "games.py").write_text("")
    (src / "cli.py").write_text('def f():\n    import keltis.games\n    return "board"\n')
    known = {
        "keltis": src / "__init__.py",
        "keltis.core": src / "core" / "__init__.py",
        "keltis.core.a": src / "core" / "a.py",
        "keltis.core.b": src / "core" / "b.py",
        "keltis.games": src / "games.py",
        "keltis.cli": src / "cli.py",
    }
    old, tool.SRC = tool.SRC, tmp_path
    try:
        edges = tool.imports(known)
        assert tool.circles(edges) == [["keltis.core.a", "keltis.core.b"]]
        assert [(e.source, e.target) for e in tool.upward(edges)] == [
            ("keltis.core.a", "keltis.games")
        ]
        assert [e.source for e in edges if e.in_function and not e.reason] == ["keltis.cli"]
        assert tool.game_names(known)["places"] == ["keltis/cli.py:3"]
    finally:
        tool.SRC = old
