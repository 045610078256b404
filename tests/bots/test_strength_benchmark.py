"""benchmarks/strength.py: a game of a line, and the seer experiment (a search handed the true
state instead of deals sampled from its view)."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from keltis.games import get_game

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "strength.py"
#: A search small enough for a test.
TINY = "ismcts:iterations=12,playout_rounds=1,seconds=none"


@pytest.fixture(scope="module")
def strength() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        spec = importlib.util.spec_from_file_location("strength_benchmark", SCRIPT)
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclasses look their module up
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return module


def line(strength: ModuleType, name: str) -> object:
    return next(line for line in strength.LINES if line.name == name)


@pytest.mark.parametrize("game", ["board", "cards"])
@pytest.mark.parametrize("seer", ["seer:", "seer-hands:"])
def test_a_seer_plays_a_whole_game_and_is_kept_apart(
    strength: ModuleType, game: str, seer: str
) -> None:
    row = strength.play_one((game, line(strength, "hard-vs-heuristic"), 7, seer + TINY))
    assert row["hero_spec"] == seer + TINY
    assert row["hero_seat"] == 7 % 2
    assert len(row["scores"]) == 2
    assert row["times"]  # the seer decided


def test_a_seers_every_deal_is_the_true_state(strength: ModuleType) -> None:
    state = get_game("cards").new_game(3, seed=11)
    seer = strength._TrueState(state)
    deal = seer.sample_state(state.view(0), random.Random(1))
    assert deal is not state
    assert deal.to_json() == state.to_json()  # every hand and the draw pile's order
    deal.apply(deal.legal_actions()[0])
    assert deal.to_json() != state.to_json()  # a copy: the search never touches the game


@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_hands_seer_sees_every_hand_but_not_the_draw_piles_order(
    strength: ModuleType, game: str
) -> None:
    state = get_game(game).new_game(2, seed=5)
    seer = strength.seer_of("seer-hands:" + TINY, state)
    deals = [seer.sample_state(state.view(0), random.Random(n)) for n in range(3)]
    unseen = sorted([*state.deck, *state.removed])
    for deal in deals:
        assert deal.hands == state.hands
        assert (len(deal.deck), len(deal.removed)) == (len(state.deck), len(state.removed))
        assert sorted([*deal.deck, *deal.removed]) == unseen
    assert len({tuple(deal.deck) for deal in deals}) == 3


def test_only_a_search_can_be_a_seer(strength: ModuleType) -> None:
    for seer in ("seer:", "seer-hands:"):
        with pytest.raises(ValueError, match="only a search"):
            strength.play_one(("board", line(strength, "hard-vs-heuristic"), 3, seer + "heuristic"))


def test_the_tuned_lines_play_the_weights_file_they_name(
    strength: ModuleType, tmp_path: Path
) -> None:
    path = tmp_path / "tuned.json"
    path.write_text('{"game": "cards", "weights": {"spread": 0.5}}', encoding="utf-8")
    lines = {line.name: line for line in strength.resolved_lines("cards", str(path))}
    assert lines["tuned-vs-heuristic"].hero == f"heuristic:weights={path}"
    assert lines["tuned-hard-vs-hard"].hero.endswith(f",tuning={path}")
    assert lines["tuned-hard-vs-hard"].hero.startswith("ismcts:")
    row = strength.play_one(("cards", lines["tuned-vs-heuristic"], 3, None))
    assert row["hero_spec"] == f"heuristic:weights={path}"
    assert row["opponent_spec"] == "heuristic"
    # by default: the game's tuning run, which is committed
    default = {line.name: line for line in strength.resolved_lines("board")}
    hero = default["tuned-vs-heuristic"].hero
    assert Path(hero.removeprefix("heuristic:weights=")).resolve() == (
        strength.TUNED_WEIGHTS["board", 2].resolve()
    )
    four = default["tuned-vs-3-heuristic"].hero
    assert four.endswith("board-4p/tuned.json")
    assert strength.TUNED_WEIGHTS["board", 2].exists()


def test_a_summary_keeps_the_lines_a_run_did_not_play(strength: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "strength-cards.json"
    first = [{"line": "hard-vs-heuristic", "games": 400, "seeds": [1001, 1400]}]
    strength.write_summary(out, "cards", first, 400, 1001)
    second = [{"line": "learned-vs-hard", "games": 150, "seeds": [1, 150]}]
    strength.write_summary(out, "cards", second, 150, 1)
    lines = json.loads(out.read_text())["lines"]
    assert lines == second + first
    again = [{"line": "hard-vs-heuristic", "games": 10, "seeds": [5, 14]}]
    strength.write_summary(out, "cards", again, 10, 5)
    assert json.loads(out.read_text())["lines"] == again + second


def test_tuned_hard_is_paired_with_the_search_it_was_tuned_from(
    strength: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = {line.name: line for line in strength.resolved_lines("cards")}
    tuned, hard = lines["tuned-hard-vs-3-heuristic"], lines["hard-vs-3-heuristic"]

    def write(line: object, hero: str, shares: list[float]) -> None:
        path = strength.line_file(tmp_path, "cards", line)
        with path.open("a", encoding="utf-8") as out:
            for seed, share in enumerate(shares, 1):
                game = {"seed": seed, "hero_spec": hero, "opponent_spec": "heuristic"}
                result = {"share": share, "win": share == 1.0, "margin": 0, "score": 0}
                played = {"scores": [0] * 4, "end": "deck", "times": [0.1], "hero_seat": 0}
                out.write(json.dumps({**game, **result, **played, "timed_out": 0}) + "\n")

    write(tuned, tuned.hero, [1.0, 0.0, 1.0, 0.5])
    write(hard, strength.UNTUNED_HARD, [0.0, 0.0, 1.0, 0.0])
    # the hard level of today has other games on these seeds: not the ones tuned hard is
    # compared with
    write(hard, strength.spec_of("hard"), [1.0, 1.0, 1.0, 1.0])
    assert strength.spec_of("hard") != strength.UNTUNED_HARD
    argv = ["--game", "cards", "--lines", "tuned-hard-vs-3-heuristic", "--summary-only"]
    argv += ["--seed", "1", "--games", "4", "--results", str(tmp_path)]
    assert strength.main(argv) == 0
    records = [json.loads(text) for text in capsys.readouterr().out.splitlines()]
    paired = next(r for r in records if r["line"].startswith("tuned-hard-vs-3-heuristic-minus"))
    assert paired["line"] == "tuned-hard-vs-3-heuristic-minus-hard-vs-3-heuristic"
    assert paired["games"] == 4
    assert paired["win_share_difference"] == 0.375  # (1 + 0 + 0 + 0.5) / 4
