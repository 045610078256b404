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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Final, Protocol, Self, TypeVar

from keltis.core.actions import Action, parse_action
from keltis.core.cards import CARD_TEXT
from keltis.core.errors import IllegalActionError
from keltis.core.scoring import total_points

JSON = dict[str, Any]
_T = TypeVar("_T")


def python_class(cls: type[_T]) -> type[_T]:
    """Keep ``cls`` a regular Python class where mypyc compiles this module (it compiles a class
    with a decorator it does not know as a regular class): the games' views and rules, which
    are not compiled, subclass these, and a view gets its fields through ``__dict__``."""
    return cls


#: Version of the JSON forms of views, actions, events and game information (the schemas in
#: ``keltis/schemas``). Raised when a field changes meaning or disappears; new fields may be
#: added within a version.
WIRE_VERSION: Final = 1


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


@python_class
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
    ply: int
    """Actions applied so far: a client sends it back as ``expected_ply`` so that an action
    chosen on an old view is refused instead of applied to a newer position."""
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

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> Self:
        """A view from all its fields by name, without the frozen dataclass's field-by-field
        ``__init__`` (a view is built for every decision): the state's ``view`` gives every
        field."""
        view = object.__new__(cls)
        view.__dict__.update(fields)
        return view

    def to_json(self) -> JSON:
        """The wire form (``keltis.wire``, schema ``view``): cards as notation, legal actions
        as objects with a preview of what each would do."""
        raise NotImplementedError

    def previews(self) -> list[JSON]:
        """For each of ``legal``, what it would do, as language-neutral data (each game
        overrides this; see ``keltis.board.preview`` and ``keltis.cards.preview``)."""
        return [{} for _ in self.legal]

    def base_json(self) -> JSON:
        """The JSON form of the fields every game's view has (``to_json`` extends it)."""
        return {
            "wire_version": WIRE_VERSION,
            "game": self.game,
            "viewer": self.viewer,
            "num_players": self.num_players,
            "current_player": self.current_player,
            "phase": self.phase,
            "turn": self.turn,
            "ply": self.ply,
            "legal": [
                action_json(a, preview)
                for a, preview in zip(self.legal, self.previews(), strict=True)
            ],
            "hand": cards_json(self.hand) if self.hand is not None else None,
            "hand_sizes": list(self.hand_sizes),
            "deck_size": self.deck_size,
            "removed_count": self.removed_count,
            "known_cards": [cards_json(k) for k in self.known_cards],
            "recent": [[p, a] for p, a in self.recent],
            "over": self.over,
            "outcome": self.outcome.to_json() if self.outcome else None,
            "variant": dict(self.variant),
        }


def action_json(action: Action, preview: JSON | None = None) -> JSON:
    """An action's wire form: ``notation`` (``docs/notation.md``), ``index`` (the dense id,
    the same in both games), ``kind`` (``lay``, ``discard``, ``claim``, ``figure``,
    ``advance``, ``pass``, ``draw``) and, for a legal action of a view, ``preview``."""
    out: JSON = {"notation": str(action), "index": action.index, "kind": action.kind.name.lower()}
    if preview is not None:
        out["preview"] = preview
    return out


def cards_json(cards: Iterable[int]) -> list[str]:
    """Cards as notation strings."""
    return [CARD_TEXT[c] for c in cards]


