"""The server's tables (SQLAlchemy Core) and the engine for a database URL.

The match tables: ``matches`` (one row per match: its record without the actions, options,
status, the ply stored, the seat to move and when its decision began), ``seats`` (one row
per seat: who plays it, the hashes of its secret token and invite code, when its player was
last seen, a bot standing in) and ``actions`` (one row per match and ply, primary key
``(match_id, ply)``: two racing actions for the same ply cannot both land). Then the
community's: ``accounts``, ``login_sessions``, ``ratings``, ``rating_history`` and
``rating_flags``, ``seeks`` and ``seek_players`` (the lobby), ``chat``, ``mutes``,
``admin_log``, ``mail_log``, ``email_links`` (password resets, confirmed addresses),
``server_keys`` and ``reviews`` (finished matches' reviews, computed step by step). Alembic
creates and migrates them (:func:`migrate`); the metadata here is what the migrations build.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

metadata = sa.MetaData()

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("header", sa.JSON, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("host_hash", sa.String(64), nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("ply", sa.Integer, nullable=False),
    sa.Column("to_move", sa.Integer, nullable=False),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, index=True),
    # when the decision now due began (the turn clock runs from here): set when the match
    # starts, each time an action is stored or taken back, and when a player takes their
    # seat back from a stand-in
    sa.Column("turn_since", sa.DateTime(timezone=True), nullable=True),
    # playing again: the match its players asked for after this one, and the one before
    sa.Column("next_match", sa.String(32), nullable=True),
    sa.Column("previous_match", sa.String(32), nullable=True),
    # a rated match changes its players' ratings when it ends (rated_at: when it did)
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("rated_at", sa.DateTime(timezone=True), nullable=True),
    # with a time control: when the decision now due runs out of time (its seat's clock
    # and bank together); None without one or while no person is to move
    sa.Column("deadline", sa.DateTime(timezone=True), nullable=True, index=True),
    # a rated match that ended with a person seat that never made a move: aborted, its
    # result moves no rating (set when it is rated; docs/server.md, "Ratings")
    sa.Column("aborted", sa.Boolean, nullable=False, server_default=sa.false()),
    # a moderator voided its rated result: its rating changes were taken back
    # (docs/server.md, "Moderation")
    sa.Column("voided_at", sa.DateTime(timezone=True), nullable=True),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("level", sa.String(16), nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
    sa.Column("invite_hash", sa.String(64), nullable=True),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True),
    sa.Column("stand_in", sa.String(16), nullable=True),
    # the account that plays this seat (None: a guest or a bot)
    sa.Column("account_id", sa.String(24), nullable=True, index=True),
    # seconds left in the seat's bank (a real-time time control), None without one
    sa.Column("bank", sa.Float, nullable=True),
    # the seat ran out of time: a bot plays it on (in a rated match it is ranked last)
    sa.Column("timed_out", sa.Boolean, nullable=False, server_default=sa.false()),
    # its player made a move of their own (not a bot standing in): a rated match with a
    # person seat that never did is aborted
    sa.Column("moved", sa.Boolean, nullable=False, server_default=sa.false()),
    # a bot stood in for its player at some point (in a rated match it is ranked last)
    sa.Column("stood_in", sa.Boolean, nullable=False, server_default=sa.false()),
    # the client address the seat was taken from, then the one its first move came from
    # (repeated rated results from one address are flagged: rating_flags)
    sa.Column("address", sa.String(64), nullable=True),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("notation", sa.String(64), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)


# -- accounts, ratings, the lobby, chat (docs/server.md, "Accounts") ----------------------

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("name", sa.String(32), nullable=False),
    # the name as compared (case-folded): two accounts cannot differ only in case
    sa.Column("name_key", sa.String(32), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("language", sa.String(8), nullable=False),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("email_turns", sa.Boolean, nullable=False, server_default=sa.true()),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("suspended_reason", sa.String(200), nullable=True),
    # a moderator (keltis admin grant-moderator) since then; None: not one
    sa.Column("moderator_since", sa.DateTime(timezone=True), nullable=True),
    # a moderator muted the account: its chat is refused until then
    sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True),
    # unused since migration 0005 (log-ins are counted in login_attempts)
    sa.Column("failed_logins", sa.Integer, nullable=False, server_default="0"),
    sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
    # the generation of the tokens derived for the account's seats: raised when its
    # password changes, all its sessions end, or it is suspended (old seat tokens stop)
    sa.Column("seat_epoch", sa.Integer, nullable=False, server_default="0"),
    # when its owner clicked the link sent to ``email`` (None: not confirmed, or no address):
    # only a confirmed address gets e-mails (turns, password resets); a new address is
    # unconfirmed again
    sa.Column("email_confirmed_at", sa.DateTime(timezone=True), nullable=True),
    # migration 0012 (keltis.server.friends): e-mail a direct challenge; hide from followers
    # whether it is online; when it last had a page of the site open (online to followers)
    sa.Column("email_challenges", sa.Boolean, nullable=False, server_default=sa.true()),
    sa.Column("hide_online", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True),
    # migration 0013: the IANA time zone its e-mails write times in (None: UTC)
    sa.Column("time_zone", sa.String(64), nullable=True),
)
# a password reset asked for by e-mail address finds its accounts through this index
sa.Index("ix_accounts_email", sa.func.lower(accounts.c.email))

email_links = sa.Table(
    "email_links",
    metadata,
    # the one-time links e-mailed to an account (docs/server.md, "Password resets and
    # confirmed addresses"): one row per account and purpose ("reset": a new password;
    # "confirm": the address is its owner's), the newest link replacing the one before
    sa.Column(
        "account_id",
        sa.String(24),
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("purpose", sa.String(16), primary_key=True),
    # the SHA-256 of the link's secret, never the secret; None once used (or replaced)
    sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
    # the address the link was sent to (a confirmation confirms that address only)
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    # links sent since day_start (a day's cap on confirmation links)
    sa.Column("day_start", sa.DateTime(timezone=True), nullable=False),
    sa.Column("day_count", sa.Integer, nullable=False, server_default="0"),
)

login_attempts = sa.Table(
    "login_attempts",
    metadata,
    # the name tried (case-folded, whether or not an account has it) and the client's
    # address; address "*" counts the name's failures from addresses it never logged in from
    sa.Column("name_key", sa.String(64), primary_key=True),
    sa.Column("address", sa.String(64), primary_key=True),
    # attempts counted (before their password is checked) since window_start
    sa.Column("failures", sa.Integer, nullable=False, server_default="0"),
    sa.Column("window_start", sa.DateTime(timezone=True), nullable=False),
    sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
    # the account has logged in from this address (exempt from the name's global back-off)
    sa.Column("trusted", sa.Boolean, nullable=False, server_default=sa.false()),
)

login_sessions = sa.Table(
    "login_sessions",
    metadata,
    # the SHA-256 of the session cookie's secret, never the secret
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column(
        "account_id",
        sa.String(24),
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    # the token state-changing requests must carry beside the cookie (cross-site requests)
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
)

ratings = sa.Table(
    "ratings",
    metadata,
    # "account:<id>" or "bot:<level>"
    sa.Column("player", sa.String(40), primary_key=True),
    sa.Column("game", sa.String(16), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

rating_history = sa.Table(
    "rating_history",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player", sa.String(40), nullable=False),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("match_id", sa.String(32), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_rating_history_player", "player", "game", "at"),
)

seeks = sa.Table(
    "seeks",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("account_id", sa.String(24), nullable=False, index=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    # the time control, the variant and what else the match is to have
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("rating_min", sa.Float, nullable=True),
    sa.Column("rating_max", sa.Float, nullable=True),
    # seconds after which bots take the seats still empty (None: wait for people)
    sa.Column("bots_after", sa.Integer, nullable=True),
    # "open", "started" (match_id names the match) or "cancelled"
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("match_id", sa.String(32), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    # migration 0012: a challenge, addressed to this account alone (not in the public list;
    # only it may join; it may decline: status "declined")
    sa.Column("for_account", sa.String(24), nullable=True, index=True),
)

seek_players = sa.Table(
    "seek_players",
    metadata,
    sa.Column("seek_id", sa.String(16), sa.ForeignKey("seeks.id"), primary_key=True),
    sa.Column("account_id", sa.String(24), primary_key=True),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
)

chat = sa.Table(
    "chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=False),
    # "players" (seats) or "spectators": spectators' words never reach the players
    sa.Column("channel", sa.String(12), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("account_id", sa.String(24), nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_chat_match", "match_id", "id"),
)

mutes = sa.Table(
    "mutes",
    metadata,
    sa.Column("account_id", sa.String(24), primary_key=True),
    sa.Column("muted_id", sa.String(24), primary_key=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)

admin_log = sa.Table(
    "admin_log",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    # who did it (the operating-system user running keltis admin)
    sa.Column("actor", sa.String(64), nullable=False),
    sa.Column("action", sa.String(32), nullable=False),
    sa.Column("target", sa.String(64), nullable=False),
    sa.Column("detail", sa.Text, nullable=False),
    # a moderator's action on the web: the moderator's account (actor is its name), and
    # the report or match it was about (None: keltis admin, or about none)
    sa.Column("actor_account", sa.String(24), nullable=True),
    sa.Column("report_id", sa.Integer, nullable=True),
    sa.Column("match_id", sa.String(32), nullable=True),
)

mail_log = sa.Table(
    "mail_log",
    metadata,
    # one e-mail per decision: the match, the ply it is due at and the account told
    sa.Column("match_id", sa.String(32), primary_key=True),
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.String(24), primary_key=True),
    sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
)

server_keys = sa.Table(
    "server_keys",
    metadata,
    # secrets every server process shares (made once, when the schema is created): the key
    # that derives the seat tokens of accounts' seats and the unsubscribe links
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.String(128), nullable=False),
)

rating_flags = sa.Table(
    "rating_flags",
    metadata,
    # rated results for moderators to look at (docs/server.md, "Ratings"): two accounts
    # (their ids in order) that finished several rated matches against each other within a
    # day, their seats taken from one client address; one flag per pair and day, its
    # matches added as more come
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("reason", sa.String(32), nullable=False),
    sa.Column("account_a", sa.String(24), nullable=False),
    sa.Column("account_b", sa.String(24), nullable=False),
    sa.Column("address", sa.String(64), nullable=True),
    sa.Column("matches", sa.JSON, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    # a moderator looked at it (not set by the server itself)
    sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
    sa.Index("ix_rating_flags_pair", "account_a", "account_b", "created_at"),
)

# -- reports, blocks and warnings (docs/server.md, "Reports and blocks", "Moderation") -----

blocks = sa.Table(
    "blocks",
    metadata,
    # account_id blocked blocked_id: neither joins the other's seeks or matches, and
    # neither hears the other's chat
    sa.Column("account_id", sa.String(24), primary_key=True),
    sa.Column("blocked_id", sa.String(24), primary_key=True, index=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)

reports = sa.Table(
    "reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    # who reported whom (an id None and the name "(deleted)" once that account is deleted)
    sa.Column("reporter_id", sa.String(24), nullable=True),
    sa.Column("reporter", sa.String(32), nullable=False),
    sa.Column("reported_id", sa.String(24), nullable=True, index=True),
    sa.Column("reported", sa.String(32), nullable=False),
    # one of keltis.server.moderation.REASONS, and the reporter's words (one line)
    sa.Column("reason", sa.String(16), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    # where: a match, a chat line of it
    sa.Column("match_id", sa.String(32), nullable=True),
    sa.Column("chat_id", sa.Integer, nullable=True),
    # "open" or "closed" (by a moderator, with a note)
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("closed_by", sa.String(32), nullable=True),
    sa.Column("note", sa.Text, nullable=True),
    sa.Index("ix_reports_status", "status", "id"),
    sa.Index("ix_reports_reporter", "reporter_id", "at"),
)

warnings = sa.Table(
    "warnings",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.String(24), nullable=False, index=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    # the moderator's name and the warning's text, shown to the account until it says it
    # has read it (seen_at)
    sa.Column("moderator", sa.String(32), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True),
)


# -- reviews of finished matches (docs/server.md, "Reviews") -------------------------------

reviews = sa.Table(
    "reviews",
    metadata,
    # one review per match, of every seat, asked for once it was finished
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
    # "queued" (nobody computed a step yet), "running", "done" or "failed"
    sa.Column("status", sa.String(16), nullable=False, index=True),
    # the budget it is computed with (keltis.review.ReviewBudget.to_json): the server's when
    # it was asked for, kept so that a restart with another budget finishes it alike
    sa.Column("budget", sa.JSON, nullable=False),
    # its steps (keltis.review.plan) done so far and in all
    sa.Column("done", sa.Integer, nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    # each step done: its keltis.review.run_step JSON by step ("decision:12", "deal", …),
    # stored as it comes, so that another process (or a restart) goes on from there
    sa.Column("results", sa.JSON, nullable=False),
    # the review (Review.to_json, schema review) once done; why it failed, if it did
    sa.Column("review", sa.JSON, nullable=True),
    sa.Column("error", sa.Text, nullable=True),
    # CPU seconds its steps took, summed over the processes that computed them
    sa.Column("cpu_seconds", sa.Float, nullable=False, server_default="0"),
    # who asked: the account (None: a guest) and the client address
    sa.Column("account_id", sa.String(24), nullable=True),
    sa.Column("address", sa.String(64), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    # the server process computing it (its random name) and until when its claim holds: a
    # process that dies leaves a claim that runs out, and another one takes the review over
    sa.Column("lease_owner", sa.String(32), nullable=True),
    sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
)

# -- the quick-pairing pool (docs/server.md, "Quick pairing"; migration 0010) ------------

pool_entries = sa.Table(
    "pool_entries",
    metadata,
    # one entry per account: joining again replaces it
    sa.Column("account_id", sa.String(24), primary_key=True),
    # a new id at each join: a claim names it, so a replaced entry is never paired
    sa.Column("entry_id", sa.String(16), nullable=False),
    # the pool: game, players, rated and time control in one comparable text
    sa.Column("pool", sa.String(80), nullable=False, index=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    # the time control ({"time": …}), as a seek's options hold it
    sa.Column("options", sa.JSON, nullable=False),
    # the rating shown (ratings.shown) when it joined: what pairing compares
    sa.Column("rating", sa.Float, nullable=False),
    # seconds after which bots may fill its table (None: people only)
    sa.Column("bots_after", sa.Integer, nullable=True),
    # "waiting", or "paired" (match_id names its match)
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("match_id", sa.String(32), nullable=True),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    # when its player's client last asked for it: an entry not seen for a while is dropped
    sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
)


# -- tournaments for people (docs/server.md, "Tournaments"; migration 0011) ----------------

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    # the account that created it (it plays only if it joins)
    sa.Column("account_id", sa.String(24), nullable=False, index=True),
    sa.Column("game", sa.String(16), nullable=False),
    # players per table: 2, or 3-4 (tables grouped by score)
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    # the matches' options: {"time": a time control or None}
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("rounds", sa.Integer, nullable=False),
    # a round's time limit: its matches still playing then count as draws
    sa.Column("round_minutes", sa.Integer, nullable=False),
    sa.Column("max_players", sa.Integer, nullable=False),
    sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
    # "upcoming", "running" or "finished"
    sa.Column("status", sa.String(16), nullable=False),
    # the round now played (0 before the first); claimed by a conditional update from
    # round - 1, so that two processes cannot start one round twice
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("round_ends_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # every change (a player in or out, a round, a table's result): what the lobby's
    # streams are told of
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    sa.Index("ix_tournaments_status", "status", "starts_at"),
)

tournament_players = sa.Table(
    "tournament_players",
    metadata,
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("account_id", sa.String(24), primary_key=True),
    sa.Column("name", sa.String(32), nullable=False),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    # withdrawn during the tournament: paired no more, its results stay (a withdrawal
    # before the start removes the row)
    sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
)

tournament_tables = sa.Table(
    "tournament_tables",
    metadata,
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    # the account ids at the table (one: a bye)
    sa.Column("seats", sa.JSON, nullable=False),
    # its match, once created (claimed in the transaction that stores the match)
    sa.Column("match_id", sa.String(32), nullable=True, index=True),
    # each account's points once the table ended ({account id: points}), set once (SQL
    # NULL until then, not JSON null: "points IS NULL" finds the tables still playing)
    sa.Column("points", sa.JSON(none_as_null=True), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
)


# -- friends, challenges and vacations (docs/server.md, "Friends"; migration 0012) ----------

follows = sa.Table(
    "follows",
    metadata,
    # account_id follows followed_id (one way: the followed account is not asked); its
    # friends page lists the accounts it follows (keltis.server.friends)
    sa.Column("account_id", sa.String(24), primary_key=True),
    sa.Column("followed_id", sa.String(24), primary_key=True, index=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)

vacations = sa.Table(
    "vacations",
    metadata,
    # an account's days off (keltis.server.vacation): from started_at until ``until`` (the
    # planned end), ended_at once it ended (early, or by itself at ``until``) and the
    # deadlines of its correspondence matches were pushed back
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.String(24), nullable=False, index=True),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("until", sa.DateTime(timezone=True), nullable=False),
    sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
)


# -- playing again declined or cancelled (docs/server.md, "Playing again"; migration 0014) --

rematch_answers = sa.Table(
    "rematch_answers",
    metadata,
    # a seat of finished match ``match_id`` said no to ``next_match`` (which plays it
    # again): ``declined`` (asked, it did not join) or ``withdrew`` (it waited in it, then
    # cancelled); the next match was cancelled by it
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("next_match", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("answer", sa.String(16), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

rematch_notices = sa.Table(
    "rematch_notices",
    metadata,
    # what an account playing another seat of the finished match is told of an answer
    # (GET /api/me/matches ``notices``) until it dismisses it (the row is deleted)
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.String(24), nullable=False, index=True),
    sa.Column("match_id", sa.String(32), nullable=False),
    sa.Column("next_match", sa.String(32), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("answer", sa.String(16), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)


# -- account settings: time zone, rematch answers (migration 0013) -------------------------


#: The threads that run the server's blocking database work (``asyncio.to_thread``: the
#: application's lifespan gives the event loop an executor this large); the pools of
#: :func:`make_engine` hold as many connections and a few more, so that a busy executor
#: never opens and closes a connection of its own.
DB_THREADS = 8

#: Seconds an SQLite writer waits for the write lock before "database is locked".
BUSY_SECONDS = 30

#: The statements that take SQLite's write lock (the first of them begins the transaction).
_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER")


def serialised_writes() -> type[sqlite3.Connection]:
    """An ``sqlite3`` connection class whose writers in this process take turns on one
    lock of their own: a connection takes it before its transaction's first write
    statement and lets it go once the transaction committed or rolled back.

    SQLite gives its write lock to one connection at a time; one that finds it taken sleeps
    in SQLite's busy handler (1, 2, 5, 10, … 100 ms between tries) rather than being woken
    when it is free, and under load those sleeps made most of an action's time (docs/
    server.md, "Load"). A thread waiting on this lock is woken as soon as the writer before
    it is done. Other processes on the same file still meet the busy handler; after
    :data:`BUSY_SECONDS` a writer goes on without the lock (as SQLite would give up)."""
    lock = threading.Lock()

    class Cursor(sqlite3.Cursor):
        connection: SerialisedConnection

        def execute(self, sql: str, parameters: Any = (), /) -> Cursor:
            self.connection.before(sql)
            try:
                super().execute(sql, parameters)
            finally:
                self.connection.after()
            return self

        def executemany(self, sql: str, parameters: Any, /) -> Cursor:
            self.connection.before(sql)
            try:
                super().executemany(sql, parameters)
            finally:
                self.connection.after()
            return self

    class SerialisedConnection(sqlite3.Connection):
        holds = False

        def cursor(self, factory: Any = Cursor) -> Any:
            return super().cursor(factory)

        def before(self, sql: str) -> None:
            if not self.holds and sql.lstrip()[:7].upper().startswith(_WRITES):
                self.holds = lock.acquire(timeout=BUSY_SECONDS)

        def after(self) -> None:
            if self.holds and not self.in_transaction:  # no transaction (or it failed)
                self.release()

        def release(self) -> None:
            if self.holds:
                self.holds = False
                lock.release()

        def commit(self) -> None:
            try:
                super().commit()
            finally:
                self.release()

        def rollback(self) -> None:
            try:
                super().rollback()
            finally:
                self.release()

        def close(self) -> None:
            try:
                super().close()
            finally:
                self.release()

    return SerialisedConnection


def default_url(env: dict[str, str] | None = None) -> str:
    """SQLite in the user's data directory: ``$XDG_DATA_HOME/keltis/server.sqlite3``
    (``~/.local/share/keltis/…`` by default)."""
    env = dict(os.environ) if env is None else env
    base = Path(env.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return f"sqlite:///{base / 'keltis' / 'server.sqlite3'}"


def checked_url(url: str) -> str:
    """``url`` if SQLAlchemy can read it as a database URL; else ``ValueError`` saying what
    one looks like (a bare file name is not one)."""
    try:
        sa.make_url(url)
    except sa.exc.ArgumentError:
        raise ValueError(
            f"{url!r} is not a database URL: give e.g. sqlite:////path/to/keltis.sqlite3 or "
            "postgresql://user@host/keltis"
        ) from None
    return url


def is_sqlite(url: str) -> bool:
    """Whether ``url`` names an SQLite database."""
    return sa.make_url(url).get_backend_name() == "sqlite"


def is_postgresql(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database."""
    return sa.make_url(url).get_backend_name() == "postgresql"


