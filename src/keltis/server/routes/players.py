"""Ratings and players' pages over HTTP (docs/server.md, "Ratings"): the leaderboard of a
game and a player's page — an account's or a bot level's (``bot:hard``) — with its ratings
over time, recent matches and results by opponent. Public: names, ratings and finished
matches are what every spectator sees anyway; e-mail addresses never appear."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Query

from keltis.bots.levels import LEVELS
from keltis.server import clocks, db
from keltis.server.answers import RefusedError, printable
from keltis.server.bodies import AccountName, GameName, IdText
from keltis.server.ratings import aborted, ranks, seat_player
from keltis.server.routes.deps import Master
from keltis.server.store import MatchRow

router = APIRouter()

#: Finished matches a player's page reads (recent matches and results by opponent).
PAGE_MATCHES = 200
#: Recent matches shown on a player's page.
RECENT = 20


@router.get("/api/ratings/{game}", tags=["ratings"])
async def leaderboard(
    game: GameName,
    master: Master,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> dict[str, Any]:
    """The leaderboard of ``game``: accounts and bot levels by rating (``mu − 3·sigma``)."""
    players = await asyncio.to_thread(master.ratings.leaderboard, game, limit)
    return {"game": game, "players": players}


@router.get("/api/matches/{match_id}/ratings", tags=["ratings"])
async def match_ratings(match_id: IdText, master: Master) -> dict[str, Any]:
    """What a rated match did to its players' ratings (its final screen): ``state`` and, once
    ``"rated"``, per seat the shown rating ``before`` and ``after``, the ``change`` and
    ``provisional`` (:meth:`~keltis.server.ratings.RatingBook.changes`). Public, as the
    players' pages are."""

    def read() -> dict[str, Any]:
        row = master.store.get_match(match_id)
        if row is None:
            raise RefusedError("server.no_match", status=404, id=match_id)
        return {"match": match_id, **master.ratings.changes(row)}

    return await asyncio.to_thread(read)


@router.get("/api/players/{name}", tags=["ratings"])
async def player_page(name: AccountName, master: Master) -> dict[str, Any]:
    """A player's page: an account's by its name, a bot level's as ``bot:<level>``."""
    return await asyncio.to_thread(_page, master, name)


def _page(master: Master, name: str) -> dict[str, Any]:
    """What :func:`player_page` answers (in a worker thread)."""
    if name.startswith("bot:"):
        level = name.removeprefix("bot:")
        if level not in LEVELS and level != "random":
            raise RefusedError("account.no_player", status=404, name=printable(name))
        player, kind, created = name, "bot", None
        seats: sa.ColumnElement[bool] = sa.and_(db.seats.c.kind == "bot", db.seats.c.level == level)
        rated_only = True
    else:
        account = master.accounts.by_name(name)
        if account is None:
            raise RefusedError("account.no_player", status=404, name=printable(name))
        name, player, kind = account.name, account.player, "account"
        created = account.created_at.isoformat()
        seats = db.seats.c.account_id == account.id
        rated_only = False
    ratings = {
        game: {**rating.to_json(), "history": master.ratings.history(player, game)}
        for game, rating in master.ratings.ratings_of(player).items()
    }
    matches = master.store.finished_of(seats, PAGE_MATCHES)
    if rated_only:
        matches = [m for m in matches if m.rated and not aborted(m) and not m.voided]
    recent, opponents = _results(matches, player)
    return {
        "name": name,
        "kind": kind,
        "created": created,
        "ratings": ratings,
        "recent": recent[:RECENT],
        "opponents": opponents,
    }


def _results(
    matches: list[MatchRow], player: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``player``'s recent matches (its seat, rank and score) and its results by opponent
    (accounts and bot levels: guests are not followed across matches)."""
    recent: list[dict[str, Any]] = []
    tally: dict[tuple[str, str], dict[str, int]] = defaultdict(
        lambda: {"played": 0, "won": 0, "lost": 0, "tied": 0}
    )
    for match in matches:
        who = [seat_player(match, s.seat) for s in match.seats]
        mine = [n for n, p in enumerate(who) if p == player]
        if not mine:
            continue
        seat = mine[0]
        placed = ranks(match)
        scores = (match.result or {}).get("scores", [])
        recent.append(
            {
                "match": match.id,
                "game": match.game,
                "seat": seat,
                "rank": placed[seat],
                "score": scores[seat] if seat < len(scores) else None,
                "players": [s.name for s in match.seats],
                # an aborted rated match (a person seat never moved) changed no rating, and
                # a voided one's changes were taken back by a moderator
                "rated": match.rated and not aborted(match) and not match.voided,
                "aborted": aborted(match),
                "voided": match.voided,
                # its time control (clocks.described; None: none), as every match list shows
                "time": clocks.described(match.options),
                "at": match.updated_at.isoformat(),
            }
        )
        for other, other_player in enumerate(who):
            if other in mine or other_player is None:
                continue
            label = other_player if other_player.startswith("bot:") else match.seats[other].name
            row = tally[(label, match.game)]
            row["played"] += 1
            if placed[seat] < placed[other]:
                row["won"] += 1
            elif placed[seat] > placed[other]:
                row["lost"] += 1
            else:
                row["tied"] += 1
    opponents = [
        {"name": label, "game": game, **counts}
        for (label, game), counts in sorted(
            tally.items(), key=lambda item: (-item[1]["played"], item[0])
        )
    ]
    return recent, opponents
