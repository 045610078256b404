"""Live play: the matches this process serves, their connected clients, bots and presence.

Each match a client watches (or a bot plays) is cached here as a :class:`LiveMatch`: the
stored record replayed into a :class:`~keltis.match.Match`, its steps, its clients and an
:class:`asyncio.Lock` that orders everything done to it in this process. The database stays
the authority: an action is applied to the match in a worker thread, whose ``on_action`` hook
stores it (:meth:`Store.append_action`) before anyone is told; if another process stored an
action for that ply first, the hook's :class:`ConflictError` undoes it, the match catches up from
the database and the sender is told its action was stale. What other processes store reaches
this one as a PostgreSQL notification (:meth:`Hub.listen`) — or, on any database, by the
periodic sweep for matches whose bot is to move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import unicodedata
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from keltis.core.errors import KeltisError
from keltis.i18n import Translator
from keltis.match import GameOverError, Match, NotYourTurnError, StaleActionError, Step
from keltis.record import GameRecord
from keltis.server import workers
from keltis.server.config import ServerConfig
from keltis.server.store import ConflictError, MatchRow, Store, now

log = logging.getLogger("keltis.server")

#: How many recent steps a snapshot carries for the game log.
SNAPSHOT_LOG = 40

#: What a match id can be (the server makes them with ``secrets.token_urlsafe(9)``): any
#: other is unknown without asking the database (PostgreSQL text cannot even hold a NUL).
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def printable(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters, its control characters and lone surrogates
    each shown as U+FFFD: safe to repeat in a message."""
    return "".join("\ufffd" if unicodedata.category(c) in ("Cc", "Cs") else c for c in text[:limit])


class RefusedError(Exception):
    """A client's request is refused: ``key`` (a message key) and ``params`` word it."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def text(self, translate: Translator) -> str:
        """The reason in the client's language."""
        return translate(self.key, **self.params)


@dataclass(eq=False)
class Client:
    """One WebSocket connection: a seat's player or a spectator (``seat`` is ``None``)."""

    seat: int | None
    lang: str
    send: Callable[[dict[str, Any]], None]
    """Queue a message to this client (never blocks; a client that cannot keep up is
    dropped by its sender)."""

    @property
    def translate(self) -> Translator:
        return Translator(self.lang)


@dataclass(eq=False)
class LiveMatch:
    """A match as this process serves it."""

    row: MatchRow
    match: Match
    steps: list[Step]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: set[Client] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None

    @property
    def id(self) -> str:
        return self.row.id

    def remember(self, step: Step) -> None:
        """Keep ``step`` for the snapshots' log: the last :data:`SNAPSHOT_LOG` only (a
        long game's every step, held for hundreds of matches, made the garbage collector's
        full passes pause the server for a fifth of a second)."""
        self.steps.append(step)
        if len(self.steps) >= 2 * SNAPSHOT_LOG:
            del self.steps[:-SNAPSHOT_LOG]

    def forget_after(self, ply: int) -> None:
        """Drop the steps after ``ply`` (moves taken back)."""
        self.steps = [s for s in self.steps if s.ply <= ply]

    def seat_name(self, seat: int) -> str:
        return self.row.seats[seat].name


def record_header(record: GameRecord) -> dict[str, Any]:
    """What ``matches.header`` stores: the record without its actions and result."""
    data = record.to_json()
    data.pop("actions", None)
    data.pop("result", None)
    return data


def new_secret() -> str:
    """An unguessable token (192 bits)."""
    return secrets.token_urlsafe(24)


