"""The game state's protocol and common code: what every game's state offers to bots, records
and front ends (see :mod:`keltis.core.protocol` for the whole protocol). Compiled with the
rules engines where keltis is compiled; it imports no view at run time."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self

from keltis.core.actions import Action, parse_action
from keltis.core.errors import IllegalActionError
from keltis.core.outcome import JSON, EndReason, Outcome, cards_json, winners_of
from keltis.core.scoring import total_points

if TYPE_CHECKING:
    from keltis.core.protocol import View


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

    >>> import random
    >>> from keltis import get_game
    >>> state = get_game("board").new_game(4, seed=11)
    >>> state.play_random(random.Random(0))  # random legal moves to the end
    >>> state.over, state.current_player, state.outcome().end_reason.value  # the deck ran out
    (True, -1, 'deck')
    >>> state.scores() == list(state.outcome().scores)
    True
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
    def refusal(self, action: Action) -> IllegalActionError | None:
        """The error that applying ``action`` now would raise, naming the broken rule, or
        ``None`` if it is legal: each game's rule checks, one per kind of move
        (docs/architecture.md, "Each rule checked in one place")."""

    def check_action(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` (naming the rule) unless ``action`` is legal."""
        refusal = self.refusal(action)
        if refusal is not None:
            raise refusal

    def apply(self, action: Action) -> None:
        """Carry out ``action`` for the current player: :meth:`refusal`, then
        :meth:`apply_legal`. An illegal one raises :class:`IllegalActionError` naming the
        broken rule; the state is then unchanged."""
        refusal = self.refusal(action)
        if refusal is not None:
            raise refusal
        self.apply_legal(action)

    @abstractmethod
    def apply_legal(self, action: Action) -> None:
        """Carry out ``action``, one of :meth:`legal_actions`' answers for this position,
        without checking it again (the trusted path of playouts and searches; anything else
        goes through :meth:`apply`)."""

    def _take_from_hand(self, p: int, card: int) -> None:
        """Remove ``card`` from ``p``'s hand (and from the cards known to be there)."""
        self.hands[p].remove(card)
        known = self.known[p]
        if known and card in known:
            known.remove(card)

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

    @property
    def phase_name(self) -> str:
        """The kind of decision awaited (``play``, ``draw``, …; ``over`` when finished)."""
        return self.phase_names[self.phase]

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be applied now."""
        return self.refusal(action) is None

    def apply_text(self, text: str) -> Action:
        """Parse ``text`` as notation and apply it; returns the action."""
        action = parse_action(text)
        self.apply(action)
        return action

    def play_random(self, rng: random.Random) -> None:
        """Finish the game with uniformly random legal actions (a random playout, on the
        trusted path: the actions come from :meth:`legal_actions`)."""
        uniform = rng.random
        while not self.over:
            actions = self.legal_actions()
            self.apply_legal(actions[int(uniform() * len(actions))])
