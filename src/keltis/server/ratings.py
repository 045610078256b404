"""Ratings of accounts and bot levels, one per game (docs/server.md, "Ratings").

openskill's Plackett–Luce model rates multiplayer results: each seat of a rated match is a
team of one, ranked by score (ties share a rank; a seat that ran out of time, or that a bot
stood in for at any point, ranks last: its player left the game to a bot). A rated match in
which a person seat never made a move of its own is *aborted*: no rating moves (as lichess
aborts games of fewer than two moves), so an account that never plays cannot hand another
its wins. A rated player is ``account:<id>`` or ``bot:<level>``; two seats of the same bot
level in one match move its rating by the mean of their changes. A match is rated once: the
update and its history rows are written in the transaction that marks it rated
(``matches.rated_at``), so two processes finishing it together cannot rate it twice. The
shown rating (:func:`shown`) is openskill's ordinal, the conservative ``mu − 3·sigma``, on a
chess-like scale: ``1500 + 20·ordinal``, so that a new player starts at 1500; it is
*provisional* (:func:`provisional`) until the player has :data:`PROVISIONAL_GAMES` rated games
and its ``sigma`` has fallen to :data:`PROVISIONAL_SIGMA`.

In the same transaction, rated results that look arranged are flagged for moderators
(``rating_flags``): two accounts that finished :data:`FLAG_REPEATS` rated matches against
each other within :data:`FLAG_WINDOW`, their seats taken (and first played) from one client
address.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine

from keltis.server import db
from keltis.server.store import MatchRow, SeatRow, _aware, now

_model = PlackettLuce()
#: A new player's rating.
START_MU, START_SIGMA = _model.mu, _model.sigma
#: Rated matches between the same two accounts, their seats taken from one client address,
#: within :data:`FLAG_WINDOW`, that flag the pair for moderators.
FLAG_REPEATS = 3
FLAG_WINDOW = timedelta(days=1)
#: The reason of such a flag.
SAME_ADDRESS = "same_address"


#: The shown rating of a new player (openskill's ordinal of :data:`START_MU`,
#: :data:`START_SIGMA`: 0) and the shown points per point of the ordinal.
SHOWN_START, SHOWN_SCALE = 1500, 20
#: Rated games below which a rating is provisional, and the ``sigma`` above which it still is
#: (a new player's is 8.3; ten two-player games bring it to about 5.5).
PROVISIONAL_GAMES = 10
PROVISIONAL_SIGMA = 6.0


def ordinal(mu: float, sigma: float) -> float:
    """openskill's conservative estimate ``mu − 3·sigma``: what ratings are ranked by."""
    return mu - 3 * sigma


def shown(mu: float, sigma: float) -> int:
    """The rating people read: ``1500 + 20·(ordinal − ordinal of a new player)``, a whole
    number. A new player shows 1500; a first win against another new player +69, a first
    loss −37 (the ordinal moves by +3.4 and −1.8, and gains as ``sigma`` shrinks); later games
    move it by tens. It rises with the ordinal, so ranking by it ranks by the ordinal."""
    start = ordinal(START_MU, START_SIGMA)
    return round(SHOWN_START + SHOWN_SCALE * (ordinal(mu, sigma) - start))


def provisional(games: int, sigma: float) -> bool:
    """Whether a rating is provisional (shown with a "?"): fewer than
    :data:`PROVISIONAL_GAMES` rated games, or a ``sigma`` still above
    :data:`PROVISIONAL_SIGMA` (the rating may yet move far)."""
    return games < PROVISIONAL_GAMES or sigma > PROVISIONAL_SIGMA


def seat_player(match: MatchRow, seat: int) -> str | None:
    """Who seat ``seat`` of ``match`` is as a rated player (``None``: a guest)."""
    row = match.seats[seat]
    if row.kind == "bot":
        return f"bot:{row.level}"
    if row.account_id is not None:
        return f"account:{row.account_id}"
    return None


