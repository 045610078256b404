"""The match layer: one game loop under every front end (terminal, arena, replay, server).

A :class:`Match` is a record plus seats: people, who :meth:`~Match.submit` actions, and bots,
which move when asked (:meth:`~Match.play_bot`). It offers each seat its view, checks every
action against the rules, the turn and the position it was chosen in (``expected_ply``),
appends it to the record, reports what happened as events (a :class:`Step`) and calls a hook
after each accepted action — where a server commits to its database before telling anyone; if
the hook fails the action is undone, so the match never runs ahead of what was stored.

Resuming a match is replaying its record: ``Match(record)`` replays the record's actions.
Each bot decision is seeded from the seat's bot seed and the ply (``derive_seed``), and the
bot seeds are kept in the record, so a resumed match goes on exactly as the unbroken one
would, in any front end.

Hidden information has one door here too: :meth:`Match.view` is the engine's view, and a
step's events come from the receiver's own views (:meth:`Step.events_for`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence

from keltis.bots.base import Bot, derive_seed
from keltis.core.actions import Action, ActionSpace, parse_action
from keltis.core.errors import BotFailedError as BotFailedError  # defined there: mypyc
from keltis.core.errors import KeltisError, NotationError, RecordError, raised_at
from keltis.core.events import Event, event_json
from keltis.core.protocol import JSON, GameState, Outcome, View, action_json
from keltis.games import get_game
from keltis.record import GameRecord, PlayerInfo, recorded_action

#: ``Match.on_action``: called with each accepted step before anyone is told of it.
ActionHook = Callable[["Match", "Step"], None]


class MatchError(KeltisError):
    """An action was refused for a reason outside the rules (turn, staleness, game over).
    ``key`` and ``params`` word it in the player's language like a refused move."""


class NotYourTurnError(MatchError):
    """A seat submitted an action while another seat is to decide."""


class StaleActionError(MatchError):
    """An action was chosen on an older position than the match's (``expected_ply``)."""


class GameOverError(MatchError):
    """An action was submitted after the end of the game."""


class Step:
    """One accepted action and what it did (read it only).

    ``ply`` is the match's ply *after* the action (the action was number ``ply``);
    ``events`` are what everyone saw (from spectator views), ``private`` what the acting seat
    saw (the same, plus the card it drew from the draw pile). Both are empty when the match
    does not narrate. ``seconds`` is a bot's thinking time (``None`` for a person's move).

    A plain class, not a dataclass: one is built for every decision, and mypyc compiles a
    class's own ``__init__`` but not the one the ``dataclasses`` module writes.
    """

    __slots__ = ("action", "events", "index", "ply", "private", "seat", "seconds")

    def __init__(
        self,
        ply: int,
        seat: int,
        action: Action,
        index: int,
        events: tuple[Event, ...] = (),
        private: tuple[Event, ...] = (),
        seconds: float | None = None,
    ) -> None:
        self.ply = ply
        self.seat = seat
        self.action = action
        self.index = index
        """The action's id in the game's action space (``Game.actions``)."""
        self.events = events
        self.private = private
        self.seconds = seconds

    def __repr__(self) -> str:
        return (
            f"Step(ply={self.ply}, seat={self.seat}, action={self.action!r}, "
            f"events={self.events!r}, private={self.private!r}, seconds={self.seconds!r})"
        )

    def events_for(self, viewer: int | None) -> tuple[Event, ...]:
        """The events ``viewer`` (a seat, or ``None`` for a spectator) may be told."""
        return self.private if viewer is not None and viewer == self.seat else self.events

    def to_json(self, viewer: int | None) -> JSON:
        """The wire form for ``viewer`` (schema ``step``): ``ply``, ``seat``, ``action`` and
        ``events``."""
        return {
            "ply": self.ply,
            "seat": self.seat,
            "action": action_json(self.action, self.index),
            "events": [event_json(e) for e in self.events_for(viewer)],
        }


def default_bot_seeds(record: GameRecord) -> list[int]:
    """Per seat, the seed its bot decisions derive from: kept in the record's ``meta`` once
    chosen; else derived from the set-up seed."""
    kept = record.meta.get("bot_seeds")
    count = len(record.players)
    if isinstance(kept, list) and len(kept) == count and all(type(s) is int for s in kept):
        return list(kept)
    base = record.seed if record.seed is not None else 0
    return [derive_seed(base, "bot", seat) for seat in range(count)]


