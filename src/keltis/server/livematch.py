"""A match as this process serves it (:class:`LiveMatch`) and its connected clients
(:class:`Client`).

A live match is the stored record replayed into a :class:`~keltis.match.Match`, its recent
steps (for the snapshots' game log), its clients here, its bots' task and an
:class:`asyncio.Lock` that orders everything done to it in this process.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from keltis.i18n import Translator
from keltis.match import Match, Step
from keltis.server.store import FirstMove, MatchRow

#: How many recent steps a snapshot carries for the game log.
SNAPSHOT_LOG = 40


@dataclass(eq=False)
class Client:
    """One WebSocket connection: a seat's player or a spectator (``seat`` is ``None``)."""

    seat: int | None
    lang: str
    send: Callable[[dict[str, Any]], None]
    """Queue a message to this client (never blocks; a client that cannot keep up is
    dropped by its sender)."""
    chat: str | None = None
    """The chat channel this client hears and speaks on: ``"players"`` (a seat),
    ``"spectators"`` (a logged-in spectator who plays no seat of the match) or ``None``
    (:mod:`keltis.server.chat`)."""
    account_id: str | None = None
    """The account a spectator chats as (``None``: a seat, or a guest): should it take a
    seat of the match later, it hears the spectators' channel no more."""
    close: Callable[[int, str], None] | None = None
    """Close the connection once what is queued for it is out (code, reason)."""
    token: str | None = None
    """The secret token the seat's player said hello with (checked again from time to
    time: an account's old tokens stop working, :meth:`MatchMaster.check_tokens`)."""

    @property
    def translate(self) -> Translator:
        return Translator(self.lang)


@dataclass(eq=False)
class LiveMatch:
    """A match as this process serves it: ``row`` as stored (kept in step), ``match`` in
    memory, the last ``steps``, the ``clients`` connected here."""

    row: MatchRow
    match: Match
    steps: list[Step]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: set[Client] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    acting: tuple[int, str | None] | None = None
    """The person whose own action is being submitted (seat, client address), set by the
    match service around a person's action (never a bot's): their first move is marked."""

    @property
    def id(self) -> str:
        return self.row.id

    def first_move(self, seat: int) -> FirstMove | None:
        """If the action now stored for ``seat`` is its player's first move of their own,
        what the store marks (:class:`FirstMove`); else ``None``."""
        if self.acting is None or self.acting[0] != seat or self.row.seats[seat].moved:
            return None
        return FirstMove(seat, self.acting[1])

    def remember(self, step: Step) -> None:
        """Keep ``step`` for the snapshots' log: the last :data:`SNAPSHOT_LOG` only. A live
        match is held for as long as it is watched, hundreds of them at once: every step
        of every one would lengthen the garbage collector's full passes, which pause the
        whole server."""
        self.steps.append(step)
        if len(self.steps) >= 2 * SNAPSHOT_LOG:
            del self.steps[:-SNAPSHOT_LOG]

    def forget_after(self, ply: int) -> None:
        """Drop the steps after ``ply`` (moves taken back)."""
        self.steps = [s for s in self.steps if s.ply <= ply]

    def seat_name(self, seat: int) -> str:
        return self.row.seats[seat].name

    def name_players(self) -> None:
        """The record names each seat's player as the match does now (an invited player's
        own name replaces the "Player N" it was created with)."""
        for seat, player in zip(self.row.seats, self.match.record.players, strict=False):
            player.name = seat.name

    def present(self, seat: int) -> bool:
        """Whether a client of ``seat`` is connected here."""
        return any(c.seat == seat for c in self.clients)
