"""The lobby's rules: what a request for a new match becomes (:func:`plan_match`), before
anything is stored or any secret minted.

A request names the game, its seats (people and bots), options and perhaps a guided first
game, a seed or an explicit set-up; the plan holds the seats' names, the options with their
defaults and the match's record — its deal and its bots' seeds drawn here, in secret. What
the server refuses is refused here, as a :class:`~keltis.server.answers.RefusedError` with
the HTTP status it answers with. The match service (:mod:`keltis.server.master`) then mints
the tokens and invites and stores the plan.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from keltis.bots.levels import LEVELS
from keltis.core.errors import KeltisError
from keltis.match import Match
from keltis.names import reserved_name
from keltis.record import GameRecord, PlayerInfo
from keltis.server import clocks, textcheck
from keltis.server.accounts import Account
from keltis.server.answers import BadSetupError, RefusedError, printable
from keltis.server.bodies import DEFAULT_TURN_SECONDS, MAX_NAME, CreateMatch, SeatRequest
from keltis.server.store import MatchRow
from keltis.server.tutorials import TUTORIALS, Tutorial


@dataclass(frozen=True)
class SeatPlan:
    """One seat of a new match: ``kind`` (``person`` or ``bot``), its player's ``name`` and,
    for a bot, its ``level``."""

    kind: str
    name: str
    level: str | None = None
    account_id: str | None = None
    """The account that plays this person seat, known already (the creator logged in, a
    seek's players); ``None``: a guest, or whoever takes the invite."""

    def row(self) -> dict[str, Any]:
        """The seat as :meth:`Store.create_match` takes it (without a secret)."""
        row: dict[str, Any] = {"kind": self.kind, "name": self.name}
        if self.kind == "bot":
            row["level"] = self.level
        if self.account_id is not None:
            row["account_id"] = self.account_id
        return row


@dataclass(frozen=True)
class MatchPlan:
    """A new match as it is to be stored: the ``record`` (the deal, the players, the bots'
    seeds), its ``seats``, the ``creator``'s seat (``None``: the creator only hosts), its
    ``options``, whether it is listed (``public``) and whether it starts at once when no
    other person is to join (``start``)."""

    record: GameRecord
    seats: list[SeatPlan]
    creator: int | None
    options: dict[str, Any]
    public: bool
    start: bool
    rated: bool = False

    @property
    def game(self) -> str:
        return self.record.game


def name_ok(name: str) -> bool:
    """Whether ``name`` may name a player: 1 to :data:`MAX_NAME` characters, not only
    spaces, no control, formatting or separator character (PostgreSQL text cannot even hold
    a NUL; a right-to-left override shows "evil" as "live"): the request's fields are
    checked so already (:data:`~keltis.server.bodies.PlayerName`), this checks again what
    reaches the lobby by other ways."""
    return textcheck.name_ok(name, MAX_NAME)


def plan_match(body: CreateMatch, allow_setup: bool, creator: Account | None = None) -> MatchPlan:
    """The match ``body`` asks for; ``allow_setup``: the server takes seeds and explicit
    set-ups (``--allow-setup``); ``creator``: the logged-in account creating it, which
    plays the creator's seat under its own name. Raises :class:`RefusedError` for a request
    it refuses."""
    if body.rated and (creator is None and body.seat is not None):
        raise RefusedError("account.rated_needs_account", status=403)
    if body.rated and body.tutorial is not None:
        raise RefusedError(
            "server.bad_request", status=400, detail="a guided first game is never rated"
        )
    if creator is not None and body.seat is not None:
        body = body.model_copy(update={"name": creator.name})
    if body.seat is not None and (
        body.seat >= len(body.seats) or body.seats[body.seat].kind != "person"
    ):
        raise RefusedError(
            "server.bad_request", status=400, detail=f"seat {body.seat} is not a person seat"
        )
    given = [body.name, *(s.name for s in body.seats if s.name is not None)]
    if not all(name_ok(name) for name in given):
        raise RefusedError("server.bad_name", status=400, limit=MAX_NAME)
    if any(reserved_name(name) for name in given):
        raise RefusedError("server.reserved_name", status=400)
    if body.seed is not None and not allow_setup:
        raise RefusedError("server.no_seed", status=403)
    lesson = None
    if body.tutorial is not None:
        lesson, body = _lesson(body)
    names = seat_names(body)
    setup = _setup(body, allow_setup) if lesson is None else lesson.setup
    players = [
        PlayerInfo(name, "human" if s.kind == "person" else s.level)
        for name, s in zip(names, body.seats, strict=True)
    ]
    try:
        record = new_record(
            body.game,
            players,
            body.variant,
            seed=body.seed,
            setup=setup,
            bot_seeds=lesson.bot_seeds if lesson is not None else None,
        )
    except (KeltisError, ValueError) as error:
        raise BadSetupError(error) from error
    seats = [
        SeatPlan(
            s.kind,
            name,
            s.level if s.kind == "bot" else None,
            creator.id if creator is not None and number == body.seat else None,
        )
        for number, (name, s) in enumerate(zip(names, body.seats, strict=True))
    ]
    people = sum(s.kind == "person" for s in body.seats)
    turn_seconds = body.turn_seconds
    if "turn_seconds" not in body.model_fields_set and people > 1:
        turn_seconds = DEFAULT_TURN_SECONDS
    options: dict[str, Any] = {
        "hints": body.hints,
        "undo": body.undo,
        "turn_seconds": turn_seconds,
    }
    if people > 1:
        # hints between people only where all of them agree: asked for by the creator
        # ("hints": true given), shown to whoever joins, agreed to by joining
        agreed = body.hints and "hints" in body.model_fields_set
        options.update(hints=agreed, hints_agreed=agreed)
    if body.rated:
        # a rated match: no hints, no take-backs (both would change what a rating means)
        options.update(rated=True, hints=False, undo=False, hints_agreed=False)
    options.update(_time_control(body, options))  # after "rated": it decides on_timeout
    return MatchPlan(record, seats, body.seat, options, body.public, body.start, body.rated)


def _time_control(body: CreateMatch, options: dict[str, Any]) -> dict[str, Any]:
    """The options a time control in ``body`` sets (docs/server.md, "Time controls"): the
    control and what happens to a seat out of time (``on_timeout``), and no turn clock
    beside it; nothing without one."""
    if body.time is None:
        return {}
    if body.turn_seconds is not None:
        raise RefusedError(
            "server.bad_request", status=400, detail="give time or turn_seconds, not both"
        )
    return {"turn_seconds": None, **clocks.time_options(body.time, options.get("rated", False))}


def _lesson(body: CreateMatch) -> tuple[Tutorial, CreateMatch]:
    """The guided first game ``body`` names, and the request as the lesson has it: its game,
    the creator in seat 0 against its bot, unlisted, no turn clock."""
    assert body.tutorial is not None
    lesson = TUTORIALS.get(body.tutorial)
    if lesson is None:
        raise RefusedError("tutorial.unknown", status=400, name=printable(body.tutorial))
    if body.seed is not None or body.setup is not None:
        raise RefusedError(
            "server.bad_request",
            status=400,
            detail="give a tutorial or a seed or a set-up, not two",
        )
    return lesson, body.model_copy(
        update={
            "game": lesson.game,
            "seats": [
                SeatRequest.model_validate({"kind": "person"}),
                SeatRequest.model_validate({"kind": "bot", "level": lesson.bot_level}),
            ],
            "variant": {},
            "seat": 0,
            "start": True,
            "public": False,
            "turn_seconds": None,
            "time": None,
        }
    )


def _setup(body: CreateMatch, allow_setup: bool) -> dict[str, Any] | None:
    """The explicit set-up ``body`` gives (also taken wrapped as ``{"explicit": …}``), if
    the server takes one."""
    setup = body.setup
    if setup is None:
        return None
    if not allow_setup:
        raise RefusedError("server.no_setup", status=403)
    if set(setup) == {"explicit"} and isinstance(setup["explicit"], dict):
        setup = setup["explicit"]
    if body.seed is not None:
        raise RefusedError(
            "server.bad_request", status=400, detail="give a seed or a set-up, not both"
        )
    return setup


def seat_names(body: CreateMatch) -> list[str]:
    """Seat names: the creator's, ``Player N`` for invited people, bots by their persona;
    a name given to more than one seat gets each seat's number (``Brigid 3`` sits in seat
    3)."""
    names = []
    for number, seat in enumerate(body.seats):
        if seat.kind == "bot":
            name = seat.name or ("Random" if seat.level == "random" else LEVELS[seat.level].persona)
        elif number == body.seat:
            name = body.name
        else:
            name = f"Player {number + 1}"
        names.append(name)
    twice = {name for name in names if names.count(name) > 1}
    return [f"{name} {n + 1}" if name in twice else name for n, name in enumerate(names)]


def new_record(
    game: str,
    players: list[PlayerInfo],
    variant: dict[str, Any] | None,
    seed: int | None = None,
    setup: dict[str, Any] | None = None,
    bot_seeds: tuple[int, ...] | None = None,
) -> GameRecord:
    """A new match's record, its bot seeds fixed in ``meta``. They are secret like the deal
    (whoever knew them could foresee the bots' moves): drawn here, unless a seed was given
    (tests, with --allow-setup), from which they derive as in any record, or a tutorial's
    (``bot_seeds``: its bot must answer as its script expects)."""
    record = GameRecord.start(game, players, seed=seed, setup=setup, variant=variant)
    seeds: list[int] | None = list(bot_seeds) if bot_seeds is not None else None
    if seeds is None and seed is None:
        seeds = [secrets.randbits(63) for _ in players]
    Match(record, narrate=False, bot_seeds=seeds)
    return record


def plan_again(row: MatchRow) -> MatchPlan:
    """The match that plays ``row`` again: the same game, variant, options, seats and
    names, a new deal and new bot seeds; its person seats wait for their players
    (:meth:`Store.claim_again`), and it starts by itself once they are in."""
    players = [
        PlayerInfo(s.name, "human" if s.kind == "person" else (s.level or "medium"))
        for s in row.seats
    ]
    record = new_record(row.game, players, row.header.get("variant"))
    seats = [
        SeatPlan(s.kind, s.name, s.level if s.kind == "bot" else None, s.account_id)
        for s in row.seats
    ]
    return MatchPlan(
        record, seats, None, dict(row.options), row.public, start=False, rated=row.rated
    )


def record_header(record: GameRecord) -> dict[str, Any]:
    """What ``matches.header`` stores: the record without its actions and result."""
    data = record.to_json()
    data.pop("actions", None)
    data.pop("result", None)
    return data