class Match:
    """A game in progress: a record, the current state, and the bots that play some seats.

    ``narrate`` computes each step's events (four views per action); tournaments switch it
    off. ``on_action`` is called after each accepted action; if it raises, the action is
    taken back and the error goes to the caller. ``reseed`` reseeds a bot before each of its
    decisions from its seat's seed and the ply, so that a match resumed from its record goes
    on exactly as the unbroken one; a game played through in one go (a tournament's) may
    switch it off and keep each bot's own random stream.

    A card game of Ann against a medium bot:

    >>> from keltis.bots import make_bot
    >>> from keltis.record import PlayerInfo
    >>> seats = [PlayerInfo("Ann"), PlayerInfo("Fionn", "medium")]
    >>> match = Match.new("cards", seats, {1: make_bot("medium")}, seed=3)
    >>> view = match.view(0)
    >>> view.phase, view.legal[:3]
    ('play', (Action('G0'), Action('G3'), Action('G7')))
    >>> step = match.submit(0, "G0", expected_ply=view.ply)  # a notation, index or Action
    >>> step.events
    (('lay', {'card': 'G0'}),)
    >>> _ = match.submit(0, "draw")
    >>> [str(step.action) for step in match.play_bots()]  # until a person is to decide
    ['wish G7 R7', 'draw', 'draw']
    >>> match.submit(1, "draw")
    Traceback (most recent call last):
    keltis.match.NotYourTurnError: it is not your turn: Player 1 is to decide
    """

    def __init__(
        self,
        record: GameRecord,
        bots: Mapping[int, Bot] | None = None,
        *,
        bot_seeds: Sequence[int] | None = None,
        narrate: bool = True,
        on_action: ActionHook | None = None,
        lines: Sequence[int] | None = None,
        reseed: bool = True,
    ) -> None:
        self.record = record
        self.bots: dict[int, Bot] = dict(bots or {})
        for seat in self.bots:
            if not 0 <= seat < len(record.players):
                raise ValueError(f"no seat {seat} for a bot in a {len(record.players)}-seat game")
        self.bot_seeds = list(bot_seeds) if bot_seeds is not None else default_bot_seeds(record)
        if len(self.bot_seeds) != len(record.players):
            raise ValueError("give one bot seed per seat")
        record.meta["bot_seeds"] = list(self.bot_seeds)
        self.bot_seconds: list[float] = [0.0] * len(record.players)
        """Per seat, the time its bot has spent deciding in this match (not in a replay)."""
        self.bot_decisions: list[int] = [0] * len(record.players)
        """Per seat, the decisions its bot has taken in this match (not in a replay)."""
        self.narrate = narrate
        self.on_action = on_action
        self.reseed = reseed
        self.actions = get_game(record.game).actions
        """The game's action space: what an action id submitted means."""
        actions, result = list(record.actions), record.result
        try:
            self._replay(actions, lines)
        except BaseException:
            record.actions, record.result = actions, result  # a bad record stays as it was
            raise

    @classmethod
    def new(
        cls,
        game: str,
        players: Sequence[PlayerInfo],
        bots: Mapping[int, Bot] | None = None,
        *,
        seed: int | None = None,
        setup: JSON | None = None,
        variant: JSON | None = None,
        layout: JSON | None = None,
        bot_seeds: Sequence[int] | None = None,
        narrate: bool = True,
        on_action: ActionHook | None = None,
        reseed: bool = True,
    ) -> Match:
        """A new match (no seed and no set-up: a fresh random seed)."""
        record = GameRecord.start(
            game, list(players), seed=seed, setup=setup, variant=variant, layout=layout
        )
        return cls(
            record,
            bots,
            bot_seeds=bot_seeds,
            narrate=narrate,
            on_action=on_action,
            reseed=reseed,
        )

    # -- what anyone may ask -----------------------------------------------------------

    @property
    def game(self) -> str:
        """``board`` or ``cards``."""
        return self.record.game

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return len(self.record.players)

    @property
    def ply(self) -> int:
        """Actions applied so far (a client's ``expected_ply``)."""
        return len(self._state.history)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self._state.over

    @property
    def to_move(self) -> int:
        """The seat to decide (-1 once the game is over)."""
        return self._state.current_player

    def is_bot(self, seat: int) -> bool:
        """Whether a bot plays ``seat``."""
        return seat in self.bots

    @property
    def bot_to_move(self) -> bool:
        """Whether the game goes on and a bot is to decide."""
        return not self.over and self.to_move in self.bots

    def actor(self, ply: int) -> int:
        """The seat that took action number ``ply + 1`` (``ply`` counts from 0)."""
        return self._state.actors[ply]

    def last_decision(self, seat: int) -> int | None:
        """The ply before ``seat``'s most recent action (where :meth:`rewind` takes that
        decision back), or ``None`` if the seat has not acted."""
        actors = self._state.actors
        for ply in range(len(actors) - 1, -1, -1):
            if actors[ply] == seat:
                return ply
        return None

    def view(self, seat: int | None) -> View:
        """What ``seat`` (``None``: a spectator) may see now."""
        return self._state.view(seat)

    def outcome(self) -> Outcome:
        """Scores, winners and end reason (current standings while the game runs)."""
        return self._state.outcome()

    def final_state(self) -> GameState:
        """The full state, hidden cards included — only once the game is over (for replays of
        finished games, ``keltis replay --json`` and tests)."""
        if not self.over:
            raise RuntimeError("the full state of a running game is not shown to anyone")
        return self._state.clone()

    # -- acting ------------------------------------------------------------------------

    def submit(
        self, seat: int, action: Action | str | int, expected_ply: int | None = None
    ) -> Step:
        """A person's decision for ``seat``: an :class:`Action`, its notation or its dense
        index. Refused — with the match unchanged — if the game is over
        (:class:`GameOverError`), ``expected_ply`` is not the current ply
        (:class:`StaleActionError`: checked before the turn, so that the loser of a race for
        a ply learns that the game moved on, whoever is to decide now), another seat is to
        decide (:class:`NotYourTurnError`), the text cannot be read (``NotationError``) or
        the rules forbid it (``IllegalActionError``)."""
        if self.over:
            raise GameOverError(key="game_over")
        if expected_ply is not None and expected_ply != self.ply:
            raise StaleActionError(
                key="stale_action", params={"expected": expected_ply, "ply": self.ply}
            )
        if seat != self.to_move:
            raise NotYourTurnError(key="not_your_turn", params={"owner": self.to_move})
        try:
            chosen = to_action(action, self.actions)
        except NotationError as error:
            if error.key != "not_an_action":
                raise
            # Not a move of either game: say the moves of this one (the notation is both's;
            # each game has its refusal not_a_move.<game>).
            raise NotationError(key=f"not_a_move.{self.game}") from None
        return self._accept(chosen)

    def play_bot(self) -> Step:
        """Let the bot of the seat to decide choose and apply one action. Raises
        :class:`BotFailedError` (match unchanged) if the bot raises or chooses illegally."""
        state = self._state
        seat = state.current_player
        bot = self.bots.get(seat)
        if bot is None or state.over:
            raise RuntimeError(f"no bot is to decide (seat {seat} is to move)")
        if self.reseed:
            bot.reseed(derive_seed(self.bot_seeds[seat], len(state.history)))
        start = time.perf_counter()
        try:
            if bot.needs_view:
                action = bot.choose(state.view(seat))
            else:  # the legal actions are all of its view that such a bot reads
                action = bot.choose_legal(state.legal_actions())
        except Exception as error:
            raise BotFailedError(
                f"bot {self.record.players[seat].name!r} (seat {seat}) failed: "
                f"{type(error).__name__}: {error}{raised_at(error)}",
                seat,
            ) from error
        seconds = time.perf_counter() - start
        try:
            step = self._accept(action, seconds)
        except KeltisError as error:
            raise BotFailedError(
                f"bot {self.record.players[seat].name!r} (seat {seat}) chose an illegal "
                f"action {action}: {error}",
                seat,
            ) from error
        self.bot_seconds[seat] += seconds
        self.bot_decisions[seat] += 1
        return step

    def play_bots(self, until: Callable[[Step], bool] | None = None) -> list[Step]:
        """Let bots decide while the game goes on and a bot is to move (or until ``until``
        says stop after a step); returns the steps."""
        steps = []
        while self.bot_to_move:
            step = self.play_bot()
            steps.append(step)
            if until is not None and until(step):
                break
        return steps

    def rewind(self, ply: int) -> None:
        """Go back to the position after ``ply`` actions (taking back later ones) by
        replaying the record's first ``ply`` actions."""
        if not 0 <= ply <= self.ply:
            raise ValueError(f"cannot rewind to ply {ply}: the match is at ply {self.ply}")
        self._replay(self.record.actions[:ply])

    def _replay(self, actions: Sequence[str], lines: Sequence[int] | None = None) -> None:
        """Start from the record's set-up and apply ``actions`` (notations) quietly: no
        narration, no hook — they were accepted (and stored) before."""
        self._state = self.record.new_state()
        self.record.actions = []
        self.record.result = None
        hook, narrate = self.on_action, self.narrate
        self.on_action, self.narrate = None, False
        try:
            for number, text in enumerate(actions, 1):
                line = lines[number - 1] if lines is not None and number <= len(lines) else None
                self.replay_action(text, line=line)
        finally:
            self.on_action, self.narrate = hook, narrate

    def replay_action(self, text: str, *, line: int | None = None) -> Step:
        """Apply the next action of a record being replayed (its notation), whoever is to
        move; a bad one raises :class:`RecordError` naming its number, text, seat and
        ``line`` (its line in the file, if known)."""
        number = self.ply + 1
        if self.over:
            raise RecordError(f"{text!r} comes after the end of the game", line=line, action=number)
        with recorded_action(text, self.to_move, number, line) as action:
            return self._accept(action)

    # -- inside ------------------------------------------------------------------------

    def _accept(self, action: Action, seconds: float | None = None) -> Step:
        state = self._state
        seat = state.current_player
        backup = state.clone() if self.on_action is not None else None
        if self.narrate:
            public_before, own_before = state.view(None), state.view(seat)
            state.apply(action)  # refuses an illegal action, the state unchanged
            rules = get_game(state.game_name)
            events = tuple(rules.events(public_before, action, state.view(None)))
            private = tuple(rules.events(own_before, action, state.view(seat)))
        else:
            state.apply(action)
            events = private = ()
        record = self.record
        record.actions.append(str(action))
        if state.over:
            record.result = state.outcome().to_json()
        index = self.actions.index(action)  # the rules accepted it: the game has it
        step = Step(len(state.history), seat, action, index, events, private, seconds)
        if self.on_action is not None:
            try:
                self.on_action(self, step)
            except BaseException:
                assert backup is not None
                self._state = backup
                record.actions.pop()
                record.result = None
                raise
        return step


