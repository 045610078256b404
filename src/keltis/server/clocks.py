"""Time controls (docs/server.md, "Time controls"): how long the decision now due may take,
what a slow decision costs the seat's bank, and when the decision runs out of time.

A match's time control is part of its options, ``"time"``: real time
``{"kind": "realtime", "decision": seconds, "bank": seconds}`` or correspondence
``{"kind": "correspondence", "days": days}``, beside ``"on_timeout"`` (what happens to a
seat out of time: a bot plays it on, and in a rated match it ranks last). A decision may take
its ``decision`` time and then the seat's bank: when an action is stored, the bank pays for
what the decision took beyond its time. The stored ``matches.deadline`` is when the decision
now due runs out (the decision's start, its time and the bank of the seat to move); the
server's timeout task (:class:`keltis.server.upkeep.Timeouts`) hands a seat whose deadline
has passed to a bot. Nothing here touches the database: :mod:`keltis.server.store` keeps the
deadline and the banks, :mod:`keltis.server.describe` tells clients.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from keltis.server.bodies import CorrespondenceControl, RealtimeControl

#: The two kinds of time control.
REALTIME, CORRESPONDENCE = "realtime", "correspondence"
#: What happens to a seat out of time: a bot plays it on …
BOT_PLAYS_ON = "bot_plays_on"
#: … and, in a rated match, it ranks last.
BOT_PLAYS_ON_RANKED_LAST = "bot_plays_on_ranked_last"
#: Seconds in a day (a correspondence control's unit).
DAY = 24 * 3600


def time_options(
    time: RealtimeControl | CorrespondenceControl | None, rated: bool
) -> dict[str, Any]:
    """What a new match's options carry of the time control ``time`` (a request's): the
    control as ``"time"`` and ``"on_timeout"``, stated before the match starts; nothing
    without a control."""
    if time is None:
        return {}
    return {
        "time": time.model_dump(),
        "on_timeout": BOT_PLAYS_ON_RANKED_LAST if rated else BOT_PLAYS_ON,
    }


def control(options: dict[str, Any]) -> dict[str, Any] | None:
    """The match's time control (its options' ``"time"``), or ``None`` without one."""
    time = options.get("time")
    if isinstance(time, dict) and time.get("kind") in (REALTIME, CORRESPONDENCE):
        return time
    return None


def is_correspondence(options: dict[str, Any]) -> bool:
    """Whether the match is played by correspondence (days a decision, e-mails)."""
    time = control(options)
    return time is not None and time["kind"] == CORRESPONDENCE


def decision_seconds(options: dict[str, Any]) -> int | None:
    """The time each decision may take before the bank pays (seconds), or ``None``
    without a time control."""
    time = control(options)
    if time is None:
        return None
    if time["kind"] == REALTIME:
        return int(time["decision"])
    return int(time["days"]) * DAY


def initial_bank(options: dict[str, Any]) -> float | None:
    """A person seat's bank when the match is created: a real-time control's ``bank``
    (seconds), else ``None`` (no bank: correspondence, or no time control)."""
    time = control(options)
    if time is None or time["kind"] != REALTIME:
        return None
    return float(time.get("bank", 0))


def on_timeout(options: dict[str, Any]) -> str:
    """What happens to a seat out of time, as the match states it."""
    stated = options.get("on_timeout")
    if stated in (BOT_PLAYS_ON, BOT_PLAYS_ON_RANKED_LAST):
        return str(stated)
    return BOT_PLAYS_ON_RANKED_LAST if options.get("rated", False) else BOT_PLAYS_ON


def described(options: dict[str, Any]) -> dict[str, Any] | None:
    """The time control as a match's description shows it (with ``on_timeout``), or
    ``None``."""
    time = control(options)
    return None if time is None else {**time, "on_timeout": on_timeout(options)}


def charged(bank: float | None, used: float, decision: float) -> float | None:
    """A seat's bank after a decision that took ``used`` seconds of its ``decision`` time:
    the bank pays what went beyond, down to 0 (``None``: no bank)."""
    if bank is None:
        return None
    return max(0.0, bank - max(0.0, used - decision))


def deadline(since: datetime, decision: float, bank: float | None) -> datetime:
    """When a decision begun at ``since`` runs out: its time, then the seat's bank."""
    return since + timedelta(seconds=decision + (bank or 0.0))


def due(
    decision: float | None,
    running: bool,
    since: datetime | None,
    seat: dict[str, Any] | None,
) -> datetime | None:
    """The deadline of the decision now due: ``None`` without a time control, while the
    match is not running, or when no person decides (``seat``: the seat to move, with its
    ``kind``, ``stand_in`` and ``bank``; a bot or a bot standing in has no clock)."""
    if decision is None or not running or since is None or seat is None:
        return None
    if seat["kind"] != "person" or seat["stand_in"] is not None:
        return None
    bank = seat["bank"]
    return deadline(since, decision, None if bank is None else float(bank))
