"""An account's own data as one JSON archive (``GET /api/me/export``; docs/server.md, "Your
data"): the account and its settings, its ratings with their full history, every match it
sat in, the chat lines it wrote, whom it follows, its vacations, the notices it has not
dismissed, the mutes, blocks and reports it made, and the warnings moderators gave it.

A finished match comes with its full record, as ``GET /api/matches/{id}/record`` gives it to
anyone; a match not over yet only with what the account's own seat sees now (its view: its
own hand, never another seat's hidden cards) and its public description. Other accounts
appear by their names, as every player of a match sees them; never their e-mail or any other
private data.

Large accounts: the archive is written as it is read — the matches and chat lines a page at a
time (:data:`PAGE` per trip to a worker thread, each on its own short-lived connection), the
pieces streamed to the client in between — so that an account with thousands of matches never
holds the database's threads for long, and the process never holds its whole archive.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from keltis.record import GameRecord
from keltis.server import db, describe
from keltis.server.accounts import Account
from keltis.server.answers import RefusedError
from keltis.server.master import MatchMaster
from keltis.server.store import MatchRow, _add_seats, _aware, _match_row, now

#: The archive's format name and version (its first keys).
FORMAT, VERSION = "keltis-export", 1
#: Matches, and chat lines, read per trip to a worker thread.
PAGE = 50


def dumps(value: Any) -> str:
    """``value`` as compact JSON text (any character as it is)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _iso(value: datetime | None) -> str | None:
    aware = _aware(value)
    return None if aware is None else aware.isoformat()


def record_json(row: MatchRow, notations: list[str]) -> dict[str, Any]:
    """The finished match ``row``'s record JSON (as ``GET …/record`` gives it): its stored
    header, each seat's player named as the match names it now, its actions and result."""
    header = dict(row.header)
    players = [dict(p) for p in header.get("players", [])]
    for seat, player in zip(row.seats, players, strict=False):
        player["name"] = seat.name
    data = {**header, "players": players, "actions": notations}
    if row.result is not None:
        data["result"] = row.result
    return GameRecord.from_json(data).to_json()