class Variant(Protocol):
    """A game's rule switches: every variant has a turn cap and a JSON form."""

    @property
    def turn_cap(self) -> int:
        """Turns after which the game ends as truncated."""

    def to_json(self) -> JSON:
        """The record form."""


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
    variant: Variant
    hands: list[list[int]]
    deck: list[int]
    """The draw pile; its top is the *end* of the list."""
    removed: list[int]
    known: list[list[int]]
    """Per seat: cards everyone saw that seat take from a discard pile, still in its hand."""
    first_player: int
    _recent: tuple[int, Action | None, tuple[tuple[int, str], ...]]
    """Views' cache of the last moves' notation: (ply, last action, the moves)."""
    _variant_json: JSON | None
    """Views' cache of ``variant.to_json()`` (the variant never changes)."""

    def _init_caches(self) -> None:
        """Empty the views' caches (for a new state; ``clone`` shares them)."""
        self._recent = (0, None, ())
        self._variant_json = None

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
    def breakdown(self, p: int) -> dict[str, int]:
        """The score parts of seat ``p`` as if the game ended now (and counts, ``*_count``)."""

    def scores(self) -> list[int]:
        """Totals by seat, as if the game ended now."""
        return [total_points(self.breakdown(p)) for p in range(self.num_players)]

    def outcome(self) -> Outcome:
        """Scores with breakdown, winners and end reason (current standings while running)."""
        parts = tuple(self.breakdown(p) for p in range(self.num_players))
        scores = tuple(total_points(b) for b in parts)
        reason = self.end_reason if self.end_reason is not None else self._standing_reason()
        return Outcome(scores, parts, winners_of(scores), reason)

    def _standing_reason(self) -> EndReason:
        """The end reason reported for a game that is not over yet."""
        return EndReason.TRUNCATED

    def _copy_common(self, new: GameState) -> None:
        """Copy the attributes every game has into ``new`` (for ``clone``)."""
        new.num_players = self.num_players
        new.current_player = self.current_player
        new.over = self.over
        new.turn = self.turn
        new.phase = self.phase
        new.end_reason = self.end_reason
        new.history = self.history[:]
        new.actors = self.actors[:]
        new.variant = self.variant
        new.hands = [h[:] for h in self.hands]
        new.deck = self.deck[:]
        new.removed = self.removed[:]
        new.known = [k[:] for k in self.known]
        new.first_player = self.first_player
        new._recent = self._recent
        new._variant_json = self._variant_json

    @abstractmethod
    def view(self, player: int | None) -> View:
        """What ``player`` may see (``None``: a spectator)."""

    def view_fields(self, player: int | None, recent_moves: int = 12) -> dict[str, Any]:
        """The fields every game's :class:`View` has, for ``player`` (``None``: spectator).

        Views of a seat carry its hand and, if it is to decide, the legal actions.
        """
        n = self.num_players
        if player is not None and not 0 <= player < n:
            raise ValueError(f"no seat {player} in a {n}-player game")
        history = self.history
        ply = len(history)
        last = history[-1] if history else None
        cached_ply, cached_last, recent = self._recent
        if cached_ply != ply or cached_last is not last:
            if cached_ply == ply - 1 and ply > 1 and history[-2] is cached_last:
                recent = (*recent, (self.actors[-1], str(last)))[-recent_moves:]
            else:
                start = max(0, ply - recent_moves)
                recent = tuple((self.actors[i], str(history[i])) for i in range(start, ply))
            self._recent = (ply, last, recent)
        variant = self._variant_json
        if variant is None:
            variant = self._variant_json = self.variant.to_json()
        return {
            "game": self.game_name,
            "viewer": player,
            "num_players": n,
            "current_player": self.current_player,
            "phase": self.phase_name,
            "turn": self.turn,
            "ply": ply,
            "legal": (
                tuple(self.legal_actions())
                if player is not None and player == self.current_player
                else ()
            ),
            "hand": tuple(self.hands[player]) if player is not None else None,
            "hand_sizes": tuple(map(len, self.hands)),
            "deck_size": len(self.deck),
            "removed_count": len(self.removed),
            "known_cards": tuple(tuple(sorted(k)) if k else () for k in self.known),
            "recent": recent,
            "over": self.over,
            "outcome": self.outcome() if self.over else None,
            "variant": variant,
        }

    def to_json(self) -> JSON:
        """Everything about the state, hidden cards included (for finished games, debugging
        and tests): the spectator's view plus ``hands``, ``deck`` (top first), ``removed``."""
        out = self.view(None).to_json()
        out["hands"] = [cards_json(h) for h in self.hands]
        out["deck"] = cards_json(reversed(self.deck))
        out["removed"] = cards_json(self.removed)
        return out

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


