"""Chat in a match (docs/server.md, "Chat"): two channels, the players' and the spectators'.

The **players'** channel is for the match's seats; the **spectators'** for spectators who are
logged in. A player never receives the spectators' channel (nobody can whisper hints to a
player), and a spectator never the players'. Every message is one row of the ``chat`` table,
kept with the match.

Telling the clients: a message is stored (one short transaction; on PostgreSQL it sends
``NOTIFY keltis '<match>:chat:<origin>'``, delivered at commit), then each server process that
follows the match — that has live clients of it — reads the rows stored since the last one
it told (:meth:`ChatRoom.deliver`) and sends each to exactly that channel's clients. The
process that stored a message delivers at once; the others when notified. Per match the
inserts are serialised (an advisory lock on PostgreSQL, the one writer on SQLite), so the ids
of a match's messages grow in the order they commit and "the rows after the last id told"
misses none.

A suspended account's messages are stored but never sent, and left out of the history; the
history also leaves out the accounts the reader muted (live messages carry the author's
account name, ``account``, so the client leaves them out too). Between two accounts with a
block (:mod:`keltis.server.moderation`, made by either) nothing is told either way: the
history leaves the other's messages out and the live messages are not sent. An account a
moderator muted is refused (``chat.muted``) until its mute ends. The server stores and
sends plain text, which the client shows as text.
"""

from __future__ import annotations

import asyncio
import time
import zlib
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from keltis.messages import Phrase
from keltis.server import db
from keltis.server.answers import RefusedError
from keltis.server.cache import MatchCache
from keltis.server.livematch import Client, LiveMatch
from keltis.server.moderation import blocked_pairs, muted_until, when_text
from keltis.server.ratelimit import TokenBucket
from keltis.server.store import CHANNEL, Store, _aware, now
from keltis.server.textcheck import refused_character

#: The two channels of a match.
PLAYERS, SPECTATORS = "players", "spectators"
#: A message's length after trimming (characters).
MIN_TEXT, MAX_TEXT = 1, 300
#: Messages one seat or account may send: this many a second on average …
RATE = 1.0
#: … and this many at once.
BURST = 5
#: The most messages the history answers with (the newest).
HISTORY = 200
#: The first key of the PostgreSQL advisory lock that serialises a match's messages (the
#: second is a hash of the match id); the schema's migration uses 74251.
LOCK_KEY = 74252
#: The most messages read at once to tell a process's clients.
CATCH_UP = 1000
#: Rate-limit buckets kept before the idle ones are forgotten.
MAX_BUCKETS = 10_000


@dataclass(frozen=True)
class Speaker:
    """Who sends a message: on ``channel`` as ``seat`` (``None``: a spectator) under ``name``;
    ``account_id`` and ``account`` (its name) where an account writes."""

    channel: str
    seat: int | None
    name: str
    account_id: str | None
    account: str | None


def seat_speaker(live: LiveMatch, seat: int) -> Speaker:
    """Seat ``seat`` of ``live`` speaking on the players' channel (its player's name; the
    account playing it, if one does)."""
    row = live.row.seats[seat]
    account = row.name if row.account_id is not None else None
    return Speaker(PLAYERS, seat, row.name, row.account_id, account)


def seat_of_account(live: LiveMatch, account_id: str) -> int | None:
    """The seat of ``live`` that the account plays, if it plays one: such an account chats
    on the players' channel, never the spectators'."""
    for row in live.row.seats:
        if row.account_id == account_id:
            return row.seat
    return None


def checked_text(text: Any) -> str:
    """The message's text, trimmed: 1 to :data:`MAX_TEXT` characters on one line, without a
    character that no name or chat message holds (:func:`~keltis.server.textcheck.
    refused_character`: control characters, a line break included, line and paragraph
    separators, bidirectional and zero-width formatting characters, lone surrogates); else
    :class:`RefusedError`."""
    if not isinstance(text, str):
        raise RefusedError(
            "server.bad_field", status=400, field="text", expected=Phrase("chat.expected.text")
        )
    trimmed = text.strip()
    if len(trimmed) < MIN_TEXT:
        raise RefusedError("chat.empty", status=400)
    if len(trimmed) > MAX_TEXT:
        raise RefusedError("chat.too_long", status=400, limit=MAX_TEXT, length=len(trimmed))
    if refused_character(trimmed) is not None:
        raise RefusedError("chat.control", status=400)
    return trimmed


def message_json(row: Any) -> dict[str, Any]:
    """A stored message as the wire shows it (live, with the match's ``version`` added, and
    in the history)."""
    at = _aware(row["at"])
    assert at is not None
    return {
        "type": "chat",
        "id": int(row["id"]),
        "channel": str(row["channel"]),
        "seat": row["seat"],
        "name": str(row["name"]),
        "account": row["account"],
        "text": str(row["text"]),
        "at": at.isoformat(),
    }