class Hub:
    """The live matches of this process, and the work that keeps them moving."""

    def __init__(self, store: Store, config: ServerConfig, pool: Executor) -> None:
        self.store = store
        self.config = config
        self.pool = pool
        self.live: dict[str, LiveMatch] = {}
        self._loading: dict[str, asyncio.Future[LiveMatch]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- loading and catching up -----------------------------------------------------------

    async def get(self, match_id: str) -> LiveMatch:
        """The live match ``match_id`` (loaded from the database on first use); raises
        :class:`RefusedError` (``server.no_match``) if there is none."""
        live = self.live.get(match_id)
        if live is not None:
            return live
        if not MATCH_ID.fullmatch(match_id):
            raise RefusedError("server.no_match", id=printable(match_id))
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
            raise RefusedError("server.no_match", id=match_id)
        record = GameRecord.from_json({**row.header, "actions": []})
        match = Match(record, narrate=True)
        live = LiveMatch(row, match, [])
        _names_to_record(live)
        for stored in self.store.actions_since(match_id, 0):
            live.remember(match.replay_action(stored.notation))
        match.on_action = self._storer(live)
        return live

    def _storer(self, live: LiveMatch) -> Callable[[Match, Step], None]:
        """The match's ``on_action`` hook: store the step, or undo it (ConflictError); the
        next decision's clock starts when it is stored."""

        def store(match: Match, step: Step) -> None:
            result = match.record.result if match.over else None
            live.row.turn_since = self.store.append_action(
                live.id, step.ply, step.seat, str(step.action), match.to_move, result
            )

        return store

    def _catch_up(
        self, live: LiveMatch, seats: set[int | None], compare_all: bool = False
    ) -> tuple[list[dict[int | None, dict[str, Any]]], bool]:
        """Apply what other processes stored since (thread), building each step's messages
        for ``seats`` right after applying it (each with the view of *its* position); also
        re-read the match row. If moves were taken back elsewhere (the stored history is
        shorter, or its action at this match's ply differs — or, with ``compare_all``, any of
        them), the match goes back to where the histories part first. Returns the messages
        and whether seats, status or history changed (then everyone needs a snapshot)."""
        match = live.match
        told = []
        row = self.store.get_match(live.id)
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
        hook, match.on_action = match.on_action, None
        try:
            for stored_action in tail:
                step = match.replay_action(stored_action.notation)
                live.remember(step)
                if not rewound:
                    told.append(self._step_messages(live, step, seats))
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
            )
            live.row = row
            _names_to_record(live)
        return told, changed

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

    # -- telling clients -------------------------------------------------------------------

    def summary(self, live: LiveMatch) -> dict[str, Any]:
        """The match's public description (no secrets), with who is connected here."""
        summary = match_summary(live.row, self.config, live.match)
        here = {c.seat for c in live.clients}
        for seat in summary["seats"]:
            seat["connected"] = seat["seat"] in here
        return summary

    def presence_changed(self, live: LiveMatch) -> None:
        """A seat's player came or went: tell the match's clients (``match`` message)."""
        message = {"type": "match", "version": live.match.ply, "match": self.summary(live)}
        for client in list(live.clients):
            client.send(message)

    def _view_json(self, live: LiveMatch, seat: int | None) -> dict[str, Any]:
        return live.match.view(seat).to_json()

    async def snapshot(self, live: LiveMatch, client: Client) -> dict[str, Any]:
        """Everything a (re)connecting client needs: the match, its own view, the recent
        log."""

        def build() -> dict[str, Any]:
            seat = client.seat
            return {
                "type": "snapshot",
                "version": live.match.ply,
                "seat": seat,
                "match": self.summary(live),
                "view": self._view_json(live, seat),
                "log": [s.to_json(seat) for s in live.steps[-SNAPSHOT_LOG:]],
                "result": live.match.record.result,
            }

        return await asyncio.to_thread(build)

    async def send_snapshots(self, live: LiveMatch) -> None:
        """A fresh snapshot to every client of ``live`` (after seats or status changed)."""
        for client in list(live.clients):
            client.send(await self.snapshot(live, client))

    def _step_messages(
        self, live: LiveMatch, step: Step, seats: set[int | None]
    ) -> dict[int | None, dict[str, Any]]:
        """Per receiving seat: ``step`` as it may see it, with its view of the position
        right after ``step`` (which must be the match's current position)."""
        clock = turn_clock(live.row, live.match)
        return {
            seat: {
                "type": "step",
                "version": step.ply,
                "step": step.to_json(seat),
                "view": self._view_json(live, seat),
                "result": live.match.record.result,
                "clock": clock,
            }
            for seat in seats
        }

    # -- acting ----------------------------------------------------------------------------

    async def act(self, live: LiveMatch, seat: int, action: str | int, version: int) -> Step:
        """A person's action for ``seat`` chosen at ``version``: validated by the engine,
        stored, then told to everyone. Raises the engine's or the match's refusal, or
        :class:`RefusedError`."""
        async with live.lock:
            if live.row.status == "open":
                raise RefusedError("server.not_started")
            if live.row.seats[seat].stand_in is not None:
                raise RefusedError("server.stand_in")
            step = await self._submit(live, seat, action, version)
            self.drive_bots(live)
            return step

    async def _submit(self, live: LiveMatch, seat: int, action: str | int, version: int) -> Step:
        """Apply, store and tell every client (the caller holds the lock): one trip to a
        worker thread for the engine, the database and the messages. A conflict with another
        process: catch up and refuse as stale."""
        seats = {c.seat for c in live.clients}

        def apply() -> tuple[Step, dict[int | None, dict[str, Any]]]:
            step = live.match.submit(seat, action, version)
            return step, self._step_messages(live, step, seats)

        try:
            step, messages = await asyncio.to_thread(apply)
        except ConflictError as conflict:
            log.info("match %s: %s", live.id, conflict.__cause__ or conflict)
            await self.catch_up(live)
            raise StaleActionError(
                key="stale_action", params={"expected": version, "ply": live.match.ply}
            ) from None
        live.remember(step)
        live.row.ply = step.ply
        if live.match.over:
            live.row.status = "finished"
            live.row.result = live.match.record.result
        for client in list(live.clients):
            client.send(messages[client.seat])
        return step

    # -- bots ------------------------------------------------------------------------------

    def drive_bots(self, live: LiveMatch) -> None:
        """If a bot (or a stand-in) is to move in ``live``, start its task (once)."""
        if live.bot_task is not None and not live.bot_task.done():
            return
        if self._bot_level(live) is None:
            return
        live.bot_task = self.spawn(self._drive(live))

    def _bot_level(self, live: LiveMatch) -> str | None:
        if live.row.status != "running" or live.match.over:
            return None
        return live.row.seats[live.match.to_move].bot_level

    async def _drive(self, live: LiveMatch) -> None:
        """Bots move, one after another, while one is to move: each after the configured
        delay, thinking in the worker pool."""
        failures = 0
        while (level := self._bot_level(live)) is not None:
            seat, ply = live.match.to_move, live.match.ply
            if self.config.bot_delay > 0:
                await asyncio.sleep(self.config.bot_delay)
            record = live.match.record.to_json()
            try:
                notation, _seconds = await self._in_pool(workers.choose, record, seat, level)
            except Exception:
                failures += 1
                log.exception("bot of match %s, seat %d failed", live.id, seat)
                if failures >= 3:
                    return  # the sweep tries again later
                continue
            async with live.lock:
                if live.match.ply != ply or self._bot_level(live) != level:
                    continue  # someone moved, or the player took the seat back
                try:
                    await self._submit(live, seat, notation, ply)
                except (StaleActionError, NotYourTurnError):
                    continue  # another process moved first: decide again on the new position
                except KeltisError:
                    failures += 1
                    log.exception("bot of match %s, seat %d chose %r", live.id, seat, notation)
                    if failures >= 3:
                        return

    async def _in_pool(self, function: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.pool, function, *args)
        except BrokenProcessPool:
            log.error("the bot worker pool broke; starting a new one")
            self.pool = workers.make_pool(self.config.bot_workers)
            return await loop.run_in_executor(self.pool, function, *args)

    async def hints(self, live: LiveMatch, seat: int, version: int) -> list[dict[str, object]]:
        """Hints for ``seat`` at ``version`` (it must be that seat's turn)."""
        if not live.row.options.get("hints", True):
            raise RefusedError("server.no_hints")
        _check_position(live, version)
        if seat != live.match.to_move:
            raise NotYourTurnError(key="not_your_turn", params={"owner": live.match.to_move})
        record = live.match.record.to_json()
        result: list[dict[str, object]] = await self._in_pool(
            workers.hint_list, record, seat, self.config.hint_count
        )
        return result

    async def undo(self, live: LiveMatch, seat: int, version: int) -> int:
        """Take back ``seat``'s last decision and what followed (bots' moves): only where the
        match allows it and every other seat is a bot. Returns the new version; everyone gets
        a snapshot."""
        async with live.lock:
            if not live.row.options.get("undo", True):
                raise RefusedError("server.no_undo")
            if any(s.kind != "bot" for s in live.row.seats if s.seat != seat):
                raise RefusedError("server.undo_people")
            _check_position(live, version)
            target = live.match.last_decision(seat)
            if target is None:
                raise RefusedError("msg.undo_nothing")
            ply = live.match.ply

            def take_back() -> None:
                # stored first (the seat to move there is the one that acted there), then
                # the match in memory follows
                live.row.turn_since = self.store.take_back(
                    live.id, ply, target, live.match.actor(target)
                )
                live.match.rewind(target)

            try:
                await asyncio.to_thread(take_back)
            except ConflictError:
                await self.catch_up(live)
                raise StaleActionError(
                    key="stale_action", params={"expected": version, "ply": live.match.ply}
                ) from None
            live.forget_after(target)
            live.row.ply, live.row.to_move = target, live.match.to_move
            await self.send_snapshots(live)
            return target

    # -- presence and stand-ins ------------------------------------------------------------

    async def stand_in(self, live: LiveMatch, seat: int) -> None:
        """Hand ``seat`` to a bot: its player has been away for ``away_after`` seconds, or
        (in a match with a turn clock) is to move and out of time."""
        if not 0 <= seat < len(live.row.seats):
            raise RefusedError("server.no_seat", seat=seat)
        here = any(c.seat == seat for c in live.clients)
        when = now()
        away_before = None if here else when - timedelta(seconds=self.config.away_after)
        limit = turn_seconds(live.row.options)
        late_before = None if limit is None else when - timedelta(seconds=limit)
        ok = await asyncio.to_thread(
            self.store.set_stand_in,
            live.id,
            seat,
            self.config.stand_in_level,
            away_before,
            late_before,
        )
        if not ok:
            raise RefusedError(
                "server.not_away" if limit is None else "server.not_away_or_late",
                name=live.seat_name(seat),
                seconds=round(self.config.away_after),
            )
        await self.seats_changed(live)

    async def reclaim(self, live: LiveMatch, seat: int) -> None:
        """The player of ``seat`` takes it back from the bot standing in."""
        if not await asyncio.to_thread(self.store.set_stand_in, live.id, seat, None, None):
            raise RefusedError("server.no_stand_in")
        await self.seats_changed(live)

    async def seats_changed(self, live: LiveMatch) -> None:
        """Seats or status changed in the database: re-read, tell everyone, drive bots."""
        async with live.lock:
            await self.catch_up(live)
            self.drive_bots(live)

    async def presence(self) -> None:
        """Keep ``last_seen`` fresh for every connected player (so a present player is
        never "away"), every ``presence_interval`` seconds."""
        while True:
            await asyncio.sleep(self.config.presence_interval)
            present = sorted(
                {
                    (live.id, c.seat)
                    for live in list(self.live.values())
                    for c in live.clients
                    if c.seat is not None
                }
            )
            try:
                await asyncio.to_thread(self.store.touch_many, present)
            except Exception:
                log.exception("could not record the players' presence")

    # -- background ------------------------------------------------------------------------

    def spawn(self, coroutine: Any) -> asyncio.Task[Any]:
        """A background task kept alive until done; its failure is logged."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    async def sweep(self, quiet_for: float) -> None:
        """Start the bots of matches waiting for one (after a restart, or when the process
        that should have moved it is gone)."""
        for match_id in await asyncio.to_thread(
            self.store.waiting_for_bots, timedelta(seconds=quiet_for)
        ):
            try:
                live = await self.get(match_id)
                async with live.lock:
                    await self.catch_up(live)
                self.drive_bots(live)
            except Exception:
                log.exception("could not resume match %s", match_id)

    async def sweeper(self) -> None:
        """Sweep at start, then every ``sweep_interval`` seconds."""
        await self.sweep(0)
        while True:
            await asyncio.sleep(self.config.sweep_interval)
            await self.sweep(self.config.bot_delay + self.config.sweep_interval)

    async def notified(self, payload: str) -> None:
        """A process stored something for a match (``<match>:<ply or "seats">:<origin>``):
        catch up if this process serves the match and does not know it yet — its own
        changes it has told its clients of already."""
        match_id, what, origin = ([*payload.split(":"), "", ""])[:3]
        live = self.live.get(match_id)
        if live is None or origin == self.store.origin:
            return
        if what.isdigit() and int(what) <= live.match.ply:
            return
        async with live.lock:
            await self.catch_up(live, compare_all=what == "undo")

    async def listen(self, url: str) -> None:
        """Follow the other processes' changes (PostgreSQL LISTEN), reconnecting when the
        connection drops; after a reconnection every live match catches up."""
        import psycopg

        from keltis.server.store import CHANNEL

        conninfo = _libpq_url(url)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    conninfo, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    for live in list(self.live.values()):
                        self.spawn(self.notified(f"{live.id}:seats:"))
                    async for notice in connection.notifies():
                        self.spawn(self.notified(notice.payload))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lost the PostgreSQL notification connection; reconnecting")
                await asyncio.sleep(1.0)

    async def close(self) -> None:
        """Stop the background tasks."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task


