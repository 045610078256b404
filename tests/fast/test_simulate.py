"""keltis.fast.simulate: results, seeds, deals, the greedy policy, refusals, keltis bench."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from keltis.cli import main
from keltis.core.actions import Action
from keltis.core.errors import SetupError
from keltis.core.outcome import EndReason
from keltis.games import get_game

pytest.importorskip("numba", reason="keltis.fast needs numba: pip install 'keltis[fast]'")

import numpy as np

from keltis.fast import END_REASONS, deal_setup, driver, load_setup, simulate
from keltis.fast._cache import sources_digest
from keltis.fast.setup import dealt_state, kernel, to_setup
from keltis.fast.tuning import weights


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("game", ["board", "cards"])
def test_result_arrays(game: str, policy: str) -> None:
    result = simulate(game, 3, 200, policy, seed=11)
    assert result.n_games == 200
    assert result.scores.shape == result.winners.shape == (200, 3)
    best = result.scores.max(axis=1)
    assert (result.winners == (result.scores == best[:, None])).all()
    assert result.winners.any(axis=1).all()
    assert result.decisions.min() > 20
    assert sum(result.end_reason_counts().values()) == 200
    assert set(result.end_reason_counts()) <= set(END_REASONS) - {"truncated"}
    summary = result.summary()
    assert json.loads(json.dumps(summary)) == summary
    assert summary["games"] == 200


@pytest.mark.parametrize("game", ["board", "cards"])
def test_seeded_and_independent_of_batch_size(game: str) -> None:
    a = simulate(game, 4, 30, "random", seed=99)
    b = simulate(game, 4, 12, "random", seed=99)
    c = simulate(game, 4, 12, "random", seed=100)
    assert (a.scores[:12] == b.scores).all()
    assert (a.decisions[:12] == b.decisions).all()
    assert not (b.decisions == c.decisions).all()


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("game", ["board", "cards"])
def test_simulate_plays_the_traced_games(game: str, policy: str) -> None:
    """The batch loop plays exactly the games the differential test checks (deal="fast")."""
    result = simulate(game, 2, 15, policy, seed=3)
    k = kernel(game)
    room = 5000
    legal = np.zeros(room * k.MAX_LEGAL, dtype=np.int32)
    offsets = np.zeros(room + 1, dtype=np.int64)
    choices = np.zeros(room, dtype=np.int32)
    for g in range(15):
        s, rng = dealt_state(game, 2, 3, g)
        steps = driver.play(
            driver.tag(game), s, ["random", "greedy"].index(policy), rng, True, legal, offsets,
            choices, weights(game),
        )  # fmt: skip
        assert steps == result.decisions[g]
        assert [k.score(s, p) for p in range(2)] == result.scores[g].tolist()
        assert END_REASONS[s[k.END]] == END_REASONS[result.end_reasons[g]]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", ["board", "cards"])
def test_fast_deals_are_deals(game: str, players: int) -> None:
    rules = get_game(game)
    for index in range(20):
        setup = deal_setup(game, players, 8, index)
        state = rules.new_game(players, setup=setup)  # the reference checks every card
        assert [len(h) for h in state.hands] == [8] * players
        assert len(state.removed) == (30 if players == 2 else 0)
        loaded = to_setup(game, load_setup(game, players, setup))
        loaded["hands"] = [sorted(h) for h in loaded["hands"]]
        assert loaded == {**setup, "hands": [sorted(h) for h in setup["hands"]]}
    hands = Counter(str(deal_setup(game, players, 8, i)["hands"]) for i in range(20))
    assert len(hands) == 20


def test_greedy_rates_board_moves_as_the_greedy_bot() -> None:
    """The fast greedy policy's best decisions are the greedy bot's best decisions."""
    from keltis.board import kernel as board
    from keltis.board.policy import greedy_gain

    rules = get_game("board")
    checked = 0
    for seed in range(8):
        setup = rules.deal(3, seed)
        ref = rules.new_game(3, setup=setup)
        s = load_setup("board", 3, setup)
        rng = np.random.default_rng(seed)
        while not ref.over:
            view = ref.view(ref.current_player)
            theirs = [greedy_gain(view, a) for a in view.legal]
            mine = [board.greedy_score(s, rules.actions.index(a)) for a in view.legal]
            assert mine == theirs, view.legal
            checked += 1
            action = view.legal[int(rng.integers(len(view.legal)))]
            ref.apply(action)
            board.apply(s, rules.actions.index(action))
    assert checked > 1500


def test_refusals() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        simulate("chess", 2, 1)
    with pytest.raises(ValueError, match="2-4 players"):
        simulate("board", 5, 1)
    with pytest.raises(ValueError, match="unknown policy"):
        simulate("board", 2, 1, "clever")
    with pytest.raises(ValueError, match="n_games"):
        simulate("cards", 2, 0)
    with pytest.raises(SetupError, match="unknown board-game variant"):
        simulate("board", 2, 1, variant={"layout": "mine"})
    with pytest.raises(SetupError, match="no_take_back cannot be switched off"):
        simulate("cards", 2, 1, variant={"no_take_back": False})
    setup = get_game("cards").deal(2, 1)
    with pytest.raises(SetupError, match="only from a deal"):
        load_setup("cards", 2, {**setup, "rows": [{}, {}]})


def test_missing_numba_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "try:\n    import keltis.fast\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "pip install 'keltis[fast]'" in out


def test_actions_are_each_games_ids() -> None:
    """The kernels' constants are the ids of each game's action space (Game.actions)."""
    from keltis.board import kernel as board  # here: numba is needed for the kernels only
    from keltis.cards import kernel as cards

    b, c = get_game("board").actions, get_game("cards").actions
    assert b.index(Action.parse("draw")) == board.DRAW_DECK == 118
    assert c.index(Action.parse("draw")) == cards.DRAW_DECK == 493
    assert c.index(Action.parse("draw *")) == cards.DRAW_PILE_BASE + 5 == 499
    assert b.index(Action.parse("pass")) == board.PASS_INDEX
    assert c.index(Action.parse("pass")) == cards.PASS_INDEX
    assert b.index(Action.parse("small")) == board.FIGURE_SMALL
    assert b.index(Action.parse("big")) == board.FIGURE_BIG
    assert b.index(Action.parse(">G")) == board.ADVANCE_BASE
    assert b.index(Action.parse("-G0")) == board.DISCARD_BASE == 55
    assert c.index(Action.parse("-G0")) == cards.DISCARD_BASE == 126
    assert c.index(Action.parse("*0>G")) == cards.LAY_ONTO_BASE
    assert c.index(Action.parse("wish G1 Y1")) == cards.CLAIM_BASE
    pairs = zip(cards.CLAIM_FIRST, cards.CLAIM_SECOND, strict=True)
    for offset, (first, second) in enumerate(pairs):
        assert c.action(cards.CLAIM_BASE + offset) == Action.claim(int(first), int(second))


def test_bench_engine_fast(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "--engine", "fast", "--game", "cards", "--players", "2", "--seconds", "0.2"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["engine"] == "fast"
    assert data["games"] >= 100
    assert sum(data["end_reasons"].values()) == data["games"]


def test_bench_engine_fast_without_numba_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "from keltis.cli import main\n"
        "sys.exit(main(['bench', '--engine', 'fast', '--seconds', '0.1']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2
    assert "pip install 'keltis[fast]'" in done.stderr


_CACHE_PROBE = """
import numpy as np
from keltis.board import kernel  # imports numba before keltis.fast, as the kernels do
import numba.core.config as config
from keltis.fast._rng import seed_game
rng = np.zeros(1, dtype=np.uint64)
seed_game(rng, np.uint64(5), 0)
print(config.CACHE_DIR)
print(seed_game._cache.cache_path)
"""


def _probe_cache(tmp_path: Path, **env: str) -> tuple[str, str]:
    clean = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    clean["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    done = subprocess.run(
        [sys.executable, "-c", _CACHE_PROBE],
        capture_output=True,
        text=True,
        check=True,
        env={**clean, **env},
    )
    configured, used = done.stdout.split("\n")[:2]
    return configured, used


def test_numba_caches_in_the_users_cache_folder_not_the_source_tree(tmp_path: Path) -> None:
    """Issue 29, trap 10: importing keltis.fast from a checkout wrote numba's cache into the
    source tree. It goes to $XDG_CACHE_HOME/keltis/numba (or ~/.cache/keltis/numba), or where
    NUMBA_CACHE_DIR says if the user set it."""
    folder = tmp_path / "xdg" / "keltis" / "numba"
    configured, used = _probe_cache(tmp_path)
    assert Path(configured).parent == folder
    assert Path(configured).name == sources_digest()  # a change to a kernel: a fresh folder
    assert Path(used).is_relative_to(folder)
    assert list(Path(used).glob("_rng.seed_game-*.nbi"))
    source = Path(__file__).resolve().parents[2] / "src"
    assert not Path(used).resolve().is_relative_to(source)

    mine = tmp_path / "mine"
    configured, used = _probe_cache(tmp_path, NUMBA_CACHE_DIR=str(mine))
    assert Path(configured) == mine
    assert Path(used).is_relative_to(mine)
    assert list(Path(used).glob("_rng.seed_game-*.nbi"))


_NO_PRIVATE_OPTION = """
import numba.core.cpu as cpu
for base in cpu.CPUTargetOptions.__mro__:  # a numba that dropped the private option
    if "_nrt" in vars(base):
        delattr(base, "_nrt")
