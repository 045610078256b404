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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Any, ClassVar, Final, Self

from keltis.core.actions import BIG, DECK, POINT_PILE, Action, ActionKind, ActionSpace
from keltis.core.card_codes import CARD_COLOUR, CARD_TEXT, COLOUR_LETTERS, NUM_COLOURS
from keltis.core.errors import SetupError
from keltis.core.gamestate import GameState, Variant
from keltis.core.labels import Label
from keltis.core.outcome import JSON, EndReason, Outcome, cards_json, winners_of
from keltis.core.policy import GamePolicies
from keltis.core.scoring import direction_name, total_points
from keltis.core.version import __version__

__all__ = [
    "JSON",
    "WIRE_VERSION",
    "EndReason",
    "Game",
    "GameInfo",
    "GameState",
    "Outcome",
    "Variant",
    "View",
    "action_json",
    "cards_json",
    "winners_of",
]

#: Version of the JSON forms of views, actions, events and game information (the schemas in
#: ``keltis/schemas``). Raised when a field changes meaning or disappears; new fields may be
#: added within a version.
WIRE_VERSION: Final = 3


@dataclass(frozen=True)
class View:
    """What one player (or a spectator, ``viewer is None``) may know about a state.

    Game-specific subclasses add the board or the rows. Hidden cards appear only as counts.
    ``legal`` is non-empty only when the viewer is the player to decide.
    """

    actions: ClassVar[ActionSpace]
    """The game's action space (each game's view class names its game's)."""

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

    def to_json(self) -> JSON:
        """The wire form (``keltis.wire``, schema ``view``): cards as notation, legal actions
        as objects with a preview of what each would do."""
        raise NotImplementedError

    def score_breakdown(self, player: int) -> dict[str, int]:
        """``player``'s score as it stands, part by part (``keltis.core.scoring``: each game's
        view overrides this)."""
        raise NotImplementedError

    @property
    def scores(self) -> tuple[int, ...]:
        """Totals as if the game ended now (every part of a score is public; computed when
        asked for)."""
        return tuple(total_points(self.score_breakdown(p)) for p in range(self.num_players))

    @staticmethod
    def rows_json(rows: Sequence[Sequence[int]], directions: Sequence[int]) -> JSON:
        """One seat's colour rows (cards as notation) and their directions, keyed by colour
        letter: the first entries of a seat in both games' ``to_json``."""
        return {
            "rows": {COLOUR_LETTERS[c]: cards_json(rows[c]) for c in range(NUM_COLOURS)},
            "directions": {
                COLOUR_LETTERS[c]: direction_name(directions[c]) for c in range(NUM_COLOURS)
            },
        }

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> Self:
        """A view from all its fields by name, without the frozen dataclass's field-by-field
        ``__init__`` (a view is built for every decision; the state gives every field)."""
        view = object.__new__(cls)
        view.__dict__.update(fields)
        return view

    def previews(self) -> list[JSON]:
        """For each of ``legal``, what it would do, as language-neutral data: the answer of
        ``previews(view)`` in the ``preview`` module of the game's package, the package of
        the view's class (``keltis.board.preview``, ``keltis.cards.preview``)."""
        # Found by name when called, as Game.part finds a game's parts: a preview applies each
        # action to a state sampled from this view, and the rules engine that does so builds
        # views, so no view's module may import it.
        package = type(self).__module__.rpartition(".")[0]
        previews: Callable[[View], list[JSON]] = import_module(f"{package}.preview").previews
        return previews(self)

    def action_label(self, action: Action, preview: JSON) -> Label | None:
        """A legal action in words, from its preview (each game overrides this; see
        ``keltis.board.labels`` and ``keltis.cards.labels``)."""
        return None

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
                action_json(a, self.actions.index(a), preview, self.action_label(a, preview))
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


def action_json(
    action: Action, index: int, preview: JSON | None = None, label: Label | None = None
) -> JSON:
    """An action's wire form: ``notation`` (``docs/notation.md``), ``index`` (its id in the
    game's action space, ``Game.actions``: given, as only the game knows it), ``kind``
    (``lay``, ``discard``, ``claim``, ``figure``, ``advance``, ``pass``, ``draw``), its parts
    (``cards`` played from the hand, the ``pile`` of a discard or a draw, the row a point card
    goes ``onto``, the ``path`` of an advance, ``big`` for the figure choice) and, for a legal
    action of a view, ``preview`` and ``label``."""
    kind = action.kind
    cards: list[str] = []
    pile: str | None = None
    if kind is ActionKind.LAY or kind is ActionKind.DISCARD:
        cards = [CARD_TEXT[action.card]]
    elif kind is ActionKind.CLAIM:
        cards = [CARD_TEXT[action.card], CARD_TEXT[action.card2]]
    if kind is ActionKind.DISCARD:
        colour = CARD_COLOUR[action.card]
        pile = "*" if colour < 0 else COLOUR_LETTERS[colour]
    elif kind is ActionKind.DRAW:
        target = action.target
        pile = "deck" if target == DECK else "*" if target == POINT_PILE else COLOUR_LETTERS[target]
    onto = kind is ActionKind.LAY and action.target >= 0
    out: JSON = {
        "notation": str(action),
        "index": index,
        "kind": kind.name.lower(),
        "cards": cards,
        "pile": pile,
        "onto": COLOUR_LETTERS[action.target] if onto else None,
        "path": COLOUR_LETTERS[action.target] if kind is ActionKind.ADVANCE else None,
        "big": action.target == BIG if kind is ActionKind.FIGURE else None,
    }
    if preview is not None:
        out["preview"] = preview
    if label is not None:
        out["label"] = label.to_json()
    return out


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
    """Size of the game's action space (``Game.actions.size``): the ids run 0 … size - 1."""
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


