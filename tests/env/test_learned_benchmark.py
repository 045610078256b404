"""benchmarks/learned.py (issue 29, trap 7): a target is met on the lower end of the Wilson 95%
interval, not on the point estimate (5 wins of 8 met "≥ 50%" before), and a run does not write
over the committed results unless told to."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("numpy", reason="pip install 'keltis[rl]'")
pytest.importorskip("gymnasium", reason="pip install 'keltis[rl]'")

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "learned.py"


@pytest.fixture(scope="module")
def learned() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        spec = importlib.util.spec_from_file_location("learned_benchmark", SCRIPT)
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return module


def rows(wins: int, games: int) -> list[dict[str, Any]]:
    """``games`` 2-player games of ``learned`` against ``random``, seats alternating, the
    learned player winning the first ``wins``."""
    out = []
    for g in range(games):
        seats = ["learned", "random"] if g % 2 == 0 else ["random", "learned"]
        winner = seats.index("learned" if g < wins else "random")
        scores = [10, 0] if winner == 0 else [0, 10]
        out.append({"scores": scores, "winners": [winner], "seats": seats})
    return out


@pytest.mark.parametrize(
    ("wins", "games", "target", "met"),
    [
        (5, 8, 0.5, False),  # 62.5%, interval 31-86%: not shown to be at least 50%
        (8, 8, 0.5, True),  # interval 68-100%
        (380, 400, 0.9, True),
        (370, 400, 0.9, False),  # 92.5%, interval 89.5-94.8%
        (5, 8, None, None),
    ],
)
def test_a_target_is_met_on_the_intervals_lower_end(
    learned: ModuleType, wins: int, games: int, target: float | None, met: bool | None
) -> None:
    line = learned.line("cards", "random", "random", "random", rows(wins, games), 1, 2.0, target)
    assert line["games"] == games
    assert line["win_share"] == pytest.approx(wins / games, abs=1e-4)
    assert line["target"] == target
    assert line["meets_target"] is met
    if target is not None:
        assert met == (line["ci95"][0] >= target)


def test_a_run_does_not_write_over_the_committed_results(learned: ModuleType) -> None:
    committed = (ROOT / "benchmarks" / "results").resolve()
    assert learned.COMMITTED.resolve() == committed
    default = Path(learned.parse_args([]).results).resolve()
    assert default != committed
    assert not default.is_relative_to(committed)
    chosen = learned.parse_args(["--results", str(committed)]).results
    assert Path(chosen) == committed