class Exporter:
    """Reads an account's archive from the server's database, a piece at a time."""

    def __init__(self, master: MatchMaster) -> None:
        self.master = master
        self.engine = master.store.engine

    # -- what fits in one read --------------------------------------------------------------

    def head(self, account: Account) -> dict[str, Any]:
        """The archive's first part: the account, its ratings with their full history, whom
        it follows, its vacations, what it muted, blocked and reported, and the warnings it
        was given."""
        ratings = self.master.ratings
        player = account.player
        with self.engine.connect() as connection:
            reports = connection.execute(
                sa.select(db.reports)
                .where(db.reports.c.reporter_id == account.id)
                .order_by(db.reports.c.id)
            ).all()
            warnings = connection.execute(
                sa.select(db.warnings)
                .where(db.warnings.c.account_id == account.id)
                .order_by(db.warnings.c.id)
            ).all()
            # whom it follows (by name: the ids are the server's) and its vacations
            following = connection.execute(
                sa.select(db.accounts.c.name, db.follows.c.at)
                .join(db.accounts, db.accounts.c.id == db.follows.c.followed_id)
                .where(db.follows.c.account_id == account.id)
                .order_by(db.follows.c.at, db.accounts.c.name)
            ).all()
            vacations = connection.execute(
                sa.select(db.vacations)
                .where(db.vacations.c.account_id == account.id)
                .order_by(db.vacations.c.id)
            ).all()
            # the notices it has not dismissed yet (another player's no to a rematch)
            notices = connection.execute(
                sa.select(db.rematch_notices)
                .where(db.rematch_notices.c.account_id == account.id)
                .order_by(db.rematch_notices.c.id)
            ).all()
        return {
            "format": FORMAT,
            "version": VERSION,
            "exported": now().isoformat(),
            "account": {**account.to_json(), "suspended": account.suspended},
            "ratings": {
                game: {**rating.to_json(), "history": ratings.history(player, game, None)}
                for game, rating in sorted(ratings.ratings_of(player).items())
            },
            "following": [{"name": f.name, "since": _iso(f.at)} for f in following],
            "vacations": [
                {"start": _iso(v.started_at), "until": _iso(v.until), "ended": _iso(v.ended_at)}
                for v in vacations
            ],
            "notices": [
                {
                    "match": n.match_id,
                    "next": n.next_match,
                    "seat": n.seat,
                    "answer": n.answer,
                    "at": _iso(n.created_at),
                }
                for n in notices
            ],
            "mutes": self.master.accounts.mutes(account),
            "blocks": self.master.moderation.blocks(account),
            # the reports it sent: whom, why, its own words and whether a moderator closed
            # it (the moderators' notes are theirs)
            "reports": [
                {
                    "at": _iso(r.at),
                    "reported": r.reported,
                    "reason": r.reason,
                    "text": r.text,
                    "match": r.match_id,
                    "status": r.status,
                }
                for r in reports
            ],
            "warnings": [
                {
                    "at": _iso(w.at),
                    "moderator": w.moderator,
                    "text": w.text,
                    "seen": _iso(w.seen_at),
                }
                for w in warnings
            ],
        }

    def seats_of(self, account_id: str) -> list[tuple[str, str, list[int]]]:
        """Every match the account sat in, oldest first: its id, status and the account's
        seats in it."""
        query = (
            sa.select(db.matches.c.id, db.matches.c.status, db.seats.c.seat)
            .join(db.seats, db.seats.c.match_id == db.matches.c.id)
            .where(db.seats.c.account_id == account_id)
            .order_by(db.matches.c.created_at, db.matches.c.id, db.seats.c.seat)
        )
        found: dict[str, tuple[str, list[int]]] = {}
        with self.engine.connect() as connection:
            for r in connection.execute(query):
                found.setdefault(str(r.id), (str(r.status), []))[1].append(int(r.seat))
        return [(match_id, status, seats) for match_id, (status, seats) in found.items()]

    def finished(self, page: list[tuple[str, list[int]]]) -> list[dict[str, Any]]:
        """The finished matches of ``page`` (ids with the account's seats), each with its
        public description and full record, read through one connection."""
        ids = [match_id for match_id, _ in page]
        with self.engine.connect() as connection:
            rows = {
                str(r.id): _match_row(r._mapping)
                for r in connection.execute(sa.select(db.matches).where(db.matches.c.id.in_(ids)))
            }
            _add_seats(connection, list(rows.values()))
            notations: dict[str, list[str]] = defaultdict(list)
            for a in connection.execute(
                sa.select(db.actions.c.match_id, db.actions.c.notation)
                .where(db.actions.c.match_id.in_(ids))
                .order_by(db.actions.c.match_id, db.actions.c.ply)
            ):
                notations[str(a.match_id)].append(str(a.notation))
        out = []
        for match_id, seats in page:
            row = rows.get(match_id)
            if row is None:
                continue
            out.append(
                {
                    "id": match_id,
                    "seats": seats,
                    "match": describe.match_summary(row, self.master.config),
                    "record": record_json(row, notations[match_id]),
                }
            )
        return out

    def chat(self, account_id: str, after: int) -> list[dict[str, Any]]:
        """Up to :data:`PAGE` chat lines the account wrote, after the line ``after``."""
        query = (
            sa.select(db.chat)
            .where(db.chat.c.account_id == account_id, db.chat.c.id > after)
            .order_by(db.chat.c.id)
            .limit(PAGE)
        )
        with self.engine.connect() as connection:
            return [
                {
                    "id": int(r.id),
                    "match": str(r.match_id),
                    "channel": str(r.channel),
                    "seat": r.seat,
                    "name": str(r.name),
                    "text": str(r.text),
                    "at": _iso(r.at),
                }
                for r in connection.execute(query)
            ]

    # -- the archive, piece by piece ----------------------------------------------------------

    async def stream(self, account: Account, to_thread: Callable[..., Any]) -> AsyncIterator[str]:
        """The archive as JSON text, in pieces: each read runs through ``to_thread``
        (``asyncio.to_thread``), one page at a time."""
        head: dict[str, Any] = await to_thread(self.head, account)
        yield dumps(head)[:-1] + ',"matches":['
        seats = await to_thread(self.seats_of, account.id)
        first = True
        finished = [(m, s) for m, status, s in seats if status == "finished"]
        unfinished = [(m, s) for m, status, s in seats if status != "finished"]
        for start in range(0, len(finished), PAGE):
            for item in await to_thread(self.finished, finished[start : start + PAGE]):
                yield ("" if first else ",") + dumps(item)
                first = False
        for match_id, own in unfinished:
            item = await self._unfinished(match_id, own)
            if item is not None:
                yield ("" if first else ",") + dumps(item)
                first = False
        yield '],"chat":['
        after, first = 0, True
        while True:
            lines: list[dict[str, Any]] = await to_thread(self.chat, account.id, after)
            for line in lines:
                yield ("" if first else ",") + dumps(line)
                first = False
            if len(lines) < PAGE:
                break
            after = lines[-1]["id"]
        yield "]}"

    async def _unfinished(self, match_id: str, own: list[int]) -> dict[str, Any] | None:
        """A match not over: its public description and what each of the account's seats
        sees now (never the record: it holds every seat's cards)."""
        try:
            live = await self.master.get(match_id)
        except RefusedError:
            return None  # gone meanwhile
        item = {
            "id": match_id,
            "seats": own,
            "match": describe.live_summary(live, self.master.config),
        }
        if live.match.over:  # it ended since the list was read: the record is public now
            return {**item, "record": live.match.record.to_json()}
        return {**item, "views": {str(seat): live.match.view(seat).to_json() for seat in own}}
