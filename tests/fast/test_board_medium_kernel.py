"""The board game's medium policy in its kernel (keltis.board.kernel.medium_scores) against
the Python heuristic (keltis.board.policy.board_scores), decision by decision.

Seeded games are played by the reference engine with the Python policy choosing; a kernel
state follows them in lockstep (the same decisions applied), and at every decision the
kernel's score of each legal decision must equal the Python score to the last bit, and the
kernel's medium choice must be one of the Python policy's best.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

pytest.importorskip("numba", reason="keltis.fast needs numba: pip install 'keltis[fast]'")

import numpy as np

from keltis.board import kernel as k
from keltis.board.policy import BoardTuning, board_policy, board_scores
from keltis.core.protocol import JSON
from keltis.fast.setup import game_rng, load_setup
from keltis.games import get_game

DEFAULT = BoardTuning()


def weights(tuning: BoardTuning) -> np.ndarray:
    """The kernel's weights array of ``tuning`` (``TUNING_FIELDS`` order)."""
    return np.array([getattr(tuning, name) for name in k.TUNING_FIELDS], dtype=np.float64)


def known_in_kernel(s: np.ndarray, p: int) -> list[int]:
    hand = k.HAND + p * k.HAND_SIZE
    known = k.KNOWN + p * k.HAND_SIZE
    return sorted(int(s[hand + i]) for i in range(s[k.HAND_N + p]) if s[known + i])


def lockstep(
    players: int,
    seed: int,
    tuning: BoardTuning = DEFAULT,
    variant: JSON | None = None,
    w: np.ndarray | None = None,
    compare_to: np.ndarray | None = None,
) -> Counter[str]:
    """Play seed ``seed``'s reference deal with the Python policy under ``tuning``, the kernel
    scoring every decision with weights ``w`` (default: ``tuning``'s); assert both agree.
    Returns what was compared (decisions, scores, and the rare cases reached; with
    ``compare_to``, other weights, the decisions where those score differently)."""
    rules = get_game("board")
    setup = rules.deal(players, seed)
    ref: Any = rules.new_game(players, setup=setup, variant=variant)
    s = load_setup("board", players, setup, variant)
    w = weights(tuning) if w is None else w
    out = np.zeros(k.MAX_LEGAL, dtype=np.int32)
    scores = np.zeros(k.MAX_LEGAL)
    rng = random.Random(seed)
    kernel_rng = game_rng(seed, 0)
    seen: Counter[str] = Counter()
    while not ref.over:
        n = int(k.legal(s, out))
        legal = [int(a) for a in out[:n]]
        assert sorted(legal) == sorted(rules.actions.index(a) for a in ref.legal_actions())
        for p in range(players):
            assert known_in_kernel(s, p) == sorted(ref.known[p])
        k.medium_scores(s, out, n, w, scores)
        expected = {rules.actions.index(a): score for score, a in board_scores(ref, tuning)}
        got = {a: float(scores[i]) for i, a in enumerate(legal)}
        where = f"seed {seed}, {players} players, decision {len(ref.history)}, {ref.phase_name}"
        assert got == expected, where
        best = max(expected.values())
        top = {a for a, score in expected.items() if score >= best - 1e-9}
        assert int(k.choose(s, out, n, 2, kernel_rng, w)) in top, where
        if len(top) > 1 and seen["ties drawn"] < 3:  # uniform among the best: each is drawn
            picks = {int(k.choose(s, out, n, 2, game_rng(seed, j), w)) for j in range(1, 65)}
            assert picks == top, where
            seen["ties drawn"] += 1
        if compare_to is not None:
            other = np.zeros(k.MAX_LEGAL)
            k.medium_scores(s, out, n, compare_to, other)
            seen["changed by the weight"] += bool((other[:n] != scores[:n]).any())
        seen["decisions"] += 1
        seen["scores"] += n
        seen[ref.phase_name] += 1
        seen["ties"] += len(top) > 1
        seen["game end weighed"] += any(abs(v) >= 500.0 for v in expected.values())
        seen["take-back weighed"] += any(v == -100.0 for v in expected.values())
        seen["known card in hand"] += bool(ref.known[ref.current_player])
        action = board_policy(ref, rng, tuning)
        k.apply(s, rules.actions.index(action))
        ref.apply(action)
    seen["games"] += 1
    return seen


def test_weights_are_the_tuning_class_fields_in_order() -> None:
    """``TUNING_FIELDS`` is ``BoardTuning``'s weights in declaration order (what a weights
    array built from a tuning holds), and the ``W_*`` indices name them."""
    declared = tuple(
        name
        for name in vars(BoardTuning)
        if not name.startswith("_") and isinstance(getattr(DEFAULT, name), float)
    )
    assert declared == k.TUNING_FIELDS
    for i, name in enumerate(k.TUNING_FIELDS):
        assert getattr(k, f"W_{name.upper()}") == i


@pytest.mark.parametrize("players", [2, 3, 4])
def test_medium_scores_equal_the_python_heuristic(players: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(12):
        seen += lockstep(players, 7_000 + seed)
    assert seen["games"] == 12
    assert seen["decisions"] > 12 * 100
    # every kind of decision, ties, and the moves that end the game were compared
    for what in ("play", "draw", "figure", "clover", "ties drawn", "game end weighed"):
        assert seen[what] > 0, what
    assert seen["known card in hand"] > 0


def test_take_back_variant_scores_equal() -> None:
    """B-15's variant: drawing back one's own discard is legal and scored -100."""
    seen: Counter[str] = Counter()
    for players in (2, 3, 4):
        for seed in range(4):
            seen += lockstep(players, 8_000 + seed, variant={"no_take_back": False})
    assert seen["take-back weighed"] > 0


@pytest.mark.parametrize("name", k.TUNING_FIELDS)
def test_one_weight_changed_scores_as_python_with_that_tuning(name: str) -> None:
    """The weights are data: one changed in the array changes the kernel's scores as the
    Python policy's change under a tuning with that weight, and they do change."""
    tuning = BoardTuning(**{name: getattr(DEFAULT, name) * 1.5 + 0.25})
    changed = weights(tuning)
    assert (changed != weights(DEFAULT)).sum() == 1
    seen: Counter[str] = Counter()
    for seed in range(2):
        seen += lockstep(3, 9_000 + seed, tuning, w=changed, compare_to=weights(DEFAULT))
    assert seen["changed by the weight"] > 0