def ranks(match: MatchRow) -> list[int]:
    """Each seat's rank (1 best) by the final scores: ties share a rank; seats that ran out
    of time, and in a rated match seats that a bot stood in for (at any point), rank below
    everyone else."""
    result = match.result or {}
    scores = list(result.get("scores", [0] * len(match.seats)))
    keys = [(1 if left(match, seat) else 0, -int(scores[seat.seat])) for seat in match.seats]
    return [1 + sum(other < key for other in keys) for key in keys]


def left(match: MatchRow, seat: SeatRow) -> bool:
    """Whether a person seat's player left it to a bot, so that it ranks last: it ran out of
    time, or — in a rated match — a bot stood in for them at some point."""
    return seat.kind == "person" and (seat.timed_out or (match.rated and seat.stood_in))


def aborted(match: MatchRow) -> bool:
    """Whether the rated ``match`` ended aborted: over, with a person seat whose player
    never made a move of their own. Its result moves no rating."""
    return (
        match.rated
        and match.status == "finished"
        and any(s.kind == "person" and not s.moved for s in match.seats)
    )


@dataclass(frozen=True)
class Rating:
    """One player's rating in one game."""

    mu: float
    sigma: float
    games: int

    @property
    def value(self) -> int:
        """The shown rating (:func:`shown`)."""
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        """Whether it is still provisional (:func:`provisional`)."""
        return provisional(self.games, self.sigma)

    def to_json(self) -> dict[str, Any]:
        return {
            "rating": self.value,
            "provisional": self.provisional,
            "mu": self.mu,
            "sigma": self.sigma,
            "games": self.games,
        }