#: The parts every game's package has beside its rules (see :meth:`Game.part`).
PARTS: Final = ("policy", "lesson", "encoding", "kernel", "jax", "screen")


class Game(ABC):
    """A game's rules as a whole: creates states, describes variants and set-ups, and hands
    out the game's other parts (:meth:`part`). It is defined in the game's package
    (``keltis.board``), whose modules hold everything about the game."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[tuple[str, ...]] = ()
    """The game's parameters beyond its rule switches (keyword options of :meth:`new_game`
    and :meth:`deal`)."""
    actions: ClassVar[ActionSpace]
    """The actions the game can ever accept, numbered densely (its integer action ids:
    ``keltis.board.actions``, ``keltis.cards.actions``)."""
    review_calibration: ClassVar[Mapping[int, tuple[float, float]]] = {}
    """The review's calibration map by number of players, ``(a, b)`` of
    ``logit(shown) = a × logit(raw) + b`` (``keltis.review.calibrated``; docs/bots.md says how
    it was fitted and measured). Empty: the raw shares are shown as they are."""

    @abstractmethod
    def deal(self, players: int, seed: int, **options: Any) -> JSON:
        """The set-up a seed deals, as an explicit set-up (JSON form): what a record keeps so
        that it replays the same game whatever Python's ``random`` does with the seed later."""

    @abstractmethod
    def variant_json(self, variant: JSON | None) -> JSON:
        """A variant's JSON with every switch spelt out (defaults filled in, checked)."""

    def load_option(self, name: str, path: str) -> JSON:
        """The JSON form of option ``name`` read from the file at ``path`` (the board game's
        ``layout``); :class:`~keltis.core.errors.SetupError` for an option the game lacks or
        a bad file."""
        raise SetupError(f"{self.title} has no option {name!r}")

    def switches(self) -> tuple[str, ...]:
        """The names of the game's rule switches (the keys of :meth:`variant_json`)."""
        return tuple(self.variant_json(None))

    def record_variant(self, variant: JSON, version: int) -> JSON:
        """``variant`` as a record of format ``version`` meant it, in today's terms (a game
        whose defaults changed states the old default for older records)."""
        return variant

    @abstractmethod
    def tables(self) -> JSON:
        """The numbers the game scores by, named (``GET /api/games`` sends them): a client
        shows them on its rules pages and its board and holds no rule numbers of its own."""

    @abstractmethod
    def max_game_length(self, players: int, turn_cap: int) -> int:
        """An upper bound on the actions of any game of ``players`` under ``turn_cap``."""

    @abstractmethod
    def events(self, before: View, action: Action, after: View) -> list[tuple[str, JSON]]:
        """What ``action`` did, as events (``keltis.core.events``), from two views of one
        receiver (a seat or a spectator) before and after it: never more than it may see."""

    def info(self, players: int, variant: JSON | None = None) -> GameInfo:
        """The game's metadata for ``players`` seats under ``variant`` (default rules)."""
        self.check_players(players)
        cap = int(self.variant_json(variant)["turn_cap"])
        return GameInfo(
            short_name=f"keltis_{self.name}",
            long_name=self.title,
            version=__version__,
            num_players=players,
            min_num_players=self.min_players,
            max_num_players=self.max_players,
            num_distinct_actions=self.actions.size,
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
        **options: Any,
    ) -> GameState:
        """A new game for ``players`` seats from a seed or an explicit set-up (JSON form);
        with neither, from a fresh random seed. ``options`` are the game's parameters beyond
        its rule switches (:attr:`options`: the board game's ``layout``); a game refuses one
        it does not have with :class:`~keltis.core.errors.SetupError`."""

    @abstractmethod
    def sample_state(self, view: View, rng: random.Random) -> GameState:
        """A full state consistent with ``view``: hidden cards dealt at random from the
        cards the viewer has not seen (for search bots)."""

    def part(self, name: str) -> ModuleType:
        """One of the game's parts beyond its rules: a module of the game's package, imported
        on first use (the heavy ones need packages the rules do not). Every game has them all:

        * ``policy``: its heuristic policies (``POLICIES``, a :class:`GamePolicies`; standard
          library only, as :meth:`heuristics` hands them out);
        * ``lesson``: its guided first game (``keltis.core.lesson``; data);
        * ``encoding``: its observation encoding for learning (numpy; ``keltis.env.encode``);
        * ``kernel``: its batch kernel (numba; ``keltis.fast``);
        * ``jax``: its pgx environment in JAX (jax, pgx; ``keltis.jax``);
        * ``screen``: its terminal screen (rich; ``keltis.tui``).
        """
        if name not in PARTS:
            raise ValueError(f"no part {name!r}: a game has {', '.join(PARTS)}")
        return import_module(f"{type(self).__module__}.{name}")

    def heuristics(self) -> GamePolicies:
        """The game's heuristic policy, action scorer and projection (for bots and playouts)."""
        policies = self.part("policy").POLICIES
        assert isinstance(policies, GamePolicies)
        return policies

    def check_players(self, players: int) -> None:
        """Refuse an unsupported number of seats with a clear message."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.title} is for {self.min_players}-{self.max_players} players, not {players}"
            )