def _columns() -> list[Any]:
    """A message's columns, with its author's account name and whether it is suspended."""
    return [
        db.chat.c.id,
        db.chat.c.channel,
        db.chat.c.seat,
        db.chat.c.name,
        db.chat.c.text,
        db.chat.c.at,
        db.accounts.c.name.label("account"),
        db.accounts.c.suspended_at.label("suspended_at"),
        db.chat.c.account_id.label("author_id"),
    ]


def _authors() -> Any:
    """The chat joined to its authors' accounts (a guest's or a deleted account's message
    has none)."""
    return db.chat.outerjoin(db.accounts, db.accounts.c.id == db.chat.c.account_id)


class ChatLog:
    """The ``chat`` table: store a message, read the ones after an id, the history."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    def add(self, match_id: str, speaker: Speaker, text: str) -> dict[str, Any]:
        """Store a message; it as the wire shows it (:func:`message_json`). On PostgreSQL the
        transaction first takes the match's chat lock (ids then grow in commit order) and
        sends the notification. An account a moderator muted is refused (``chat.muted``,
        403) until its mute ends."""
        when = now()
        with self.engine.begin() as connection:
            if speaker.account_id is not None:
                until = muted_until(connection, speaker.account_id)
                if until is not None:
                    raise RefusedError("chat.muted", status=403, until=when_text(until))
            if self.store.notifies:
                connection.execute(
                    sa.text("SELECT pg_advisory_xact_lock(:key, :match)"),
                    {"key": LOCK_KEY, "match": _match_key(match_id)},
                )
            result = connection.execute(
                db.chat.insert().values(
                    match_id=match_id,
                    channel=speaker.channel,
                    seat=speaker.seat,
                    account_id=speaker.account_id,
                    name=speaker.name,
                    text=text,
                    at=when,
                )
            )
            if self.store.notifies:
                connection.execute(
                    sa.text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": CHANNEL, "payload": f"{match_id}:chat:{self.store.origin}"},
                )
        key = result.inserted_primary_key
        assert key is not None
        return message_json(
            {
                "id": key[0],
                "channel": speaker.channel,
                "seat": speaker.seat,
                "name": speaker.name,
                "account": speaker.account,
                "text": text,
                "at": when,
            }
        )

    def last_id(self, match_id: str) -> int:
        """The id of the match's newest message (0: none yet)."""
        with self.engine.connect() as connection:
            found = connection.execute(
                sa.select(sa.func.max(db.chat.c.id)).where(db.chat.c.match_id == match_id)
            ).scalar()
        return int(found or 0)

    def after(self, match_id: str, last: int) -> list[dict[str, Any]]:
        """The match's messages after id ``last`` (at most :data:`CATCH_UP`: the next call
        reads on), oldest first, each with its ``account`` and ``suspended_at`` (so that the
        caller hides what it must)."""
        query = (
            sa.select(*_columns())
            .select_from(_authors())
            .where(db.chat.c.match_id == match_id, db.chat.c.id > last)
            .order_by(db.chat.c.id)
            .limit(CATCH_UP)
        )
        with self.engine.connect() as connection:
            return [dict(r._mapping) for r in connection.execute(query)]

    def history(
        self, match_id: str, channel: str, after: int, reader: str | None
    ) -> list[dict[str, Any]]:
        """The channel's newest :data:`HISTORY` messages after id ``after``, oldest first:
        neither a suspended account's nor (``reader``: the reading account) one it muted,
        nor one between which and the reader a block stands."""
        muted = sa.select(db.mutes.c.muted_id).where(db.mutes.c.account_id == reader)
        blocked = sa.select(db.blocks.c.blocked_id).where(db.blocks.c.account_id == reader)
        blockers = sa.select(db.blocks.c.account_id).where(db.blocks.c.blocked_id == reader)
        query = (
            sa.select(*_columns())
            .select_from(_authors())
            .where(
                db.chat.c.match_id == match_id,
                db.chat.c.channel == channel,
                db.chat.c.id > after,
                db.accounts.c.suspended_at.is_(None),
            )
            .order_by(db.chat.c.id.desc())
            .limit(HISTORY)
        )
        if reader is not None:
            query = query.where(
                sa.or_(
                    db.chat.c.account_id.is_(None),
                    sa.and_(
                        db.chat.c.account_id.not_in(muted),
                        db.chat.c.account_id.not_in(blocked),
                        db.chat.c.account_id.not_in(blockers),
                    ),
                )
            )
        with self.engine.connect() as connection:
            rows = [message_json(r._mapping) for r in connection.execute(query)]
        rows.reverse()
        return rows

    def blocked(self, readers: set[str], authors: set[str]) -> set[tuple[str, str]]:
        """The pairs ``(reader, author)`` between which a block stands (either made it)."""
        with self.engine.connect() as connection:
            return blocked_pairs(connection, readers, authors)


