"""The server's settings (``keltis serve``'s options)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass
class ServerConfig:
    """How a server process behaves. Times are in seconds."""

    database: str
    """A SQLAlchemy URL (``sqlite:///…``, ``postgresql://user@host/db``)."""
    bot_delay: float = 0.6
    """A pause before each bot move, so people can follow the game."""
    bot_workers: int = 2
    """Worker processes for bots and hints (0: threads of the server process)."""
    away_after: float = 120.0
    """A player unseen this long is away: the others may hand the seat to a bot."""
    stand_in_level: str = "medium"
    """The level of the bot that plays for an away player."""
    presence_interval: float = 20.0
    """How often a connected player's presence is written down."""
    sweep_interval: float = 15.0
    """How often to look for matches whose bot should move but does not (another process
    died, or this one restarted)."""
    hint_count: int = 3
    """Hints per request."""
    cache_matches: int = 2000
    """Matches kept in memory when no client watches them."""
    max_message: int = 8192
    """The longest client message read (bytes); longer ones are refused."""
    max_frame: int = 65536
    """The longest WebSocket frame accepted at all (the connection is closed, code 1009)."""
    max_body: int = 65536
    """The largest HTTP request body."""
    rate: float = 25.0
    """Client messages per second a connection may send on average …"""
    burst: int = 50
    """… and at once."""
    flood_close: int = 200
    """Messages refused for the rate before the connection is closed (code 1008)."""
    hello_timeout: float = 10.0
    """A live connection that has not said hello this long after it opened is closed."""
    max_connections_per_address: int = 64
    """Live connections one address may hold at once; more are refused."""
    max_connections: int = 0
    """Live connections this process holds at once; 0: as many as its open-file limit
    allows, less what the process needs besides (:func:`guards.connection_limit`)."""
    public_url: str = "http://127.0.0.1:8000"
    """The address invite and spectator links are built from (``--public-url``; never a
    request's ``Host`` header, which whoever sends the request chooses)."""
    create_rate: float = 1.0
    """New matches per second one address may create on average (burst 30)."""
    login_rate: float = 10.0
    """Log-in attempts one address may make per minute on average (burst the same)."""
    forwarded_allow_ips: str = ""
    """Reverse proxies whose ``X-Forwarded-For``/``-Proto`` are believed (uvicorn's
    ``forwarded_allow_ips``: addresses or networks, comma-separated, ``*`` any); empty:
    none, the address of each connection is the client's."""
    token_check_interval: float = 10.0
    """How often the live seats' tokens are checked again (an account's old tokens stop
    working within this long wherever the revocation was not told)."""
    password_threads: int = 1
    """Threads that hash and check passwords (argon2id uses several cores for each
    hash); never the database's threads."""
    password_queue: int = 8
    """Password checks that may wait for those threads; more are refused at once (``503``)."""
    password_rate: float = 1.0
    """Password checks a second on average (burst 10), whatever routes and addresses ask:
    beyond, ``503`` at once — a flood from many addresses takes no more CPU than this."""
    signup_rate: float = 1.0
    """Accounts one address may create per minute on average (burst 5, or more if higher)."""
    allow_setup: bool = False
    """New matches may come with an explicit set-up (the deal chosen by hand: for tests and
    demos; whoever chose it knows every hand)."""
    static_dir: Path | None = None
    """The built browser client (``index.html``, ``assets/``); ``None``: the package's
    ``keltis/server/static``."""
    replay_cache: int = 8
    """Finished matches whose every position is kept for the replay route."""

    # -- the lobby's seeks (docs/server.md, "The lobby: seeks") ----------------------------
    lobby_interval: float = 2.0
    """How often to look for seeks whose wait for people is over (bots take the places
    left), and — on SQLite, which has no notifications — for seeks other processes
    changed (on PostgreSQL five times as seldom: a fallback for what sends no notice)."""
    lobby_heartbeat: float = 15.0
    """Seconds between a lobby stream's comment lines (its heartbeat)."""
    max_lobby_streams_per_address: int = 8
    """Lobby streams (``GET /api/lobby/events``) one address may hold at once; in all they
    count among the process's live connections (``max_connections``)."""
    seek_rate: float = 10.0
    """Changes to seeks (open, join, leave, cancel) one account may make per minute on
    average (``--seek-rate``; half as many at once, at least 5); one address three times as
    many (:class:`keltis.server.seeks.SeekLimits`)."""

    # -- time controls and e-mail (docs/server.md, "Time controls", "Being told …") --------
    timeout_interval: float = 1.0
    """How often to look for decisions whose time control ran out (one indexed query)."""
    smtp_host: str | None = None
    """The SMTP server that sends the e-mails of correspondence matches; ``None``: none are
    sent."""
    smtp_port: int | None = None
    """Its port; ``None``: the usual one for ``smtp_tls`` (25, 587 with STARTTLS, 465)."""
    smtp_tls: str = "none"
    """``none``, ``starttls`` (upgrade a plain connection) or ``tls`` (TLS from the start)."""
    smtp_from: str | None = None
    """The sender's address; ``None``: ``keltis@`` the public address's host."""
    smtp_user: str | None = None
    """The user to log in to the SMTP server as (``None``: no log-in) …"""
    smtp_password: str | None = None
    """… and the password (``$KELTIS_SMTP_PASSWORD``, never an option: it would show in the
    process list)."""
    mail_rate: float = 10.0
    """E-mails one address may ask for — links to set a new password or to confirm an
    address — per hour on average (as many at once; ``--mail-rate``)."""

    # -- reviews of finished matches (docs/server.md, "Reviews") -------------------------
    review_budget: str = ""
    """How hard a review looks (``--review-budget``): a :meth:`keltis.review.ReviewBudget.parse`
    text such as ``"iterations=400,width=3"``; ``""``: the review's defaults."""
    review_workers: int = 1
    """Reviews this process computes at once, each one step at a time in the bot workers'
    pool (``--review-workers``; 0: none — it only takes requests, other processes compute)."""
    review_rate: float = 10.0
    """New reviews one account may ask for per hour on average, as many at once; one address
    three times as many (``--review-rate``)."""
    review_lease: float = 60.0
    """Seconds a process's claim on a review holds without a step stored (``--review-lease``):
    a review whose process died is taken over by another this long after."""
    review_interval: float = 2.0
    """How often to look for reviews waiting (asked for on other processes, or left by a
    process that died)."""
