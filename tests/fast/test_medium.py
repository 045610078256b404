"""The kernels' medium policy (policy 2): its weights as data (keltis.fast.tuning), the
proof against the Python heuristic (keltis.fast.medium_diff), and where it plays: simulate
and BatchEnv's opponents.

A few dozen games per game and player count here; ``python -m keltis.fast.medium_diff``
runs 2,000 and commits its result (benchmarks/results/kernel-medium-diff.json).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="keltis.fast needs numba: pip install 'keltis[fast]'")

import numpy as np

from keltis.board.policy import BoardTuning
from keltis.cards import kernel as cards_kernel
from keltis.cards.policy import CardTuning, cards_scores
from keltis.core.actions import Action
from keltis.fast import BatchEnv, driver, simulate
from keltis.fast.diff import MismatchError
from keltis.fast.medium_diff import medium_differential
from keltis.fast.setup import dealt_state, kernel, to_setup
from keltis.fast.tuning import default_tuning, game_of, tuning_array, tuning_fields, weights
from keltis.games import get_game

SRC = Path(__file__).resolve().parents[2] / "src" / "keltis"


def _declared(path: Path, name: str) -> list[str]:
    """The annotated fields of class ``name`` in the source ``path``, in order."""
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return [
                s.target.id
                for s in node.body
                if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
            ]
    raise AssertionError(f"no class {name} in {path}")


@pytest.mark.parametrize(
    ("game", "kind", "path"),
    [
        ("cards", CardTuning, SRC / "cards" / "policy.py"),
        ("board", BoardTuning, SRC / "board" / "policy.py"),
    ],
)
def test_tuning_array_follows_the_declared_fields(game: str, kind: type, path: Path) -> None:
    """Each kernel's ``TUNING_FIELDS`` are its tuning class's fields in declaration order."""
    fields = _declared(path, kind.__name__)
    assert list(tuning_fields(game)) == fields
    changed = kind(**{fields[3]: 9.5})
    assert game_of(changed) == game
    array = tuning_array(changed)
    assert array.dtype == np.float64
    assert array.tolist() == [float(getattr(changed, f)) for f in fields]
    assert array[3] == 9.5


def test_weights_of_no_game_are_refused() -> None:
    with pytest.raises(TypeError, match="no game's heuristic weights"):
        tuning_array(object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown game"):
        weights("chess")


@pytest.mark.parametrize("game", ["cards", "board"])
def test_each_kernel_names_each_weight_by_its_index(game: str) -> None:
    k = kernel(game)
    for i, name in enumerate(tuning_fields(game)):
        assert getattr(k, "W_" + name.upper()) == i


def test_card_kernel_has_room_for_its_scratch() -> None:
    assert len(tuning_fields("cards")) == cards_kernel.N_WEIGHTS
    room = weights("cards")
    assert room.shape[0] >= cards_kernel.SCRATCH > cards_kernel.N_WEIGHTS + cards_kernel.MAX_LEGAL
    with pytest.raises(TypeError):
        weights("cards", BoardTuning())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_known_cards_follow_the_reference(players: int) -> None:
    """The card state's count of cards known in each hand (taken from a discard pile) is the
    reference's ``known`` after every decision of greedy games."""
    k = cards_kernel
    rules = get_game("cards")
    room = 3000
    legal = np.zeros(room * k.MAX_LEGAL, dtype=np.int32)
    offsets = np.zeros(room + 1, dtype=np.int64)
    choices = np.zeros(room, dtype=np.int32)
    seen = 0
    for g in range(12):
        s, rng = dealt_state("cards", players, 7, g)
        replay = s.copy()
        ref = rules.new_game(players, setup=to_setup("cards", s))
        steps = driver.play(
            driver.tag("cards"), s, 1, rng, True, legal, offsets, choices, weights("cards")
        )
        for step in range(steps):
            a = int(choices[step])
            ref.apply(rules.actions.action(a))
            k.apply(replay, a)
            for p in range(players):
                for card in range(71):
                    assert k.known_count(replay, p, card) == ref.known[p].count(card)
            seen += sum(len(known) for known in ref.known)
    assert seen > 0  # cards were taken from discard piles


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", ["cards", "board"])
def test_kernel_medium_is_the_python_heuristic(game: str, players: int) -> None:
    games = 30 if players != 3 else 12
    result = medium_differential(game, players, games, seed=11)
    assert result["games"] == games
    assert result["scores_compared"] > result["decisions"] > games * 50
    assert result["max_score_difference"] <= 1e-9
    if game == "cards":  # ties are broken by the kernel's own stream: they do occur
        assert result["decisions_with_tied_best"] > 0


