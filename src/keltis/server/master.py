"""The match service (the "match master"): everything done to a match, whoever asks — the
HTTP API's routes and the live WebSocket's sessions call the same methods.

The lobby: a new match stored with its seats, its secrets minted here (the host's token, the
creator's seat token, one invite code per other person seat) and the links to share; a seat
taken with its invite; the match started; played again. Play: a person's action validated by
the engine, stored, then told to everyone; moves taken back; hints; seats handed to a bot and
taken back; the bots' turns (:mod:`keltis.server.bots`). Each change to a live match is made
under its lock; the database is the authority (:mod:`keltis.server.cache`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import sqlalchemy as sa

from keltis.match import GameOverError, NotYourTurnError, StaleActionError, Step
from keltis.names import reserved_name
from keltis.server import clocks, describe, workers
from keltis.server.accounts import Account, AccountStore
from keltis.server.answers import RefusedError
from keltis.server.bodies import MAX_NAME
from keltis.server.bots import BotTurns
from keltis.server.cache import MatchCache, StepMessages
from keltis.server.chat import ChatRoom
from keltis.server.config import ServerConfig
from keltis.server.livematch import Client, LiveMatch
from keltis.server.lobby import MatchPlan, name_ok, plan_again, record_header
from keltis.server.mail import Mailer
from keltis.server.moderation import Moderation
from keltis.server.ratings import RatingBook
from keltis.server.store import (
    Answered,
    ConflictError,
    MatchRow,
    SeatedTwiceError,
    Store,
    now,
)
from keltis.server.tasks import Background

log = logging.getLogger("keltis.server")


def new_secret() -> str:
    """An unguessable token (192 bits): a seat's or the host's."""
    return secrets.token_urlsafe(24)


def new_match_id() -> str:
    """A new match's id (72 bits): public, in links and addresses."""
    return secrets.token_urlsafe(9)


def new_invite() -> str:
    """An invite code (96 bits), used once to take a seat."""
    return secrets.token_urlsafe(12)


@dataclass(frozen=True)
class Invite:
    """A person seat waiting for its player: the ``code`` and the ``link`` to share."""

    seat: int
    code: str
    link: str


@dataclass(frozen=True)
class Created:
    """A new match and its secrets: the ``host_token`` (to start it), the creator's ``seat``
    and seat ``token`` (``None``: the creator only hosts), the ``invites`` and the
    spectators' ``watch`` link."""

    live: LiveMatch
    host_token: str
    seat: int | None
    token: str | None
    invites: list[Invite]
    watch: str


