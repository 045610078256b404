"""The search with compiled playouts (keltis.fast.search): a reference position as a state
array at any point of play, the kernels' projection against the heuristic's, the playouts,
and the bot (``ismcts-kernel``)."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="keltis.fast needs numba: pip install 'keltis[fast]'")

import numpy as np

from keltis.bots import make_bot
from keltis.bots.ismcts import SearchConfig, search
from keltis.bots.weights import heuristics, tuning_of
from keltis.core.protocol import GameState
from keltis.fast.search import KernelPlayouts, KernelSearchBot
from keltis.fast.setup import kernel, state_array
from keltis.fast.tuning import weights
from keltis.games import get_game

GAMES = ("board", "cards")


def positions(game: str, players: int, seed: int, every: int) -> list[GameState]:
    """Every ``every``-th position of a seeded random game (clones), its end included."""
    state = get_game(game).new_game(players, seed=seed)
    rng = random.Random(seed)
    found = []
    step = 0
    while not state.over:
        if step % every == 0:
            found.append(state.clone())
        legal = state.legal_actions()
        state.apply_legal(legal[rng.randrange(len(legal))])
        step += 1
    found.append(state)
    return found


def legal_ids(game: str, s: np.ndarray) -> set[int]:
    """The kernel's legal decisions in ``s``."""
    out = np.zeros(kernel(game).MAX_LEGAL, dtype=np.int32)
    n = kernel(game).legal(s, out)
    return {int(a) for a in out[:n]}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_position_anywhere_plays_on_alike_in_the_kernel(game: str, players: int) -> None:
    """From a state array of a reference position taken anywhere in a game (the
    figures, rows, tiles, piles, known cards and the turn's phase all copied), the kernel
    plays the rest of the game as the reference does: the same legal decisions at every step,
    then the same end, turns and scores."""
    rules = get_game(game)
    space = rules.actions
    k = kernel(game)
    checked = 0
    for start in positions(game, players, seed=40 + players, every=9):
        s = state_array(start)
        state = start.clone()
        rng = random.Random(checked)
        while not state.over:
            legal = state.legal_actions()
            assert legal_ids(game, s) == {space.index(a) for a in legal}, state.to_json()
            action = legal[rng.randrange(len(legal))]
            state.apply_legal(action)
            k.apply(s, space.index(action))
            checked += 1
        assert s[k.PHASE] == k.OVER
        assert int(s[k.TURN]) == state.turn
        outcome = state.outcome()
        assert int(s[k.END]) == list(type(outcome.end_reason)).index(outcome.end_reason)
        assert [int(k.score(s, p)) for p in range(players)] == list(outcome.scores)
    assert checked > 200


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("tuned", [False, True])
def test_the_kernels_projection_is_the_heuristics(game: str, players: int, tuned: bool) -> None:
    """``projection`` gives every seat the number the Python heuristic's projection gives,
    under its default weights and under the medium level's."""
    policies = heuristics(game, "medium" if tuned else None, players)
    w = weights(game, tuning_of(game, "medium", players) if tuned else None)
    k = kernel(game)
    compared = 0
    for state in positions(game, players, seed=7, every=5)[:-1]:
        out = np.zeros(players)
        k.projection(state_array(state), w, out)
        assert out.tolist() == pytest.approx(policies.projection(state), abs=1e-9)
        compared += 1
    assert compared > 20


@pytest.mark.parametrize("game", GAMES)
def test_playouts_of_no_turn_judge_the_position_after_the_action(game: str) -> None:
    """With a cut of 0 turns a playout makes the root action and judges at once: the
    projection of the reference position after that action, or its final scores."""
    playouts = KernelPlayouts(game, 2)
    policies = heuristics(game, None, 2)
    tried = 0
    for state in positions(game, 2, seed=11, every=4)[:-1]:
        legal = state.legal_actions()
        results = playouts(state, legal, seed=5, cut=0)
        assert len(results) == len(legal)
        for action, (scores, over) in zip(legal, results, strict=True):
            after = state.clone()
            after.apply_legal(action)
            assert over == after.over
            expected = list(after.outcome().scores) if after.over else policies.projection(after)
            assert scores == pytest.approx(expected, abs=1e-9)
            tried += 1
    assert tried > 100


@pytest.mark.parametrize("game", GAMES)
def test_playouts_to_the_end_finish_every_game(game: str) -> None:
    state = positions(game, 3, seed=3, every=30)[1]
    legal = state.legal_actions()
    results = KernelPlayouts(game, 3)(state, legal, seed=9, cut=None)
    assert all(over for _, over in results)
    for scores, _ in results:
        assert all(float(s).is_integer() for s in scores)
    again = KernelPlayouts(game, 3)(state, legal, seed=9, cut=None)
    assert again == results  # from the same seed, the same playouts
    with pytest.raises(ValueError, match="for 2 players, the deal has 3"):
        KernelPlayouts(game, 2)(state, legal, seed=9, cut=None)


