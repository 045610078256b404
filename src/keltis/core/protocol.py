"""The game protocol: what every game (board and card) offers to bots, records and front ends.

A game is played by one loop, whatever the game::

    state = game.new_game(players=3, seed=7)
    while not state.over:
        state.apply(choose(state.view(state.current_player)))

``state.legal_actions()`` lists the decisions open to ``state.current_player``;
``state.view(player)`` is the only door through which anything about a state leaves the engine
for someone (bot, terminal, server, learner): hidden cards appear as counts.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Self

from keltis.core.actions import Action, parse_action
from keltis.core.errors import IllegalActionError

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


@dataclass(frozen=True)
class View:
    """What one player (or a spectator, ``viewer is None``) may know about a state.

    Game-specific subclasses add the board or the rows. Hidden cards appear only as counts.
    ``legal`` is non-empty only when the viewer is the player to decide.
    """

    game: str
    viewer: int | None
    num_players: int
    current_player: int
    phase: str
    turn: int
    legal: tuple[Action, ...]
    hand: tuple[int, ...] | None
    hand_sizes: tuple[int, ...]
    deck_size: int
    removed_count: int
    known_cards: tuple[tuple[int, ...], ...]
    """Per player: cards known to be in that hand (taken from a discard pile, not yet played)."""
    recent: tuple[tuple[int, str], ...]
    """The last moves as (player, action notation), oldest first."""
    over: bool
    outcome: Outcome | None
    variant: Mapping[str, Any]

    def to_json(self) -> JSON:
        """A JSON-ready dict, cards and actions as notation."""
        raise NotImplementedError


class GameState(ABC):
    """A position of a game in progress (full information: never show it to a player).

    Attributes read in hot loops are plain attributes: ``num_players``, ``current_player``
    (-1 once over), ``over``, ``turn`` (completed turns), ``history`` (actions so far) and
    ``actors`` (who took each of them).
    """

    game_name: ClassVar[str]
    phase_names: ClassVar[tuple[str, ...]]

    num_players: int
    current_player: int
    over: bool
    turn: int
    phase: int
    end_reason: EndReason | None
    history: list[Action]
    actors: list[int]

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The decisions open to the current player (empty once the game is over)."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Carry out ``action`` for the current player.

        Raises :class:`IllegalActionError` naming the broken rule; the state is then unchanged.
        """

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abstractmethod
    def outcome(self) -> Outcome:
        """Scores with breakdown, winners and end reason (current standings while running)."""

    @abstractmethod
    def view(self, player: int | None) -> View:
        """What ``player`` may see (``None``: a spectator)."""

    @abstractmethod
    def to_json(self) -> JSON:
        """Everything about the state, hidden cards included, as a JSON-ready dict."""

    @abstractmethod
    def check_action(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is not legal now; else return."""

    @property
    def phase_name(self) -> str:
        """The kind of decision awaited (``play``, ``draw``, …; ``over`` when finished)."""
        return self.phase_names[self.phase]

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be applied now."""
        try:
            self.check_action(action)
        except IllegalActionError:
            return False
        return True

    def apply_text(self, text: str) -> Action:
        """Parse ``text`` as notation and apply it; returns the action."""
        action = parse_action(text)
        self.apply(action)
        return action

    def play_random(self, rng: random.Random) -> None:
        """Finish the game with uniformly random legal actions (a random playout)."""
        uniform = rng.random
        while not self.over:
            actions = self.legal_actions()
            self.apply(actions[int(uniform() * len(actions))])


class Game(ABC):
    """A game's rules as a whole: creates states, describes variants and set-ups."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    @abstractmethod
    def new_game(
        self,
        players: int,
        *,
        seed: int | None = None,
        setup: JSON | None = None,
        variant: JSON | None = None,
    ) -> GameState:
        """A new game for ``players`` seats from a seed or an explicit set-up (JSON form)."""

    @abstractmethod
    def sample_state(self, view: View, rng: random.Random) -> GameState:
        """A full state consistent with ``view``: hidden cards dealt at random from the
        cards the viewer has not seen (for search bots)."""

    def check_players(self, players: int) -> None:
        """Refuse an unsupported number of seats with a clear message."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.title} is for {self.min_players}-{self.max_players} players, not {players}"
            )
