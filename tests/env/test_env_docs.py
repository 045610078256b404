"""docs/rl.md shows the observation layout as the code defines it, and its snippets run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="pip install 'keltis[rl]'")

from keltis.env.encode import layout_table, observation_size

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


@pytest.mark.parametrize("game", ["board", "cards"])
def test_the_layout_tables_are_the_codes(game: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert layout_table(game) in text, (
        f"docs/rl.md's {game} table differs from keltis.env.encode.layout_table({game!r}): "
        "paste the function's output into the page"
    )
    for players in (2, 3, 4):
        assert f"{players} players: **{observation_size(game, players)}**" in text


def test_the_readme_links_the_page() -> None:
    readme = (DOC.parents[1] / "README.md").read_text(encoding="utf-8")
    assert "(docs/rl.md)" in readme


def test_the_python_snippets_compile() -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert len(blocks) >= 4
    for block in blocks:
        compile(block, "docs/rl.md", "exec")