def normalise_url(url: str) -> str:
    """``postgresql://`` means psycopg (3), the driver the ``server`` extra installs."""
    parsed = sa.make_url(url)
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def make_engine(url: str) -> Engine:
    """An engine for ``url``, its pool as large as the threads that use it
    (:data:`DB_THREADS`, and a few for the rest). SQLite: the file's folder is created,
    write-ahead logging (a reader never waits for the writer), a busy timeout instead of
    "database is locked", commits durable against a killed process, and the process's
    writers taking turns on a lock of their own (:func:`serialised_writes`)."""
    url = normalise_url(url)
    if is_sqlite(url):
        database = sa.make_url(url).database
        if database and database != ":memory:":
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(
            url,
            connect_args={
                "timeout": BUSY_SECONDS,
                "check_same_thread": False,
                "factory": serialised_writes(),
            },
            pool_size=DB_THREADS + 2,
            max_overflow=10,
        )

        @sa.event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_SECONDS * 1000}")
            cursor.close()

        return engine
    engine = sa.create_engine(url, pool_size=max(10, DB_THREADS + 2), max_overflow=20)
    _ping_when_idle(engine)
    return engine


@contextmanager
def reading(engine: Engine) -> Iterator[sa.Connection]:
    """A connection for reads only: on PostgreSQL one that commits by itself, so that its
    statements cost no ``BEGIN`` (and its return to the pool no ``ROLLBACK``) — two round
    trips fewer for the requests every page repeats (under READ COMMITTED each statement
    reads its own snapshot either way)."""
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            connection.execution_options(isolation_level="AUTOCOMMIT")
        yield connection


