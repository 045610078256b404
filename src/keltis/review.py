"""The review of a finished game: where each player won and lost it.

A review judges each decision of the seats reviewed by what that seat knew: a search from the
seat's own view at that moment (over dealings of the cards it could not see, like a hint) tries
the move played beside the heuristic's best few, every one on the same deals, and gives each
its win chance (the share of playouts won, shown through a calibration map measured on games
between hard bots: :data:`CALIBRATION`) and expected margin. The loss of a decision is the
best move's win chance minus the played move's; it earns a mark (inaccuracy, mistake, blunder)
only when it is larger than a threshold *and* larger than the search's own error at its budget
(the paired 95% error of the difference over the shared deals), so noise never marks a move.

Luck is judged once the game is over and nothing is hidden any more: the all-seeing value of a
position (every hand known, the draw pile's order not) is each player's share of wins over
playouts in which the unseen pile is shuffled anew. Every draw from the draw pile, and the deal
of the hands, moves those values; the difference after − before is that draw's luck for each
player. The playouts before and after a draw share their shuffles (the drawn card taken out),
so the difference is not drowned in the playouts' own noise.

Everything is a function of the record and the budget (its ``seed`` included): reviewing the
same record with the same budget gives the same review on any machine. docs/bots.md describes
the thresholds, the accuracy figure and how well the win chances are calibrated.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from keltis.bots.ismcts import ActionStats, SearchConfig, search
from keltis.core.actions import DECK, Action, ActionKind
from keltis.core.errors import RecordError
from keltis.core.policy import Policy
from keltis.core.protocol import JSON, GameState
from keltis.games import GAME_NAMES, get_game
from keltis.record import GameRecord, recorded_action

#: Review format version (``review.schema.json``).
REVIEW_VERSION: Final = 1

#: The marks, from none to the worst: ``best`` (the search's best move was played), ``good``
#: (a loss below the inaccuracy threshold, or within the search's error), then by loss.
MARKS: Final = ("best", "good", "inaccuracy", "mistake", "blunder")

#: The least loss of win chance (0…1) that earns each mark — lichess's thresholds (5, 10 and 15
#: points of win chance on a 0–100 scale), where they are not within the search's error.
THRESHOLDS: Final = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.15}

#: The normal quantile of the 95% errors.
Z95: Final = 1.96

#: Maps of a search's raw win chance (its share of playouts won) to the chance the review
#: shows, by (game, number of players): ``logit(shown) = a × logit(raw) + b`` (Platt scaling;
#: each game's ``Game.review_calibration``). The raw shares are too hopeful in the middle — the
#: playouts let the heuristic play every seat, a gentler field than real opponents. Fitted on
#: the games of seeds 410001–410012 of ``benchmarks/review_calibration.py`` (hard level in every
#: seat) and measured on seeds 410013–410025 only (docs/bots.md). A number of players without
#: a map of its own (three: not measured) takes the mean of the game's maps.
CALIBRATION: Final[dict[tuple[str, int], tuple[float, float]]] = {
    (name, players): ab
    for name in GAME_NAMES
    for players, ab in get_game(name).review_calibration.items()
}
#: Raw chances are held this far from 0 and 1 before the logit (as in the fit); exactly 0 and
#: 1 (a position decided in every playout) stay as they are.
_LOGIT_EDGE: Final = 1e-3


def calibrated(win: float, game: str, players: int) -> float:
    """The chance the review shows for a search's raw win share ``win`` (0…1), by
    :data:`CALIBRATION`."""
    if win <= 0.0 or win >= 1.0:
        return min(1.0, max(0.0, win))
    maps = get_game(game).review_calibration
    if not maps:
        return win
    if players in maps:
        a, b = maps[players]
    else:
        a = sum(ab[0] for ab in maps.values()) / len(maps)
        b = sum(ab[1] for ab in maps.values()) / len(maps)
    p = min(1.0 - _LOGIT_EDGE, max(_LOGIT_EDGE, win))
    x = a * math.log(p / (1.0 - p)) + b
    return 1.0 / (1.0 + math.exp(-x))


@dataclass(frozen=True)
class ReviewBudget:
    """How hard a review looks: playouts per decision, the heuristic's moves searched beside
    the one played, playouts per all-seeing value of a draw, and the seed of every deal."""

    iterations: int = 400
    """Playouts per decision, over every move searched (all of them see the same deals)."""
    width: int = 3
    """The heuristic's best moves searched beside the one played."""
    luck_playouts: int = 128
    """Playouts per all-seeing value (before and after each draw from the pile; four times as
    many for the deal)."""
    seed: int = 0
    """The seed of the deals and playouts: the same record, budget and seed give the same
    review."""

    def __post_init__(self) -> None:
        if not 16 <= self.iterations <= 100_000:
            raise ValueError(f"iterations must lie in 16…100000, not {self.iterations}")
        if not 1 <= self.width <= 20:
            raise ValueError(f"width must lie in 1…20, not {self.width}")
        if not 0 <= self.luck_playouts <= 10_000:
            raise ValueError(f"luck_playouts must lie in 0…10000, not {self.luck_playouts}")
        if not 0 <= self.seed < 2**63:
            raise ValueError(f"seed must lie in 0…2**63-1, not {self.seed}")

    @classmethod
    def parse(cls, text: str) -> ReviewBudget:
        """A budget from ``"iterations=800,width=4,luck_playouts=64,seed=1"`` (any of them;
        a bare number is the iterations); ``ValueError`` saying what was wrong."""
        fields: dict[str, int] = {}
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            key, _, value = part.rpartition("=")
            key = key.strip() or "iterations"
            if key not in ("iterations", "width", "luck_playouts", "seed"):
                raise ValueError(
                    f"unknown budget part {key!r} (iterations, width, luck_playouts, seed)"
                )
            try:
                fields[key] = int(value)
            except ValueError:
                raise ValueError(f"{key} must be a whole number, not {value.strip()!r}") from None
        return cls(**fields)

    def to_json(self) -> JSON:
        return {
            "iterations": self.iterations,
            "width": self.width,
            "luck_playouts": self.luck_playouts,
            "seed": self.seed,
        }