try:
    import keltis.fast
except ImportError as error:
    print(error)
else:
    print("imported")
"""


def test_a_numba_without_the_private_option_is_refused_with_what_to_do() -> None:
    """The kernels skip numba's reference counting through its private option ``_nrt``: a
    numba that drops it is refused when keltis.fast is imported, saying what to do, instead
    of numba's "Unrecognized options" in the middle of a compile."""
    from keltis.fast._jit import OPTIONS, private_nrt_option

    assert private_nrt_option()  # the numba keltis pins has it, and the kernels use it
    assert OPTIONS == {"_nrt": False}
    env = {k: v for k, v in os.environ.items() if k != "KELTIS_FAST_NRT"}
    done = subprocess.run(
        [sys.executable, "-c", _NO_PRIVATE_OPTION],
        capture_output=True, text=True, check=True, env=env, timeout=300,
    )  # fmt: skip
    said = done.stdout
    assert "no longer offers it" in said
    assert "KELTIS_FAST_NRT=1" in said
    assert "pip install 'keltis[fast]'" in said


_WITH_NRT = """
import json
from keltis.fast import simulate
from keltis.fast._jit import OPTIONS
result = simulate("cards", 2, 30, "greedy", seed=4)
print(json.dumps([OPTIONS, result.scores.tolist(), result.decisions.tolist()]))
"""