def _check_position(live: LiveMatch, version: int) -> None:
    """Refuse a request about a match that has not started or is over, or chosen at another
    version than the match's."""
    if live.row.status == "open":
        raise RefusedError("server.not_started")
    if live.match.over:
        raise GameOverError(key="game_over")
    if version != live.match.ply:
        raise StaleActionError(
            key="stale_action", params={"expected": version, "ply": live.match.ply}
        )


def _libpq_url(url: str) -> str:
    import sqlalchemy as sa

    parsed = sa.make_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


def _seat_state(row: MatchRow) -> list[tuple[Any, ...]]:
    return [(s.name, s.joined, s.stand_in) for s in row.seats]


def _names_to_record(live: LiveMatch) -> None:
    """The record names each seat's player as the match does now (an invited player's own
    name replaces the "Player N" it was created with)."""
    for seat, player in zip(live.row.seats, live.match.record.players, strict=False):
        player.name = seat.name


def turn_seconds(options: dict[str, Any]) -> int | None:
    """The match's time for each decision in seconds, or ``None`` (no turn clock)."""
    seconds = options.get("turn_seconds")
    return seconds if type(seconds) is int and seconds > 0 else None


def turn_clock(row: MatchRow, match: Match | None = None) -> dict[str, Any] | None:
    """The turn clock of the decision now due, or ``None`` where none runs (no limit, the
    match not running, a bot or a stand-in to move): ``seconds`` (the limit), ``seat`` (who
    must decide), ``deadline`` (ISO 8601, UTC), ``remaining`` (seconds left as this is
    said, 0 once out) and ``expired``."""
    seconds = turn_seconds(row.options)
    to_move = row.to_move if match is None else match.to_move
    over = row.status != "running" or (match is not None and match.over)
    if seconds is None or over or row.turn_since is None or not 0 <= to_move < len(row.seats):
        return None
    seat = row.seats[to_move]
    if seat.kind != "person" or seat.stand_in is not None:
        return None
    deadline = row.turn_since + timedelta(seconds=seconds)
    remaining = max(0.0, (deadline - now()).total_seconds())
    return {
        "seconds": seconds,
        "seat": to_move,
        "deadline": deadline.isoformat(),
        "remaining": round(remaining, 1),
        "expired": remaining <= 0,
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
        "variant": header.get("variant", {}),
        "options": {
            "hints": bool(row.options.get("hints", True)),
            "undo": bool(row.options.get("undo", True))
            and sum(s.kind != "bot" for s in row.seats) == 1,
            "turn_seconds": turn_seconds(row.options),
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
                "away": s.kind == "person"
                and s.joined
                and (s.last_seen is None or s.last_seen <= away_before),
            }
            for s in row.seats
        ],
        "result": row.result,
        "clock": turn_clock(row, match),
        "next": row.next_match,
        "previous": row.previous_match,
        "created": row.created_at.isoformat(),
        "updated": row.updated_at.isoformat(),
    }


def dumps(message: dict[str, Any]) -> str:
    """A message's JSON text."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)