@dataclass(frozen=True)
class Candidate:
    """One move the search tried, and what it expects of it."""

    action: str
    win: float
    """Chance to win after this move (0…1; a shared victory counts in part): the playouts'
    share of wins (``raw``) through the calibration map (:func:`calibrated`)."""
    margin: float
    """Expected final score minus the best other player's, in points."""
    spread: float
    """Half the width of the 95% interval of ``win``."""
    playouts: int
    raw: float = 0.0
    """The share of the playouts won, before the calibration map."""

    def to_json(self) -> JSON:
        return {
            "action": self.action,
            "win": round(self.win, 4),
            "raw": round(self.raw, 4),
            "margin": round(self.margin, 2),
            "spread": round(self.spread, 4),
            "playouts": self.playouts,
        }

    @classmethod
    def from_json(cls, data: Any) -> Candidate:
        return cls(
            str(data["action"]),
            float(data["win"]),
            float(data["margin"]),
            float(data["spread"]),
            int(data["playouts"]),
            float(data.get("raw", data["win"])),  # (steps stored before the map had none)
        )


@dataclass(frozen=True)
class Decision:
    """One decision of a reviewed seat (a position with more than one legal move)."""

    index: int
    """The action's place in the record (0-based): the position is the one after
    ``index`` actions."""
    turn: int
    seat: int
    played: Candidate
    best: Candidate
    loss: float
    """``best.win - played.win`` (0 when the best was played)."""
    error: float
    """The search's own 95% error of ``loss`` (paired over the deals both moves saw)."""
    mark: str
    accuracy: float
    """This move's accuracy, 0…100 (see :func:`move_accuracy`)."""
    candidates: tuple[Candidate, ...]
    """Every move searched, the best first."""

    def to_json(self) -> JSON:
        return {
            "index": self.index,
            "turn": self.turn,
            "seat": self.seat,
            "played": self.played.to_json(),
            "best": self.best.to_json(),
            "loss": round(self.loss, 4),
            "error": round(self.error, 4),
            "mark": self.mark,
            "accuracy": round(self.accuracy, 1),
            "candidates": [c.to_json() for c in self.candidates],
        }

    @classmethod
    def from_json(cls, data: Any) -> Decision:
        return cls(
            index=int(data["index"]),
            turn=int(data["turn"]),
            seat=int(data["seat"]),
            played=Candidate.from_json(data["played"]),
            best=Candidate.from_json(data["best"]),
            loss=float(data["loss"]),
            error=float(data["error"]),
            mark=str(data["mark"]),
            accuracy=float(data["accuracy"]),
            candidates=tuple(Candidate.from_json(c) for c in data["candidates"]),
        )