@pytest.mark.parametrize("game", GAMES)
def test_the_kernel_search_plays_legal_moves_and_is_reproducible(game: str) -> None:
    state = get_game(game).new_game(2, seed=21)
    rng = random.Random(0)
    moves = 0
    while not state.over and moves < 40:
        view = state.view(state.current_player)
        if len(view.legal) > 1:
            one = make_bot("ismcts-kernel:iterations=60", seed=moves).choose(view)
            two = make_bot("ismcts-kernel:iterations=60", seed=moves).choose(view)
            assert one == two
            assert one in view.legal
            moves += 1
            state.apply(one)
        else:
            state.apply(view.legal[rng.randrange(len(view.legal))])
    assert moves == 40


def test_the_kernel_search_takes_the_levels_options_and_refuses_a_tree() -> None:
    bot = make_bot("ismcts-kernel:iterations=100,playout_rounds=3,tuning=medium", seed=1)
    assert isinstance(bot, KernelSearchBot)
    assert bot.config.tuning == "medium"
    with pytest.raises(ValueError, match="tree_depth"):
        KernelSearchBot(1, SearchConfig(tree_depth=2))
    with pytest.raises(ValueError, match="heuristic"):
        KernelSearchBot(1, SearchConfig(playout="random"))
    view = get_game("cards").new_game(2, seed=1).view(0)
    compiled = KernelPlayouts("cards", 2)
    with pytest.raises(ValueError, match="tree_depth=0"):
        search(view, SearchConfig(tree_depth=1), random.Random(0), playouts=compiled)


@pytest.mark.parametrize("game", GAMES)
def test_the_kernel_search_agrees_with_the_python_search_on_clear_choices(game: str) -> None:
    """Both searches race the same root actions on the same deals; where the Python search
    finds one action clearly best with a large budget, so does the kernel's."""
    agreed = 0
    asked = 0
    for state in positions(game, 2, seed=5, every=13)[1:-1]:
        view = state.view(state.current_player)
        if len(view.legal) < 2:
            continue
        config = SearchConfig(iterations=600)
        python = search(view, config, random.Random(1))
        compiled = search(view, config, random.Random(1), playouts=KernelPlayouts(game, 2))
        asked += 1
        agreed += python.best == compiled.best
    assert asked >= 8
    assert agreed >= 0.7 * asked


def test_the_speed_benchmark_runs_both_searches_on_the_same_positions(tmp_path: Path) -> None:
    """benchmarks/kernel_search.py, shortened: both searches decide every position under
    each budget; without the race both play all 800 playouts (or as many as divide evenly
    among the root actions)."""
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "kernel_search.py"
    spec = importlib.util.spec_from_file_location("kernel_search_benchmark", script)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "speed.json"
    assert module.main(["--positions", "2", "--players", "2", "--out", str(out)]) == 0
    document = json.loads(out.read_text())
    assert [(r["game"], r["players"]) for r in document["results"]] == [
        ("board", 2),
        ("cards", 2),
    ]
    for result in document["results"]:
        played = result["all-800"]["playouts"]  # 800 a position, less what 800 leaves over
        assert played["python"] == played["kernel"]  # when shared out over the root actions
        assert 1590 <= played["kernel"] <= 1600
        assert result["hard"]["decisions_per_cpu_s"]["kernel"] > 0
    with pytest.raises(SystemExit):
        module.main(["--players", "5"])


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_the_kernels_medium_scores_a_converted_position_as_the_heuristic(
    game: str, players: int
) -> None:
    """From a reference position's state array the kernel's medium policy scores every legal
    decision as the Python heuristic does: the playouts start from the position the search
    sampled, cards known in a hand included."""
    policies = heuristics(game, None, players)
    space = get_game(game).actions
    k = kernel(game)
    w = weights(game)
    compared = 0
    for state in positions(game, players, seed=19, every=3)[:-1]:
        s = state_array(state)
        out = np.zeros(k.MAX_LEGAL, dtype=np.int32)
        n = k.legal(s, out)
        scores = np.zeros(n)
        k.medium_scores(s, out, n, w, scores)
        kernel_scores = {int(out[i]): float(scores[i]) for i in range(n)}
        python_scores = {space.index(a): score for score, a in policies.scores(state)}
        assert kernel_scores == pytest.approx(python_scores, abs=1e-9), state.to_json()
        compared += 1
    assert compared > 50
