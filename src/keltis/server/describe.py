"""What clients are told about a match: its public description (seats, options, the turn
clock), a snapshot for a (re)connecting client and each step as every seat may see it.

Nothing here reads the database or changes a match: these build the JSON of wire.md and
docs/server.md from what a :class:`~keltis.server.livematch.LiveMatch` (or a stored
:class:`~keltis.server.store.MatchRow`) holds. Hidden cards stay hidden: each seat's view is
the match's own ``view(seat)``, each step its ``to_json(seat)``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import orjson

from keltis.match import Match, Step
from keltis.server import clocks, vacation
from keltis.server.config import ServerConfig
from keltis.server.livematch import SNAPSHOT_LOG, LiveMatch
from keltis.server.ratings import aborted
from keltis.server.store import MatchRow, now


def turn_seconds(options: dict[str, Any]) -> int | None:
    """The match's time for each decision in seconds, or ``None`` (no turn clock)."""
    seconds = options.get("turn_seconds")
    return seconds if type(seconds) is int and seconds > 0 else None


def hints_on(row: MatchRow) -> bool:
    """Whether the match offers hints (docs/server.md, "Hints"): created with them, not
    rated, and either with one person seat (every other seat is a bot) or with every person
    having agreed to them — created with ``"hints": true`` and other person seats
    (``hints_agreed``), which whoever joins is shown and agrees to by joining."""
    options = row.options
    if not options.get("hints", True) or row.rated or options.get("rated"):
        return False
    people = sum(s.kind == "person" for s in row.seats)
    return people <= 1 or bool(options.get("hints_agreed"))


def turn_clock(row: MatchRow, match: Match | None = None) -> dict[str, Any] | None:
    """The turn clock of the decision now due, or ``None`` where none runs (no limit, the
    match not running, a bot or a stand-in to move, a correspondence seat's player on
    vacation): ``seconds`` (the limit), ``seat`` (who
    must decide), ``deadline`` (ISO 8601, UTC), ``remaining`` (seconds left as this is
    said, 0 once out) and ``expired``; with a time control (:mod:`keltis.server.clocks`)
    ``seconds`` is its decision time, ``bank`` the seat's bank and ``deadline`` includes
    the bank."""
    decision = clocks.decision_seconds(row.options)
    seconds = turn_seconds(row.options) if decision is None else decision
    to_move = row.to_move if match is None else match.to_move
    over = row.status != "running" or (match is not None and match.over)
    if seconds is None or over or row.turn_since is None or not 0 <= to_move < len(row.seats):
        return None
    seat = row.seats[to_move]
    if seat.kind != "person" or seat.stand_in is not None:
        return None
    if _vacation(row, seat.account_id) is not None:
        return None  # its player is on vacation: a correspondence clock stands still
    bank = None if decision is None else seat.bank
    deadline = clocks.deadline(row.turn_since, seconds, bank)
    remaining = max(0.0, (deadline - now()).total_seconds())
    return {
        "seconds": seconds,
        "seat": to_move,
        "deadline": deadline.isoformat(),
        "remaining": round(remaining, 1),
        "expired": remaining <= 0,
        "bank": None if bank is None else round(bank, 1),
    }


def match_summary(
    row: MatchRow, config: ServerConfig, match: Match | None = None
) -> dict[str, Any]:
    """A match's public description: game, status, seats (names, bots, who is away), options,
    the ply and, once over, the result. Never a token, an invite or a hidden card."""
    away_before = now() - timedelta(seconds=config.away_after)
    header = row.header
    return {
        "id": row.id,
        "game": row.game,
        "status": row.status,
        "players": len(row.seats),
        "rated": row.rated,
        # a rated match over in which a person seat never moved: no rating changed
        "aborted": aborted(row),
        "variant": header.get("variant", {}),
        "options": {
            "hints": hints_on(row),
            # hints between people, agreed to by everyone who joined (never rated)
            "hints_agreed": hints_on(row) and bool(row.options.get("hints_agreed")),
            "undo": bool(row.options.get("undo", True))
            and sum(s.kind != "bot" for s in row.seats) == 1,
            "turn_seconds": turn_seconds(row.options),
            # a time control, with what happens to a seat out of time (clocks.py)
            "time": clocks.described(row.options),
        },
        "version": row.ply if match is None else match.ply,
        "to_move": None
        if row.status != "running"
        else row.to_move
        if match is None
        else (match.to_move),
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "level": s.level,
                "joined": s.joined,
                "stand_in": s.stand_in,
                "bank": None if s.bank is None else round(s.bank, 1),
                "timed_out": s.timed_out,
                "stood_in": s.stood_in,
                "account": s.account_id is not None,
                "away": s.kind == "person"
                and s.joined
                and (s.last_seen is None or s.last_seen <= away_before),
                # until when its account is on vacation (a correspondence match's clock
                # stops for it: keltis.server.vacation); only a date, nothing hidden
                "vacation": _vacation(row, s.account_id),
            }
            for s in row.seats
        ],
        "result": row.result,
        "clock": turn_clock(row, match),
        "next": row.next_match,
        "previous": row.previous_match,
        # seats that said no to playing it again (each cancelled that next match)
        "rematch": [a.to_json() for a in row.answers],
        "created": row.created_at.isoformat(),
        "updated": row.updated_at.isoformat(),
    }


def _vacation(row: MatchRow, account_id: str | None) -> str | None:
    """Until when the account of a seat of a correspondence match is on vacation."""
    if account_id is None or not clocks.is_correspondence(row.options):
        return None
    until = vacation.BOOK.until(account_id)
    return None if until is None else until.isoformat()


def live_summary(live: LiveMatch, config: ServerConfig) -> dict[str, Any]:
    """A live match's public description (:func:`match_summary`), with who is connected
    here."""
    summary = match_summary(live.row, config, live.match)
    here = {c.seat for c in live.clients}
    for seat in summary["seats"]:
        seat["connected"] = seat["seat"] in here
    return summary


def snapshot(live: LiveMatch, seat: int | None, config: ServerConfig) -> dict[str, Any]:
    """Everything a (re)connecting client of ``seat`` needs: the match, its own view, the
    recent log."""
    return {
        "type": "snapshot",
        "version": live.match.ply,
        "seat": seat,
        "match": live_summary(live, config),
        "view": live.match.view(seat).to_json(),
        "log": [s.to_json(seat) for s in live.steps[-SNAPSHOT_LOG:]],
        "result": live.match.record.result,
    }


def step_messages(
    live: LiveMatch, step: Step, seats: set[int | None]
) -> dict[int | None, dict[str, Any]]:
    """Per receiving seat: ``step`` as it may see it, with its view of the position right
    after ``step`` (which must be the match's current position)."""
    clock = turn_clock(live.row, live.match)
    return {
        seat: {
            "type": "step",
            "version": step.ply,
            "step": step.to_json(seat),
            "view": live.match.view(seat).to_json(),
            "result": live.match.record.result,
            "clock": clock,
        }
        for seat in seats
    }


def presence_message(live: LiveMatch, config: ServerConfig) -> dict[str, Any]:
    """The ``match`` message: the description again, after a seat's player came or went."""
    return {"type": "match", "version": live.match.ply, "match": live_summary(live, config)}


def dumps(message: dict[str, Any]) -> str:
    """A message's JSON text, compact and in UTF-8 as it goes out (orjson: the event loop
    writes every live message of every client, and the standard library's encoder took
    about a quarter of its time under load; docs/server.md, "Load")."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
