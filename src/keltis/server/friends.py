"""Friends and challenges (docs/server.md, "Friends and challenges").

- **Following** is one way, as on lichess: an account follows up to :data:`MAX_FOLLOWING`
  others without asking them (``follows``). Its list shows each followed account's name,
  whether it is online, its vacation (:mod:`keltis.server.vacation`) and the live matches it
  plays that the follower may see: public ones, and private ones only where the follower
  holds a seat too. An account that blocked the follower, or that the follower blocked, is
  not followed (``403``, the same words whichever side blocked: a block is not revealed).
- **Online** means the account had a page of the site open in the last
  :data:`ONLINE_SECONDS`: the client asks ``GET /api/challenges`` on every page while logged
  in (every 15 s while the page is seen, every minute in the background), which writes
  ``accounts.seen_at`` (at most once a minute per account); or a seat of it in a running
  match was seen (``seats.last_seen``, kept by :class:`keltis.server.upkeep.Presence` while
  its player is connected). An account may hide it (``hide_online``): its followers then
  see ``null`` (not known), never "offline" for a hidden one that is online.
- **A challenge** is a seek addressed to one account (``seeks.for_account``): two seats,
  only the addressee may join it, the public list never shows it, the challenger cancels it
  as any seek (``DELETE /api/seeks/{id}``) and the addressee declines it. The addressee's
  lobby streams (and only theirs) get a ``challenge`` event; the client's header shows the
  open ones. An e-mail goes to a confirmed address whose owner kept ``email_challenges`` on.
  Refused: oneself, an account that does not exist or is suspended (``404``), a block either
  way (``403`` ``challenge.blocked``, the same words whichever side blocked), more than
  :data:`CHALLENGES_PER_HOUR` an hour (``429``) or :data:`~keltis.server.seeks.MAX_CHALLENGES`
  open at once (``409``).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import Any

import sqlalchemy as sa
from pydantic import Field

from keltis.games import DEFAULT_GAME
from keltis.i18n import LANGUAGES, Translator
from keltis.server import db
from keltis.server.accounts import Account
from keltis.server.answers import RefusedError, printable
from keltis.server.bodies import GameName, OpenSeek, TimeControl, _Strict
from keltis.server.mail import POLICY
from keltis.server.master import MatchMaster
from keltis.server.moderation import blocked_pairs
from keltis.server.ratelimit import Buckets
from keltis.server.seeks import Seek, Seeks
from keltis.server.store import _aware, now
from keltis.server.vacation import on_vacation

log = logging.getLogger("keltis.server")

#: Accounts one account may follow.
MAX_FOLLOWING = 200
#: Seconds since an account was last seen that it counts as online.
ONLINE_SECONDS = 120
#: Seconds between two writes of one account's ``seen_at``.
SEEN_EVERY = 60
#: Challenges one account may send an hour on average, and at once.
CHALLENGES_PER_HOUR = 20
CHALLENGE_BURST = 10
#: Follows and unfollows one account may make a minute (a burst of as many).
FOLLOWS_PER_MINUTE = 30


class ChallengeBody(_Strict):
    """A challenge: to whom, the game, rated or not and its time control (two seats)."""

    to: str = Field(min_length=1, max_length=64, description="the challenged account's name")
    game: GameName = DEFAULT_GAME
    rated: bool = Field(False, description="a rated match")
    time: TimeControl | None = Field(None, description="the match's time control")


class Friends:
    """Follows, who is online and challenges, over the match service's database."""

    def __init__(self, master: MatchMaster, seeks: Seeks) -> None:
        self.master = master
        self.engine = master.store.engine
        self.seeks = seeks
        self.challenge_rate = Buckets(CHALLENGES_PER_HOUR / 3600, CHALLENGE_BURST)
        self.follow_rate = Buckets(FOLLOWS_PER_MINUTE / 60, FOLLOWS_PER_MINUTE)

    # -- following ------------------------------------------------------------------------

    def _other(self, account: Account, name: str) -> Account:
        """The account ``name`` (``404`` if none, or suspended; ``400`` for oneself)."""
        other = self.master.accounts.by_name(name)
        if other is None or other.suspended:
            raise RefusedError("account.no_player", status=404, name=printable(name))
        if other.id == account.id:
            raise RefusedError("friends.self", status=400)
        return other

    def follow(self, account: Account, name: str, on: bool) -> None:
        """``account`` follows (``on``) the account ``name``, or no longer does (thread)."""
        other = self._other(account, name)
        mine = sa.and_(db.follows.c.account_id == account.id, db.follows.c.followed_id == other.id)
        with self.engine.begin() as connection:
            if not on:
                connection.execute(db.follows.delete().where(mine))
                return
            if blocked_pairs(connection, [account.id], [other.id]):
                raise RefusedError("friends.blocked", status=403)
            if connection.execute(sa.select(db.follows.c.at).where(mine)).first() is not None:
                return  # followed already: nothing changes
            # the account's row locked (PostgreSQL): two follows at once are counted in turn
            connection.execute(
                sa.select(db.accounts.c.id).where(db.accounts.c.id == account.id).with_for_update()
            )
            connection.execute(
                db.follows.insert().values(account_id=account.id, followed_id=other.id, at=now())
            )
            held = connection.execute(
                sa.select(sa.func.count())
                .select_from(db.follows)
                .where(db.follows.c.account_id == account.id)
            ).scalar_one()
            if held > MAX_FOLLOWING:
                raise RefusedError("friends.too_many", status=409, limit=MAX_FOLLOWING)

    def following(self, account: Account) -> list[dict[str, Any]]:
        """The accounts ``account`` follows, by name: each one's ``name``, ``online``
        (``true``, ``false``, or ``null`` where it hides it), ``vacation`` (until when, or
        ``null``) and ``playing`` (the live matches the follower may see: ``id``,
        ``game``)."""
        when = now()
        with db.reading(self.engine) as connection:
            rows = connection.execute(
                sa.select(
                    db.accounts.c.id,
                    db.accounts.c.name,
                    db.accounts.c.hide_online,
                    db.accounts.c.seen_at,
                )
                .join(db.follows, db.follows.c.followed_id == db.accounts.c.id)
                .where(db.follows.c.account_id == account.id, db.accounts.c.suspended_at.is_(None))
                .order_by(db.accounts.c.name_key)
            ).all()
            # a block made since (by either side) hides the account from the list
            hidden = {
                b for _, b in blocked_pairs(connection, [account.id], [str(r.id) for r in rows])
            }
            rows = [r for r in rows if str(r.id) not in hidden]
            ids = [str(r.id) for r in rows]
            if not ids:
                return []
            live = _live_seats(connection, ids)
            mine = _seated_in(connection, account.id, {m for m, _, _, _ in live})
            away = on_vacation(connection, ids, when)
        recent = when - timedelta(seconds=ONLINE_SECONDS)
        playing: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
        seen_in_match: set[str] = set()
        for match_id, game, public, (account_id, last_seen) in live:
            if public or match_id in mine:
                playing[account_id].append({"id": match_id, "game": game})
            if last_seen is not None and last_seen >= recent:
                seen_in_match.add(account_id)
        answer = []
        for r in rows:
            account_id = str(r.id)
            seen = _aware(r.seen_at)
            online = account_id in seen_in_match or (seen is not None and seen >= recent)
            until = away.get(account_id)
            answer.append(
                {
                    "name": str(r.name),
                    "online": None if r.hide_online else online,
                    "vacation": None if until is None else until.isoformat(),
                    "playing": playing[account_id],
                }
            )
        return answer

    def settings(self, account_id: str, values: dict[str, bool]) -> dict[str, bool]:
        """Change the account's ``hide_online`` and ``email_challenges`` (those in
        ``values``); both as they are now."""
        allowed = {k: v for k, v in values.items() if k in ("hide_online", "email_challenges")}
        with self.engine.begin() as connection:
            if allowed:
                connection.execute(
                    db.accounts.update().where(db.accounts.c.id == account_id).values(**allowed)
                )
            row = connection.execute(
                sa.select(db.accounts.c.hide_online, db.accounts.c.email_challenges).where(
                    db.accounts.c.id == account_id
                )
            ).one()
        return {
            "hide_online": bool(row.hide_online),
            "email_challenges": bool(row.email_challenges),
        }

    def seen(self, account_id: str) -> None:
        """``account_id`` has a page of the site open now (``seen_at``, written at most
        once every :data:`SEEN_EVERY` seconds: read first, so that the header's frequent
        asks cost a read, and then a conditional update — of several at once, one writes)."""
        when = now()
        stale = when - timedelta(seconds=SEEN_EVERY)
        with db.reading(self.engine) as connection:
            seen = _aware(
                connection.execute(
                    sa.select(db.accounts.c.seen_at).where(db.accounts.c.id == account_id)
                ).scalar_one_or_none()
            )
        if seen is not None and seen >= stale:
            return
        with self.engine.begin() as connection:
            connection.execute(
                db.accounts.update()
                .where(
                    db.accounts.c.id == account_id,
                    sa.or_(db.accounts.c.seen_at.is_(None), db.accounts.c.seen_at < stale),
                )
                .values(seen_at=when)
            )

    # -- challenges -----------------------------------------------------------------------

    async def challenge(self, account: Account, body: ChallengeBody) -> Seek:
        """``account`` challenges the account ``body.to``: a seek for two addressed to it."""
        other = await asyncio.to_thread(self._other, account, body.to)
        if await asyncio.to_thread(
            self.master.moderation.blocked_between, account.id, [other.id]
        ):  # either side blocked: the same words, so that a block is not revealed
            raise RefusedError("challenge.blocked", status=403)
        seek_body = OpenSeek.model_validate(
            {"game": body.game, "players": 2, "rated": body.rated, "time": body.time}
        )
        seek = await self.seeks.open(account, seek_body, for_account=other.id)
        if self.master.mailer.enabled:
            self.master.background.spawn(self._mail(seek, other.id))
        return seek

    def challenges(self, account: Account) -> dict[str, list[dict[str, Any]]]:
        """The open challenges to ``account`` (``to_me``) and from it (``from_me``)."""
        with self.engine.connect() as connection:
            ids = [
                str(r.id)
                for r in connection.execute(
                    sa.select(db.seeks.c.id).where(
                        db.seeks.c.status == "open",
                        db.seeks.c.for_account.is_not(None),
                        sa.or_(
                            db.seeks.c.for_account == account.id,
                            db.seeks.c.account_id == account.id,
                        ),
                    )
                )
            ]
        found = self.seeks.store.snapshot(ids)[1] if ids else []
        return {
            "to_me": [
                s.to_json() for s in found if s.for_account == account.id and not s.suspended
            ],
            "from_me": [s.to_json() for s in found if s.account_id == account.id],
        }

    async def _mail(self, seek: Seek, addressee: str) -> None:
        try:
            message = await asyncio.to_thread(self.challenge_mail, seek, addressee)
            if message is not None:
                await asyncio.to_thread(self.master.mailer.deliver, message)
                log.info("e-mailed challenge %s to account %s", seek.id, addressee)
        except Exception:
            log.exception("could not e-mail challenge %s", seek.id)

    def challenge_mail(self, seek: Seek, addressee: str) -> EmailMessage | None:
        """The e-mail telling ``addressee`` of the challenge ``seek``, in its language;
        ``None`` unless it has a confirmed address and kept ``email_challenges`` on."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(db.accounts).where(
                    db.accounts.c.id == addressee,
                    db.accounts.c.email.is_not(None),
                    db.accounts.c.email_confirmed_at.is_not(None),
                    db.accounts.c.email_challenges.is_(True),
                    db.accounts.c.suspended_at.is_(None),
                )
            ).first()
        if row is None or not row.email:
            return None
        mailer = self.master.mailer
        translate = Translator(row.language if row.language in LANGUAGES else "en")
        base = mailer.config.public_url
        game = translate(f"title.{seek.game}")
        unsubscribe = f"{base}/api/unsubscribe-challenges/{addressee}/{self.token(addressee)}"
        message = EmailMessage(policy=POLICY)
        # the challenger's name is letters, digits, "_" and "-" only (account names)
        message["Subject"] = translate("mail.challenge.subject", name=seek.by, game=game)
        message["From"] = mailer.sender()
        message["To"] = str(row.email)
        message["Date"] = format_datetime(now())
        message["Message-ID"] = make_msgid("challenge", domain=mailer._domain())
        message["Auto-Submitted"] = "auto-generated"
        message["List-Unsubscribe"] = f"<{unsubscribe}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message.set_content(
            translate(
                "mail.challenge.body",
                name=str(row.name),
                challenger=seek.by,
                game=game,
                link=f"{base}/#/friends",
                settings=f"{base}/#/settings",
            )
            + "\n"
        )
        return message

    def token(self, account_id: str) -> str:
        """The secret of ``account_id``'s link that turns challenge e-mails off."""
        return self.master.accounts.derive(f"unsubscribe-challenges:{account_id}")

    def unsubscribe(self, account_id: str, token: str) -> bool:
        """Turn off the challenge e-mails of ``account_id`` if ``token`` is its token
        (thread); ``False`` for a wrong token or an unknown account alike."""
        import hmac

        if not 0 < len(account_id) <= 24 or len(token) > 100:
            return False
        expected = self.token(account_id).encode()
        if not hmac.compare_digest(expected, token.encode("utf-8", "surrogatepass")):
            return False
        with self.engine.begin() as connection:
            updated = connection.execute(
                db.accounts.update()
                .where(db.accounts.c.id == account_id)
                .values(email_challenges=False)
            )
        return updated.rowcount == 1


