"""Swiss tournaments for people (``/api/tournaments…``): docs/server.md, "Tournaments".
The rules are :class:`keltis.server.tournaments.Tournaments`'; these routes read requests
and shape answers."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal, cast

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response
from starlette.requests import HTTPConnection, Request

from keltis.server.accounts import LoggedIn
from keltis.server.answers import error_response
from keltis.server.bodies import IdText
from keltis.server.routes.deps import Lang, Member, Viewer
from keltis.server.tournaments import PAGE, CreateTournament, Tournaments

router = APIRouter()


async def _tournaments(connection: HTTPConnection) -> Tournaments:
    return cast(Tournaments, connection.app.state.tournaments)


#: The tournaments of this process.
TournamentsDep = Annotated[Tournaments, Depends(_tournaments)]


def _too_fast(member: LoggedIn, tournaments: Tournaments, lang: str) -> Response | None:
    """A join or withdrawal over the account's rate: ``429`` ``tournament.slow_down``
    with the seconds to wait in ``Retry-After``; else ``None`` (and the change counted)."""
    bucket = tournaments.limits.bucket(member.account.id)
    if bucket.take():
        return None
    wait = bucket.wait()
    answer = error_response(429, "tournament.slow_down", lang)
    answer.headers["Retry-After"] = str(max(1, math.ceil(wait)))
    return answer


@router.post("/api/tournaments", tags=["tournaments"], status_code=201)
async def create_tournament(
    body: CreateTournament, member: Member, tournaments: TournamentsDep
) -> Any:
    """Create a tournament (logged in; the creator joins it only by joining): its first
    round starts at ``starts_at``. At most 2 not yet finished and 5 a day per account."""
    return (await tournaments.create(member.account, body)).to_json()


@router.get("/api/tournaments", tags=["tournaments"])
async def list_tournaments(
    tournaments: TournamentsDep,
    status: Annotated[Literal["upcoming", "running", "finished"], Query()] = "upcoming",
    page: Annotated[int, Query(ge=0, le=10_000)] = 0,
) -> dict[str, Any]:
    """One page of the tournaments of ``status`` (upcoming and running: soonest first;
    finished: latest first) and how many there are."""
    rows, total = await tournaments.list(status, page * PAGE, PAGE)
    return {
        "status": status,
        "page": page,
        "per_page": PAGE,
        "total": total,
        "tournaments": [r.to_json() for r in rows],
    }


@router.get("/api/tournaments/{tournament_id}", tags=["tournaments"])
async def get_tournament(
    tournament_id: IdText, tournaments: TournamentsDep, viewer: Viewer
) -> dict[str, Any]:
    """The tournament: players, rounds with their tables and match ids, the standings
    (each player's rounds: the crosstable), and whether the viewer is in it."""
    full = await tournaments.get(tournament_id)
    return await tournaments.describe(full, None if viewer is None else viewer.account.id)


@router.post("/api/tournaments/{tournament_id}/players", tags=["tournaments"])
async def join_tournament(
    tournament_id: IdText, request: Request, member: Member, tournaments: TournamentsDep, lang: Lang
) -> Any:
    """Join (before or during the tournament: paired from the next round on)."""
    refused = _too_fast(member, tournaments, lang)
    if refused is not None:
        return refused
    full = await tournaments.join(member.account, tournament_id)
    return await tournaments.describe(full, member.account.id)


@router.delete("/api/tournaments/{tournament_id}/players/me", tags=["tournaments"])
async def withdraw_from_tournament(
    tournament_id: IdText, request: Request, member: Member, tournaments: TournamentsDep, lang: Lang
) -> Any:
    """Withdraw: not paired in later rounds; the results played stay."""
    refused = _too_fast(member, tournaments, lang)
    if refused is not None:
        return refused
    full = await tournaments.withdraw(member.account, tournament_id)
    return await tournaments.describe(full, member.account.id)