@pytest.mark.parametrize("game", ["cards", "board"])
def test_kernel_medium_reads_its_weights(game: str) -> None:
    """Other weights change the games, and the kernel still follows the Python policy under
    them: the weights are data, not constants compiled in."""
    other = (
        CardTuning(open_margin=3.0, spread=0.2)
        if game == "cards"
        else BoardTuning(open_margin=3.0, hand_share=0.5)
    )
    medium_differential(game, 2, 10, seed=3, tuning=other)
    default = simulate(game, 2, 40, "medium", seed=3)
    changed = simulate(game, 2, 40, "medium", seed=3, tuning=other)
    assert default.scores.tolist() != changed.scores.tolist()
    assert simulate(game, 2, 40, "medium", seed=3).scores.tolist() == default.scores.tolist()


def test_a_wrong_choice_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The proof fails when the Python policy would choose otherwise (here: its scores turned
    round, so the kernel's best is its worst)."""
    import keltis.fast.medium_diff as medium_diff

    def upside_down(state: object, tuning: object) -> list[tuple[float, Action]]:
        return [(-score, a) for score, a in cards_scores(state, tuning)]  # type: ignore[arg-type]

    monkeypatch.setattr(medium_diff, "_scorer", lambda game: upside_down)
    with pytest.raises(MismatchError, match="scores differ"):
        medium_differential("cards", 2, 1)


def test_medium_beats_random_in_simulate() -> None:
    result = simulate("cards", 2, 200, "medium", seed=1)
    assert result.policy == "medium"
    assert result.scores.mean() > simulate("cards", 2, 200, "random", seed=1).scores.mean() + 10


def test_batch_env_medium_opponents_play_the_heuristic() -> None:
    """Opponents mixed by seat and by game slot: every move the kernel makes for a medium
    seat is among the Python heuristic's best-scored actions under the medium level's weights
    (and a random seat's are not always)."""
    players = 3
    mixed = [["medium", "random"], ["random", "medium"]] * 4
    env = BatchEnv("cards", players, 8, seed=5, opponents=mixed, record=True)
    assert env.info()["opponents"] == mixed
    assert env.reseeded(6).opponents == env.opponents
    rules = get_game("cards")
    chooser = np.random.default_rng(0)
    _, masks, _ = env.reset()
    refs = []
    for b in range(env.batch):
        setup, _ = env.episode_setup(b, 0)
        ref = rules.new_game(players, setup=setup)
        for a in env.trace[b, : env.trace_n[b]].tolist():
            ref.apply(rules.actions.action(a))
        refs.append(ref)
    checked = missed = 0
    live = [True] * env.batch
    while any(live):
        actions = np.argmax(masks * chooser.random(masks.shape), axis=1)
        seats = env.seats.copy()
        _, masks, _, _, dones = env.step(actions)
        for b in range(env.batch):
            if not live[b]:
                continue
            ref = refs[b]
            medium = (seats[b] + 1 + b % 2) % players
            for a in env.trace[b, : env.trace_end[b]].tolist():
                if ref.current_player != seats[b]:
                    # the medium level's weights for this number of players
                    scored = cards_scores(ref, default_tuning("cards", players))  # type: ignore[arg-type]
                    best = max(score for score, _ in scored)
                    among = a in {
                        rules.actions.index(x) for score, x in scored if score >= best - 1e-9
                    }
                    if ref.current_player == medium:
                        assert among
                        checked += 1
                    else:
                        missed += not among
                ref.apply(rules.actions.action(a))
            live[b] = not dones[b]
    assert checked > 50
    assert missed > 10


def test_unknown_policies_and_short_slot_lists_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown policy"):
        simulate("cards", 2, 1, "hard")
    with pytest.raises(ValueError, match="need 4 lists"):
        BatchEnv("cards", 2, 4, opponents=[["medium"], ["random"]])