def _live_seats(
    connection: sa.Connection, ids: list[str]
) -> list[tuple[str, str, bool, tuple[str, datetime | None]]]:
    """The running matches where the accounts ``ids`` hold seats: each match's id, game,
    whether it is public, and the seat's account and when its player was last seen."""
    rows = connection.execute(
        sa.select(
            db.matches.c.id,
            db.matches.c.game,
            db.matches.c.public,
            db.seats.c.account_id,
            db.seats.c.last_seen,
        )
        .join(db.seats, db.seats.c.match_id == db.matches.c.id)
        .where(db.seats.c.account_id.in_(ids), db.matches.c.status == "running")
        .order_by(db.matches.c.updated_at.desc())
    )
    return [
        (str(r.id), str(r.game), bool(r.public), (str(r.account_id), _aware(r.last_seen)))
        for r in rows
    ]


def _seated_in(connection: sa.Connection, account_id: str, match_ids: set[str]) -> set[str]:
    """Of ``match_ids``, those where ``account_id`` holds a seat."""
    if not match_ids:
        return set()
    return {
        str(r.match_id)
        for r in connection.execute(
            sa.select(db.seats.c.match_id).where(
                db.seats.c.account_id == account_id, db.seats.c.match_id.in_(match_ids)
            )
        )
    }