class RatingBook:
    """The ratings in the server's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def rating(self, player: str, game: str) -> Rating:
        """``player``'s rating in ``game`` (a new player's if it has none)."""
        with self.engine.connect() as connection:
            return _ratings(connection, [player], game)[player]

    def rate(self, match: MatchRow) -> dict[str, Rating] | None:
        """Rate the finished rated ``match`` once: the new ratings by player, or ``None``
        if it is not to be rated (not rated, not over, a guest seat, :func:`aborted`: then
        it is marked so) or was rated already."""
        if not match.rated or match.status != "finished" or match.result is None:
            return None
        when = now()
        if aborted(match):
            with self.engine.begin() as connection:
                connection.execute(
                    db.matches.update()
                    .where(db.matches.c.id == match.id, db.matches.c.rated_at.is_(None))
                    .values(rated_at=when, aborted=True)
                )
            return None
        players = [seat_player(match, s.seat) for s in match.seats]
        if any(p is None for p in players):
            return None
        seated = [p for p in players if p is not None]
        with self.engine.begin() as connection:
            claimed = connection.execute(
                db.matches.update()
                .where(db.matches.c.id == match.id, db.matches.c.rated_at.is_(None))
                .values(rated_at=when)
            )
            if claimed.rowcount != 1:
                return None
            _ensure(connection, seated, match.game, when)
            before = _ratings(connection, seated, match.game, lock=True)
            teams = [[_model.rating(mu=before[p].mu, sigma=before[p].sigma)] for p in seated]
            after = _model.rate(teams, ranks=[float(r) for r in ranks(match)])
            moved: dict[str, list[tuple[float, float]]] = defaultdict(list)
            for player, team in zip(seated, after, strict=True):
                moved[player].append((team[0].mu, team[0].sigma))
            new: dict[str, Rating] = {}
            for player, outcomes in moved.items():
                old = before[player]
                mu = old.mu + sum(m - old.mu for m, _ in outcomes) / len(outcomes)
                sigma = old.sigma + sum(s - old.sigma for _, s in outcomes) / len(outcomes)
                new[player] = Rating(mu, sigma, old.games + 1)
                connection.execute(
                    db.ratings.update()
                    .where(db.ratings.c.player == player, db.ratings.c.game == match.game)
                    .values(mu=mu, sigma=sigma, games=old.games + 1, updated_at=when)
                )
                connection.execute(
                    db.rating_history.insert().values(
                        player=player,
                        game=match.game,
                        match_id=match.id,
                        mu=mu,
                        sigma=sigma,
                        at=when,
                    )
                )
            _flag_repeats(connection, match, when)
        return new

    def unrated(self) -> list[str]:
        """Finished rated matches not rated yet (the process that finished them died)."""
        query = sa.select(db.matches.c.id).where(
            db.matches.c.rated.is_(True),
            db.matches.c.status == "finished",
            db.matches.c.rated_at.is_(None),
        )
        with self.engine.connect() as connection:
            return [str(r.id) for r in connection.execute(query)]

    def leaderboard(self, game: str, limit: int) -> list[dict[str, Any]]:
        """The best ``limit`` players of ``game`` by shown rating (suspended accounts left
        out): name, kind, rating, mu, sigma, games."""
        ordinal = db.ratings.c.mu - 3 * db.ratings.c.sigma
        query = (
            sa.select(db.ratings, db.accounts.c.name, db.accounts.c.suspended_at)
            .outerjoin(
                db.accounts,
                db.ratings.c.player == sa.literal("account:") + db.accounts.c.id,
            )
            .where(db.ratings.c.game == game)
            .order_by(ordinal.desc(), db.ratings.c.player)
        )
        rows: list[dict[str, Any]] = []
        with self.engine.connect() as connection:
            for row in connection.execute(query):
                if len(rows) >= limit:
                    break
                values = row._mapping
                player = str(values["player"])
                if player.startswith("account:"):
                    if values["name"] is None or values["suspended_at"] is not None:
                        continue
                    name, kind = str(values["name"]), "account"
                else:
                    name, kind = player, "bot"
                rating = Rating(float(values["mu"]), float(values["sigma"]), int(values["games"]))
                rows.append({"name": name, "kind": kind, **rating.to_json()})
        return rows

    def history(self, player: str, game: str, limit: int | None = 500) -> list[dict[str, Any]]:
        """``player``'s rating after each of its last ``limit`` rated matches of ``game``
        (``None``: all), oldest first; ``games``: its rated games by then (a voided result
        leaves no row, so the rows count them)."""
        mine = sa.and_(db.rating_history.c.player == player, db.rating_history.c.game == game)
        query = (
            sa.select(db.rating_history)
            .where(mine)
            .order_by(db.rating_history.c.at.desc(), db.rating_history.c.id.desc())
            .limit(limit)
        )
        with self.engine.connect() as connection:
            rows = list(connection.execute(query))
            total = len(rows)
            if limit is not None and total == limit:
                count = sa.select(sa.func.count()).select_from(db.rating_history).where(mine)
                total = int(connection.execute(count).scalar_one())
        out = []
        for n, row in enumerate(reversed(rows)):
            at = _aware(row.at)
            assert at is not None
            games = total - len(rows) + n + 1
            out.append(
                {
                    "at": at.isoformat(),
                    "match": str(row.match_id),
                    "rating": shown(row.mu, row.sigma),
                    "provisional": provisional(games, row.sigma),
                    "games": games,
                    "mu": row.mu,
                    "sigma": row.sigma,
                }
            )
        return out

    def changes(self, match: MatchRow) -> dict[str, Any]:
        """What rating ``match`` gave each seat (the final screen): ``state`` is
        ``"unrated"`` (not a rated match), ``"pending"`` (not rated yet: not over, or over a
        moment ago), ``"aborted"``, ``"voided"`` or ``"rated"``; then ``seats`` holds, per
        seat, its player's shown rating ``before`` and ``after`` the match, the ``change``
        and whether the new rating is ``provisional`` (two seats of one bot level share its
        change). Each player's rating before is its history's previous point (a new
        player's where there is none)."""
        if not match.rated:
            return {"state": "unrated", "seats": []}
        history = db.rating_history.c
        with self.engine.connect() as connection:
            rated = connection.execute(
                sa.select(db.matches.c.rated_at).where(db.matches.c.id == match.id)
            ).scalar_one_or_none()
            if rated is None:
                return {"state": "pending", "seats": []}
            if match.aborted or match.voided:
                return {"state": "aborted" if match.aborted else "voided", "seats": []}
            found: dict[str, dict[str, Any]] = {}
            for row in connection.execute(
                sa.select(db.rating_history)
                .where(history.match_id == match.id, history.game == match.game)
                .order_by(history.id)
            ):
                earlier = connection.execute(
                    sa.select(history.mu, history.sigma, sa.func.count().over().label("games"))
                    .where(
                        history.player == row.player,
                        history.game == match.game,
                        history.id < row.id,
                    )
                    .order_by(history.id.desc())
                    .limit(1)
                ).first()
                mu, sigma, games = (START_MU, START_SIGMA, 0) if earlier is None else tuple(earlier)
                before, after = shown(mu, sigma), shown(row.mu, row.sigma)
                found[str(row.player)] = {
                    "before": before,
                    "after": after,
                    "change": after - before,
                    "provisional": provisional(int(games) + 1, row.sigma),
                }
        seats = []
        for seat in match.seats:
            player = seat_player(match, seat.seat)
            if player in found:
                seats.append({"seat": seat.seat, "name": seat.name, **found[player]})
        return {"state": "rated", "seats": seats}

    def ratings_of(self, player: str) -> dict[str, Rating]:
        """``player``'s ratings by game (only games it played rated)."""
        query = sa.select(db.ratings).where(db.ratings.c.player == player)
        with self.engine.connect() as connection:
            return {
                str(r.game): Rating(float(r.mu), float(r.sigma), int(r.games))
                for r in connection.execute(query)
            }


def _ratings(
    connection: sa.Connection, players: list[str], game: str, lock: bool = False
) -> dict[str, Rating]:
    """The ratings of ``players`` in ``game`` (a new player's where none is stored);
    ``lock``: their rows stay locked to the transaction (PostgreSQL), so two matches that
    end together cannot both update a bot level's rating from the same value."""
    query = (
        sa.select(db.ratings)
        .where(db.ratings.c.player.in_(sorted(set(players))), db.ratings.c.game == game)
        .order_by(db.ratings.c.player)
    )
    if lock:
        query = query.with_for_update()
    found = {
        str(r.player): Rating(float(r.mu), float(r.sigma), int(r.games))
        for r in connection.execute(query)
    }
    return {p: found.get(p, Rating(START_MU, START_SIGMA, 0)) for p in players}


def _flag_repeats(connection: sa.Connection, match: MatchRow, when: datetime) -> None:
    """Flag for moderators each pair of accounts in ``match`` whose seats were taken from
    one client address and who finished :data:`FLAG_REPEATS` rated matches against each
    other so within :data:`FLAG_WINDOW` (``match``, rated at ``when`` in this transaction,
    among them): a new flag, or the pair's open flag of that window with the matches added.
    Run in the rating's transaction, which holds both accounts' rating rows locked
    (PostgreSQL; SQLite's write lock), so two of the pair's matches rated at once flag it
    once."""
    seats = [
        s
        for s in match.seats
        if s.kind == "person" and s.account_id is not None and s.address is not None
    ]
    pairs = sorted(
        {
            (min(a.account_id, b.account_id), max(a.account_id, b.account_id), a.address)
            for i, a in enumerate(seats)
            for b in seats[i + 1 :]
            if a.address == b.address
            and a.account_id is not None
            and b.account_id is not None
            and a.account_id != b.account_id
        }
    )
    since = when - FLAG_WINDOW
    for first, second, address in pairs:
        one, two = db.seats.alias("one"), db.seats.alias("two")
        query = (
            sa.select(db.matches.c.id)
            .join(one, one.c.match_id == db.matches.c.id)
            .join(two, two.c.match_id == db.matches.c.id)
            .where(
                db.matches.c.rated.is_(True),
                db.matches.c.aborted.is_(False),
                db.matches.c.voided_at.is_(None),
                db.matches.c.rated_at >= since,
                one.c.account_id == first,
                two.c.account_id == second,
                one.c.address == two.c.address,
            )
            .order_by(db.matches.c.rated_at, db.matches.c.id)
        )
        found = list(dict.fromkeys(str(r.id) for r in connection.execute(query)))
        if len(found) < FLAG_REPEATS:
            continue
        flags = db.rating_flags.c
        open_flag = connection.execute(
            sa.select(db.rating_flags)
            .where(
                flags.reason == SAME_ADDRESS,
                flags.account_a == first,
                flags.account_b == second,
                flags.resolved_at.is_(None),
                flags.created_at >= since,
            )
            .order_by(flags.id.desc())
        ).first()
        if open_flag is None:
            connection.execute(
                db.rating_flags.insert().values(
                    reason=SAME_ADDRESS,
                    account_a=first,
                    account_b=second,
                    address=address,
                    matches=found,
                    created_at=when,
                    updated_at=when,
                )
            )
        else:
            known = [str(m) for m in open_flag.matches]
            connection.execute(
                db.rating_flags.update()
                .where(flags.id == open_flag.id)
                .values(matches=known + [m for m in found if m not in known], updated_at=when)
            )


class NotVoidableError(Exception):
    """The match has no rated result to void: not rated, not over, not rated yet, aborted,
    or voided already."""


def void_result(connection: sa.Connection, match_id: str, when: datetime) -> list[str]:
    """Void the rated result of ``match_id`` in the caller's transaction (a moderator's
    action, docs/server.md "Moderation"): the match is marked voided (``voided_at``), and
    each of its rated players gets back exactly what this result changed — its ``mu`` and
    ``sigma`` move back by the change its history row of this match records (that row's
    values less those of the player's row before it, or a new player's), it counts one
    rated game fewer (a player left with none has no rating in that game any more), its
    later history rows move by the same amounts (the chart goes on from where it was), and
    the match's history rows go. Later results are not rated again: their changes stay as
    they were computed. Returns the players changed; :class:`NotVoidableError` if the match
    has no rated result to void. The players' rating rows stay locked to the transaction
    (PostgreSQL), so a result rated at the same moment cannot interleave."""
    claimed = connection.execute(
        db.matches.update()
        .where(
            db.matches.c.id == match_id,
            db.matches.c.rated.is_(True),
            db.matches.c.status == "finished",
            db.matches.c.rated_at.is_not(None),
            db.matches.c.aborted.is_(False),
            db.matches.c.voided_at.is_(None),
        )
        .values(voided_at=when)
    )
    if claimed.rowcount != 1:
        raise NotVoidableError(match_id)
    game = str(
        connection.execute(
            sa.select(db.matches.c.game).where(db.matches.c.id == match_id)
        ).scalar_one()
    )
    history = db.rating_history.c
    rows = connection.execute(
        sa.select(db.rating_history)
        .where(history.match_id == match_id, history.game == game)
        .order_by(history.id)
    ).all()
    players = sorted({str(r.player) for r in rows})
    current = _ratings(connection, players, game, lock=True)
    for player in players:
        row = next(r for r in rows if r.player == player)
        before = connection.execute(
            sa.select(history.mu, history.sigma)
            .where(history.player == player, history.game == game, history.id < row.id)
            .order_by(history.id.desc())
            .limit(1)
        ).first()
        mu_before, sigma_before = (START_MU, START_SIGMA) if before is None else before
        mu_change, sigma_change = row.mu - mu_before, row.sigma - sigma_before
        connection.execute(
            db.rating_history.update()
            .where(history.player == player, history.game == game, history.id > row.id)
            .values(mu=history.mu - mu_change, sigma=history.sigma - sigma_change)
        )
        rating = current[player]
        mine = sa.and_(db.ratings.c.player == player, db.ratings.c.game == game)
        if rating.games <= 1:
            connection.execute(db.ratings.delete().where(mine))
        else:
            connection.execute(
                db.ratings.update()
                .where(mine)
                .values(
                    mu=rating.mu - mu_change,
                    sigma=rating.sigma - sigma_change,
                    games=rating.games - 1,
                    updated_at=when,
                )
            )
    connection.execute(db.rating_history.delete().where(history.match_id == match_id))
    return players


def _ensure(connection: sa.Connection, players: list[str], game: str, when: datetime) -> None:
    """A row for each of ``players`` in ``game`` (a new player's rating), whoever else
    creates it at the same moment."""
    rows = [
        {
            "player": p,
            "game": game,
            "mu": START_MU,
            "sigma": START_SIGMA,
            "games": 0,
            "updated_at": when,
        }
        for p in sorted(set(players))
    ]
    if connection.dialect.name == "postgresql":
        connection.execute(pg_insert(db.ratings).on_conflict_do_nothing(), rows)
    else:
        connection.execute(sqlite_insert(db.ratings).on_conflict_do_nothing(), rows)