@dataclass(frozen=True)
class Luck:
    """How a deal or a draw from the draw pile moved every player's all-seeing win chance."""

    kind: str
    """``deal`` (the hands dealt at the start) or ``draw`` (a card from the draw pile)."""
    index: int
    """The action's place in the record (0 for the deal, which comes before it)."""
    turn: int
    seat: int | None
    """Who drew (``None`` for the deal)."""
    before: tuple[float, ...]
    after: tuple[float, ...]
    playouts: int
    error: tuple[float, ...] = ()
    """Each player's 95% error of the swing (paired over the playouts the two sides share)."""

    @property
    def swing(self) -> tuple[float, ...]:
        """``after - before`` for each player."""
        return tuple(a - b for a, b in zip(self.after, self.before, strict=True))

    def to_json(self) -> JSON:
        return {
            "kind": self.kind,
            "index": self.index,
            "turn": self.turn,
            "seat": self.seat,
            "before": [round(x, 4) for x in self.before],
            "after": [round(x, 4) for x in self.after],
            "swing": [round(x, 4) for x in self.swing],
            "error": [round(x, 4) for x in self.error],
            "playouts": self.playouts,
        }

    @classmethod
    def from_json(cls, data: Any) -> Luck:
        seat = data["seat"]
        return cls(
            kind=str(data["kind"]),
            index=int(data["index"]),
            turn=int(data["turn"]),
            seat=None if seat is None else int(seat),
            before=tuple(float(x) for x in data["before"]),
            after=tuple(float(x) for x in data["after"]),
            playouts=int(data["playouts"]),
            error=tuple(float(x) for x in data.get("error", ())),  # (none stored before)
        )


@dataclass(frozen=True)
class SeatSummary:
    """One reviewed seat's totals."""

    seat: int
    decisions: int
    forced: int
    """Moves with nothing to decide (one legal move): not judged."""
    accuracy: float
    """The mean of its decisions' accuracies (100 with no decision)."""
    marks: dict[str, int]
    loss: float
    """The sum of its decisions' losses of win chance (those beyond the search's error)."""
    luck: float
    """The sum of every deal's and draw's swing of its all-seeing win chance."""
    luck_error: float = 0.0
    """The 95% error of ``luck`` (the swings' errors added in quadrature)."""

    def to_json(self) -> JSON:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "forced": self.forced,
            "accuracy": round(self.accuracy, 1),
            "marks": dict(self.marks),
            "loss": round(self.loss, 4),
            "luck": round(self.luck, 4),
            "luck_error": round(self.luck_error, 4),
        }