@dataclass(frozen=True)
class GameInfo:
    """What a learner or a server needs to know about a game before playing it, after
    OpenSpiel's ``GameType`` and ``GameInfo``.

    Chance is *sampled*: the shuffle happens once, in the set-up (a seed, or the dealt cards a
    record keeps), so a game is a sequence of player decisions with no chance node after the
    deal. Information is imperfect (hands and the draw pile are hidden). ``max_game_length``
    bounds the number of actions (plies) of any game under the given turn cap.
    """

    short_name: str
    long_name: str
    version: str
    """The rules engine's version (the package version)."""
    num_players: int
    min_num_players: int
    max_num_players: int
    num_distinct_actions: int
    """Size of the dense action index (``Action.index``), the same for both games."""
    max_game_length: int
    turn_cap: int
    dynamics: str = "sequential"
    chance_mode: str = "sampled_stochastic"
    information: str = "imperfect_information"
    utility: str = "general_sum"
    """Final scores are points, not zero-sum; winners are the highest totals (shared ties)."""
    reward_model: str = "terminal"
    wire_version: int = WIRE_VERSION

    def to_json(self) -> JSON:
        """The wire form (schema ``game_info``)."""
        return {
            "short_name": self.short_name,
            "long_name": self.long_name,
            "version": self.version,
            "num_players": self.num_players,
            "min_num_players": self.min_num_players,
            "max_num_players": self.max_num_players,
            "num_distinct_actions": self.num_distinct_actions,
            "max_game_length": self.max_game_length,
            "turn_cap": self.turn_cap,
            "dynamics": self.dynamics,
            "chance_mode": self.chance_mode,
            "information": self.information,
            "utility": self.utility,
            "reward_model": self.reward_model,
            "wire_version": self.wire_version,
        }


@python_class
class Game(ABC):
    """A game's rules as a whole: creates states, describes variants and set-ups."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    @abstractmethod
    def deal(self, players: int, seed: int, **options: Any) -> JSON:
        """The set-up a seed deals, as an explicit set-up (JSON form): what a record keeps so
        that it replays the same game whatever Python's ``random`` does with the seed later."""

    @abstractmethod
    def variant_json(self, variant: JSON | None) -> JSON:
        """A variant's JSON with every switch spelt out (defaults filled in, checked)."""

    @abstractmethod
    def max_game_length(self, players: int, turn_cap: int) -> int:
        """An upper bound on the actions of any game of ``players`` under ``turn_cap``."""

    @abstractmethod
    def events(self, before: View, action: Action, after: View) -> list[tuple[str, JSON]]:
        """What ``action`` did, as events (``keltis.core.events``), from two views of one
        receiver (a seat or a spectator) before and after it: never more than it may see."""

    def info(self, players: int, variant: JSON | None = None) -> GameInfo:
        """The game's metadata for ``players`` seats under ``variant`` (default rules)."""
        from keltis import __version__
        from keltis.core.actions import NUM_ACTIONS

        self.check_players(players)
        cap = int(self.variant_json(variant)["turn_cap"])
        return GameInfo(
            short_name=f"keltis_{self.name}",
            long_name=self.title,
            version=__version__,
            num_players=players,
            min_num_players=self.min_players,
            max_num_players=self.max_players,
            num_distinct_actions=NUM_ACTIONS,
            max_game_length=self.max_game_length(players, cap),
            turn_cap=cap,
        )

    @abstractmethod
    def new_game(
        self,
        players: int,
        *,
        seed: int | None = None,
        setup: JSON | None = None,
        variant: JSON | None = None,
    ) -> GameState:
        """A new game for ``players`` seats from a seed or an explicit set-up (JSON form);
        with neither, from a fresh random seed."""

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
