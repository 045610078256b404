"""The matches this process serves, kept in step with the database.

Each match a client watches (or a bot plays) is cached here as a
:class:`~keltis.server.livematch.LiveMatch`: loaded once, however many ask at the same time,
and forgotten when idle beyond the cache's size. The database stays the authority: a match's
``on_action`` hook stores each action (:meth:`Store.append_action`) before anyone is told,
and what other processes stored is caught up with (:meth:`MatchCache.catch_up`): applied,
or, where moves were taken back elsewhere, the match goes back to where the histories part.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

from keltis.match import Match, Step
from keltis.record import GameRecord
from keltis.server import clocks, describe
from keltis.server.answers import RefusedError, printable
from keltis.server.config import ServerConfig
from keltis.server.livematch import LiveMatch
from keltis.server.store import MatchRow, Store, StoredAction

#: What a match id can be (the server makes them with ``secrets.token_urlsafe(9)``): any
#: other is unknown without asking the database (PostgreSQL text cannot even hold a NUL).
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")

#: Per receiving seat, one step's message (:func:`describe.step_messages`).
StepMessages = dict[int | None, dict[str, Any]]


class MatchCache:
    """The live matches of this process, by id."""

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.store = store
        self.config = config
        self.live: dict[str, LiveMatch] = {}
        self._loading: dict[str, asyncio.Future[LiveMatch]] = {}

    async def get(self, match_id: str) -> LiveMatch:
        """The live match ``match_id`` (loaded from the database on first use); raises
        :class:`RefusedError` (``server.no_match``, 404) if there is none."""
        live = self.live.get(match_id)
        if live is not None:
            return live
        if not MATCH_ID.fullmatch(match_id):
            raise RefusedError("server.no_match", status=404, id=printable(match_id))
        pending = self._loading.get(match_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveMatch] = asyncio.get_running_loop().create_future()
        self._loading[match_id] = future
        try:
            live = await asyncio.to_thread(self._load, match_id)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: no "never retrieved" warning if nobody waits
            raise
        finally:
            del self._loading[match_id]
        self.live[match_id] = live
        future.set_result(live)
        self._evict()
        return live

    def _load(self, match_id: str) -> LiveMatch:
        row = self.store.get_match(match_id)
        if row is None:
            raise RefusedError("server.no_match", status=404, id=match_id)
        record = GameRecord.from_json({**row.header, "actions": []})
        match = Match(record, narrate=True)
        live = LiveMatch(row, match, [])
        live.name_players()
        for stored in self.store.actions_since(match_id, 0):
            live.remember(match.replay_action(stored.notation))
        match.on_action = self._storer(live)
        return live

    def _storer(self, live: LiveMatch) -> Callable[[Match, Step], None]:
        """The match's ``on_action`` hook: store the step, or undo it (ConflictError); the
        next decision's clock starts when it is stored. With a time control the acting
        seat's bank pays for a slow decision and the next deadline is set
        (:meth:`Store.append_timed`); without one nothing of that is done."""
        decision = clocks.decision_seconds(live.row.options)

        def store(match: Match, step: Step) -> None:
            result = match.record.result if match.over else None
            first = live.first_move(step.seat)  # a person's first move of their own
            if decision is None:
                live.row.turn_since = self.store.append_action(
                    live.id, step.ply, step.seat, str(step.action), match.to_move, result, first
                )
            else:
                timed = self.store.append_timed(
                    live.id,
                    step.ply,
                    step.seat,
                    str(step.action),
                    match.to_move,
                    result,
                    decision,
                    first,
                )
                live.row.turn_since, live.row.deadline = timed.when, timed.deadline
                live.row.seats[step.seat].bank = timed.bank
            if first is not None:
                live.row.seats[step.seat].moved = True

        return store

    def _evict(self) -> None:
        """Forget idle matches beyond the cache size (the database keeps them)."""
        excess = len(self.live) - self.config.cache_matches
        if excess <= 0:
            return
        for match_id, live in list(self.live.items()):
            if excess <= 0:
                break
            busy = live.clients or (live.bot_task and not live.bot_task.done())
            if not busy and not live.lock.locked():
                del self.live[match_id]
                excess -= 1

    # -- catching up with the database -----------------------------------------------------

    async def catch_up(self, live: LiveMatch, compare_all: bool = False) -> None:
        """Bring ``live`` up to the database and tell its clients what changed (the caller
        holds its lock)."""
        told, changed = await asyncio.to_thread(
            self._catch_up, live, {c.seat for c in live.clients}, compare_all
        )
        for messages in told:
            for client in list(live.clients):
                client.send(messages[client.seat])
        if changed:
            await self.send_snapshots(live)

    def _catch_up(
        self, live: LiveMatch, seats: set[int | None], compare_all: bool
    ) -> tuple[list[StepMessages], bool]:
        """Apply what other processes stored since (thread), building each step's messages
        for ``seats`` right after applying it (each with the view of *its* position); also
        re-read the match row. Returns the messages and whether seats, status or history
        changed (then everyone needs a snapshot)."""
        match = live.match
        row = self.store.get_match(live.id)
        rewound, tail = self._part(live, compare_all)
        told = []
        hook, match.on_action = match.on_action, None
        try:
            for stored_action in tail:
                step = match.replay_action(stored_action.notation)
                live.remember(step)
                if not rewound:
                    told.append(describe.step_messages(live, step, seats))
        finally:
            match.on_action = hook
        if match.over:
            live.row.status = "finished"
        changed = rewound
        if row is not None:
            changed |= (
                _seat_state(row) != _seat_state(live.row)
                or row.status != live.row.status
                or row.next_match != live.row.next_match
                or row.answers != live.row.answers
            )
            live.row = row
            live.name_players()
        return told, changed

    def _part(self, live: LiveMatch, compare_all: bool) -> tuple[bool, list[StoredAction]]:
        """Where the stored history and the match's part: if moves were taken back elsewhere
        (the stored history is shorter, or its action at this match's ply differs — or, with
        ``compare_all``, any of them), the match goes back to where they part first. Returns
        whether it went back, and the stored actions it lacks."""
        match = live.match
        ours = match.record.actions
        tail = self.store.actions_since(live.id, max(0, match.ply - 1))
        if match.ply > 0:
            last = tail[0] if tail else None
            parted = last is None or last.ply != match.ply or last.notation != ours[-1]
            tail = tail[1:]
        else:
            parted = False
        rewound = False
        if parted or compare_all:
            stored = [a.notation for a in self.store.actions_since(live.id, 0)]
            same = 0
            while same < min(len(stored), len(ours)) and stored[same] == ours[same]:
                same += 1
            if same < match.ply:
                match.rewind(same)
                live.forget_after(same)
                rewound = True
            tail = self.store.actions_since(live.id, match.ply)
        return rewound, tail

    # -- telling clients -------------------------------------------------------------------

    def summary(self, live: LiveMatch) -> dict[str, Any]:
        """The match's public description (no secrets), with who is connected here."""
        return describe.live_summary(live, self.config)

    async def snapshot(self, live: LiveMatch, seat: int | None) -> dict[str, Any]:
        """A snapshot for a client of ``seat`` (built in a worker thread; the caller holds
        the match's lock)."""
        return await asyncio.to_thread(describe.snapshot, live, seat, self.config)

    async def send_snapshots(self, live: LiveMatch) -> None:
        """A fresh snapshot to every client of ``live`` (after seats or status changed)."""
        for client in list(live.clients):
            client.send(await self.snapshot(live, client.seat))

    def presence_changed(self, live: LiveMatch) -> None:
        """A seat's player came or went: tell the match's clients (``match`` message)."""
        message = describe.presence_message(live, self.config)
        for client in list(live.clients):
            client.send(message)

    def present(self) -> list[tuple[str, int]]:
        """Every (match, seat) whose player is connected here."""
        return sorted(
            {
                (live.id, c.seat)
                for live in list(self.live.values())
                for c in live.clients
                if c.seat is not None
            }
        )


def _seat_state(row: MatchRow) -> list[tuple[Any, ...]]:
    return [(s.name, s.joined, s.stand_in) for s in row.seats]