@dataclass(frozen=True)
class Review:
    """A game's review (see the module docstring)."""

    game: str
    players: tuple[str, ...]
    seats: tuple[int, ...]
    budget: ReviewBudget
    decisions: tuple[Decision, ...]
    luck: tuple[Luck, ...]
    summaries: tuple[SeatSummary, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    actions: int
    cpu_seconds: float = field(default=0.0, compare=False)

    def to_json(self) -> JSON:
        """The review as JSON (``keltis/schemas/review.schema.json``)."""
        return {
            "format": "keltis-review",
            "version": REVIEW_VERSION,
            "game": self.game,
            "players": list(self.players),
            "seats": list(self.seats),
            "budget": self.budget.to_json(),
            "thresholds": dict(THRESHOLDS),
            "actions": self.actions,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "summaries": [s.to_json() for s in self.summaries],
            "decisions": [d.to_json() for d in self.decisions],
            "luck": [event.to_json() for event in self.luck],
            "cpu_seconds": round(self.cpu_seconds, 2),
        }


#: ``progress(done, total)``: called as a review goes (``total`` steps: decisions and draws).
Progress = Callable[[int, int], None]


def move_accuracy(loss: float) -> float:
    """A move's accuracy, 0…100, from its loss of win chance (0…1): lichess's curve,
    ``103.17 × exp(−0.04354 × loss in points) − 3.17``; 100 for no loss, about 64 for a loss of
    10 points, 0 from about 80 points."""
    value = 103.1668100711649 * math.exp(-0.04354415386753951 * loss * 100) - 3.166924740191411
    return max(0.0, min(100.0, value))


def mark_of(loss: float, error: float, best_played: bool) -> str:
    """The mark of a decision that lost ``loss`` of win chance, with the search's ``error``."""
    if best_played:
        return "best"
    if loss <= error:
        return "good"
    mark = "good"
    for name, threshold in THRESHOLDS.items():
        if loss >= threshold:
            mark = name
    return mark


#: A step of a review, the unit a server hands to a worker: ``decision:INDEX`` (a reviewed
#: seat's decision at that action), ``deal`` (the luck of the deal) or ``draw:INDEX`` (the
#: luck of a draw from the pile).
Step = str


def plan(
    record: GameRecord,
    seats: Sequence[int] | None = None,
    budget: ReviewBudget | None = None,
    positions: tuple[list[GameState], list[Action]] | None = None,
) -> list[Step]:
    """The steps of a review of ``record`` for ``seats`` (all by default), in order
    (``positions``: :func:`positions`'s, to save replaying the record again).

    Raises :class:`RecordError` if the record does not replay or the game is not over (a review
    of a game in play would be a hint), and ``ValueError`` for a seat not in the game."""
    budget = budget or ReviewBudget()
    wanted = _seats(record, seats)
    states, actions = positions or _positions(record)
    steps = [
        f"decision:{i}"
        for i, state in enumerate(states[:-1])
        if state.current_player in wanted and len(state.legal_actions()) > 1
    ]
    if budget.luck_playouts:
        steps.append("deal")
        steps.extend(f"draw:{i}" for i, action in enumerate(actions) if _pile_draw(action))
    return steps


def run_step(
    record: GameRecord,
    step: Step,
    budget: ReviewBudget | None = None,
    positions: tuple[list[GameState], list[Action]] | None = None,
) -> JSON:
    """One step of a review (see :func:`plan`) as JSON: a pure function of the record, the
    step and the budget, so any process may run it. ``positions`` (:func:`positions`'s) saves
    replaying the record again."""
    budget = budget or ReviewBudget()
    states, actions = positions or _positions(record)
    kind, _, where = step.partition(":")
    index = int(where) if where.isdigit() else -1
    if kind == "deal" and not where:
        policy = get_game(record.game).heuristics().policy
        return _deal_luck(states[0], policy, budget).to_json()
    if not 0 <= index < len(actions):
        raise ValueError(f"no such review step: {step!r}")
    state = states[index]
    if kind == "decision" and len(state.legal_actions()) > 1:
        seat = state.current_player
        config = SearchConfig(
            iterations=budget.iterations, width=budget.width, race=False, playout_rounds=None
        )
        rng = random.Random(_seed(budget.seed, 1, index))
        result = search(state.view(seat), config, rng, include=(actions[index],))
        shown = _Calibration(record.game, len(record.players))
        return _decision(index, state.turn, seat, actions[index], result.stats, shown).to_json()
    if kind == "draw" and _pile_draw(actions[index]):
        policy = get_game(record.game).heuristics().policy
        return _draw_luck(index, state, states[index + 1], policy, budget).to_json()
    raise ValueError(f"no such review step: {step!r}")


def assemble(
    record: GameRecord,
    seats: Sequence[int] | None,
    budget: ReviewBudget | None,
    results: dict[Step, JSON],
    cpu_seconds: float = 0.0,
    positions: tuple[list[GameState], list[Action]] | None = None,
) -> Review:
    """The review from the results of all its steps (``results[step]`` is :func:`run_step`'s
    JSON); ``ValueError`` if a step is missing."""
    budget = budget or ReviewBudget()
    wanted = _seats(record, seats)
    known = positions or _positions(record)
    states, _ = known
    steps = plan(record, wanted, budget, known)
    missing = [step for step in steps if step not in results]
    if missing:
        raise ValueError(f"{len(missing)} review steps have no result (the first: {missing[0]})")
    decisions = [Decision.from_json(results[s]) for s in steps if s.startswith("decision:")]
    luck = [Luck.from_json(results[s]) for s in steps if not s.startswith("decision:")]
    outcome = states[-1].outcome()
    return Review(
        game=record.game,
        players=tuple(p.name for p in record.players),
        seats=wanted,
        budget=budget,
        decisions=tuple(decisions),
        luck=tuple(luck),
        summaries=tuple(_summary(seat, decisions, states, luck) for seat in wanted),
        scores=tuple(outcome.scores),
        winners=tuple(outcome.winners),
        actions=len(record.actions),
        cpu_seconds=cpu_seconds,
    )


def review(
    record: GameRecord,
    seats: Sequence[int] | None = None,
    budget: ReviewBudget | None = None,
    progress: Progress | None = None,
) -> Review:
    """Review the finished game ``record`` for ``seats`` (all by default), every step in this
    process; ``progress(done, total)`` is called before the first step and after each.

    Raises :class:`RecordError` if the record does not replay or the game is not over, and
    ``ValueError`` for a seat that is not in the game."""
    budget = budget or ReviewBudget()
    start = time.process_time()
    known = _positions(record)
    steps = plan(record, seats, budget, known)
    results: dict[Step, JSON] = {}
    if progress is not None:
        progress(0, len(steps))
    for done, step in enumerate(steps, 1):
        results[step] = run_step(record, step, budget, known)
        if progress is not None:
            progress(done, len(steps))
    return assemble(record, seats, budget, results, time.process_time() - start, known)


def positions(record: GameRecord) -> tuple[list[GameState], list[Action]]:
    """Every position of a finished ``record`` (the start, then after each action) and its
    actions, for :func:`run_step`; :class:`RecordError` if it does not replay or is not over."""
    return _positions(record)


def _seats(record: GameRecord, seats: Sequence[int] | None) -> tuple[int, ...]:
    players = len(record.players)
    wanted = tuple(range(players)) if seats is None else tuple(sorted(set(seats)))
    for seat in wanted:
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not in this game (seats 0…{players - 1})")
    if not wanted:
        raise ValueError("a review needs at least one seat")
    return wanted


def _positions(record: GameRecord) -> tuple[list[GameState], list[Action]]:
    """Every position of the record (the start, then after each action) and its actions as the
    engine's legal actions."""
    state = record.new_state()
    states = [state.clone()]
    actions: list[Action] = []
    for number, text in enumerate(record.actions, 1):
        if state.over:
            raise RecordError(f"{text!r} comes after the end of the game", action=number)
        with recorded_action(text, state.current_player, number, None) as action:
            state.apply(action)
        actions.append(_legal_form(states[-1], action))
        states.append(state.clone())
    if not state.over:
        raise RecordError("only a finished game can be reviewed: this record stops before the end")
    return states, actions


def _legal_form(state: GameState, action: Action) -> Action:
    """``action`` as it stands among ``state``'s legal actions (it was applied there)."""
    legal = state.legal_actions()
    if action in legal:
        return action
    text = str(action)
    for candidate in legal:
        if str(candidate) == text:
            return candidate
    return action  # pragma: no cover - apply accepted it, so the engine lists it


def _pile_draw(action: Action) -> bool:
    return action.kind is ActionKind.DRAW and action.target == DECK


def _seed(base: int, part: int, index: int) -> int:
    """A seed for one part of a review (1: decisions, 2: luck) at one action: the same for the
    same record and budget, different for each."""
    return (base * 1_000_003 + part) * 1_000_003 + index


class _Calibration:
    """The calibration map of one game and number of players, applied to chances and to
    their errors (an error is carried through the map where it lies)."""

    def __init__(self, game: str, players: int) -> None:
        self.game = game
        self.players = players

    def __call__(self, win: float) -> float:
        return calibrated(win, self.game, self.players)

    def error(self, raw: float, error: float) -> float:
        """The error ``error`` of a raw chance ``raw``, carried through the map."""
        return abs(self(raw) - self(max(0.0, raw - error)))


def _candidate(stats: ActionStats, shown: _Calibration) -> Candidate:
    spread = min(1.0, _error_of_mean(stats.wins)) if len(stats.wins) > 1 else 1.0
    low, high = shown(max(0.0, stats.win - spread)), shown(min(1.0, stats.win + spread))
    return Candidate(
        str(stats.action),
        shown(stats.win),
        stats.margin,
        min(1.0, (high - low) / 2),
        stats.visits,
        stats.win,
    )


def _decision(
    index: int,
    turn: int,
    seat: int,
    played: Action,
    stats: list[ActionStats],
    shown: _Calibration,
) -> Decision:
    ranked = sorted(stats, key=lambda s: (-s.win, -s.margin, str(s.action)))
    best = ranked[0]
    mine = next(s for s in ranked if s.action == played)
    diffs = [b - m for b, m in zip(best.wins, mine.wins, strict=False)]
    error = 0.0 if mine is best else shown.error(best.win, _error_of_mean(diffs))
    loss = max(0.0, shown(best.win) - shown(mine.win))
    mark = mark_of(loss, error, mine is best)
    counted = loss if loss > error else 0.0
    return Decision(
        index=index,
        turn=turn,
        seat=seat,
        played=_candidate(mine, shown),
        best=_candidate(best, shown),
        loss=loss,
        error=error,
        mark=mark,
        accuracy=move_accuracy(counted),
        candidates=tuple(_candidate(s, shown) for s in ranked),
    )


def _summary(
    seat: int, decisions: list[Decision], states: list[GameState], luck: list[Luck]
) -> SeatSummary:
    mine = [d for d in decisions if d.seat == seat]
    forced = sum(
        1
        for state in states[:-1]
        if state.current_player == seat and len(state.legal_actions()) == 1
    )
    marks = {name: sum(1 for d in mine if d.mark == name) for name in MARKS}
    accuracy = sum(d.accuracy for d in mine) / len(mine) if mine else 100.0
    loss = sum(d.loss for d in mine if d.loss > d.error)
    return SeatSummary(
        seat=seat,
        decisions=len(mine),
        forced=forced,
        accuracy=accuracy,
        marks=marks,
        loss=loss,
        luck=sum(event.swing[seat] for event in luck),
        luck_error=math.sqrt(sum(event.error[seat] ** 2 for event in luck if event.error)),
    )


# -- luck: the all-seeing values -------------------------------------------------------------


def _play_out(state: Any, policy: Policy, rng: random.Random) -> list[float]:
    """Each player's win (a share for a tie) after playing ``state`` to its end."""
    while not state.over:
        state.apply_legal(policy(state, rng))
    winners = state.outcome().winners
    share = 1.0 / len(winners)
    return [share if p in winners else 0.0 for p in range(state.num_players)]


def _mean(rows: list[list[float]], players: int) -> tuple[float, ...]:
    return tuple(sum(row[p] for row in rows) / len(rows) for p in range(players))


def _draw_luck(
    index: int, before: GameState, after: GameState, policy: Policy, budget: ReviewBudget
) -> Luck:
    """The all-seeing values around the draw from the pile that leads from ``before`` to
    ``after``: each playout shuffles the unseen cards (the pile and the cards set aside) once
    and uses that order on both sides, the drawn card taken out of it after the draw."""
    rng = random.Random(_seed(budget.seed, 2, index))
    seen_before: Any = before
    seen_after: Any = after
    drawn = seen_before.deck[-1]  # the top of the pile: the card the draw took
    size = len(seen_before.deck)
    draw = Action.draw(DECK)
    pool = [*seen_before.deck, *seen_before.removed]
    rows_before = []
    rows_after = []
    for _ in range(budget.luck_playouts):
        rng.shuffle(pool)
        seed = rng.getrandbits(32)
        deal: Any = before.clone()
        deal.deck, deal.removed = pool[:size], pool[size:]
        deal.apply_legal(draw)
        rows_before.append(_play_out(deal, policy, random.Random(seed)))
        if seen_after.over:
            continue
        rest = list(pool)
        rest.remove(drawn)
        known: Any = after.clone()
        known.deck, known.removed = rest[: size - 1], rest[size - 1 :]
        rows_after.append(_play_out(known, policy, random.Random(seed)))
    players = before.num_players
    if seen_after.over:  # the draw ended the game: after it, the result itself
        rows_after = [list(_final(after))] * len(rows_before)
    return Luck(
        kind="draw",
        index=index,
        turn=before.turn,
        seat=before.current_player,
        before=_mean(rows_before, players),
        after=_mean(rows_after, players),
        playouts=budget.luck_playouts,
        error=_paired_error(rows_before, rows_after, players),
    )


def _final(state: GameState) -> tuple[float, ...]:
    winners = state.outcome().winners
    return tuple(1.0 / len(winners) if p in winners else 0.0 for p in range(state.num_players))


def _deal_luck(start: GameState, policy: Policy, budget: ReviewBudget) -> Luck:
    """The all-seeing values around the deal: before it every card is shuffled anew (hands,
    pile and the cards set aside); after it the hands are known and the rest is shuffled."""
    rng = random.Random(_seed(budget.seed, 2, -1))
    count = 4 * budget.luck_playouts
    table: Any = start
    sizes = [len(hand) for hand in table.hands]
    size = len(table.deck)
    cards = [card for hand in table.hands for card in hand] + [*table.deck, *table.removed]
    pool = [*table.deck, *table.removed]
    rows_before = []
    rows_after = []
    for _ in range(count):
        rng.shuffle(cards)
        deal: Any = start.clone()
        at = 0
        hands = []
        for n in sizes:
            hands.append(sorted(cards[at : at + n]))
            at += n
        deal.hands = hands
        deal.deck, deal.removed = cards[at : at + size], cards[at + size :]
        rows_before.append(_play_out(deal, policy, random.Random(rng.getrandbits(32))))
        rng.shuffle(pool)
        known: Any = start.clone()
        known.deck, known.removed = pool[:size], pool[size:]
        rows_after.append(_play_out(known, policy, random.Random(rng.getrandbits(32))))
    players = start.num_players
    return Luck(
        kind="deal",
        index=0,
        turn=start.turn,
        seat=None,
        before=_mean(rows_before, players),
        after=_mean(rows_after, players),
        playouts=count,
        error=tuple(
            math.hypot(
                _error_of_mean([row[p] for row in rows_before]),
                _error_of_mean([row[p] for row in rows_after]),
            )
            for p in range(players)
        ),
    )


def _error_of_mean(values: Sequence[float]) -> float:
    """The 95% half-width of the mean of ``values`` (normal approximation; 0 for fewer than
    two values)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Z95 * math.sqrt(variance / n)


def _paired_error(
    before: list[list[float]], after: list[list[float]], players: int
) -> tuple[float, ...]:
    """Each player's 95% error of the mean difference after − before over paired playouts."""
    pairs = list(zip(after, before, strict=True))
    return tuple(_error_of_mean([a[p] - b[p] for a, b in pairs]) for p in range(players))