@pytest.mark.slow
def test_with_reference_counting_the_games_are_the_same(tmp_path: Path) -> None:
    """``KELTIS_FAST_NRT=1`` compiles with public options only (numba's reference counting
    on), in a cache folder of its own, and plays the very same games."""
    env = {**os.environ, "KELTIS_FAST_NRT": "1", "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run(
        [sys.executable, "-c", _WITH_NRT],
        capture_output=True, text=True, check=True, env=env, timeout=1200,
    )  # fmt: skip
    options, scores, decisions = json.loads(done.stdout)
    assert options == {}
    plain = simulate("cards", 2, 30, "greedy", seed=4)
    assert scores == plain.scores.tolist()
    assert decisions == plain.decisions.tolist()


@pytest.mark.slow
def test_the_reference_counting_benchmark_runs() -> None:
    """benchmarks/nrt_cost.py (what the private option buys) runs and says it in JSON."""
    script = Path(__file__).parents[2] / "benchmarks" / "nrt_cost.py"
    args = ["--rounds", "1", "--steps", "3", "--batch", "2", "--out", "-"]
    done = subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True, text=True, check=True, timeout=1800,
    )  # fmt: skip
    report = json.loads(done.stdout)
    assert set(report["nrt_over_default_median"]) == {
        "cards-random", "cards-self", "board-random", "board-self",
    }  # fmt: skip
    assert all(value > 0 for value in report["nrt_over_default_median"].values())


@pytest.mark.parametrize("game", ["board", "cards"])
def test_the_kernels_end_codes_name_the_reference_end_reasons(game: str) -> None:
    k = kernel(game)
    codes = {r: getattr(k, f"END_{r.name}") for r in EndReason if hasattr(k, f"END_{r.name}")}
    # every game can end by its draw pile, and every simulation by its turn cap
    assert {EndReason.DECK, EndReason.TRUNCATED} <= codes.keys()
    for reason, code in codes.items():
        assert END_REASONS[code] == reason.value