class ChatRoom:
    """The chat of one server process: messages sent, rate-limited, stored and told to the
    channel's clients here; what other processes stored told when they notify."""

    def __init__(self, store: Store, cache: MatchCache) -> None:
        self.log = ChatLog(store)
        self.cache = cache
        #: Per match followed here: the id of the last message told to its clients.
        self.told: dict[str, int] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._buckets: dict[str, TokenBucket] = {}

    async def follow(self, match_id: str) -> None:
        """A client of ``match_id`` connects here: its messages from now on are told here
        (those before are in the history). Matches this process no longer serves are
        forgotten."""
        for gone in [m for m in self.told if m not in self.cache.live and m != match_id]:
            del self.told[gone]
            self._locks.pop(gone, None)
        if match_id not in self.told:
            last = await asyncio.to_thread(self.log.last_id, match_id)
            self.told.setdefault(match_id, last)

    async def say(self, live: LiveMatch, speaker: Speaker, text: Any) -> dict[str, Any]:
        """``speaker`` says ``text`` in ``live``: checked, counted against the speaker's
        rate, stored and told. Returns the message (:func:`message_json`)."""
        clean = checked_text(text)
        if speaker.account_id is not None:  # an account: in all its matches together
            key = f"account:{speaker.account_id}"
        else:
            key = f"seat:{live.id}:{speaker.seat}"
        if not self._take(key):
            raise RefusedError("chat.rate_limited", status=429)
        message = await asyncio.to_thread(self.log.add, live.id, speaker, clean)
        await self.deliver(live.id)
        return message

    def _take(self, key: str) -> bool:
        """One message on ``key``'s bucket (per process: enough against a flood)."""
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= MAX_BUCKETS:
                self._forget_idle()
            bucket = self._buckets[key] = TokenBucket(RATE, BURST)
        return bucket.take()

    def _forget_idle(self) -> None:
        """Forget the buckets that have filled up again (the same as new ones)."""
        moment = time.monotonic()
        for key, bucket in list(self._buckets.items()):
            if bucket.tokens + (moment - bucket.stamp) * bucket.rate >= bucket.burst:
                del self._buckets[key]

    async def notified(self, match_id: str) -> None:
        """Another process stored a message of ``match_id``: tell the clients here."""
        await self.deliver(match_id)

    async def deliver(self, match_id: str) -> None:
        """Send the match's messages stored since the last one told here to their channel's
        clients here (a suspended account's to nobody). Nothing if no client of the match
        is connected here."""
        if match_id not in self.told:
            return
        lock = self._locks.setdefault(match_id, asyncio.Lock())
        async with lock:
            rows = await asyncio.to_thread(self.log.after, match_id, self.told[match_id])
            if not rows:
                return
            self.told[match_id] = max(self.told.get(match_id, 0), int(rows[-1]["id"]))
            live = self.cache.live.get(match_id)
            if live is None:
                return
            # an account that took a seat since it connected as a spectator hears the
            # players from its seat's connection, never the spectators
            seated = {s.account_id for s in live.row.seats if s.account_id is not None}
            hearing = {
                channel: [
                    c
                    for c in live.clients
                    if c.chat == channel and (channel == PLAYERS or c.account_id not in seated)
                ]
                for channel in (PLAYERS, SPECTATORS)
            }
            readers = {c: _reader(live, c) for group in hearing.values() for c in group}
            authors = {str(r["author_id"]) for r in rows if r["author_id"] is not None}
            accounts = {a for a in readers.values() if a is not None}
            hidden: set[tuple[str, str]] = set()
            if authors and accounts:  # who blocked whom, among these, either way
                hidden = await asyncio.to_thread(self.log.blocked, accounts, authors)
            for row in rows:
                if row["suspended_at"] is not None:
                    continue
                message = {**message_json(row), "version": live.match.ply}
                author = row["author_id"]
                for client in hearing.get(row["channel"], []):
                    if author is None or (readers[client], str(author)) not in hidden:
                        client.send(message)

    async def history(
        self, match_id: str, channel: str, after: int, reader: str | None
    ) -> list[dict[str, Any]]:
        """The channel's history (:meth:`ChatLog.history`)."""
        return await asyncio.to_thread(self.log.history, match_id, channel, after, reader)


def _reader(live: LiveMatch, client: Client) -> str | None:
    """The account a client reads the chat as: a logged-in spectator's, or the account that
    plays its seat (``None``: a guest)."""
    if client.account_id is not None:
        return client.account_id
    if client.seat is not None and client.seat < len(live.row.seats):
        return live.row.seats[client.seat].account_id
    return None


def _match_key(match_id: str) -> int:
    """A match id as the second key of a PostgreSQL advisory lock (a signed 32-bit int)."""
    value = zlib.crc32(match_id.encode())
    return value - 2**32 if value >= 2**31 else value
