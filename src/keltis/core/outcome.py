"""Results of games: why a game ended, its scores and winners; shared by the game state
(compiled where keltis is compiled) and the views and records (never compiled)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from keltis.core.card_codes import CARD_TEXT

JSON = dict[str, Any]


class EndReason(StrEnum):
    """Why a game ended."""

    GOAL = "goal"
    """Board game: the fifth figure entered the goal area (B-19)."""
    DECK = "deck"
    """The last card of the draw pile was drawn (B-20, C-14)."""
    CLOSED = "closed"
    """Card game: five rows hold a closing card (C-13)."""
    TRUNCATED = "truncated"
    """The turn cap of a simulation was reached: not a normal finish."""


@dataclass(frozen=True)
class Outcome:
    """Final (or, for a truncated game, current) scores.

    ``breakdown[p]`` maps score parts to points (their sum is ``scores[p]``) and may carry
    counts under keys ending in ``_count``, which are not points.
    """

    scores: tuple[int, ...]
    breakdown: tuple[Mapping[str, int], ...]
    winners: tuple[int, ...]
    end_reason: EndReason

    @property
    def truncated(self) -> bool:
        """True if the game was cut off by the turn cap rather than finished."""
        return self.end_reason is EndReason.TRUNCATED

    def to_json(self) -> JSON:
        """A JSON-ready dict: ``scores``, ``breakdown``, ``winners``, ``end_reason``."""
        return {
            "scores": list(self.scores),
            "breakdown": [dict(b) for b in self.breakdown],
            "winners": list(self.winners),
            "end_reason": self.end_reason.value,
        }


def winners_of(scores: Sequence[int]) -> tuple[int, ...]:
    """Seats with the highest total; ties share the victory (B-24, C-19)."""
    best = max(scores)
    return tuple(p for p, s in enumerate(scores) if s == best)


def cards_json(cards: Iterable[int]) -> list[str]:
    """Cards as notation strings."""
    return [CARD_TEXT[c] for c in cards]