class MatchMaster:
    """The match service of one server process: its matches (:attr:`cache`), its bots'
    turns (:attr:`bots`) and the database (:attr:`store`)."""

    def __init__(
        self,
        store: Store,
        config: ServerConfig,
        pool: workers.WorkerPool,
        background: Background,
    ) -> None:
        self.store = store
        self.config = config
        self.pool = pool
        self.cache = MatchCache(store, config)
        self.background = background
        self.accounts = AccountStore(store.engine)
        self.chat = ChatRoom(store, self.cache)
        self.ratings = RatingBook(store.engine)
        self.moderation = Moderation(store.engine, self.accounts)
        self.bots = BotTurns(config, pool, background, self._submit)
        self.mailer = Mailer(store.engine, config, self.accounts, background)

    # -- matches and seats -----------------------------------------------------------------

    async def get(self, match_id: str) -> LiveMatch:
        """The live match ``match_id``; :class:`RefusedError` (``server.no_match``, 404) if
        there is none."""
        return await self.cache.get(match_id)

    async def finished_record(self, match_id: str) -> dict[str, Any]:
        """The finished match ``match_id``'s record JSON, as ``GET …/record`` gives it (what
        its review reviews)."""
        live = await self.get(match_id)
        if not live.match.over:
            raise RefusedError("server.review_not_finished")
        return live.match.record.to_json()

    def summary(self, live: LiveMatch) -> dict[str, Any]:
        """The match's public description (no secrets), with who is connected here."""
        return self.cache.summary(live)

    async def list_public(self, status: str, limit: int) -> list[dict[str, Any]]:
        """The public matches with ``status``, most recently changed first."""
        rows = await asyncio.to_thread(self.store.list_matches, status, limit, True)
        return [describe.match_summary(r, self.config) for r in rows]

    async def seat_for_token(self, match_id: str, token: str) -> int | None:
        """The seat of match ``match_id`` that ``token`` opens, if any."""
        return await asyncio.to_thread(self._seat_for_token, match_id, token)

    def _seat_for_token(self, match_id: str, token: str) -> int | None:
        """:meth:`seat_for_token` in a worker thread: the seat's own token, or — for a seat
        an account plays — the token derived for the account's current generation
        (:meth:`AccountStore.derived_seat`)."""
        seat = self.store.seat_for_token(match_id, token)
        if seat is not None:
            return seat
        return self.accounts.derived_seat(match_id, token)

    async def seat_of(self, live: LiveMatch, token: str | None) -> int:
        """The seat ``token`` opens (a refusal: 401 without a token, 403 with a wrong one)."""
        if token is None:
            raise RefusedError("server.bad_token", status=401)
        seat = await self.seat_for_token(live.id, token)
        if seat is None:
            raise RefusedError("server.bad_token", status=403)
        return seat

    # -- the lobby -------------------------------------------------------------------------

    async def create(
        self,
        plan: MatchPlan,
        within: Callable[[sa.Connection, str], None] | None = None,
        address: str | None = None,
    ) -> Created:
        """Store the match ``plan`` describes, minting its secrets; it starts at once if it
        is to and no other person is to join. A seat an account plays gets the token
        derived for it (:meth:`AccountStore.seat_token`). ``within``: run first in the
        transaction that stores the match (a lobby seek's claim, :mod:`keltis.server.seeks`;
        its :class:`ConflictError` stores nothing and is raised here). ``address``: the
        creator's client address, kept with the creator's seat."""
        match_id, host = new_match_id(), new_secret()
        base = self.config.public_url
        rows: list[dict[str, Any]] = []
        token = None
        invites: list[Invite] = []
        for number, seat in enumerate(plan.seats):
            row = seat.row()
            if seat.kind == "person" and seat.account_id is not None:
                row["token"] = self.accounts.seat_token(match_id, number, seat.account_id)
                if number == plan.creator:
                    token = row["token"]
            elif seat.kind == "person" and number == plan.creator:
                row["token"] = token = new_secret()
            elif seat.kind == "person":
                row["invite"] = code = new_invite()
                invites.append(Invite(number, code, f"{base}/#/join/{match_id}/{code}"))
            if number == plan.creator and address is not None:
                row["address"] = address
            rows.append(row)
        await asyncio.to_thread(
            self.store.create_match,
            match_id,
            plan.game,
            record_header(plan.record),
            plan.options,
            host,
            plan.public,
            rows,
            rated=plan.rated,
            within=within,
        )
        live = await self.get(match_id)
        if plan.start and not invites:
            await self._start(live)
        return Created(live, host, plan.creator, token, invites, f"{base}/#/watch/{match_id}")

    async def join(
        self,
        match_id: str,
        invite: str,
        name: str,
        account: Account | None = None,
        address: str | None = None,
    ) -> tuple[LiveMatch, int, str]:
        """Take the seat of ``invite`` under ``name`` (a logged-in ``account``: under its
        own name, and the seat is the account's): the match, the seat and its new token.
        A rated match's seats are for accounts only, a different one in each seat
        (``server.rated_twice``, 403); an account never joins a match of an account with
        which a block stands (``block.play``, 403). ``address``: the client's, kept with
        the seat."""
        live = await self.get(match_id)
        if account is not None:
            name = account.name
            others = {s.account_id for s in live.row.seats if s.account_id is not None}
            blocked: bool = await asyncio.to_thread(
                self.moderation.blocked_between, account.id, others
            )
            if blocked:
                raise RefusedError("block.play", status=403)
        elif live.row.rated:
            raise RefusedError("account.rated_needs_account", status=403)
        if not name_ok(name):
            raise RefusedError("server.bad_name", status=400, limit=MAX_NAME)
        if reserved_name(name):
            raise RefusedError("server.reserved_name", status=400)
        token = new_secret()
        account_id = None
        if account is not None:
            number = await asyncio.to_thread(self.store.seat_for_invite, match_id, invite)
            if number is None:
                raise RefusedError("server.bad_invite", status=403)
            token, account_id = self.accounts.seat_token(match_id, number, account.id), account.id
        try:
            seat = await asyncio.to_thread(
                self.store.claim_seat,
                match_id,
                invite,
                token,
                name,
                account_id,
                address,
                live.row.rated,
            )
        except SeatedTwiceError:
            raise RefusedError("server.rated_twice", status=403) from None
        if seat is None:
            raise RefusedError("server.bad_invite", status=403)
        await self.seats_changed(live)
        return live, seat, token

    async def start(self, match_id: str, host_token: str | None) -> LiveMatch:
        """Start the match (``host_token``: the host's; every person seat must be taken)."""
        live = await self.get(match_id)
        if host_token is None or not await asyncio.to_thread(
            self.store.is_host, match_id, host_token
        ):
            raise RefusedError("server.not_host", status=403)
        await self.seats_changed(live)
        if live.row.status != "open":
            raise RefusedError("server.already_started")
        free = [s.seat + 1 for s in live.row.seats if not s.joined]
        if free:
            raise RefusedError("server.seats_empty", seats=", ".join(map(str, free)))
        await self._start(live)
        return live

    async def play_again(self, match_id: str, token: str | None) -> tuple[LiveMatch, int, str]:
        """The seat of ``token`` in the match that plays finished match ``match_id`` again
        (created by the first player to ask): the next match, the seat and its new token.
        It starts once every person is in."""
        live = await self.get(match_id)
        seat = await self.seat_of(live, token)
        if live.row.status != "finished":
            raise RefusedError("server.not_finished")
        await self.seats_changed(live)  # a next match cancelled elsewhere is named no more
        next_id = live.row.next_match
        if next_id is None:
            next_id = new_match_id()
            try:
                await asyncio.to_thread(self._store_next, live.row, next_id)
            except ConflictError:  # another player asked at the same moment: theirs it is
                await self.seats_changed(live)
                next_id = live.row.next_match
                if next_id is None:  # not theirs: the match is no longer over
                    raise RefusedError("server.not_finished") from None
        account_id = live.row.seats[seat].account_id
        new_token = (
            new_secret()
            if account_id is None
            else self.accounts.seat_token(next_id, seat, account_id)
        )
        if not await asyncio.to_thread(self.store.claim_again, next_id, seat, new_token):
            raise RefusedError("server.again_taken")
        following = await self.get(next_id)
        await self.seats_changed(following)
        if following.row.status == "open" and all(s.joined for s in following.row.seats):
            await self._start(following)
        await self.seats_changed(live)  # the others see the next match
        return following, seat, new_token

    async def decline_again(self, match_id: str, token: str | None) -> tuple[LiveMatch, Answered]:
        """The seat of ``token`` in finished match ``match_id`` says no to playing it again
        (:meth:`Store.answer_again`): the player waiting in the next match withdraws, one
        asked declines; either way that next match is cancelled, and the match names none
        again. Everyone on either match's page is told (here, and through the database's
        notice in the other processes); the accounts of the other seats get a notice."""
        live = await self.get(match_id)
        seat = await self.seat_of(live, token)
        answered = await asyncio.to_thread(self.store.answer_again, match_id, seat)
        if answered.refusal is not None:
            raise RefusedError(answered.refusal)
        if not answered.repeated:
            following = self.cache.live.get(answered.next_match)
            if following is not None:
                await self.seats_changed(following)
        await self.seats_changed(live)
        return live, answered

    def _store_next(self, row: MatchRow, next_id: str) -> None:
        """Store the match that plays ``row`` again as ``next_id`` (thread); its host token
        is thrown away (it starts by itself)."""
        plan = plan_again(row)
        self.store.create_match(
            next_id,
            row.game,
            record_header(plan.record),
            plan.options,
            new_secret(),
            plan.public,
            [s.row() for s in plan.seats],
            previous=row.id,
            rated=plan.rated,
        )

    async def _start(self, live: LiveMatch) -> None:
        await asyncio.to_thread(self.store.start, live.id, live.match.to_move)
        await self.seats_changed(live)
        self._turn_mail(live, None)

    # -- clients ---------------------------------------------------------------------------

    async def arrive(self, live: LiveMatch, client: Client) -> None:
        """A client connects to ``live``: it gets a snapshot, and the others hear that a
        seat's player came."""
        if client.seat is not None:
            await asyncio.to_thread(self.store.touch_seats, live.id, [client.seat])
        async with live.lock:  # no step is missed or told twice between snapshot and updates
            arrived = client.seat is not None and not live.present(client.seat)
            live.clients.add(client)
            client.send(await self.cache.snapshot(live, client.seat))
            if arrived:
                self.cache.presence_changed(live)

    async def leave(self, live: LiveMatch, client: Client) -> None:
        """A client's connection ended: the others hear if its seat's player is gone."""
        live.clients.discard(client)
        if client.seat is not None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.touch_seats, live.id, [client.seat])
            if not live.present(client.seat):
                self.cache.presence_changed(live)

    async def resync(self, live: LiveMatch, client: Client) -> None:
        """A fresh snapshot to ``client`` (queued under the lock: no step is missed or told
        twice)."""
        async with live.lock:
            client.send(await self.cache.snapshot(live, client.seat))

    async def snapshot(self, live: LiveMatch, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) sees now: a snapshot message."""
        async with live.lock:
            return await self.cache.snapshot(live, seat)

    # -- play ------------------------------------------------------------------------------

    async def act(
        self,
        live: LiveMatch,
        seat: int,
        action: str | int,
        version: int,
        address: str | None = None,
    ) -> Step:
        """A person's action for ``seat`` chosen at ``version``: validated by the engine,
        stored, then told to everyone. Raises the engine's or the match's refusal, or
        :class:`RefusedError`. The seat's first move of its player's own is marked with
        the action (``address``: the client's, kept with it; a rated match in which a
        person seat never moved is aborted, :func:`keltis.server.ratings.aborted`)."""
        async with live.lock:
            if live.row.status in ("open", "cancelled"):
                raise RefusedError("server.not_started")
            if live.row.seats[seat].timed_out:
                raise RefusedError("server.timed_out")
            if live.row.seats[seat].stand_in is not None:
                raise RefusedError("server.stand_in")
            live.acting = (seat, address)
            try:
                step = await self._submit(live, seat, action, version)
            finally:
                live.acting = None
            self.bots.drive(live)
            return step

    async def _submit(self, live: LiveMatch, seat: int, action: str | int, version: int) -> Step:
        """Apply, store and tell every client (the caller holds the lock): one trip to a
        worker thread for the engine, the database and the messages. A conflict with another
        process: catch up and refuse as stale."""
        seats = {c.seat for c in live.clients}

        def apply() -> tuple[Step, StepMessages]:
            step = live.match.submit(seat, action, version)
            return step, describe.step_messages(live, step, seats)

        try:
            step, messages = await asyncio.to_thread(apply)
        except ConflictError as conflict:
            log.info("match %s: %s", live.id, conflict.__cause__ or conflict)
            await self.cache.catch_up(live)
            raise _stale(live, version) from None
        live.remember(step)
        live.row.ply = step.ply
        if live.match.over:
            live.row.status = "finished"
            live.row.result = live.match.record.result
            if live.row.rated:
                self.background.spawn(self.rate(live.id))
        for client in list(live.clients):
            client.send(messages[client.seat])
        self._turn_mail(live, seat)
        return step

    def _turn_mail(self, live: LiveMatch, acted: int | None) -> None:
        """In a correspondence match, a decision now due for a person (the match started,
        or the turn passed from seat ``acted`` to another) is e-mailed to the account
        playing that seat (:mod:`keltis.server.mail`, in the background). A decision that
        follows the player's own is not: they are there."""
        if not self.mailer.enabled or not clocks.is_correspondence(live.row.options):
            return
        if live.row.status != "running" or live.match.over:
            return
        seat = live.match.to_move
        row = live.row.seats[seat]
        if seat != acted and row.kind == "person" and row.stand_in is None and row.account_id:
            self.mailer.turn_due(live.id, live.match.ply, seat)

    async def hints(self, live: LiveMatch, seat: int, version: int) -> list[dict[str, object]]:
        """Hints for ``seat`` at ``version`` (it must be that seat's turn): only in a match
        created with hints where every other seat is a bot, or whose people all agreed to
        them (:func:`describe.hints_on`)."""
        if not describe.hints_on(live.row):
            people = sum(s.kind == "person" for s in live.row.seats)
            raise RefusedError("server.hints_people" if people > 1 else "server.no_hints")
        _check_position(live, version)
        if seat != live.match.to_move:
            raise NotYourTurnError(key="not_your_turn", params={"owner": live.match.to_move})
        record = live.match.record.to_json()
        result: list[dict[str, object]] = await self.pool.run(
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
                await self.cache.catch_up(live)
                raise _stale(live, version) from None
            live.forget_after(target)
            live.row.ply, live.row.to_move = target, live.match.to_move
            await self.cache.send_snapshots(live)
            return target

    async def seats_revoked(self, account_id: str) -> None:
        """The account's seat tokens changed (:meth:`AccountStore.revoke_seats`): its
        players' live connections here close (code 4001: their token opens nothing now; a
        logged-in client finds the new one in ``GET /api/me/matches``), and the other
        processes are told to do the same."""
        self.close_seats_of(account_id)
        await asyncio.to_thread(self.store.notify, f"{account_id}:revoke")

    async def revoked_elsewhere(self, account_id: str) -> None:
        """Another process changed the account's seat tokens (its notification)."""
        self.close_seats_of(account_id)

    async def watch_tokens(self, interval: float) -> None:
        """Every ``interval`` seconds, :meth:`check_tokens` (what no notification tells:
        SQLite's other processes, ``keltis admin``)."""
        while True:
            await asyncio.sleep(interval)
            try:
                await self.check_tokens()
            except Exception:
                log.exception("could not check the live seats' tokens")

    async def check_tokens(self) -> None:
        """Close the live connections here whose seat's token opens that seat no more (its
        account's tokens were revoked, in any process): one query for all of them."""
        held = [
            (live, client)
            for live in list(self.cache.live.values())
            for client in list(live.clients)
            if client.seat is not None and client.token is not None
        ]
        if not held:
            return
        asked = [(live.id, client.seat or 0, client.token or "") for live, client in held]
        valid = await asyncio.to_thread(self.accounts.valid_seat_tokens, asked)
        for (_live, client), ok in zip(held, valid, strict=True):
            if not ok and client.close is not None:
                client.close(4001, "seat token revoked")

    def close_seats_of(self, account_id: str) -> None:
        """Close this process's live connections of the seats ``account_id`` plays."""
        for live in list(self.cache.live.values()):
            seats = {
                number
                for number, seat in enumerate(live.row.seats)
                if seat.account_id == account_id
            }
            for client in list(live.clients):
                if client.seat in seats and client.close is not None:
                    client.close(4001, "seat token revoked")

    async def renamed(self, match_ids: list[str]) -> None:
        """Seats of these matches were renamed (an account deleted): the other processes
        are told, and this one's live matches re-read them (their records and clients
        take the new names)."""
        await asyncio.to_thread(self.store.seats_renamed, match_ids)
        for match_id in match_ids:
            live = self.cache.live.get(match_id)
            if live is not None:
                await self.seats_changed(live)

    # -- ratings ---------------------------------------------------------------------------

    async def rate(self, match_id: str) -> None:
        """Rate the finished rated match ``match_id`` (once, whoever else tries: the
        ratings' transaction claims it)."""
        row = await asyncio.to_thread(self.store.get_match, match_id)
        if row is not None:
            await asyncio.to_thread(self.ratings.rate, row)

    async def rate_pending(self) -> None:
        """Rate the finished rated matches left unrated (their process stopped first)."""
        for match_id in await asyncio.to_thread(self.ratings.unrated):
            try:
                await self.rate(match_id)
            except Exception:
                log.exception("could not rate match %s", match_id)

    # -- stand-ins and seat changes --------------------------------------------------------

    async def stand_in(self, live: LiveMatch, seat: int) -> None:
        """Hand ``seat`` to a bot: its player has been away for ``away_after`` seconds, or
        (in a match with a turn clock) is to move and out of time. Never in a match with a
        time control: there the clock alone decides (``server.clock_decides``), and a seat
        goes to a bot only when its time runs out (:class:`keltis.server.upkeep.Timeouts`).
        In a rated match a seat a bot stood in for ranks last."""
        if not 0 <= seat < len(live.row.seats):
            raise RefusedError("server.no_seat", seat=seat)
        if clocks.control(live.row.options) is not None:
            raise RefusedError("server.clock_decides", name=live.seat_name(seat))
        when = now()
        away_before = None
        if not live.present(seat):
            away_before = when - timedelta(seconds=self.config.away_after)
        limit = describe.turn_seconds(live.row.options)
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
        """The player of ``seat`` takes it back from the bot standing in (not a seat that
        ran out of time: the bot plays it to the end)."""
        if not await asyncio.to_thread(self.store.set_stand_in, live.id, seat, None, None):
            await self.seats_changed(live)
            if live.row.seats[seat].timed_out:
                raise RefusedError("server.timed_out")
            raise RefusedError("server.no_stand_in")
        await self.seats_changed(live)

    async def seats_changed(self, live: LiveMatch) -> None:
        """Seats or status changed in the database: re-read, tell everyone, drive bots."""
        async with live.lock:
            await self.cache.catch_up(live)
            self.bots.drive(live)

    async def resume(self, match_id: str) -> None:
        """Catch match ``match_id`` up with the database and let its bots move (the sweep,
        for a match whose bot is to move and nobody moves it)."""
        await self.seats_changed(await self.get(match_id))


def _stale(live: LiveMatch, version: int) -> StaleActionError:
    """The refusal of a request chosen at ``version`` when the match is elsewhere."""
    return StaleActionError(key="stale_action", params={"expected": version, "ply": live.match.ply})


def _check_position(live: LiveMatch, version: int) -> None:
    """Refuse a request about a match that has not started (or never will: cancelled) or is
    over, or chosen at another version than the match's."""
    if live.row.status in ("open", "cancelled"):
        raise RefusedError("server.not_started")
    if live.match.over:
        raise GameOverError(key="game_over")
    if version != live.match.ply:
        raise _stale(live, version)
