"""Move counts ("perft"): the number of action sequences of each length from given positions.

Each file under ``tests/data/board/perft/`` names a position — an explicit set-up, a rules
variant and the moves that lead from it to the position — and ``counts[d - 1]``, the number of
distinct sequences of exactly ``d`` legal actions from there (a finished game has none). The
test recomputes them; ``pytest --update-golden`` rewrites the counts after an intended rules
change (review the diff: a count that moves means the rules changed).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from keltis.board import BoardState

from .helpers import GAME, play

PERFT = Path(__file__).resolve().parents[1] / "data" / "board" / "perft"
FILES = sorted(p.name for p in PERFT.glob("*.json"))

Golden = Callable[[str, Any], None]


def perft(state: BoardState, depth: int) -> int:
    """The number of sequences of exactly ``depth`` legal actions from ``state``."""
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def position(spec: dict[str, Any]) -> BoardState:
    """The position a perft file describes."""
    state = GAME.new_game(spec["players"], setup=spec["setup"], variant=spec.get("variant"))
    play(state, *spec["moves"])
    assert state.phase_name == spec["phase"]
    return state


@pytest.mark.engine_free
def test_perft_files_exist() -> None:
    assert len(FILES) >= 5


@pytest.mark.parametrize("name", FILES)
def test_perft(name: str, golden: Golden) -> None:
    spec = json.loads((PERFT / name).read_text(encoding="utf-8"))
    state = position(spec)
    counts = [perft(state, depth) for depth in range(1, len(spec["counts"]) + 1)]
    golden(f"board/perft/{name}", {**spec, "counts": counts})


def test_perft_counts_by_hand() -> None:
    """The first counts of two files, worked out by hand from their set-ups."""
    figure = position(json.loads((PERFT / "figure-choice.json").read_text(encoding="utf-8")))
    # big or small; then the draw pile or the green pile (G3 was just laid, so only the
    # red pile holds a card besides the deck): 2 draws each
    assert figure.phase_name == "figure"
    assert [perft(figure, d) for d in (1, 2)] == [2, 2 * 2]
    start = position(json.loads((PERFT / "start-2p.json").read_text(encoding="utf-8")))
    # 8 distinct cards, all layable on empty rows: 8 lays and 8 discards
    assert perft(start, 1) == 16