#: Seconds a pooled PostgreSQL connection may rest before it is pinged as it is taken.
PING_AFTER = 2.0


def _ping_when_idle(engine: Engine) -> None:
    """Ping a pooled connection as it is taken only if it rested over :data:`PING_AFTER`
    seconds (SQLAlchemy's ``pool_pre_ping`` pings at every checkout: under load a round
    trip more per request, for connections used a moment ago): one the server closed
    meanwhile (a restart, an idle timeout) is replaced before anyone uses it."""

    @sa.event.listens_for(engine, "checkin")
    def _rested_from(_connection: Any, record: Any) -> None:
        record.info["rested_from"] = time.monotonic()

    @sa.event.listens_for(engine, "checkout")
    def _ping(connection: Any, record: Any, _proxy: Any) -> None:
        rested = record.info.get("rested_from")
        if rested is None or time.monotonic() - rested <= PING_AFTER:
            return
        try:
            engine.dialect.do_ping(connection)
        except engine.dialect.loaded_dbapi.Error as error:
            if engine.dialect.is_disconnect(error, connection, None):
                # the pool drops this connection and takes (or opens) another
                raise sa.exc.DisconnectionError() from error
            raise


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest Alembic revision. On PostgreSQL an
    advisory lock keeps two processes starting together from migrating at once."""
    # Alembic is slow to import and needed once, as the server starts: keltis serve's
    # options read default_url from this module before anything is to be migrated
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(74251)"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
