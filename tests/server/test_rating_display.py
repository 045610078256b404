"""The rating people read (docs/server.md, "Ratings"): openskill's ordinal on a 1500-centred
scale, provisional until enough rated games, and the fields that carry it in the API."""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from openskill.models import PlackettLuce

from keltis.server import db, ratings
from keltis.server.db import make_engine, migrate
from keltis.server.ratings import (
    PROVISIONAL_GAMES,
    PROVISIONAL_SIGMA,
    START_MU,
    START_SIGMA,
    Rating,
    RatingBook,
    ordinal,
    provisional,
    shown,
)
from keltis.server.store import MatchRow

from .harness import WAIT, Player, Server, create, play_together
from .people import signup


def _until(check: Any, what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no {what} within {WAIT} s")


def test_a_new_player_shows_1500() -> None:
    assert shown(START_MU, START_SIGMA) == 1500
    assert Rating(START_MU, START_SIGMA, 0).to_json()["rating"] == 1500


def test_one_game_of_two_new_players_moves_the_rating_by_tens() -> None:
    model = PlackettLuce()
    [[winner], [loser]] = model.rate([[model.rating()], [model.rating()]], ranks=[1.0, 2.0])
    won, lost = shown(winner.mu, winner.sigma) - 1500, shown(loser.mu, loser.sigma) - 1500
    # openskill's ordinal moved by +3.4 and -1.8: shown, tens of points, not 1.8 or 300
    assert (won, lost) == (69, -37)


def test_a_four_player_table_orders_its_changes_by_place() -> None:
    model = PlackettLuce()
    after = model.rate([[model.rating()] for _ in range(4)], ranks=[1.0, 2.0, 3.0, 4.0])
    changes = [shown(t[0].mu, t[0].sigma) - 1500 for t in after]
    assert changes == sorted(changes, reverse=True)
    # first and last of four move by tens; the second and third less (sigma shrinks for all)
    assert changes[0] >= 40, changes
    assert changes[-1] <= -40, changes
    assert max(map(abs, changes)) <= 100, changes


def test_the_shown_rating_ranks_as_the_ordinal() -> None:
    """Monotone in the ordinal: of any two ratings, the one with the higher ordinal never
    shows less (rounding to whole points may make two equal)."""
    grid = [
        (mu, sigma)
        for mu, sigma in itertools.product(
            [10.0, 18.5, 24.9, 25.0, 25.1, 31.0, 40.0], [1.0, 2.5, 4.0, 6.0, 8.3333]
        )
    ]
    by_ordinal = sorted(grid, key=lambda r: ordinal(*r))
    values = [shown(*r) for r in by_ordinal]
    assert values == sorted(values)
    # and a whole point of the ordinal is 20 shown points
    assert shown(26.0, START_SIGMA) - shown(25.0, START_SIGMA) == 20


def test_a_rating_is_provisional_until_enough_games_and_a_small_enough_sigma() -> None:
    assert provisional(0, START_SIGMA)
    assert provisional(PROVISIONAL_GAMES - 1, 3.0)  # few games, however sure
    assert provisional(PROVISIONAL_GAMES + 20, PROVISIONAL_SIGMA + 0.5)  # still unsure
    assert not provisional(PROVISIONAL_GAMES, PROVISIONAL_SIGMA)
    assert not provisional(200, 2.0)
    assert ratings.Rating(25.0, 5.0, 12).to_json()["provisional"] is False
    assert ratings.Rating(25.0, 5.0, 3).to_json()["provisional"] is True


@pytest.mark.parametrize("games", [0, 5, 10])
def test_the_rating_json_carries_rating_and_provisional(games: int) -> None:
    data = Rating(27.0, 5.5, games).to_json()
    assert set(data) == {"rating", "provisional", "mu", "sigma", "games"}
    assert data["rating"] == round(1500 + 20 * (27.0 - 16.5))
    assert isinstance(data["rating"], int)


# -- over HTTP: the final screen's changes and the lobby's seeker rating (both databases) ----


def test_a_rated_match_tells_each_seat_its_rating_change(server: Server) -> None:
    first, second = signup(server, "Iollan_r"), signup(server, "Nessa_r")
    try:
        body = first.post(
            "/api/matches",
            json={
                "game": "cards",
                "seats": [{"kind": "person"}, {"kind": "person"}],
                "rated": True,
            },
        ).json()
        joined = second.post(
            f"/api/matches/{body['id']}/join", json={"invite": body["invites"][0]["invite"]}
        )
        assert joined.status_code == 200, joined.text
        started = first.post(
            f"/api/matches/{body['id']}/start",
            headers={"Authorization": f"Bearer {body['host_token']}"},
        )
        assert started.status_code == 200, started.text
        with server.http() as http:
            # running: not rated yet
            pending = http.get(f"/api/matches/{body['id']}/ratings").json()
        assert pending == {"match": body["id"], "state": "pending", "seats": []}
        a = Player(server, body["id"], body["token"]).connect()
        b = Player(server, body["id"], joined.json()["token"]).connect()
        try:
            play_together(a, b)
        finally:
            a.close()
            b.close()
        with server.http() as http:
            changes = _until(
                lambda: (
                    (c := http.get(f"/api/matches/{body['id']}/ratings").json())["state"] == "rated"
                    and c
                ),
                "the rating",
            )
        pages = {
            m.name: m.get(f"/api/players/{m.name}").json()["ratings"]["cards"]
            for m in (first, second)
        }
        assert [(s["seat"], s["name"]) for s in changes["seats"]] == [
            (0, "Iollan_r"),
            (1, "Nessa_r"),
        ]
        for seat in changes["seats"]:
            assert seat["before"] == 1500  # two new players
            assert seat["after"] == pages[seat["name"]]["rating"]
            assert seat["change"] == seat["after"] - 1500
            assert seat["provisional"] is True
        scores = a.result["scores"]
        if scores[0] != scores[1]:  # the winner gained, the loser lost
            winner = 0 if scores[0] > scores[1] else 1
            assert changes["seats"][winner]["change"] > 0 > changes["seats"][1 - winner]["change"]
    finally:
        first.close()
        second.close()


def test_an_unrated_or_unknown_match_has_no_rating_changes(server: Server) -> None:
    guest = create(
        server, game="cards", seats=[{"kind": "person"}, {"kind": "bot", "level": "random"}]
    )
    with server.http() as http:
        answer = http.get(f"/api/matches/{guest['id']}/ratings")
        assert answer.json() == {"match": guest["id"], "state": "unrated", "seats": []}
        missing = http.get("/api/matches/nosuchmatch/ratings")
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "server.no_match"
        bad = http.get("/api/matches/bad%20id!/ratings")
        assert bad.status_code in (400, 404, 422)


def test_the_lobby_shows_the_seekers_rating(server: Server) -> None:
    orla = signup(server, "Orla_r")
    try:
        seek = orla.post("/api/seeks", json={"players": 2, "game": "board"})
        assert seek.status_code == 201, seek.text
        assert seek.json()["by_rating"] == {"rating": 1500, "provisional": True}
        # a stored rating: shown on its scale
        engine = sa.create_engine(server.database)
        try:
            with engine.begin() as connection:
                account = connection.execute(
                    sa.select(db.accounts.c.id).where(db.accounts.c.name == "Orla_r")
                ).scalar_one()
                connection.execute(
                    db.ratings.insert().values(
                        player=f"account:{account}",
                        game="board",
                        mu=30.0,
                        sigma=4.0,
                        games=25,
                        updated_at=datetime.now(UTC),
                    )
                )
        finally:
            engine.dispose()
        with server.http() as http:
            listed = http.get("/api/seeks").json()["seeks"]
        mine = [s for s in listed if s["by"] == "Orla_r"]
        assert [s["by_rating"] for s in mine] == [
            {"rating": shown(30.0, 4.0), "provisional": False}
        ]
        assert shown(30.0, 4.0) == 1860
        orla.delete(f"/api/seeks/{seek.json()['id']}")
    finally:
        orla.close()


@pytest.mark.parametrize(
    ("aborted", "voided", "state"), [(True, False, "aborted"), (False, True, "voided")]
)
def test_an_aborted_or_voided_match_shows_no_changes(
    tmp_path: Path, aborted: bool, voided: bool, state: str
) -> None:
    """No seat's change for a rated match that changed nothing: aborted (a person never
    moved) or voided by a moderator (its history rows gone)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        migrate(engine)
        when = datetime.now(UTC)
        with engine.begin() as connection:
            connection.execute(
                db.matches.insert().values(
                    id="m1",
                    game="cards",
                    status="finished",
                    header={},
                    options={},
                    host_hash="x",
                    public=True,
                    ply=0,
                    to_move=0,
                    result={"scores": [1, 0]},
                    created_at=when,
                    updated_at=when,
                    rated=True,
                    rated_at=when,
                    aborted=aborted,
                    voided_at=when if voided else None,
                )
            )
        row = MatchRow(
            id="m1",
            game="cards",
            status="finished",
            header={},
            options={},
            public=True,
            ply=0,
            to_move=0,
            result={"scores": [1, 0]},
            created_at=when,
            updated_at=when,
            rated=True,
            aborted=aborted,
            voided=voided,
        )
        assert RatingBook(engine).changes(row) == {"state": state, "seats": []}
    finally:
        engine.dispose()
