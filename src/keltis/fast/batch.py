"""``simulate``: whole games in one compiled loop, results as numpy arrays."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from keltis.core.outcome import EndReason
from keltis.core.protocol import JSON
from keltis.fast import driver
from keltis.fast.setup import seed_bits, switches
from keltis.fast.tuning import Tuning, weights
from keltis.games import get_game

#: The policies: ``random`` chooses uniformly among the legal decisions (each distinct
#: decision once, as the reference engine lists them); ``greedy`` rates each decision as the
#: project's greedy bot does (``keltis.bots.greedy``) and chooses uniformly among the best;
#: ``medium`` is the heuristic bot (the medium level, ``keltis.bots.heuristic``): the game
#: policy's best-scored decision (``keltis.cards.policy.cards_scores``), ties uniform.
POLICIES: Final = ("random", "greedy", "medium")


def check_policy(policy: str) -> int:
    """``policy``'s code in the kernels (its index in :data:`POLICIES`); ``ValueError`` for an
    unknown one."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}: choose one of {', '.join(POLICIES)}")
    return POLICIES.index(policy)


#: ``SimResult.end_reasons`` codes index this tuple: the reference's ``EndReason`` values in
#: their order, which the kernels' ``END_*`` codes follow.
END_REASONS: Final = tuple(reason.value for reason in EndReason)


@dataclass(frozen=True)
class SimResult:
    """The games of one :func:`simulate` call, one row per game.

    ``scores[g, p]`` is seat ``p``'s final total; ``winners[g, p]`` is true for every seat
    with the highest total (ties share the victory, B-24/C-19); ``end_reasons[g]`` indexes
    :data:`END_REASONS`; ``decisions[g]`` counts the decisions taken (every legal-action
    choice, forced ones included, as ``len(state.history)`` of the reference engine);
    ``turns[g]`` the completed turns (``state.turn``).
    """

    game: str
    players: int
    policy: str
    seed: int
    variant: JSON = field(repr=False)
    scores: npt.NDArray[np.int32] = field(repr=False)
    winners: npt.NDArray[np.bool_] = field(repr=False)
    end_reasons: npt.NDArray[np.int8] = field(repr=False)
    decisions: npt.NDArray[np.int32] = field(repr=False)
    turns: npt.NDArray[np.int32] = field(repr=False)

    @property
    def n_games(self) -> int:
        """How many games were played."""
        return int(self.scores.shape[0])

    def end_reason_counts(self) -> dict[str, int]:
        """Games by end reason (only reasons that occurred)."""
        counts = np.bincount(self.end_reasons, minlength=len(END_REASONS))
        return {name: int(n) for name, n in zip(END_REASONS, counts, strict=True) if n}

    def summary(self) -> dict[str, Any]:
        """JSON-ready means: scores and win shares by seat, decisions and turns per game."""
        return {
            "game": self.game,
            "players": self.players,
            "policy": self.policy,
            "seed": self.seed,
            "variant": dict(self.variant),
            "games": self.n_games,
            "mean_scores": [round(float(x), 3) for x in self.scores.mean(axis=0)],
            "win_shares": [round(float(x), 4) for x in self.winners.mean(axis=0)],
            "mean_decisions_per_game": round(float(self.decisions.mean()), 2),
            "mean_turns_per_game": round(float(self.turns.mean()), 2),
            "end_reasons": self.end_reason_counts(),
        }


def simulate(
    game: str,
    players: int,
    n_games: int,
    policy: str = "random",
    seed: int = 0,
    *,
    variant: JSON | None = None,
    tuning: Tuning | None = None,
) -> SimResult:
    """Deal and play ``n_games`` games of ``game`` (``board`` or ``cards``) for ``players``
    seats (2-4), every seat playing ``policy`` (:data:`POLICIES`).

    Game ``i`` is dealt and played from its own random stream, derived from ``seed`` and
    ``i``: the same seed gives the same games whatever ``n_games`` is (but not the games the
    reference engine deals for that seed: the fast engine has its own generator;
    ``keltis.fast.deal_setup`` gives a fast game's deal as the reference's explicit set-up).
    Boards use the default layout (RULES.md B-4). ``variant`` is the reference's variant JSON
    (``turn_cap``; ``no_take_back`` for the board game), default rules when ``None``.
    ``tuning``: the ``medium`` policy's weights (the game's ``CardTuning`` or ``BoardTuning``;
    the medium level's when ``None``).
    The first call compiles the kernels (seconds; cached on disk afterwards).
    """
    get_game(game).check_players(players)
    code = check_policy(policy)
    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 1:
        raise ValueError(f"n_games must be a whole number of at least 1, not {n_games!r}")
    rules = switches(game, variant)
    bits = seed_bits(seed)
    scores = np.zeros((n_games, players), dtype=np.int32)
    ends = np.zeros(n_games, dtype=np.int8)
    decisions = np.zeros(n_games, dtype=np.int32)
    turns = np.zeros(n_games, dtype=np.int32)
    driver.play_batch(
        driver.tag(game), players, n_games, code, bits, rules, scores, ends, decisions, turns,
        weights(game, tuning, players),
    )  # fmt: skip
    winners = scores == scores.max(axis=1, keepdims=True)
    return SimResult(
        game=game,
        players=players,
        policy=policy,
        seed=seed,
        variant=get_game(game).variant_json(variant),
        scores=scores,
        winners=winners,
        end_reasons=ends,
        decisions=decisions,
        turns=turns,
    )