def spectator_positions(
    record: GameRecord, lines: Sequence[int] | None = None
) -> tuple[list[View], list[Step], Match]:
    """Replay ``record`` (left unchanged) once, narrated: the spectator's view after each
    action (``views[k]`` after ``k``, ``views[0]`` the start), the step that led to each
    (``steps[k - 1]``), and the match at the end. A bad action raises ``RecordError`` naming
    its line in ``lines`` (if given). Used by ``keltis replay`` and the server's replays."""
    copy = dataclasses.replace(record, actions=[], meta=dict(record.meta), result=None)
    match = Match(copy)
    views = [match.view(None)]
    steps = []
    for i, text in enumerate(record.actions):
        line = lines[i] if lines is not None and i < len(lines) else None
        steps.append(match.replay_action(text, line=line))
        views.append(match.view(None))
    return views, steps, match


def to_action(action: Action | str | int, space: ActionSpace) -> Action:
    """An action from itself, its notation or its id in the game's action ``space``
    (``NotationError`` if none). Notation is read as both games', so that the game's rules
    say why an action of the other game is refused here."""
    if isinstance(action, Action):
        return action
    if isinstance(action, bool):
        raise NotationError(key="not_an_action")
    if isinstance(action, int):
        try:
            return space.action(action)
        except ValueError:
            raise NotationError(
                key="no_action_index", params={"index": action, "last": space.size - 1}
            ) from None
    return parse_action(action)
